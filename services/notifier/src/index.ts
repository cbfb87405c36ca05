// What other workspaces may use of the notifier besides its APIs: the benchmarks time the delivery claim
// straight on a notifier database (bench/growth-stores.ts).
export type { Database } from './db/schema.js';
export { claimDueDeliveries } from './deliveries/delivery.service.js';
export { msUntilNextDue } from './deliveries/delivery-lease.repository.js';
