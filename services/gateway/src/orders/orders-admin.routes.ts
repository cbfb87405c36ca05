import type { FastifyInstance } from '@agentpay/http';
import { call } from '@agentpay/proto';
import { adminOrderQuery, adminTransferQuery, orderParams } from './order-query.js';
import { type OrderReadDeps, registerOrderReads } from './order-reads.routes.js';
import { badQuery, serviceRefusal } from './order-replies.js';
import { orderDetail } from './order-views.js';

// Orders and transfers for operators (CONTRACT.md section 18; services/gateway/README.md "Orders and
// transfers"): search and page every merchant's, one order's timeline (orders/order-routes.ts, shared with
// the dashboard), and the sync that asks the channel.
// Who may call each route is in people/orders.permissions.ts.

export type OrdersAdminDeps = OrderReadDeps;

export function registerOrdersAdmin(app: FastifyInstance, deps: OrdersAdminDeps): void {
  const opts = { timeoutMs: deps.timeoutMs };
  const { payments } = deps;

  registerOrderReads(app, deps, {
    prefix: '/admin',
    orderQuery: adminOrderQuery,
    transferQuery: adminTransferQuery,
    merchant: () => undefined,
  });

  // As the merchant API's sync: payments asks the channel and moves the order to what it answers.
  app.post<{ Params: { orderNo: string } }>('/admin/orders/:orderNo/sync', async (request, reply) => {
    const orderNo = orderParams.safeParse(request.params);
    if (!orderNo.success) return badQuery(reply, orderNo.error);
    try {
      const located = await call(payments, payments.LocatePayOrder, { order_no: orderNo.data.orderNo }, opts);
      const synced = await call(
        payments,
        payments.SyncPayOrder,
        { merchant: { mch_no: located.mch_no }, order_no: located.order_no, biz_order_no: '' },
        opts,
      );
      const order = synced.order ?? located;
      request.auditNote = {
        target: `order:${order.order_no}`,
        before: { status: located.status },
        after: { status: order.status },
      };
      return { order: orderDetail(order), adjust: synced.adjust };
    } catch (err) {
      return serviceRefusal(reply, err);
    }
  });
}
