import type { Insertable, Kysely } from 'kysely';
import type { Database, SettlementRunRow, SettlementRunsTable } from '../db/schema.js';

/** Who started a settlement run: the timer, or an operator (RunSettlement). */
export const SETTLEMENT_TRIGGERS = ['sweep', 'operator'] as const;
export type SettlementTrigger = (typeof SETTLEMENT_TRIGGERS)[number];

/** How a settlement run ended (it is recorded when it has finished). */
export const SETTLEMENT_RUN_STATUSES = ['succeeded', 'failed'] as const;
export type SettlementRunStatus = (typeof SETTLEMENT_RUN_STATUSES)[number];

/** Records one finished settlement run. */
export async function insertSettlementRun(
  db: Kysely<Database>,
  run: Insertable<SettlementRunsTable>,
): Promise<SettlementRunRow> {
  return db.insertInto('settlement_runs').values(run).returningAll().executeTakeFirstOrThrow();
}

/**
 * Runs newest first (by id, the primary key), keyset-paged: each page reads `limit` index entries whatever
 * the table holds; `next` is the last id when the page is full.
 */
export async function listSettlementRuns(
  db: Kysely<Database>,
  page: { limit: number; beforeId?: number },
): Promise<{ items: SettlementRunRow[]; next: number | null }> {
  let query = db.selectFrom('settlement_runs').selectAll().orderBy('id', 'desc').limit(page.limit);
  if (page.beforeId !== undefined) query = query.where('id', '<', page.beforeId);
  const items = await query.execute();
  const last = items.at(-1);
  return { items, next: items.length === page.limit && last ? Number(last.id) : null };
}
