import type { Logger } from '@agentpay/logger';
import { type BackgroundLoop, startBackgroundLoop } from '@agentpay/runtime';

export interface TransferSweepDeps {
  logger: Logger;
  /** Pause between rounds (SWEEP_INTERVAL_MS); 0 leaves only runOnce. */
  intervalMs: number;
  /** SUBMISSION_STALE_MS */
  staleMs: number;
  /** RECONCILE_AFTER_MS */
  reconcileAfterMs: number;
  sweepStaleSubmissions(staleMs: number): Promise<number>;
  reconcileProgress(afterMs: number): Promise<number>;
}

/**
 * The transfers' background sweep: stale submissions (their freezes voided) and transfers whose outcome
 * upstream never reported (reconcile.sweep.ts), one after the other each round.
 */
export function startTransferSweep(deps: TransferSweepDeps): BackgroundLoop<void> {
  return startBackgroundLoop({
    name: 'transfers sweep',
    logger: deps.logger,
    intervalMs: deps.intervalMs,
    runAtStart: false,
    round: async () => {
      await deps.sweepStaleSubmissions(deps.staleMs);
      await deps.reconcileProgress(deps.reconcileAfterMs);
    },
  });
}
