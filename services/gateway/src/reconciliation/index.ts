// Reconciliation (CONTRACT.md section 14) on the admin port: runs, discrepancies and their resolution.

export { RECONCILIATION_PERMISSIONS } from './reconciliation.permissions.js';
export { registerReconciliationAdmin } from './reconciliation.routes.js';
