import type { PayOrder__Output, Transfer__Output, TransferBatch__Output } from '@agentpay/proto';
import { centavosToAmount, formatWireTime } from '@agentpay/wire';

// The merchant-facing shapes of orders. Query replies (gateway) and callbacks (notifier) both render
// through these functions, so a callback's `data` equals what the query returns (docs/merchant-api.md "Callbacks").

type Wire = Record<string, string | number | boolean | Cep>;

/**
 * The six facts Banxico's CEP page (Comprobante Electrónico de Pago) looks a SPEI payment up by (CONTRACT
 * section 21): the operation day `dd-MM-yyyy`, the tracking key, the sending and receiving banks' 5-digit
 * codes, the receiving account and the amount with two decimals.
 */
export interface Cep {
  fecha: string;
  claveRastreo: string;
  emisor: string;
  receptor: string;
  cuenta: string;
  monto: string;
}

/** Banxico's CEP look-up page; `cepLink` fills its form's fields as query parameters. */
export const BANXICO_CEP_PAGE = 'https://www.banxico.org.mx/cep/';

/**
 * A link that opens Banxico's CEP page with a payment's facts (docs/merchant-api.md "Proof of payment"):
 * `tipoCriterio=T` searches by claveRastreo, `receptorParticipante=0` says the account is not a participant's own.
 */
export function cepLink(cep: Cep): string {
  const params = new URLSearchParams({
    fecha: cep.fecha,
    tipoCriterio: 'T',
    criterio: cep.claveRastreo,
    emisor: cep.emisor,
    receptor: cep.receptor,
    cuenta: cep.cuenta,
    receptorParticipante: '0',
    monto: cep.monto,
  });
  return `${BANXICO_CEP_PAGE}?${params.toString()}`;
}

/** The CEP facts, or undefined unless every one is known (a CEP cannot be found with fewer). */
export function cepOf(facts: {
  at: string;
  claveRastreo: string;
  emisor: string;
  receptor: string;
  cuenta: string;
  centavos: string | number;
  timeZone: string;
}): Cep | undefined {
  const { at, claveRastreo, emisor, receptor, cuenta } = facts;
  if (!at || !claveRastreo || !/^\d{5}$/.test(emisor) || !/^\d{5}$/.test(receptor) || !cuenta)
    return undefined;
  const day = formatWireTime(new Date(at), facts.timeZone).slice(0, 10);
  const cents = Number(facts.centavos);
  if (!Number.isSafeInteger(cents) || cents <= 0) return undefined;
  const monto = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
  return {
    fecha: `${day.slice(8, 10)}-${day.slice(5, 7)}-${day.slice(0, 4)}`,
    claveRastreo,
    emisor,
    receptor,
    cuenta,
    monto,
  };
}

/** Copies only fields that have a value: the contract leaves out a field without one, never `null`. */
function present(fields: Record<string, string | number | boolean | Cep | undefined>): Wire {
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
    ...payOrderCep(order, timeZone),
  });
}

/** A paid order's CEP: the deposit from the payer's bank into the order's CLABE. */
export function payOrderCep(order: PayOrder__Output, timeZone: string): { cep?: Cep; cepUrl?: string } {
  if (order.status !== 'success') return {};
  let payBody: { clabe?: unknown; bankCode?: unknown } = {};
  try {
    payBody = JSON.parse(order.pay_body || '{}') as typeof payBody;
  } catch {
    // An order without readable instructions has no account to name.
  }
  const cuenta = typeof payBody.clabe === 'string' ? payBody.clabe : '';
  // payBody's bankCode is the public (Banxico) code of the CLABE's bank.
  const receptor = typeof payBody.bankCode === 'string' ? payBody.bankCode : '';
  const cep = cepOf({
    at: order.pay_time,
    claveRastreo: order.clave_rastreo,
    emisor: order.payer_bank,
    receptor,
    cuenta,
    centavos: order.amount,
    timeZone,
  });
  return { ...(cep ? { cep } : {}), ...(order.cep_url ? { cepUrl: order.cep_url } : {}) };
}

/** A successful payout's (transfer's or refund's) CEP: from the route's bank to the payee's account. */
export function payoutCep(transfer: Transfer__Output, timeZone: string): { cep?: Cep; cepUrl?: string } {
  if (transfer.status !== 'success') return {};
  const cep = cepOf({
    at: transfer.finish_time,
    claveRastreo: transfer.clave_rastreo,
    emisor: transfer.sender_bank,
    receptor: transfer.payee_code,
    cuenta: transfer.payee_account,
    centavos: transfer.amount,
    timeZone,
  });
  return { ...(cep ? { cep } : {}), ...(transfer.cep_url ? { cepUrl: transfer.cep_url } : {}) };
}

/** What a refund's merchant sees of its status: a payout that failed or came back is a failed refund. */
function refundStatus(status: string): string {
  return status === 'close' ? 'fail' : status;
}

/**
 * A refund as `query/refund` returns it and as the refund callback's `data` carries it: the transfer
 * callback's shape, with `refundNo`, `bizRefundNo`, `orderNo` and `bizOrderNo` in place of the transfer's numbers.
 */
export function refundView(refund: Transfer__Output, timeZone: string): Wire {
  return present({
    refundNo: refund.transfer_no,
    bizRefundNo: refund.biz_transfer_no,
    orderNo: refund.order_no,
    bizOrderNo: refund.biz_order_no,
    amount: money(refund.amount),
    fee: money(refund.fee),
    // A refund's title holds the merchant's reason (its transfer reason is the conceptoPago sent upstream).
    reason: refund.title,
    payeeType: refund.payee_type,
    payeeAccount: refund.payee_account,
    payeeName: refund.payee_name,
    payeeCode: refund.payee_code,
    status: refundStatus(refund.status),
    finishTime: time(refund.finish_time, timeZone),
    claveRastreo: refund.clave_rastreo,
    ...payoutCep(refund, timeZone),
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
    ...payoutCep(transfer, timeZone),
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
