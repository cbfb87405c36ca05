import type { Logger } from '@agentpay/logger';
import { type PaymentServiceHandlers, unary } from '@agentpay/proto';
import { toPayOrder } from './pay-orders/pay-order.mapper.js';
import type { PayOrderService } from './pay-orders/pay-order.service.js';

/** The PaymentService gRPC service. */
export function paymentHandlers(deps: {
  logger: Logger;
  payOrders: PayOrderService;
}): PaymentServiceHandlers {
  const { logger, payOrders } = deps;
  return {
    CreatePayOrder: unary(logger, async (request, call) => {
      const { order, created } = await payOrders.create(request, { cancelled: () => call.cancelled });
      return { order: toPayOrder(order), created };
    }),
    ClosePayOrder: unary(logger, async (request) => {
      const order = await payOrders.close(request.ref, request.use_cancel);
      return { order: toPayOrder(order) };
    }),
    GetPayOrder: unary(logger, async (ref) => toPayOrder(await payOrders.get(ref))),
    SyncPayOrder: unary(logger, async (ref) => {
      const { order, adjust } = await payOrders.sync(ref);
      return { order: toPayOrder(order), adjust };
    }),
    ApplyUpstreamPayment: unary(logger, async (request, call) => {
      const traceparent = call.metadata.get('traceparent')[0];
      const { order, changed } = await payOrders.applyUpstream(
        request,
        typeof traceparent === 'string' ? traceparent : undefined,
      );
      return { order: toPayOrder(order), changed };
    }),
  };
}
