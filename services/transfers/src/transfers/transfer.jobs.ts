import type { Logger } from '@agentpay/logger';
import { traceparentOr } from '@agentpay/proto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { TransferLedger } from '../ledger/ledger.client.js';
import type { PayoutRouter } from '../upstream/router.client.js';
import type { TransferOutcomes } from './transfer.outcomes.js';
import { attachRoute, markChecked, progressDueForCheck, staleSubmissions } from './transfer.repository.js';
import { UPSTREAM_OUTCOMES } from './transfer.state-machine.js';
import { voidAndWithdraw } from './transfer.withdraw.js';

export interface JobDeps {
  db: Kysely<Database>;
  router: PayoutRouter;
  logger: Logger;
  outcomes: TransferOutcomes;
  /** Longest wait for the router's answer to a query. */
  routerTimeoutMs: number;
  ledger: TransferLedger;
  /** Longest wait for the ledger's answer to a VoidFreeze. */
  ledgerTimeoutMs: number;
}

/** The background jobs: abandoned submissions, and reconciliation of transfers long in progress. */
export function transferJobs(deps: JobDeps) {
  const { db, router, logger, outcomes } = deps;
  const { applyOutcome, walkSubmission, keyLearnt } = outcomes;

  /**
   * Transfers still `submitting` long after any submission could have ended lost their submitter (a
   * crash), or were left to void because the ledger could not be reached. One never sent to the router
   * (`pending`, `voiding`) was never created: its freeze, if the ledger wrote one, is voided and the row
   * removed, so the key is free again. One sent (`sent`) may be held upstream, so it becomes `progress`
   * with an unknown submission rather than vanish, keeping its freeze: a notice or reconciliation
   * settles it and a retry never pays twice.
   */
  async function sweepStaleSubmissions(staleMs: number): Promise<number> {
    const rows = await staleSubmissions(db, new Date(Date.now() - staleMs), 100);
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
      const updated = await walkSubmission(
        row,
        'progress',
        { submission: 'unknown', route_id: null, upstream_ref: null },
        traceparentOr(undefined),
      );
      if (updated) {
        moved++;
        logger.error(
          { transferNo: row.transfer_no },
          'abandoned submission: transfer kept in progress with an unknown outcome, needs reconciliation',
        );
      }
    }
    return moved;
  }

  /**
   * Asks upstream about transfers in progress and unchanged for `afterMs`, and applies a final answer:
   * the safety net for a notice that never came, and the only way out of `progress` for a payout the
   * router accepted without hearing from the channel (it answers `fail` once the channel denies
   * knowing it), or whose submission's answer was lost before any route was recorded (the router asks
   * every payout route, and answers `fail` only when none holds it). Each transfer is asked at most
   * once per `afterMs`.
   */
  async function reconcileProgress(afterMs: number): Promise<number> {
    const rows = await progressDueForCheck(db, new Date(Date.now() - afterMs), 50);
    let changed = 0;
    for (const row of rows) {
      const traceparent = traceparentOr(undefined);
      try {
        const state = await router.queryPayout(
          {
            routeId: row.route_id ?? '',
            transferNo: row.transfer_no,
            upstreamRef: row.upstream_ref ?? '',
          },
          { timeoutMs: deps.routerTimeoutMs, traceparent },
        );
        await markChecked(db, row.transfer_no);
        // A payout whose route was never recorded, found on a route: later queries go straight there.
        if (!row.route_id && state.routeId)
          await attachRoute(db, row.transfer_no, {
            routeId: state.routeId,
            upstreamRef: state.upstreamRef,
          });
        const outcome = UPSTREAM_OUTCOMES.find((o) => o === state.status);
        if (!outcome) {
          // Still in flight upstream, yet the channel may have assigned its tracking key meanwhile.
          await keyLearnt(row, state.claveRastreo);
          continue;
        }
        const reported = state.finishedAt ? new Date(state.finishedAt) : undefined;
        const result = await applyOutcome(row.transfer_no, outcome, {
          traceparent,
          finishedAt: reported && !Number.isNaN(reported.getTime()) ? reported : undefined,
          until: Date.now(),
          claveRastreo: state.claveRastreo,
        });
        if (result.changed) {
          changed++;
          logger.warn({ transferNo: row.transfer_no, outcome }, 'reconciliation settled a transfer');
        }
      } catch (err) {
        logger.warn({ err, transferNo: row.transfer_no }, 'reconciliation query failed; will retry');
      }
    }
    return changed;
  }

  return { sweepStaleSubmissions, reconcileProgress };
}
