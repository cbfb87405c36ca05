import type { TransferBatch__Output } from '@agentpay/proto';
import { type BatchView, batchStatus } from './batch.service.js';

/** A batch as GetTransferBatch and CreateTransferBatch answer it. */
export function toTransferBatch({ batch, counts }: BatchView): TransferBatch__Output {
  return {
    batch_no: batch.batch_no,
    biz_batch_no: batch.biz_batch_no,
    mch_no: batch.mch_no,
    status: batchStatus(counts),
    count: batch.count,
    amount: String(batch.amount),
    fee: String(batch.fee),
    progress: (counts.progress ?? 0) + (counts.submitting ?? 0),
    success: counts.success ?? 0,
    fail: counts.fail ?? 0,
    close: counts.close ?? 0,
    created_at: batch.created_at.toISOString(),
    notify_url: batch.notify_url,
  };
}
