// The ledger as the gateway shows it: balances, adjustments, settlements and statements for operators, the
// balance and statement for a merchant's people, and the views the merchant API answers with.

export { LEDGER_PERMISSIONS } from './ledger.permissions.js';
export { balanceView, recordView } from './ledger.views.js';
export { registerLedgerAdmin } from './ledger-admin.routes.js';
export { LEDGER_DASHBOARD_PERMISSIONS } from './ledger-dashboard.permissions.js';
export { type LedgerDashboardDeps, registerLedgerDashboard } from './ledger-dashboard.routes.js';
export { registerLedgerStatementsAdmin } from './ledger-statements.routes.js';
export { periodOf } from './statement.js';
