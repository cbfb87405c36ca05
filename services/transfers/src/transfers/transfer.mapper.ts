import type { Transfer__Output, TransferHistory__Output } from '@agentpay/proto';
import type { TransferRow } from '../db/schema.js';
import type { TransferHistory } from './transfer.list.js';

/**
 * The transfer as GetTransfer answers it and as status-change events carry it. Route and upstream
 * references stay out: nothing here may reveal the channel.
 */
export function toTransfer(row: TransferRow): Transfer__Output {
  return {
    transfer_no: row.transfer_no,
    biz_transfer_no: row.biz_transfer_no,
    mch_no: row.mch_no,
    app_id: row.app_id,
    amount: String(row.amount),
    fee: String(row.fee),
    title: row.title,
    reason: row.reason,
    payee_type: row.payee_type,
    payee_account: row.payee_account,
    payee_name: row.payee_name,
    payee_code: row.payee_code,
    status: row.status,
    finish_time: row.finish_time ? row.finish_time.toISOString() : '',
    attach: row.attach,
    notify_url: row.notify_url,
    created_at: row.created_at.toISOString(),
    version: String(row.version),
    clave_rastreo: row.clave_rastreo,
    kind: row.kind,
    order_no: row.order_no,
    biz_order_no: row.biz_order_no,
    cep_url: row.cep_url,
    sender_bank: row.sender_bank,
  };
}

/** GetTransferHistory's answer: the transfer and its status changes, oldest first. */
export function toTransferHistory(history: TransferHistory): TransferHistory__Output {
  return {
    transfer: toTransfer(history.transfer),
    changes: history.changes.map((change) => ({
      from_status: change.from,
      to_status: change.to,
      version: String(change.version),
      at: change.at.toISOString(),
    })),
    derived: history.derived,
  };
}
