// Controls on where money goes (CONTRACT section 19): the merchant's limits, registered payees and security
// settings on the dashboard and the admin API. The settings themselves live with the merchant
// (merchants/merchant.service.ts), the usage in the ledger, the payee registry in transfers; this module is
// where people read and change them.

export { payeeView, usageView } from './controls.views.js';
export { CONTROLS_DASHBOARD_PERMISSIONS } from './controls-dashboard.permissions.js';
export { type ControlsDashboardDeps, registerControlsDashboard } from './controls-dashboard.routes.js';
export { LIMITS_ADMIN_PERMISSIONS } from './limits-admin.permissions.js';
export { type LimitsAdminDeps, registerLimitsAdmin } from './limits-admin.routes.js';
export { createSettingRequests, type SettingRequests } from './settings.repository.js';
