import type { Logger } from '@agentpay/logger';

/** One unit of background work; answers how many rows it handled (more may be waiting when > 0). */
export type Step = (signal: AbortSignal) => Promise<number>;

export interface Scheduler {
  /** Runs the steps now instead of at the next poll (after a commit that queued work). */
  kick(): void;
  /** Stops polling, aborts in-flight deliveries and waits for the current round to end. */
  stop(): Promise<void>;
}

/**
 * Runs `steps` over and over: at once while they find work, otherwise every `pollMs` or when kicked.
 * All state lives in tables, so what a stopped scheduler left behind is picked up by the next start.
 */
export function startScheduler(opts: {
  logger: Logger;
  pollMs: number;
  steps: Record<string, Step>;
}): Scheduler {
  const abort = new AbortController();
  let wake: (() => void) | undefined;
  let kicked = false;

  const pause = () =>
    new Promise<void>((resolve) => {
      if (kicked || abort.signal.aborted) return resolve();
      const timer = setTimeout(done, opts.pollMs);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  const loop = (async () => {
    while (!abort.signal.aborted) {
      kicked = false;
      let handled = 0;
      for (const [name, step] of Object.entries(opts.steps)) {
        if (abort.signal.aborted) break;
        try {
          handled += await step(abort.signal);
        } catch (err) {
          if (!abort.signal.aborted) opts.logger.error({ err, step: name }, 'scheduler step failed');
        }
      }
      if (handled === 0) await pause();
    }
  })();

  return {
    kick() {
      kicked = true;
      wake?.();
    },
    async stop() {
      abort.abort();
      wake?.();
      await loop;
    },
  };
}
