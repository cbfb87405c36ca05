import type { StatusChanged } from '../../src/events/status-changed.schema.js';

let seq = 0;

/** A pay order's status event as the ledger reads it (centavos). */
export function payEvent(
  mchNo: string,
  orderNo: string,
  opts: {
    to: string;
    from?: string;
    version: number;
    amount?: number;
    fee?: number;
    routeId?: string;
    upstreamRef?: string;
    at?: Date;
  },
): StatusChanged {
  const amount = opts.amount ?? 10_000;
  const fee = opts.fee ?? 300;
  const at = (opts.at ?? new Date()).toISOString();
  return {
    kind: 'pay',
    event_id: `ev-${orderNo}-${opts.version}-${++seq}`,
    mch_no: mchNo,
    order_no: orderNo,
    from_status: opts.from ?? 'wait',
    to_status: opts.to,
    occurred_at: at,
    version: opts.version,
    route_id: opts.routeId ?? '',
    upstream_ref: opts.upstreamRef ?? '',
    pay_order: {
      order_no: orderNo,
      biz_order_no: `B-${orderNo}`,
      amount,
      fee,
      real_amount: amount - fee,
      settle_type: 'REALTIME',
      pay_time: opts.to === 'success' ? at : '',
      route_id: opts.routeId ?? '',
    },
  };
}

/** A transfer's status event as the ledger reads it (centavos). */
export function transferEvent(
  mchNo: string,
  transferNo: string,
  opts: {
    to: string;
    from?: string;
    version: number;
    amount?: number;
    fee?: number;
    routeId?: string;
    upstreamRef?: string;
    at?: Date;
  },
): StatusChanged {
  return {
    kind: 'transfer',
    event_id: `ev-${transferNo}-${opts.version}-${++seq}`,
    mch_no: mchNo,
    order_no: transferNo,
    from_status: opts.from ?? 'progress',
    to_status: opts.to,
    occurred_at: (opts.at ?? new Date()).toISOString(),
    version: opts.version,
    route_id: opts.routeId ?? '',
    upstream_ref: opts.upstreamRef ?? '',
    transfer: {
      transfer_no: transferNo,
      biz_transfer_no: `BT-${transferNo}`,
      amount: opts.amount ?? 5_000,
      fee: opts.fee ?? 100,
    },
  };
}
