export type { Database } from './db/schema.js';
export { checkLedger } from './ledger/check.repository.js';
export { type Ledger, main } from './main.js';
// For the benchmarks, which time the matcher straight on a ledger database (bench/recon.ts).
export { matchDay } from './reconciliation/reconciliation.repository.js';
