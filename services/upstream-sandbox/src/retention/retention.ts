import type { RetentionRule } from '@agentpay/db';
import { sql } from 'kysely';

const DAY_MS = 86_400_000;

/**
 * What the sandbox (a stand-in channel) forgets, and when: its movements after SANDBOX_RETENTION_DAYS,
 * which must stay longer than the platform reconciles back (a statement of a forgotten day is empty, and a
 * reconciliation of it would find every platform movement missing on the channel). 0 keeps them forever.
 * Rules run in this order each round: deposits before the accounts they point at, and the STP face's
 * webhook attempts before their webhooks before their orders.
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
    // The STP face: attempts before their webhooks, webhooks before their orders.
    {
      name: 'stp_webhook_attempts',
      table: 'stp_webhook_attempts',
      timeColumn: 'at',
      keepMs,
      where: sql`exists (select 1 from stp_webhooks w where w.id = t.webhook_id
        and (w.delivered_at is not null or w.gave_up_at is not null))`,
    },
    {
      name: 'stp_webhooks',
      table: 'stp_webhooks',
      timeColumn: 'created_at',
      keepMs,
      // Finished, and no attempt of it left (a tester may have resent it lately).
      where: sql`(t.delivered_at is not null or t.gave_up_at is not null)
        and not exists (select 1 from stp_webhook_attempts a where a.webhook_id = t.id)`,
    },
    {
      name: 'stp_orders',
      table: 'stp_orders',
      timeColumn: 'created_at',
      keepMs,
      // Not waiting to settle or to come back, and no webhook about it left.
      where: sql`t.settle_at is null and t.return_at is null
        and not exists (select 1 from stp_webhooks w where w.order_id = t.id)`,
    },
  ];
}
