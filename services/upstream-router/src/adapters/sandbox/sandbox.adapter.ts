import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import {
  type ChannelAdapter,
  type PaymentState,
  type PayoutState,
  type RouteContext,
  type StatementLine,
  UpstreamUnavailableError,
  type WebhookReply,
} from '../channel-adapter.js';
import { channelLines, channelRequest, setting } from './sandbox.client.js';

// The sandbox channel's API (services/upstream-sandbox/README.md). Its vocabulary stops here.

const account = z.object({
  accountId: z.string(),
  clabe: z.string(),
  bankCode: z.string(),
  bankName: z.string(),
  beneficiaryName: z.string(),
  reference: z.string(),
  status: z.enum(['open', 'paid', 'closed', 'expired']),
  paidAmount: z.number().int(),
  paidAt: z.string().nullable(),
  claveRastreo: z.string().nullish(),
});

const payout = z.object({
  payoutId: z.string(),
  status: z.enum(['processing', 'succeeded', 'failed', 'returned', 'rejected']),
  finishedAt: z.string().nullable(),
  returnedAt: z.string().nullable(),
  claveRastreo: z.string().nullish(),
  /** The sandbox bank's 5-digit Banxico code, the payouts' sending bank (absent from older sandboxes). */
  senderBank: z.string().nullish(),
});

const inquiry = z.object({ result: z.enum(['valid', 'invalid', 'unknown']) });

const notice = z.discriminatedUnion('type', [
  z.object({
    id: z.string().min(1),
    type: z.literal('virtual_account.paid'),
    data: z.object({
      orderRef: z.string().min(1),
      clabe: z.string().optional(),
      paidAmount: z.number().int(),
      paidAt: z.string(),
      claveRastreo: z.string().nullish(),
      /** Who paid (CONTRACT section 21); absent from notices of older sandboxes. */
      payerAccount: z.string().nullish(),
      payerName: z.string().nullish(),
      payerBank: z.string().nullish(),
      payerRfc: z.string().nullish(),
    }),
  }),
  z.object({
    id: z.string().min(1),
    type: z.enum(['payout.succeeded', 'payout.failed', 'payout.returned']),
    data: z.object({ payoutRef: z.string().min(1), at: z.string(), claveRastreo: z.string().nullish() }),
  }),
]);

/** A movement line of the daily statement (GET /channel/statements/:day, NDJSON). */
const statementLine = z.object({
  reference: z.string().min(1),
  claveRastreo: z.string().max(30),
  kind: z.enum(['deposit', 'payout', 'payout_return']),
  amount: z.number().int().min(0),
  occurredAt: z.iso.datetime({ offset: true }),
  account: z.string(),
  platformRef: z.string(),
  upstreamRef: z.string(),
  senderAccount: z.string(),
  senderName: z.string(),
  applied: z.boolean(),
});

/** The statement's last line: without it, or with another count, the statement is not whole. */
const statementEnd = z.object({ end: z.literal(true), day: z.string(), lines: z.number().int().min(0) });

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/** A sandbox route's settings (README "Route config"); unknown keys are refused, so typos surface. */
const routeConfig = z.strictObject({
  baseUrl: httpUrl,
  noticeUrl: httpUrl,
  noticeSecretRef: z.string().min(1, 'required: the variable holding the notice key'),
  timeoutMs: z.number().int().min(1).max(120_000).optional(),
});

const SIGNATURE_HEADER = 'x-sandbox-signature';

const PAYMENT_STATUS = { open: 'wait', paid: 'success', closed: 'close', expired: 'close' } as const;
const PAYOUT_STATUS = {
  processing: 'progress',
  succeeded: 'success',
  failed: 'fail',
  rejected: 'fail',
  returned: 'returned',
} as const;
const NOTICE_PAYOUT_STATUS = {
  'payout.succeeded': 'success',
  'payout.failed': 'fail',
  'payout.returned': 'returned',
} as const;

function date(text: string | null): Date | undefined {
  if (text === null) return undefined;
  const parsed = new Date(text);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

function paymentState(a: z.output<typeof account>): PaymentState {
  return {
    status: PAYMENT_STATUS[a.status],
    paidAmount: a.paidAmount,
    paidAt: date(a.paidAt),
    claveRastreo: a.claveRastreo ?? '',
  };
}

function payoutState(p: z.output<typeof payout>): PayoutState {
  return {
    status: PAYOUT_STATUS[p.status],
    finishedAt: date(p.returnedAt ?? p.finishedAt),
    upstreamRef: p.payoutId,
    claveRastreo: p.claveRastreo ?? '',
    senderBank: p.senderBank ?? '',
  };
}

function signatureMatches(secret: string, rawBody: string, given: string): boolean {
  const expected = createHmac('sha256', secret).update(rawBody, 'utf8').digest();
  const received = Buffer.from(given, 'hex');
  return received.length === expected.length && timingSafeEqual(received, expected);
}

/** The adapter for the sandbox channel; every call times out after `timeoutMs`. */
export function createSandboxAdapter(options: { timeoutMs: number }): ChannelAdapter {
  const { timeoutMs } = options;
  const get = <S extends z.ZodType>(route: RouteContext, path: string, schema: S) =>
    channelRequest(route, { method: 'GET', path, timeoutMs }, schema);
  const post = <S extends z.ZodType>(route: RouteContext, path: string, body: unknown, schema: S) =>
    channelRequest(route, { method: 'POST', path, body, timeoutMs }, schema);
  const accountPath = (ref: { orderNo: string; upstreamRef: string }) =>
    ref.upstreamRef
      ? `/channel/virtual-accounts/${encodeURIComponent(ref.upstreamRef)}`
      : `/channel/virtual-accounts?orderRef=${encodeURIComponent(ref.orderNo)}`;

  const reply = (status: number, body: unknown, refused?: WebhookReply['refused']): WebhookReply => ({
    status,
    body,
    refused,
  });

  return {
    // The channel's API key is the route's credentials_ref; notices are signed with noticeSecretRef's key.
    secretRefs: { apiKey: 'credentialsRef', noticeSecret: 'noticeSecretRef' },

    configProblem(config) {
      const parsed = routeConfig.safeParse(config);
      if (parsed.success) return undefined;
      const issue = parsed.error.issues[0];
      if (issue?.code === 'unrecognized_keys') return `config.${issue.keys[0]}: unknown setting`;
      return `${['config', ...(issue?.path ?? []).map(String)].join('.')}: ${issue?.message ?? 'invalid'}`;
    },

    accounts: {
      kind: 'opened',
      async open(route, request) {
        const a = await post(
          route,
          '/channel/virtual-accounts',
          {
            orderRef: request.orderNo,
            amount: request.amount,
            expiresAt: request.expiredTime.toISOString(),
            noticeUrl: setting(route, 'noticeUrl'),
          },
          account,
        );
        return {
          clabe: a.clabe,
          bankCode: a.bankCode,
          bankName: a.bankName,
          beneficiaryName: a.beneficiaryName,
          reference: a.reference,
          upstreamRef: a.accountId,
        };
      },

      async close(route, ref) {
        // Closing needs the channel's id; an order known only by number is looked up first.
        const id = ref.upstreamRef || (await get(route, accountPath(ref), account)).accountId;
        return paymentState(
          await post(route, `/channel/virtual-accounts/${encodeURIComponent(id)}/close`, {}, account),
        );
      },

      async query(route, ref) {
        return paymentState(await get(route, accountPath(ref), account));
      },
    },

    async inquire(route, request) {
      const answer = await post(
        route,
        '/channel/payee-inquiries',
        {
          payeeType: request.payeeType,
          account: request.payeeAccount,
          name: request.payeeName,
          bankCode: request.upstreamCode,
        },
        inquiry,
      );
      return answer.result;
    },

    async submitPayout(route, request) {
      const p = await post(
        route,
        '/channel/payouts',
        {
          payoutRef: request.transferNo,
          amount: request.amount,
          payeeType: request.payeeType,
          account: request.payeeAccount,
          name: request.payeeName,
          bankCode: request.upstreamCode,
          noticeUrl: setting(route, 'noticeUrl'),
        },
        payout,
      );
      // A repeat of an earlier submission answers the payout as it is now; only a refusal or a
      // failure is final here, anything else arrives later as a notice.
      const status = p.status === 'rejected' || p.status === 'failed' ? 'fail' : 'progress';
      return {
        status,
        upstreamRef: p.payoutId,
        claveRastreo: p.claveRastreo ?? '',
        senderBank: p.senderBank ?? '',
      };
    },

    async queryPayout(route, ref) {
      const path = ref.upstreamRef
        ? `/channel/payouts/${encodeURIComponent(ref.upstreamRef)}`
        : `/channel/payouts?payoutRef=${encodeURIComponent(ref.transferNo)}`;
      return payoutState(await get(route, path, payout));
    },

    // The sandbox names the platform's references on its statement itself: no lookups needed.
    async *fetchStatement(route, day, _lookups, signal): AsyncGenerator<StatementLine> {
      const path = `/channel/statements/${encodeURIComponent(day)}`;
      // Every doubt is "unavailable": the platform must never take a partial statement for the day.
      const broken = (why: string) =>
        new UpstreamUnavailableError(`statement ${day} of route ${route.id}: ${why}`);
      let count = 0;
      let ended = false;
      for await (const text of channelLines(route, { path, timeoutMs, signal })) {
        if (ended) throw broken('lines after the end line');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          throw broken(`line ${count + 1} is not JSON`);
        }
        const end = statementEnd.safeParse(json);
        if (end.success) {
          if (end.data.day !== day || end.data.lines !== count)
            throw broken(`end line says ${end.data.lines} lines of ${end.data.day}, read ${count}`);
          ended = true;
          continue;
        }
        const line = statementLine.safeParse(json);
        if (!line.success) throw broken(`line ${count + 1} is malformed (${line.error.issues[0]?.message})`);
        count++;
        yield { ...line.data, occurredAt: new Date(line.data.occurredAt) };
      }
      if (!ended) throw broken(`ended after ${count} lines without its end line`);
    },

    async handleWebhook(route, webhook, core) {
      const secret = route.credentials['noticeSecret'] ?? '';
      const signature = webhook.headers[SIGNATURE_HEADER];
      if (!secret) return reply(401, { result: 'bad_signature' }, 'signature');
      if (typeof signature !== 'string' || !signatureMatches(secret, webhook.rawBody, signature))
        return reply(401, { result: 'bad_signature' }, 'signature');
      let json: unknown;
      try {
        json = JSON.parse(webhook.rawBody);
      } catch {
        return reply(400, { result: 'malformed' }, 'malformed');
      }
      const parsed = notice.safeParse(json);
      if (!parsed.success) return reply(400, { result: 'malformed' }, 'malformed');
      const n = parsed.data;
      if (n.type === 'virtual_account.paid') {
        // The sandbox applied the deposit to the account it opened: the router records it and passes it on.
        const answer = await core.deposit({
          depositId: n.id,
          clabe: n.data.clabe ?? '',
          amount: n.data.paidAmount,
          claveRastreo: n.data.claveRastreo ?? '',
          paidAt: date(n.data.paidAt),
          senderAccount: n.data.payerAccount ?? '',
          senderName: n.data.payerName ?? '',
          senderBank: n.data.payerBank ?? '',
          senderRfcCurp: n.data.payerRfc ?? '',
          appliedByChannel: true,
          orderNoHint: n.data.orderRef,
        });
        if (answer.decision === 'returned')
          return reply(404, { result: 'unknown_account' }, 'unknown_target');
        return reply(200, { result: answer.repeated ? 'duplicate' : 'recorded' });
      }
      const outcome = await core.payout({
        noticeId: n.id,
        payout: { transferNo: n.data.payoutRef },
        status: NOTICE_PAYOUT_STATUS[n.type],
        finishedAt: date(n.data.at),
        claveRastreo: n.data.claveRastreo ?? '',
      });
      return reply(200, { result: outcome === 'duplicate' ? 'duplicate' : 'recorded' });
    },
  };
}
