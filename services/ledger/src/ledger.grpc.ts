import type { Logger } from '@agentpay/logger';
import {
  APP_CODE_METADATA,
  type Discrepancy,
  type LedgerRecord,
  type LedgerServiceHandlers,
  toServiceError,
  unary,
} from '@agentpay/proto';
import { AppError } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import type { Kysely } from 'kysely';
import type { Database, DiscrepancyRow, EntryRow } from './db/schema.js';
import { type CheckReport, type CrossCheck, checkLedger } from './ledger/check.repository.js';
import { isLedgerError, LedgerError, type LedgerErrorCode } from './ledger/ledger.errors.js';
import type { LedgerService } from './ledger/ledger.service.js';
import { decodeCursor, listRecords } from './ledger/records.repository.js';
import {
  DISCREPANCY_KINDS,
  DISCREPANCY_STATES,
  getDiscrepancy,
  listDiscrepancies,
} from './reconciliation/discrepancies.repository.js';
import type { Reconciliation } from './reconciliation/reconciliation.service.js';
import type { Resolutions } from './reconciliation/resolutions.js';
import type { Settlement } from './settlement/settlement.sweep.js';

/** docs/merchant-api.md "Balance and statement": a statement spans at most 31 days. */
const MAX_RECORDS_SPAN_MS = 31 * 24 * 60 * 60 * 1000;

/**
 * The one place ledger refusals become contract codes (INSUFFICIENT_BALANCE travels as 40006). The
 * reconciliation's NOT_FOUND and ALREADY_RESOLVED have no contract code (the admin API answers 404 and
 * 409): they travel as gRPC NOT_FOUND and FAILED_PRECONDITION with that name in `agentpay-code`.
 */
function toGrpcError(err: LedgerError, logger: Logger): Partial<grpc.ServiceError> {
  const code: LedgerErrorCode = err.code;
  const plain = (status: grpc.status) => {
    const metadata = new grpc.Metadata();
    metadata.set(APP_CODE_METADATA, code);
    return { code: status, details: err.detail ?? err.message, metadata };
  };
  switch (code) {
    case 'NOT_FOUND':
      return plain(grpc.status.NOT_FOUND);
    case 'ALREADY_RESOLVED':
      return plain(grpc.status.FAILED_PRECONDITION);
    case 'ACTION_NOT_ALLOWED':
      return toServiceError(new AppError('INVALID_PARAMETER', err.detail ?? err.message), logger);
    case 'INSUFFICIENT_BALANCE':
    case 'FREEZE_VOIDED':
    case 'KEY_CONFLICT':
    case 'INVALID_REQUEST':
      return toServiceError(toAppError(err, code), logger);
    default: {
      const unreachable: never = code;
      return unreachable;
    }
  }
}

/** The refusals that have a contract code. */
function toAppError(
  err: LedgerError,
  code: 'INSUFFICIENT_BALANCE' | 'FREEZE_VOIDED' | 'KEY_CONFLICT' | 'INVALID_REQUEST',
): AppError {
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
    if (!isLedgerError(err)) throw err;
    switch (err.code) {
      case 'INSUFFICIENT_BALANCE':
      case 'FREEZE_VOIDED':
      case 'KEY_CONFLICT':
      case 'INVALID_REQUEST':
        throw toAppError(err, err.code);
      default:
        throw err;
    }
  }
}

/** A unary handler whose ledger refusals are mapped by toGrpcError (the reconciliation's calls). */
function ledgerUnary<Req, Res>(
  logger: Logger,
  handler: (request: Req) => Promise<Res>,
): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    handler(call.request).then(
      (response) => callback(null, response),
      (err: unknown) => callback(isLedgerError(err) ? toGrpcError(err, logger) : toServiceError(err, logger)),
    );
  };
}

/** A discrepancy as the proto carries it (sides as JSON text, amounts in centavos). */
export function toDiscrepancy(row: DiscrepancyRow): Discrepancy {
  return {
    id: String(row.id),
    kind: row.kind,
    route_id: row.route_id,
    day: row.day,
    amount: String(row.amount),
    platform_json: row.platform == null ? '' : JSON.stringify(row.platform),
    channel_json: row.channel == null ? '' : JSON.stringify(row.channel),
    state: row.state,
    created_at: row.created_at.toISOString(),
    resolution_action: row.resolution_action,
    resolution_operator: row.resolution_operator,
    resolution_reason: row.resolution_reason,
    resolved_at: row.resolved_at ? row.resolved_at.toISOString() : '',
    resolution_ref: row.resolution_ref,
    resolution_status: row.resolution_status,
    mch_no: row.mch_no,
    order_no: row.order_no,
    transfer_no: row.transfer_no,
  };
}

function cursorId(text: string): number {
  if (!/^\d{1,15}$/.test(text)) throw new AppError('INVALID_PARAMETER', 'after_id (unknown)');
  return Number(text);
}

/** A discrepancy id; anything that is not one names no discrepancy (NOT_FOUND, as an unknown number does). */
function discrepancyId(text: string): number {
  const id = /^\d{1,15}$/.test(text) ? Number(text) : 0;
  if (id < 1) throw new LedgerError('NOT_FOUND', `discrepancy ${text}`);
  return id;
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
  reconciliation: Reconciliation;
  resolutions: Resolutions;
  crossChecks?: readonly CrossCheck[];
}): LedgerServiceHandlers {
  const { db, logger, ledger, settlement, reconciliation, resolutions } = deps;
  return {
    RunReconciliation: ledgerUnary(logger, async (request) => {
      const result = await reconciliation.run(request.day, request.route_id);
      return {
        day: result.day,
        routes: result.routes.map((r) => ({
          route_id: r.routeId,
          lines: String(r.lines),
          matched: String(r.matched),
          pending: String(r.pending),
          discrepancies: String(r.discrepancies),
        })),
      };
    }),
    ListDiscrepancies: ledgerUnary(logger, async (request) => {
      if (request.state && !(DISCREPANCY_STATES as readonly string[]).includes(request.state)) {
        throw new AppError('INVALID_PARAMETER', 'state (open or resolved)');
      }
      if (request.kind && !(DISCREPANCY_KINDS as readonly string[]).includes(request.kind)) {
        throw new AppError('INVALID_PARAMETER', `kind (one of ${DISCREPANCY_KINDS.join(', ')})`);
      }
      if (request.day && !/^\d{4}-\d{2}-\d{2}$/.test(request.day)) {
        throw new AppError('INVALID_PARAMETER', 'day (yyyy-MM-dd)');
      }
      const limit = request.limit === 0 ? 100 : request.limit;
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
        throw new AppError('INVALID_PARAMETER', 'limit (must be 1..500)');
      }
      const page = await listDiscrepancies(db, {
        limit,
        ...(request.state && { state: request.state }),
        ...(request.kind && { kind: request.kind }),
        ...(request.day && { day: request.day }),
        ...(request.after_id && { afterId: cursorId(request.after_id) }),
      });
      return {
        items: page.items.map(toDiscrepancy),
        next_after_id: page.next === null ? '' : String(page.next),
      };
    }),
    GetDiscrepancy: ledgerUnary(logger, async (request) => {
      const row = await getDiscrepancy(db, discrepancyId(request.id));
      if (!row) throw new LedgerError('NOT_FOUND', `discrepancy ${request.id}`);
      return toDiscrepancy(row);
    }),
    ResolveDiscrepancy: ledgerUnary(logger, async (request) => {
      // The action is judged before the id: a malformed request is INVALID_ARGUMENT whatever it names.
      const row = await resolutions.resolve({
        id: request.id,
        action: request.action,
        reason: request.reason,
        operator: request.operator,
        ...(request.mch_no && { mchNo: request.mch_no }),
      });
      return toDiscrepancy(row);
    }),
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
