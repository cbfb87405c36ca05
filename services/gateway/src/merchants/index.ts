// Merchants: the merchant records and their keys (merchant.service.ts), the operators' merchant routes, and
// the dashboard's account page (keys, the platform key, failing callbacks).

export { DASHBOARD_ACCOUNT_PERMISSIONS } from './account-dashboard.permissions.js';
export {
  type AccountDashboardDeps,
  registerAccountDashboard,
} from './account-dashboard.routes.js';
export {
  type AuthMerchant,
  createMerchantService,
  isCidr,
  MerchantAdminError,
  type MerchantService,
} from './merchant.service.js';
export { registerMerchantListAdmin } from './merchant-list.routes.js';
export { addMerchantUpdateOperation } from './merchant-update.operation.js';
export { MERCHANTS_PERMISSIONS } from './merchants.permissions.js';
export { type MerchantsAdminDeps, registerMerchantsAdmin } from './merchants-admin.routes.js';
