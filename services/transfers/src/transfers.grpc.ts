import type { Logger } from '@agentpay/logger';
import { type TransferServiceHandlers, unary } from '@agentpay/proto';
import type { InquiryService } from './inquiries/inquiry.service.js';
import { deadlineOf } from './shared/deadline.js';
import type { TransferService } from './transfers/transfer.service.js';

export interface TransfersGrpcDeps {
  logger: Logger;
  transfers: TransferService;
  inquiries: InquiryService;
}

/** The TransferService gRPC service. */
export function transferHandlers(deps: TransfersGrpcDeps): TransferServiceHandlers {
  const { logger, transfers, inquiries } = deps;
  return {
    CreateTransfer: unary(logger, (req, call) => transfers.create(req, deadlineOf(call))),
    GetTransfer: unary(logger, (req) => transfers.get(req)),
    Inquire: unary(logger, (req, call) => inquiries.inquire(req, deadlineOf(call))),
    ApplyUpstreamPayout: unary(logger, (req, call) => {
      const traceparent = call.metadata.get('traceparent')[0];
      return transfers.applyUpstream(req, {
        traceparent: typeof traceparent === 'string' ? traceparent : undefined,
        deadline: deadlineOf(call),
      });
    }),
  };
}
