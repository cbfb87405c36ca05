import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { buildClabe } from '@agentpay/spei';
import type { Stack } from '@agentpay/stack';
import { createTestMerchant, type TestMerchant, waitFor } from '@agentpay/testing';
import { type Envelope, signObject } from '@agentpay/wire';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// Issue 9, security, through the whole stack as real processes:
// - one merchant can neither read nor change another's orders, transfers or inquiries, by any endpoint;
// - a signed body is bound to its merchant (and, with its nonce, to one use);
// - both admin APIs answer 401 on every route without the right bearer token, and change nothing (the
//   notifier's answers only the gateway's NOTIFIER_ADMIN_TOKEN: operators reach it through the gateway);
// - callbacks never reach loopback, private or metadata addresses when the notifier runs with its SSRF
//   guard on (NOTIFY_ALLOW_PRIVATE=false, the production default), and never follow a redirect.

const TOKEN = 'dev-admin-token';
let stack: Stack;
let a: TestMerchant;
let b: TestMerchant;
let paymentsDb: pg.Pool;
let sandboxDb: pg.Pool;

/** An HTTP server that records every request and answers with `respond`. */
interface Target {
  url: string;
  port: number;
  hits: { method: string; url: string }[];
  close(): Promise<void>;
}

async function startTarget(
  respond: (res: import('node:http').ServerResponse) => void = (res) => res.end('SUCCESS'),
): Promise<Target> {
  const hits: Target['hits'] = [];
  const server: Server = createServer((req, res) => {
    hits.push({ method: req.method ?? '', url: req.url ?? '' });
    req.resume();
    req.on('end', () => respond(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let forbidden: Target;

beforeAll(async () => {
  forbidden = await startTarget();
  stack = await startTestStack({
    serviceEnv: {
      // The production setting of the SSRF guard, for the notifier only; the rest is the dev stack.
      notifier: {
        NOTIFY_ALLOW_PRIVATE: 'false',
        NOTIFY_RETRY_SCHEDULE: '200ms,200ms',
        NOTIFY_POLL_MS: '200',
      },
    },
  });
  const urls = { adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway };
  a = await createTestMerchant(urls);
  b = await createTestMerchant(urls);
  paymentsDb = new pg.Pool({ connectionString: stack.databaseUrl('payments'), max: 2 });
  sandboxDb = new pg.Pool({ connectionString: stack.databaseUrl('upstream-sandbox'), max: 2 });
});

afterAll(async () => {
  await paymentsDb?.end();
  await sandboxDb?.end();
  await stack?.stop();
  await forbidden?.close();
});

const biz = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;

/** A signed request whose reply must itself be signed and answered HTTP 200. */
async function send(as: TestMerchant, path: string, params: Record<string, unknown>): Promise<Envelope> {
  const reply = await as.request(path, params);
  expect(reply.signed, `${path} reply is signed`).toBe(true);
  expect(reply.status).toBe(200);
  return reply.envelope;
}

async function pay(as: TestMerchant, extra: Record<string, unknown> = {}) {
  const envelope = await send(as, '/gateway/pay', {
    bizOrderNo: biz('SEC'),
    title: 'Security order',
    method: 'mex_virtual_account',
    amount: 42.5,
    ...extra,
  });
  expect(envelope.code, envelope.msg).toBe(0);
  return envelope.data as { orderNo: string; bizOrderNo: string; status: string; payBody: string };
}

async function orderRow(orderNo: string) {
  const { rows } = await paymentsDb.query<{ status: string; version: number; changes: string }>(
    `select status, version::int as version,
            (select count(*) from pay_order_status_history h where h.order_no = o.order_no)::text as changes
     from pay_orders o where order_no = $1`,
    [orderNo],
  );
  return rows[0];
}

describe('another merchant', () => {
  let order: { orderNo: string; bizOrderNo: string };
  let transfer: { transferNo: string; bizTransferNo: string };
  let inquiry: { inquryNo: string; bizInquryNo: string };
  let orderBefore: Envelope;
  let transferBefore: Envelope;

  beforeAll(async () => {
    order = await pay(a, { attach: 'A private' });
    const t = await send(a, '/gateway/transfer', {
      bizTransferNo: biz('SECT'),
      amount: 10,
      payeeType: 'spei_transfer',
      payeeAccount: buildClabe('012', '180', '12345678901'),
      payeeName: 'Ana Perez',
    });
    expect(t.code, t.msg).toBe(0);
    transfer = t.data as { transferNo: string; bizTransferNo: string };
    const q = await send(a, '/gateway/inqury', {
      bizInquryNo: biz('SECQ'),
      payeeType: 'spei_transfer',
      payeeAccount: buildClabe('012', '180', '12345678901'),
      payeeName: 'Ana Perez',
    });
    expect(q.code, q.msg).toBe(0);
    inquiry = q.data as { inquryNo: string; bizInquryNo: string };
    // The transfer settles by itself (sandbox); compare A's views once it has.
    await waitFor(
      async () =>
        (
          (await send(a, '/gateway/query/transferOrder', { transferNo: transfer.transferNo })).data as {
            status: string;
          }
        ).status === 'success',
      { timeoutMs: 15_000, intervalMs: 200, message: "A's transfer to succeed" },
    );
    orderBefore = await send(a, '/gateway/query/payOrder', { orderNo: order.orderNo });
    transferBefore = await send(a, '/gateway/query/transferOrder', { transferNo: transfer.transferNo });
  });

  it.each([
    ['query/payOrder by orderNo', '/gateway/query/payOrder', () => ({ orderNo: order.orderNo })],
    ['query/payOrder by bizOrderNo', '/gateway/query/payOrder', () => ({ bizOrderNo: order.bizOrderNo })],
    [
      'query/payOrder by both',
      '/gateway/query/payOrder',
      () => ({ orderNo: order.orderNo, bizOrderNo: order.bizOrderNo }),
    ],
    ['close by orderNo', '/gateway/close', () => ({ orderNo: order.orderNo })],
    ['close by bizOrderNo', '/gateway/close', () => ({ bizOrderNo: order.bizOrderNo })],
    ['cancel by orderNo', '/gateway/close', () => ({ orderNo: order.orderNo, useCancel: true })],
    ['sync by orderNo', '/gateway/sync/order/pay', () => ({ orderNo: order.orderNo })],
    ['sync by bizOrderNo', '/gateway/sync/order/pay', () => ({ bizOrderNo: order.bizOrderNo })],
  ])("cannot reach A's pay order through %s: 30003, as if it did not exist", async (_name, path, params) => {
    const envelope = await send(b, path, params());
    expect(envelope).toMatchObject({ code: 30003, data: null });
    // Exactly what a missing order answers, so B learns nothing about A's numbers.
    const missing = await send(b, path, {
      ...params(),
      orderNo: `P${'9'.repeat(26)}`,
      bizOrderNo: biz('NONE'),
    });
    expect(missing.msg).toBe(envelope.msg);
  });

  it.each([
    ['transferNo', () => ({ transferNo: transfer.transferNo })],
    ['bizTransferNo', () => ({ bizTransferNo: transfer.bizTransferNo })],
    ['both', () => ({ transferNo: transfer.transferNo, bizTransferNo: transfer.bizTransferNo })],
  ])("cannot query A's transfer by %s: 40004", async (_name, params) => {
    expect(await send(b, '/gateway/query/transferOrder', params())).toMatchObject({
      code: 40004,
      data: null,
    });
  });

  it("gets orders, transfers and inquiries of its own for A's business numbers, never A's or a duplicate error", async () => {
    const own = await send(b, '/gateway/pay', {
      bizOrderNo: order.bizOrderNo,
      title: 'Different',
      method: 'mex_virtual_account',
      amount: 1.01,
    });
    expect(own.code, own.msg).toBe(0);
    expect((own.data as { orderNo: string }).orderNo).not.toBe(order.orderNo);

    const ownTransfer = await send(b, '/gateway/transfer', {
      bizTransferNo: transfer.bizTransferNo,
      amount: 2,
      payeeType: 'user_id',
      payeeAccount: 'someone',
    });
    expect(ownTransfer.code, ownTransfer.msg).toBe(0);
    expect((ownTransfer.data as { transferNo: string }).transferNo).not.toBe(transfer.transferNo);

    const ownInquiry = await send(b, '/gateway/inqury', {
      bizInquryNo: inquiry.bizInquryNo,
      payeeType: 'user_id',
      payeeAccount: 'someone',
    });
    expect(ownInquiry.code, ownInquiry.msg).toBe(0);
    expect((ownInquiry.data as { inquryNo: string }).inquryNo).not.toBe(inquiry.inquryNo);
  });

  it("leaves A's order and transfer exactly as they were, in A's view, the store and upstream", async () => {
    expect((await send(a, '/gateway/query/payOrder', { orderNo: order.orderNo })).data).toEqual(
      orderBefore.data,
    );
    expect((await send(a, '/gateway/query/transferOrder', { transferNo: transfer.transferNo })).data).toEqual(
      transferBefore.data,
    );
    expect(await orderRow(order.orderNo)).toEqual({ status: 'wait', version: 1, changes: '0' });
    const { rows } = await sandboxDb.query<{ status: string }>(
      'select status from virtual_accounts where order_ref = $1',
      [order.orderNo],
    );
    expect(rows).toEqual([{ status: 'open' }]);
  });
});

describe('a signed body replayed or re-addressed', () => {
  it("is refused with 20052 when A's signed body is sent as B's (mchNo changed)", async () => {
    const order = await pay(a);
    const body = a.signed({ orderNo: order.orderNo });
    const asB = await b.send('/gateway/query/payOrder', { ...body, mchNo: b.mchNo });
    expect(asB.signed).toBe(true);
    expect(asB.envelope).toMatchObject({ code: 20052, data: null });
    const closeAsB = await b.send('/gateway/close', {
      ...a.signed({ orderNo: order.orderNo }),
      mchNo: b.mchNo,
    });
    expect(closeAsB.envelope).toMatchObject({ code: 20052, data: null });
    expect(await orderRow(order.orderNo)).toMatchObject({ status: 'wait', version: 1 });
  });

  it("is refused with 20052 when B's mchNo is signed with A's key", async () => {
    const order = await pay(a);
    const body: Record<string, unknown> = {
      mchNo: b.mchNo,
      reqTime: (a.signed({}) as { reqTime: string }).reqTime,
      nonceStr: randomBytes(8).toString('hex'),
      orderNo: order.orderNo,
    };
    const reply = await b.send('/gateway/close', { ...body, sign: signObject(body, a.privateKey) });
    expect(reply.envelope).toMatchObject({ code: 20052, data: null });
  });

  it('is refused with 20052 when a field is changed after signing', async () => {
    const mine = await pay(a);
    const theirs = await pay(b);
    const body = a.signed({ orderNo: mine.orderNo });
    const reply = await a.send('/gateway/close', { ...body, orderNo: theirs.orderNo });
    expect(reply.envelope).toMatchObject({ code: 20052, data: null });
    expect(await orderRow(theirs.orderNo)).toMatchObject({ status: 'wait', version: 1 });
  });

  it('is refused with 20054 when sent a second time with the same nonce', async () => {
    const order = await pay(a);
    const body = a.signed({ orderNo: order.orderNo });
    expect((await a.send('/gateway/query/payOrder', body)).envelope.code).toBe(0);
    const again = await a.send('/gateway/query/payOrder', body);
    expect(again.signed).toBe(true);
    expect(again.envelope).toMatchObject({ code: 20054, data: null });
  });
});

describe('the admin APIs', () => {
  const WRONG: [string, Record<string, string>][] = [
    ['no authorization header', {}],
    ['a wrong token', { authorization: 'Bearer not-the-token' }],
    ['the token with a character more', { authorization: `Bearer ${TOKEN}x` }],
    ['the token with a character less', { authorization: `Bearer ${TOKEN.slice(0, -1)}` }],
    ['an empty bearer token', { authorization: 'Bearer ' }],
    [
      'the token under another scheme',
      { authorization: `Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}` },
    ],
    ['the token without a scheme', { authorization: TOKEN }],
    ['the token with two spaces', { authorization: `Bearer  ${TOKEN}` }],
  ];

  const gatewayRoutes = (mchNo: string): [string, string, unknown?][] => [
    ['GET', '/admin/platform-key'],
    ['POST', '/admin/merchants', { mchNo: 'INTRUDER1', name: 'x', publicKey: a.publicKeyPem }],
    ['GET', `/admin/merchants/${mchNo}`],
    ['PATCH', `/admin/merchants/${mchNo}`, { status: 'disabled' }],
    ['GET', '/admin/routes'],
    ['GET', '/admin/routes/sandbox-default'],
    ['POST', '/admin/routes', { id: 'intruder', name: 'x' }],
    ['PATCH', '/admin/routes/sandbox-default', { weight: 0 }],
    ['POST', '/admin/routes/sandbox-default/disable'],
    ['POST', '/admin/routes/sandbox-default/enable'],
    ['PUT', '/admin/routes/sandbox-default/merchants', { merchants: [mchNo] }],
    ['POST', `/admin/routes/sandbox-default/merchants/${mchNo}`],
    ['DELETE', `/admin/routes/sandbox-default/merchants/${mchNo}`],
    // Callback deliveries: the gateway's admin port forwards them to the notifier.
    ['GET', '/admin/deliveries?orderNo=P1'],
    ['POST', '/admin/deliveries/00000000-0000-4000-8000-000000000000/resend'],
  ];
  const notifierRoutes: [string, string, unknown?][] = [
    ['GET', '/admin/deliveries?orderNo=P1'],
    ['GET', '/admin/deliveries/00000000-0000-4000-8000-000000000000'],
    ['POST', '/admin/deliveries/00000000-0000-4000-8000-000000000000/resend'],
  ];

  async function call(
    base: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, text: await response.text() };
  }

  it.each(WRONG)(
    'answer 401 on every gateway admin route with %s, and change nothing',
    async (_name, headers) => {
      for (const [method, path, body] of gatewayRoutes(a.mchNo)) {
        const reply = await call(stack.urls.admin, method, path, headers, body);
        expect(reply.status, `${method} ${path}`).toBe(401);
        expect(reply.text).not.toContain('PUBLIC KEY');
      }
      const auth = { authorization: `Bearer ${TOKEN}` };
      const merchant = JSON.parse(
        (await call(stack.urls.admin, 'GET', `/admin/merchants/${a.mchNo}`, auth)).text,
      );
      expect(merchant.status).toBe('enabled');
      expect((await call(stack.urls.admin, 'GET', '/admin/merchants/INTRUDER1', auth)).status).toBe(404);
    },
  );

  it.each(WRONG)('answer 401 on every notifier admin route with %s', async (_name, headers) => {
    for (const [method, path, body] of notifierRoutes) {
      const reply = await call(stack.urls.notifier, method, path, headers, body);
      expect(reply.status, `${method} ${path}`).toBe(401);
    }
  });

  it('answer the right token (so the refusals above are about the token)', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await call(stack.urls.admin, 'GET', '/admin/platform-key', auth)).status).toBe(200);
    expect((await call(stack.urls.admin, 'GET', '/admin/deliveries?orderNo=P1', auth)).status).toBe(200);
    // The notifier answers only the gateway's internal token, never the operators' one.
    expect((await call(stack.urls.notifier, 'GET', '/admin/deliveries?orderNo=P1', auth)).status).toBe(401);
    const internal = { authorization: 'Bearer dev-notifier-admin-token' };
    expect((await call(stack.urls.notifier, 'GET', '/admin/deliveries?orderNo=P1', internal)).status).toBe(
      200,
    );
  });

  it('answer nothing but 401 (or 404 for no route) for any path under /admin without a token', async () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/);
    const path = fc
      .array(segment, { minLength: 0, maxLength: 4 })
      .map((parts) => `/admin/${parts.join('/')}`);
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE');
    await fc.assert(
      fc.asyncProperty(path, method, async (p, m) => {
        const body = m === 'GET' || m === 'DELETE' ? undefined : {};
        // The gateway checks the token before routing: even unknown admin paths answer 401.
        expect((await call(stack.urls.admin, m, p, {}, body)).status).toBe(401);
        expect([401, 404]).toContain((await call(stack.urls.notifier, m, p, {}, body)).status);
      }),
      { numRuns: 40 },
    );
  });
});

describe('callbacks with the SSRF guard on (NOTIFY_ALLOW_PRIVATE=false)', () => {
  interface Delivery {
    status: string;
    lastError: string | null;
    attempts: { outcome: string; error: string | null; httpStatus: number | null }[];
  }

  async function deliveriesOf(orderNo: string): Promise<Delivery[]> {
    const response = await fetch(`${stack.urls.admin}/admin/deliveries?orderNo=${orderNo}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    return ((await response.json()) as { deliveries: Delivery[] }).deliveries;
  }

  /** A pay with `notifyUrl`, closed at once so its status changes; resolves with its finished delivery. */
  async function callbackTo(notifyUrl: string): Promise<Delivery | 'refused at the gateway'> {
    const reply = await send(a, '/gateway/pay', {
      bizOrderNo: biz('SSRF'),
      title: 'SSRF probe',
      method: 'mex_virtual_account',
      amount: 5,
      notifyUrl,
    });
    if (reply.code === 10001) return 'refused at the gateway';
    expect(reply.code, reply.msg).toBe(0);
    const { orderNo } = reply.data as { orderNo: string };
    expect((await send(a, '/gateway/close', { orderNo })).code).toBe(0);
    return waitFor(
      async () => {
        const [delivery] = await deliveriesOf(orderNo);
        return delivery && delivery.status !== 'pending' ? delivery : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 200, message: `the callback to ${notifyUrl} to finish` },
    );
  }

  it.each([
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/iam/', /link-local/],
    ['loopback', () => `http://127.0.0.1:${forbidden.port}/hook`, /loopback/],
    ['loopback in decimal', () => `http://2130706433:${forbidden.port}/hook`, /loopback/],
    ['loopback in hex', () => `http://0x7f.1:${forbidden.port}/hook`, /loopback/],
    ['IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${forbidden.port}/hook`, /loopback/],
    ['a private address', () => 'http://10.0.0.7/hook', /private/],
    ['localhost by name', () => `http://localhost:${forbidden.port}/hook`, /loopback/],
  ])('never sends a callback to %s', async (_name, url, reason) => {
    const outcome = await callbackTo(url());
    if (outcome !== 'refused at the gateway') {
      expect(outcome.status).toBe('failed');
      expect(outcome.attempts.length).toBeGreaterThan(0);
      for (const attempt of outcome.attempts) {
        expect(attempt.httpStatus).toBeNull();
        expect(attempt.error).toMatch(/^refused: /);
      }
      expect(outcome.lastError).toMatch(reason);
    }
    expect(forbidden.hits).toEqual([]);
  });

  it('does not follow a redirect from an allowed endpoint to a forbidden one', async () => {
    // No address on this machine is both reachable and allowed by the production guard (127/8 and the
    // host's 192.0.2.2 are both refused), so the redirecting endpoint can only be reached with the guard
    // lifted. That is the stronger case: not even a target the guard would allow is followed.
    await stack.restart('notifier', { env: { NOTIFY_ALLOW_PRIVATE: 'true' } });
    for (const status of [301, 302, 303, 307, 308]) {
      const redirector = await startTarget((res) => {
        res.writeHead(status, { location: `${forbidden.url}/stolen?from=${status}` }).end();
      });
      try {
        const outcome = await callbackTo(`${redirector.url}/hook`);
        expect(outcome).not.toBe('refused at the gateway');
        const delivery = outcome as Delivery;
        expect(delivery.status).toBe('failed');
        expect(delivery.attempts.every((x) => x.httpStatus === status)).toBe(true);
        expect(delivery.lastError).toMatch(/redirects are not followed/);
        expect(redirector.hits.length).toBe(delivery.attempts.length);
      } finally {
        await redirector.close();
      }
    }
    expect(forbidden.hits).toEqual([]);
  });
});
