import type { Logger } from '@agentpay/logger';
import { type TransferServiceHandlers, unary } from '@agentpay/proto';
import { AppError } from '@agentpay/wire';

const notYet = async (): Promise<never> => {
  throw new AppError('SERVICE_UNAVAILABLE', 'not available yet');
};
/** The TransferService gRPC service. */
export function transferHandlers(deps: { logger: Logger }): TransferServiceHandlers {
  const { logger } = deps;
  return {
    CreateTransfer: unary(logger, notYet),
    GetTransfer: unary(logger, notYet),
    Inquire: unary(logger, notYet),
    ApplyUpstreamPayout: unary(logger, notYet),
  };
}
