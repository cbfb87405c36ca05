import type { Logger } from '@agentpay/logger';
import { type Clock, startBackgroundLoop, systemClock } from '@agentpay/runtime';
import { formatWireTime, isAppError, parseWireTime } from '@agentpay/wire';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { isLedgerError, LedgerError } from '../ledger/ledger.errors.js';
import { bookPlatformEntry } from './platform-entries.js';
import { loadStatement, matchDay, type RunCounts } from './reconciliation.repository.js';
import type { ReconRouter } from './router.client.js';

/** One lock per ledger database: a single replica runs the daily schedule at a time. */
const SCHEDULE_LOCK = sql`hashtextextended('agentpay.ledger.reconciliation.' || current_database(), 0)`;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** The schedule runs a (route, day) whose last run failed again only after this long (a channel that is down). */
export const RETRY_FAILED_AFTER_MS = 15 * 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** One route's part of a run: its counts, or why its statement could not be read and matched. */
export type RouteResult =
  | ({ routeId: string; state: 'succeeded' } & RunCounts)
  | { routeId: string; state: 'failed'; error: string };

/**
 * Why a route's run failed, in words an operator may read on a page (CONTRACT.md section 14): the platform's
 * own code or the ledger's refusal, never the channel's words, an address or a driver's message, which go to
 * the log only (the router already keeps the channel's words to its log: upstream-errors.ts).
 */
export function operatorMessage(err: unknown): string {
  if (isAppError(err)) {
    switch (err.codeName) {
      case 'UPSTREAM_UNAVAILABLE':
        return `the channel did not give its statement (${err.msg})`;
      case 'SERVICE_UNAVAILABLE':
        return `the router did not answer (${err.msg})`;
      default:
        return err.message;
    }
  }
  if (isLedgerError(err)) return err.message;
  return "internal error: the ledger's log has the cause";
}

export interface ReconciliationDeps {
  db: Kysely<Database>;
  logger: Logger;
  router: ReconRouter;
  /** The zone of the statements' wall-clock days (America/Mexico_City). */
  timeZone: string;
  /** Lines and movements this recent are pending, not discrepancies. */
  graceMs: number;
  /**
   * Movements this close to a midnight are judged once both days' statements are stored, by the later run of
   * the two (`MatchWindow.edgeMs`); default 15 minutes.
   */
  dayEdgeMs?: number;
  /** Statement lines per insert. */
  batch: number;
  /** HH:mm, wall clock: the daily run for the previous day starts at or after it. */
  reconTime: string;
  /** How often the schedule looks whether the day's run is due; 0 turns it off (runs on demand still work). */
  intervalMs: number;
  /** Where "now" comes from (tests move it); the system clock by default. */
  clock?: Clock;
  /** Told of every finished run (the metrics). */
  onRun?: (run: { routeId: string; day: string; ok: boolean; at: Date }) => void;
}

export interface Reconciliation {
  /**
   * Runs `day` for one route, or for every route (RouteAdmin.ListRoutes) when `routeId` is empty. A route that
   * fails is answered as failed and the others still run; it throws only for a bad day or an unreadable list
   * of routes.
   */
  run(day: string, routeId?: string): Promise<{ day: string; routes: RouteResult[] }>;
  /** The schedule's round: runs the previous day for each route without a successful run of it, once due. */
  runScheduled(): Promise<number>;
  stop(): Promise<void>;
}

/** See `ReconciliationDeps.dayEdgeMs`. */
const DAY_EDGE_MS = 15 * 60_000;

function previousDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** Whether `text` is a real yyyy-MM-dd day. */
export function isDay(text: string): boolean {
  if (!DAY.test(text)) return false;
  const at = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === text;
}

export function startReconciliation(deps: ReconciliationDeps): Reconciliation {
  const { db, logger, router } = deps;
  const clock = deps.clock ?? systemClock;

  const midnight = (day: string): Date => {
    const at =
      parseWireTime(`${day} 00:00:00`, deps.timeZone) ?? parseWireTime(`${day} 01:00:00`, deps.timeZone);
    if (!at) throw new LedgerError('INVALID_REQUEST', `day ${day} has no midnight in ${deps.timeZone}`);
    return at;
  };

  /**
   * One route's day, in one transaction: the statement streamed into statement_lines batch by batch, matched,
   * the discrepancies and the recognition of unmatched money stored, the run marked succeeded. A stream that
   * fails part-way rolls all of it back; the run is then marked failed (its own row, outside that transaction).
   */
  async function runRoute(routeId: string, day: string): Promise<RunCounts> {
    const run = await db
      .insertInto('recon_runs')
      .values({ route_id: routeId, day, status: 'running', finished_at: null, error: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const window = { routeId, day, start: midnight(day), end: midnight(nextDay(day)) };
    try {
      // Not retried here: a failed run is stored as failed, and the schedule's next round runs it again.
      const counts = await db.transaction().execute(async (trx) => {
        // Two runs of the same route and day (an operator's and the schedule's) take turns.
        await sql`select pg_advisory_xact_lock(hashtextextended(${`agentpay.ledger.recon.${routeId}.${day}`}, 0))`.execute(
          trx,
        );
        await loadStatement(trx, routeId, day, router.streamStatement(routeId, day), deps.batch);
        const fetchedAt = async (other: string) =>
          (
            await trx
              .selectFrom('recon_runs')
              .select('started_at')
              .where('route_id', '=', routeId)
              .where('day', '=', other)
              .where('status', '=', 'succeeded')
              .orderBy('started_at', 'desc')
              .limit(1)
              .executeTakeFirst()
          )?.started_at ?? null;
        const result = await matchDay(trx, {
          ...window,
          cutoff: new Date(clock.now().getTime() - deps.graceMs),
          edgeMs: deps.dayEdgeMs ?? DAY_EDGE_MS,
          previous: { day: previousDay(day), fetchedAt: await fetchedAt(previousDay(day)) },
          next: { day: nextDay(day), fetchedAt: await fetchedAt(nextDay(day)) },
        });
        for (const found of result.newUnmatched) {
          await bookPlatformEntry(trx, {
            key: `unmatched_in:${found.id}`,
            type: 'unmatched_in',
            routeId,
            amount: found.amount,
            remark: `discrepancy ${found.id}`,
            orderNo: found.orderNo,
          });
        }
        const { newUnmatched: _, ...counts } = result;
        await trx
          .updateTable('recon_runs')
          .set({ status: 'succeeded', finished_at: clock.now(), ...counts })
          .where('id', '=', run.id)
          .execute();
        return counts;
      });
      logger.info({ routeId, day, ...counts }, 'reconciliation run finished');
      deps.onRun?.({ routeId, day, ok: true, at: clock.now() });
      return counts;
    } catch (err) {
      logger.error({ err, routeId, day }, 'reconciliation run failed');
      await db
        .updateTable('recon_runs')
        .set({ status: 'failed', finished_at: clock.now(), error: operatorMessage(err) })
        .where('id', '=', run.id)
        .execute();
      deps.onRun?.({ routeId, day, ok: false, at: clock.now() });
      throw err;
    }
  }

  async function run(day: string, routeId = ''): Promise<{ day: string; routes: RouteResult[] }> {
    if (!isDay(day)) throw new LedgerError('INVALID_REQUEST', 'day must be yyyy-MM-dd');
    const routes = routeId ? [routeId] : await router.listRoutes();
    const results: RouteResult[] = [];
    // One route whose channel does not answer stops none of the others: it is answered as failed, with a
    // message an operator may read (the cause is logged and the run stored as failed by runRoute). Whether
    // the whole call failed (every route asked for did) is the caller's to say: the admin API's 503.
    for (const route of routes) {
      try {
        results.push({ routeId: route, state: 'succeeded', ...(await runRoute(route, day)) });
      } catch (err) {
        results.push({ routeId: route, state: 'failed', error: operatorMessage(err) });
      }
    }
    return { day, routes: results };
  }

  async function runScheduled(): Promise<number> {
    const local = formatWireTime(clock.now(), deps.timeZone);
    if (local.slice(11, 16) < deps.reconTime) return 0;
    const day = previousDay(local.slice(0, 10));
    return db.connection().execute(async (conn) => {
      const got = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_lock(${SCHEDULE_LOCK}) as locked`.execute(conn);
      if (!got.rows[0]?.locked) return 0;
      try {
        let ran = 0;
        for (const routeId of await router.listRoutes()) {
          // The database's clock: the runs' started_at is its now().
          const last = await conn
            .selectFrom('recon_runs')
            .select([
              'status',
              sql<boolean>`started_at > now() - ${RETRY_FAILED_AFTER_MS} * interval '1 millisecond'`.as(
                'recent',
              ),
            ])
            .where('route_id', '=', routeId)
            .where('day', '=', day)
            .orderBy('status', 'desc') // succeeded first, then the latest other
            .orderBy('started_at', 'desc')
            .executeTakeFirst();
          if (last?.status === 'succeeded' || last?.recent) continue;
          // A failed run is logged and stored; the next round tries the route again.
          await runRoute(routeId, day).then(
            () => (ran += 1),
            () => {},
          );
        }
        return ran;
      } finally {
        await sql`select pg_advisory_unlock(${SCHEDULE_LOCK})`.execute(conn);
      }
    });
  }

  const loop = startBackgroundLoop({
    name: 'reconciliation schedule',
    logger,
    intervalMs: deps.intervalMs,
    runAtStart: true,
    round: () => runScheduled(),
  });

  return { run, runScheduled, stop: () => loop.stop() };
}
