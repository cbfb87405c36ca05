import { AppError } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, PayOrderRow } from '../db/schema.js';
import { findOpenedOrder } from './pay-order.repository.js';
import { isPayStatus } from './pay-order.state-machine.js';
import { listOrders, statusHistoryOf } from './pay-order-list.repository.js';

/** ListPayOrders as asked: the wire's text, checked here. */
export interface OrderListRequest {
  /** '' for every merchant. */
  mchNo: string;
  query: string;
  status: string;
  createdFrom: string;
  createdTo: string;
  /** 0 asks for the default (50). */
  limit: number;
  /** '' for the first page. */
  cursor: string;
}

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

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
const MAX_SEARCH = 64;

function invalid(field: string, problem: string): AppError {
  return new AppError('INVALID_PARAMETER', `${field} (${problem})`);
}

function instant(text: string, field: string): Date | undefined {
  if (!text) return undefined;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw invalid(field, 'must be an instant');
  return date;
}

/** A cursor names the last order of the previous page. */
export function encodeOrderCursor(orderNo: string): string {
  return Buffer.from(`o:${orderNo}`).toString('base64url');
}

function decodeOrderCursor(cursor: string): string {
  const match = /^o:([A-Za-z0-9]{1,40})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match?.[1]) throw invalid('cursor', 'unknown');
  return match[1];
}

/** ListPayOrders and GetPayOrderHistory: the operators' and the merchant dashboard's reads. */
export function createPayOrderListing(deps: { db: Kysely<Database> }) {
  const { db } = deps;
  return {
    async list(request: OrderListRequest): Promise<{ orders: PayOrderRow[]; nextCursor: string }> {
      const limit = request.limit === 0 ? DEFAULT_LIMIT : request.limit;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
        throw invalid('limit', 'must be 1..200');
      if (request.status && !isPayStatus(request.status)) throw invalid('status', 'unknown');
      const search = request.query.trim();
      if (search.length > MAX_SEARCH) throw invalid('query', `at most ${MAX_SEARCH} characters`);
      const from = instant(request.createdFrom, 'createdFrom');
      const to = instant(request.createdTo, 'createdTo');
      const page = await listOrders(db, {
        mchNo: request.mchNo || undefined,
        search: search || undefined,
        status: request.status || undefined,
        from,
        to,
        limit,
        afterOrderNo: request.cursor ? decodeOrderCursor(request.cursor) : undefined,
      });
      return {
        orders: page.orders,
        nextCursor: page.lastOrderNo ? encodeOrderCursor(page.lastOrderNo) : '',
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
