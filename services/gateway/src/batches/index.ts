// Batch payouts on the merchant dashboard (CONTRACT section 21): a CSV checked row by row, requested by one
// person and sent only when a second person approves it with a current authenticator code. The batch itself
// is the transfers service's (the merchant API's transfer/batch creates the same); this module is where
// people check, request and approve one.

export { checkBatchFile, MAX_ROWS } from './batch-csv.js';
export { type BatchRequests, createBatchRequests } from './batch-requests.repository.js';
export { BATCHES_DASHBOARD_PERMISSIONS } from './batches-dashboard.permissions.js';
export { type BatchesDashboardDeps, registerBatchesDashboard } from './batches-dashboard.routes.js';
