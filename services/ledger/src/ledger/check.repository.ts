import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

export interface CheckReport {
  ok: boolean;
  entries: number;
  accounts: number;
  problems: string[];
}

/**
 * A check of the books against something beyond the journal: the orders and transfers the ledger observed
 * from their events (src/observed/cross-checks.ts, always on), or what a caller adds.
 */
export type CrossCheck = (db: Kysely<Database>) => Promise<string[]>;

/** Problems of each kind listed at most this often; the count still says how many there are. */
const SAMPLE = 20;

/**
 * Verifies the books: every entry's postings sum to zero; every account's balance equals the sum of its
 * postings and its last posting's balance_after, each posting's balance_after continuing the one before;
 * no merchant part below zero; each entry's merchant changes and balances agree with its postings and
 * with the merchant's previous entry, so a statement adds up; each merchant's payout usage per day and month
 * equals the payouts still counted in it.
 */
export async function checkLedger(
  db: Kysely<Database>,
  crossChecks: readonly CrossCheck[] = [],
): Promise<CheckReport> {
  const problems: string[] = [];
  const collect = async (label: string, query: ReturnType<typeof sql<{ id: string }>>) => {
    const { rows } = await query.execute(db);
    for (const row of rows.slice(0, SAMPLE)) problems.push(`${label}: ${row.id}`);
  };

  await collect(
    'entry does not balance',
    sql<{ id: string }>`select e.key as id from entries e left join postings p on p.entry_id = e.id
      group by e.id, e.key having count(p.entry_id) = 0 or sum(p.amount) <> 0 limit ${SAMPLE}`,
  );
  await collect(
    'account balance differs from its postings',
    sql<{ id: string }>`select a.id from accounts a
      left join (select account, sum(amount) as total, count(*) as n from postings group by account) s on s.account = a.id
      left join lateral (select balance_after from postings p where p.account = a.id order by entry_id desc limit 1) l on true
      where a.balance <> coalesce(s.total, 0) or a.postings <> coalesce(s.n, 0)
         or a.balance <> coalesce(l.balance_after, 0)
      limit ${SAMPLE}`,
  );
  await collect(
    'posting breaks its account running balance',
    sql<{ id: string }>`select account || ' at entry ' || entry_id as id from (
        select account, entry_id, amount, balance_after,
          lag(balance_after, 1, 0::bigint) over (partition by account order by entry_id) as previous
        from postings) x
      where balance_after <> previous + amount limit ${SAMPLE}`,
  );
  await collect(
    'posting without its entry or account',
    sql<{ id: string }>`select p.account || ' at entry ' || p.entry_id as id from postings p
      left join entries e on e.id = p.entry_id left join accounts a on a.id = p.account
      where e.id is null or a.id is null limit ${SAMPLE}`,
  );
  await collect(
    'merchant balance below zero',
    sql<{ id: string }>`select id from accounts
      where kind in ('available', 'pending', 'frozen') and balance < 0 limit ${SAMPLE}`,
  );
  await collect(
    'entry merchant changes differ from its postings',
    sql<{ id: string }>`select e.key as id from entries e
      left join lateral (
        select
          coalesce(sum(amount) filter (where account = 'mch:' || e.mch_no || ':available'), 0) as available,
          coalesce(sum(amount) filter (where account = 'mch:' || e.mch_no || ':pending'), 0) as pending,
          coalesce(sum(amount) filter (where account = 'mch:' || e.mch_no || ':frozen'), 0) as frozen
        from postings where entry_id = e.id) p on true
      where e.available_change <> p.available or e.pending_change <> p.pending or e.frozen_change <> p.frozen
      limit ${SAMPLE}`,
  );
  await collect(
    'entry balances do not follow the previous entry',
    sql<{ id: string }>`select key as id from (
        select key, available_change, pending_change, frozen_change, available_after, pending_after, frozen_after,
          lag(available_after, 1, 0::bigint) over w as a0,
          lag(pending_after, 1, 0::bigint) over w as p0,
          lag(frozen_after, 1, 0::bigint) over w as f0
        from entries window w as (partition by mch_no order by id)) x
      where available_after <> a0 + available_change or pending_after <> p0 + pending_change
         or frozen_after <> f0 + frozen_change
      limit ${SAMPLE}`,
  );
  await collect(
    'payout usage differs from the payouts it counts',
    // A hold counts on its day and month from its freeze until it is released or voided (section 19).
    sql<{ id: string }>`with counted as (
        select mch_no, usage_day as period, sum(amount) as amount, count(*) as n from holds
          where usage_day is not null and status in ('frozen', 'out', 'returned') group by 1, 2
        union all
        select mch_no, left(usage_day, 7), sum(amount), count(*) from holds
          where usage_day is not null and status in ('frozen', 'out', 'returned') group by 1, 2)
      select coalesce(u.mch_no, c.mch_no) || ' ' || coalesce(u.period, c.period) as id
      from payout_usage u full join counted c on c.mch_no = u.mch_no and c.period = u.period
      where coalesce(u.amount, 0) <> coalesce(c.amount, 0) or coalesce(u.count, 0) <> coalesce(c.n, 0)
      limit ${SAMPLE}`,
  );
  for (const cross of crossChecks) problems.push(...(await cross(db)));

  const counts = await sql<{ entries: number; accounts: number }>`select
      (select count(*) from entries)::int as entries, (select count(*) from accounts)::int as accounts`.execute(
    db,
  );
  const row = counts.rows[0];
  return { ok: problems.length === 0, entries: row?.entries ?? 0, accounts: row?.accounts ?? 0, problems };
}
