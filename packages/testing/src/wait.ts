import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/** `<prefix>_<random hex>`: valid as a NATS stream, consumer or subject token, and as a SQL identifier. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

export interface WaitForOptions {
  /** Give up after this long; default 5000 ms. */
  timeoutMs?: number;
  /** Pause between attempts; default 25 ms. */
  intervalMs?: number;
  /** What was awaited, for the timeout error. */
  message?: string;
}

/**
 * Calls `fn` until it returns something other than undefined, null or false, and returns that.
 * A throw counts as "not yet" (so assertions can be retried) and is reported if time runs out.
 */
export async function waitFor<T>(
  fn: () => Promise<T | undefined | false> | T | undefined | false,
  opts: WaitForOptions = {},
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const intervalMs = opts.intervalMs ?? 25;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let lastError: unknown;
    try {
      const value = await fn();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const detail = lastError === undefined ? '' : `; last error: ${String(lastError)}`;
      throw new Error(`${opts.message ?? 'condition not met'} (waited ${timeoutMs} ms${detail})`, {
        cause: lastError,
      });
    }
    await sleep(intervalMs);
  }
}

export interface Gate {
  /** Settles once `open()` has been called. */
  readonly opened: Promise<void>;
  open(): void;
}

/**
 * A promise a test opens by hand: a fake merchant or channel holds its answer on `opened` until the
 * test has seen the moment it wants (a drain begun, enough requests in flight), instead of answering late.
 */
export function gate(): Gate {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
