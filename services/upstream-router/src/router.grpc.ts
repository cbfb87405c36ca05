import type { Logger } from '@agentpay/logger';
import { type UpstreamRouterHandlers, unary } from '@agentpay/proto';
import { AppError } from '@agentpay/wire';
import type { OptionsService } from './options/options.service.js';

export interface RouterGrpcDeps {
  logger: Logger;
  options: OptionsService;
}

const notYet = async (): Promise<never> => {
  throw new AppError('SERVICE_UNAVAILABLE', 'not available yet');
};

/** The UpstreamRouter gRPC service. */
export function routerHandlers(deps: RouterGrpcDeps): UpstreamRouterHandlers {
  const { logger, options } = deps;
  return {
    ListPayMethods: unary(logger, (req) => options.payMethods(req.mch_no)),
    ListPayeeTypes: unary(logger, (req) => options.payeeTypes(req.mch_no)),
    ListPayeeCodes: unary(logger, (req) => options.payeeCodes(req.mch_no, req.payee_type)),
    CreateVirtualAccount: unary(logger, notYet),
    CloseVirtualAccount: unary(logger, notYet),
    QueryVirtualAccount: unary(logger, notYet),
    InquirePayee: unary(logger, notYet),
    SubmitPayout: unary(logger, notYet),
    QueryPayout: unary(logger, notYet),
  };
}
