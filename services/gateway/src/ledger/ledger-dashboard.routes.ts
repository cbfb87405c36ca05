import type { FastifyInstance, FastifyReply, FastifyRequest } from '@agentpay/http';
import { call, type LedgerServiceClient } from '@agentpay/proto';
import { type Actor, PeopleError } from '../identity/index.js';
import { balanceView } from './ledger.views.js';
import {
  parsePeriod,
  sendStatementCsv,
  statementCsvQuery,
  statementPage,
  statementQuery,
  statementRefusal,
} from './statement.js';

// The merchant dashboard's balance and statement (docs/console.md "Dashboard API"): the same views as the
// console's, always of the signed-in person's own merchant (the session's scope; no mchNo is read from
// the request).

export interface LedgerDashboardDeps {
  client: LedgerServiceClient;
  timeoutMs: number;
  timeZone: string;
}

/** The signed-in person's merchant; the authorisation hook lets only a merchant's people through here. */
function merchantOf(request: FastifyRequest): string {
  const scope = (request.actor as Actor | undefined)?.scope;
  if (scope?.kind !== 'merchant') throw new PeopleError('forbidden', 'not a merchant person');
  return scope.mchNo;
}

export function registerLedgerDashboard(dash: FastifyInstance, deps: LedgerDashboardDeps): void {
  const { client, timeZone } = deps;
  const options = { timeoutMs: deps.timeoutMs };
  const refuse = (reply: FastifyReply, err: unknown) => {
    const refusal = statementRefusal(err);
    return reply.code(refusal.status).send(refusal.body);
  };
  const badRequest = (reply: FastifyReply, message: string) =>
    reply.code(400).send({ error: 'bad_request', message });

  dash.get('/dashboard/api/balance', async (request, reply) => {
    const mchNo = merchantOf(request);
    try {
      return balanceView(await call(client, client.GetBalance, { mch_no: mchNo }, options));
    } catch (err) {
      return refuse(reply, err);
    }
  });

  dash.get('/dashboard/api/statement', async (request, reply) => {
    const mchNo = merchantOf(request);
    const parsed = parsePeriod(statementQuery, request.query, timeZone);
    if (!parsed.ok) return badRequest(reply, parsed.message);
    try {
      return await statementPage({ client, timeZone }, mchNo, parsed.query, parsed.period, options);
    } catch (err) {
      return refuse(reply, err);
    }
  });

  dash.get('/dashboard/api/statement.csv', async (request, reply) => {
    const mchNo = merchantOf(request);
    const parsed = parsePeriod(statementCsvQuery, request.query, timeZone);
    if (!parsed.ok) return badRequest(reply, parsed.message);
    try {
      return await sendStatementCsv(reply, { client, timeZone }, mchNo, parsed.period, options);
    } catch (err) {
      return refuse(reply, err);
    }
  });
}
