import type { Logger } from '@agentpay/logger';
import { traceparentOr } from '@agentpay/proto';
import type { Clock } from '@agentpay/runtime';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { PayoutRouter } from '../upstream/router.client.js';
import type { TransferOutcomes } from './transfer.outcomes.js';
import { markChecked, progressDueForCheck } from './transfer.repository.js';
import { UPSTREAM_OUTCOMES } from './transfer.state-machine.js';

export interface ReconcileSweepDeps {
  db: Kysely<Database>;
  router: PayoutRouter;
  logger: Logger;
  outcomes: TransferOutcomes;
  /** Longest wait for the router's answer to a query. */
  routerTimeoutMs: number;
  /** Which transfers are due for a question: by this clock's time. */
  clock: Clock;
}

/** One round of the reconciliation sweep; answers how many transfers it settled. */
export function createReconcileSweep(deps: ReconcileSweepDeps): (afterMs: number) => Promise<number> {
  const { db, router, logger, clock } = deps;
  const { applyOutcome, keyLearnt, routeLearnt } = deps.outcomes;

  /**
   * Asks upstream about transfers in progress and unchanged for `afterMs`, and applies a final answer:
   * the safety net for a notice that never came, and the only way out of `progress` for a payout the
   * router accepted without hearing from the channel (it answers `fail` once the channel denies
   * knowing it), or whose submission's answer was lost before any route was recorded (the router asks
   * every payout route, and answers `fail` only when none holds it). Each transfer is asked at most
   * once per `afterMs`.
   */
  return async function reconcileProgress(afterMs: number): Promise<number> {
    const rows = await progressDueForCheck(db, new Date(clock.now().getTime() - afterMs), 50);
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
        const route = state.routeId ? { routeId: state.routeId, upstreamRef: state.upstreamRef } : undefined;
        const outcome = UPSTREAM_OUTCOMES.find((o) => o === state.status);
        if (!outcome) {
          // Still in flight upstream, yet the channel may have assigned its tracking key meanwhile.
          await keyLearnt(await routeLearnt(row, route), state.claveRastreo);
          continue;
        }
        const reported = state.finishedAt ? new Date(state.finishedAt) : undefined;
        const result = await applyOutcome(row.transfer_no, outcome, {
          traceparent,
          finishedAt: reported && !Number.isNaN(reported.getTime()) ? reported : undefined,
          until: clock.now().getTime(),
          claveRastreo: state.claveRastreo,
          route,
          cep: { senderBank: state.senderBank, cepUrl: state.cepUrl },
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
  };
}
