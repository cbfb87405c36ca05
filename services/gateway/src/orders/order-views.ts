import { type Cep, cepLink, payOrderCep, payoutCep } from '@agentpay/api';
import type { PayOrder__Output, Transfer__Output } from '@agentpay/proto';

// The orders and transfers as the admin API and the merchant dashboard answer them (services/gateway/README.md
// "Orders and transfers"): money in integer centavos, instants ISO 8601 UTC. Nothing here names a route or
// a channel: payments and transfers leave them out of their messages already.

const iso = (text: string): string | undefined => (text ? new Date(text).toISOString() : undefined);
const centavos = (value: string | number): number => Number(value);

/** The CLABE the payer was told, from the order's payBody (JSON text written by payments). */
export function clabeOf(payBody: string): string {
  if (!payBody) return '';
  try {
    const parsed = JSON.parse(payBody) as { clabe?: unknown };
    return typeof parsed.clabe === 'string' ? parsed.clabe : '';
  } catch {
    return '';
  }
}

export function orderSummary(order: PayOrder__Output) {
  return {
    orderNo: order.order_no,
    mchNo: order.mch_no,
    mchOrderNo: order.biz_order_no,
    amount: centavos(order.amount),
    status: order.status,
    clabe: clabeOf(order.pay_body),
    claveRastreo: order.clave_rastreo,
    createdAt: iso(order.created_at) ?? '',
    ...(order.pay_time ? { payTime: iso(order.pay_time) } : {}),
  };
}

/** The day a CEP names is Mexico City's (the SPEI operation day), whatever the API's wire time zone. */
const CEP_TIME_ZONE = 'America/Mexico_City';

/**
 * The "Comprobante (CEP)" link of a paid order, a successful transfer or refund: Banxico's page with the six
 * facts filled in (docs/merchant-api.md "Proof of payment"), and the channel's own CEP page when it gave one.
 */
function cepFields(facts: { cep?: Cep; cepUrl?: string }) {
  return {
    ...(facts.cep ? { cep: facts.cep, cepLink: cepLink(facts.cep) } : {}),
    ...(facts.cepUrl ? { cepUrl: facts.cepUrl } : {}),
  };
}

export function orderDetail(order: PayOrder__Output) {
  return {
    ...orderSummary(order),
    ...cepFields(payOrderCep(order, CEP_TIME_ZONE)),
    title: order.title,
    fee: centavos(order.fee),
    realAmount: centavos(order.real_amount),
    settleStatus: order.settle_status,
    expiredTime: iso(order.expired_time) ?? '',
    notifyUrl: order.notify_url,
    appId: order.app_id,
    version: Number(order.version),
  };
}

export function transferSummary(transfer: Transfer__Output) {
  return {
    transferNo: transfer.transfer_no,
    mchNo: transfer.mch_no,
    mchOrderNo: transfer.biz_transfer_no,
    amount: centavos(transfer.amount),
    fee: centavos(transfer.fee),
    status: transfer.status,
    payeeAccount: transfer.payee_account,
    payeeName: transfer.payee_name,
    claveRastreo: transfer.clave_rastreo,
    createdAt: iso(transfer.created_at) ?? '',
    ...(transfer.finish_time ? { finishedAt: iso(transfer.finish_time) } : {}),
  };
}

export function transferDetail(transfer: Transfer__Output) {
  return {
    ...transferSummary(transfer),
    ...cepFields(payoutCep(transfer, CEP_TIME_ZONE)),
    ...(transfer.kind === 'refund'
      ? { kind: 'refund', orderNo: transfer.order_no, bizOrderNo: transfer.biz_order_no }
      : {}),
    title: transfer.title,
    reason: transfer.reason,
    payeeType: transfer.payee_type,
    payeeCode: transfer.payee_code,
    notifyUrl: transfer.notify_url,
    appId: transfer.app_id,
    version: Number(transfer.version),
  };
}
