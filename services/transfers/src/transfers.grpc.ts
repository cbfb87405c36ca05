import { payoutLimitsFromProto } from '@agentpay/api';
import type { Logger } from '@agentpay/logger';
import {
  type CreateRefundRequest__Output,
  type CreateTransferRequest__Output,
  type MerchantContext__Output,
  type TransferRef__Output,
  type TransferServiceHandlers,
  unary,
} from '@agentpay/proto';
import { AppError, MAX_AMOUNT_CENTAVOS } from '@agentpay/wire';
import { toTransferBatch } from './batches/batch.mapper.js';
import type { BatchService } from './batches/batch.service.js';
import { toInquiry } from './inquiries/inquiry.mapper.js';
import type { InquiryService } from './inquiries/inquiry.service.js';
import { toRegisteredPayee } from './payees/payee.mapper.js';
import type { PayeeRegistry } from './payees/payee.service.js';
import type { NewRefund, RefundedOrder, RefundService } from './refunds/refund.service.js';
import { deadlineOf } from './shared/deadline.js';
import type { Merchant } from './shared/merchant.js';
import type { HeldTransfers } from './transfers/transfer.hold.js';
import type { TransferListing } from './transfers/transfer.list.js';
import { toTransfer, toTransferHistory } from './transfers/transfer.mapper.js';
import type { TransferRef, TransferService } from './transfers/transfer.service.js';
import type { NewTransfer } from './transfers/transfer.submit.js';

export interface TransfersGrpcDeps {
  logger: Logger;
  transfers: Pick<TransferService, 'create' | 'get'>;
  inquiries: InquiryService;
  listing: TransferListing;
  payees: PayeeRegistry;
  held: HeldTransfers;
  refunds: RefundService;
  batches: Pick<BatchService, 'create' | 'get'>;
}

/** The TransferService gRPC service: proto requests become domain inputs here and nowhere else. */
export function createTransferHandlers(deps: TransfersGrpcDeps): TransferServiceHandlers {
  const { logger, transfers, inquiries, listing, payees, held, refunds, batches } = deps;
  return {
    ReleaseHeld: unary(logger, async (req) =>
      toTransfer(await held.release(req.transfer_no, req.traceparent)),
    ),
    RejectHeld: unary(logger, async (req) => toTransfer(await held.reject(req.transfer_no, req.traceparent))),
    CreateRefund: unary(logger, async (req, call) => {
      const merchant = merchantOf(req.merchant);
      const { order, refund } = refundOf(req);
      const { transfer, created } = await refunds.create(merchant, order, refund, {
        traceparent: req.merchant?.traceparent ?? '',
        clientIp: req.client_ip,
        deadline: deadlineOf(call),
      });
      return { transfer: toTransfer(transfer), created };
    }),
    GetRefund: unary(logger, async (req) => {
      const { mchNo } = merchantOf(req.merchant);
      return toTransfer(
        await refunds.get({ mchNo, refundNo: req.refund_no, bizRefundNo: req.biz_refund_no }),
      );
    }),
    CreateTransferBatch: unary(logger, async (req) => {
      const merchant = merchantOf(req.merchant);
      if (!req.biz_batch_no) throw new AppError('INVALID_PARAMETER', 'bizBatchNo: required');
      const { view, created } = await batches.create(merchant, {
        bizBatchNo: req.biz_batch_no,
        notifyUrl: req.notify_url,
        clientIp: req.client_ip,
        requestedBy: req.requested_by,
        items: req.items.map((item, i) => {
          if (!item.biz_transfer_no)
            throw new AppError('INVALID_PARAMETER', `items[${i}].bizTransferNo: required`);
          const amount = Number(item.amount);
          if (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_AMOUNT_CENTAVOS)
            throw new AppError('INVALID_PARAMETER', `items[${i}].amount: out of range`);
          return {
            bizTransferNo: item.biz_transfer_no,
            amount,
            title: item.title,
            reason: item.reason,
            payeeType: item.payee_type,
            payeeAccount: item.payee_account,
            payeeName: item.payee_name,
            payeeCode: item.payee_code,
            attach: item.attach,
          };
        }),
      });
      return { batch: toTransferBatch(view), created };
    }),
    GetTransferBatch: unary(logger, async (req) => {
      const { mchNo } = merchantOf(req.merchant);
      if (!req.batch_no && !req.biz_batch_no)
        throw new AppError('INVALID_PARAMETER', 'batchNo or bizBatchNo: one is required');
      const page = await batches.get(
        { mchNo, batchNo: req.batch_no, bizBatchNo: req.biz_batch_no },
        { cursor: req.cursor, limit: req.limit },
      );
      return {
        batch: toTransferBatch(page),
        items: page.items.map(toTransfer),
        next_cursor: page.nextCursor,
      };
    }),
    CreateTransfer: unary(logger, async (req, call) => {
      const merchant = merchantOf(req.merchant);
      const { transfer, created } = await transfers.create(merchant, newTransferOf(req), {
        traceparent: req.merchant?.traceparent ?? '',
        clientIp: req.client_ip,
        deadline: deadlineOf(call),
      });
      return { transfer: toTransfer(transfer), created };
    }),
    GetTransfer: unary(logger, async (req) => toTransfer(await transfers.get(transferRefOf(req)))),
    ListTransfers: unary(logger, async (req) => {
      const page = await listing.list({
        mchNo: req.mch_no,
        query: req.query,
        status: req.status,
        createdFrom: req.created_from,
        createdTo: req.created_to,
        limit: req.limit,
        cursor: req.cursor,
      });
      return { transfers: page.transfers.map(toTransfer), next_cursor: page.nextCursor };
    }),
    GetTransferHistory: unary(logger, async (req) =>
      toTransferHistory(await listing.history(req.transfer_no, req.mch_no)),
    ),
    RegisterPayee: unary(logger, async (req) => {
      const { mchNo } = merchantOf(req.merchant);
      const { payee, created } = await payees.register({
        mchNo,
        payeeType: req.payee_type,
        payeeAccount: req.payee_account,
        payeeName: req.payee_name,
        payeeCode: req.payee_code,
        registeredBy: req.registered_by,
      });
      return { payee: toRegisteredPayee(payee), created };
    }),
    ListPayees: unary(logger, async (req) => {
      if (!req.mch_no) throw new AppError('INVALID_PARAMETER', 'mchNo: required');
      const page = await payees.list({
        mchNo: req.mch_no,
        limit: req.limit,
        cursor: req.cursor,
        withRemoved: req.with_removed,
      });
      return { payees: page.payees.map(toRegisteredPayee), next_cursor: page.nextCursor };
    }),
    ApprovePayee: unary(logger, async (req) =>
      toRegisteredPayee(
        await payees.approve({ mchNo: req.mch_no, payeeId: req.payee_id, approvedBy: req.actor }),
      ),
    ),
    RemovePayee: unary(logger, async (req) =>
      toRegisteredPayee(await payees.remove({ mchNo: req.mch_no, payeeId: req.payee_id })),
    ),
    Inquire: unary(logger, async (req, call) => {
      const merchant = merchantOf(req.merchant);
      if (!req.biz_inqury_no) throw new AppError('INVALID_PARAMETER', 'bizInquryNo: required');
      const inquiry = await inquiries.inquire(
        merchant,
        {
          bizInquryNo: req.biz_inqury_no,
          payeeType: req.payee_type,
          payeeAccount: req.payee_account,
          payeeName: req.payee_name,
          payeeCode: req.payee_code,
          extraParam: req.extra_param,
          attach: req.attach,
        },
        { traceparent: req.merchant?.traceparent ?? '', deadline: deadlineOf(call) },
      );
      return toInquiry(inquiry);
    }),
  };
}

/** The merchant the gateway authenticated; every RPC is scoped to one. */
export function merchantOf(merchant: MerchantContext__Output | null | undefined): Merchant {
  if (!merchant?.mch_no) throw new AppError('INVALID_PARAMETER', 'merchant: required');
  return {
    mchNo: merchant.mch_no,
    appId: merchant.app_id,
    feeRate: { percentBps: merchant.fee_percent_bps, fixedCentavos: Number(merchant.fee_fixed_centavos) },
    payoutLimits: payoutLimitsFromProto(merchant.payout_limits),
    registeredPayeesOnly: merchant.registered_payees_only,
  };
}

function transferRefOf(ref: TransferRef__Output): TransferRef {
  const { mchNo } = merchantOf(ref.merchant);
  if (!ref.transfer_no && !ref.biz_transfer_no)
    throw new AppError('INVALID_PARAMETER', 'transferNo or bizTransferNo: one is required');
  return { mchNo, transferNo: ref.transfer_no, bizTransferNo: ref.biz_transfer_no };
}

/** A refund request as the use case takes it: the order's facts and the merchant's parameters. */
function refundOf(req: CreateRefundRequest__Output): { order: RefundedOrder; refund: NewRefund } {
  if (!req.biz_refund_no) throw new AppError('INVALID_PARAMETER', 'bizRefundNo: required');
  if (!req.order_no) throw new AppError('INVALID_PARAMETER', 'orderNo: required');
  const amount = Number(req.amount);
  if (!Number.isSafeInteger(amount) || amount < 0 || amount > MAX_AMOUNT_CENTAVOS)
    throw new AppError('INVALID_PARAMETER', 'amount: out of range');
  const paid = Number(req.paid_amount);
  return {
    order: {
      orderNo: req.order_no,
      bizOrderNo: req.biz_order_no,
      status: req.order_status,
      paid: Number.isSafeInteger(paid) && paid > 0 ? paid : 0,
      payerAccount: req.payer_account,
      payerName: req.payer_name,
      payerBank: req.payer_bank,
      claveRastreo: req.order_clave_rastreo,
    },
    refund: { bizRefundNo: req.biz_refund_no, amount, reason: req.reason, notifyUrl: req.notify_url },
  };
}

/** Checks the request is well-formed; the payee itself is checked by the use case. */
function newTransferOf(req: CreateTransferRequest__Output): NewTransfer {
  if (!req.biz_transfer_no) throw new AppError('INVALID_PARAMETER', 'bizTransferNo: required');
  const amount = Number(req.amount);
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_AMOUNT_CENTAVOS)
    throw new AppError('INVALID_PARAMETER', 'amount: out of range');
  return {
    bizTransferNo: req.biz_transfer_no,
    amount,
    title: req.title,
    reason: req.reason,
    payeeType: req.payee_type,
    payeeAccount: req.payee_account,
    payeeName: req.payee_name,
    payeeCode: req.payee_code,
    extraParam: req.extra_param,
    attach: req.attach,
    notifyUrl: req.notify_url,
  };
}
