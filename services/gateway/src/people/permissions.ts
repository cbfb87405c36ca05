import type { FastifyRequest } from '@agentpay/http';
import {
  always,
  merchantChangeNeedsFourEyes,
  resolutionNeedsFourEyes,
  routeChangeNeedsFourEyes,
} from '../approvals/four-eyes-rules.js';
import { MERCHANT_ROLES, type MerchantRole, OPERATOR_ROLES, type OperatorRole } from './actor.js';

// The ONE permission table (CONTRACT.md section 17): every route behind the authorisation hook
// (people/authorize.ts), the roles that may call it, the audit action and whether it changes something.
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

const ALL = OPERATOR_ROLES;
const only = (...roles: OperatorRole[]): readonly OperatorRole[] => roles;
const team = (...roles: MerchantRole[]): readonly MerchantRole[] => roles;

const param = (request: FastifyRequest, name: string) =>
  (request.params as Record<string, string> | undefined)?.[name] ?? '';
const bodyField = (request: FastifyRequest, name: string) => {
  const body = request.body as Record<string, unknown> | undefined;
  return typeof body?.[name] === 'string' ? (body[name] as string) : '';
};
const merchant = (r: FastifyRequest) => `merchant:${param(r, 'mchNo') || bodyField(r, 'mchNo')}`;
const route = (r: FastifyRequest) => `route:${param(r, 'id') || bodyField(r, 'id')}`;
const of =
  (kind: string, name = 'id') =>
  (r: FastifyRequest) =>
    `${kind}:${param(r, name)}`;

/** The admin port: the admin API of CONTRACT.md section 11 and the people routes of section 17. */
export const ADMIN_PERMISSIONS: readonly Permission[] = [
  { method: 'GET', url: '/admin/platform-key', allow: ALL, action: 'platform_key.read', changes: false },

  {
    method: 'POST',
    url: '/admin/merchants',
    allow: only('owner', 'admin'),
    action: 'merchant.create',
    changes: true,
    target: merchant,
  },
  {
    method: 'GET',
    url: '/admin/merchants/:mchNo',
    allow: only('owner', 'admin', 'approver', 'support', 'auditor'),
    action: 'merchant.read',
    changes: false,
  },
  {
    method: 'PATCH',
    url: '/admin/merchants/:mchNo',
    allow: only('owner', 'admin'),
    action: 'merchant.update',
    changes: true,
    target: merchant,
    note: 'status, fee rate, keys; adding a key: four eyes',
    fourEyes: merchantChangeNeedsFourEyes,
  },

  {
    method: 'GET',
    url: '/admin/merchants/:mchNo/balance',
    allow: only('owner', 'approver', 'reconciliation', 'auditor'),
    action: 'balance.read',
    changes: false,
  },
  {
    method: 'POST',
    url: '/admin/merchants/:mchNo/adjustments',
    allow: only('owner', 'reconciliation'),
    action: 'adjustment.create',
    changes: true,
    target: merchant,
    note: 'four eyes',
    fourEyes: always,
  },
  {
    method: 'POST',
    url: '/admin/settlements/run',
    allow: only('owner', 'admin'),
    action: 'settlement.run',
    changes: true,
    target: () => 'settlement',
  },
  {
    method: 'GET',
    url: '/admin/ledger/check',
    allow: only('owner', 'reconciliation', 'auditor'),
    action: 'ledger.check',
    changes: false,
  },

  {
    method: 'POST',
    url: '/admin/reconciliations',
    allow: only('owner', 'reconciliation'),
    action: 'reconciliation.run',
    changes: true,
    target: () => 'reconciliation',
  },
  {
    method: 'GET',
    url: '/admin/discrepancies',
    allow: only('owner', 'approver', 'reconciliation', 'auditor'),
    action: 'discrepancy.list',
    changes: false,
  },
  {
    method: 'GET',
    url: '/admin/discrepancies/:id',
    allow: only('owner', 'approver', 'reconciliation', 'auditor'),
    action: 'discrepancy.read',
    changes: false,
  },
  {
    method: 'POST',
    url: '/admin/discrepancies/:id/resolve',
    allow: only('owner', 'reconciliation'),
    action: 'discrepancy.resolve',
    changes: true,
    target: of('discrepancy'),
    note: 'credit, return: four eyes',
    fourEyes: resolutionNeedsFourEyes,
  },

  {
    method: 'GET',
    url: '/admin/routes',
    allow: only('owner', 'admin', 'approver', 'auditor'),
    action: 'route.list',
    changes: false,
  },
  {
    method: 'GET',
    url: '/admin/routes/:id',
    allow: only('owner', 'admin', 'approver', 'auditor'),
    action: 'route.read',
    changes: false,
  },
  {
    method: 'POST',
    url: '/admin/routes',
    allow: only('owner', 'admin'),
    action: 'route.create',
    changes: true,
    target: route,
    note: 'four eyes',
    fourEyes: always,
  },
  {
    method: 'PATCH',
    url: '/admin/routes/:id',
    allow: only('owner', 'admin'),
    action: 'route.update',
    changes: true,
    target: route,
    note: 'four eyes, but name, weight, priority, enabled at once',
    fourEyes: routeChangeNeedsFourEyes,
  },
  {
    method: 'POST',
    url: '/admin/routes/:id/enable',
    allow: only('owner', 'admin'),
    action: 'route.enable',
    changes: true,
    target: route,
  },
  {
    method: 'POST',
    url: '/admin/routes/:id/disable',
    allow: only('owner', 'admin'),
    action: 'route.disable',
    changes: true,
    target: route,
  },
  {
    method: 'PUT',
    url: '/admin/routes/:id/merchants',
    allow: only('owner', 'admin'),
    action: 'route.merchants.set',
    changes: true,
    target: route,
    note: 'four eyes',
    fourEyes: always,
  },
  {
    method: 'POST',
    url: '/admin/routes/:id/merchants/:mchNo',
    allow: only('owner', 'admin'),
    action: 'route.merchant.bind',
    changes: true,
    target: route,
    note: 'four eyes',
    fourEyes: always,
  },
  {
    method: 'DELETE',
    url: '/admin/routes/:id/merchants/:mchNo',
    allow: only('owner', 'admin'),
    action: 'route.merchant.unbind',
    changes: true,
    target: route,
    note: 'four eyes',
    fourEyes: always,
  },

  {
    method: 'GET',
    url: '/admin/deliveries',
    allow: only('owner', 'support', 'auditor'),
    action: 'delivery.list',
    changes: false,
    note: 'callbacks of an order (the notifier)',
  },
  {
    method: 'GET',
    url: '/admin/deliveries/:id',
    allow: only('owner', 'support', 'auditor'),
    action: 'delivery.read',
    changes: false,
  },
  {
    method: 'POST',
    url: '/admin/deliveries/:id/resend',
    allow: only('owner', 'support'),
    action: 'delivery.resend',
    changes: true,
    target: of('delivery'),
  },

  {
    method: 'GET',
    url: '/admin/merchants',
    allow: only('owner', 'admin', 'approver', 'support', 'auditor'),
    action: 'merchant.list',
    changes: false,
  },
  // Four eyes (approvals/): who asked sees their requests; approvers see and decide what waits for them.
  {
    method: 'GET',
    url: '/admin/approvals',
    allow: only('owner', 'admin', 'approver', 'reconciliation', 'auditor'),
    action: 'approval.list',
    changes: false,
    note: 'what waits for me, what I asked for',
  },
  {
    method: 'GET',
    url: '/admin/approvals/:id',
    allow: only('owner', 'admin', 'approver', 'reconciliation', 'auditor'),
    action: 'approval.read',
    changes: false,
  },
  {
    method: 'POST',
    url: '/admin/approvals/:id/approve',
    allow: only('owner', 'approver'),
    action: 'approval.approve',
    changes: true,
    target: of('approval'),
    note: 'never your own request',
  },
  {
    method: 'POST',
    url: '/admin/approvals/:id/reject',
    allow: only('owner', 'approver', 'admin', 'reconciliation'),
    action: 'approval.reject',
    changes: true,
    target: of('approval'),
    note: 'approvers; or who asked, withdrawing it',
  },

  {
    method: 'POST',
    url: '/admin/users',
    allow: only('owner'),
    action: 'user.invite',
    changes: true,
    note: 'with ADMIN_TOKEN in production: the first owner only',
  },
  {
    method: 'GET',
    url: '/admin/users',
    allow: only('owner', 'auditor'),
    action: 'user.list',
    changes: false,
  },
  {
    method: 'PATCH',
    url: '/admin/users/:id',
    allow: only('owner'),
    action: 'user.update',
    changes: true,
    target: of('user'),
  },
  {
    method: 'POST',
    url: '/admin/merchants/:mchNo/users',
    allow: only('owner', 'admin'),
    action: 'merchant_user.invite',
    changes: true,
    target: merchant,
  },
  {
    method: 'GET',
    url: '/admin/merchants/:mchNo/users',
    allow: only('owner', 'admin', 'support', 'auditor'),
    action: 'merchant_user.list',
    changes: false,
  },

  { method: 'GET', url: '/admin/me', allow: 'signedIn', action: 'me.read', changes: false },
  { method: 'GET', url: '/admin/me/sessions', allow: 'signedIn', action: 'session.list', changes: false },
  {
    method: 'DELETE',
    url: '/admin/me/sessions/:id',
    allow: 'signedIn',
    action: 'session.end',
    changes: true,
    target: of('session'),
  },
  {
    method: 'POST',
    url: '/admin/me/tokens',
    allow: 'signedIn',
    action: 'token.create',
    changes: true,
    note: 'roles within your own',
  },
  { method: 'GET', url: '/admin/me/tokens', allow: 'signedIn', action: 'token.list', changes: false },
  {
    method: 'DELETE',
    url: '/admin/me/tokens/:id',
    allow: 'signedIn',
    action: 'token.revoke',
    changes: true,
    target: of('token'),
  },

  {
    method: 'GET',
    url: '/admin/audit',
    allow: only('owner', 'auditor'),
    action: 'audit.read',
    changes: false,
    auditRead: true,
    target: () => 'audit_log',
  },
  {
    method: 'GET',
    url: '/admin/audit/verify',
    allow: only('owner', 'auditor'),
    action: 'audit.verify',
    changes: false,
    auditRead: true,
    target: () => 'audit_log',
  },
  {
    method: 'GET',
    url: '/admin/audit/export',
    allow: only('owner', 'auditor'),
    action: 'audit.export',
    changes: false,
    auditRead: true,
    target: () => 'audit_log',
  },

  {
    method: 'GET',
    url: '/console/api/invitations/:token',
    allow: 'public',
    action: 'invitation.read',
    changes: false,
  },
  {
    method: 'POST',
    url: '/console/api/invitations/:token',
    allow: 'public',
    action: 'invitation.accept',
    changes: true,
  },
  {
    method: 'POST',
    url: '/console/api/invitations/:token/confirm',
    allow: 'public',
    action: 'invitation.confirm',
    changes: true,
  },
  {
    method: 'POST',
    url: '/console/api/session',
    allow: 'public',
    action: 'session.create',
    changes: true,
    note: 'sign-in',
  },
  {
    method: 'DELETE',
    url: '/console/api/session',
    allow: 'signedIn',
    action: 'session.end',
    changes: true,
    target: () => 'session',
  },
];

/** The merchant dashboard's calls on the public port, for a merchant's own people (MERCHANT_ROLES). */
export const DASHBOARD_PERMISSIONS: readonly Permission[] = [
  {
    method: 'GET',
    url: '/dashboard/api/invitations/:token',
    allow: 'public',
    action: 'invitation.read',
    changes: false,
  },
  {
    method: 'POST',
    url: '/dashboard/api/invitations/:token',
    allow: 'public',
    action: 'invitation.accept',
    changes: true,
  },
  {
    method: 'POST',
    url: '/dashboard/api/invitations/:token/confirm',
    allow: 'public',
    action: 'invitation.confirm',
    changes: true,
  },
  {
    method: 'POST',
    url: '/dashboard/api/session',
    allow: 'public',
    action: 'session.create',
    changes: true,
    note: 'sign-in',
  },
  {
    method: 'DELETE',
    url: '/dashboard/api/session',
    allow: 'signedIn',
    action: 'session.end',
    changes: true,
    target: () => 'session',
  },
  { method: 'GET', url: '/dashboard/api/me', allow: 'signedIn', action: 'me.read', changes: false },
  {
    method: 'GET',
    url: '/dashboard/api/me/sessions',
    allow: 'signedIn',
    action: 'session.list',
    changes: false,
  },
  {
    method: 'DELETE',
    url: '/dashboard/api/me/sessions/:id',
    allow: 'signedIn',
    action: 'session.end',
    changes: true,
    target: of('session'),
  },
  {
    method: 'POST',
    url: '/dashboard/api/me/tokens',
    allow: 'signedIn',
    action: 'token.create',
    changes: true,
  },
  { method: 'GET', url: '/dashboard/api/me/tokens', allow: 'signedIn', action: 'token.list', changes: false },
  {
    method: 'DELETE',
    url: '/dashboard/api/me/tokens/:id',
    allow: 'signedIn',
    action: 'token.revoke',
    changes: true,
    target: of('token'),
  },
  {
    method: 'GET',
    url: '/dashboard/api/users',
    allow: team('owner', 'admin'),
    action: 'merchant_user.list',
    changes: false,
  },
  {
    method: 'POST',
    url: '/dashboard/api/users',
    allow: team('owner', 'admin'),
    action: 'merchant_user.invite',
    changes: true,
  },
  {
    method: 'PATCH',
    url: '/dashboard/api/users/:id',
    allow: team('owner', 'admin'),
    action: 'merchant_user.update',
    changes: true,
    target: of('user'),
    note: 'owners and the owner role: owner only',
  },
  {
    method: 'GET',
    url: '/dashboard/api/audit',
    allow: team('owner', 'admin'),
    action: 'audit.read',
    changes: false,
    auditRead: true,
    target: () => 'audit_log',
    note: "the merchant's own entries (security history)",
  },
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
