import type { ListPage } from '@agentpay/wire';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database, TransferRow, TransferStatusHistoryRow } from '../db/schema.js';
import type { TransferStatus } from './transfer.state-machine.js';

// The reads behind ListTransfers and GetTransferHistory, and the history row every status change writes.
// Every filter is served by an index of migration 20261127T0300_transfer_search: the search's four keys
// each by their own (Postgres ORs the bitmaps), the page by (mch_no, created_at, transfer_no) or
// (created_at, transfer_no) read backwards, so the work depends on the page, not on the merchant's size.

/**
 * A checked list request (readListRequest): `search` is matched exactly against transfer_no,
 * biz_transfer_no, clave_rastreo and payee_account; the page continues after `afterTransferNo`, the last
 * transfer of the previous page, in (created_at, transfer_no) desc.
 */
export type TransferListQuery = Omit<ListPage, 'after' | 'status'> & {
  status: TransferStatus | undefined;
  afterTransferNo: string | undefined;
};

/**
 * The list's statement (one row more than a page); a `submitting` transfer is nobody's to see yet; tests
 * EXPLAIN it. A search is a materialized CTE: its four exact keys find a handful of rows through their own
 * indexes first, and only then are the merchant, status and time filters applied (without the fence the
 * planner may walk a big merchant's transfers newest first, filtering each against the keys).
 */
export function transferListQuery(query: TransferListQuery): RawBuilder<TransferRow> {
  const filters = [sql`status <> 'submitting'`];
  if (query.mchNo !== undefined) filters.push(sql`mch_no = ${query.mchNo}`);
  if (query.status !== undefined) filters.push(sql`status = ${query.status}`);
  if (query.from !== undefined) filters.push(sql`created_at >= ${query.from}`);
  if (query.to !== undefined) filters.push(sql`created_at < ${query.to}`);
  if (query.afterTransferNo !== undefined) {
    filters.push(
      sql`(created_at, transfer_no) < (select c.created_at, c.transfer_no from transfers c where c.transfer_no = ${query.afterTransferNo})`,
    );
  }
  const where = sql.join(filters, sql` and `);
  const page = sql`order by created_at desc, transfer_no desc limit ${query.limit + 1}`;
  const search = query.search;
  if (search === undefined) return sql<TransferRow>`select * from transfers where ${where} ${page}`;
  // The claveRastreo branch repeats its partial index's predicate, so the planner may use that index.
  return sql<TransferRow>`with hits as materialized (
      select * from transfers
      where transfer_no = ${search} or biz_transfer_no = ${search}
        or (clave_rastreo = ${search} and clave_rastreo <> '') or payee_account = ${search})
    select * from hits where ${where} ${page}`;
}

/** One page, newest first, and the transfer the next page continues after (undefined on the last page). */
export async function listTransfers(
  db: Kysely<Database>,
  query: TransferListQuery,
): Promise<{ transfers: TransferRow[]; lastTransferNo: string | undefined }> {
  const { rows } = await transferListQuery(query).execute(db);
  const transfers = rows.slice(0, query.limit);
  const last = transfers.at(-1);
  return { transfers, lastTransferNo: rows.length > query.limit && last ? last.transfer_no : undefined };
}

/** A transfer's stored status changes, oldest first. */
export async function transferHistoryOf(
  db: Kysely<Database>,
  transferNo: string,
): Promise<TransferStatusHistoryRow[]> {
  return db
    .selectFrom('transfer_status_history')
    .selectAll()
    .where('transfer_no', '=', transferNo)
    .orderBy('version')
    .execute();
}

/** The history row of one status change, in the change's transaction (transfer.transition.ts). */
export async function insertTransferHistory(
  trx: Transaction<Database>,
  entry: { transferNo: string; from: string; to: string; version: number },
): Promise<void> {
  await trx
    .insertInto('transfer_status_history')
    .values({
      transfer_no: entry.transferNo,
      from_status: entry.from,
      to_status: entry.to,
      version: entry.version,
    })
    .execute();
}
