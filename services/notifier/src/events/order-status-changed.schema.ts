import {
  decodeEvent,
  type OrderStatusChanged__Output,
  type PayOrder__Output,
  type Transfer__Output,
} from '@agentpay/proto';

// The JSON of proto agentpay.events.v1.OrderStatusChanged as the outbox relays publish it, decoded with
// the contract itself (packages/proto): fields left out at their default come back as '' or '0', as in
// the generated `__Output` types. What the contract cannot say is checked here.

type Base = Omit<OrderStatusChanged__Output, 'kind' | 'pay_order' | 'transfer' | 'order'>;

/** A status-change event, validated: a pay event carries `pay_order`, a transfer event `transfer`. */
export type OrderStatusChanged =
  | (Base & { kind: 'pay'; pay_order: PayOrder__Output })
  | (Base & { kind: 'transfer'; transfer: Transfer__Output });

const REQUIRED = ['event_id', 'mch_no', 'order_no', 'to_status'] as const;

/** Parses an event's JSON text; throws an Error naming the first problem. */
export function parseOrderStatusChanged(json: string): OrderStatusChanged {
  const { kind, pay_order, transfer, order: _which, ...base } = decodeEvent('OrderStatusChanged', json);
  for (const field of REQUIRED) {
    if (!base[field]) throw new Error(`event ${field}: required`);
  }
  switch (kind) {
    case 'pay':
      if (!pay_order) throw new Error('event pay_order: required for a pay event');
      return { ...base, kind, pay_order };
    case 'transfer':
      if (!transfer) throw new Error('event transfer: required for a transfer event');
      return { ...base, kind, transfer };
    default:
      throw new Error(`event kind: "${kind}" is neither pay nor transfer`);
  }
}
