import type { RetentionRule } from '@agentpay/db';

const DAY_MS = 86_400_000;

/**
 * How long compliance keeps what grows with traffic, in days (docs/deploy.md "Retention"). Only what the
 * monitoring rules observed of operations, which they read within 7 days at most: lists, their versions, cases,
 * their operations and history are the record the authority may ask for and are kept.
 */
export interface ComplianceRetention {
  /** OBSERVED_RETENTION_DAYS: operations the rules observed; 0 keeps them forever. */
  observedDays: number;
}

/** The rules the settings turn on; observed_operations is read by its (mch_no, at) index's time column. */
export function complianceRetentionRules(keep: ComplianceRetention): RetentionRule[] {
  return keep.observedDays > 0
    ? [
        {
          name: 'observed_operations',
          table: 'observed_operations',
          timeColumn: 'at',
          keepMs: keep.observedDays * DAY_MS,
        },
      ]
    : [];
}
