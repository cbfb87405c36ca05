import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@agentpay/logger';
import type {
  ApplyUpstreamPayoutRequest__Output,
  CreateTransferRequest__Output,
  SubmitPayoutResponse__Output,
  Transfer__Output,
  TransferRef__Output,
} from '@agentpay/proto';
import { AppError, type CodeName, feeFor, isAppError, MAX_AMOUNT_CENTAVOS } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, Submission, TransferRow } from '../db/schema.js';
import { checkPayee, describeProblem } from '../payees/payee-account.js';
import { budgetMs } from '../shared/deadline.js';
import { fingerprintOf } from '../shared/fingerprint.js';
import { feeRateOf, requireMerchant } from '../shared/merchant.js';
import { traceparentOr } from '../shared/trace.js';
import type { PayoutRouter } from '../upstream/router-client.js';
import { toTransfer } from './transfer.mapper.js';
import {
  attachRoute,
  findMerchantTransfer,
  findTransferByBiz,
  findTransferByNo,
  insertSubmitting,
  markChecked,
  progressDueForCheck,
  staleSubmissions,
  withdrawSubmission,
} from './transfer.repository.js';
import { changeStatus, type TransitionDeps } from './transfer.transition.js';
import {
  OUTCOME_PATHS,
  type TransferStatus,
  UPSTREAM_OUTCOMES,
  type UpstreamOutcome,
} from './transfer-status.js';

export interface TransferServiceDeps extends TransitionDeps {
  db: Kysely<Database>;
  router: PayoutRouter;
  logger: Logger;
  /** Longest wait for the router's answer to a submission. */
  routerTimeoutMs: number;
  /** How often a request waiting on a concurrent submission looks again; default 50 ms. */
  pollMs?: number;
  /** How long a payout notice waits for its transfer's submission to settle; default 5000 ms. */
  noticeWaitMs?: number;
}

/**
 * Router answers that guarantee nothing was created upstream: the submission is withdrawn so the
 * merchant can retry the same bizTransferNo. Any other failure (timeout, broken connection, internal
 * error) leaves the outcome unknown, and the transfer is kept (see README, "Submission outcomes").
 */
const NOTHING_CREATED: ReadonlySet<CodeName> = new Set<CodeName>([
  'UPSTREAM_UNAVAILABLE',
  'NO_UPSTREAM_ROUTE',
  'PAYEE_TYPE_NOT_AVAILABLE',
  'PAYEE_CODE_NOT_AVAILABLE',
  'INVALID_PAYEE_ACCOUNT',
  'INVALID_PARAMETER',
  'INSUFFICIENT_BALANCE',
]);

/** Kept back from the caller's deadline so an answer, even an error, reaches it in time. */
const DEADLINE_MARGIN_MS = 500;
/** Below this, a router call is not worth starting. */
const MIN_ROUTER_BUDGET_MS = 250;
/** Longest wait for a connection to the router before declaring it unreachable. */
const CONNECT_WAIT_MS = 2_000;
const MAX_ATTEMPTS = 5;

class LostRace extends Error {}

function centavos(amount: string): number {
  const value = Number(amount);
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_AMOUNT_CENTAVOS)
    throw new AppError('INVALID_PARAMETER', 'amount: out of range');
  return value;
}

/** Transfers: idempotent creation and submission, queries, and the statuses upstream reports. */
export function createTransferService(deps: TransferServiceDeps) {
  const { db, router, logger } = deps;
  const pollMs = deps.pollMs ?? 50;
  const noticeWaitMs = deps.noticeWaitMs ?? 5_000;

  /** The transfer once it has left `submitting`; undefined if the submission was withdrawn. */
  async function settled(row: TransferRow, until: number): Promise<TransferRow | undefined> {
    let current: TransferRow | undefined = row;
    while (current?.status === 'submitting') {
      if (Date.now() + pollMs > until)
        throw new AppError('SERVICE_UNAVAILABLE', 'the transfer is being submitted; query it shortly');
      await sleep(pollMs);
      current = await findTransferByNo(db, row.transfer_no);
    }
    return current;
  }

  /** Runs `path` from `row` in one transaction; undefined when another writer moved the transfer first. */
  async function walk(
    row: TransferRow,
    path: readonly TransferStatus[],
    change: { traceparent: string; finishedAt?: Date | undefined },
  ): Promise<TransferRow | undefined> {
    try {
      return await db.transaction().execute(async (trx) => {
        let current = row;
        for (const to of path) {
          const next = await changeStatus(trx, deps, current, { ...change, to });
          if (!next) throw new LostRace();
          current = next;
        }
        return current;
      });
    } catch (err) {
      if (err instanceof LostRace) return undefined;
      throw err;
    }
  }

  /** Applies what upstream reports; a repeat or a contradiction changes nothing. */
  async function applyOutcome(
    transferNo: string,
    outcome: UpstreamOutcome,
    context: { traceparent: string; finishedAt?: Date | undefined; until: number; noticeId?: string },
  ): Promise<{ transfer: TransferRow; changed: boolean }> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const found = await findTransferByNo(db, transferNo);
      const row = found && (await settled(found, context.until));
      if (!row) throw new AppError('TRANSFER_NOT_FOUND');
      const path = OUTCOME_PATHS[outcome][row.status];
      if (path === 'done') return { transfer: row, changed: false };
      if (path === undefined) {
        // Upstream contradicts a final status (e.g. success for a failed transfer). Answering an error
        // would only make the channel resend it; an operator has to look at this transfer.
        logger.warn(
          { transferNo, status: row.status, outcome, noticeId: context.noticeId },
          'upstream outcome contradicts the transfer status; ignored',
        );
        return { transfer: row, changed: false };
      }
      const updated = await walk(row, path, {
        traceparent: context.traceparent,
        finishedAt: context.finishedAt,
      });
      if (updated) return { transfer: updated, changed: true };
    }
    throw new AppError('SERVICE_UNAVAILABLE', 'transfer is changing, try again');
  }

  /** Leaves `submitting` with what the router said; creation, so no event (see transfer-status.ts). */
  async function finishSubmission(
    row: TransferRow,
    to: 'progress' | 'fail',
    submission: Submission,
    answer: SubmitPayoutResponse__Output | undefined,
    traceparent: string,
  ): Promise<TransferRow> {
    const facts = {
      submission,
      route_id: answer?.route_id || null,
      upstream_ref: answer?.upstream_ref || null,
    };
    const updated = await walkSubmission(row, to, facts, traceparent);
    if (updated) return updated;
    // Only the sweep moves a submitting transfer, and only long past any submission deadline: it
    // assumed the outcome unknown and made it `progress`. Keep what the router told us after all.
    if (facts.route_id)
      await attachRoute(db, row.transfer_no, {
        routeId: facts.route_id,
        upstreamRef: facts.upstream_ref ?? '',
      });
    if (to === 'fail')
      return (await applyOutcome(row.transfer_no, 'fail', { traceparent, until: Date.now() })).transfer;
    const current = await findTransferByNo(db, row.transfer_no);
    if (!current) throw new AppError('INTERNAL_ERROR');
    return current;
  }

  async function walkSubmission(
    row: TransferRow,
    to: 'progress' | 'fail',
    submission: Pick<TransferRow, 'submission' | 'route_id' | 'upstream_ref'>,
    traceparent: string,
  ): Promise<TransferRow | undefined> {
    return db.transaction().execute((trx) => changeStatus(trx, deps, row, { to, traceparent, submission }));
  }

  /** Sends the payout of a transfer this request inserted, and settles the row with the answer. */
  async function submit(row: TransferRow, traceparent: string, deadline: number): Promise<TransferRow> {
    const log = logger.child({ transferNo: row.transfer_no });
    const timeoutMs = budgetMs(deadline, deps.routerTimeoutMs, DEADLINE_MARGIN_MS);
    const refuse = async (error: AppError): Promise<never> => {
      await withdrawSubmission(db, row.transfer_no);
      throw error;
    };
    if (timeoutMs < MIN_ROUTER_BUDGET_MS)
      return refuse(new AppError('SERVICE_UNAVAILABLE', 'deadline too short'));
    // Connecting is the one failure that certainly sent nothing; after that, silence is ambiguous.
    if (!(await router.reachable(Math.min(CONNECT_WAIT_MS, timeoutMs))))
      return refuse(new AppError('SERVICE_UNAVAILABLE', 'upstream router unreachable'));

    let answer: SubmitPayoutResponse__Output;
    try {
      answer = await router.submitPayout(
        {
          mch_no: row.mch_no,
          transfer_no: row.transfer_no,
          amount: String(row.amount),
          payee_type: row.payee_type,
          payee_account: row.payee_account,
          payee_name: row.payee_name,
          payee_code: row.payee_code,
          reason: row.reason,
        },
        { timeoutMs: budgetMs(deadline, deps.routerTimeoutMs, DEADLINE_MARGIN_MS), traceparent },
      );
    } catch (err) {
      if (isAppError(err) && NOTHING_CREATED.has(err.codeName)) {
        log.info({ code: err.codeName }, 'router refused the payout; submission withdrawn');
        return refuse(err);
      }
      log.error({ err }, 'payout submission outcome unknown; transfer kept in progress for reconciliation');
      return finishSubmission(row, 'progress', 'unknown', undefined, traceparent);
    }
    switch (answer.status) {
      case 'progress':
        return finishSubmission(row, 'progress', 'accepted', answer, traceparent);
      case 'fail':
        log.info('payout rejected synchronously; transfer created as fail');
        return finishSubmission(row, 'fail', 'rejected', answer, traceparent);
      default:
        log.error({ status: answer.status }, 'router answered an unknown payout status; kept in progress');
        return finishSubmission(row, 'progress', 'unknown', answer, traceparent);
    }
  }

  return {
    /** CreateTransfer: validates locally, then creates and submits once per (mch_no, biz_transfer_no). */
    async create(
      req: CreateTransferRequest__Output,
      deadline: number,
    ): Promise<{ transfer: Transfer__Output; created: boolean }> {
      const merchant = requireMerchant(req.merchant);
      if (!req.biz_transfer_no) throw new AppError('INVALID_PARAMETER', 'bizTransferNo: required');
      const amount = centavos(req.amount);
      const check = checkPayee({
        payeeType: req.payee_type,
        payeeAccount: req.payee_account,
        payeeCode: req.payee_code,
      });
      if (!check.ok) throw new AppError('INVALID_PAYEE_ACCOUNT', describeProblem(check.problem));

      const business = {
        amount,
        title: req.title,
        reason: req.reason,
        payee_type: check.payee.payeeType,
        payee_account: check.payee.payeeAccount,
        payee_name: req.payee_name,
        payee_code: check.payee.payeeCode,
        extra_param: req.extra_param,
        attach: req.attach,
        notify_url: req.notify_url,
      };
      const fingerprint = fingerprintOf(business);
      const traceparent = traceparentOr(merchant.traceparent);

      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const inserted = await insertSubmitting(db, {
          ...business,
          mch_no: merchant.mch_no,
          app_id: merchant.app_id,
          biz_transfer_no: req.biz_transfer_no,
          fee: feeFor(amount, feeRateOf(merchant)),
          client_ip: req.client_ip,
          request_fingerprint: fingerprint,
        });
        if (inserted) {
          return { transfer: toTransfer(await submit(inserted, traceparent, deadline)), created: true };
        }
        const existing = await findTransferByBiz(db, merchant.mch_no, req.biz_transfer_no);
        if (!existing) continue;
        if (existing.request_fingerprint !== fingerprint) throw new AppError('DUPLICATE_TRANSFER');
        const current = await settled(existing, deadline - DEADLINE_MARGIN_MS);
        // Undefined: the router refused that submission and it was withdrawn; this request tries itself.
        if (current) return { transfer: toTransfer(current), created: false };
      }
      throw new AppError('SERVICE_UNAVAILABLE', 'transfer is being created, try again');
    },

    /** GetTransfer: one of the merchant's transfers by either identifier. */
    async get(ref: TransferRef__Output): Promise<Transfer__Output> {
      const merchant = requireMerchant(ref.merchant);
      if (!ref.transfer_no && !ref.biz_transfer_no)
        throw new AppError('INVALID_PARAMETER', 'transferNo or bizTransferNo: one is required');
      const row = await findMerchantTransfer(db, {
        mchNo: merchant.mch_no,
        transferNo: ref.transfer_no,
        bizTransferNo: ref.biz_transfer_no,
      });
      if (!row) throw new AppError('TRANSFER_NOT_FOUND');
      return toTransfer(row);
    },

    /** ApplyUpstreamPayout: a payout status upstream reported, through the router. Idempotent. */
    async applyUpstream(
      req: ApplyUpstreamPayoutRequest__Output,
      context: { traceparent?: string | undefined; deadline: number },
    ): Promise<{ transfer: Transfer__Output; changed: boolean }> {
      if (!req.transfer_no) throw new AppError('INVALID_PARAMETER', 'transfer_no: required');
      const outcome = UPSTREAM_OUTCOMES.find((o) => o === req.status);
      if (!outcome)
        throw new AppError('INVALID_PARAMETER', `status: ${req.status} is not success|fail|returned`);
      const reported = req.finished_at ? new Date(req.finished_at) : undefined;
      // Upstream's clock is its own: a missing, unreadable or future time becomes ours.
      const finishedAt =
        reported && !Number.isNaN(reported.getTime()) && reported.getTime() <= Date.now()
          ? reported
          : undefined;
      const result = await applyOutcome(req.transfer_no, outcome, {
        traceparent: traceparentOr(context.traceparent),
        finishedAt,
        until: Math.min(context.deadline - DEADLINE_MARGIN_MS, Date.now() + noticeWaitMs),
        noticeId: req.notice_id,
      });
      return { transfer: toTransfer(result.transfer), changed: result.changed };
    },

    /**
     * Transfers still `submitting` long after any submission could have ended lost their submitter
     * (a crash). Upstream may have taken the payout, so they become `progress` with an unknown
     * submission rather than vanish: a notice can still settle them and a retry never pays twice.
     */
    async sweepStaleSubmissions(staleMs: number): Promise<number> {
      const rows = await staleSubmissions(db, new Date(Date.now() - staleMs), 100);
      let moved = 0;
      for (const row of rows) {
        const updated = await walkSubmission(
          row,
          'progress',
          { submission: 'unknown', route_id: null, upstream_ref: null },
          traceparentOr(undefined),
        );
        if (updated) {
          moved++;
          logger.error(
            { transferNo: row.transfer_no },
            'abandoned submission: transfer kept in progress with an unknown outcome, needs reconciliation',
          );
        }
      }
      return moved;
    },

    /**
     * Asks upstream about transfers in progress and unchanged for `afterMs`, and applies a final answer:
     * the safety net for a notice that never came, and the only way out of `progress` for a payout the
     * router accepted without hearing from the channel (it answers `fail` once the channel denies
     * knowing it), or whose submission's answer was lost before any route was recorded (the router asks
     * every payout route, and answers `fail` only when none holds it). Each transfer is asked at most
     * once per `afterMs`.
     */
    async reconcileProgress(afterMs: number): Promise<number> {
      const rows = await progressDueForCheck(db, new Date(Date.now() - afterMs), 50);
      let changed = 0;
      for (const row of rows) {
        const traceparent = traceparentOr(undefined);
        try {
          const state = await router.queryPayout(
            {
              route_id: row.route_id ?? '',
              transfer_no: row.transfer_no,
              upstream_ref: row.upstream_ref ?? '',
            },
            { timeoutMs: deps.routerTimeoutMs, traceparent },
          );
          await markChecked(db, row.transfer_no);
          // A payout whose route was never recorded, found on a route: later queries go straight there.
          if (!row.route_id && state.route_id)
            await attachRoute(db, row.transfer_no, {
              routeId: state.route_id,
              upstreamRef: state.upstream_ref,
            });
          const outcome = UPSTREAM_OUTCOMES.find((o) => o === state.status);
          if (!outcome) continue;
          const reported = state.finished_at ? new Date(state.finished_at) : undefined;
          const result = await applyOutcome(row.transfer_no, outcome, {
            traceparent,
            finishedAt: reported && !Number.isNaN(reported.getTime()) ? reported : undefined,
            until: Date.now(),
          });
          if (result.changed) {
            changed++;
            logger.warn({ transferNo: row.transfer_no, outcome }, 'reconciliation settled a transfer');
          }
        } catch (err) {
          logger.warn({ err, transferNo: row.transfer_no }, 'reconciliation query failed; will retry');
        }
      }
      return changed;
    },
  };
}

export type TransferService = ReturnType<typeof createTransferService>;
