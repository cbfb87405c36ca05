import { payoutLimitsFromProto } from '@agentpay/api';
import type { Logger } from '@agentpay/logger';
import {
  APP_CODE_METADATA,
  type LedgerServiceHandlers,
  originOf,
  toServiceError,
  unary,
} from '@agentpay/proto';
import { AppError } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { isLedgerError, type LedgerError, type LedgerErrorCode } from './ledger/ledger.errors.js';
import type { BookingOrigin, LedgerService } from './ledger/ledger.service.js';
import type { LedgerQueries } from './ledger/ledger-queries.service.js';
import type { OrderEntries } from './ledger/order-entries.service.js';
import {
  centavos,
  instant,
  toDiscrepancy,
  toLedgerRecord,
  toMerchantBalance,
  toMerchantSettlement,
  toReconciliationRun,
  toSettlementRun,
} from './ledger.mapper.js';
import type { DiscrepancyQueries } from './reconciliation/discrepancies.service.js';
import type { Reconciliation } from './reconciliation/reconciliation.service.js';
import type { Resolutions } from './reconciliation/resolutions.js';
import type { Settlement } from './settlement/settlement.sweep.js';

// The LedgerService's handlers: each maps its request (ledger.mapper.ts), calls one use case, maps the
// result back, and its refusals to a status once (below). No handler reads the database.

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
    case 'LIMIT_EXCEEDED':
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
  code: 'INSUFFICIENT_BALANCE' | 'LIMIT_EXCEEDED' | 'FREEZE_VOIDED' | 'KEY_CONFLICT' | 'INVALID_REQUEST',
): AppError {
  switch (code) {
    case 'INSUFFICIENT_BALANCE':
      return new AppError('INSUFFICIENT_BALANCE');
    case 'LIMIT_EXCEEDED':
      // The limit's name (payout.daily) is the merchant's to read: 40008 "limit exceeded: payout.daily".
      return new AppError('PAYOUT_LIMIT_EXCEEDED', err.detail);
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
      case 'LIMIT_EXCEEDED':
      case 'FREEZE_VOIDED':
      case 'KEY_CONFLICT':
      case 'INVALID_REQUEST':
        throw toAppError(err, err.code);
      default:
        throw err;
    }
  }
}

/** The operator an admin call names (x-agentpay-actor, x-agentpay-approval), if it names one. */
function bookingOrigin(metadata: grpc.Metadata): BookingOrigin | undefined {
  const origin = originOf(metadata);
  return (
    origin && {
      actorId: origin.actor.id,
      actorLabel: origin.actor.label,
      approvalId: origin.approvalId ?? '',
    }
  );
}

/** A unary handler whose ledger refusals are mapped by toGrpcError (the reconciliation's calls). */
function ledgerUnary<Req, Res>(
  logger: Logger,
  handler: (request: Req, metadata: grpc.Metadata) => Promise<Res>,
): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    handler(call.request, call.metadata).then(
      (response) => callback(null, response),
      (err: unknown) => callback(isLedgerError(err) ? toGrpcError(err, logger) : toServiceError(err, logger)),
    );
  };
}

/** The LedgerService gRPC service. */
export function createLedgerHandlers(deps: {
  logger: Logger;
  ledger: LedgerService;
  queries: LedgerQueries;
  discrepancies: DiscrepancyQueries;
  settlement: Settlement;
  reconciliation: Reconciliation;
  resolutions: Resolutions;
  orderEntries: OrderEntries;
}): LedgerServiceHandlers {
  const { logger, ledger, queries, discrepancies, settlement, reconciliation, resolutions } = deps;
  return {
    RunReconciliation: ledgerUnary(logger, async (request) => {
      const result = await reconciliation.run(request.day, request.route_id);
      return {
        day: result.day,
        routes: result.routes.map((r) =>
          r.state === 'failed'
            ? { route_id: r.routeId, state: r.state, error: r.error }
            : {
                route_id: r.routeId,
                state: r.state,
                lines: String(r.lines),
                matched: String(r.matched),
                pending: String(r.pending),
                discrepancies: String(r.discrepancies),
                returned: String(r.returned),
              },
        ),
      };
    }),
    ListDiscrepancies: ledgerUnary(logger, async (request) => {
      const page = await discrepancies.list({
        state: request.state,
        kind: request.kind,
        day: request.day,
        limit: request.limit,
        afterId: request.after_id,
      });
      return {
        items: page.items.map(toDiscrepancy),
        next_after_id: page.next === null ? '' : String(page.next),
      };
    }),
    ListReconciliationRuns: ledgerUnary(logger, async (request) => {
      const page = await discrepancies.runs({
        day: request.day,
        routeId: request.route_id,
        limit: request.limit,
        beforeId: request.before_id,
      });
      return {
        items: page.items.map(toReconciliationRun),
        next_before_id: page.next === null ? '' : String(page.next),
      };
    }),
    GetDiscrepancy: ledgerUnary(logger, async (request) =>
      toDiscrepancy(await discrepancies.get(request.id)),
    ),
    ResolveDiscrepancy: ledgerUnary(logger, async (request, metadata) => {
      // The person the gateway names is the operator; the request's free-text field is read only from a
      // caller that names nobody (older than the metadata).
      const origin = bookingOrigin(metadata);
      // The action is judged before the id: a malformed request is INVALID_ARGUMENT whatever it names.
      const row = await resolutions.resolve({
        id: request.id,
        action: request.action,
        reason: request.reason,
        operator: origin?.actorLabel ?? request.operator,
        origin,
        ...(request.mch_no && { mchNo: request.mch_no }),
      });
      return toDiscrepancy(row);
    }),
    Freeze: unary(logger, async (request) => {
      const limits = payoutLimitsFromProto(request.limits);
      const { entry, created } = await mapped(() =>
        ledger.freeze({
          mchNo: request.mch_no,
          transferNo: request.transfer_no,
          bizTransferNo: request.biz_transfer_no,
          amount: centavos(request.amount, 'amount'),
          fee: centavos(request.fee, 'fee'),
          ...(limits && { limits }),
        }),
      );
      return { record: toLedgerRecord(entry), created };
    }),
    FreezeBatch: unary(logger, async (request) => {
      const limits = payoutLimitsFromProto(request.limits);
      const { created } = await mapped(() =>
        ledger.freezeBatch({
          mchNo: request.mch_no,
          items: request.items.map((item, i) => ({
            transferNo: item.transfer_no,
            bizTransferNo: item.biz_transfer_no,
            amount: centavos(item.amount, `items[${i}].amount`),
            fee: centavos(item.fee, `items[${i}].fee`),
          })),
          ...(limits && { limits }),
        }),
      );
      return { created };
    }),
    GetPayoutUsage: unary(logger, async (request) => {
      const usage = await mapped(() => ledger.usage(request.mch_no));
      return {
        day: usage.day,
        month: usage.month,
        payout_amount: String(usage.dayUsage.amount),
        payout_count: String(usage.dayUsage.count),
        month_amount: String(usage.monthUsage.amount),
      };
    }),
    VoidFreeze: unary(logger, async (request) => {
      const { released, holdStatus } = await mapped(() =>
        ledger.voidFreeze(request.mch_no, request.transfer_no),
      );
      return { released, hold_status: holdStatus };
    }),
    GetBalance: unary(logger, async (request) => {
      const balance = await mapped(() => queries.balance(request.mch_no));
      return {
        mch_no: request.mch_no,
        available: String(balance.available),
        pending: String(balance.pending),
        frozen: String(balance.frozen),
      };
    }),
    ListRecords: unary(logger, async (request) => {
      const page = await mapped(() =>
        queries.records({
          mchNo: request.mch_no,
          startTime: request.start_time,
          endTime: request.end_time,
          limit: request.limit,
          cursor: request.cursor,
        }),
      );
      return { records: page.records.map(toLedgerRecord), next_cursor: page.nextCursor ?? '' };
    }),
    ListOrderEntries: unary(logger, async (request) => {
      const entries = await mapped(() => deps.orderEntries.of(request.order_no, request.transfer_no));
      return { records: entries.map(toLedgerRecord), next_cursor: '' };
    }),
    Adjust: unary(logger, async (request, call) => {
      const { entry, created } = await mapped(() =>
        ledger.adjust({
          mchNo: request.mch_no,
          amount: centavos(request.amount, 'amount'),
          reason: request.reason,
          reference: request.reference,
          origin: bookingOrigin(call.metadata),
        }),
      );
      return { record: toLedgerRecord(entry), created };
    }),
    RunSettlement: unary(logger, async (request) => {
      const until = request.until ? instant(request.until, 'until') : undefined;
      return { settled: await settlement.settleDue(until, { trigger: 'operator' }) };
    }),
    Check: unary(logger, async () => {
      const report = await queries.check();
      return {
        ok: report.ok,
        entries: String(report.entries),
        accounts: String(report.accounts),
        problems: report.problems,
      };
    }),
    GetStatement: unary(logger, async (request) => {
      const page = await mapped(() =>
        queries.statement({
          mchNo: request.mch_no,
          startTime: request.start_time,
          endTime: request.end_time,
          limit: request.limit,
          cursor: request.cursor,
        }),
      );
      return {
        opening: toMerchantBalance(request.mch_no, page.opening),
        closing: toMerchantBalance(request.mch_no, page.closing),
        records: page.records.map(toLedgerRecord),
        next_cursor: page.nextCursor ?? '',
      };
    }),
    ListSettlements: unary(logger, async (request) => {
      const page = await mapped(() => queries.settlements({ limit: request.limit, after: request.after }));
      return { items: page.items.map(toMerchantSettlement), next_after: page.nextAfter ?? '' };
    }),
    ListSettlementRuns: ledgerUnary(logger, async (request) => {
      const page = await settlement.runs({ limit: request.limit, after: request.after });
      return {
        items: page.items.map(toSettlementRun),
        next_after: page.next === null ? '' : String(page.next),
      };
    }),
  };
}
