import { AppError, encodeListCursor, type ListRequest, readListRequest } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, TransferRow } from '../db/schema.js';
import { findTransferByNo } from './transfer.repository.js';
import { TRANSFER_STATUSES, type TransferStatus } from './transfer.state-machine.js';
import { listTransfers, transferHistoryOf } from './transfer-list.repository.js';

/** ListTransfers as asked: the wire's text, checked by readListRequest. */
export type TransferListRequest = ListRequest;

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

// A transfer still being submitted is not shown: it has no outcome a reader could act on yet.
const TRANSFER_LIST = {
  cursorKind: 't',
  statuses: TRANSFER_STATUSES.filter((s) => s !== 'submitting'),
};

/** ListTransfers and GetTransferHistory: the operators' and the merchant dashboard's reads. */
export function createTransferListing(deps: { db: Kysely<Database> }) {
  const { db } = deps;
  return {
    async list(request: TransferListRequest): Promise<{ transfers: TransferRow[]; nextCursor: string }> {
      const { after, status, ...page } = readListRequest(request, TRANSFER_LIST);
      const found = await listTransfers(db, {
        ...page,
        status: status as TransferStatus | undefined,
        afterTransferNo: after,
      });
      return {
        transfers: found.transfers,
        nextCursor: found.lastTransferNo
          ? encodeListCursor(TRANSFER_LIST.cursorKind, found.lastTransferNo)
          : '',
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
