// What other workspaces may use of compliance besides its gRPC API: the bench fills a list of 1,000,000
// entries straight into a compliance database (bench/screening.ts).
export type { Database } from './db/schema.js';
export { foldName } from './lists/fold.js';
export { storeVersion } from './lists/lists.service.js';
