import type { FastifyInstance } from '@agentpay/http';
import { institutionByClabePrefix, validateClabe } from '@agentpay/spei';
import { parseAmount } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { VirtualAccountService } from '../accounts/virtual-account.service.js';
import type { Database, NoticeRow } from '../db/schema.js';
import { ChannelError } from '../errors.js';
import { noticesFor, requeueNotice } from '../notices/notice.repository.js';
import type { StpDepositService } from '../stp/stp-deposit.service.js';
import { parseBody } from './parse.js';

const depositBody = z.object({
  clabe: z.string().min(1).max(32),
  amount: z.unknown(),
  notify: z.boolean().default(true),
  /** The payer's CLABE and name, as the statement shows them; generated when absent. */
  senderAccount: z
    .string()
    .refine((clabe) => validateClabe(clabe).ok, 'must be a CLABE with a valid check digit')
    .optional(),
  senderName: z.string().trim().min(1).max(100).optional(),
  /**
   * The payer as CONTRACT section 21 names them (what a refund goes back to): `payerAccount` and
   * `payerName` are the same as `senderAccount` and `senderName`; `payerBank` the 5-digit Banxico code of
   * the payer's bank (the CLABE's bank when absent, and it must agree with the CLABE); `payerRfc` (`ND`).
   */
  payerAccount: z
    .string()
    .refine((clabe) => validateClabe(clabe).ok, 'must be a CLABE with a valid check digit')
    .optional(),
  payerName: z.string().trim().min(1).max(100).optional(),
  payerBank: z
    .string()
    .regex(/^\d{5}$/, 'must be a 5-digit Banxico institution code')
    .optional(),
  payerRfc: z
    .string()
    .regex(/^[A-Z0-9Ñ&]{10,18}$|^ND$/, 'must be an RFC or CURP (10 to 18 of A-Z0-9) or ND')
    .optional(),
  /** Pesos the statement shows instead of `amount` (a tester's trigger for an amount mismatch). */
  statementAmount: z.unknown().optional(),
});

const depositQuery = z.object({
  unmatched: z.enum(['true', 'false']).optional(),
  clabe: z.string().optional(),
});

function noticeView(n: NoticeRow) {
  return {
    noticeId: n.id,
    type: n.type,
    ref: n.ref,
    body: JSON.parse(n.body) as unknown,
    attempts: n.attempts,
    deliveredAt: n.delivered_at?.toISOString() ?? null,
    gaveUpAt: n.gave_up_at?.toISOString() ?? null,
    lastStatus: n.last_status,
    lastError: n.last_error,
  };
}

/** The tester's side, under /sandbox, without a key: the tester plays the payer and inspects notices. */
export function registerTesterRoutes(
  http: FastifyInstance,
  deps: { db: Kysely<Database>; accounts: VirtualAccountService; stp: StpDepositService; kick(): void },
): void {
  const { db, accounts } = deps;

  http.post('/sandbox/deposits', async (request, reply) => {
    const body = parseBody(depositBody, request.body);
    const amount = parseAmount(body.amount);
    if (!amount.ok) throw new ChannelError('invalid_request', `amount: ${amount.reason}`);
    let statementAmount: number | undefined;
    if (body.statementAmount !== undefined) {
      const parsed = parseAmount(body.statementAmount);
      if (!parsed.ok) throw new ChannelError('invalid_request', `statementAmount: ${parsed.reason}`);
      statementAmount = parsed.centavos;
    }
    const senderAccount = body.payerAccount ?? body.senderAccount;
    const senderName = body.payerName ?? body.senderName;
    if (body.payerBank !== undefined && senderAccount !== undefined) {
      const bank = institutionByClabePrefix(senderAccount.slice(0, 3));
      if (bank?.spei !== body.payerBank)
        throw new ChannelError('invalid_request', 'payerBank: must be the bank of payerAccount');
    }
    const payer = { senderAccount, senderName, senderBank: body.payerBank, senderRfc: body.payerRfc };
    // A CLABE of a company registered with the STP face is paid through its abono webhook instead.
    const company = await deps.stp.companyOf(body.clabe);
    if (company) {
      const received = await deps.stp.deposit(company, {
        clabe: body.clabe,
        amount: amount.centavos,
        notify: body.notify,
        ...payer,
        statementAmount,
      });
      deps.kick();
      return reply.code(201).send(received);
    }
    const deposit = await accounts.deposit({
      clabe: body.clabe,
      amount: amount.centavos,
      notify: body.notify,
      ...payer,
      statementAmount,
    });
    deps.kick();
    return reply.code(201).send(deposit);
  });

  http.get('/sandbox/deposits', async (request) => {
    const query = parseBody(depositQuery, request.query);
    const deposits = await accounts.deposits({
      ...(query.unmatched === undefined ? {} : { unmatched: query.unmatched === 'true' }),
      ...(query.clabe === undefined ? {} : { clabe: query.clabe }),
    });
    return { deposits };
  });

  http.get<{ Params: { clabe: string } }>('/sandbox/accounts/:clabe', async (request) =>
    accounts.getByClabe(request.params.clabe),
  );

  http.get('/sandbox/notices', async (request) => {
    const { ref } = parseBody(z.object({ ref: z.string().min(1) }), request.query);
    return { notices: (await noticesFor(db, ref)).map(noticeView) };
  });

  http.post<{ Params: { noticeId: string } }>('/sandbox/notices/:noticeId/resend', async (request) => {
    const notice = await requeueNotice(db, request.params.noticeId);
    if (!notice) throw new ChannelError('not_found', 'no such notice');
    deps.kick();
    return noticeView(notice);
  });
}
