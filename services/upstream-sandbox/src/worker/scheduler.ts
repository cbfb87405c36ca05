import type { Logger } from '@agentpay/logger';
import { type BackgroundLoop, startBackgroundLoop } from '@agentpay/runtime';

/** One unit of background work; answers how many rows it handled (more may be waiting when > 0). */
export type Step = (signal: AbortSignal) => Promise<number>;

/**
 * Runs `steps` in order, round after round: at once while they find work, otherwise every `pollMs` or when
 * kicked. A failing step is logged and the others still run. All state lives in tables, so what a stopped
 * scheduler left behind is picked up by the next start.
 */
export function startScheduler(opts: {
  logger: Logger;
  pollMs: number;
  steps: Record<string, Step>;
}): BackgroundLoop<number> {
  return startBackgroundLoop({
    name: 'sandbox scheduler',
    logger: opts.logger,
    intervalMs: opts.pollMs,
    round: async (signal) => {
      let handled = 0;
      for (const [name, step] of Object.entries(opts.steps)) {
        if (signal.aborted) break;
        try {
          handled += await step(signal);
        } catch (err) {
          if (!signal.aborted) opts.logger.error({ err, step: name }, 'scheduler step failed');
        }
      }
      return handled;
    },
    next: (handled) => (handled > 0 ? 'more' : 'idle'),
  });
}
