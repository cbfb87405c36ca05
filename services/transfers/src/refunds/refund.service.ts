import { AppError, feeFor, requestFingerprint } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, TransferRow } from '../db/schema.js';
import { checkPayee } from '../payees/payee-account.js';
import type { Merchant, RequestContext } from '../shared/merchant.js';
import type { TransferService } from '../transfers/transfer.service.js';
import {
  findMerchantRefund,
  findRefundByBiz,
  insertRefundSubmitting,
  lockAllowance,
  reserveAllowance,
} from './refund.repository.js';

/** The paid order a refund returns money of, as payments holds it (the gateway passes it on). */
export interface RefundedOrder {
  orderNo: string;
  bizOrderNo: string;
  status: string;
  /** Centavos the order paid. */
  paid: number;
  payerAccount: string;
  payerName: string;
  /** The payer's bank, 5-digit Banxico code. */
  payerBank: string;
  /** The paying deposit's claveRastreo ('' when the channel had none). */
  claveRastreo: string;
}

export interface NewRefund {
  bizRefundNo: string;
  /** Centavos; 0: everything the order has left to refund. */
  amount: number;
  reason: string;
  notifyUrl: string;
}

/** Why a refund is refused with 30007 (the `msg` names it). */
export const REFUND_REFUSALS = {
  notPaid: 'order not paid',
  noPayer: 'no payer account known',
  exceeds: 'amount exceeds what is left',
  nothingLeft: 'nothing left to refund',
} as const;

/** Kept back from the caller's deadline so an answer, even an error, reaches it in time. */
const DEADLINE_MARGIN_MS = 500;
const MAX_ATTEMPTS = 5;
/** SPEI's conceptoPago holds 39 characters. */
const CONCEPT_MAX = 39;

/** The conceptoPago of a refund: it names the original payment (its claveRastreo, else the order number). */
export function refundConcept(order: Pick<RefundedOrder, 'orderNo' | 'claveRastreo'>): string {
  const original = order.claveRastreo || order.orderNo;
  const long = `DEVOLUCION ${original}`;
  // Both are A-Z0-9 already; a channel folds whatever it sends to its own alphabet anyway.
  return (long.length <= CONCEPT_MAX ? long : `DEV ${original}`).slice(0, CONCEPT_MAX);
}

/** The payer's account as a payee: a CLABE (its bank derived from it) or a debit card at the payer's bank. */
function payerAsPayee(order: RefundedOrder) {
  const account = order.payerAccount;
  if (!account) return undefined;
  const input = /^\d{16}$/.test(account)
    ? { payeeType: 'bank_card', payeeAccount: account, payeeCode: order.payerBank }
    : { payeeType: 'spei_transfer', payeeAccount: account, payeeCode: '' };
  try {
    const check = checkPayee(input);
    return check.ok ? check.payee : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refunds of paid orders (CONTRACT section 21): each is a payout of kind `refund` to the account that paid,
 * created and sent through the transfer path (its freeze of amount + fee, payout limits, router, outcomes,
 * callbacks), so the books see an ordinary freeze, reversed when the payout fails. What the order's refunds
 * take is reserved in refund_allowances in the transaction that creates the refund, and given back by the
 * database trigger when it fails (migration 20261128T2100_refunds).
 */
export function createRefundService(deps: { db: Kysely<Database>; transfers: TransferService }) {
  const { db } = deps;
  const { submission } = deps.transfers;

  async function create(
    merchant: Merchant,
    order: RefundedOrder,
    refund: NewRefund,
    context: RequestContext & { clientIp: string },
  ): Promise<{ transfer: TransferRow; created: boolean }> {
    const { deadline } = context;
    const fingerprint = requestFingerprint({
      kind: 'refund',
      order_no: order.orderNo,
      amount: refund.amount,
      reason: refund.reason,
      notify_url: refund.notifyUrl,
    });

    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      // A repeat answers the refund it repeats, even once nothing is left to refund.
      const existing = await findRefundByBiz(db, merchant.mchNo, refund.bizRefundNo);
      if (existing) {
        if (existing.fingerprint !== fingerprint) throw new AppError('DUPLICATE_REFUND');
        const current = await submission.settled(existing, deadline - DEADLINE_MARGIN_MS);
        if (current) return { transfer: current, created: false };
        continue;
      }
      if (order.status !== 'success') throw new AppError('REFUND_NOT_POSSIBLE', REFUND_REFUSALS.notPaid);
      const payee = payerAsPayee(order);
      if (!payee) throw new AppError('REFUND_NOT_POSSIBLE', REFUND_REFUSALS.noPayer);

      const inserted = await db.transaction().execute(async (trx) => {
        const allowance = await lockAllowance(trx, {
          orderNo: order.orderNo,
          mchNo: merchant.mchNo,
          paid: order.paid,
        });
        const left = allowance.paid - allowance.refunded;
        if (left <= 0) throw new AppError('REFUND_NOT_POSSIBLE', REFUND_REFUSALS.nothingLeft);
        const amount = refund.amount || left;
        if (amount > left) throw new AppError('REFUND_NOT_POSSIBLE', REFUND_REFUSALS.exceeds);
        const row = await insertRefundSubmitting(trx, {
          mch_no: merchant.mchNo,
          app_id: merchant.appId,
          biz_transfer_no: refund.bizRefundNo,
          amount,
          fee: feeFor(amount, merchant.feeRate),
          // A refund's title is the merchant's reason; its reason is the conceptoPago sent upstream.
          title: refund.reason,
          reason: refundConcept(order),
          payee_type: payee.payeeType,
          payee_account: payee.payeeAccount,
          payee_name: order.payerName,
          payee_code: payee.payeeCode,
          extra_param: '',
          attach: '',
          notify_url: refund.notifyUrl,
          client_ip: context.clientIp,
          fingerprint,
          order_no: order.orderNo,
          biz_order_no: order.bizOrderNo,
        });
        // Another request took this bizRefundNo meanwhile: nothing reserved, read it on the next round.
        if (row) await reserveAllowance(trx, order.orderNo, amount);
        return row;
      });
      if (!inserted) continue;
      // The payer's account is where the money came from: refunds skip the registered-payees control.
      return {
        transfer: await submission.submit(inserted, context.traceparent, deadline, merchant.payoutLimits),
        created: true,
      };
    }
    throw new AppError('SERVICE_UNAVAILABLE', 'refund is being created, try again');
  }

  return {
    create,
    /** GetRefund: one of the merchant's refunds by either identifier. */
    async get(ref: { mchNo: string; refundNo: string; bizRefundNo: string }): Promise<TransferRow> {
      if (!ref.refundNo && !ref.bizRefundNo) throw new AppError('INVALID_PARAMETER', 'refundNo');
      const row = await findMerchantRefund(db, ref);
      if (!row) throw new AppError('REFUND_NOT_FOUND');
      return row;
    },
  };
}

export type RefundService = ReturnType<typeof createRefundService>;
