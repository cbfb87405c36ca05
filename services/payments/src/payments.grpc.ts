import type { Logger } from '@agentpay/logger';
import { type PaymentServiceHandlers, unary } from '@agentpay/proto';
import { AppError } from '@agentpay/wire';

const notYet = async (): Promise<never> => {
  throw new AppError('SERVICE_UNAVAILABLE', 'not available yet');
};

/** The PaymentService gRPC service. */
export function paymentHandlers(deps: { logger: Logger }): PaymentServiceHandlers {
  const { logger } = deps;
  return {
    CreatePayOrder: unary(logger, notYet),
    ClosePayOrder: unary(logger, notYet),
    GetPayOrder: unary(logger, notYet),
    SyncPayOrder: unary(logger, notYet),
    ApplyUpstreamPayment: unary(logger, notYet),
  };
}
