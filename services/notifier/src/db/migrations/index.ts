import type { Migration } from 'kysely';

/** Every migration of the notifier database, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {};
