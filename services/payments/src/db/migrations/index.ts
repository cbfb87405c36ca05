import type { Migration } from 'kysely';
import * as outbox from './20261121T0500_outbox.js';

/** Every migration of the payments database, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '20261121T0500_outbox': outbox,
};
