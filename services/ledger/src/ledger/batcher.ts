import type { Command } from './booking.js';
import type { Outcome } from './ledger.repository.js';

export interface MerchantBatcher {
  /** Books `command` in the next transaction of its merchant; resolves once that transaction committed. */
  submit(command: Command): Promise<Outcome>;
  /** Resolves when nothing is queued or being booked. */
  idle(): Promise<void>;
}

interface Waiting {
  command: Command;
  resolve: (outcome: Outcome) => void;
  reject: (err: unknown) => void;
}

/**
 * One merchant's bookings run one transaction at a time, each taking every command that arrived while
 * the previous one ran (up to `maxBatch`): the merchant's rows are locked once per batch instead of once
 * per command, so a hot merchant's throughput is bounded by batches, not by commits. Each command keeps
 * its own entry and key. A batch that fails for a reason other than a conflict (retried inside `book`)
 * is booked again one command at a time, so one bad command fails alone.
 */
export function createMerchantBatcher(
  book: (commands: readonly Command[]) => Promise<Outcome[]>,
  maxBatch: number,
): MerchantBatcher {
  const queues = new Map<string, Waiting[]>();
  const running = new Set<Promise<void>>();

  async function drain(mchNo: string, queue: Waiting[]): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      try {
        const outcomes = await book(batch.map((w) => w.command));
        for (const [i, w] of batch.entries()) w.resolve(outcomes[i] as Outcome);
      } catch (err) {
        if (batch.length === 1) {
          batch[0]?.reject(err);
          continue;
        }
        for (const w of batch) {
          try {
            const [outcome] = await book([w.command]);
            w.resolve(outcome as Outcome);
          } catch (alone) {
            w.reject(alone);
          }
        }
      }
    }
    queues.delete(mchNo);
  }

  return {
    submit(command) {
      return new Promise<Outcome>((resolve, reject) => {
        const queued = queues.get(command.mchNo);
        if (queued) {
          queued.push({ command, resolve, reject });
          return;
        }
        const queue: Waiting[] = [{ command, resolve, reject }];
        queues.set(command.mchNo, queue);
        // Started after the current turn of the event loop, so commands that arrive together share it.
        const started = new Promise<void>((r) => setImmediate(r)).then(() => drain(command.mchNo, queue));
        running.add(started);
        void started.finally(() => running.delete(started));
      });
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
