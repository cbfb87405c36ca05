import { merchant, only, type Permission } from '../identity/index.js';
import { limitsChangeNeedsFourEyes } from './limits-admin.routes.js';

/** A merchant's limits on the admin port (CONTRACT section 19): read with usage; set through four eyes. */
export const LIMITS_ADMIN_PERMISSIONS: readonly Permission[] = [
  {
    method: 'GET',
    url: '/admin/merchants/:mchNo/limits',
    allow: only('owner', 'admin', 'approver', 'support', 'auditor'),
    action: 'merchant.limits_read',
    changes: false,
    note: "limits in effect and today's and this month's payout usage",
  },
  {
    method: 'PUT',
    url: '/admin/merchants/:mchNo/limits',
    allow: only('owner', 'admin'),
    action: 'merchant.limits',
    changes: true,
    target: merchant,
    note: 'four eyes, unless lowerOnly: true (then refused unless it only lowers)',
    fourEyes: limitsChangeNeedsFourEyes,
  },
];
