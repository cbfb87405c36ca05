// Orders and transfers (CONTRACT.md section 18): search, pages and timelines for operators and for a
// merchant's own people, and the sync that asks the channel.

export { type RefundAsk, requestRefund } from './order-refund.js';
export { createTimelines, type Timelines } from './order-timeline.js';
export { ORDERS_PERMISSIONS } from './orders.permissions.js';
export { type OrdersAdminDeps, registerOrdersAdmin } from './orders-admin.routes.js';
export { ORDERS_DASHBOARD_PERMISSIONS } from './orders-dashboard.permissions.js';
export { type OrdersDashboardDeps, registerOrdersDashboard } from './orders-dashboard.routes.js';
