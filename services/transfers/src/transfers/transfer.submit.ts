import type { PayoutLimits } from '@agentpay/api';
import type { Logger } from '@agentpay/logger';
import { traceparentOr } from '@agentpay/proto';
import type { Clock } from '@agentpay/runtime';
import { AppError, type CodeName, feeFor, isAppError, requestFingerprint } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import { type PayeeScreening, payeeOf } from '../compliance/compliance.client.js';
import type { CrashPoint } from '../config.js';
import type { Database, Submission, TransferRow } from '../db/schema.js';
import type { TransferLedger } from '../ledger/ledger.client.js';
import type { PayeeRegistry } from '../payees/payee.service.js';
import { checkPayee, describeProblem } from '../payees/payee-account.js';
import { budgetMs } from '../shared/deadline.js';
import type { Merchant, RequestContext } from '../shared/merchant.js';
import type { PayoutAnswer, PayoutRouter } from '../upstream/router.client.js';
import type { TransferOutcomes } from './transfer.outcomes.js';
import {
  claimForVoiding,
  findTransferByBiz,
  findTransferByNo,
  insertSubmitting,
  markSent,
  withdrawSubmission,
} from './transfer.repository.js';
import type { TransitionDeps } from './transfer.transition.js';
import { voidAndWithdraw } from './transfer.withdraw.js';

export interface SubmissionDeps extends TransitionDeps {
  db: Kysely<Database>;
  router: PayoutRouter;
  logger: Logger;
  outcomes: TransferOutcomes;
  /** Longest wait for the router's answer to a submission. */
  routerTimeoutMs: number;
  ledger: TransferLedger;
  /** The registered payees, checked when the merchant sends only to them. */
  payees: PayeeRegistry;
  /** Longest wait for the ledger's answer to a Freeze or VoidFreeze. */
  ledgerTimeoutMs: number;
  /** Screens each payee against the compliance lists before anything goes to the router. */
  compliance: PayeeScreening;
  /** Longest wait for screening's answer. */
  complianceTimeoutMs: number;
  /** Test only (TRANSFERS_CRASH_AT): the process exits at this point of a create. */
  crashAt?: CrashPoint | undefined;
  clock: Clock;
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

/** The business parameters of a transfer request (the payee as the merchant sent it). */
export interface NewTransfer {
  bizTransferNo: string;
  /** Centavos. */
  amount: number;
  title: string;
  reason: string;
  payeeType: string;
  payeeAccount: string;
  payeeName: string;
  payeeCode: string;
  extraParam: string;
  attach: string;
  notifyUrl: string;
}

/** CreateTransfer's use case: a transfer is created and its payout submitted once per idempotency key. */
export function createTransferSubmission(deps: SubmissionDeps) {
  const { db, router, logger, outcomes } = deps;
  const { settled, applyOutcome, walkSubmission, keyLearnt, routeLearnt } = outcomes;

  /** Leaves `submitting` with what the router said; creation, so no event (see transfer-status.ts). */
  async function finishSubmission(
    row: TransferRow,
    to: 'progress' | 'fail',
    submission: Submission,
    answer: PayoutAnswer | undefined,
    traceparent: string,
  ): Promise<TransferRow> {
    const route = answer?.routeId ? { routeId: answer.routeId, upstreamRef: answer.upstreamRef } : undefined;
    const claveRastreo = answer?.claveRastreo ?? '';
    const cep = { senderBank: answer?.senderBank ?? '' };
    const updated = await walkSubmission(row, to, submission, route, traceparent, claveRastreo, cep);
    if (updated) return updated;
    // Only the sweep moves a submitting transfer, and only long past any submission deadline: it
    // assumed the outcome unknown and made it `progress`. Keep what the router told us after all.
    if (to === 'fail')
      return (
        await applyOutcome(row.transfer_no, 'fail', {
          traceparent,
          until: deps.clock.now().getTime(),
          claveRastreo,
          route,
        })
      ).transfer;
    const current = await findTransferByNo(db, row.transfer_no);
    if (!current) throw new AppError('INTERNAL_ERROR');
    return keyLearnt(await routeLearnt(current, route), claveRastreo);
  }

  /** The fault hook of the crash tests: dies here, as a kill would, leaving whatever is committed. */
  function crashPoint(point: CrashPoint, transferNo: string): void {
    if (deps.crashAt !== point) return;
    logger.fatal({ transferNo, point }, 'TRANSFERS_CRASH_AT: exiting');
    process.exit(1);
  }

  /**
   * Freezes amount + fee in the ledger for a transfer this request inserted, sends its payout, and
   * settles the row with the answer. The freeze and the row end together (README, "Balances"): a
   * submission withdrawn for any reason has its freeze voided first.
   */
  async function submit(
    row: TransferRow,
    traceparent: string,
    deadline: number,
    limits: PayoutLimits | undefined,
  ): Promise<TransferRow> {
    const log = logger.child({ transferNo: row.transfer_no });
    const ledgerTimeoutMs = budgetMs(deadline, deps.ledgerTimeoutMs, DEADLINE_MARGIN_MS);
    // Nothing upstream has or will have this payout: void the freeze, then remove the row.
    const refuse = async (error: AppError, from: 'pending' | 'sent'): Promise<never> => {
      await voidAndWithdraw({ ...deps, ledgerTimeoutMs }, row, [from]);
      throw error;
    };

    crashPoint('after_insert', row.transfer_no);
    try {
      await deps.ledger.freeze(
        {
          mchNo: row.mch_no,
          transferNo: row.transfer_no,
          bizTransferNo: row.biz_transfer_no,
          amount: row.amount,
          fee: row.fee,
          limits,
        },
        { timeoutMs: ledgerTimeoutMs },
      );
    } catch (err) {
      // The ledger wrote nothing: the transfer was never created, and the key is free again.
      if (
        isAppError(err) &&
        (err.codeName === 'INSUFFICIENT_BALANCE' || err.codeName === 'PAYOUT_LIMIT_EXCEEDED')
      ) {
        await withdrawSubmission(db, row.transfer_no, 'pending');
        throw err;
      }
      log.warn({ err }, 'ledger freeze failed; submission withdrawn');
      return refuse(new AppError('SERVICE_UNAVAILABLE', 'ledger unavailable'), 'pending');
    }
    crashPoint('after_freeze', row.transfer_no);

    // Screening (docs/compliance.md): nothing leaves unscreened. Unanswered, the transfer is not created
    // (50003, freeze voided); a match keeps it in progress with its freeze, held until a compliance person
    // decides. The merchant sees a transfer in progress like any other: no code, event or callback says so.
    let screening: Awaited<ReturnType<PayeeScreening['screen']>>;
    try {
      screening = await deps.compliance.screen(payeeOf(row), {
        timeoutMs: budgetMs(deadline, deps.complianceTimeoutMs, DEADLINE_MARGIN_MS),
      });
    } catch (err) {
      log.warn({ err }, 'screening unavailable; submission withdrawn');
      return refuse(new AppError('SERVICE_UNAVAILABLE', 'screening unavailable'), 'pending');
    }
    if (screening.hold) {
      log.info(
        { outcome: screening.outcome, caseId: screening.caseId },
        'payee screening matched; transfer held',
      );
      return finishSubmission(row, 'progress', 'held', undefined, traceparent);
    }

    const timeoutMs = budgetMs(deadline, deps.routerTimeoutMs, DEADLINE_MARGIN_MS);
    if (timeoutMs < MIN_ROUTER_BUDGET_MS)
      return refuse(new AppError('SERVICE_UNAVAILABLE', 'deadline too short'), 'pending');
    // Connecting is the one failure that certainly sent nothing; after that, silence is ambiguous.
    if (!(await router.reachable(Math.min(CONNECT_WAIT_MS, timeoutMs))))
      return refuse(new AppError('SERVICE_UNAVAILABLE', 'upstream router unreachable'), 'pending');
    // From here the router may have the payout, so recovery keeps the transfer instead of voiding it.
    if (!(await markSent(db, row.transfer_no)))
      throw new AppError('SERVICE_UNAVAILABLE', 'submission abandoned; try again');

    let answer: PayoutAnswer;
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
        { timeoutMs: budgetMs(deadline, deps.routerTimeoutMs, DEADLINE_MARGIN_MS), traceparent },
      );
    } catch (err) {
      crashPoint('after_router', row.transfer_no);
      if (isAppError(err) && NOTHING_CREATED.has(err.codeName)) {
        log.info({ code: err.codeName }, 'router refused the payout; submission withdrawn');
        return refuse(err, 'sent');
      }
      log.error({ err }, 'payout submission outcome unknown; transfer kept in progress for reconciliation');
      return finishSubmission(row, 'progress', 'unknown', undefined, traceparent);
    }
    crashPoint('after_router', row.transfer_no);
    switch (answer.status) {
      case 'progress':
        return finishSubmission(row, 'progress', 'accepted', answer, traceparent);
      case 'fail':
        // Created as `fail` announces no event, so the ledger hears of it here: the hold is released
        // before the transfer is recorded as failed.
        try {
          await deps.ledger.voidFreeze(
            { mchNo: row.mch_no, transferNo: row.transfer_no },
            { timeoutMs: deps.ledgerTimeoutMs },
          );
        } catch (err) {
          log.warn({ err }, 'payout rejected but its freeze could not be voided; submission withdrawn');
          await claimForVoiding(db, row.transfer_no, ['sent']);
          throw new AppError('SERVICE_UNAVAILABLE', 'ledger unavailable');
        }
        log.info('payout rejected synchronously; transfer created as fail');
        return finishSubmission(row, 'fail', 'rejected', answer, traceparent);
      default:
        log.error({ status: answer.status }, 'router answered an unknown payout status; kept in progress');
        return finishSubmission(row, 'progress', 'unknown', answer, traceparent);
    }
  }

  /** CreateTransfer: checks the payee locally, then creates and submits once per (mch_no, biz_transfer_no). */
  async function create(
    merchant: Merchant,
    transfer: NewTransfer,
    context: RequestContext & { clientIp: string },
  ): Promise<{ transfer: TransferRow; created: boolean }> {
    const { deadline } = context;
    const check = checkPayee({
      payeeType: transfer.payeeType,
      payeeAccount: transfer.payeeAccount,
      payeeCode: transfer.payeeCode,
    });
    if (!check.ok) throw new AppError('INVALID_PAYEE_ACCOUNT', describeProblem(check.problem));
    if (
      merchant.registeredPayeesOnly &&
      !(await deps.payees.usable(merchant.mchNo, check.payee.payeeType, check.payee.payeeAccount)) &&
      // A repeat of a transfer created before its payee was removed still answers that transfer.
      !(await findTransferByBiz(db, merchant.mchNo, transfer.bizTransferNo))
    ) {
      throw new AppError('PAYEE_NOT_REGISTERED');
    }

    const business = {
      amount: transfer.amount,
      title: transfer.title,
      reason: transfer.reason,
      payee_type: check.payee.payeeType,
      payee_account: check.payee.payeeAccount,
      payee_name: transfer.payeeName,
      payee_code: check.payee.payeeCode,
      extra_param: transfer.extraParam,
      attach: transfer.attach,
      notify_url: transfer.notifyUrl,
    };
    const fingerprint = requestFingerprint(business);
    const traceparent = traceparentOr(context.traceparent);

    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const inserted = await insertSubmitting(db, {
        ...business,
        mch_no: merchant.mchNo,
        app_id: merchant.appId,
        biz_transfer_no: transfer.bizTransferNo,
        fee: feeFor(transfer.amount, merchant.feeRate),
        client_ip: context.clientIp,
        fingerprint,
      });
      if (inserted)
        return {
          transfer: await submit(inserted, traceparent, deadline, merchant.payoutLimits),
          created: true,
        };
      const existing = await findTransferByBiz(db, merchant.mchNo, transfer.bizTransferNo);
      if (!existing) continue;
      if (existing.fingerprint !== fingerprint) throw new AppError('DUPLICATE_TRANSFER');
      const current = await settled(existing, deadline - DEADLINE_MARGIN_MS);
      // Undefined: the router refused that submission and it was withdrawn; this request tries itself.
      if (current) return { transfer: current, created: false };
    }
    throw new AppError('SERVICE_UNAVAILABLE', 'transfer is being created, try again');
  }

  return { create, submit, settled };
}
