import type { DiscrepancyKind, DiscrepancyState } from '@agentpay/api';
import type { Kysely } from 'kysely';
import type { Database, DiscrepancyRow } from '../db/schema.js';

export interface DiscrepancyFilter {
  state?: DiscrepancyState;
  kind?: DiscrepancyKind;
  day?: string;
  limit: number;
  /** Keyset: the last id of the previous page. */
  afterId?: number;
}

/** Discrepancies by id, oldest first, keyset-paged; `next` is the last id when the page is full. */
export async function listDiscrepancies(
  db: Kysely<Database>,
  filter: DiscrepancyFilter,
): Promise<{ items: DiscrepancyRow[]; next: number | null }> {
  let query = db.selectFrom('discrepancies').selectAll().orderBy('id').limit(filter.limit);
  if (filter.state) query = query.where('state', '=', filter.state);
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.day) query = query.where('day', '=', filter.day);
  if (filter.afterId !== undefined) query = query.where('id', '>', filter.afterId);
  const items = await query.execute();
  const last = items.at(-1);
  return { items, next: items.length === filter.limit && last ? Number(last.id) : null };
}

export function getDiscrepancy(db: Kysely<Database>, id: number): Promise<DiscrepancyRow | undefined> {
  return db.selectFrom('discrepancies').selectAll().where('id', '=', id).executeTakeFirst();
}
