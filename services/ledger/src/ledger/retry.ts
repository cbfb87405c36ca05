import { setTimeout as sleep } from 'node:timers/promises';

/** serialization_failure, deadlock_detected, unique_violation (a racing replica booked the same key). */
const RETRIABLE = new Set(['40001', '40P01', '23505']);
const ATTEMPTS = 6;

export function isRetriable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRIABLE.has(code);
}

/**
 * Runs a transaction again when Postgres aborted it for a lock or serialization conflict: such a
 * failure says nothing about the balance, so it must never reach a caller as "insufficient balance".
 */
export async function retryConflicts<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (!isRetriable(err) || attempt >= ATTEMPTS) throw err;
      await sleep(Math.random() * 5 * attempt);
    }
  }
}
