import type { FastifyInstance, FastifyReply, FastifyRequest } from '@agentpay/http';
import { call, type PaymentServiceClient, type TransferServiceClient } from '@agentpay/proto';
import type { z } from 'zod';
import { type ListQuery, listRequest, orderParams, transferParams } from './order-query.js';
import { badQuery, serviceRefusal } from './order-replies.js';
import type { Reader, Timelines } from './order-timeline.js';
import { orderSummary, transferSummary } from './order-views.js';

// The reads of orders and transfers that the admin API (admin/orders-admin.ts) and the dashboard
// (dashboard/orders-dashboard.ts) both answer, in one place: search and page, and one order's or transfer's
// timeline. What differs is the scope: an operator reads every merchant's (filtered by `mchNo` if asked)
// and the channel's internals; a merchant person only its own merchant's, without them.

export interface OrderReadDeps {
  payments: PaymentServiceClient;
  transfers: TransferServiceClient;
  timelines: Timelines;
  timeoutMs: number;
}

type Query = Omit<ListQuery, 'mchNo'> & { mchNo?: string | undefined };

export interface OrderReadScope {
  /** `/admin` or `/dashboard/api`. */
  prefix: string;
  orderQuery: z.ZodType<Query>;
  transferQuery: z.ZodType<Query>;
  /** The one merchant the request may read (the session's), or undefined for an operator who reads all. */
  merchant(request: FastifyRequest): string | undefined;
}

/** GET <prefix>/orders, /orders/:orderNo, /transfers and /transfers/:transferNo. */
export function registerOrderReads(app: FastifyInstance, deps: OrderReadDeps, scope: OrderReadScope): void {
  const opts = { timeoutMs: deps.timeoutMs };
  const { payments, transfers, timelines } = deps;
  const reader = (request: FastifyRequest): Reader => {
    const mchNo = scope.merchant(request);
    return mchNo === undefined ? {} : { mchNo };
  };

  const list = (
    path: string,
    schema: z.ZodType<Query>,
    page: (query: Query, mchNo: string) => Promise<unknown>,
  ) =>
    app.get(`${scope.prefix}/${path}`, async (request, reply) => {
      const query = schema.safeParse(request.query ?? {});
      if (!query.success) return badQuery(reply, query.error);
      try {
        return await page(query.data, scope.merchant(request) ?? query.data.mchNo ?? '');
      } catch (err) {
        return serviceRefusal(reply, err);
      }
    });

  const one = <P extends string>(
    path: string,
    params: z.ZodType<Record<P, string>>,
    key: P,
    read: (no: string, reader: Reader) => Promise<unknown>,
  ) =>
    app.get(`${scope.prefix}/${path}`, async (request: FastifyRequest, reply: FastifyReply) => {
      const parsed = params.safeParse(request.params);
      if (!parsed.success) return badQuery(reply, parsed.error);
      try {
        return await read(parsed.data[key], reader(request));
      } catch (err) {
        return serviceRefusal(reply, err);
      }
    });

  list('orders', scope.orderQuery, async (query, mchNo) => {
    const page = await call(payments, payments.ListPayOrders, listRequest(query, mchNo), opts);
    return { items: page.orders.map(orderSummary), ...(page.next_cursor ? { next: page.next_cursor } : {}) };
  });
  one('orders/:orderNo', orderParams, 'orderNo', (no, who) => timelines.order(no, who));
  list('transfers', scope.transferQuery, async (query, mchNo) => {
    const page = await call(transfers, transfers.ListTransfers, listRequest(query, mchNo), opts);
    return {
      items: page.transfers.map(transferSummary),
      ...(page.next_cursor ? { next: page.next_cursor } : {}),
    };
  });
  one('transfers/:transferNo', transferParams, 'transferNo', (no, who) => timelines.transfer(no, who));
}
