import type { Logger } from '@agentpay/logger';
import { traceparentOr } from '@agentpay/proto';
import type { Clock } from '@agentpay/runtime';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { TransferLedger } from '../ledger/ledger.client.js';
import type { TransferOutcomes } from './transfer.outcomes.js';
import { staleSubmissions } from './transfer.repository.js';
import { voidAndWithdraw } from './transfer.withdraw.js';

export interface StaleSubmissionSweepDeps {
  db: Kysely<Database>;
  logger: Logger;
  outcomes: TransferOutcomes;
  ledger: TransferLedger;
  /** Longest wait for the ledger's answer to a VoidFreeze. */
  ledgerTimeoutMs: number;
  /** Which submissions are stale: by this clock's time. */
  clock: Clock;
}

/** One round of the sweep of abandoned submissions; answers how many transfers it moved or removed. */
export function createStaleSubmissionSweep(
  deps: StaleSubmissionSweepDeps,
): (staleMs: number) => Promise<number> {
  const { db, logger } = deps;
  const { walkSubmission } = deps.outcomes;

  /**
   * Transfers still `submitting` long after any submission could have ended lost their submitter (a
   * crash), or were left to void because the ledger could not be reached. One never sent to the router
   * (`pending`, `voiding`) was never created: its freeze, if the ledger wrote one, is voided and the row
   * removed, so the key is free again. One sent (`sent`) may be held upstream, so it becomes `progress`
   * with an unknown submission rather than vanish, keeping its freeze: a notice or reconciliation
   * settles it and a retry never pays twice.
   */
  return async function sweepStaleSubmissions(staleMs: number): Promise<number> {
    const rows = await staleSubmissions(db, new Date(deps.clock.now().getTime() - staleMs), 100);
    let moved = 0;
    for (const row of rows) {
      if (row.submission === 'pending' || row.submission === 'voiding') {
        if (await voidAndWithdraw(deps, row, ['pending', 'voiding'])) {
          moved++;
          logger.warn(
            { transferNo: row.transfer_no },
            'abandoned submission never sent upstream: freeze voided and transfer withdrawn',
          );
        }
        continue;
      }
      // No route is known to this sweep; one a notice or query already named is kept (transfer.repository.ts).
      const updated = await walkSubmission(row, 'progress', 'unknown', undefined, traceparentOr(undefined));
      if (updated) {
        moved++;
        logger.error(
          { transferNo: row.transfer_no },
          'abandoned submission: transfer kept in progress with an unknown outcome, needs reconciliation',
        );
      }
    }
    return moved;
  };
}
