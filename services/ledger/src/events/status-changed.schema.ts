import { decodeEvent } from '@agentpay/proto';

// The parts of proto agentpay.events.v1.OrderStatusChanged the ledger books from, decoded with the
// contract itself (packages/proto); what the contract cannot say (required fields, centavos as safe
// integers) is checked here.

/** What a status change is about: a pay order or a transfer. */
export const ORDER_KINDS = ['pay', 'transfer'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

interface Base {
  event_id: string;
  mch_no: string;
  /** The pay order's or the transfer's number. */
  order_no: string;
  from_status: string;
  to_status: string;
  occurred_at: string;
  /** The order's version after this change; a larger one supersedes a smaller one. */
  version: number;
  /** Internal: the route holding the order or transfer, and the channel's reference there ('' until known). */
  route_id: string;
  upstream_ref: string;
  /** W3C traceparent of the change; carried onto what the ledger announces because of it. */
  traceparent?: string;
}

export type StatusChanged =
  | (Base & {
      kind: 'pay';
      pay_order: {
        order_no: string;
        biz_order_no: string;
        amount: number;
        fee: number;
        real_amount: number;
        settle_type: string;
        pay_time: string;
        /** The event's route_id: the pay-in's clearing account (clearing:default when empty). */
        route_id: string;
      };
    })
  | (Base & {
      kind: 'transfer';
      transfer: { transfer_no: string; biz_transfer_no: string; amount: number; fee: number };
    });

const REQUIRED = ['event_id', 'mch_no', 'order_no', 'to_status'] as const;

/** An int64 field (centavos, a version) as a safe integer. */
function centavos(value: string, field: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`event ${field}: not a safe integer`);
  return n;
}

/** Parses an event's JSON text; throws an Error naming the first problem. */
export function parseStatusChanged(json: string): StatusChanged {
  const event = decodeEvent('OrderStatusChanged', json);
  for (const field of REQUIRED) {
    if (!event[field]) throw new Error(`event ${field}: required`);
  }
  const base: Base = {
    event_id: event.event_id,
    mch_no: event.mch_no,
    order_no: event.order_no,
    from_status: event.from_status,
    to_status: event.to_status,
    occurred_at: event.occurred_at,
    version: centavos(event.version, 'version'),
    route_id: event.route_id,
    upstream_ref: event.upstream_ref,
    traceparent: event.traceparent,
  };
  switch (event.kind) {
    case 'pay': {
      const order = event.pay_order;
      if (!order) throw new Error('event pay_order: required for a pay event');
      return {
        ...base,
        kind: 'pay',
        pay_order: {
          order_no: order.order_no,
          biz_order_no: order.biz_order_no,
          amount: centavos(order.amount, 'pay_order.amount'),
          fee: centavos(order.fee, 'pay_order.fee'),
          real_amount: centavos(order.real_amount, 'pay_order.real_amount'),
          settle_type: order.settle_type,
          pay_time: order.pay_time,
          route_id: event.route_id,
        },
      };
    }
    case 'transfer': {
      const transfer = event.transfer;
      if (!transfer) throw new Error('event transfer: required for a transfer event');
      return {
        ...base,
        kind: 'transfer',
        transfer: {
          transfer_no: transfer.transfer_no,
          biz_transfer_no: transfer.biz_transfer_no,
          amount: centavos(transfer.amount, 'transfer.amount'),
          fee: centavos(transfer.fee, 'transfer.fee'),
        },
      };
    }
    default:
      throw new Error(`event kind: "${event.kind}" is neither pay nor transfer`);
  }
}
