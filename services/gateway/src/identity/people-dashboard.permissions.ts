import { of, team } from './permission-helpers.js';
import type { Permission } from './permissions.js';

/**
 * The dashboard's identity calls on the public port, for a merchant's own people (MERCHANT_ROLES):
 * invitations, sign-in, one's own sessions and tokens, the merchant's people and its security history.
 */
export const PEOPLE_DASHBOARD_PERMISSIONS: readonly Permission[] = [
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
