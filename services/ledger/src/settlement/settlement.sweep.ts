import type { Logger } from '@agentpay/logger';
import { traceparentOr } from '@agentpay/proto';
import { type Clock, startBackgroundLoop, systemClock } from '@agentpay/runtime';
import { type Kysely, sql } from 'kysely';
import type { Database, SettlementRunRow } from '../db/schema.js';
import { LedgerError } from '../ledger/ledger.errors.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import {
  insertSettlementRun,
  listSettlementRuns,
  type SettlementTrigger,
} from './settlement-runs.repository.js';

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

/** A page of runs as asked for. */
export interface SettlementRunsRequest {
  /** 0 asks for the default (50). */
  limit: number;
  /** The previous page's last id; '' for the first. */
  after: string;
}

export interface Settlement {
  /**
   * Settles every pay-in due by `until` (default: the clock's now), in transactions of `batch`; answers
   * how many it settled. When
   * `wait` is false and another replica holds the sweep, it does nothing (the timer's way); the
   * operator's run waits for it instead. It records the run in settlement_runs: an operator's always, the
   * timer's only when it settled something or failed (an idle ledger's rounds leave no row).
   */
  settleDue(until?: Date, opts?: { wait?: boolean; trigger?: SettlementTrigger }): Promise<number>;
  /** The recorded runs, newest first; INVALID_REQUEST names a bad limit or cursor. */
  runs(request: SettlementRunsRequest): Promise<{ items: SettlementRunRow[]; next: number | null }>;
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

  /** Writes the run's row. The settlement stands whatever happens here, so a failed write is only logged. */
  async function recordRun(run: {
    trigger: SettlementTrigger;
    until: Date;
    startedAt: Date;
    settled: number;
    error?: string;
  }): Promise<void> {
    try {
      await insertSettlementRun(db, {
        trigger: run.trigger,
        until: run.until,
        started_at: run.startedAt,
        finished_at: clock.now(),
        settled: run.settled,
        status: run.error === undefined ? 'succeeded' : 'failed',
        error: run.error ?? '',
      });
    } catch (err) {
      logger.error(
        { err, trigger: run.trigger, settled: run.settled },
        'could not record the settlement run',
      );
    }
  }

  async function settleDue(
    until: Date = clock.now(),
    opts: { wait?: boolean; trigger?: SettlementTrigger } = {},
  ): Promise<number> {
    const trigger = opts.trigger ?? 'operator';
    const startedAt = clock.now();
    let total = 0;
    // One trace per run: its OrderSettled events share it.
    const traceparent = traceparentOr(undefined);
    try {
      for (;;) {
        const settled = await settleBatch(until, opts.wait ?? true, traceparent);
        if (settled <= 0) break;
        total += settled;
        if (settled < deps.batch) break;
      }
    } catch (err) {
      // The batches before the failure committed: the row counts them.
      const error = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
      await recordRun({ trigger, until, startedAt, settled: total, error });
      throw err;
    }
    if (total > 0) logger.info({ settled: total, until: until.toISOString() }, 'settled due pay-ins');
    if (total > 0 || trigger === 'operator') await recordRun({ trigger, until, startedAt, settled: total });
    return total;
  }

  async function runs(request: SettlementRunsRequest) {
    const limit = request.limit === 0 ? 50 : request.limit;
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
      throw new LedgerError('INVALID_REQUEST', 'limit (must be 1..500)');
    }
    if (request.after && !/^\d{1,15}$/.test(request.after)) {
      throw new LedgerError('INVALID_REQUEST', 'after (unknown)');
    }
    return listSettlementRuns(db, { limit, ...(request.after && { beforeId: Number(request.after) }) });
  }

  // The timer's rounds skip while another replica sweeps; settleDue itself runs to the end of what is due.
  const loop = startBackgroundLoop({
    name: 'settlement sweep',
    logger,
    intervalMs: deps.intervalMs,
    runAtStart: true,
    round: () => settleDue(clock.now(), { wait: false, trigger: 'sweep' }),
  });

  return { settleDue, runs, stop: () => loop.stop() };
}
