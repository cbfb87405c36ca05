import type { PayOrder__Output, Transfer__Output, TransferBatch__Output } from '@agentpay/proto';
import { centavosToAmount, formatWireTime } from '@agentpay/wire';

// The merchant-facing shapes of orders. Query replies (gateway) and callbacks (notifier) both render
// through these functions, so a callback's `data` equals what the query returns (docs/merchant-api.md "Callbacks").

type Wire = Record<string, string | number | boolean>;

/** Copies only fields that have a value: the contract leaves out a field without one, never `null`. */
function present(fields: Record<string, string | number | boolean | undefined>): Wire {
  const out: Wire = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}

function time(instant: string, timeZone: string): string | undefined {
  return instant ? formatWireTime(new Date(instant), timeZone) : undefined;
}

function money(centavos: string | number): number {
  return centavosToAmount(Number(centavos));
}

/** A payment order as `query/payOrder` returns it and as the payment callback's `data` carries it. */
export function payOrderView(order: PayOrder__Output, timeZone: string): Wire {
  return present({
    bizOrderNo: order.biz_order_no,
    orderNo: order.order_no,
    title: order.title,
    description: order.description,
    method: order.method,
    limitPay: order.limit_pay,
    amount: money(order.amount),
    fee: money(order.fee),
    realAmount: money(order.real_amount),
    status: order.status,
    settleStatus: order.settle_status,
    settleType: order.settle_type,
    settleTime: time(order.settle_time, timeZone),
    payTime: time(order.pay_time, timeZone),
    closeTime: time(order.close_time, timeZone),
    expiredTime: time(order.expired_time, timeZone),
    attach: order.attach,
    // The paying deposit's SPEI tracking key: left out until the order is paid (and for a channel without one).
    claveRastreo: order.clave_rastreo,
  });
}

/** A transfer as `query/transferOrder` returns it and as the transfer callback's `data` carries it. */
export function transferView(transfer: Transfer__Output, timeZone: string): Wire {
  return present({
    bizTransferNo: transfer.biz_transfer_no,
    transferNo: transfer.transfer_no,
    amount: money(transfer.amount),
    fee: money(transfer.fee),
    title: transfer.title,
    reason: transfer.reason,
    payeeType: transfer.payee_type,
    payeeAccount: transfer.payee_account,
    payeeName: transfer.payee_name,
    payeeCode: transfer.payee_code,
    status: transfer.status,
    finishTime: time(transfer.finish_time, timeZone),
    attach: transfer.attach,
    // The payout's SPEI tracking key: left out until the channel assigned one (and for a channel without one).
    claveRastreo: transfer.clave_rastreo,
  });
}

/** A batch payout as `transfer/batch` and `query/transferBatch` return it (docs/merchant-api.md "Batch payouts"). */
export function transferBatchView(batch: TransferBatch__Output, timeZone: string): Wire {
  const done = batch.status === 'done';
  return present({
    batchNo: batch.batch_no,
    bizBatchNo: batch.biz_batch_no,
    status: batch.status,
    count: batch.count,
    amount: money(batch.amount),
    fee: money(batch.fee),
    createTime: time(batch.created_at, timeZone),
    // Counts per status: while in progress, how far it went; once done, how it ended.
    progressCount: done ? undefined : batch.progress,
    successCount: batch.success,
    failCount: batch.fail,
    closeCount: batch.close,
  });
}
