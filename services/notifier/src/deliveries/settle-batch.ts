import type { Kysely } from 'kysely';
import type { CallbackOutcome } from '../callbacks/callback.client.js';
import type { Database } from '../db/schema.js';
import type { ClaimedDelivery } from './delivery-lease.repository.js';
import { type SucceededAttempt, settleSucceeded } from './delivery-settle.repository.js';

/** Most successes settled by one statement. */
const MAX_BATCH = 200;
/**
 * Statements in flight at once. More than one, so a success never waits for a whole earlier flush: the
 * endpoint's slot stays taken until its success is settled, so settle latency bounds each endpoint's rate.
 */
const MAX_FLUSHES = 3;

export interface SuccessSettler {
  /**
   * Queues a successful attempt. Resolves once its batch has committed; rejects when that batch could not
   * be written (Postgres unavailable), and the caller retries as it would a single settle.
   */
  settle(claimed: ClaimedDelivery, outcome: CallbackOutcome): Promise<'succeeded' | 'lease_lost'>;
}

interface Queued {
  attempt: SucceededAttempt;
  resolve: (next: 'succeeded' | 'lease_lost') => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for successful attempts: up to `MAX_FLUSHES` statements at a time, and the successes that
 * arrive while they run go together in the next one, so the statements (and WAL flushes) per second stay
 * low under load without a timer adding latency. A flush starts on the next turn of the event loop
 * (`setImmediate`), which lets the replies read in the same I/O turn share it.
 */
export function createSuccessSettler(db: Kysely<Database>): SuccessSettler {
  const queue: Queued[] = [];
  let flushes = 0;
  let scheduled = false;

  function schedule(): void {
    if (scheduled || flushes >= MAX_FLUSHES || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      if (flushes >= MAX_FLUSHES || queue.length === 0) return;
      flushes++;
      void flush(queue.splice(0, MAX_BATCH)).finally(() => {
        flushes--;
        schedule();
      });
      schedule();
    });
  }

  async function flush(batch: Queued[]): Promise<void> {
    try {
      const settled = await settleSucceeded(
        db,
        batch.map((q) => q.attempt),
      );
      for (const q of batch) q.resolve(settled.has(q.attempt.claim.claimToken) ? 'succeeded' : 'lease_lost');
    } catch (err) {
      for (const q of batch) q.reject(err);
    }
  }

  return {
    settle: (claimed, outcome) =>
      new Promise((resolve, reject) => {
        queue.push({
          attempt: {
            claim: claimed,
            httpStatus: outcome.httpStatus,
            latencyMs: outcome.latencyMs,
            excerpt: outcome.excerpt,
            error: outcome.error,
          },
          resolve,
          reject,
        });
        schedule();
      }),
  };
}
