import type { Kysely } from 'kysely';
import type { Database, EntryRow } from '../db/schema.js';
import { type CheckReport, type CrossCheck, checkLedger } from './check.repository.js';
import { LedgerError } from './ledger.errors.js';
import { balanceOf } from './ledger.repository.js';
import { decodeCursor, listRecords } from './records.repository.js';
import {
  balanceBefore,
  decodeSettlementsCursor,
  listSettlements,
  type Parts,
  type SettlementsPage,
} from './statement.repository.js';

/** docs/merchant-api.md "Balance and statement": a statement spans at most 31 days. */
const MAX_RECORDS_SPAN_MS = 31 * 24 * 60 * 60 * 1000;

/** A page of a merchant's statement as asked for: the instants and cursor as the request wrote them. */
export interface RecordsRequest {
  mchNo: string;
  startTime: string;
  endTime: string;
  /** 0 asks for the default (100). */
  limit: number;
  /** '' for the first page. */
  cursor: string;
}

export interface LedgerQueries {
  /** A merchant's three parts; INVALID_REQUEST without a merchant. */
  balance(mchNo: string): Promise<{ available: number; pending: number; frozen: number }>;
  /** One page of a merchant's statement, oldest first; INVALID_REQUEST names the first bad field. */
  records(request: RecordsRequest): Promise<{ records: EntryRow[]; nextCursor: string | undefined }>;
  /** Proves the books (check.repository.ts) and the cross-checks given at creation. */
  check(): Promise<CheckReport>;
  /** A page of a statement of any span, with the balances at its start and end (statement.repository.ts). */
  statement(request: RecordsRequest): Promise<{
    opening: Parts;
    closing: Parts;
    records: EntryRow[];
    nextCursor: string | undefined;
  }>;
  /** Each merchant's last settlement and pending, keyset-paged (the ledger records no runs). */
  settlements(request: { limit: number; after: string }): Promise<SettlementsPage>;
}

function invalid(detail: string): LedgerError {
  return new LedgerError('INVALID_REQUEST', detail);
}

function instant(text: string, field: string): Date {
  const date = new Date(text);
  if (!text || Number.isNaN(date.getTime())) throw invalid(`${field} (must be an instant)`);
  return date;
}

/** The ledger's read side: balances, statements and the check. */
export function createLedgerQueries(deps: {
  db: Kysely<Database>;
  crossChecks?: readonly CrossCheck[];
}): LedgerQueries {
  const { db } = deps;
  return {
    async balance(mchNo) {
      if (!mchNo) throw invalid('mch_no (required)');
      return balanceOf(db, mchNo);
    },
    async records(request) {
      if (!request.mchNo) throw invalid('mch_no (required)');
      const start = instant(request.startTime, 'startTime');
      const end = instant(request.endTime, 'endTime');
      if (start >= end) throw invalid('startTime (must be before endTime)');
      if (end.getTime() - start.getTime() > MAX_RECORDS_SPAN_MS) {
        throw invalid('endTime (at most 31 days after startTime)');
      }
      const limit = request.limit === 0 ? 100 : request.limit;
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw invalid('limit (must be 1..500)');
      const afterId = request.cursor ? decodeCursor(request.cursor) : null;
      if (request.cursor && afterId === null) throw invalid('cursor (unknown)');
      return listRecords(db, { mchNo: request.mchNo, start, end, limit, afterId });
    },
    check: () => checkLedger(db, deps.crossChecks),
    async statement(request) {
      if (!request.mchNo) throw invalid('mch_no (required)');
      const start = instant(request.startTime, 'startTime');
      const end = instant(request.endTime, 'endTime');
      if (start >= end) throw invalid('startTime (must be before endTime)');
      const limit = request.limit === 0 ? 100 : request.limit;
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw invalid('limit (must be 1..500)');
      const afterId = request.cursor ? decodeCursor(request.cursor) : null;
      if (request.cursor && afterId === null) throw invalid('cursor (unknown)');
      const [opening, closing, page] = await Promise.all([
        balanceBefore(db, request.mchNo, start),
        balanceBefore(db, request.mchNo, end),
        listRecords(db, { mchNo: request.mchNo, start, end, limit, afterId }),
      ]);
      return { opening, closing, ...page };
    },
    async settlements(request) {
      const limit = request.limit === 0 ? 50 : request.limit;
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw invalid('limit (must be 1..500)');
      const after = request.after ? decodeSettlementsCursor(request.after) : null;
      if (request.after && after === null) throw invalid('after (unknown)');
      return listSettlements(db, { limit, after });
    },
  };
}
