import { APPROVALS_PERMISSIONS } from './approvals/index.js';
import { BATCHES_DASHBOARD_PERMISSIONS } from './batches/index.js';
import { COMPLIANCE_PERMISSIONS } from './compliance/index.js';
import { CONTROLS_DASHBOARD_PERMISSIONS, LIMITS_ADMIN_PERMISSIONS } from './controls/index.js';
import { DELIVERIES_PERMISSIONS } from './deliveries/index.js';
import {
  PEOPLE_ADMIN_PERMISSIONS,
  PEOPLE_DASHBOARD_PERMISSIONS,
  type Permission,
  permissionTable,
} from './identity/index.js';
import { LEDGER_DASHBOARD_PERMISSIONS, LEDGER_PERMISSIONS } from './ledger/index.js';
import { DASHBOARD_ACCOUNT_PERMISSIONS, MERCHANTS_PERMISSIONS } from './merchants/index.js';
import { ORDERS_DASHBOARD_PERMISSIONS, ORDERS_PERMISSIONS } from './orders/index.js';
import { RECONCILIATION_PERMISSIONS } from './reconciliation/index.js';
import { ROUTES_PERMISSIONS } from './routes/index.js';

// The two permission tables (CONTRACT.md section 17), put together from the entries each module writes for
// its own routes (<module>/*.permissions.ts). The authorisation hook (identity/authorize.ts) refuses every
// route not in its port's table; services/gateway/README.md "Who may call what" is generated from these.

/** The admin port: the admin API of CONTRACT.md section 11 and the people routes of section 17. */
export const ADMIN_PERMISSIONS: readonly Permission[] = permissionTable(
  MERCHANTS_PERMISSIONS,
  LIMITS_ADMIN_PERMISSIONS,
  LEDGER_PERMISSIONS,
  RECONCILIATION_PERMISSIONS,
  COMPLIANCE_PERMISSIONS,
  ROUTES_PERMISSIONS,
  DELIVERIES_PERMISSIONS,
  ORDERS_PERMISSIONS,
  APPROVALS_PERMISSIONS,
  PEOPLE_ADMIN_PERMISSIONS,
);

/** The merchant dashboard's calls on the public port, for a merchant's own people (MERCHANT_ROLES). */
export const DASHBOARD_PERMISSIONS: readonly Permission[] = permissionTable(
  DASHBOARD_ACCOUNT_PERMISSIONS,
  CONTROLS_DASHBOARD_PERMISSIONS,
  BATCHES_DASHBOARD_PERMISSIONS,
  ORDERS_DASHBOARD_PERMISSIONS,
  LEDGER_DASHBOARD_PERMISSIONS,
  PEOPLE_DASHBOARD_PERMISSIONS,
);
