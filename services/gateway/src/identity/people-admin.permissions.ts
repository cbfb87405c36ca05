import { merchant, of, only } from './permission-helpers.js';
import type { Permission } from './permissions.js';

/**
 * The people routes of CONTRACT.md section 17 on the admin port: users, one's own sessions and tokens, the
 * audit log, and the console's invitations and sign-in.
 */
export const PEOPLE_ADMIN_PERMISSIONS: readonly Permission[] = [
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
