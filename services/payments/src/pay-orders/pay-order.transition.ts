import { randomUUID } from 'node:crypto';
import { statusChangedEvent } from '@agentpay/api';
import type { Logger } from '@agentpay/logger';
import { enqueueEvent } from '@agentpay/messaging';
import { AppError } from '@agentpay/wire';
import type { Kysely, Transaction } from 'kysely';
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
  logger: Logger;
  /** `${EVENTS_SUBJECT_PREFIX}.pay.status_changed` */
  subject: string;
}

export interface StatusChange {
  to: PayStatus;
  cause: Cause;
  /** Columns that change with the status. */
  set?: Partial<
    Pick<
      PayOrderRow,
      | 'pay_time'
      | 'paid_amount'
      | 'close_time'
      | 'clave_rastreo'
      | 'payer_account'
      | 'payer_name'
      | 'payer_bank'
      | 'payer_rfc'
      | 'cep_url'
    >
  >;
  /** W3C traceparent of the request or job making the change. */
  traceparent: string;
  noticeId?: string | undefined;
}

/**
 * The one way an order's status changes: a conditional update (the order must still be at the status
 * and version it was read at, and the state machine must allow the move) plus its history row and
 * exactly one OrderStatusChanged outbox event, in the caller's transaction. Undefined when the order
 * moved meanwhile; callers re-read and decide again (see moveOrder).
 */
export async function changeStatus(
  trx: Transaction<Database>,
  deps: TransitionDeps,
  order: PayOrderRow,
  change: StatusChange,
): Promise<PayOrderRow | undefined> {
  if (!isPayStatus(order.status) || !isAllowed(order.status, change.to, change.cause)) {
    throw new Error(`forbidden transition ${order.status} -> ${change.to} by ${change.cause}`);
  }
  const from = order.status;
  const updated = await updateStatus(trx, {
    orderNo: order.order_no,
    from,
    version: order.version,
    to: change.to,
    allowedFrom: allowedFrom(change.to, change.cause),
    set: { ...change.set, ...realtimeSettlement(order, change) },
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
  await enqueueEvent(
    trx,
    deps.subject,
    statusChangedEvent({
      eventId,
      order: { kind: 'pay', payOrder: toPayOrder(updated) },
      number: updated.order_no,
      mchNo: updated.mch_no,
      appId: updated.app_id,
      notifyUrl: updated.notify_url,
      from,
      to: change.to,
      version: updated.version,
      occurredAt: updated.updated_at,
      traceparent: change.traceparent,
      routeId: updated.route_id,
      upstreamRef: updated.upstream_ref,
    }),
  );
  deps.logger.info(
    { orderNo: updated.order_no, from, to: change.to, cause: change.cause, version: updated.version },
    'pay order status changed',
  );
  return updated;
}

/**
 * A REALTIME order is settled as it is paid (docs/merchant-api.md "Balance and statement"): settled at its pay time in the
 * same change, so the success event and its callback already show it. The ledger books it as available
 * from the same event and announces an OrderSettled that then changes nothing here.
 */
function realtimeSettlement(
  order: PayOrderRow,
  change: StatusChange,
): Partial<Pick<PayOrderRow, 'settle_status' | 'settle_time'>> {
  if (change.to !== 'success' || order.settle_type !== 'REALTIME' || order.settle_status === 'settled')
    return {};
  return { settle_status: 'settled', settle_time: change.set?.pay_time ?? order.pay_time ?? new Date() };
}

/** Versions race only with other status changes, and an order changes status a handful of times at most. */
const MAX_ATTEMPTS = 8;

/**
 * Reads the order, asks `decide` what change (if any) it needs, and applies it; on a lost race reads
 * again and asks again. `decide` may throw to refuse. Answers the order as it ends and whether this
 * call changed it.
 */
export async function moveOrder(
  deps: TransitionDeps & { db: Kysely<Database> },
  orderNo: string,
  decide: (order: PayOrderRow) => StatusChange | undefined,
): Promise<{ order: PayOrderRow; changed: boolean }> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const order = await findOpenedOrder(deps.db, orderNo);
    if (!order) throw new AppError('ORDER_NOT_FOUND');
    const change = decide(order);
    if (!change) return { order, changed: false };
    const updated = await deps.db.transaction().execute((trx) => changeStatus(trx, deps, order, change));
    if (updated) return { order: updated, changed: true };
  }
  throw new AppError('SERVICE_UNAVAILABLE', 'order is changing, try again');
}
