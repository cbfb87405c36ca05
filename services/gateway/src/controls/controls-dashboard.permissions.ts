import { of, type Permission, team } from '../identity/index.js';

/**
 * The merchant dashboard's limits, registered payees and security settings (controls-dashboard.routes.ts):
 * every role reads them; the owner and admin change them. The rules a role cannot say are the routes': a
 * payee is approved by someone other than its registrant, the allowed addresses are the owner's, and
 * turning payees-only off waits for a second owner or admin.
 */
export const CONTROLS_DASHBOARD_PERMISSIONS: readonly Permission[] = [
  {
    method: 'GET',
    url: '/dashboard/api/limits',
    allow: team('owner', 'admin', 'finance', 'viewer'),
    action: 'limits.read',
    changes: false,
    note: "the limits in effect and today's and this month's payout usage",
  },
  {
    method: 'GET',
    url: '/dashboard/api/payees',
    allow: team('owner', 'admin', 'finance', 'viewer'),
    action: 'payee.list',
    changes: false,
  },
  {
    method: 'POST',
    url: '/dashboard/api/payees',
    allow: team('owner', 'admin'),
    action: 'payee.register',
    changes: true,
    target: () => 'payee',
    note: 'cooling off for PAYEE_COOLING_MINUTES',
  },
  {
    method: 'POST',
    url: '/dashboard/api/payees/:payeeId/approve',
    allow: team('owner', 'admin'),
    action: 'payee.approve',
    changes: true,
    target: of('payee', 'payeeId'),
    note: 'usable at once; never by the person who registered it',
  },
  {
    method: 'POST',
    url: '/dashboard/api/payees/:payeeId/remove',
    allow: team('owner', 'admin'),
    action: 'payee.remove',
    changes: true,
    target: of('payee', 'payeeId'),
  },
  {
    method: 'GET',
    url: '/dashboard/api/settings',
    allow: team('owner', 'admin', 'finance', 'viewer'),
    action: 'merchant_settings.read',
    changes: false,
  },
  {
    method: 'PATCH',
    url: '/dashboard/api/settings',
    allow: team('owner', 'admin'),
    action: 'merchant_settings.update',
    changes: true,
    target: () => 'merchant',
    note: 'registeredPayeesOnly on at once, off waits for a second owner/admin; allowedIps by the owner only',
  },
  {
    method: 'POST',
    url: '/dashboard/api/settings/requests/:id/approve',
    allow: team('owner', 'admin'),
    action: 'merchant_settings.approve',
    changes: true,
    target: of('settings_request'),
    note: 'never by the person who asked',
  },
  {
    method: 'POST',
    url: '/dashboard/api/settings/requests/:id/cancel',
    allow: team('owner', 'admin'),
    action: 'merchant_settings.cancel',
    changes: true,
    target: of('settings_request'),
  },
];
