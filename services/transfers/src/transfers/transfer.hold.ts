import type { Logger } from '@agentpay/logger';
import { traceparentOr } from '@agentpay/proto';
import type { Clock } from '@agentpay/runtime';
import { AppError, type CodeName, isAppError } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, TransferRow } from '../db/schema.js';
import type { PayoutRouter } from '../upstream/router.client.js';
import type { TransferOutcomes } from './transfer.outcomes.js';
import { findTransferByNo, moveSubmission } from './transfer.repository.js';

// Held transfers (docs/compliance.md "Held transfers"): a transfer whose payee screening matched is in
// progress with its freeze and submission `held`; nothing went to the router. The gateway calls these once
// compliance has recorded a person's decision (calls stay one way: gateway -> compliance, gateway ->
// transfers). Both are idempotent: a repeat answers the transfer as it is.

/** Router answers that guarantee nothing was created upstream: the transfer goes back to held. */
const NOTHING_CREATED: ReadonlySet<CodeName> = new Set<CodeName>([
  'UPSTREAM_UNAVAILABLE',
  'NO_UPSTREAM_ROUTE',
  'SERVICE_UNAVAILABLE',
]);

export interface HoldDeps {
  db: Kysely<Database>;
  router: PayoutRouter;
  logger: Logger;
  outcomes: TransferOutcomes;
  routerTimeoutMs: number;
  clock: Clock;
}

export function createHeldTransfers(deps: HoldDeps) {
  const { db, router, logger, outcomes } = deps;

  async function current(transferNo: string): Promise<TransferRow> {
    const row = await findTransferByNo(db, transferNo);
    if (!row) throw new AppError('TRANSFER_NOT_FOUND');
    return row;
  }

  return {
    /**
     * Sends a held transfer's payout, as its create would have: held -> sent, then the router's answer. If
     * the router certainly created nothing (unreachable, no route), it goes back to held and the call fails
     * with 50003, so the release can be tried again.
     */
    async release(transferNo: string, traceparentIn: string): Promise<TransferRow> {
      const traceparent = traceparentOr(traceparentIn);
      const row = await current(transferNo);
      const log = logger.child({ transferNo });
      if (row.submission !== 'held') {
        if (row.status === 'progress' || row.status === 'success') return row;
        throw new AppError('ORDER_STATUS_FORBIDS', `transfer is ${row.status}, not held`);
      }
      if (!(await moveSubmission(db, transferNo, 'held', 'sent'))) return current(transferNo);
      let answer: Awaited<ReturnType<PayoutRouter['submitPayout']>>;
      try {
        answer = await router.submitPayout(
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
      } catch (err) {
        if (isAppError(err) && NOTHING_CREATED.has(err.codeName)) {
          await moveSubmission(db, transferNo, 'sent', 'held');
          log.warn({ code: err.codeName }, 'released payout refused by the router; held again');
          throw new AppError('SERVICE_UNAVAILABLE', 'upstream unavailable; release again later');
        }
        if (isAppError(err)) {
          // A refusal that will not change (an account the channel rejects): the transfer fails, funds back.
          log.warn({ code: err.codeName }, 'released payout refused by the router; transfer fails');
          await moveSubmission(db, transferNo, 'sent', 'rejected');
          return (
            await outcomes.applyOutcome(transferNo, 'fail', {
              traceparent,
              until: deps.clock.now().getTime(),
            })
          ).transfer;
        }
        log.error({ err }, 'released payout outcome unknown; kept in progress for reconciliation');
        await moveSubmission(db, transferNo, 'sent', 'unknown');
        return current(transferNo);
      }
      const route = answer.routeId ? { routeId: answer.routeId, upstreamRef: answer.upstreamRef } : undefined;
      if (answer.status === 'fail') {
        await moveSubmission(db, transferNo, 'sent', 'rejected');
        return (
          await outcomes.applyOutcome(transferNo, 'fail', {
            traceparent,
            until: deps.clock.now().getTime(),
            claveRastreo: answer.claveRastreo,
            route,
          })
        ).transfer;
      }
      await moveSubmission(db, transferNo, 'sent', answer.status === 'progress' ? 'accepted' : 'unknown');
      log.info({ status: answer.status }, 'held transfer released');
      return outcomes.keyLearnt(
        await outcomes.routeLearnt(await current(transferNo), route),
        answer.claveRastreo,
      );
    },

    /** Fails a held transfer: its freeze is released (the ledger books the fail event) and the merchant is called back. */
    async reject(transferNo: string, traceparentIn: string): Promise<TransferRow> {
      const traceparent = traceparentOr(traceparentIn);
      const row = await current(transferNo);
      if (row.status === 'fail' && row.submission === 'rejected') return row;
      const rejectedBefore = row.submission === 'rejected' && row.status === 'progress';
      if (!rejectedBefore) {
        if (row.submission !== 'held')
          throw new AppError('ORDER_STATUS_FORBIDS', `transfer is ${row.status}, not held`);
        if (!(await moveSubmission(db, transferNo, 'held', 'rejected'))) {
          const again = await current(transferNo);
          if (again.submission !== 'rejected')
            throw new AppError('ORDER_STATUS_FORBIDS', `transfer is ${again.status}, not held`);
        }
      }
      const { transfer } = await outcomes.applyOutcome(transferNo, 'fail', {
        traceparent,
        until: deps.clock.now().getTime(),
      });
      logger.info({ transferNo }, 'held transfer rejected');
      return transfer;
    },
  };
}

export type HeldTransfers = ReturnType<typeof createHeldTransfers>;
