import { type PayoutLimits, payoutLimitsToProto } from '@agentpay/api';
import { CLIENT_OPTIONS, call, loadProtos } from '@agentpay/proto';
import * as grpc from '@grpc/grpc-js';

/** The hold of a transfer's amount + fee, as the ledger takes it. */
export interface FreezeRequest {
  mchNo: string;
  transferNo: string;
  bizTransferNo: string;
  /** Centavos. */
  amount: number;
  /** Centavos. */
  fee: number;
  /** The merchant's payout limits in effect; absent: none. */
  limits?: PayoutLimits | undefined;
}

/**
 * What transfers needs from the ledger. Errors reject as AppErrors (see @agentpay/proto `call`):
 * INSUFFICIENT_BALANCE when the freeze does not fit, PAYOUT_LIMIT_EXCEEDED (naming the limit) when it
 * would pass one, SERVICE_UNAVAILABLE when the ledger cannot be
 * reached or did not answer in time (then the freeze may or may not exist).
 */
export interface TransferLedger {
  /** Holds amount + fee (available -> frozen); idempotent by transfer number. */
  freeze(request: FreezeRequest, options: { timeoutMs: number }): Promise<void>;
  /**
   * Holds every item of a batch in one transaction, or none (the first refusal is thrown as freeze's
   * are); idempotent by transfer number.
   */
  freezeBatch(
    request: {
      mchNo: string;
      items: readonly { transferNo: string; bizTransferNo: string; amount: number; fee: number }[];
      limits?: PayoutLimits | undefined;
    },
    options: { timeoutMs: number },
  ): Promise<{ created: number }>;
  /** Releases the hold of a transfer that will not exist, and refuses any later freeze of it. Idempotent. */
  voidFreeze(ref: { mchNo: string; transferNo: string }, options: { timeoutMs: number }): Promise<void>;
  close(): void;
}

/** A gRPC client of the ledger at `address` (host:port, or a list, as for the router). */
export function connectLedger(address: string): TransferLedger {
  const protos = loadProtos();
  const client = new protos.agentpay.ledger.v1.LedgerService(
    address,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
  return {
    async freeze(request, options) {
      await call(
        client,
        client.Freeze,
        {
          mch_no: request.mchNo,
          transfer_no: request.transferNo,
          biz_transfer_no: request.bizTransferNo,
          amount: String(request.amount),
          fee: String(request.fee),
          limits: request.limits ? payoutLimitsToProto(request.limits) : null,
        },
        { timeoutMs: options.timeoutMs },
      );
    },
    async freezeBatch(request, options) {
      const answer = await call(
        client,
        client.FreezeBatch,
        {
          mch_no: request.mchNo,
          items: request.items.map((item) => ({
            transfer_no: item.transferNo,
            biz_transfer_no: item.bizTransferNo,
            amount: String(item.amount),
            fee: String(item.fee),
          })),
          limits: request.limits ? payoutLimitsToProto(request.limits) : null,
        },
        { timeoutMs: options.timeoutMs },
      );
      return { created: answer.created };
    },
    async voidFreeze(ref, options) {
      await call(
        client,
        client.VoidFreeze,
        { transfer_no: ref.transferNo, mch_no: ref.mchNo },
        { timeoutMs: options.timeoutMs },
      );
    },
    close: () => client.close(),
  };
}
