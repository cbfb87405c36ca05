import {
  call,
  type MerchantContext,
  type PaymentServiceClient,
  type Transfer__Output,
  type TransferServiceClient,
} from '@agentpay/proto';
import { AppError } from '@agentpay/wire';

/** What a refund asks (CONTRACT section 21): the order by either number, and the merchant's parameters. */
export interface RefundAsk {
  orderNo: string;
  bizOrderNo: string;
  bizRefundNo: string;
  /** Centavos; 0: all the order has left to refund. */
  amount: number;
  reason: string;
  notifyUrl: string;
  clientIp: string;
}

/**
 * A refund of a paid order, the one way both the signed merchant API and the dashboard ask for one: the order
 * as payments holds it (its status, what it paid, who paid it; 30003 when not found), then transfers creates
 * the refund against it. Errors are the services' AppErrors.
 */
export async function requestRefund(
  deps: { payments: PaymentServiceClient; transfers: TransferServiceClient; timeoutMs: number },
  merchant: MerchantContext,
  ask: RefundAsk,
): Promise<Transfer__Output> {
  const opts = { timeoutMs: deps.timeoutMs };
  const order = await call(
    deps.payments,
    deps.payments.GetPayOrder,
    { merchant, order_no: ask.orderNo, biz_order_no: ask.bizOrderNo },
    opts,
  );
  const { transfer } = await call(
    deps.transfers,
    deps.transfers.CreateRefund,
    {
      merchant,
      biz_refund_no: ask.bizRefundNo,
      amount: ask.amount,
      reason: ask.reason,
      notify_url: ask.notifyUrl,
      client_ip: ask.clientIp,
      order_no: order.order_no,
      biz_order_no: order.biz_order_no,
      order_status: order.status,
      paid_amount: order.amount,
      payer_account: order.payer_account,
      payer_name: order.payer_name,
      payer_bank: order.payer_bank,
      payer_rfc: order.payer_rfc,
      order_clave_rastreo: order.clave_rastreo,
    },
    opts,
  );
  if (!transfer) throw new AppError('INTERNAL_ERROR');
  return transfer;
}
