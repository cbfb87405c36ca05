// What other workspaces may use of transfers besides its gRPC API: the benchmarks time the progress check's
// round straight on a transfers database (bench/growth-stores.ts).
export type { Database } from './db/schema.js';
export { markChecked, progressDueForCheck } from './transfers/transfer.repository.js';
