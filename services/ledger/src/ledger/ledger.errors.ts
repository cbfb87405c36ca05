/** The ledger's refusals, by code; the gRPC boundary (ledger.grpc.ts) maps each to a contract code once. */
export const LedgerErrorCodes = {
  /** available does not cover a freeze's amount + fee or an adjustment's debit. */
  INSUFFICIENT_BALANCE: 'available balance does not cover it',
  /** A freeze would pass one of the merchant's payout limits (the detail names it: `payout.daily`). */
  LIMIT_EXCEEDED: 'limit exceeded',
  /** VoidFreeze tombstoned this transfer_no: its transfer was never created and may not be now. */
  FREEZE_VOIDED: 'the transfer was voided',
  /** The same key was booked before with different figures. */
  KEY_CONFLICT: 'already booked with different figures',
  /** A malformed request (the detail names the field). */
  INVALID_REQUEST: 'invalid request',
  /** No discrepancy with this id. */
  NOT_FOUND: 'no such discrepancy',
  /** The discrepancy was resolved before (by another operator, or a repeat). */
  ALREADY_RESOLVED: 'the discrepancy is resolved already',
  /** The resolution does not fit the discrepancy's kind (apply, credit, return). */
  ACTION_NOT_ALLOWED: 'this action does not resolve this kind of discrepancy',
} as const;

export type LedgerErrorCode = keyof typeof LedgerErrorCodes;

export class LedgerError extends Error {
  override name = 'LedgerError';
  constructor(
    readonly code: LedgerErrorCode,
    readonly detail?: string,
  ) {
    super(detail ? `${LedgerErrorCodes[code]}: ${detail}` : LedgerErrorCodes[code]);
  }
}

export function isLedgerError(err: unknown): err is LedgerError {
  return err instanceof LedgerError;
}
