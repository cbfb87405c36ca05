import type { PayOrder__Output, PayOrderHistory__Output } from '@agentpay/proto';
import type { PayOrderRow } from '../db/schema.js';
import type { OrderHistory } from './pay-order.list.js';

const instant = (date: Date | null): string => (date ? date.toISOString() : '');

/**
 * The order as GetPayOrder answers it and as status-change events carry it. Route and channel
 * references stay out: nothing here may reveal the upstream.
 */
export function toPayOrder(row: PayOrderRow): PayOrder__Output {
  return {
    order_no: row.order_no,
    biz_order_no: row.biz_order_no,
    mch_no: row.mch_no,
    app_id: row.app_id,
    title: row.title,
    description: row.description,
    method: row.method,
    limit_pay: row.limit_pay,
    amount: String(row.amount),
    fee: String(row.fee),
    real_amount: String(row.real_amount),
    status: row.status,
    settle_status: row.settle_status,
    settle_type: row.settle_type,
    settle_time: instant(row.settle_time),
    pay_time: instant(row.pay_time),
    close_time: instant(row.close_time),
    expired_time: instant(row.expired_time),
    attach: row.attach,
    notify_url: row.notify_url,
    pay_body: row.pay_body ?? '',
    created_at: instant(row.created_at),
    version: String(row.version),
    clave_rastreo: row.clave_rastreo,
    payer_account: row.payer_account,
    payer_name: row.payer_name,
    payer_bank: row.payer_bank,
    payer_rfc: row.payer_rfc,
    cep_url: row.cep_url,
  };
}

/** GetPayOrderHistory's answer: the order and its status changes, oldest first. */
export function toPayOrderHistory(history: OrderHistory): PayOrderHistory__Output {
  return {
    order: toPayOrder(history.order),
    changes: history.changes.map((change) => ({
      from_status: change.from,
      to_status: change.to,
      version: String(change.version),
      cause: change.cause,
      at: change.at.toISOString(),
    })),
    derived: history.derived,
  };
}
