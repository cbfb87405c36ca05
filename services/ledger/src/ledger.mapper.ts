import type {
  Discrepancy,
  LedgerRecord,
  MerchantBalance,
  MerchantSettlement,
  ReconciliationRun,
  SettlementRun,
} from '@agentpay/proto';
import { AppError } from '@agentpay/wire';
import type { DiscrepancyRow, EntryRow, ReconRunRow, SettlementRunRow } from './db/schema.js';
import type { MerchantSettlementRow, Parts } from './ledger/statement.repository.js';

// The one mapping between the LedgerService proto and the ledger's domain: request fields to use-case
// input (the wire's integers and instants parsed), rows and results to proto messages.

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
    resolution_approval_id: row.resolution_approval_id,
  };
}

/** A reconciliation run as the proto carries it (counts as int64 strings). */
export function toReconciliationRun(row: ReconRunRow): ReconciliationRun {
  return {
    id: String(row.id),
    route_id: row.route_id,
    day: row.day,
    status: row.status,
    started_at: row.started_at.toISOString(),
    finished_at: row.finished_at ? row.finished_at.toISOString() : '',
    lines: String(row.lines),
    matched: String(row.matched),
    pending: String(row.pending),
    discrepancies: String(row.discrepancies),
    returned: String(row.returned),
    error: row.error ?? '',
  };
}

/** A settlement run as the proto carries it (instants as RFC 3339 text). */
export function toSettlementRun(row: SettlementRunRow): SettlementRun {
  return {
    id: String(row.id),
    trigger: row.trigger,
    until: row.until.toISOString(),
    started_at: row.started_at.toISOString(),
    finished_at: row.finished_at.toISOString(),
    settled: row.settled,
    status: row.status,
    error: row.error,
  };
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

/** An int64 field (centavos) as a safe integer. */
export function centavos(value: string | number, field: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new AppError('INVALID_PARAMETER', `${field} (must be an integer)`);
  return n;
}

/** An RFC 3339 field as a Date. */
export function instant(text: string, field: string): Date {
  const date = new Date(text);
  if (!text || Number.isNaN(date.getTime()))
    throw new AppError('INVALID_PARAMETER', `${field} (must be an instant)`);
  return date;
}

/** A merchant's three parts as the proto carries them (int64 strings). */
export function toMerchantBalance(mchNo: string, parts: Parts): MerchantBalance {
  return {
    mch_no: mchNo,
    available: String(parts.available),
    pending: String(parts.pending),
    frozen: String(parts.frozen),
  };
}

/** A merchant's last settlement (ListSettlements); a merchant never settled has empty fields. */
export function toMerchantSettlement(row: MerchantSettlementRow): MerchantSettlement {
  return {
    mch_no: row.mch_no,
    last_settled_at: row.last_settled_at ? row.last_settled_at.toISOString() : '',
    last_order_no: row.last_order_no ?? '',
    last_amount: String(row.last_amount ?? 0),
    pending: String(row.pending),
    available: String(row.available),
  };
}
