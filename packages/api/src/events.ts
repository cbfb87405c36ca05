import type { OrderStatusChanged__Output, PayOrder__Output, Transfer__Output } from '@agentpay/proto';

/** Settlement schedules a merchant may have; the gateway's admin API and payments check against it. */
export const SETTLE_TYPES = ['REALTIME', 'D+1', 'D+2', 'D+3'] as const;
export type SettleType = (typeof SETTLE_TYPES)[number];

/** Whether a pay order's net amount has reached the merchant's available balance yet. */
export const SETTLE_STATUSES = ['not_settle', 'settled'] as const;
export type SettleStatus = (typeof SETTLE_STATUSES)[number];

export function isSettleType(value: string): value is SettleType {
  return (SETTLE_TYPES as readonly string[]).includes(value);
}

/** What every status change says about the order or transfer that changed, after the change. */
export interface StatusChangeFacts {
  eventId: string;
  /** The order as the merchant's query returns it at the moment of the change. */
  order: { kind: 'pay'; payOrder: PayOrder__Output } | { kind: 'transfer'; transfer: Transfer__Output };
  /** Its platform number: an order_no, or a transfer_no. */
  number: string;
  mchNo: string;
  appId: string;
  notifyUrl: string;
  from: string;
  to: string;
  version: number;
  occurredAt: Date;
  /** W3C traceparent of the request or job that made the change. */
  traceparent: string;
  /** Internal (never in a callback): the route holding it and the channel's reference there, when known. */
  routeId?: string | null;
  upstreamRef?: string | null;
}

/** The OrderStatusChanged event of a pay order's or a transfer's status change (payments and transfers). */
export function statusChangedEvent(facts: StatusChangeFacts): OrderStatusChanged__Output {
  const common = {
    event_id: facts.eventId,
    mch_no: facts.mchNo,
    app_id: facts.appId,
    order_no: facts.number,
    from_status: facts.from,
    to_status: facts.to,
    version: String(facts.version),
    occurred_at: facts.occurredAt.toISOString(),
    notify_url: facts.notifyUrl,
    traceparent: facts.traceparent,
    route_id: facts.routeId ?? '',
    upstream_ref: facts.upstreamRef ?? '',
  };
  return facts.order.kind === 'pay'
    ? { ...common, kind: 'pay', pay_order: facts.order.payOrder }
    : { ...common, kind: 'transfer', transfer: facts.order.transfer };
}
