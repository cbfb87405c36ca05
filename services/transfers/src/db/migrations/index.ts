import type { Migration } from 'kysely';
import * as outbox from './20261121T0500_outbox.js';
import * as transfers from './20261122T1000_transfers.js';

/** Every migration of the transfers database, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '20261121T0500_outbox': outbox,
  '20261122T1000_transfers': transfers,
};
