import type { FastifyInstance, FastifyReply } from '@agentpay/http';
import { call, type LedgerServiceClient } from '@agentpay/proto';
import { formatWireTime, isAppError, MAX_AMOUNT_CENTAVOS, parseAmount, parseWireTime } from '@agentpay/wire';
import { z } from 'zod';
import { balanceView, recordView } from '../ledger/ledger.views.js';
import { WIRE_TIME_PATTERN } from '../merchant-api/schemas.js';
import type { MerchantService } from '../merchants/merchant.service.js';
import { badRequest } from './admin-api.js';

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
}

/**
 * Registers the ledger's operator routes on the admin server (behind its bearer token): a merchant's
 * balance, adjustments, a settlement run and the books' check.
 */
export function registerLedgerAdmin(app: FastifyInstance, deps: LedgerAdminDeps): void {
  const { client, timeZone } = deps;
  const opts = { timeoutMs: deps.timeoutMs };

  /** The ledger's refusals as HTTP answers; anything else goes to the admin API's error handler (500). */
  const fail = (reply: FastifyReply, err: unknown) => {
    if (!isAppError(err)) throw err;
    switch (err.codeName) {
      case 'INSUFFICIENT_BALANCE':
        return reply
          .code(409)
          .send({ error: 'insufficient_balance', message: 'the debit is larger than the available balance' });
      case 'DUPLICATE_TRANSFER':
        return reply.code(409).send({
          error: 'conflict',
          message: `reference already used with other figures${err.detail ? ` (${err.detail})` : ''}`,
        });
      case 'INVALID_PARAMETER':
        return reply.code(400).send({ error: 'bad_request', message: err.detail ?? err.msg });
      case 'SERVICE_UNAVAILABLE':
        return reply
          .code(503)
          .send({ error: 'unavailable', message: 'the ledger is unavailable; retry later' });
      default:
        throw err;
    }
  };

  /** Answers 400 or 404 and returns false when the path's merchant is malformed or unknown. */
  const knownMerchant = async (reply: FastifyReply, number: string): Promise<boolean> => {
    if (!mchNo.safeParse(number).success) {
      await reply.code(400).send({ error: 'bad_request', message: 'mchNo: letters, digits, _ and - only' });
      return false;
    }
    // Throws MerchantAdminError not_found, which the admin API answers 404.
    await deps.merchants.get(number);
    return true;
  };

  type Merchant = { Params: { mchNo: string } };

  app.get<Merchant>('/admin/merchants/:mchNo/balance', async (request, reply) => {
    const number = request.params.mchNo;
    if (!(await knownMerchant(reply, number))) return reply;
    try {
      const balance = await call(client, client.GetBalance, { mch_no: number }, opts);
      return { mchNo: number, ...balanceView(balance) };
    } catch (err) {
      return fail(reply, err);
    }
  });

  app.post<Merchant>('/admin/merchants/:mchNo/adjustments', async (request, reply) => {
    const number = request.params.mchNo;
    const body = adjustment.safeParse(request.body);
    if (!body.success) return badRequest(reply, body.error);
    if (!(await knownMerchant(reply, number))) return reply;
    try {
      const { record, created } = await call(
        client,
        client.Adjust,
        {
          mch_no: number,
          amount: body.data.amount,
          reason: body.data.reason,
          reference: body.data.reference,
        },
        opts,
      );
      if (!record) throw new Error('the ledger answered an adjustment without its record');
      request.log.info(
        { mchNo: number, reference: body.data.reference, centavos: body.data.amount, created },
        'ledger adjustment',
      );
      // 201 for the adjustment booked now, 200 for a repeat of the same reference (nothing new booked).
      return reply.code(created ? 201 : 200).send({ created, record: recordView(record, timeZone) });
    } catch (err) {
      return fail(reply, err);
    }
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
      const { settled } = await call(client, client.RunSettlement, { until: until.toISOString() }, opts);
      request.log.info({ until: until.toISOString(), settled }, 'settlement run');
      return { settled, until: formatWireTime(until, timeZone) };
    } catch (err) {
      return fail(reply, err);
    }
  });

  app.get('/admin/ledger/check', async (_request, reply) => {
    try {
      const report = await call(client, client.Check, {}, opts);
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
