import type { FastifyInstance } from '@agentpay/http';
import type { Logger } from '@agentpay/logger';
import {
  type AuditLog,
  installAuthorization,
  type PeopleService,
  type Permission,
  peopleErrorReply,
} from './identity/index.js';

export interface DashboardApiDeps {
  people: PeopleService;
  audit: AuditLog;
  logger: Logger;
  production: boolean;
  /** The dashboard's session cookie name (`__Host-` prefixed in production). */
  cookieName: string;
  /** The dashboard's permission table, assembled from every module's entries (permissions.ts). */
  permissions: readonly Permission[];
  /** Registers every module's dashboard routes, behind the authorisation hook (main.ts). */
  register: (dash: FastifyInstance) => void;
}

/**
 * The merchant dashboard's calls on the public port (`/dashboard/api/...`), in their own Fastify scope behind
 * the same authorisation hook as the admin port, with the dashboard's permission table: a merchant's people
 * see only their merchant.
 */
export function registerDashboardApi(app: FastifyInstance, deps: DashboardApiDeps): void {
  void app.register(async (dash) => {
    dash.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) =>
      peopleErrorReply(error, reply, deps.logger),
    );
    installAuthorization(dash, {
      people: deps.people,
      audit: deps.audit,
      logger: deps.logger,
      kind: 'merchant',
      permissions: deps.permissions,
      cookieName: deps.cookieName,
      production: deps.production,
    });
    deps.register(dash);
  });
}
