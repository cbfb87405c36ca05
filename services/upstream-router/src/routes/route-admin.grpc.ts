import type { Logger } from '@agentpay/logger';
import { originOf, type Route, type RouteAdminHandlers, toServiceError } from '@agentpay/proto';
import * as grpc from '@grpc/grpc-js';
import type { ChangeOrigin, RouteAdminService, RouteView } from './route-admin.service.js';
import { RouteAdminError } from './route-spec.js';

const STATUS = {
  invalid: grpc.status.INVALID_ARGUMENT,
  not_found: grpc.status.NOT_FOUND,
  conflict: grpc.status.ALREADY_EXISTS,
} as const;

/**
 * A unary handler whose operator errors travel as plain gRPC statuses with the message as details
 * (they are for operators, not merchants, so they need no envelope code); anything else as usual.
 */
function adminUnary<Req, Res>(
  logger: Logger,
  handler: (request: Req, origin: ChangeOrigin | undefined) => Promise<Res>,
): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    handler(call.request, changeOrigin(call.metadata)).then(
      (response) => callback(null, response),
      (err: unknown) =>
        callback(
          err instanceof RouteAdminError
            ? { code: STATUS[err.kind], details: err.message }
            : toServiceError(err, logger),
        ),
    );
  };
}

/**
 * Who the gateway says asks for the change (x-agentpay-actor, x-agentpay-approval) and whether only to check
 * it (x-agentpay-validate-only); undefined for a caller that names nobody (the route is then changed as
 * before, with no one recorded).
 */
function changeOrigin(metadata: grpc.Metadata): ChangeOrigin | undefined {
  const origin = originOf(metadata);
  if (!origin) return undefined;
  return {
    by: origin.actor.label,
    approvalId: origin.approvalId ?? '',
    validateOnly: origin.validateOnly === true,
  };
}

const instant = (date: Date | undefined) => date?.toISOString() ?? '';

export function routeMessage(view: RouteView): Route {
  const { route, health } = view;
  return {
    spec: {
      id: route.id,
      name: route.name,
      adapter: route.adapter,
      config_json: JSON.stringify(route.config),
      credentials_ref: route.credentialsRef,
      enabled: route.enabled,
      methods: route.methods,
      payee_types: route.payeeTypes,
      priority: route.priority,
      weight: route.weight,
      merchant_scope: route.merchantScope,
      code_map: route.codeMap,
    },
    mch_nos: view.merchants,
    created_at: instant(view.createdAt),
    updated_at: instant(view.updatedAt),
    created_by: view.createdBy,
    updated_by: view.updatedBy,
    approval_id: view.approvalId,
    health: {
      state: health.state,
      recent_failures: health.recentFailures,
      failures_total: String(health.failuresTotal),
      successes_total: String(health.successesTotal),
      skipped_total: String(health.skippedTotal),
      opened_at: instant(health.openedAt),
      retry_at: instant(health.retryAt),
    },
  };
}

/** The RouteAdmin gRPC service, but for its day's figures (route-figures.grpc.ts). */
export function createRouteAdminHandlers(deps: {
  logger: Logger;
  routes: RouteAdminService;
}): Omit<RouteAdminHandlers, 'RouteFigures'> {
  const { logger, routes } = deps;
  return {
    ListRoutes: adminUnary(logger, async () => ({ routes: (await routes.list()).map(routeMessage) })),
    GetRoute: adminUnary(logger, async (req) => routeMessage(await routes.get(req.id))),
    CreateRoute: adminUnary(logger, async (req, origin) => routeMessage(await routes.create(req, origin))),
    UpdateRoute: adminUnary(logger, async (req, origin) => {
      if (!req.changes) throw new RouteAdminError('invalid', 'body: nothing to change');
      return routeMessage(await routes.update(req.id, req.changes, req.fields, origin));
    }),
    SetRouteEnabled: adminUnary(logger, async (req, origin) =>
      routeMessage(await routes.setEnabled(req.id, req.enabled, origin)),
    ),
    SetRouteMerchants: adminUnary(logger, async (req, origin) =>
      routeMessage(await routes.setMerchants(req.id, req.mch_nos, origin)),
    ),
    BindRouteMerchant: adminUnary(logger, async (req, origin) =>
      routeMessage(await routes.bind(req.id, req.mch_no, origin)),
    ),
    UnbindRouteMerchant: adminUnary(logger, async (req, origin) =>
      routeMessage(await routes.unbind(req.id, req.mch_no, origin)),
    ),
  };
}
