import { createHttpServer, type FastifyInstance, type FastifyRequest } from '@agentpay/http';
import type { Logger } from '@agentpay/logger';
import type { Registry } from '@agentpay/telemetry';
import {
  type AuditLog,
  type FourEyes,
  installAuthorization,
  PeopleError,
  type PeopleService,
  type Permission,
  peopleErrorReply,
} from './identity/index.js';
import { MerchantAdminError } from './merchants/index.js';

export interface AdminApiDeps {
  logger: Logger;
  /**
   * ADMIN_TOKEN: system:dev outside production; in production only the first owner's creation
   * (identity/authorize.ts), and unset once they are in.
   */
  adminToken?: string | undefined;
  production: boolean;
  people: PeopleService;
  audit: AuditLog;
  /** The console's session cookie name (`__Host-` prefixed in production). */
  cookieName: string;
  /** Four eyes: takes over the requests whose permission says they need a second person. */
  fourEyes?: FourEyes;
  /** Served at GET /metrics (Prometheus text), unauthenticated like /healthz: the admin port is internal. */
  registry?: Registry;
  /** The admin port's permission table, assembled from every module's entries (permissions.ts). */
  permissions: readonly Permission[];
  /** Registers every module's admin routes, behind the authorisation hook (main.ts). */
  register: (app: FastifyInstance) => void;
}

/** The operators' API (services/gateway/README.md): JSON over HTTP behind a bearer token. */
export function buildAdminApi(deps: AdminApiDeps): FastifyInstance {
  const app = createHttpServer(deps.logger, { bodyLimit: 1_048_576 });

  // The one authorisation point: every route of this port, in the permission table or refused.
  installAuthorization(app, {
    people: deps.people,
    audit: deps.audit,
    logger: deps.logger,
    kind: 'operator',
    permissions: deps.permissions,
    cookieName: deps.cookieName,
    adminToken: deps.adminToken,
    production: deps.production,
    fourEyes: deps.fourEyes,
    open: openPath,
  });

  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    if (error instanceof MerchantAdminError) {
      const status = { not_found: 404, conflict: 409, invalid: 400 }[error.kind];
      return reply.code(status).send({ error: error.kind, message: error.message });
    }
    if (error instanceof PeopleError || (error.statusCode && error.statusCode < 500)) {
      return peopleErrorReply(error, reply, deps.logger);
    }
    deps.logger.error({ err: error }, 'admin request failed');
    return reply.code(500).send({ error: 'internal', message: 'internal error' });
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/metrics', async (_request, reply) => {
    if (!deps.registry) return reply.code(404).send();
    return reply.header('content-type', deps.registry.contentType).send(await deps.registry.metrics());
  });

  deps.register(app);
  return app;
}

/** What needs no credential: probes, and the console's pages (they hold no data; their API calls do). */
function openPath(request: FastifyRequest): boolean {
  // The matched route's pattern, not the raw URL, decides: no spelling of a path reaches another route.
  const path = request.routeOptions.url ?? request.url.split('?', 1)[0] ?? '';
  if (path === '/healthz' || path === '/metrics') return true;
  const safe = request.method === 'GET' || request.method === 'HEAD';
  return safe && (path === '/console' || (path.startsWith('/console/') && !path.startsWith('/console/api/')));
}
