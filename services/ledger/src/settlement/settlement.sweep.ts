import type { Logger } from '@agentpay/logger';
import { traceparentOr } from '@agentpay/proto';
import { type Clock, startBackgroundLoop, systemClock } from '@agentpay/runtime';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { LedgerService } from '../ledger/ledger.service.js';

/** One lock per ledger database: a single replica sweeps at a time. */
const SWEEP_LOCK = sql`hashtextextended('agentpay.ledger.settlement.' || current_database(), 0)`;

export interface SettlementDeps {
  db: Kysely<Database>;
  logger: Logger;
  ledger: LedgerService;
  /** Pause between two sweeps, ms; 0 turns the timer off (runSettlement still works). */
  intervalMs: number;
  /** Pay-ins settled per transaction. */
  batch: number;
  /** Where "now" comes from (tests move it); the system clock by default. */
  clock?: Clock;
}

export interface Settlement {
  /**
   * Settles every pay-in due by `until` (default: the clock's now), in transactions of `batch`; answers
   * how many it settled. When
   * `wait` is false and another replica holds the sweep, it does nothing (the timer's way); the
   * operator's run waits for it instead.
   */
  settleDue(until?: Date, opts?: { wait?: boolean }): Promise<number>;
  stop(): Promise<void>;
}

export function startSettlementSweep(deps: SettlementDeps): Settlement {
  const { db, logger, ledger } = deps;
  const clock = deps.clock ?? systemClock;

  /** One batch: the next due pay-ins under the sweep lock; -1 when another replica holds it. */
  async function settleBatch(until: Date, wait: boolean, traceparent: string): Promise<number> {
    return db.connection().execute(async (conn) => {
      if (wait) {
        await sql`select pg_advisory_lock(${SWEEP_LOCK})`.execute(conn);
      } else {
        const got = await sql<{
          locked: boolean;
        }>`select pg_try_advisory_lock(${SWEEP_LOCK}) as locked`.execute(conn);
        if (!got.rows[0]?.locked) return -1;
      }
      try {
        const due = await conn
          .selectFrom('pay_ins')
          .select(['order_no', 'mch_no'])
          .where('settled_at', 'is', null)
          .where('due_at', '<=', until)
          .orderBy('due_at')
          .limit(deps.batch)
          .execute();
        if (due.length === 0) return 0;
        const outcomes = await ledger.bookNow(
          due.map((p) => ({ type: 'settle' as const, mchNo: p.mch_no, orderNo: p.order_no, traceparent })),
        );
        // A due row that books nothing (settled at once, say) ends the run rather than repeat forever.
        return outcomes.filter((o) => o.kind === 'booked' && o.created).length;
      } finally {
        await sql`select pg_advisory_unlock(${SWEEP_LOCK})`.execute(conn);
      }
    });
  }

  async function settleDue(until: Date = clock.now(), opts: { wait?: boolean } = {}): Promise<number> {
    let total = 0;
    // One trace per run: its OrderSettled events share it.
    const traceparent = traceparentOr(undefined);
    for (;;) {
      const settled = await settleBatch(until, opts.wait ?? true, traceparent);
      if (settled <= 0) break;
      total += settled;
      if (settled < deps.batch) break;
    }
    if (total > 0) logger.info({ settled: total, until: until.toISOString() }, 'settled due pay-ins');
    return total;
  }

  // The timer's rounds skip while another replica sweeps; settleDue itself runs to the end of what is due.
  const loop = startBackgroundLoop({
    name: 'settlement sweep',
    logger,
    intervalMs: deps.intervalMs,
    runAtStart: true,
    round: () => settleDue(clock.now(), { wait: false }),
  });

  return { settleDue, stop: () => loop.stop() };
}
