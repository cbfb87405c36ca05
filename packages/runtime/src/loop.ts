import type { Logger } from '@agentpay/logger';

/**
 * What a loop does after a round: `more` runs the next round at once (a full batch: more is probably
 * waiting), `idle` pauses `intervalMs`, a number pauses that many milliseconds (say, until the next row is
 * due), `failed` backs off as a thrown round does, for a round that logged its own failure. A kick ends
 * an idle pause; a failure's back-off is never cut short by a kick, or an outage plus a steady stream of
 * kicks would spin.
 */
export type Next = 'more' | 'idle' | 'failed' | number;

export interface BackgroundLoopOptions<R> {
  /** Names the loop in its log lines. */
  name: string;
  logger: Logger;
  /** One round of work. `signal` aborts when the loop stops; a throw is logged and backs off. */
  round: (signal: AbortSignal) => Promise<R>;
  /** What to do after a round; default `idle`. */
  next?: (result: R) => Next;
  /** The pause when idle. 0 or less: no rounds of its own, only `kick()` and `runOnce()`. */
  intervalMs: number;
  /** First round at start (default) or after the first pause. */
  runAtStart?: boolean;
  /** Back-off after a failed round: doubles from `firstMs` up to `maxMs`; default 250 ms to 10 s. */
  backoff?: { firstMs: number; maxMs: number };
}

export interface BackgroundLoop<R> {
  /** Runs a round now: ends an idle pause, or runs again right after the round in progress. */
  kick(): void;
  /** Runs one round now, after the one in progress, and answers its result (tests and operators). */
  runOnce(): Promise<R>;
  /** Stops: aborts the round's signal, waits for it to end; no round starts after. */
  stop(): Promise<void>;
}

/**
 * The one way a service runs work in the background (outbox relays, sweeps, delivery and scheduler loops):
 * rounds never overlap within a loop, a failing round backs off, and `stop()` waits for the round in flight.
 * State lives in the database, so what a stopped loop leaves is picked up by the next start or replica.
 */
export function startBackgroundLoop<R>(opts: BackgroundLoopOptions<R>): BackgroundLoop<R> {
  const firstBackoffMs = opts.backoff?.firstMs ?? 250;
  const maxBackoffMs = opts.backoff?.maxMs ?? 10_000;
  const abort = new AbortController();
  let kicked = false;
  let sleeper: { wake: () => void; byKick: boolean } | undefined;
  // Rounds run one after another, whether the loop or runOnce() started them.
  let tail: Promise<unknown> = Promise.resolve();

  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => {});
    return run;
  };

  const pause = (ms: number, byKick: boolean) =>
    new Promise<void>((resolve) => {
      if (abort.signal.aborted || (byKick && kicked)) return resolve();
      const wake = () => {
        clearTimeout(timer);
        sleeper = undefined;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleeper = { wake, byKick };
    });

  const loop = (async () => {
    const automatic = opts.intervalMs > 0;
    if (opts.runAtStart === false || !automatic) await pause(automatic ? opts.intervalMs : 2 ** 31 - 1, true);
    let failures = 0;
    while (!abort.signal.aborted) {
      kicked = false;
      let next: Next;
      try {
        const result = await serial(() => opts.round(abort.signal));
        next = opts.next ? opts.next(result) : 'idle';
      } catch (err) {
        if (abort.signal.aborted) break;
        opts.logger.error({ err, loop: opts.name }, 'background round failed; backing off');
        next = 'failed';
      }
      if (abort.signal.aborted) break;
      if (next === 'failed') {
        failures += 1;
        await pause(Math.min(firstBackoffMs * 2 ** (failures - 1), maxBackoffMs), false);
        continue;
      }
      failures = 0;
      if (next === 'more') continue;
      const idleMs = next === 'idle' ? opts.intervalMs : next;
      await pause(idleMs > 0 ? idleMs : 2 ** 31 - 1, true);
    }
  })();

  let stopped: Promise<void> | undefined;
  return {
    kick() {
      kicked = true;
      if (sleeper?.byKick) sleeper.wake();
    },
    runOnce: () => serial(() => opts.round(abort.signal)),
    stop() {
      stopped ??= (async () => {
        abort.abort();
        sleeper?.wake();
        await loop;
        await tail;
      })();
      return stopped;
    },
  };
}
