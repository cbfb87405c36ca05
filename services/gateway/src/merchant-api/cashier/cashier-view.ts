import type { PayOrder__Output } from '@agentpay/proto';

export const PAY_STATUSES = ['wait', 'progress', 'success', 'close', 'cancel', 'fail', 'timeout'] as const;
export type PayStatus = (typeof PAY_STATUSES)[number];

/** What the payer can still do: pay (`open`), nothing because it is paid, or nothing because it ended. */
export type Phase = 'open' | 'paid' | 'ended';

export function phaseOf(status: PayStatus): Phase {
  switch (status) {
    case 'wait':
    case 'progress':
      return 'open';
    case 'success':
      return 'paid';
    case 'close':
    case 'cancel':
    case 'fail':
    case 'timeout':
      return 'ended';
    default: {
      const unknown: never = status;
      throw new Error(`unknown pay status ${String(unknown)}`);
    }
  }
}

/** The payer-facing fields of one order; nothing of the channel or of the merchant's account. */
export interface CashierView {
  orderNo: string;
  bizOrderNo: string;
  status: PayStatus;
  merchantName: string;
  title: string;
  /** Integer centavos as a decimal string (int64 on the wire). */
  amountCentavos: string;
  clabe: string;
  bankName: string;
  reference: string;
  expiresAt: Date | undefined;
  /** Where the payer goes once paid, with the order's parameters; absent unless http(s). */
  returnUrl: string | undefined;
  /** The "back to the shop" link, with the order's parameters; absent unless http(s). */
  quitUrl: string | undefined;
}

/** The merchant's URL when it is an absolute http(s) URL; anything else (javascript:, data:, relative) is dropped. */
export function safeHttpUrl(raw: string): URL | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
}

/** `raw` with orderNo, bizOrderNo and status added to its query (the merchant's own parameters kept). */
export function withOrderParams(
  raw: string,
  order: { orderNo: string; bizOrderNo: string; status: string },
): string | undefined {
  const url = safeHttpUrl(raw);
  if (!url) return undefined;
  url.searchParams.set('orderNo', order.orderNo);
  url.searchParams.set('bizOrderNo', order.bizOrderNo);
  url.searchParams.set('status', order.status);
  return url.toString();
}

/** Centavos as pesos with thousands separators and two decimals (`1,234.50`), exact for any int64. */
export function formatPesos(centavos: string): string {
  const value = BigInt(centavos);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const pesos = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const cents = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${pesos}.${cents}`;
}

/** Centavos as the plain decimal a banking app accepts (`1234.50`), for the copy button. */
export function plainPesos(centavos: string): string {
  return formatPesos(centavos).replaceAll(',', '');
}

/** A CLABE for reading aloud or copying by eye: bank, branch, then the account in blocks of four. */
export function groupClabe(clabe: string): string {
  if (!/^\d{18}$/.test(clabe)) return clabe;
  return [
    clabe.slice(0, 3),
    clabe.slice(3, 6),
    clabe.slice(6, 10),
    clabe.slice(10, 14),
    clabe.slice(14),
  ].join(' ');
}

function isPayStatus(value: string): value is PayStatus {
  return (PAY_STATUSES as readonly string[]).includes(value);
}

function payBodyFields(text: string): { clabe: string; bankName: string; reference: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const body = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return { clabe: str(body['clabe']), bankName: str(body['bankName']), reference: str(body['reference']) };
}

/**
 * The view of an order as payments answers it. Only the fields listed here leave: the payBody's own
 * beneficiary is ignored in favour of the merchant's registered name from the gateway's store.
 */
export function cashierView(
  order: PayOrder__Output,
  merchantName: string,
  link: { returnUrl: string; quitUrl: string },
): CashierView {
  if (!isPayStatus(order.status)) throw new Error(`unknown pay status ${order.status}`);
  const ids = { orderNo: order.order_no, bizOrderNo: order.biz_order_no, status: order.status };
  const expiresAt = order.expired_time ? new Date(order.expired_time) : undefined;
  return {
    ...ids,
    status: order.status,
    merchantName,
    title: order.title,
    amountCentavos: String(order.amount),
    ...payBodyFields(order.pay_body),
    expiresAt: expiresAt && !Number.isNaN(expiresAt.getTime()) ? expiresAt : undefined,
    returnUrl: withOrderParams(link.returnUrl, ids),
    quitUrl: withOrderParams(link.quitUrl, ids),
  };
}
