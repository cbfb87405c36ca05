import type { RetentionRule } from '@agentpay/db';
import { sql } from 'kysely';

const DAY_MS = 86_400_000;

/**
 * What the sandbox (a stand-in channel) forgets, and when: its movements after SANDBOX_RETENTION_DAYS,
 * which must stay longer than the platform reconciles back (a statement of a forgotten day is empty, and a
 * reconciliation of it would find every platform movement missing on the channel). 0 keeps them forever.
 * Rules run in this order each round: deposits before the accounts they point at.
 */
export function sandboxRetentionRules(keep: { days: number }): RetentionRule[] {
  if (keep.days <= 0) return [];
  const keepMs = keep.days * DAY_MS;
  return [
    {
      name: 'notices',
      table: 'notices',
      timeColumn: 'created_at',
      keepMs,
      // A notice still being delivered stays, however old.
      where: sql`t.delivered_at is not null or t.gave_up_at is not null`,
    },
    { name: 'deposits', table: 'deposits', timeColumn: 'created_at', keepMs },
    {
      name: 'payouts',
      table: 'payouts',
      timeColumn: 'created_at',
      keepMs,
      // Finished, and not waiting for the return its tester asked for.
      where: sql`t.status <> 'processing' and (t.planned_outcome <> 'return' or t.returned_at is not null)`,
    },
    {
      name: 'virtual_accounts',
      table: 'virtual_accounts',
      timeColumn: 'created_at',
      keepMs,
      where: sql`t.status <> 'open' and not exists (select 1 from deposits d where d.account_id = t.id)`,
    },
  ];
}
