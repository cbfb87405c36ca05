import { AppError, encodeListCursor, type ListRequest, readListRequest } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, PayOrderRow } from '../db/schema.js';
import { findOpenedOrder } from './pay-order.repository.js';
import { PAY_STATUSES } from './pay-order.state-machine.js';
import { listOrders, statusHistoryOf } from './pay-order-list.repository.js';

/** ListPayOrders as asked: the wire's text, checked by readListRequest. */
export type OrderListRequest = ListRequest;

/** One status change as the timeline shows it. */
export interface StatusChange {
  from: string;
  to: string;
  version: number;
  /** '' when derived. */
  cause: string;
  at: Date;
}

export interface OrderHistory {
  order: PayOrderRow;
  changes: StatusChange[];
  /** The stored history lacks changes (retention); `changes` was completed from the order's own times. */
  derived: boolean;
}

const ORDER_LIST = { cursorKind: 'o', statuses: PAY_STATUSES };

/** ListPayOrders and GetPayOrderHistory: the operators' and the merchant dashboard's reads. */
export function createPayOrderListing(deps: { db: Kysely<Database> }) {
  const { db } = deps;
  return {
    async list(request: OrderListRequest): Promise<{ orders: PayOrderRow[]; nextCursor: string }> {
      const { after, ...page } = readListRequest(request, ORDER_LIST);
      const found = await listOrders(db, { ...page, afterOrderNo: after });
      return {
        orders: found.orders,
        nextCursor: found.lastOrderNo ? encodeListCursor(ORDER_LIST.cursorKind, found.lastOrderNo) : '',
      };
    },

    async history(orderNo: string, mchNo: string): Promise<OrderHistory> {
      const order = orderNo ? await findOpenedOrder(db, orderNo) : undefined;
      if (!order || (mchNo && order.mch_no !== mchNo)) throw new AppError('ORDER_NOT_FOUND');
      const rows = await statusHistoryOf(db, order.order_no);
      const changes: StatusChange[] = rows.map((row) => ({
        from: row.from_status,
        to: row.to_status,
        version: Number(row.version),
        cause: row.cause,
        at: row.created_at,
      }));
      // Version counts the changes: 1 at creation, +1 on each. Fewer rows means retention removed some.
      const derived = changes.length < Number(order.version) - 1;
      if (derived && !changes.some((c) => Number(c.version) === Number(order.version))) {
        changes.push({
          from: '',
          to: order.status,
          version: Number(order.version),
          cause: '',
          at: order.pay_time ?? order.close_time ?? order.updated_at,
        });
      }
      return { order, changes, derived };
    },
  };
}

export type PayOrderListing = ReturnType<typeof createPayOrderListing>;
