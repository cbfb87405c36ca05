import { Counter, Histogram, LATENCY_BUCKETS, type Registry } from '@agentpay/telemetry';
import type { Command } from './booking.js';
import type { Outcome } from './ledger.repository.js';

/**
 * Wraps the booking of a batch so each is counted: commands by type and outcome (a refusal by its code),
 * the batch's size and its transaction's duration, retries included.
 */
export function instrumentBookings<A extends unknown[]>(
  book: (commands: readonly Command[], ...rest: A) => Promise<Outcome[]>,
  registry: Registry,
): (commands: readonly Command[], ...rest: A) => Promise<Outcome[]> {
  const bookings = new Counter({
    name: 'ledger_bookings_total',
    help: 'Ledger commands by type and outcome (booked, repeat, refused code, skipped)',
    labelNames: ['type', 'outcome'],
    registers: [registry],
  });
  const size = new Histogram({
    name: 'ledger_batch_size',
    help: 'Commands booked in one transaction',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'ledger_batch_duration_seconds',
    help: 'Time to book one batch, conflicts retried included',
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  return async (commands, ...rest) => {
    const stop = duration.startTimer();
    const outcomes = await book(commands, ...rest);
    stop();
    size.observe(commands.length);
    for (const [i, outcome] of outcomes.entries()) {
      const command = commands[i];
      if (!command) continue;
      const label =
        outcome.kind === 'booked'
          ? outcome.created
            ? 'booked'
            : 'repeat'
          : outcome.kind === 'refused'
            ? outcome.error.code.toLowerCase()
            : 'skipped';
      bookings.inc({ type: command.type, outcome: label });
    }
    return outcomes;
  };
}
