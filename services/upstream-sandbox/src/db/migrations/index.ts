import type { Migration } from 'kysely';

/** Every migration of the sandbox database, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {};
