import { OLDEST_UNPUBLISHED_OUTBOX, publishedOutboxRule, type RetentionRule } from '@agentpay/db';

const DAY_MS = 86_400_000;

/** How long the router keeps what grows with traffic, in days; 0 keeps it forever (docs/deploy.md "Retention"). */
export interface RouterRetention {
  /** OUTBOX_RETENTION_DAYS: published outbox rows; an unpublished row is never deleted. */
  outboxDays: number;
  /**
   * NOTICE_RETENTION_DAYS: recorded notices. A notice is also what makes a channel's redelivery a duplicate,
   * so keep it longer than any channel redelivers; once it is gone a late redelivery is recorded and
   * published again, and payments or transfers apply it idempotently (it changes nothing twice).
   */
  noticeDays: number;
  /**
   * CLABE_QUARANTINE_DAYS: an ended virtual account is kept through its CLABE's quarantine (it is what keeps
   * the CLABE out of use) and NOTICE_RETENTION_DAYS more, so a late deposit still finds its order.
   */
  quarantineDays: number;
}

/**
 * The rules the settings turn on. Each is served by an index (migration 20261124T0200_retention_indexes).
 * A notice and its NoticeReceived event are written in one transaction, so they share `now()`: a notice
 * received at or after the oldest unpublished outbox row may still be waiting for its event to leave, and
 * is kept whatever its age.
 */
export function routerRetentionRules(keep: RouterRetention): RetentionRule[] {
  const rules: RetentionRule[] = [];
  if (keep.outboxDays > 0) rules.push(publishedOutboxRule(keep.outboxDays * DAY_MS));
  if (keep.noticeDays > 0)
    rules.push({
      name: 'upstream_notices',
      table: 'upstream_notices',
      timeColumn: 'received_at',
      keepMs: keep.noticeDays * DAY_MS,
      notAfter: OLDEST_UNPUBLISHED_OUTBOX,
    });
  if (keep.noticeDays > 0) {
    // Deposits and payouts as the router recorded them are read back for their day's statement.
    rules.push(
      {
        name: 'channel_deposits',
        table: 'channel_deposits',
        timeColumn: 'received_at',
        keepMs: keep.noticeDays * DAY_MS,
      },
      {
        name: 'channel_payouts',
        table: 'channel_payouts',
        timeColumn: 'sent_at',
        keepMs: keep.noticeDays * DAY_MS,
      },
      {
        name: 'virtual_accounts',
        table: 'virtual_accounts',
        timeColumn: 'ended_at',
        keepMs: (keep.quarantineDays + keep.noticeDays) * DAY_MS,
      },
    );
  }
  return rules;
}
