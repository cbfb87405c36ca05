import type { FastifyRequest } from '@agentpay/http';
import { MERCHANT_ROLES } from './actor.js';
import { APPROVALS_PERMISSIONS } from './approvals.permissions.js';
import { FIGURES_PERMISSIONS } from './figures.permissions.js';
import { LEDGER_PERMISSIONS } from './ledger.permissions.js';
import { OPERATOR_ADMIN_PERMISSIONS } from './operator-admin.permissions.js';
import { ORDERS_PERMISSIONS } from './orders.permissions.js';
import { PEOPLE_ADMIN_PERMISSIONS } from './people-admin.permissions.js';
import { ALL } from './permission-helpers.js';
import { RECONCILIATION_PERMISSIONS } from './reconciliation.permissions.js';

// The ONE permission table (CONTRACT.md section 17), written by area in *.permissions.ts and put together
// here: every route behind the authorisation hook (people/authorize.ts), the roles that may call it, the
// audit action and whether it changes something.
// A route missing here answers 403 to everyone (deny by default); services/gateway/README.md "Who may call
// what" is generated from it (scripts/permissions-docs.ts) and a test fails when it is stale.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Permission {
  method: HttpMethod;
  /** The route's pattern as registered with Fastify (`/admin/merchants/:mchNo`). */
  url: string;
  /**
   * Who may call it: roles (any one suffices), `signedIn` (any person or system:dev: their own sessions
   * and tokens), or `public` (no credential: invitations and sign-in, which audit themselves).
   */
  allow: readonly string[] | 'signedIn' | 'public';
  /** The audit log's action name. */
  action: string;
  /** It changes something: every call is audited (success, failure or denied). */
  changes: boolean;
  /** A read that is audited all the same (the audit log's own reads). */
  auditRead?: boolean;
  /** What the audit entry names as its target; default: the route's parameters. */
  target?: (request: FastifyRequest) => string;
  /**
   * Four eyes (CONTRACT.md section 17): when this answers true for a request, the authorisation hook hands
   * it to `fourEyes.intercept` of the admin API's deps instead of the route handler.
   */
  fourEyes?: (request: FastifyRequest) => boolean;
  /** One line for the docs' table. */
  note?: string;
}

/** The admin port: the admin API of CONTRACT.md section 11 and the people routes of section 17. */
export const ADMIN_PERMISSIONS: readonly Permission[] = [
  ...OPERATOR_ADMIN_PERMISSIONS,
  ...ORDERS_PERMISSIONS,
  ...APPROVALS_PERMISSIONS,
  ...FIGURES_PERMISSIONS,
  ...LEDGER_PERMISSIONS,
  ...PEOPLE_ADMIN_PERMISSIONS,
  ...RECONCILIATION_PERMISSIONS,
];

export const ALL_OPERATOR_ROLES = ALL;
export const ALL_MERCHANT_ROLES = MERCHANT_ROLES;

/** Looks permissions up by `METHOD url-pattern`; HEAD is GET's. */
export function permissionIndex(table: readonly Permission[]) {
  const byKey = new Map(table.map((p) => [`${p.method} ${p.url}`, p]));
  return (method: string, url: string | undefined): Permission | undefined =>
    url === undefined ? undefined : byKey.get(`${method === 'HEAD' ? 'GET' : method} ${url}`);
}

/** Whether `roles` may call a route that allows `allow`. */
export function allows(allow: Permission['allow'], roles: readonly string[]): boolean {
  if (allow === 'public' || allow === 'signedIn') return true;
  return roles.some((r) => allow.includes(r));
}
