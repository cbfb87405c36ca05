import { CLIENT_OPTIONS, call, loadProtos } from '@agentpay/proto';
import * as grpc from '@grpc/grpc-js';

/** A payout's payee as screening takes it (docs/compliance.md "Screening"). */
export interface PayeeToScreen {
  mchNo: string;
  transferNo: string;
  /** Centavos. */
  amount: number;
  name: string;
  account: string;
  bank: string;
}

/** A transfer's payee as screening takes it: the same for a single transfer and a batch item. */
export function payeeOf(row: {
  mch_no: string;
  transfer_no: string;
  amount: number;
  payee_name: string;
  payee_account: string;
  payee_code: string;
}): PayeeToScreen {
  return {
    mchNo: row.mch_no,
    transferNo: row.transfer_no,
    amount: row.amount,
    name: row.payee_name,
    account: row.payee_account,
    bank: row.payee_code,
  };
}

/** What screening answered: `hold` means the payout waits for a compliance person (its case is open). */
export interface ScreeningAnswer {
  outcome: 'clear' | 'hit' | 'review';
  hold: boolean;
  caseId: string;
}

/**
 * What transfers needs from compliance. Rejects with an AppError; SERVICE_UNAVAILABLE when it could not
 * answer in time, and then the transfer is not created (fail closed).
 */
export interface PayeeScreening {
  screen(payee: PayeeToScreen, options: { timeoutMs: number }): Promise<ScreeningAnswer>;
  close(): void;
}

/** A gRPC client of compliance at `address` (same forms as ROUTER_ADDR). */
export function connectCompliance(address: string): PayeeScreening {
  const protos = loadProtos();
  const client = new protos.agentpay.compliance.v1.ComplianceService(
    address,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
  return {
    async screen(payee, options) {
      const answer = await call(
        client,
        client.Screen,
        {
          operation_kind: 'payout',
          operation_ref: payee.transferNo,
          mch_no: payee.mchNo,
          amount: String(payee.amount),
          name: payee.name,
          account: payee.account,
          bank: payee.bank,
          open_case: true,
        },
        { timeoutMs: options.timeoutMs },
      );
      const outcome = answer.outcome === 'hit' || answer.outcome === 'review' ? answer.outcome : 'clear';
      return { outcome, hold: answer.hold, caseId: answer.case_id };
    },
    close: () => client.close(),
  };
}
