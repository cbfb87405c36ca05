import {
  limitsView,
  PAYIN_PER_ORDER,
  payOrderView,
  payoutLimitsToProto,
  refundView,
  transferBatchView,
  transferView,
} from '@agentpay/api';
import {
  call,
  type LedgerServiceClient,
  type MerchantContext,
  type PaymentServiceClient,
  type TransferServiceClient,
  type UpstreamRouterClient,
} from '@agentpay/proto';
import { AppError, formatWireTime } from '@agentpay/wire';
import type { z } from 'zod';
import { payeeView, usageView } from '../controls/index.js';
import { balanceView, recordView } from '../ledger/index.js';
import type { AuthMerchant } from '../merchants/index.js';
import { requestRefund } from '../orders/index.js';
import type { CashierIssuer } from './cashier/cashier.routes.js';
import { BATCH_BODY_LIMIT_BYTES, type CommonParams, MAX_RECORDS_SPAN_DAYS, schemas } from './schemas.js';

export interface RouteDeps {
  payments: PaymentServiceClient;
  transfers: TransferServiceClient;
  router: UpstreamRouterClient;
  /** The books; without it (a gateway built for its document or a test) the balance endpoints answer 50003. */
  ledger?: LedgerServiceClient;
  timeZone: string;
  grpcTimeoutMs: number;
  /** Adds the payer's cashierUrl to create-pay's payBody; without it payBody is answered as payments wrote it. */
  cashier?: CashierIssuer;
}

/** What the pipeline knows about a request once it is authenticated. */
export interface RequestContext {
  merchant: AuthMerchant;
  common: CommonParams;
  traceparent: string;
}

export interface MerchantRoute {
  path: string;
  schema: z.ZodType;
  /** This path's own body limit, when it takes more than the API's (BODY_LIMIT_BYTES). */
  bodyLimitBytes?: number;
  /** Answers the envelope's `data` (null for a bare success). */
  handle(ctx: RequestContext, params: unknown): Promise<unknown>;
}

function route<S extends z.ZodType>(
  path: string,
  schema: S,
  handle: (ctx: RequestContext, params: z.output<S>) => Promise<unknown>,
  options: { bodyLimitBytes?: number } = {},
): MerchantRoute {
  return { path, schema, ...options, handle: (ctx, params) => handle(ctx, params as z.output<S>) };
}

function merchantContext(ctx: RequestContext): MerchantContext {
  return {
    mch_no: ctx.merchant.mchNo,
    app_id: ctx.common.appId ?? '',
    fee_percent_bps: ctx.merchant.feePercentBps,
    fee_fixed_centavos: ctx.merchant.feeFixedCentavos,
    settle_type: ctx.merchant.settleType,
    traceparent: ctx.traceparent,
    merchant_name: ctx.merchant.name,
    payout_limits: payoutLimitsToProto(ctx.merchant.limits.payout),
    registered_payees_only: ctx.merchant.registeredPayeesOnly,
  };
}

/**
 * The merchant endpoints: the seed's ten (section 4) and the two balance queries of docs/merchant-api.md "Balance and statement".
 * Validation here, business rules in the services.
 */
export function merchantRoutes(deps: RouteDeps): MerchantRoute[] {
  const s = schemas(deps.timeZone);
  const opts = { timeoutMs: deps.grpcTimeoutMs };
  const { payments, transfers, router } = deps;

  return [
    route('/gateway/pay', s.pay, async (ctx, p) => {
      const { perOrder } = ctx.merchant.limits.payin;
      if (perOrder !== null && p.amount > perOrder)
        throw new AppError('PAYIN_LIMIT_EXCEEDED', PAYIN_PER_ORDER);
      const { order } = await call(
        payments,
        payments.CreatePayOrder,
        {
          merchant: merchantContext(ctx),
          biz_order_no: p.bizOrderNo,
          title: p.title,
          description: p.description ?? '',
          expired_time: p.expiredTime?.toISOString() ?? '',
          method: p.method,
          limit_pay: p.limitPay ?? '',
          amount: p.amount,
          extra_param: p.extraParam ?? '',
          attach: p.attach ?? '',
          return_url: p.returnUrl ?? '',
          quit_url: p.quitUrl ?? '',
          notify_url: p.notifyUrl ?? '',
          client_ip: ctx.common.clientIp ?? '',
        },
        opts,
      );
      if (!order) throw new AppError('INTERNAL_ERROR');
      const payBody = deps.cashier
        ? await deps.cashier.issue(
            { orderNo: order.order_no, mchNo: order.mch_no, payBody: order.pay_body },
            { returnUrl: p.returnUrl ?? '', quitUrl: p.quitUrl ?? '' },
          )
        : order.pay_body;
      return {
        bizOrderNo: order.biz_order_no,
        orderNo: order.order_no,
        status: order.status,
        payBody,
      };
    }),

    route('/gateway/options/pay-methods', s.none, async (ctx) => {
      const list = await call(router, router.ListPayMethods, { mch_no: ctx.merchant.mchNo }, opts);
      return list.items;
    }),

    route('/gateway/options/payee-types', s.none, async (ctx) => {
      const list = await call(router, router.ListPayeeTypes, { mch_no: ctx.merchant.mchNo }, opts);
      return list.items;
    }),

    route('/gateway/options/payee-codes', s.payeeCodes, async (ctx, p) => {
      const list = await call(
        router,
        router.ListPayeeCodes,
        { mch_no: ctx.merchant.mchNo, payee_type: p.payeeType },
        opts,
      );
      return list.items;
    }),

    route('/gateway/close', s.close, async (ctx, p) => {
      await call(
        payments,
        payments.ClosePayOrder,
        {
          ref: {
            merchant: merchantContext(ctx),
            order_no: p.orderNo ?? '',
            biz_order_no: p.bizOrderNo ?? '',
          },
          use_cancel: p.useCancel ?? false,
        },
        opts,
      );
      return null;
    }),

    route('/gateway/inqury', s.inquiry, async (ctx, p) => {
      const inquiry = await call(
        transfers,
        transfers.Inquire,
        {
          merchant: merchantContext(ctx),
          biz_inqury_no: p.bizInquryNo,
          payee_type: p.payeeType,
          payee_account: p.payeeAccount,
          payee_name: p.payeeName ?? '',
          payee_code: p.payeeCode ?? '',
          extra_param: p.extraParam ?? '',
          attach: p.attach ?? '',
        },
        opts,
      );
      return {
        bizInquryNo: inquiry.biz_inqury_no,
        inquryNo: inquiry.inqury_no,
        status: inquiry.status,
        accountValid: inquiry.account_valid,
        ...(inquiry.upload_payee_name ? { uploadPayeeName: inquiry.upload_payee_name } : {}),
      };
    }),

    route('/gateway/transfer', s.transfer, async (ctx, p) => {
      const { transfer } = await call(
        transfers,
        transfers.CreateTransfer,
        {
          merchant: merchantContext(ctx),
          biz_transfer_no: p.bizTransferNo,
          amount: p.amount,
          title: p.title ?? '',
          reason: p.reason ?? '',
          payee_type: p.payeeType,
          payee_account: p.payeeAccount,
          payee_name: p.payeeName ?? '',
          payee_code: p.payeeCode ?? '',
          extra_param: p.extraParam ?? '',
          attach: p.attach ?? '',
          notify_url: p.notifyUrl ?? '',
          client_ip: ctx.common.clientIp ?? '',
        },
        opts,
      );
      if (!transfer) throw new AppError('INTERNAL_ERROR');
      return {
        bizTransferNo: transfer.biz_transfer_no,
        transferNo: transfer.transfer_no,
        status: transfer.status,
      };
    }),

    route(
      '/gateway/transfer/batch',
      s.transferBatch,
      async (ctx, p) => {
        const { batch } = await call(
          transfers,
          transfers.CreateTransferBatch,
          {
            merchant: merchantContext(ctx),
            biz_batch_no: p.bizBatchNo,
            notify_url: p.notifyUrl ?? '',
            client_ip: ctx.common.clientIp ?? '',
            items: p.items.map((item) => ({
              biz_transfer_no: item.bizTransferNo,
              amount: item.amount,
              title: item.title ?? '',
              reason: item.reason ?? '',
              payee_type: item.payeeType,
              payee_account: item.payeeAccount,
              payee_name: item.payeeName ?? '',
              payee_code: item.payeeCode ?? '',
              attach: item.attach ?? '',
            })),
          },
          opts,
        );
        if (!batch) throw new AppError('INTERNAL_ERROR');
        const view = transferBatchView(batch, deps.timeZone);
        return {
          batchNo: view.batchNo,
          bizBatchNo: view.bizBatchNo,
          status: view.status,
          count: view.count,
          amount: view.amount,
          fee: view.fee,
        };
      },
      { bodyLimitBytes: BATCH_BODY_LIMIT_BYTES },
    ),

    route('/gateway/query/transferBatch', s.queryTransferBatch, async (ctx, p) => {
      const page = await call(
        transfers,
        transfers.GetTransferBatch,
        {
          merchant: merchantContext(ctx),
          batch_no: p.batchNo ?? '',
          biz_batch_no: p.bizBatchNo ?? '',
          cursor: p.cursor ?? '',
          limit: p.limit ?? 0,
        },
        opts,
      );
      if (!page.batch) throw new AppError('INTERNAL_ERROR');
      return {
        ...transferBatchView(page.batch, deps.timeZone),
        items: page.items.map((t) => transferView(t, deps.timeZone)),
        ...(page.next_cursor && { nextCursor: page.next_cursor }),
      };
    }),

    route('/gateway/query/payOrder', s.queryPay, async (ctx, p) => {
      const order = await call(
        payments,
        payments.GetPayOrder,
        { merchant: merchantContext(ctx), order_no: p.orderNo ?? '', biz_order_no: p.bizOrderNo ?? '' },
        opts,
      );
      return payOrderView(order, deps.timeZone);
    }),

    route('/gateway/query/transferOrder', s.queryTransfer, async (ctx, p) => {
      const transfer = await call(
        transfers,
        transfers.GetTransfer,
        {
          merchant: merchantContext(ctx),
          transfer_no: p.transferNo ?? '',
          biz_transfer_no: p.bizTransferNo ?? '',
        },
        opts,
      );
      return transferView(transfer, deps.timeZone);
    }),

    route('/gateway/refund', s.refund, async (ctx, p) => {
      const transfer = await requestRefund(
        { payments, transfers, timeoutMs: deps.grpcTimeoutMs },
        merchantContext(ctx),
        {
          orderNo: p.orderNo ?? '',
          bizOrderNo: p.bizOrderNo ?? '',
          bizRefundNo: p.bizRefundNo,
          amount: p.amount ?? 0,
          reason: p.reason ?? '',
          notifyUrl: p.notifyUrl ?? '',
          clientIp: ctx.common.clientIp ?? '',
        },
      );
      const view = refundView(transfer, deps.timeZone);
      return {
        refundNo: view['refundNo'],
        bizRefundNo: view['bizRefundNo'],
        orderNo: view['orderNo'],
        amount: view['amount'],
        status: view['status'],
      };
    }),

    route('/gateway/query/refund', s.queryRefund, async (ctx, p) => {
      const refund = await call(
        transfers,
        transfers.GetRefund,
        { merchant: merchantContext(ctx), refund_no: p.refundNo ?? '', biz_refund_no: p.bizRefundNo ?? '' },
        opts,
      );
      return refundView(refund, deps.timeZone);
    }),

    route('/gateway/sync/order/pay', s.syncPay, async (ctx, p) => {
      const result = await call(
        payments,
        payments.SyncPayOrder,
        { merchant: merchantContext(ctx), order_no: p.orderNo ?? '', biz_order_no: p.bizOrderNo ?? '' },
        opts,
      );
      return { orderStatus: result.order?.status, adjust: result.adjust };
    }),

    route('/gateway/query/balance', s.none, async (ctx) => {
      const ledger = ledgerOf(deps);
      const balance = await call(ledger, ledger.GetBalance, { mch_no: ctx.merchant.mchNo }, opts);
      return balanceView(balance);
    }),

    route('/gateway/query/limits', s.none, async (ctx) => {
      const ledger = ledgerOf(deps);
      const usage = await call(ledger, ledger.GetPayoutUsage, { mch_no: ctx.merchant.mchNo }, opts);
      return { limits: limitsView(ctx.merchant.limits), usage: usageView(usage) };
    }),

    route('/gateway/payee/register', s.payeeRegister, async (ctx, p) => {
      const { payee } = await call(
        transfers,
        transfers.RegisterPayee,
        {
          merchant: merchantContext(ctx),
          payee_type: p.payeeType,
          payee_account: p.payeeAccount,
          payee_name: p.payeeName,
          payee_code: p.payeeCode ?? '',
          registered_by: '',
        },
        opts,
      );
      if (!payee) throw new AppError('INTERNAL_ERROR');
      return merchantPayee(payee, deps.timeZone);
    }),

    route('/gateway/query/payees', s.queryPayees, async (ctx, p) => {
      const page = await call(
        transfers,
        transfers.ListPayees,
        { mch_no: ctx.merchant.mchNo, limit: p.limit ?? 50, cursor: p.cursor ?? '', with_removed: false },
        opts,
      );
      return {
        payees: page.payees.map((payee) => merchantPayee(payee, deps.timeZone)),
        ...(page.next_cursor ? { nextCursor: page.next_cursor } : {}),
      };
    }),

    route('/gateway/payee/remove', s.payeeRemove, async (ctx, p) => {
      const payee = await call(
        transfers,
        transfers.RemovePayee,
        { mch_no: ctx.merchant.mchNo, payee_id: p.payeeId, actor: 'api' },
        opts,
      );
      return merchantPayee(payee, deps.timeZone);
    }),

    route('/gateway/query/balanceRecords', s.balanceRecords, async (ctx, p) => {
      if (p.startTime >= p.endTime) {
        throw new AppError('INVALID_PARAMETER', 'endTime (must be after startTime)');
      }
      if (p.endTime.getTime() - p.startTime.getTime() > MAX_RECORDS_SPAN_DAYS * DAY_MS) {
        throw new AppError(
          'INVALID_PARAMETER',
          `endTime (at most ${MAX_RECORDS_SPAN_DAYS} days after startTime)`,
        );
      }
      const ledger = ledgerOf(deps);
      const page = await call(
        ledger,
        ledger.ListRecords,
        {
          mch_no: ctx.merchant.mchNo,
          start_time: p.startTime.toISOString(),
          end_time: p.endTime.toISOString(),
          limit: p.limit ?? DEFAULT_RECORDS_LIMIT,
          cursor: p.cursor ?? '',
        },
        opts,
      );
      return {
        records: page.records.map((record) => recordView(record, deps.timeZone)),
        ...(page.next_cursor ? { nextCursor: page.next_cursor } : {}),
      };
    }),
  ];
}

/** A registered payee as the merchant API shows it: wire times, and no field without a value. */
function merchantPayee(payee: Parameters<typeof payeeView>[0], timeZone: string) {
  const view = payeeView(payee);
  return {
    payeeId: view.payeeId,
    payeeType: view.payeeType,
    payeeAccount: view.payeeAccount,
    payeeName: view.payeeName,
    ...(view.payeeCode ? { payeeCode: view.payeeCode } : {}),
    status: view.status,
    usableAt: formatWireTime(new Date(view.usableAt), timeZone),
    createTime: formatWireTime(new Date(view.createdAt), timeZone),
    ...(view.removedAt ? { removeTime: formatWireTime(new Date(view.removedAt), timeZone) } : {}),
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_RECORDS_LIMIT = 100;

function ledgerOf(deps: RouteDeps): LedgerServiceClient {
  if (!deps.ledger) throw new AppError('SERVICE_UNAVAILABLE');
  return deps.ledger;
}
