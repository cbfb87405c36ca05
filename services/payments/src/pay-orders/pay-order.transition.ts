import { randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from '@agentpay/logger';
import { enqueueOutbox } from '@agentpay/messaging';
import type { OrderStatusChanged__Output } from '@agentpay/proto';
import { AppError } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, PayOrderRow } from '../db/schema.js';
import { toPayOrder } from './pay-order.mapper.js';
import { findOpenedOrder, insertHistory, updateStatus } from './pay-order.repository.js';
import {
  allowedFrom,
  type Cause,
  isAllowed,
  isPayStatus,
  type PayStatus,
} from './pay-order.state-machine.js';

export interface TransitionDeps {
  db: Kysely<Database>;
  logger: Logger;
  /** `${EVENTS_SUBJECT_PREFIX}.pay.status_changed` */
  subject: string;
}

export interface StatusChange {
  to: PayStatus;
  cause: Cause;
  /** Columns that change with the status. */
  set?: Partial<Pick<PayOrderRow, 'pay_time' | 'paid_amount' | 'close_time'>>;
  /** W3C traceparent of the request or job making the change. */
  traceparent: string;
  noticeId?: string | undefined;
}

const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** `traceparent` when well-formed, else a new root trace (jobs such as the sweep start their own). */
export function traceparentOr(traceparent: string | undefined): string {
  if (traceparent && TRACEPARENT.test(traceparent)) return traceparent;
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
}

/**
 * The one way an order's status changes: a conditional update (the order must still be at the status
 * and version it was read at, and the state machine must allow the move) plus its history row and
 * exactly one OrderStatusChanged outbox event, in one transaction. Undefined when the order moved
 * meanwhile; callers re-read and decide again (see moveOrder).
 */
export async function changeStatus(
  deps: TransitionDeps,
  order: PayOrderRow,
  change: StatusChange,
): Promise<PayOrderRow | undefined> {
  if (!isPayStatus(order.status) || !isAllowed(order.status, change.to, change.cause)) {
    throw new Error(`forbidden transition ${order.status} -> ${change.to} by ${change.cause}`);
  }
  const from = order.status;
  return deps.db.transaction().execute(async (trx) => {
    const updated = await updateStatus(trx, {
      orderNo: order.order_no,
      from,
      version: order.version,
      to: change.to,
      allowedFrom: allowedFrom(change.to, change.cause),
      set: change.set ?? {},
    });
    if (!updated) return undefined;
    const eventId = randomUUID();
    await insertHistory(trx, {
      orderNo: updated.order_no,
      from,
      to: change.to,
      version: updated.version,
      cause: change.cause,
      noticeId: change.noticeId,
      eventId,
    });
    const event: OrderStatusChanged__Output = {
      event_id: eventId,
      mch_no: updated.mch_no,
      app_id: updated.app_id,
      kind: 'pay',
      order_no: updated.order_no,
      from_status: from,
      to_status: change.to,
      version: String(updated.version),
      occurred_at: updated.updated_at.toISOString(),
      notify_url: updated.notify_url,
      traceparent: change.traceparent,
      pay_order: toPayOrder(updated),
    };
    await enqueueOutbox(trx, {
      id: eventId,
      subject: deps.subject,
      payload: event,
      headers: { traceparent: change.traceparent },
    });
    deps.logger.info(
      { orderNo: updated.order_no, from, to: change.to, cause: change.cause, version: updated.version },
      'pay order status changed',
    );
    return updated;
  });
}

/** Versions race only with other status changes, and an order changes status a handful of times at most. */
const MAX_ATTEMPTS = 8;

/**
 * Reads the order, asks `decide` what change (if any) it needs, and applies it; on a lost race reads
 * again and asks again. `decide` may throw to refuse. Answers the order as it ends and whether this
 * call changed it.
 */
export async function moveOrder(
  deps: TransitionDeps,
  orderNo: string,
  decide: (order: PayOrderRow) => StatusChange | undefined,
): Promise<{ order: PayOrderRow; changed: boolean }> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const order = await findOpenedOrder(deps.db, orderNo);
    if (!order) throw new AppError('ORDER_NOT_FOUND');
    const change = decide(order);
    if (!change) return { order, changed: false };
    const updated = await changeStatus(deps, order, change);
    if (updated) return { order: updated, changed: true };
  }
  throw new AppError('SERVICE_UNAVAILABLE', 'order is changing, try again');
}
