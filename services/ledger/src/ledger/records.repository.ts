import { type Kysely, sql } from 'kysely';
import type { Database, EntryRow } from '../db/schema.js';

export interface RecordsPage {
  records: EntryRow[];
  /** Opaque; undefined on the last page. */
  nextCursor: string | undefined;
}

/** A cursor names the last entry of the previous page; the page continues after it in (created_at, id). */
export function encodeCursor(entryId: number): string {
  return Buffer.from(`e${entryId}`).toString('base64url');
}

/** The entry id a cursor names, or null when it is not one of ours. */
export function decodeCursor(cursor: string): number | null {
  const text = Buffer.from(cursor, 'base64url').toString();
  const match = /^e(\d{1,18})$/.exec(text);
  return match ? Number(match[1]) : null;
}

/**
 * One page of a merchant's statement in [start, end), oldest first. A keyset on the index (mch_no,
 * created_at, id): the cursor's row is looked up by id so its microsecond created_at is compared exactly
 * (a JavaScript Date would round it to the millisecond), and no offset is ever skipped over.
 */
export async function listRecords(db: Kysely<Database>, query: RecordsQuery): Promise<RecordsPage> {
  const rows = await recordsQuery(db, query).execute();
  const records = rows.slice(0, query.limit);
  const last = records.at(-1);
  return { records, nextCursor: rows.length > query.limit && last ? encodeCursor(last.id) : undefined };
}

export interface RecordsQuery {
  mchNo: string;
  start: Date;
  end: Date;
  limit: number;
  afterId: number | null;
}

/** The statement's query (one row more than a page, to tell whether another follows); tests EXPLAIN it. */
export function recordsQuery(db: Kysely<Database>, query: RecordsQuery) {
  let q = db
    .selectFrom('entries')
    .selectAll()
    .where('mch_no', '=', query.mchNo)
    .where('created_at', '>=', query.start)
    .where('created_at', '<', query.end);
  if (query.afterId !== null) {
    q = q.where(
      sql<boolean>`(created_at, id) > (select c.created_at, c.id from entries c where c.id = ${query.afterId})`,
    );
  }
  return q
    .orderBy('created_at')
    .orderBy('id')
    .limit(query.limit + 1);
}
