import { limitsView, type OwnLimits, onlyLowers } from '@agentpay/api';
import type { FastifyInstance, FastifyRequest } from '@agentpay/http';
import { call, type LedgerServiceClient } from '@agentpay/proto';
import { parseAmount } from '@agentpay/wire';
import { z } from 'zod';
import type { AdminOperation, HttpResult, OperationRegistry } from '../approvals/index.js';
import { MerchantAdminError, type MerchantService } from '../merchants/index.js';
import { schemaRefusal } from '../shared/schema-problem.js';
import { usageView } from './controls.views.js';

// The operators' limits of a merchant (CONTRACT section 19): read them in effect with the ledger's usage;
// set the merchant's own through four eyes. A change that only lowers limits may take effect at once: the
// caller says so with `lowerOnly: true` (the permission's four-eyes rule reads only the body), and the
// operation refuses it with 409 unless every limit really stays or goes down.

export interface LimitsAdminDeps {
  merchants: MerchantService;
  ledger: LedgerServiceClient;
  timeoutMs: number;
  operations: OperationRegistry;
}

const pesos = z
  .number()
  .positive()
  .transform((value, ctx) => {
    const parsed = parseAmount(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: 'pesos with at most 2 decimals' });
      return z.NEVER;
    }
    return parsed.centavos;
  });
const limitBody = z
  .object({
    limits: z
      .object({
        payout: z
          .object({
            perTransfer: pesos.nullable().optional(),
            daily: pesos.nullable().optional(),
            dailyCount: z.number().int().min(1).max(10_000_000).nullable().optional(),
            monthly: pesos.nullable().optional(),
          })
          .strict()
          .optional(),
        payin: z.object({ perOrder: pesos.nullable().optional() }).strict().optional(),
      })
      .strict(),
    lowerOnly: z.boolean().optional(),
  })
  .strict();

/** Whether a PUT of limits waits for a second person: unless it says it only lowers (then checked). */
export function limitsChangeNeedsFourEyes(request: Pick<FastifyRequest, 'body'>): boolean {
  const body = request.body as { lowerOnly?: unknown } | undefined;
  return body?.lowerOnly !== true;
}

interface LimitsPayload {
  mchNo: string;
  own: OwnLimits;
}

export function registerLimitsAdmin(app: FastifyInstance, deps: LimitsAdminDeps): void {
  const { merchants, ledger } = deps;
  const options = { timeoutMs: deps.timeoutMs };

  app.get<{ Params: { mchNo: string } }>('/admin/merchants/:mchNo/limits', async (request, reply) => {
    const { mchNo } = request.params;
    let limits: Awaited<ReturnType<MerchantService['limitsOf']>>;
    try {
      limits = await merchants.limitsOf(mchNo);
    } catch (err) {
      if (err instanceof MerchantAdminError)
        return reply.code(404).send({ error: err.kind, message: err.message });
      throw err;
    }
    const usage = await call(ledger, ledger.GetPayoutUsage, { mch_no: mchNo }, options);
    return { limits: limitsView(limits), usage: usageView(usage) };
  });

  const operation: AdminOperation<LimitsPayload> = {
    action: 'merchant.limits',
    method: 'PUT',
    url: '/admin/merchants/:mchNo/limits',
    async prepare(request) {
      const mchNo = (request.params as { mchNo: string }).mchNo;
      const body = limitBody.safeParse(request.body);
      if (!body.success) return schemaRefusal(body.error);
      let current: Awaited<ReturnType<MerchantService['limitsOf']>>;
      try {
        current = await merchants.limitsOf(mchNo);
      } catch (err) {
        if (!(err instanceof MerchantAdminError)) throw err;
        return { ok: false, refusal: { status: 404, body: { error: err.kind, message: err.message } } };
      }
      const own = body.data.limits as OwnLimits;
      if (body.data.lowerOnly && !onlyLowers(current, merchants.resolve(own))) {
        return {
          ok: false,
          refusal: {
            status: 409,
            body: { error: 'conflict', message: 'lowerOnly: this change raises or removes a limit' },
          },
        };
      }
      return {
        ok: true,
        payload: { mchNo, own },
        summary: `set the limits of merchant ${mchNo} to ${JSON.stringify(limitsView(merchants.resolve(own)))}`,
        target: `merchant:${mchNo}`,
      };
    },
    async perform(payload, context) {
      const done: HttpResult = { status: 200, body: { mchNo: payload.mchNo, changed: ['limits'] } };
      try {
        await merchants.update(
          payload.mchNo,
          { limits: payload.own },
          { also: context.markExecuted && ((trx) => context.markExecuted?.(trx, done) ?? Promise.resolve()) },
        );
      } catch (err) {
        if (!(err instanceof MerchantAdminError)) throw err;
        return {
          status: err.kind === 'not_found' ? 404 : 400,
          body: { error: err.kind, message: err.message },
        };
      }
      return { status: 200, body: { limits: limitsView(await merchants.limitsOf(payload.mchNo)) } };
    },
  };
  deps.operations.add(operation);

  app.put<{ Params: { mchNo: string } }>('/admin/merchants/:mchNo/limits', async (request, reply) => {
    const prepared = await operation.prepare(request);
    const result = prepared.ok
      ? await operation.perform(prepared.payload, { origin: undefined })
      : prepared.refusal;
    return reply.code(result.status).send(result.body);
  });
}
