import { AppError } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, TransferRow } from '../db/schema.js';
import { findTransferByNo } from './transfer.repository.js';
import { TRANSFER_STATUSES, type TransferStatus } from './transfer.state-machine.js';
import { listTransfers, transferHistoryOf } from './transfer-list.repository.js';

/** ListTransfers as asked: the wire's text, checked here. */
export interface TransferListRequest {
  /** '' for every merchant. */
  mchNo: string;
  query: string;
  status: string;
  createdFrom: string;
  createdTo: string;
  /** 0 asks for the default (50). */
  limit: number;
  /** '' for the first page. */
  cursor: string;
}

export interface TransferStatusChange {
  from: string;
  to: string;
  version: number;
  at: Date;
}

export interface TransferHistory {
  transfer: TransferRow;
  changes: TransferStatusChange[];
  /** The transfer is older than its stored history; `changes` was derived from its own times. */
  derived: boolean;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
const MAX_SEARCH = 64;
const VISIBLE = TRANSFER_STATUSES.filter((s) => s !== 'submitting') as readonly string[];

function invalid(field: string, problem: string): AppError {
  return new AppError('INVALID_PARAMETER', `${field} (${problem})`);
}

function instant(text: string, field: string): Date | undefined {
  if (!text) return undefined;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw invalid(field, 'must be an instant');
  return date;
}

/** A cursor names the last transfer of the previous page. */
export function encodeTransferCursor(transferNo: string): string {
  return Buffer.from(`t:${transferNo}`).toString('base64url');
}

function decodeTransferCursor(cursor: string): string {
  const match = /^t:([A-Za-z0-9]{1,40})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match?.[1]) throw invalid('cursor', 'unknown');
  return match[1];
}

/** ListTransfers and GetTransferHistory: the operators' and the merchant dashboard's reads. */
export function createTransferListing(deps: { db: Kysely<Database> }) {
  const { db } = deps;
  return {
    async list(request: TransferListRequest): Promise<{ transfers: TransferRow[]; nextCursor: string }> {
      const limit = request.limit === 0 ? DEFAULT_LIMIT : request.limit;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
        throw invalid('limit', 'must be 1..200');
      if (request.status && !VISIBLE.includes(request.status)) throw invalid('status', 'unknown');
      const search = request.query.trim();
      if (search.length > MAX_SEARCH) throw invalid('query', `at most ${MAX_SEARCH} characters`);
      const page = await listTransfers(db, {
        mchNo: request.mchNo || undefined,
        search: search || undefined,
        status: (request.status || undefined) as TransferStatus | undefined,
        from: instant(request.createdFrom, 'createdFrom'),
        to: instant(request.createdTo, 'createdTo'),
        limit,
        afterTransferNo: request.cursor ? decodeTransferCursor(request.cursor) : undefined,
      });
      return {
        transfers: page.transfers,
        nextCursor: page.lastTransferNo ? encodeTransferCursor(page.lastTransferNo) : '',
      };
    },

    async history(transferNo: string, mchNo: string): Promise<TransferHistory> {
      const transfer = transferNo ? await findTransferByNo(db, transferNo) : undefined;
      if (!transfer || transfer.status === 'submitting' || (mchNo && transfer.mch_no !== mchNo)) {
        throw new AppError('TRANSFER_NOT_FOUND');
      }
      const rows = await transferHistoryOf(db, transfer.transfer_no);
      const changes: TransferStatusChange[] = rows.map((row) => ({
        from: row.from_status,
        to: row.to_status,
        version: Number(row.version),
        at: row.created_at,
      }));
      // Version counts the changes (0 while submitting); fewer rows: the transfer predates its history.
      const derived = changes.length < Number(transfer.version);
      if (derived) return { transfer, changes: derivedChanges(transfer), derived };
      return { transfer, changes, derived };
    },
  };
}

/** What a transfer's own times say: it left `submitting` at creation and finished at finish_time. */
function derivedChanges(transfer: TransferRow): TransferStatusChange[] {
  const changes: TransferStatusChange[] = [];
  const finished = transfer.status !== 'progress';
  changes.push({
    from: 'submitting',
    to: finished && transfer.status === 'fail' && !transfer.finish_time ? 'fail' : 'progress',
    version: 1,
    at: transfer.created_at,
  });
  if (finished && transfer.status !== changes[0]?.to) {
    changes.push({
      from: 'progress',
      to: transfer.status,
      version: Number(transfer.version),
      at: transfer.finish_time ?? transfer.updated_at,
    });
  }
  return changes;
}

export type TransferListing = ReturnType<typeof createTransferListing>;
