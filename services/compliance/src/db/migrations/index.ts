import type { Migration } from 'kysely';
import * as compliance from './20261128T2100_compliance.js';

/** Every migration of the compliance database, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '20261128T2100_compliance': compliance,
};
