import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database, PayoutRow } from '../db/schema.js';
import { ChannelError } from '../errors.js';
import { enqueueNotice, type NoticeType } from '../notices/notice.repository.js';
import { newClaveRastreo } from '../statements/clave-rastreo.js';
import { inquiryResult, type Payee, payoutDecision, statementPlan } from './outcome-rules.js';
import {
  findPayout,
  insertPayout,
  lockDueReturns,
  lockDueSettlements,
  transitionPayout,
} from './payout.repository.js';

/** A payout as the channel API shows it. */
export interface PayoutView {
  /** The sandbox bank's 5-digit Banxico code ('' when unknown): a payout's sending bank. */
  senderBank: string;
  payoutId: string;
  payoutRef: string;
  amount: number;
  payeeType: string;
  account: string;
  bankCode: string;
  status: PayoutRow['status'];
  reason: string | null;
  finishedAt: string | null;
  returnedAt: string | null;
  /** SPEI tracking keys of the money leaving and of its return; null until each happens. */
  claveRastreo: string | null;
  returnClaveRastreo: string | null;
  createdAt: string;
}

export interface PayoutRequest extends Payee {
  payoutRef: string;
  amount: number;
  noticeUrl: string;
}

const BATCH = 50;

/** Payouts and payee inquiries, with settlement driven by the scheduler over the payouts table. */
export function createPayoutService(
  db: Kysely<Database>,
  settings: {
    settleDelayMs: number;
    /** The sandbox bank's 5-digit Banxico code: the sending bank of its payouts (their CEP's emisor). */
    senderBank?: string;
  },
) {
  const later = (from: Date) => new Date(from.getTime() + settings.settleDelayMs);

  async function notify(trx: Transaction<Database>, payout: PayoutRow, type: NoticeType, at: Date) {
    await enqueueNotice(trx, {
      type,
      ref: payout.payout_ref,
      url: payout.notice_url,
      at,
      data: {
        payoutId: payout.id,
        payoutRef: payout.payout_ref,
        status: payout.status,
        reason: payout.reason,
        // The money leaving's key (null for a payout that failed); a return's own key stays in the statement.
        claveRastreo: payout.clave_rastreo,
        at: at.toISOString(),
      },
    });
  }

  return {
    inquire(payee: Payee): { result: 'valid' | 'invalid' | 'unknown' } {
      return { result: inquiryResult(payee) };
    },

    /**
     * Accepts (`processing`) or refuses (`rejected`) a payout; a refusal is kept too, so the same
     * payoutRef always gets the same answer and never a second payout.
     */
    async submit(request: PayoutRequest): Promise<{ payout: PayoutView; created: boolean }> {
      let payout = await findPayout(db, { payoutRef: request.payoutRef });
      let created = false;
      if (!payout) {
        const decision = payoutDecision(request);
        const statement = statementPlan(request.name);
        const now = new Date();
        payout = await insertPayout(db, {
          id: `po_${randomBytes(12).toString('hex')}`,
          payout_ref: request.payoutRef,
          amount: request.amount,
          payee_type: request.payeeType,
          account: request.account,
          name: request.name,
          bank_code: request.bankCode,
          notice_url: request.noticeUrl,
          statement_omit: statement.omit,
          statement_amount: statement.amount,
          ...(decision.accepted
            ? { status: 'processing', planned_outcome: decision.outcome, reason: null, settle_at: later(now) }
            : { status: 'rejected', planned_outcome: 'none', reason: decision.reason, finished_at: now }),
        });
        created = payout !== undefined;
        payout ??= await findPayout(db, { payoutRef: request.payoutRef });
        if (!payout) throw new Error(`payout ${request.payoutRef} vanished`);
      }
      const same =
        payout.amount === request.amount &&
        payout.payee_type === request.payeeType &&
        payout.account === request.account &&
        payout.bank_code === request.bankCode &&
        payout.name === request.name;
      if (!same) throw new ChannelError('conflict', 'payoutRef already used for another payout');
      return { payout: view(payout, settings.senderBank), created };
    },

    async get(by: { id: string } | { payoutRef: string }): Promise<PayoutView> {
      const payout = await findPayout(db, by);
      if (!payout) throw new ChannelError('not_found', 'no such payout');
      return view(payout, settings.senderBank);
    },

    /**
     * Settles due payouts and returns due RETURN payouts, each with its notice in the same transaction;
     * answers how many changed. Driven by rows, not timers, so a restart loses nothing.
     */
    async settleDue(): Promise<number> {
      return db.transaction().execute(async (trx) => {
        let changed = 0;
        for (const payout of await lockDueSettlements(trx, BATCH)) {
          const at = new Date();
          const next =
            payout.planned_outcome === 'fail'
              ? await transitionPayout(trx, payout.id, 'processing', {
                  status: 'failed',
                  reason: 'beneficiary_bank_rejected',
                  settle_at: null,
                  finished_at: at,
                })
              : await transitionPayout(trx, payout.id, 'processing', {
                  status: 'succeeded',
                  settle_at: null,
                  finished_at: at,
                  // The money leaves now: the movement gets its tracking key.
                  clave_rastreo: newClaveRastreo('payout', at),
                  return_at: payout.planned_outcome === 'return' ? later(at) : null,
                });
          if (!next) continue;
          await notify(trx, next, next.status === 'failed' ? 'payout.failed' : 'payout.succeeded', at);
          changed++;
        }
        for (const payout of await lockDueReturns(trx, BATCH)) {
          const at = new Date();
          const next = await transitionPayout(trx, payout.id, 'succeeded', {
            status: 'returned',
            reason: 'returned_by_beneficiary_bank',
            return_at: null,
            returned_at: at,
            return_clave_rastreo: newClaveRastreo('payout_return', at),
          });
          if (!next) continue;
          await notify(trx, next, 'payout.returned', at);
          changed++;
        }
        return changed;
      });
    },
  };
}

function view(p: PayoutRow, senderBank = ''): PayoutView {
  return {
    senderBank,
    payoutId: p.id,
    payoutRef: p.payout_ref,
    amount: p.amount,
    payeeType: p.payee_type,
    account: p.account,
    bankCode: p.bank_code,
    status: p.status,
    reason: p.reason,
    finishedAt: p.finished_at?.toISOString() ?? null,
    returnedAt: p.returned_at?.toISOString() ?? null,
    claveRastreo: p.clave_rastreo,
    returnClaveRastreo: p.return_clave_rastreo,
    createdAt: p.created_at.toISOString(),
  };
}

export type PayoutService = ReturnType<typeof createPayoutService>;
