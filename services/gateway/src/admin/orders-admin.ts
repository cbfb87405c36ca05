import type { FastifyInstance } from '@agentpay/http';
import { call, type PaymentServiceClient, type TransferServiceClient } from '@agentpay/proto';
import {
  adminOrderQuery,
  adminTransferQuery,
  listRequest,
  orderParams,
  transferParams,
} from '../orders/order-query.js';
import { badQuery, serviceRefusal } from '../orders/order-replies.js';
import type { Timelines } from '../orders/order-timeline.js';
import { orderDetail, orderSummary, transferSummary } from '../orders/order-views.js';

// Orders and transfers for operators (CONTRACT.md section 18; services/gateway/README.md "Orders and
// transfers"): search and page every merchant's, one order's timeline, and the sync that asks the channel.
// Who may call each route is in people/orders.permissions.ts.

export interface OrdersAdminDeps {
  payments: PaymentServiceClient;
  transfers: TransferServiceClient;
  timelines: Timelines;
  timeoutMs: number;
}

export function registerOrdersAdmin(app: FastifyInstance, deps: OrdersAdminDeps): void {
  const opts = { timeoutMs: deps.timeoutMs };
  const { payments, transfers } = deps;

  app.get('/admin/orders', async (request, reply) => {
    const query = adminOrderQuery.safeParse(request.query ?? {});
    if (!query.success) return badQuery(reply, query.error);
    try {
      const page = await call(
        payments,
        payments.ListPayOrders,
        listRequest(query.data, query.data.mchNo ?? ''),
        opts,
      );
      return {
        items: page.orders.map(orderSummary),
        ...(page.next_cursor ? { next: page.next_cursor } : {}),
      };
    } catch (err) {
      return serviceRefusal(reply, err);
    }
  });

  app.get<{ Params: { orderNo: string } }>('/admin/orders/:orderNo', async (request, reply) => {
    const orderNo = orderParams.safeParse(request.params);
    if (!orderNo.success) return badQuery(reply, orderNo.error);
    try {
      return await deps.timelines.order(orderNo.data.orderNo, {});
    } catch (err) {
      return serviceRefusal(reply, err);
    }
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

  app.get('/admin/transfers', async (request, reply) => {
    const query = adminTransferQuery.safeParse(request.query ?? {});
    if (!query.success) return badQuery(reply, query.error);
    try {
      const page = await call(
        transfers,
        transfers.ListTransfers,
        listRequest(query.data, query.data.mchNo ?? ''),
        opts,
      );
      return {
        items: page.transfers.map(transferSummary),
        ...(page.next_cursor ? { next: page.next_cursor } : {}),
      };
    } catch (err) {
      return serviceRefusal(reply, err);
    }
  });

  app.get<{ Params: { transferNo: string } }>('/admin/transfers/:transferNo', async (request, reply) => {
    const transferNo = transferParams.safeParse(request.params);
    if (!transferNo.success) return badQuery(reply, transferNo.error);
    try {
      return await deps.timelines.transfer(transferNo.data.transferNo, {});
    } catch (err) {
      return serviceRefusal(reply, err);
    }
  });
}
