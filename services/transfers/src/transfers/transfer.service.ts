import type { Logger } from '@agentpay/logger';
import { traceparentOr } from '@agentpay/proto';
import type { Clock } from '@agentpay/runtime';
import { AppError } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { PayeeScreening } from '../compliance/compliance.client.js';
import type { CrashPoint } from '../config.js';
import type { Database, TransferRow } from '../db/schema.js';
import type { TransferLedger } from '../ledger/ledger.client.js';
import type { PayeeRegistry } from '../payees/payee.service.js';
import type { PayoutCepFacts, PayoutRouter } from '../upstream/router.client.js';
import { createReconcileSweep } from './reconcile.sweep.js';
import { createStaleSubmissionSweep } from './stale-submission.sweep.js';
import { createHeldTransfers } from './transfer.hold.js';
import { createTransferOutcomes } from './transfer.outcomes.js';
import { findMerchantTransfer } from './transfer.repository.js';
import type { UpstreamOutcome } from './transfer.state-machine.js';
import { createTransferSubmission } from './transfer.submit.js';
import type { TransitionDeps } from './transfer.transition.js';

export interface TransferServiceDeps extends TransitionDeps {
  db: Kysely<Database>;
  router: PayoutRouter;
  logger: Logger;
  /** Longest wait for the router's answer to a submission. */
  routerTimeoutMs: number;
  /** Freezes each transfer's amount + fee inside its create. */
  ledger: TransferLedger;
  /** Registered payees, for merchants that send only to them. */
  payees: PayeeRegistry;
  /** Longest wait for the ledger's answer. */
  ledgerTimeoutMs: number;
  /** Screens each payee (docs/compliance.md); a match holds the transfer. */
  compliance: PayeeScreening;
  complianceTimeoutMs: number;
  /** Test only (TRANSFERS_CRASH_AT). */
  crashAt?: CrashPoint | undefined;
  /** How often a request waiting on a concurrent submission looks again; default 50 ms. */
  pollMs?: number;
  /** How long a payout notice waits for its transfer's submission to settle; default 5000 ms. */
  noticeWaitMs?: number;
  /** Where waits, deadlines and the sweeps read the time: the real one unless a test moves its own. */
  clock: Clock;
}

/** One of a merchant's transfers, by its number, the merchant's number, or both. */
export interface TransferRef {
  mchNo: string;
  transferNo: string;
  bizTransferNo: string;
}

/** What a channel reported about a transfer's payout, as the router recorded it. */
export interface PayoutNotice {
  noticeId: string;
  transferNo: string;
  status: UpstreamOutcome;
  /** When the payout finished by the channel's clock; undefined when it did not say. */
  finishedAt: Date | undefined;
  /** The payout's SPEI tracking key; '' when the channel has none (yet). */
  claveRastreo: string;
  /**
   * The route the notice came on and the payout's reference there ('' when the notice did not say): a
   * transfer whose submission's answer was lost (no route recorded) learns its route from it, with the
   * change the notice makes or without one.
   */
  routeId?: string | undefined;
  upstreamRef?: string | undefined;
  /** The notice delivery's trace, continued by the change it causes. */
  traceparent: string;
  /** The payout's CEP facts the channel gave with the notice. */
  cep?: PayoutCepFacts | undefined;
}

/** Transfers: idempotent creation and submission, queries, and the statuses upstream reports. */
export function createTransferService(deps: TransferServiceDeps) {
  const { db, clock } = deps;
  const noticeWaitMs = deps.noticeWaitMs ?? 5_000;
  const outcomes = createTransferOutcomes({ ...deps, pollMs: deps.pollMs ?? 50 });
  const { applyOutcome } = outcomes;
  const submission = createTransferSubmission({ ...deps, outcomes });

  return {
    create: submission.create,
    /** Held transfers: released or rejected once compliance recorded a decision (transfer.hold.ts). */
    held: createHeldTransfers({ ...deps, outcomes }),
    /** The submission path refunds share (refunds/refund.service.ts): freeze, send, settle the row. */
    submission,
    /** How a transfer moves once it exists (the batch sender moves batch items with it). */
    outcomes,

    /** GetTransfer: one of the merchant's transfers by either identifier (both must match when both given). */
    async get(ref: TransferRef): Promise<TransferRow> {
      const row = await findMerchantTransfer(db, ref);
      if (!row) throw new AppError('TRANSFER_NOT_FOUND');
      return row;
    },

    /** A payout notice from upstream, through the router's NoticeReceived event. Idempotent. */
    async applyNotice(notice: PayoutNotice): Promise<{ transfer: TransferRow; changed: boolean }> {
      const reported = notice.finishedAt;
      // Upstream's clock is its own: a missing, unreadable or future time becomes ours.
      const finishedAt =
        reported && !Number.isNaN(reported.getTime()) && reported.getTime() <= clock.now().getTime()
          ? reported
          : undefined;
      // Recorded with the status change (so its event carries it), once the submission has settled:
      // anything written while the transfer is still `submitting` could be overtaken by its outcome.
      return applyOutcome(notice.transferNo, notice.status, {
        traceparent: traceparentOr(notice.traceparent),
        finishedAt,
        until: clock.now().getTime() + noticeWaitMs,
        noticeId: notice.noticeId,
        claveRastreo: notice.claveRastreo,
        route: notice.routeId
          ? { routeId: notice.routeId, upstreamRef: notice.upstreamRef ?? '' }
          : undefined,
        cep: notice.cep,
      });
    },

    /** One round of the sweep of abandoned submissions (stale-submission.sweep.ts). */
    sweepStaleSubmissions: createStaleSubmissionSweep({ ...deps, outcomes }),
    /** One round of reconciliation of transfers long in progress (reconcile.sweep.ts). */
    reconcileProgress: createReconcileSweep({ ...deps, outcomes }),
  };
}

export type TransferService = ReturnType<typeof createTransferService>;
