import type { Logger } from '@agentpay/logger';
import {
  type EventConsumer,
  type NatsConnection,
  type NoticeFailure,
  startNoticeConsumer,
} from '@agentpay/messaging';
import { decodeEvent } from '@agentpay/proto';
import type { Registry } from '@agentpay/telemetry';
import { isAppError } from '@agentpay/wire';
import type { PaymentNotice, PayOrderService } from '../pay-orders/pay-order.service.js';

const STATUSES: readonly PaymentNotice['status'][] = ['success', 'fail', 'close'];

/** The payment notice a NoticeReceived event carries; undefined when it carries none or a malformed one. */
export function decodePaymentNotice(text: string): PaymentNotice | undefined {
  const event = decodeEvent('NoticeReceived', text);
  const payment = event.payment;
  if (!payment?.order_no || !event.notice_id) return undefined;
  const status = STATUSES.find((s) => s === payment.status);
  const paidAmount = Number(payment.paid_amount || 0);
  if (!status || !Number.isSafeInteger(paidAmount) || paidAmount < 0) return undefined;
  const paidAt = payment.paid_at ? new Date(payment.paid_at) : undefined;
  return {
    noticeId: event.notice_id,
    orderNo: payment.order_no,
    status,
    paidAmount,
    paidAt: paidAt && !Number.isNaN(paidAt.getTime()) ? paidAt : undefined,
    claveRastreo: payment.clave_rastreo,
    payer: payment.payer_account
      ? {
          account: payment.payer_account,
          name: payment.payer_name,
          bank: payment.payer_bank,
          rfc: payment.payer_rfc,
        }
      : undefined,
    cepUrl: payment.cep_url,
    traceparent: event.traceparent,
  };
}

function classify(err: unknown): NoticeFailure {
  if (isAppError(err) && err.codeName === 'ORDER_NOT_FOUND') return 'unknown_target';
  if (isAppError(err) && err.codeName === 'INVALID_PARAMETER') return 'invalid';
  return 'transient';
}

/** Applies the payment notices the upstream-router publishes (`<prefix>.notice.payment`). */
export function startPaymentNoticeConsumer(deps: {
  nc: NatsConnection;
  logger: Logger;
  registry: Registry;
  payOrders: PayOrderService;
  stream: string;
  durable: string;
  subject: string;
  concurrency: number;
  retryDelayMs: number;
}): EventConsumer {
  const { payOrders, ...rest } = deps;
  return startNoticeConsumer({
    ...rest,
    service: 'payments',
    decode: decodePaymentNotice,
    apply: async (notice) => {
      await payOrders.applyNotice(notice);
    },
    classify,
  });
}
