import type { Migration } from 'kysely';
import * as routes from './20261121T0500_routes.js';

/** Every migration of the router database, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '20261121T0500_routes': routes,
};
