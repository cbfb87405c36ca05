import type { FastifyInstance, FastifyReply } from '@agentpay/http';
import { call, type LedgerServiceClient } from '@agentpay/proto';
import { centavosToAmount } from '@agentpay/wire';
import { z } from 'zod';
import { adminCall, originOfRequest } from '../approvals/index.js';
import { MerchantAdminError, type MerchantService } from '../merchants/index.js';
import { schemaProblem } from '../shared/schema-problem.js';
import {
  parsePeriod,
  sendStatementCsv,
  statementCsvQuery,
  statementPage,
  statementQuery,
  statementRefusal,
} from './statement.js';

// The console's ledger pages (docs/console.md "Ledger"): a merchant's statement of a period, paged or as a
// streamed CSV, each merchant's last settlement, and the settlement runs the ledger recorded. Reads only;
// the balance, adjustments, a settlement run and the check are ledger-admin.ts's.

const mchNo = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only');

const settlementsQuery = z.strictObject({
  /** The `next` of the page before. */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export interface LedgerStatementsAdminDeps {
  client: LedgerServiceClient;
  merchants: MerchantService;
  timeoutMs: number;
  timeZone: string;
}

const pesos = (centavos: string) => centavosToAmount(Number(centavos));

export function registerLedgerStatementsAdmin(app: FastifyInstance, deps: LedgerStatementsAdminDeps): void {
  const { client, timeZone } = deps;
  const refuse = (reply: FastifyReply, err: unknown) => {
    const refusal = statementRefusal(err);
    return reply.code(refusal.status).send(refusal.body);
  };
  const badRequest = (reply: FastifyReply, message: string) =>
    reply.code(400).send({ error: 'bad_request', message });

  /** Answers 400 or 404 and returns false when the path's merchant is malformed or unknown. */
  const knownMerchant = async (reply: FastifyReply, number: string): Promise<boolean> => {
    if (!mchNo.safeParse(number).success) {
      await badRequest(reply, 'mchNo: letters, digits, _ and - only');
      return false;
    }
    try {
      await deps.merchants.get(number);
      return true;
    } catch (err) {
      if (err instanceof MerchantAdminError && err.kind === 'not_found') {
        await reply.code(404).send({ error: 'not_found', message: err.message });
        return false;
      }
      throw err;
    }
  };

  type Merchant = { Params: { mchNo: string } };

  app.get<Merchant>('/admin/merchants/:mchNo/statement', async (request, reply) => {
    const parsed = parsePeriod(statementQuery, request.query, timeZone);
    if (!parsed.ok) return badRequest(reply, parsed.message);
    if (!(await knownMerchant(reply, request.params.mchNo))) return reply;
    try {
      return await statementPage(
        { client, timeZone },
        request.params.mchNo,
        parsed.query,
        parsed.period,
        adminCall(originOfRequest(request), deps.timeoutMs),
      );
    } catch (err) {
      return refuse(reply, err);
    }
  });

  app.get<Merchant>('/admin/merchants/:mchNo/statement.csv', async (request, reply) => {
    const parsed = parsePeriod(statementCsvQuery, request.query, timeZone);
    if (!parsed.ok) return badRequest(reply, parsed.message);
    if (!(await knownMerchant(reply, request.params.mchNo))) return reply;
    try {
      return await sendStatementCsv(
        reply,
        { client, timeZone },
        request.params.mchNo,
        parsed.period,
        adminCall(originOfRequest(request), deps.timeoutMs),
      );
    } catch (err) {
      return refuse(reply, err);
    }
  });

  app.get('/admin/settlements', async (request, reply) => {
    const query = settlementsQuery.safeParse(request.query ?? {});
    if (!query.success) return badRequest(reply, schemaProblem(query.error));
    try {
      const page = await call(
        client,
        client.ListSettlements,
        { limit: query.data.limit, after: query.data.cursor ?? '' },
        adminCall(originOfRequest(request), deps.timeoutMs),
      );
      return {
        items: page.items.map((m) => ({
          mchNo: m.mch_no,
          available: pesos(m.available),
          pending: pesos(m.pending),
          ...(m.last_settled_at && {
            lastSettlement: {
              at: m.last_settled_at,
              orderNo: m.last_order_no,
              amount: pesos(m.last_amount),
            },
          }),
        })),
        ...(page.next_after && { next: page.next_after }),
      };
    } catch (err) {
      return refuse(reply, err);
    }
  });

  app.get('/admin/settlements/runs', async (request, reply) => {
    const query = settlementsQuery.safeParse(request.query ?? {});
    if (!query.success) return badRequest(reply, schemaProblem(query.error));
    try {
      const page = await call(
        client,
        client.ListSettlementRuns,
        { limit: query.data.limit, after: query.data.cursor ?? '' },
        adminCall(originOfRequest(request), deps.timeoutMs),
      );
      return {
        items: page.items.map((run) => ({
          id: run.id,
          trigger: run.trigger,
          until: run.until,
          startedAt: run.started_at,
          finishedAt: run.finished_at,
          settled: run.settled,
          status: run.status,
          ...(run.error && { error: run.error }),
        })),
        ...(page.next_after && { next: page.next_after }),
      };
    } catch (err) {
      return refuse(reply, err);
    }
  });
}
