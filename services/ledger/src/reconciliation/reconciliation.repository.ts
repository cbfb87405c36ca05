import type { StatementLine__Output } from '@agentpay/proto';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * What a statement line records: a deposit, a payout, a payout the receiving bank returned, or a deposit
 * the channel sent straight back on arrival.
 */
export const STATEMENT_LINE_KINDS = ['deposit', 'payout', 'payout_return', 'deposit_returned'] as const;
export type StatementLineKind = (typeof STATEMENT_LINE_KINDS)[number];

function isStatementLineKind(kind: string): kind is StatementLineKind {
  return (STATEMENT_LINE_KINDS as readonly string[]).includes(kind);
}

export interface RunCounts {
  lines: number;
  matched: number;
  pending: number;
  discrepancies: number;
  /** deposit_returned lines: deposits the channel sent straight back (the platform refused them on arrival). */
  returned: number;
}

/** A line as stored; the router's strings checked once here. */
function lineRow(line: StatementLine__Output, routeId: string, day: string) {
  const amount = Number(line.amount);
  if (!Number.isSafeInteger(amount))
    throw new Error(`statement line ${line.reference}: amount is not centavos`);
  const at = new Date(line.occurred_at);
  if (Number.isNaN(at.getTime()))
    throw new Error(`statement line ${line.reference}: occurred_at is not an instant`);
  if (!line.reference) throw new Error('statement line without a reference');
  const kind = line.kind;
  if (!isStatementLineKind(kind)) {
    throw new Error(`statement line ${line.reference}: unknown kind ${kind}`);
  }
  return {
    route_id: routeId,
    day,
    reference: line.reference,
    kind,
    amount,
    occurred_at: at.toISOString(),
    clave_rastreo: line.clave_rastreo,
    account: line.account,
    platform_ref: line.platform_ref,
    upstream_ref: line.upstream_ref,
    sender_account: line.sender_account,
    sender_name: line.sender_name,
    applied: line.applied,
  };
}

type LineRow = ReturnType<typeof lineRow>;

async function insertLines(trx: Transaction<Database>, rows: readonly LineRow[]): Promise<void> {
  const col = <K extends keyof LineRow>(k: K) => rows.map((r) => r[k]);
  // One statement per batch, each column an array: its text is the same whatever the batch's size.
  await sql`insert into statement_lines (route_id, day, reference, kind, amount, occurred_at, clave_rastreo, account,
      platform_ref, upstream_ref, sender_account, sender_name, applied)
    select * from unnest(${col('route_id')}::text[], ${col('day')}::text[], ${col('reference')}::text[],
      ${col('kind')}::text[], ${col('amount')}::bigint[], ${col('occurred_at')}::timestamptz[],
      ${col('clave_rastreo')}::text[], ${col('account')}::text[], ${col('platform_ref')}::text[],
      ${col('upstream_ref')}::text[], ${col('sender_account')}::text[], ${col('sender_name')}::text[],
      ${col('applied')}::boolean[])`.execute(trx);
}

/**
 * Replaces the route's stored statement of `day` with the lines the stream yields, `batch` lines per
 * insert: at most one batch is ever in memory. Answers the number of lines and of inserts.
 */
export async function loadStatement(
  trx: Transaction<Database>,
  routeId: string,
  day: string,
  lines: AsyncIterable<StatementLine__Output>,
  batch: number,
): Promise<{ lines: number; inserts: number }> {
  await trx.deleteFrom('statement_lines').where('route_id', '=', routeId).where('day', '=', day).execute();
  let pending: LineRow[] = [];
  let count = 0;
  let inserts = 0;
  for await (const line of lines) {
    pending.push(lineRow(line, routeId, day));
    count += 1;
    if (pending.length >= batch) {
      await insertLines(trx, pending);
      inserts += 1;
      pending = [];
    }
  }
  if (pending.length > 0) {
    await insertLines(trx, pending);
    inserts += 1;
  }
  return { lines: count, inserts };
}

export interface MatchWindow {
  routeId: string;
  day: string;
  /** The day's bounds, Mexico City midnight to midnight. */
  start: Date;
  end: Date;
  /** Lines and movements after this instant are still in flight: pending, not discrepancies. */
  cutoff: Date;
  /**
   * How close to a midnight a movement is judged only once the statements of both days around that midnight
   * are stored (the channel may date it on the other side: its clock, and the delay before the platform
   * hears of a payout). The run also judges the previous day's last and the next day's first movements of
   * this width, under their own day, once it has stored the statement that completes them.
   */
  edgeMs: number;
  /**
   * The days either side, and when the statement of each stored now was fetched (the start of its latest
   * successful run), or null: a movement near their midnight is judged only if that statement was fetched
   * after it happened.
   */
  previous: { day: string; fetchedAt: Date | null };
  next: { day: string; fetchedAt: Date | null };
}

/**
 * Matches the stored statement of (route, day) against the platform's movements on the route, both ways,
 * by platform reference + kind + amount, in SQL; stores each mismatch as a discrepancy under a key of its
 * route, day, kind and reference (a run of the same day adds nothing it found before and never touches a
 * resolved one). Answers the counts and the unmatched deposits this run stored for the first time.
 *
 * Platform movements: pay-ins (the pay_in entry of an order observed on the route, at its pay time),
 * transfer payouts and returns (their transfer_out / transfer_return entries, at the observed success and
 * return times), and return payouts of unmatched deposits; plus any movement a line of the day names,
 * whatever route the platform recorded for it. A line of the day matches the movement its platform_ref
 * names when it is the first line of the route (on any stored day) for that movement, the one of equal
 * amount first; a movement of the route and day matches any stored line naming it, on any route.
 */
export async function matchDay(
  trx: Transaction<Database>,
  w: MatchWindow,
): Promise<RunCounts & { newUnmatched: { id: number; amount: number; orderNo: string }[] }> {
  const R = w.routeId;
  const D = w.day;
  // The day widened by the edge on both sides: movements near a midnight are judged by the later run of the
  // two days around it.
  const lo = new Date(w.start.getTime() - w.edgeMs);
  const hi = new Date(w.end.getTime() + w.edgeMs);
  const nearStart = sql`(m.at >= ${lo} and m.at < ${new Date(w.start.getTime() + w.edgeMs)})`;
  const nearEnd = sql`(m.at >= ${new Date(w.end.getTime() - w.edgeMs)} and m.at < ${hi})`;
  // Temporary tables with statistics, so the planner joins 20,000 lines by hash, not by nested loops over CTEs.
  // The route's movements of the day (through the route's success and return indexes: a run costs its day,
  // not the route's history), and any movement a line of the day names whatever route or day the platform
  // recorded for it (an order booked under another or no route is still not missing on the platform); only
  // the route's own can be missing on the channel. A movement of the route is placed on the day of its
  // observed success (or return) time.
  await sql`create temp table recon_movements on commit drop as
      with named as (
        select distinct platform_ref as ref from statement_lines
        where route_id = ${R} and day = ${D} and platform_ref <> ''
      )
      select 'deposit'::text as kind, o.number as ref, e.amount, o.succeeded_at as at, o.mch_no, o.status,
          o.number as order_no, ''::text as transfer_no, o.route_id = ${R} as on_route
        from observed_orders o join entries e on e.key = 'pay_in:' || o.number
        where o.kind = 'pay' and ((o.route_id = ${R} and o.succeeded_at >= ${lo} and o.succeeded_at < ${hi})
          or o.number in (select ref from named))
      union all
      select 'payout', o.number, e.amount, coalesce(o.succeeded_at, e.created_at), o.mch_no, o.status, '', o.number,
          o.route_id = ${R}
        from observed_orders o join entries e on e.key = 'transfer_out:' || o.number
        where o.kind = 'transfer' and ((o.route_id = ${R} and o.succeeded_at >= ${lo} and o.succeeded_at < ${hi})
          or o.number in (select ref from named))
      union all
      select 'payout_return', o.number, e.amount, coalesce(o.returned_at, e.created_at), o.mch_no, o.status, '',
          o.number, o.route_id = ${R}
        from observed_orders o join entries e on e.key = 'transfer_return:' || o.number
        where o.kind = 'transfer' and ((o.route_id = ${R} and o.returned_at >= ${lo} and o.returned_at < ${hi})
          or o.number in (select ref from named))
      union all
      select 'payout', d.resolution_ref, d.amount, d.resolved_at, d.mch_no, 'return_' || d.resolution_status,
          d.order_no, d.resolution_ref, d.route_id = ${R}
        from discrepancies d
        where (d.route_id = ${R} or d.resolution_ref in (select ref from named)) and d.resolution_action = 'return'
          and d.resolution_ref <> '' and d.resolution_status in ('pending', 'success')`.execute(trx);
  await sql`create index on recon_movements (kind, ref)`.execute(trx);
  await sql`analyze recon_movements`.execute(trx);

  await sql`create temp table recon_result on commit drop as
    with ranked as (
      -- The day's lines, and the route's lines of other days naming the same movements. Only applied
      -- deposits and payouts or returns with a platform reference can match; they are ranked per movement.
      select l.*, m.ref as m_ref, m.amount as m_amount, m.mch_no as m_mch_no, m.status as m_status,
          o.number as o_number, o.mch_no as o_mch_no, o.status as o_status, o.amount as o_amount,
          row_number() over (partition by l.kind, l.platform_ref, l.platform_ref <> '' and (l.kind <> 'deposit' or l.applied)
            order by (l.amount = m.amount) desc nulls last, l.occurred_at, l.day, l.reference) as rank
        from statement_lines l
        left join recon_movements m on m.kind = l.kind and m.ref = l.platform_ref and l.platform_ref <> ''
        left join observed_orders o on l.kind = 'deposit' and o.kind = 'pay' and o.number = l.platform_ref
          and l.platform_ref <> ''
        where l.route_id = ${R} and (l.day = ${D} or l.platform_ref in
          (select platform_ref from statement_lines where route_id = ${R} and day = ${D} and platform_ref <> ''))
    ),
    lines as (
      select *,
          case
            -- Refused on arrival and sent straight back by the channel: no money stayed, nothing to match.
            when kind = 'deposit_returned' then 'returned'
            when kind = 'deposit' and (not applied or platform_ref = '') then 'unmatched_deposit'
            when m_ref is not null and rank = 1 and m_amount = amount then 'matched'
            when m_ref is not null and rank = 1 then 'amount_mismatch'
            -- A second deposit to a paid order; a second payout the platform did not make.
            when m_ref is not null and kind = 'deposit' then 'unmatched_deposit'
            when m_ref is not null then 'missing_on_platform'
            when kind = 'deposit' and o_number is not null
              and (o_status in ('close', 'timeout', 'fail') or o_amount <> amount) then 'unmatched_deposit'
            else 'missing_on_platform'
          end as verdict
        from ranked where day = ${D}
    )
    select 'line'::text as side,
        case when verdict not in ('matched', 'returned') and occurred_at > ${w.cutoff} then 'pending' else verdict end as outcome,
        amount, reference as ref, kind as line_kind,
        case when kind = 'deposit' then coalesce(m_mch_no, o_mch_no, '') else coalesce(m_mch_no, '') end as mch_no,
        case when kind = 'deposit' then platform_ref else '' end as order_no,
        case when kind <> 'deposit' and m_ref is not null then platform_ref else '' end as transfer_no,
        case
          when m_ref is not null then jsonb_build_object('kind', kind, case when kind = 'deposit' then 'orderNo' else 'transferNo' end,
            platform_ref, 'mchNo', m_mch_no, 'amount', m_amount, 'status', m_status)
          when o_number is not null then jsonb_build_object('kind', 'deposit', 'orderNo', o_number, 'mchNo', o_mch_no,
            'amount', o_amount, 'status', o_status)
          -- An order the ledger never saw change status (still waiting): the channel names it; its merchant
          -- is the caller's to look up.
          when kind = 'deposit' and platform_ref <> '' then jsonb_build_object('kind', 'deposit', 'orderNo', platform_ref)
        end as platform,
        jsonb_build_object('reference', reference, 'claveRastreo', clave_rastreo, 'kind', kind, 'amount', amount,
          'occurredAt', occurred_at, 'account', account, 'platformRef', platform_ref, 'upstreamRef', upstream_ref,
          'senderAccount', sender_account, 'senderName', sender_name, 'applied', applied) as channel,
        ${D}::text as day
      from lines
    union all
    select 'movement',
        case
          when m.at > ${w.cutoff} then 'pending'
          -- Its line may be on the other day's statement, not stored yet: judged by that day's run.
          when ${nearStart} and not coalesce(m.at < ${w.previous.fetchedAt}::timestamptz, false) then 'pending'
          when ${nearEnd} and not coalesce(m.at < ${w.next.fetchedAt}::timestamptz, false) then 'pending'
          else 'missing_on_channel'
        end,
        m.amount, m.ref, m.kind, m.mch_no, m.order_no, m.transfer_no,
        jsonb_build_object('kind', m.kind, case when m.kind = 'deposit' then 'orderNo' else 'transferNo' end, m.ref,
          'mchNo', m.mch_no, 'amount', m.amount, 'status', m.status, 'at', m.at),
        null,
        case when m.at < ${w.start} then ${w.previous.day} when m.at >= ${w.end} then ${w.next.day} else ${D} end
      from recon_movements m
      where m.on_route and m.at >= ${lo} and m.at < ${hi}
        and not exists (select 1 from statement_lines l where l.platform_ref = m.ref and l.kind = m.kind
          and (l.kind <> 'deposit' or l.applied))`.execute(trx);

  const { rows: inserted } = await sql<{ id: number; kind: string; amount: number; order_no: string }>`
    insert into discrepancies (key, kind, route_id, day, amount, platform, channel, mch_no, order_no, transfer_no)
    select ${R}::text || ':' || day || ':' || outcome || ':' || side || ':' || line_kind || ':' || ref, outcome, ${R}, day,
        amount, platform, channel, mch_no, order_no, transfer_no
      from recon_result
      where outcome not in ('matched', 'pending', 'returned')
      order by side, ref
    on conflict (key) do nothing
    returning id, kind, amount, order_no`.execute(trx);

  // The run's own day: the neighbours' edge movements it judged are counted by their own days' runs.
  const { rows } = await sql<RunCounts>`select
      count(*) filter (where side = 'line')::int as lines,
      count(*) filter (where outcome = 'matched')::int as matched,
      count(*) filter (where outcome = 'pending')::int as pending,
      count(*) filter (where outcome not in ('matched', 'pending', 'returned'))::int as discrepancies,
      count(*) filter (where outcome = 'returned')::int as returned
    from recon_result where day = ${D}`.execute(trx);
  const counts = rows[0] ?? { lines: 0, matched: 0, pending: 0, discrepancies: 0, returned: 0 };
  return {
    ...counts,
    newUnmatched: inserted
      .filter((r) => r.kind === 'unmatched_deposit')
      .map((r) => ({ id: Number(r.id), amount: Number(r.amount), orderNo: r.order_no })),
  };
}
