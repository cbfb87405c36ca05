import type { Kysely } from 'kysely';
import type { Database, ReconRunRow } from '../db/schema.js';

/** Where a reconciliation run of a route's day stands. */
export const RECON_RUN_STATUSES = ['running', 'succeeded', 'failed'] as const;
export type ReconRunStatus = (typeof RECON_RUN_STATUSES)[number];

export interface ReconRunFilter {
  day?: string;
  routeId?: string;
  limit: number;
  /** Keyset: the last id of the previous page (runs older than it). */
  beforeId?: number;
}

/**
 * Runs newest first (by id), keyset-paged; `next` is the last id when the page is full. A day's runs come
 * from recon_runs_day_idx, a route's from recon_runs_route_idx, all of them from the primary key: each page
 * reads `limit` index entries whatever the table holds.
 */
export async function listReconRuns(
  db: Kysely<Database>,
  filter: ReconRunFilter,
): Promise<{ items: ReconRunRow[]; next: number | null }> {
  let query = db.selectFrom('recon_runs').selectAll().orderBy('id', 'desc').limit(filter.limit);
  if (filter.day) query = query.where('day', '=', filter.day);
  if (filter.routeId) query = query.where('route_id', '=', filter.routeId);
  if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
  const items = await query.execute();
  const last = items.at(-1);
  return { items, next: items.length === filter.limit && last ? Number(last.id) : null };
}
