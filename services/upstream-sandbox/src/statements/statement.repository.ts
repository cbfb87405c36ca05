import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { type MovementKind, STATEMENT_TIME_ZONE } from './clave-rastreo.js';

/** One movement as the statement query reads it. */
export interface StatementRow {
  kind: MovementKind;
  reference: string;
  clave_rastreo: string;
  amount: number;
  occurred_at: Date;
  /** `occurred_at` exactly, as Postgres text: the keyset's cursor (a Date drops the microseconds). */
  cursor_at: string;
  account: string;
  platform_ref: string;
  upstream_ref: string;
  sender_account: string;
  sender_name: string;
  applied: boolean;
}

/** Where the previous page ended: its last row's `cursor_at` and `reference`. */
export interface StatementCursor {
  at: string;
  reference: string;
}

/** `column` falls on `day` (yyyy-MM-dd) of the Mexico City wall clock: the day's bounds are made in SQL. */
function onDay(column: string, day: string): RawBuilder<boolean> {
  const zone = sql.lit(STATEMENT_TIME_ZONE);
  return sql<boolean>`${sql.ref(column)} >= (${day}::date)::timestamp at time zone ${zone}
    and ${sql.ref(column)} < (${day}::date + 1)::timestamp at time zone ${zone}`;
}

/**
 * Up to `limit` movements of `day` after `after`, in (time, reference) order: deposits (applied or
 * not), payouts whose money left (succeeded, and returned ones: they left once) and payout returns.
 * A payout the tester asked the channel to forget is left off, its return too. Each branch reads its
 * own index; the keyset condition is pushed into every branch of the union.
 */
export async function statementPage(
  db: Kysely<Database>,
  page: { day: string; after: StatementCursor | undefined; limit: number },
): Promise<StatementRow[]> {
  const { day, after, limit } = page;
  // Each kind of movement takes its own next page through its own (time, reference) index, and the three
  // pages merge: a page costs `limit` rows of each kind, not the rest of the day (with the limit only
  // outside the union, every page of a million-movement day read all of the day after it).
  const past = (at: string, reference: string) =>
    after
      ? sql`and (${sql.raw(at)}, ${sql.raw(reference)}) > (${after.at}::timestamptz, ${after.reference}::text)`
      : sql``;
  const { rows } = await sql<StatementRow>`
    select m.*, m.occurred_at::text as cursor_at from (
      (select 'deposit'::text as kind, d.id as reference, d.clave_rastreo,
              coalesce(d.statement_amount, d.amount) as amount, d.created_at as occurred_at,
              d.clabe as account, coalesce(a.order_ref, '') as platform_ref, coalesce(a.id, '') as upstream_ref,
              d.sender_account, d.sender_name, d.matched as applied
         from deposits d left join virtual_accounts a on a.id = d.account_id
        where ${onDay('d.created_at', day)} ${past('d.created_at', 'd.id')}
        order by d.created_at, d.id
        limit ${limit})
      union all
      (select 'payout', p.id, p.clave_rastreo,
              coalesce(p.statement_amount, p.amount), p.finished_at,
              p.account, p.payout_ref, p.id, '', '', true
         from payouts p
        where p.clave_rastreo is not null and not p.statement_omit and ${onDay('p.finished_at', day)}
              ${past('p.finished_at', 'p.id')}
        order by p.finished_at, p.id
        limit ${limit})
      union all
      (select 'payout_return', 'rt_' || substr(p.id, 4), p.return_clave_rastreo,
              p.amount, p.returned_at,
              p.account, p.payout_ref, p.id, '', '', true
         from payouts p
        where p.return_clave_rastreo is not null and not p.statement_omit and ${onDay('p.returned_at', day)}
              ${past('p.returned_at', "'rt_' || substr(p.id, 4)")}
        order by p.returned_at, 'rt_' || substr(p.id, 4)
        limit ${limit})
    ) m
    order by m.occurred_at, m.reference
    limit ${limit}`.execute(db);
  return rows;
}
