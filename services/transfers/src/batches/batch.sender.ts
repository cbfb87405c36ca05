import type { Logger } from '@agentpay/logger';
import { traceparentOr } from '@agentpay/proto';
import { type Clock, startBackgroundLoop } from '@agentpay/runtime';
import { type CodeName, isAppError } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import { type PayeeScreening, payeeOf } from '../compliance/compliance.client.js';
import type { Database, TransferRow } from '../db/schema.js';
import type { TransferOutcomes } from '../transfers/transfer.outcomes.js';
import type { PayoutRouter } from '../upstream/router.client.js';
import { claimQueued, queuedItems, settleSent } from './batch.repository.js';

export interface BatchSenderDeps {
  db: Kysely<Database>;
  router: PayoutRouter;
  logger: Logger;
  outcomes: TransferOutcomes;
  routerTimeoutMs: number;
  /** Every item's payee is screened before it leaves, as a single transfer's is (docs/compliance.md). */
  compliance: PayeeScreening;
  complianceTimeoutMs: number;
  clock: Clock;
  /** Items sent at once. */
  concurrency: number;
  /** Pause between rounds when nothing is queued. */
  intervalMs: number;
}

/** Router refusals that leave nothing upstream but may pass: the item stays queued and is sent again. */
const TRY_AGAIN: ReadonlySet<CodeName> = new Set<CodeName>(['UPSTREAM_UNAVAILABLE', 'SERVICE_UNAVAILABLE']);
/** Router refusals that leave nothing upstream and will not pass: the item fails (and says so by callback). */
const REFUSED: ReadonlySet<CodeName> = new Set<CodeName>([
  'NO_UPSTREAM_ROUTE',
  'PAYEE_TYPE_NOT_AVAILABLE',
  'PAYEE_CODE_NOT_AVAILABLE',
  'INVALID_PAYEE_ACCOUNT',
  'INVALID_PARAMETER',
  'INSUFFICIENT_BALANCE',
]);

/**
 * Sends queued batch items to the router, `concurrency` at a time, each as an ordinary transfer's payout
 * and without waiting for the others. An item was accepted (frozen, `progress`) with its batch, so unlike
 * a single transfer's create nothing is withdrawn: a router refusal makes it `fail` through the ordinary
 * status change (its event releases the freeze and sends its callback), an unknown outcome leaves it to
 * reconciliation. A crash leaves items `queued` (sent on restart) or `sent` (reconciliation asks the router,
 * which knows each payout by its transfer number), so no item is lost or sent twice.
 */
export function startBatchSender(deps: BatchSenderDeps) {
  const { db, router, logger, outcomes } = deps;

  /** Sends one item; false when it is still queued (taken by another sender, or to be tried again). */
  async function sendOne(row: TransferRow): Promise<boolean> {
    if (!(await claimQueued(db, row.transfer_no))) return false;
    const traceparent = traceparentOr(undefined);
    // Screening first, as for a single transfer: nothing leaves unscreened. Unanswered, the item goes back to
    // the queue (it is frozen and `progress` already); a match holds it, frozen and `progress`, until a
    // compliance person releases or rejects it. The merchant sees an item in progress either way.
    try {
      const screening = await deps.compliance.screen(payeeOf(row), {
        timeoutMs: deps.complianceTimeoutMs,
      });
      if (screening.hold) {
        logger.info(
          { transferNo: row.transfer_no, outcome: screening.outcome, caseId: screening.caseId },
          'batch item payee screening matched; item held',
        );
        await settleSent(db, row.transfer_no, 'held');
        return true;
      }
    } catch (err) {
      logger.warn({ err, transferNo: row.transfer_no }, 'screening unavailable; batch item stays queued');
      await settleSent(db, row.transfer_no, 'queued');
      return false;
    }
    try {
      const answer = await router.submitPayout(
        {
          mchNo: row.mch_no,
          transferNo: row.transfer_no,
          amount: row.amount,
          payeeType: row.payee_type,
          payeeAccount: row.payee_account,
          payeeName: row.payee_name,
          payeeCode: row.payee_code,
          reason: row.reason,
        },
        { timeoutMs: deps.routerTimeoutMs, traceparent },
      );
      const route = answer.routeId ? { routeId: answer.routeId, upstreamRef: answer.upstreamRef } : undefined;
      if (answer.status === 'fail') {
        await settleSent(db, row.transfer_no, 'rejected');
        await outcomes.applyOutcome(row.transfer_no, 'fail', {
          traceparent,
          until: deps.clock.now().getTime(),
          claveRastreo: answer.claveRastreo,
          route,
        });
        return true;
      }
      await settleSent(db, row.transfer_no, answer.status === 'progress' ? 'accepted' : 'unknown');
      await outcomes.keyLearnt(await outcomes.routeLearnt(row, route), answer.claveRastreo);
      return true;
    } catch (err) {
      if (isAppError(err) && TRY_AGAIN.has(err.codeName)) {
        await settleSent(db, row.transfer_no, 'queued');
        return false;
      }
      if (isAppError(err) && REFUSED.has(err.codeName)) {
        logger.info({ transferNo: row.transfer_no, code: err.codeName }, 'router refused a batch item');
        await settleSent(db, row.transfer_no, 'rejected');
        await outcomes.applyOutcome(row.transfer_no, 'fail', {
          traceparent,
          until: deps.clock.now().getTime(),
        });
        return true;
      }
      logger.error(
        { err, transferNo: row.transfer_no },
        'batch item outcome unknown; left to reconciliation',
      );
      await settleSent(db, row.transfer_no, 'unknown');
      return true;
    }
  }

  /** One round: every queued item (up to a page) sent with bounded concurrency; answers how many left the queue. */
  async function round(signal: AbortSignal): Promise<number> {
    const rows = await queuedItems(db, 500);
    let next = 0;
    let done = 0;
    const worker = async () => {
      // A stop lets the items in flight finish and sends no more: the rest stay queued for the next start.
      while (!signal.aborted && next < rows.length) {
        const row = rows[next++];
        if (!row) break;
        try {
          if (await sendOne(row)) done++;
        } catch (err) {
          logger.warn({ err, transferNo: row.transfer_no }, 'batch item send failed; will retry');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(deps.concurrency, rows.length) }, worker));
    return done;
  }

  const loop = startBackgroundLoop({
    name: 'batch sender',
    logger,
    intervalMs: deps.intervalMs,
    round,
    // Items left the queue: more may be waiting. None did (all taken, or to be tried again): pause.
    next: (done) => (done > 0 ? 'more' : 'idle'),
  });

  return {
    /** Starts a round now (items were just queued). */
    nudge: () => loop.kick(),
    stop: () => loop.stop(),
  };
}

export type BatchSender = ReturnType<typeof startBatchSender>;
