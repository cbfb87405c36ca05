import { CLIENT_OPTIONS, call, loadProtos } from '@agentpay/proto';
import * as grpc from '@grpc/grpc-js';
import { type IncomingDeposit, UpstreamUnavailableError } from '../adapters/channel-adapter.js';

/** What screening says of a deposit's payer: `blocked` (a blocked-list hit) is returned, the rest accepted. */
export type PayerVerdict = 'clear' | 'review' | 'blocked';

/**
 * The screening of deposits' payers (docs/compliance.md): compliance screens, and opens a case for any match,
 * once per deposit. Rejects with UpstreamUnavailableError when compliance cannot answer, so the channel is
 * told to ask again (STP: 503) and nothing is booked unscreened.
 */
export interface PayerScreening {
  screen(routeId: string, deposit: IncomingDeposit): Promise<PayerVerdict>;
  close(): void;
}

/** A gRPC client of compliance at `address` (host:port, or a list). */
export function connectCompliance(address: string, timeoutMs: number): PayerScreening {
  const protos = loadProtos();
  const client = new protos.agentpay.compliance.v1.ComplianceService(
    address,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
  return {
    async screen(routeId, deposit) {
      const rfcCurp = (deposit.senderRfcCurp ?? '').trim().toUpperCase();
      let answer: { outcome: string; hold: boolean };
      try {
        answer = await call(
          client,
          client.Screen,
          {
            operation_kind: 'deposit',
            // One case per deposit: its tracking key on the route (the channel's id when it has none).
            operation_ref: `${routeId}:${deposit.claveRastreo || deposit.depositId}`,
            mch_no: '',
            amount: String(deposit.amount),
            name: deposit.senderName,
            // An RFC has 12 or 13 characters, a CURP 18.
            rfc: rfcCurp.length === 18 ? '' : rfcCurp,
            curp: rfcCurp.length === 18 ? rfcCurp : '',
            account: deposit.senderAccount,
            bank: '',
            clave_rastreo: deposit.claveRastreo,
            open_case: true,
          },
          { timeoutMs },
        );
      } catch (err) {
        throw new UpstreamUnavailableError('screening unavailable', { cause: err });
      }
      if (answer.outcome === 'clear') return 'clear';
      return answer.hold ? 'blocked' : 'review';
    },
    close: () => client.close(),
  };
}
