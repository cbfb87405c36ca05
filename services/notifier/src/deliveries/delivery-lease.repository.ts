import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { EndpointRoom } from './endpoint-limits.js';

// Leasing due deliveries for an attempt, and giving leases back.

/** A delivery this replica has leased for one attempt. */
export interface ClaimedDelivery {
  id: string;
  eventId: string;
  kind: 'pay' | 'transfer';
  orderNo: string;
  version: number;
  notifyUrl: string;
  endpoint: string;
  traceId: string;
  body: string;
  claimToken: string;
  attemptId: number;
  attemptNumber: number;
  roundAttempts: number;
}

/** Attempts left `in_flight` by a replica that died (or lost its lease) can no longer finish. */
export async function abandonInFlightAttempts(
  trx: Transaction<Database>,
  deliveryIds: string[],
): Promise<void> {
  if (deliveryIds.length === 0) return;
  await trx
    .updateTable('delivery_attempts')
    .set({
      outcome: 'abandoned',
      finished_at: sql`now()`,
      error: 'the notifier stopped before recording the reply',
    })
    .where('delivery_id', 'in', deliveryIds)
    .where('outcome', '=', 'in_flight')
    .execute();
}

const CLAIM_LOCK = sql`hashtextextended('agentpay.notifier.claim', 0)`;

/** What a claim may take: `slots` in all, at most `perEndpoint` per endpoint (less where `room` says). */
export interface ClaimOptions {
  owner: string;
  slots: number;
  perEndpoint: number;
  leaseMs: number;
  room?: EndpointRoom;
  /** Told how many of `room.limited` had a due callback left waiting. */
  onLimited?: (endpoints: number) => void;
}

/** The claim of `claimDueDeliveries` (delivery.service.ts), in the caller's transaction. */
export async function leaseDueDeliveries(
  trx: Transaction<Database>,
  opts: ClaimOptions,
): Promise<ClaimedDelivery[]> {
  const room = opts.room ?? { endpoints: [], free: [], defaultFree: opts.perEndpoint, limited: [] };
  const atLimit = room.limited;
  // Counting the endpoints left waiting rides on the lock's statement: no extra round trip per claim.
  const { rows: locked } = await sql<{ limited: number }>`
    select pg_advisory_xact_lock(${CLAIM_LOCK}), ${limitedDue(atLimit)} as limited,
           set_config('enable_seqscan', 'off', true)`.execute(trx);
  if (atLimit.length > 0) opts.onLimited?.(locked[0]?.limited ?? 0);
  const { rows } = await claimStatement({ ...opts, room }).execute(trx);
  if (rows.length === 0) return [];

  await abandonInFlightAttempts(
    trx,
    rows.filter((r) => r.was_leased).map((r) => r.id),
  );
  const attempts = await trx
    .insertInto('delivery_attempts')
    .values(
      rows.map((r) => ({
        delivery_id: r.id,
        number: r.attempt_count,
        worker: opts.owner,
        outcome: 'in_flight' as const,
      })),
    )
    .returning(['id', 'delivery_id'])
    .execute();
  const attemptOf = new Map(attempts.map((a) => [a.delivery_id, a.id]));
  return rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    kind: r.kind,
    orderNo: r.order_no,
    version: r.version,
    notifyUrl: r.notify_url,
    endpoint: r.endpoint,
    traceId: r.trace_id,
    body: r.body,
    claimToken: r.claim_token,
    attemptId: attemptOf.get(r.id)!,
    attemptNumber: r.attempt_count,
    roundAttempts: r.round_attempts,
  }));
}

/** A claimed row as the claim statement returns it. */
interface ClaimedRow {
  id: string;
  event_id: string;
  kind: 'pay' | 'transfer';
  order_no: string;
  version: number;
  notify_url: string;
  endpoint: string;
  trace_id: string;
  body: string;
  claim_token: string;
  attempt_count: number;
  round_attempts: number;
  was_leased: boolean;
}

/**
 * The claim itself, one statement (exported for its plan test). Its shape does not depend on the planner's
 * statistics being current: a claim planned on statistics taken when the table was small (no ANALYZE since;
 * this repository's test Postgres runs without autovacuum) re-ran the whole candidate search once per pending
 * row and took 1.4 s with three million buffer reads (docs/benchmarks.md "Callback backlog"). So:
 * - the leases in force are read once (`leased`, materialized): the per-endpoint counts and the "an older
 *   version of the order is in flight" check both use that small set, never an index scan per candidate;
 * - the candidates are computed once (materialized), each endpoint's from its own range of
 *   `deliveries_endpoint_due_idx` (the only index on the due time, so there is no other way to read them);
 * - each row to lock is looked up by its id from the candidates (a lateral join), and the update finds them by
 *   the same ids; the claim's transaction runs with `enable_seqscan` off, so no plan of it reads the table
 *   whole because statistics say it is small.
 */
export function claimStatement(opts: {
  owner: string;
  slots: number;
  perEndpoint: number;
  leaseMs: number;
  room: EndpointRoom;
}) {
  const { room } = opts;
  return sql<ClaimedRow>`
      with recursive leased as materialized (
        select endpoint, order_no, kind, version
        from deliveries
        where status = 'pending' and lease_until > now()
      ),
      busy as (
        select endpoint, count(*)::int as n from leased group by endpoint
      ),
      -- The endpoints that have a due delivery, one index probe each.
      due_endpoints(endpoint) as (
        (select endpoint from deliveries
         where status = 'pending' and next_attempt_at <= now()
         order by endpoint limit 1)
        union all
        select (select d.endpoint from deliveries d
                where d.status = 'pending' and d.next_attempt_at <= now() and d.endpoint > e.endpoint
                order by d.endpoint limit 1)
        from due_endpoints e
        where e.endpoint is not null
      ),
      room(endpoint, free) as (
        select * from unnest(${room.endpoints}::text[], ${room.free}::int[])
      ),
      candidates as materialized (
        select c.id, c.next_attempt_at
        from due_endpoints e
        left join busy b on b.endpoint = e.endpoint
        left join room r on r.endpoint = e.endpoint
        cross join lateral (
          select d.id, d.next_attempt_at
          from deliveries d
          where d.status = 'pending' and d.endpoint = e.endpoint and d.next_attempt_at <= now()
            and (d.lease_until is null or d.lease_until <= now())
            and not exists (
              select 1 from leased o
              where o.order_no = d.order_no and o.kind = d.kind and o.version < d.version)
          order by d.next_attempt_at, d.id
          limit greatest(0, least(${opts.perEndpoint} - coalesce(b.n, 0), coalesce(r.free, ${room.defaultFree}::int)))
        ) c
        where e.endpoint is not null
      ),
      -- Each row to lock looked up by its id alone (a lateral join, so the candidates drive; no predicate a
      -- partial index could match, so the primary key is the only way in), its state checked once locked.
      picked as (
        select l.id, l.lease_until is not null as was_leased
        from (select c.id from candidates c order by c.next_attempt_at, c.id limit ${opts.slots}) c
        cross join lateral (
          select d.id, d.status, d.lease_until from deliveries d where d.id = c.id
          for update of d skip locked
          offset 0 -- keeps the state checks below out of this lookup (they would let a partial index in)
        ) l
        where l.status = 'pending' and (l.lease_until is null or l.lease_until <= now())
      )
      update deliveries d
      set lease_until = now() + make_interval(secs => ${opts.leaseMs / 1000}),
          lease_owner = ${opts.owner},
          claim_token = gen_random_uuid(),
          attempt_count = d.attempt_count + 1,
          round_attempts = d.round_attempts + 1,
          updated_at = now()
      from picked
      where d.id = any(array(select id from picked)) and d.id = picked.id
      returning d.id, d.event_id, d.kind, d.order_no, d.version, d.notify_url, d.endpoint, d.trace_id, d.body,
                d.claim_token, d.attempt_count, d.round_attempts, picked.was_leased`;
}

/**
 * How many of `endpoints` (those this replica has at their limit) have a due callback no one is sending: the
 * endpoints a claim leaves waiting. One index probe per endpoint, past at most its in-flight leases.
 */
function limitedDue(endpoints: string[]) {
  if (endpoints.length === 0) return sql<number>`0`;
  return sql<number>`(
    select count(*)::int
    from unnest(${endpoints}::text[]) as e(endpoint)
    where exists (
      select 1 from deliveries d
      where d.status = 'pending' and d.endpoint = e.endpoint and d.next_attempt_at <= now()
        and (d.lease_until is null or d.lease_until <= now())))`;
}

/** Milliseconds until the next pending delivery falls due (0 when one is due now), or undefined if none waits. */
export async function msUntilNextDue(db: Kysely<Database>): Promise<number | undefined> {
  // The earliest future due time of each endpoint with pending deliveries (a skip scan of the endpoint
  // index, one probe per endpoint, as the claim walks it), then the least of those.
  // Not greatest(0, …) in SQL: greatest ignores NULL, so with nothing pending it answered 0 and the idle
  // worker claimed in a tight loop (hundreds of transactions a second).
  const { rows } = await sql<{ ms: number | null }>`
    with recursive pending_endpoints(endpoint) as (
      (select endpoint from deliveries where status = 'pending' order by endpoint limit 1)
      union all
      select (select d.endpoint from deliveries d
              where d.status = 'pending' and d.endpoint > e.endpoint
              order by d.endpoint limit 1)
      from pending_endpoints e
      where e.endpoint is not null
    )
    select ceil(extract(epoch from min(n.next_attempt_at) - now()) * 1000)::int as ms
    from pending_endpoints e
    cross join lateral (
      select d.next_attempt_at from deliveries d
      where d.status = 'pending' and d.endpoint = e.endpoint and d.next_attempt_at > now()
      order by d.next_attempt_at limit 1
    ) n
    where e.endpoint is not null`.execute(db);
  const ms = rows[0]?.ms;
  return ms === null || ms === undefined ? undefined : Math.max(0, ms);
}

/** Drops `owner`'s remaining leases in the caller's transaction (`releaseLeases` in delivery.service.ts). */
export async function dropLeases(trx: Transaction<Database>, owner: string): Promise<number> {
  const rows = await trx
    .updateTable('deliveries')
    .set({ lease_until: null, lease_owner: null, claim_token: null, updated_at: sql`now()` })
    .where('lease_owner', '=', owner)
    .where('status', '=', 'pending')
    .returning('id')
    .execute();
  await abandonInFlightAttempts(
    trx,
    rows.map((r) => r.id),
  );
  return rows.length;
}
