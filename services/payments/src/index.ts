// What other workspaces may use of payments besides its gRPC API: the benchmarks time the expiry sweep's
// claim straight on a payments database (bench/growth-stores.ts).
export type { Database } from './db/schema.js';
export { claimExpired } from './pay-orders/pay-order.repository.js';
