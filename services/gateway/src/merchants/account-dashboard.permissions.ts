import { of, type Permission, team } from '../identity/index.js';

/**
 * The merchant dashboard's keys, platform key and callback failures (dashboard/account-dashboard.ts): the
 * owner and admin manage keys; every role reads them. Keys need no four eyes here (the module says why).
 */
export const DASHBOARD_ACCOUNT_PERMISSIONS: readonly Permission[] = [
  {
    method: 'GET',
    url: '/dashboard/api/keys',
    allow: team('owner', 'admin', 'finance', 'viewer'),
    action: 'merchant_key.list',
    changes: false,
    note: 'fingerprints, never the key',
  },
  {
    method: 'POST',
    url: '/dashboard/api/keys',
    allow: team('owner', 'admin'),
    action: 'merchant_key.add',
    changes: true,
    target: () => 'key',
    note: 'RSA ≥ 2048 public key, at most 2 active; no four eyes (merchant people)',
  },
  {
    method: 'POST',
    url: '/dashboard/api/keys/:id/revoke',
    allow: team('owner', 'admin'),
    action: 'merchant_key.revoke',
    changes: true,
    target: of('key'),
    note: 'never the last active key',
  },
  {
    method: 'GET',
    url: '/dashboard/api/platform-key',
    allow: team('owner', 'admin', 'finance', 'viewer'),
    action: 'platform_key.read',
    changes: false,
  },
  {
    method: 'GET',
    url: '/dashboard/api/platform-key.pem',
    allow: team('owner', 'admin', 'finance', 'viewer'),
    action: 'platform_key.read',
    changes: false,
    note: 'as a file',
  },
  {
    method: 'GET',
    url: '/dashboard/api/callbacks/failures',
    allow: team('owner', 'admin', 'finance', 'viewer'),
    action: 'callback.list_failing',
    changes: false,
    note: "the merchant's callbacks whose last attempt failed",
  },
];
