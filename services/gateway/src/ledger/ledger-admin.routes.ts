import type { FastifyInstance, FastifyReply, FastifyRequest } from '@agentpay/http';
import { call, type LedgerServiceClient } from '@agentpay/proto';
import {
  AppError,
  formatWireTime,
  isAppError,
  MAX_AMOUNT_CENTAVOS,
  parseAmount,
  parseWireTime,
} from '@agentpay/wire';
import { z } from 'zod';
import {
  type AdminOperation,
  adminCall,
  type HttpResult,
  type OperationRegistry,
  originOfRequest,
  runAtOnce,
} from '../approvals/index.js';
import { MerchantAdminError, type MerchantService } from '../merchants/index.js';
import { badRequest, schemaRefusal } from '../shared/schema-problem.js';
import { WIRE_TIME_PATTERN } from '../shared/wire-time.js';
import { balanceView, recordView } from './ledger.views.js';

// The operators' side of the books (docs/merchant-api.md "Balance and statement", "Operators"). The ledger owns them, so this is
// a thin JSON ↔ gRPC translation: the shape of a body is checked here (400 naming the field), what it
// means (overdraw, a reference reused with other figures) by the ledger.

const MAX_PESOS = MAX_AMOUNT_CENTAVOS / 100;

/** A signed, non-zero amount in pesos with at most two decimals, as integer centavos. */
const signedAmount = z.number({ error: 'must be a number' }).transform((value, ctx) => {
  if (value === 0) {
    ctx.addIssue({ code: 'custom', message: 'must not be 0' });
    return z.NEVER;
  }
  const parsed = parseAmount(Math.abs(value));
  if (!parsed.ok) {
    ctx.addIssue({
      code: 'custom',
      message: `must be pesos with at most 2 decimal places, from 0.01 to ${MAX_PESOS} in size (${parsed.reason})`,
    });
    return z.NEVER;
  }
  return value < 0 ? -parsed.centavos : parsed.centavos;
});

const adjustment = z.strictObject({
  amount: signedAmount,
  reason: z
    .string({ error: 'required, a string' })
    .trim()
    .min(1, 'required')
    .max(200, 'at most 200 characters'),
  reference: z.string({ error: 'required, a string' }).min(1, 'required').max(100, 'at most 100 characters'),
});

const settlementRun = z
  .strictObject({
    until: z
      .string({ error: 'must be a string' })
      .regex(new RegExp(WIRE_TIME_PATTERN), 'must be a real date-time as yyyy-MM-dd HH:mm:ss')
      .optional(),
  })
  .optional();

const mchNo = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only');

export interface LedgerAdminDeps {
  client: LedgerServiceClient;
  merchants: MerchantService;
  timeoutMs: number;
  /** The platform wall clock's zone (`until`, and the times shown). */
  timeZone: string;
  /** In production a settlement run may not reach into the future. */
  production: boolean;
  /** Where the adjustment's operation is added, for four eyes (approvals/admin-operation.ts). */
  operations?: OperationRegistry;
}

/** A manual adjustment as checked, and as an approval stores it. */
interface AdjustmentPayload {
  mchNo: string;
  /** Signed centavos. */
  amount: number;
  reason: string;
  reference: string;
}

const send = (reply: FastifyReply, result: HttpResult) => reply.code(result.status).send(result.body);

/** Signed pesos for a summary line: +1,234.56 MXN. */
const pesosText = (centavos: number) =>
  `${centavos < 0 ? '-' : '+'}${(Math.abs(centavos) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} MXN`;

/**
 * Registers the ledger's operator routes on the admin server (behind its bearer token): a merchant's
 * balance, adjustments, a settlement run and the books' check.
 */
export function registerLedgerAdmin(app: FastifyInstance, deps: LedgerAdminDeps): void {
  const { client, timeZone } = deps;
  /** Every call names who asked (approvals/admin-operation.ts adminCall). */
  const opts = (request: FastifyRequest) => adminCall(originOfRequest(request), deps.timeoutMs);

  /** The ledger's refusals as HTTP answers; anything else goes to the admin API's error handler (500). */
  const refusalOf = (err: unknown): HttpResult => {
    if (!isAppError(err)) throw err;
    switch (err.codeName) {
      case 'INSUFFICIENT_BALANCE':
        return {
          status: 409,
          body: { error: 'insufficient_balance', message: 'the debit is larger than the available balance' },
        };
      case 'DUPLICATE_TRANSFER':
        return {
          status: 409,
          body: {
            error: 'conflict',
            message: `reference already used with other figures${err.detail ? ` (${err.detail})` : ''}`,
          },
        };
      case 'INVALID_PARAMETER':
        return { status: 400, body: { error: 'bad_request', message: err.detail ?? err.msg } };
      case 'SERVICE_UNAVAILABLE':
        return {
          status: 503,
          body: { error: 'unavailable', message: 'the ledger is unavailable; retry later' },
        };
      default:
        throw err;
    }
  };
  const fail = (reply: FastifyReply, err: unknown) => send(reply, refusalOf(err));

  /** The 400 or 404 of a path's merchant that is malformed or unknown, or undefined when it exists. */
  const merchantRefusal = async (number: string): Promise<HttpResult | undefined> => {
    if (!mchNo.safeParse(number).success)
      return { status: 400, body: { error: 'bad_request', message: 'mchNo: letters, digits, _ and - only' } };
    try {
      await deps.merchants.get(number);
    } catch (err) {
      if (err instanceof MerchantAdminError && err.kind === 'not_found')
        return { status: 404, body: { error: 'not_found', message: err.message } };
      throw err;
    }
    return undefined;
  };

  /** Answers 400 or 404 and returns false when the path's merchant is malformed or unknown. */
  const knownMerchant = async (reply: FastifyReply, number: string): Promise<boolean> => {
    const refusal = await merchantRefusal(number);
    if (refusal) await send(reply, refusal);
    return refusal === undefined;
  };

  type Merchant = { Params: { mchNo: string } };

  app.get<Merchant>('/admin/merchants/:mchNo/balance', async (request, reply) => {
    const number = request.params.mchNo;
    if (!(await knownMerchant(reply, number))) return reply;
    try {
      const balance = await call(client, client.GetBalance, { mch_no: number }, opts(request));
      return { mchNo: number, ...balanceView(balance) };
    } catch (err) {
      return fail(reply, err);
    }
  });

  // Four eyes (services/gateway/README.md): a manual adjustment moves money. Checked in full here (the
  // body, the merchant, a debit against the balance now); the ledger's key is the merchant and the
  // reference, so an approval executed twice books once.
  const adjust: AdminOperation<AdjustmentPayload> = {
    action: 'adjustment.create',
    method: 'POST',
    url: '/admin/merchants/:mchNo/adjustments',
    async prepare(request) {
      const number = (request.params as { mchNo: string }).mchNo;
      const body = adjustment.safeParse(request.body);
      if (!body.success) return schemaRefusal(body.error);
      const refusal = await merchantRefusal(number);
      if (refusal) return { ok: false, refusal };
      const { amount, reason, reference } = body.data;
      if (amount < 0) {
        try {
          const balance = await call(
            client,
            client.GetBalance,
            { mch_no: number },
            adminCall(originOfRequest(request), deps.timeoutMs),
          );
          if (Number(balance.available) + amount < 0)
            return { ok: false, refusal: refusalOf(new AppError('INSUFFICIENT_BALANCE')) };
        } catch (err) {
          return { ok: false, refusal: refusalOf(err) };
        }
      }
      return {
        ok: true,
        payload: { mchNo: number, amount, reason, reference },
        summary: `adjust ${number}'s available balance by ${pesosText(amount)}: ${reason} (reference ${reference})`,
        target: `merchant:${number}`,
      };
    },
    async perform(payload, context) {
      try {
        const { record, created } = await call(
          client,
          client.Adjust,
          {
            mch_no: payload.mchNo,
            amount: payload.amount,
            reason: payload.reason,
            reference: payload.reference,
          },
          adminCall(context.origin, deps.timeoutMs),
        );
        if (!record) throw new Error('the ledger answered an adjustment without its record');
        // 201 for the adjustment booked now, 200 for a repeat of the same reference (nothing new booked).
        return { status: created ? 201 : 200, body: { created, record: recordView(record, timeZone) } };
      } catch (err) {
        return refusalOf(err);
      }
    },
  };
  deps.operations?.add(adjust);

  app.post<Merchant>('/admin/merchants/:mchNo/adjustments', async (request, reply) => {
    const result = await runAtOnce(adjust, request);
    if (result.status < 300)
      request.log.info({ mchNo: request.params.mchNo, status: result.status }, 'ledger adjustment');
    return send(reply, result);
  });

  app.post('/admin/settlements/run', async (request, reply) => {
    const body = settlementRun.safeParse(request.body ?? undefined);
    if (!body.success) return badRequest(reply, body.error);
    const text = body.data?.until;
    let until = new Date();
    if (text !== undefined) {
      const parsed = parseWireTime(text, timeZone);
      if (!parsed) {
        return reply
          .code(400)
          .send({ error: 'bad_request', message: 'until: a wall-clock time the zone skipped (DST)' });
      }
      if (deps.production && parsed.getTime() > Date.now()) {
        return reply
          .code(400)
          .send({ error: 'bad_request', message: 'until: may not lie in the future in production' });
      }
      until = parsed;
    }
    try {
      const { settled } = await call(
        client,
        client.RunSettlement,
        { until: until.toISOString() },
        opts(request),
      );
      request.log.info({ until: until.toISOString(), settled }, 'settlement run');
      return { settled, until: formatWireTime(until, timeZone) };
    } catch (err) {
      return fail(reply, err);
    }
  });

  app.get('/admin/ledger/check', async (request, reply) => {
    try {
      const report = await call(client, client.Check, {}, opts(request));
      return {
        ok: report.ok,
        entries: Number(report.entries),
        accounts: Number(report.accounts),
        problems: report.problems,
      };
    } catch (err) {
      return fail(reply, err);
    }
  });
}
