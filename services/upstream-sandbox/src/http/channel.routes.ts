import { timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance } from '@agentpay/http';
import { MAX_AMOUNT_CENTAVOS } from '@agentpay/wire';
import { z } from 'zod';
import type { VirtualAccountService } from '../accounts/virtual-account.service.js';
import { ChannelError } from '../errors.js';
import type { PayoutService } from '../payouts/payout.service.js';
import type { StatementService } from '../statements/statement.service.js';
import { parseBody } from './parse.js';

const ref = z.string().min(1).max(64);
const centavos = z.number().int().min(1).max(MAX_AMOUNT_CENTAVOS);

const createAccountBody = z.object({
  orderRef: ref,
  amount: centavos,
  expiresAt: z.iso.datetime({ offset: true }),
  noticeUrl: z.url(),
});

const payeeBody = z.object({
  payeeType: z.string().min(1).max(32),
  account: z.string().max(100),
  name: z.string().max(100).default(''),
  bankCode: z.string().max(16).default(''),
});

const payoutBody = payeeBody.extend({ payoutRef: ref, amount: centavos, noticeUrl: z.url() });

/** A statement's day: a real calendar date, yyyy-MM-dd, of the Mexico City wall clock. */
const statementParams = z.object({ day: z.iso.date() });

async function* ndjson(values: AsyncIterable<unknown>): AsyncGenerator<string> {
  for await (const value of values) yield `${JSON.stringify(value)}\n`;
}

function sameSecret(given: string, expected: Buffer): boolean {
  const buffer = Buffer.from(given, 'utf8');
  return buffer.length === expected.length && timingSafeEqual(buffer, expected);
}

/** The channel API the platform's adapter calls, under /channel, behind `x-api-key`. */
export function registerChannelRoutes(
  http: FastifyInstance,
  deps: {
    apiKey: string;
    accounts: VirtualAccountService;
    payouts: PayoutService;
    statements: StatementService;
  },
): void {
  const { accounts, payouts, statements } = deps;
  const expectedKey = Buffer.from(deps.apiKey, 'utf8');

  void http.register(
    async (channel) => {
      channel.addHook('onRequest', async (request) => {
        const key = request.headers['x-api-key'];
        if (typeof key !== 'string' || !sameSecret(key, expectedKey))
          throw new ChannelError('unauthorized', 'missing or wrong x-api-key');
      });

      channel.post('/virtual-accounts', async (request, reply) => {
        const body = parseBody(createAccountBody, request.body);
        const { account, created } = await accounts.create({ ...body, expiresAt: new Date(body.expiresAt) });
        return reply.code(created ? 201 : 200).send(account);
      });

      channel.get('/virtual-accounts', async (request) => {
        const { orderRef } = parseBody(z.object({ orderRef: ref }), request.query);
        return accounts.get({ orderRef });
      });

      channel.get<{ Params: { accountId: string } }>('/virtual-accounts/:accountId', async (request) =>
        accounts.get({ id: request.params.accountId }),
      );

      channel.post<{ Params: { accountId: string } }>('/virtual-accounts/:accountId/close', async (request) =>
        accounts.close(request.params.accountId),
      );

      channel.post('/payee-inquiries', async (request) =>
        payouts.inquire(parseBody(payeeBody, request.body)),
      );

      channel.post('/payouts', async (request, reply) => {
        const { payout, created } = await payouts.submit(parseBody(payoutBody, request.body));
        return reply.code(created ? 201 : 200).send(payout);
      });

      channel.get('/payouts', async (request) => {
        const { payoutRef } = parseBody(z.object({ payoutRef: ref }), request.query);
        return payouts.get({ payoutRef });
      });

      channel.get<{ Params: { payoutId: string } }>('/payouts/:payoutId', async (request) =>
        payouts.get({ id: request.params.payoutId }),
      );

      // NDJSON, one movement a line, then the end line; streamed a keyset page at a time with the
      // socket's backpressure. A failure mid-way cuts the response, so it never ends like a whole day.
      channel.get<{ Params: { day: string } }>('/statements/:day', async (request, reply) => {
        const { day } = parseBody(statementParams, request.params);
        const body = Readable.from(ndjson(statements.lines(day)), { objectMode: false });
        return reply.type('application/x-ndjson; charset=utf-8').send(body);
      });
    },
    { prefix: '/channel' },
  );
}
