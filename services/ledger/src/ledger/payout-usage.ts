import type { PayoutLimits } from '@agentpay/api';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Command } from './booking.js';

// Payout usage (CONTRACT section 19): what a merchant's counted payouts add up to per Mexico City day and
// month, the pure decision of which limit a payout would pass, and the reads and writes bookBatch makes of
// it inside the freeze's transaction (ledger.repository.ts).

/** What a merchant's counted payouts add up to in one period (a day or a month). */
export interface Usage {
  amount: number;
  count: number;
}

/** The key of a merchant's usage in one period (`yyyy-MM-dd` or `yyyy-MM`) in `PlanState.usage`. */
export function usageKey(mchNo: string, period: string): string {
  return `${mchNo}|${period}`;
}

/** A change of a merchant's usage on one day (and so in its month). */
export interface UsageChange {
  mchNo: string;
  day: string;
  amount: number;
  count: number;
}

/**
 * The first of `limits` that counting `amount` on top of `day` and `month` would pass, or undefined. The
 * amount counted is the payout's, without its fee: what leaves for the payee.
 */
export function passedLimit(
  limits: PayoutLimits,
  amount: number,
  day: Usage,
  month: Usage,
): keyof PayoutLimits | undefined {
  if (limits.perTransfer !== null && amount > limits.perTransfer) return 'perTransfer';
  if (limits.daily !== null && day.amount + amount > limits.daily) return 'daily';
  if (limits.dailyCount !== null && day.count + 1 > limits.dailyCount) return 'dailyCount';
  if (limits.monthly !== null && month.amount + amount > limits.monthly) return 'monthly';
  return undefined;
}

/** The periods a usage change moves: its day and that day's month. */
function periodsOf(day: string): [string, string] {
  return [day, day.slice(0, 7)];
}

/**
 * The payout usage a batch may read: today's day and month for each of its merchants, and the day and
 * month each loaded hold counted in (a give-back after midnight moves the day that counted it).
 */
export async function loadUsage(
  trx: Transaction<Database>,
  commands: readonly Command[],
  today: string,
  holdRows: readonly { mch_no: string; usage_day: string | null }[],
): Promise<Map<string, Usage>> {
  const wanted = new Map<string, { mchNo: string; period: string }>();
  const want = (mchNo: string, day: string) => {
    for (const period of periodsOf(day)) wanted.set(usageKey(mchNo, period), { mchNo, period });
  };
  for (const c of commands) if (c.type === 'freeze' && c.limits) want(c.mchNo, today);
  for (const h of holdRows) if (h.usage_day) want(h.mch_no, h.usage_day);
  const usage = new Map<string, Usage>();
  if (wanted.size === 0) return usage;
  const rows = await trx
    .selectFrom('payout_usage')
    .select(['mch_no', 'period', 'amount', 'count'])
    .where(
      'mch_no',
      '=',
      sql<string>`any(${sql.val([...new Set([...wanted.values()].map((w) => w.mchNo))])}::text[])`,
    )
    .where(
      'period',
      '=',
      sql<string>`any(${sql.val([...new Set([...wanted.values()].map((w) => w.period))])}::text[])`,
    )
    .execute();
  for (const r of rows) usage.set(usageKey(r.mch_no, r.period), { amount: r.amount, count: r.count });
  return usage;
}

/** `change` applied to the batch's view of usage, so the next command of the batch sees it. */
export function applyUsage(usage: Map<string, Usage>, change: UsageChange): void {
  for (const period of periodsOf(change.day)) {
    const key = usageKey(change.mchNo, period);
    const now = usage.get(key) ?? { amount: 0, count: 0 };
    usage.set(key, { amount: now.amount + change.amount, count: now.count + change.count });
  }
}

/** Adds the batch's usage changes to the stored usage, per merchant and period, in one statement. */
export async function writeUsage(trx: Transaction<Database>, changes: readonly UsageChange[]): Promise<void> {
  if (changes.length === 0) return;
  const sums = new Map<string, { mchNo: string; period: string; amount: number; count: number }>();
  for (const c of changes) {
    for (const period of periodsOf(c.day)) {
      const key = usageKey(c.mchNo, period);
      const sum = sums.get(key) ?? { mchNo: c.mchNo, period, amount: 0, count: 0 };
      sum.amount += c.amount;
      sum.count += c.count;
      sums.set(key, sum);
    }
  }
  const rows = [...sums.values()].sort((a, b) =>
    usageKey(a.mchNo, a.period) < usageKey(b.mchNo, b.period) ? -1 : 1,
  );
  // A period's row exists before anything is given back to it (the freeze that counted it wrote it), so
  // a give-back is an update: an insert of a negative row would break the check that usage is never < 0.
  const grow = rows.filter((r) => r.amount >= 0 && r.count >= 0);
  const shrink = rows.filter((r) => !(r.amount >= 0 && r.count >= 0));
  const columns = (list: typeof rows) =>
    sql`unnest(${list.map((r) => r.mchNo)}::text[], ${list.map((r) => r.period)}::text[],
      ${list.map((r) => r.amount)}::bigint[], ${list.map((r) => r.count)}::int[])`;
  if (grow.length > 0) {
    await sql`
      insert into payout_usage as u (mch_no, period, amount, count)
      select * from ${columns(grow)}
      on conflict (mch_no, period) do update
        set amount = u.amount + excluded.amount, count = u.count + excluded.count, updated_at = now()`.execute(
      trx,
    );
  }
  if (shrink.length > 0) {
    await sql`
      update payout_usage u set amount = u.amount + v.amount, count = u.count + v.count, updated_at = now()
      from ${columns(shrink)} as v(mch_no, period, amount, count)
      where u.mch_no = v.mch_no and u.period = v.period`.execute(trx);
  }
}

/** A merchant's payout usage on `day` (yyyy-MM-dd) and in its month; zeros where nothing was counted. */
export async function usageOf(
  db: Kysely<Database>,
  mchNo: string,
  day: string,
): Promise<{ day: Usage; month: Usage }> {
  const rows = await db
    .selectFrom('payout_usage')
    .select(['period', 'amount', 'count'])
    .where('mch_no', '=', mchNo)
    .where('period', 'in', periodsOf(day))
    .execute();
  const of = (period: string) => {
    const row = rows.find((r) => r.period === period);
    return { amount: row?.amount ?? 0, count: row?.count ?? 0 };
  };
  return { day: of(day), month: of(day.slice(0, 7)) };
}
