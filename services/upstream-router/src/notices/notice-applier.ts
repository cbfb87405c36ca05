import { call, type PaymentServiceClient, type TransferServiceClient } from '@agentpay/proto';
import type { UpstreamNotice } from '../adapters/channel-adapter.js';
import { instantText } from '../grpc-args.js';

/** Hands a verified notice to the service owning the order or transfer; throws when it was not applied. */
export type NoticeApplier = (notice: UpstreamNotice) => Promise<void>;

/** Applies notices through payments' ApplyUpstreamPayment and transfers' ApplyUpstreamPayout. */
export function createGrpcApplier(deps: {
  payments: PaymentServiceClient;
  transfers: TransferServiceClient;
  timeoutMs: number;
}): NoticeApplier {
  const { payments, transfers, timeoutMs } = deps;
  return async (notice) => {
    if (notice.kind === 'payment') {
      await call(
        payments,
        payments.ApplyUpstreamPayment,
        {
          order_no: notice.orderNo,
          status: notice.status,
          paid_amount: String(notice.paidAmount),
          paid_at: instantText(notice.paidAt),
          notice_id: notice.noticeId,
        },
        { timeoutMs },
      );
    } else {
      await call(
        transfers,
        transfers.ApplyUpstreamPayout,
        {
          transfer_no: notice.transferNo,
          status: notice.status,
          finished_at: instantText(notice.finishedAt),
          notice_id: notice.noticeId,
        },
        { timeoutMs },
      );
    }
  };
}
