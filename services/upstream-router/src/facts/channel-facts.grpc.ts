import type { Logger } from '@agentpay/logger';
import { type UpstreamRouterHandlers, unary } from '@agentpay/proto';
import type { ChannelFactsService } from './channel-facts.service.js';

/** UpstreamRouter.ListChannelFacts (proto/router/v1/router.proto): the router's records of one order or transfer. */
export function createChannelFactsHandler(deps: {
  logger: Logger;
  facts: ChannelFactsService;
}): Pick<UpstreamRouterHandlers, 'ListChannelFacts'> {
  return {
    ListChannelFacts: unary(deps.logger, async (request) => ({
      facts: (await deps.facts.of(request.kind, request.ref)).map((fact) => ({
        at: fact.at.toISOString(),
        kind: fact.kind,
        route_id: fact.routeId,
        amount: String(fact.amount),
        clave_rastreo: fact.claveRastreo,
        detail: fact.detail,
      })),
    })),
  };
}
