import type { Logger } from '@agentpay/logger';
import { type Route, type RouteAdminHandlers, toServiceError } from '@agentpay/proto';
import * as grpc from '@grpc/grpc-js';
import type { RouteAdminService, RouteView } from './route-admin.service.js';
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
  handler: (request: Req) => Promise<Res>,
): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    handler(call.request).then(
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

/** The RouteAdmin gRPC service. */
export function routeAdminHandlers(deps: { logger: Logger; routes: RouteAdminService }): RouteAdminHandlers {
  const { logger, routes } = deps;
  return {
    ListRoutes: adminUnary(logger, async () => ({ routes: (await routes.list()).map(routeMessage) })),
    GetRoute: adminUnary(logger, async (req) => routeMessage(await routes.get(req.id))),
    CreateRoute: adminUnary(logger, async (req) => routeMessage(await routes.create(req))),
    UpdateRoute: adminUnary(logger, async (req) => {
      if (!req.changes) throw new RouteAdminError('invalid', 'body: nothing to change');
      return routeMessage(await routes.update(req.id, req.changes, req.fields));
    }),
    SetRouteEnabled: adminUnary(logger, async (req) =>
      routeMessage(await routes.setEnabled(req.id, req.enabled)),
    ),
    SetRouteMerchants: adminUnary(logger, async (req) =>
      routeMessage(await routes.setMerchants(req.id, req.mch_nos)),
    ),
    BindRouteMerchant: adminUnary(logger, async (req) => routeMessage(await routes.bind(req.id, req.mch_no))),
    UnbindRouteMerchant: adminUnary(logger, async (req) =>
      routeMessage(await routes.unbind(req.id, req.mch_no)),
    ),
  };
}
