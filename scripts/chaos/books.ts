// The books after a run: the ledger's own check of its invariants (postings that sum to zero, balances
// that match their postings, holds that match their freezes), asked of every ledger replica.
import { CLIENT_OPTIONS, call, loadProtos } from '@agentpay/proto';
import { SERVICES, type Stack } from '@agentpay/stack';
import * as grpc from '@grpc/grpc-js';
import { errorText } from './client.js';

/** Violations of the ledger's invariants; none when the stack runs no ledger. */
export async function checkBooks(stack: Pick<Stack, 'replicaPorts'>): Promise<string[]> {
  if (!(SERVICES as readonly string[]).includes('ledger')) return [];
  const protos = loadProtos();
  const out: string[] = [];
  for (const [replica, ports] of stack.replicaPorts.entries()) {
    const client = new protos.agentpay.ledger.v1.LedgerService(
      `127.0.0.1:${ports.ledger}`,
      grpc.credentials.createInsecure(),
      CLIENT_OPTIONS,
    );
    try {
      const report = await call(client, client.Check, {}, { timeoutMs: 60_000 });
      if (!report.ok || report.problems.length > 0)
        out.push(`ledger#${replica}: ${report.problems.join('; ') || 'not ok'}`);
    } catch (err) {
      out.push(`ledger#${replica} check failed: ${errorText(err)}`);
    } finally {
      client.close();
    }
  }
  return out;
}
