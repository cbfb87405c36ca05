import { merchantChangeNeedsFourEyes } from '../approvals/index.js';
import { ALL, merchant, only, type Permission } from '../identity/index.js';

/** The merchants on the admin port (CONTRACT.md section 11): create, read, change, list; the platform key. */
export const MERCHANTS_PERMISSIONS: readonly Permission[] = [
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
    note: 'status, fee rate, keys, registeredPayeesOnly, allowedIps; adding a key or turning payees-only off: four eyes',
    fourEyes: merchantChangeNeedsFourEyes,
  },
  {
    method: 'GET',
    url: '/admin/merchants',
    allow: only('owner', 'admin', 'approver', 'support', 'auditor'),
    action: 'merchant.list',
    changes: false,
  },
];
