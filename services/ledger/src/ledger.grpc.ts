import type { Logger } from '@agentpay/logger';
import { type LedgerRecord, type LedgerServiceHandlers, unary } from '@agentpay/proto';
import { AppError } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import type { Kysely } from 'kysely';
import type { Database, EntryRow } from './db/schema.js';
import { type CheckReport, type CrossCheck, checkLedger } from './ledger/check.repository.js';
import { isLedgerError, type LedgerError, type LedgerErrorCode } from './ledger/ledger.errors.js';
import type { LedgerService } from './ledger/ledger.service.js';
import { decodeCursor, listRecords } from './ledger/records.repository.js';
import type { Settlement } from './settlement/settlement.sweep.js';

/** docs/merchant-api.md "Balance and statement": a statement spans at most 31 days. */
const MAX_RECORDS_SPAN_MS = 31 * 24 * 60 * 60 * 1000;

/** The one place ledger refusals become contract codes (INSUFFICIENT_BALANCE travels as 40006). */
function toAppError(err: LedgerError): AppError {
  const code: LedgerErrorCode = err.code;
  switch (code) {
    case 'INSUFFICIENT_BALANCE':
      return new AppError('INSUFFICIENT_BALANCE');
    case 'FREEZE_VOIDED':
      return new AppError('DUPLICATE_TRANSFER', err.message);
    case 'KEY_CONFLICT':
      return new AppError('DUPLICATE_TRANSFER', err.detail ?? err.message);
    case 'INVALID_REQUEST':
      return new AppError('INVALID_PARAMETER', err.detail ?? err.message);
    default: {
      const unreachable: never = code;
      return unreachable;
    }
  }
}

/** Runs a use case, mapping its typed refusals once. */
async function mapped<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw isLedgerError(err) ? toAppError(err) : err;
  }
}

/** The merchant-facing record of an entry (proto LedgerRecord). */
export function toLedgerRecord(entry: EntryRow): LedgerRecord {
  return {
    record_no: String(entry.id),
    type: entry.type,
    order_no: entry.order_no ?? '',
    biz_order_no: entry.biz_order_no ?? '',
    transfer_no: entry.transfer_no ?? '',
    biz_transfer_no: entry.biz_transfer_no ?? '',
    amount: String(entry.amount),
    fee: String(entry.fee),
    available_change: String(entry.available_change),
    pending_change: String(entry.pending_change),
    frozen_change: String(entry.frozen_change),
    available_balance: String(entry.available_after),
    pending_balance: String(entry.pending_after),
    frozen_balance: String(entry.frozen_after),
    remark: entry.remark,
    create_time: entry.created_at.toISOString(),
  };
}

function centavos(value: string | number, field: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new AppError('INVALID_PARAMETER', `${field} (must be an integer)`);
  return n;
}

function instant(text: string, field: string): Date {
  const date = new Date(text);
  if (!text || Number.isNaN(date.getTime()))
    throw new AppError('INVALID_PARAMETER', `${field} (must be an instant)`);
  return date;
}

/** The LedgerService gRPC service. */
export function ledgerHandlers(deps: {
  db: Kysely<Database>;
  logger: Logger;
  ledger: LedgerService;
  settlement: Settlement;
  crossChecks?: readonly CrossCheck[];
}): LedgerServiceHandlers {
  const { db, logger, ledger, settlement } = deps;
  return {
    // Reconciliation (CONTRACT.md section 14) is being built; until it lands these answer UNIMPLEMENTED.
    RunReconciliation: notYet,
    ListDiscrepancies: notYet,
    GetDiscrepancy: notYet,
    ResolveDiscrepancy: notYet,
    Freeze: unary(logger, async (request) => {
      const { entry, created } = await mapped(() =>
        ledger.freeze({
          mchNo: request.mch_no,
          transferNo: request.transfer_no,
          bizTransferNo: request.biz_transfer_no,
          amount: centavos(request.amount, 'amount'),
          fee: centavos(request.fee, 'fee'),
        }),
      );
      return { record: toLedgerRecord(entry), created };
    }),
    VoidFreeze: unary(logger, async (request) => {
      const { released, holdStatus } = await mapped(() =>
        ledger.voidFreeze(request.mch_no, request.transfer_no),
      );
      return { released, hold_status: holdStatus };
    }),
    GetBalance: unary(logger, async (request) => {
      if (!request.mch_no) throw new AppError('INVALID_PARAMETER', 'mch_no (required)');
      const balance = await ledger.balance(request.mch_no);
      return {
        mch_no: request.mch_no,
        available: String(balance.available),
        pending: String(balance.pending),
        frozen: String(balance.frozen),
      };
    }),
    ListRecords: unary(logger, async (request) => {
      if (!request.mch_no) throw new AppError('INVALID_PARAMETER', 'mch_no (required)');
      const start = instant(request.start_time, 'startTime');
      const end = instant(request.end_time, 'endTime');
      if (start >= end) throw new AppError('INVALID_PARAMETER', 'startTime (must be before endTime)');
      if (end.getTime() - start.getTime() > MAX_RECORDS_SPAN_MS) {
        throw new AppError('INVALID_PARAMETER', 'endTime (at most 31 days after startTime)');
      }
      const limit = request.limit === 0 ? 100 : request.limit;
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
        throw new AppError('INVALID_PARAMETER', 'limit (must be 1..500)');
      }
      const afterId = request.cursor ? decodeCursor(request.cursor) : null;
      if (request.cursor && afterId === null) throw new AppError('INVALID_PARAMETER', 'cursor (unknown)');
      const page = await listRecords(db, { mchNo: request.mch_no, start, end, limit, afterId });
      return { records: page.records.map(toLedgerRecord), next_cursor: page.nextCursor ?? '' };
    }),
    Adjust: unary(logger, async (request) => {
      const { entry, created } = await mapped(() =>
        ledger.adjust({
          mchNo: request.mch_no,
          amount: centavos(request.amount, 'amount'),
          reason: request.reason,
          reference: request.reference,
        }),
      );
      return { record: toLedgerRecord(entry), created };
    }),
    RunSettlement: unary(logger, async (request) => {
      const until = request.until ? instant(request.until, 'until') : new Date();
      return { settled: await settlement.settleDue(until) };
    }),
    Check: unary(logger, async () => {
      const report: CheckReport = await checkLedger(db, deps.crossChecks);
      return {
        ok: report.ok,
        entries: String(report.entries),
        accounts: String(report.accounts),
        problems: report.problems,
      };
    }),
  };
}

function notYet(_call: unknown, callback: (err: Partial<grpc.ServiceError>) => void): void {
  callback({ code: grpc.status.UNIMPLEMENTED, details: 'reconciliation is not built yet' });
}
