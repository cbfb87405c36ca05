import type { Logger } from '@agentpay/logger';
import {
  type CreatePayOrderRequest__Output,
  type MerchantContext__Output,
  type PaymentServiceHandlers,
  type PayOrderRef__Output,
  unary,
} from '@agentpay/proto';
import { AppError, MAX_AMOUNT_CENTAVOS } from '@agentpay/wire';
import { toPayOrder, toPayOrderHistory } from './pay-orders/pay-order.mapper.js';
import type { Merchant, NewPayOrder, OrderRef, PayOrderService } from './pay-orders/pay-order.service.js';

/** The PaymentService gRPC service: proto requests become domain inputs here and nowhere else. */
export function createPaymentHandlers(deps: {
  logger: Logger;
  payOrders: PayOrderService;
}): PaymentServiceHandlers {
  const { logger, payOrders } = deps;
  return {
    CreatePayOrder: unary(logger, async (request, call) => {
      const merchant = merchantOf(request.merchant);
      const { order, created } = await payOrders.create(merchant, newPayOrderOf(request), {
        traceparent: request.merchant?.traceparent ?? '',
        clientIp: request.client_ip,
        cancelled: () => call.cancelled,
      });
      return { order: toPayOrder(order), created };
    }),
    ClosePayOrder: unary(logger, async (request) => {
      const order = await payOrders.close(
        orderRefOf(request.ref),
        request.use_cancel,
        contextOf(request.ref),
      );
      return { order: toPayOrder(order) };
    }),
    GetPayOrder: unary(logger, async (ref) => toPayOrder(await payOrders.get(orderRefOf(ref)))),
    LocatePayOrder: unary(logger, async (request) => toPayOrder(await payOrders.locate(request.order_no))),
    ListPayOrders: unary(logger, async (request) => {
      const page = await payOrders.list({
        mchNo: request.mch_no,
        query: request.query,
        status: request.status,
        createdFrom: request.created_from,
        createdTo: request.created_to,
        limit: request.limit,
        cursor: request.cursor,
      });
      return { orders: page.orders.map(toPayOrder), next_cursor: page.nextCursor };
    }),
    GetPayOrderHistory: unary(logger, async (request) =>
      toPayOrderHistory(await payOrders.history(request.order_no, request.mch_no)),
    ),
    SyncPayOrder: unary(logger, async (ref) => {
      const { order, adjust } = await payOrders.sync(orderRefOf(ref), contextOf(ref));
      return { order: toPayOrder(order), adjust };
    }),
  };
}

function invalid(field: string, problem: string): AppError {
  return new AppError('INVALID_PARAMETER', `${field} (${problem})`);
}

function merchantOf(merchant: MerchantContext__Output | null): Merchant {
  if (!merchant?.mch_no) throw invalid('mchNo', 'required');
  return {
    mchNo: merchant.mch_no,
    appId: merchant.app_id,
    name: merchant.merchant_name,
    feeRate: {
      percentBps: merchant.fee_percent_bps,
      fixedCentavos: Number(merchant.fee_fixed_centavos || 0),
    },
    settleType: merchant.settle_type,
  };
}

function orderRefOf(ref: PayOrderRef__Output | null): OrderRef {
  const { mchNo } = merchantOf(ref?.merchant ?? null);
  if (!ref?.order_no && !ref?.biz_order_no) throw invalid('orderNo or bizOrderNo', 'one is required');
  return { mchNo, orderNo: ref.order_no, bizOrderNo: ref.biz_order_no };
}

function contextOf(ref: PayOrderRef__Output | null): { traceparent: string } {
  return { traceparent: ref?.merchant?.traceparent ?? '' };
}

/** Checks the request is well-formed. The gateway validated it already; this guards other callers. */
function newPayOrderOf(request: CreatePayOrderRequest__Output): NewPayOrder {
  if (!request.biz_order_no) throw invalid('bizOrderNo', 'required');
  if (!request.title) throw invalid('title', 'required');
  if (!request.method) throw invalid('method', 'required');
  const amount = Number(request.amount);
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_AMOUNT_CENTAVOS) {
    throw invalid('amount', 'must be 0.01..99999999.99');
  }
  let expiredTime: Date | undefined;
  if (request.expired_time) {
    expiredTime = new Date(request.expired_time);
    if (Number.isNaN(expiredTime.getTime())) throw invalid('expiredTime', 'must be yyyy-MM-dd HH:mm:ss');
  }
  return {
    bizOrderNo: request.biz_order_no,
    title: request.title,
    description: request.description,
    expiredTime,
    method: request.method,
    limitPay: request.limit_pay,
    amount,
    extraParam: request.extra_param,
    attach: request.attach,
    returnUrl: request.return_url,
    quitUrl: request.quit_url,
    notifyUrl: request.notify_url,
  };
}
