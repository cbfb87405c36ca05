import type { Logger } from '@agentpay/logger';
import { type UpstreamRouterHandlers, unary } from '@agentpay/proto';
import * as grpc from '@grpc/grpc-js';
import type { OptionsService } from './options/options.service.js';
import type { VirtualAccountService } from './pay/virtual-account.service.js';
import type { PayoutService } from './payout/payout.service.js';

export interface RouterGrpcDeps {
  logger: Logger;
  options: OptionsService;
  virtualAccounts: VirtualAccountService;
  payouts: PayoutService;
}

/** The UpstreamRouter gRPC service. */
export function routerHandlers(deps: RouterGrpcDeps): UpstreamRouterHandlers {
  const { logger, options, virtualAccounts, payouts } = deps;
  return {
    // Statements (CONTRACT.md section 14) are being built; until they land this answers UNIMPLEMENTED.
    StreamStatement: (call) =>
      call.destroy({
        name: 'Unimplemented',
        message: 'statements are not built yet',
        code: grpc.status.UNIMPLEMENTED,
      } as grpc.ServiceError),
    ListPayMethods: unary(logger, (req) => options.payMethods(req.mch_no)),
    ListPayeeTypes: unary(logger, (req) => options.payeeTypes(req.mch_no)),
    ListPayeeCodes: unary(logger, (req) => options.payeeCodes(req.mch_no, req.payee_type)),
    CreateVirtualAccount: unary(logger, (req) => virtualAccounts.create(req)),
    CloseVirtualAccount: unary(logger, (req) => virtualAccounts.close(req)),
    QueryVirtualAccount: unary(logger, (req) => virtualAccounts.query(req)),
    InquirePayee: unary(logger, (req) => payouts.inquire(req)),
    SubmitPayout: unary(logger, (req) => payouts.submit(req)),
    QueryPayout: unary(logger, (req) => payouts.query(req)),
  };
}
