import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createDb } from '@agentpay/db';
import { createLogger } from '@agentpay/logger';
import { institutions } from '@agentpay/spei';
import { freePort, REPO_ROOT, type Stack } from '@agentpay/stack';
import {
  createTestDatabase,
  createTestMerchant,
  settleApproval,
  type TestDatabase,
  type TestMerchant,
  waitFor,
} from '@agentpay/testing';
import type { Envelope } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database as RouterDatabase } from '../services/upstream-router/src/db/schema.js';
import { createBreakers } from '../services/upstream-router/src/routing/circuit-breaker.js';
import { createRouteSelector } from '../services/upstream-router/src/routing/route-selector.js';
import { startTestStack } from './support/stack.js';

// Issue 6 across real processes: the whole stack plus a second sandbox process as a second route, added,
// weighted, bound, disabled, re-enabled and killed through the gateway's admin API, while merchants keep
// creating orders. Each order's virtual account is traced back to the sandbox that issued it through that
// sandbox's own tester API. Every merchant reply and callback of the run is kept and scanned at the end
// for anything of a route.

const TOKEN = 'dev-admin-token';
const tag = randomBytes(3).toString('hex');
const ROUTE_B = `second-${tag}`;
const NAME_A = `Primary channel ${tag}`;
const NAME_B = `Secondary channel ${tag}`;
const CLABE = '002010077777777771'; // BANAMEX, 40002
const ALL_PAYEE_TYPES = ['spei_transfer', 'bank_card', 'user_id', 'open_id', 'login_name'];
const CODE_MAP = Object.fromEntries(institutions.map((i) => [i.spei, i.clabe]));

let stack: Stack;
let merchant: TestMerchant;
let other: TestMerchant;
let sandboxB: ChildProcess;
let sandboxBExited: Promise<void>;
let sandboxBDatabase: TestDatabase;
let sandboxBUrl: string;
let routerDb: Kysely<RouterDatabase>;
let sink: Server;
let sinkUrl: string;

/** Every envelope a merchant received in this run, and the raw text of every callback. */
const replies: Envelope[] = [];
const callbacks: string[] = [];

let seq = 0;
const biz = (prefix: string) => `${prefix}${tag}${Date.now()}${++seq}`;

async function startSandboxB(): Promise<void> {
  sandboxBDatabase = await createTestDatabase('router_sandbox_b');
  const port = await freePort();
  sandboxBUrl = `http://127.0.0.1:${port}`;
  sandboxB = spawn(process.execPath, ['--import', 'tsx', 'services/upstream-sandbox/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: sandboxBDatabase.url,
      HOST: '127.0.0.1',
      SANDBOX_PORT: String(port),
      // Its CLABEs differ from the first sandbox's; the tester APIs still decide which issued one.
      SANDBOX_PLAZA: '181',
      SANDBOX_SETTLE_DELAY_MS: '200',
      SANDBOX_POLL_MS: '100',
      SANDBOX_NOTICE_BACKOFF_MS: '200',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  sandboxBExited = new Promise((resolve) => sandboxB.once('exit', () => resolve()));
  await waitFor(
    async () => {
      if (sandboxB.exitCode !== null) throw new Error(`second sandbox exited with ${sandboxB.exitCode}`);
      return (await fetch(`${sandboxBUrl}/healthz`).catch(() => undefined))?.ok;
    },
    { timeoutMs: 30_000, intervalMs: 200, message: 'second sandbox ready' },
  );
}

beforeAll(async () => {
  sink = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      callbacks.push(Buffer.concat(chunks).toString());
      res.end('SUCCESS');
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}`;

  [stack] = await Promise.all([
    startTestStack({
      env: { NOTIFY_RETRY_SCHEDULE: '300ms,300ms,1s', NOTIFY_TIMEOUT_MS: '3000' },
      serviceEnv: {
        // Two unavailable answers open a breaker; the cool-down outlasts the file, so an open breaker
        // stays open while the test looks at it.
        'upstream-router': {
          ROUTE_BREAKER_FAILURES: '2',
          ROUTE_BREAKER_COOLDOWN_MS: '600000',
          UPSTREAM_TIMEOUT_MS: '3000',
        },
        'upstream-sandbox': { SANDBOX_SETTLE_DELAY_MS: '200', SANDBOX_POLL_MS: '100' },
      },
    }),
    startSandboxB(),
  ]);
  const urls = { adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway };
  [merchant, other] = await Promise.all([createTestMerchant(urls), createTestMerchant(urls)]);
  routerDb = createDb<RouterDatabase>(stack.databaseUrl('upstream-router'), { poolSize: 4 });
});

afterAll(async () => {
  await routerDb?.destroy();
  if (sandboxB && sandboxB.exitCode === null && sandboxB.signalCode === null) {
    sandboxB.kill('SIGTERM');
    await sandboxBExited;
  }
  await stack?.stop();
  await sandboxBDatabase?.drop();
  await new Promise((resolve) => (sink ? sink.close(resolve) : resolve(undefined)));
});

// ---------------------------------------------------------------------------------------------------------

interface AdminReply<T = Record<string, unknown>> {
  status: number;
  body: T;
}

interface RouteJson {
  id: string;
  name: string;
  enabled: boolean;
  weight: number;
  priority: number;
  merchantScope: string;
  merchants: string[];
  config: Record<string, unknown>;
  health: {
    state: string;
    recentFailures: number;
    failuresTotal: number;
    successesTotal: number;
    skippedTotal: number;
  };
}

async function admin<T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  init: { token?: string | null; raw?: string } = {},
): Promise<AdminReply<T>> {
  const token = init.token === undefined ? TOKEN : init.token;
  const hasBody = body !== undefined || init.raw !== undefined;
  const response = await fetch(`${stack.urls.admin}${path}`, {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
    },
    ...(hasBody ? { body: init.raw ?? JSON.stringify(body) } : {}),
  });
  // Creating a route and changing its settings or merchants need four eyes: approved by the stack's
  // approver, answered as the route answers without them.
  return settleApproval<T>(stack.urls.admin, { status: response.status, body: await response.json() });
}

async function routeById(id: string): Promise<RouteJson> {
  const list = await admin<{ routes: RouteJson[] }>('GET', '/admin/routes');
  expect(list.status).toBe(200);
  const found = list.body.routes.find((r) => r.id === id);
  if (!found) throw new Error(`route ${id} not listed`);
  return found;
}

/** A signed merchant request; every reply is kept for the leak scan. */
async function send(client: TestMerchant, path: string, params: Record<string, unknown>) {
  const reply = await client.request(path, params);
  expect(reply.signed, `${path} reply signed`).toBe(true);
  expect(reply.status).toBe(200);
  replies.push(reply.envelope);
  return reply.envelope;
}

interface Order {
  orderNo: string;
  bizOrderNo: string;
  clabe: string;
}

async function pay(client: TestMerchant = merchant, extra: Record<string, unknown> = {}): Promise<Order> {
  const envelope = await send(client, '/gateway/pay', {
    bizOrderNo: biz('B'),
    title: 'Routes test',
    method: 'mex_virtual_account',
    amount: 12.5,
    ...extra,
  });
  expect(envelope).toMatchObject({ code: 0 });
  const data = envelope.data as { orderNo: string; bizOrderNo: string; payBody: string };
  return { ...data, clabe: (JSON.parse(data.payBody) as { clabe: string }).clabe };
}

/** Which sandbox issued a CLABE, asked of both sandboxes' tester APIs (exactly one must know it). */
async function issuer(clabe: string): Promise<'A' | 'B'> {
  const known = async (base: string) => (await fetch(`${base}/sandbox/accounts/${clabe}`)).status === 200;
  const [a, b] = await Promise.all([
    known(stack.urls.sandbox),
    sandboxB.exitCode === null && sandboxB.signalCode === null ? known(sandboxBUrl) : false,
  ]);
  expect(a !== b, `exactly one sandbox issued ${clabe}`).toBe(true);
  return a ? 'A' : 'B';
}

async function issuers(count: number, client: TestMerchant = merchant): Promise<('A' | 'B')[]> {
  const out: ('A' | 'B')[] = [];
  for (let i = 0; i < count; i++) out.push(await issuer((await pay(client)).clabe));
  return out;
}

const routeBBody = () => ({
  id: ROUTE_B,
  name: NAME_B,
  adapter: 'sandbox',
  config: { baseUrl: sandboxBUrl, noticeSecretRef: 'SANDBOX_NOTICE_SECRET', timeoutMs: 3000 },
  credentialsRef: 'SANDBOX_API_KEY',
  methods: ['mex_virtual_account'],
  payeeTypes: ALL_PAYEE_TYPES,
  priority: 100,
  weight: 100,
  codeMap: CODE_MAP,
});

// ---------------------------------------------------------------------------------------------------------

describe('routes admin API', () => {
  it('answers 401 without the bearer token or with a wrong one, and changes nothing', async () => {
    expect((await admin('GET', '/admin/routes', undefined, { token: null })).status).toBe(401);
    expect((await admin('GET', '/admin/routes/sandbox-default', undefined, { token: 'nope' })).status).toBe(
      401,
    );
    expect((await admin('POST', '/admin/routes', routeBBody(), { token: null })).status).toBe(401);
    expect((await admin('POST', '/admin/routes/sandbox-default/disable', {}, { token: 'x' })).status).toBe(
      401,
    );
    expect(
      (await admin('PATCH', '/admin/routes/sandbox-default', { weight: 1 }, { token: null })).status,
    ).toBe(401);
    expect((await admin('GET', `/admin/routes/${ROUTE_B}`)).status).toBe(404);
    expect(await routeById('sandbox-default')).toMatchObject({ enabled: true, weight: 100 });
  });

  it('lists the seeded sandbox route open to every merchant with a closed breaker, and renames it', async () => {
    const seeded = await routeById('sandbox-default');
    expect(seeded).toMatchObject({
      enabled: true,
      priority: 100,
      merchantScope: 'all',
      merchants: [],
      config: { baseUrl: stack.urls.sandbox },
      health: { state: 'closed', recentFailures: 0 },
    });
    const renamed = await admin<RouteJson>('PATCH', '/admin/routes/sandbox-default', { name: NAME_A });
    expect(renamed).toMatchObject({
      status: 200,
      body: { id: 'sandbox-default', name: NAME_A, weight: 100 },
    });
    expect((await admin<RouteJson>('GET', '/admin/routes/sandbox-default')).body.name).toBe(NAME_A);
  });

  // Built when the test runs: the second sandbox's URL is known only then.
  it.each<[string, Record<string, unknown>, RegExp]>([
    ['no id', { id: undefined }, /^id:/],
    ['an id with capitals', { id: 'Second' }, /^id:/],
    ['an unknown adapter', { adapter: 'paypal' }, /^adapter: .*paypal/],
    ['a raw upstream code as payee code', { codeMap: { '012': '012' } }, /^codeMap\.012:/],
    ['a code outside the public list', { codeMap: { '99999': '999' } }, /^codeMap\.99999:/],
    ['a secret name outside the allowed families', { credentialsRef: 'DATABASE_URL' }, /^credentialsRef:/],
    ['an unknown method', { methods: ['cash'] }, /^methods: .*cash/],
    ['an unknown payee type', { payeeTypes: ['paypal'] }, /^payeeTypes: .*paypal/],
    ['a negative weight', { weight: -1 }, /^weight:/],
    ['a fractional priority', { priority: 1.5 }, /^priority:/],
    ['a base URL that is no URL', { config: { baseUrl: 'nowhere' } }, /^config\.baseUrl:/],
    ['a misspelt setting', { config: { timeoutMS: 5 } }, /^config\.timeoutMS:/],
    [
      'a notice key name outside the allowed families',
      { config: { noticeSecretRef: 'PGPASSWORD' } },
      /^config\.noticeSecretRef:/,
    ],
    ['an unknown field', { colour: 'red' }, /colour/],
    ['a bank payee type without codes', { codeMap: {} }, /^codeMap:/],
  ])(
    'refuses to create a route with %s: 400 naming the field, nothing stored',
    async (_what, overrides, message) => {
      const base = routeBBody();
      const config = overrides['config'] as Record<string, unknown> | undefined;
      const body = { ...base, ...overrides, config: { ...base.config, ...config } };
      const reply = await admin<{ error: string; message: string }>('POST', '/admin/routes', body);
      expect(reply.status).toBe(400);
      expect(reply.body.message).toMatch(message);
      expect((await admin('GET', `/admin/routes/${ROUTE_B}`)).status).toBe(404);
    },
  );

  it.each<[string, Record<string, unknown>, RegExp]>([
    [
      'a prefix another route assigns',
      { clabePrefix: '6461805555' },
      /^config\.clabePrefix: route stp-default/,
    ],
    ["a prefix that is not STP's", { clabePrefix: '0121801234' }, /^config\.clabePrefix:/],
    [
      'an own account that is no CLABE',
      { cuentaOrdenante: '646180123400000001' },
      /^config\.cuentaOrdenante:/,
    ],
    ['a key variable that is not set', { privateKeyRef: 'CHANNEL_NOT_SET' }, /^config\.privateKeyRef:/],
    [
      'a key with the wrong passphrase',
      { passphraseRef: 'CHANNEL_STP_WRONG' },
      /^config\.privateKeyRef:.*does not load/,
    ],
    [
      'a key variable outside the allowed families',
      { privateKeyRef: 'DATABASE_URL' },
      /^config\.privateKeyRef:/,
    ],
  ])('refuses an STP route with %s: 400 naming the field, nothing stored', async (_what, config, message) => {
    const body = {
      id: 'stp-second',
      name: 'STP second',
      adapter: 'stp',
      config: {
        empresa: 'SEGUNDA',
        speiBase: 'http://127.0.0.1:9/speiws/rest',
        efwsBase: 'http://127.0.0.1:9/efws/API',
        clabePrefix: '6461801234',
        cuentaOrdenante: '646180123400000007',
        privateKeyRef: 'CHANNEL_STP_PRIVATE_KEY',
        passphraseRef: 'CHANNEL_STP_PASSPHRASE',
        webhookAllow: ['203.0.113.0/24'],
        ...config,
      },
      methods: ['mex_virtual_account'],
      payeeTypes: ['spei_transfer'],
      codeMap: { '40002': '40002' },
    };
    const reply = await admin<{ message: string }>('POST', '/admin/routes', body);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(message);
    expect((await admin('GET', '/admin/routes/stp-second')).status).toBe(404);
  });

  it('answers 400 for bodies that are not JSON objects or change nothing', async () => {
    expect((await admin('POST', '/admin/routes', undefined, { raw: '{"id": ' })).status).toBe(400);
    expect((await admin('POST', '/admin/routes', [routeBBody()])).status).toBe(400);
    expect((await admin('PATCH', '/admin/routes/sandbox-default', {})).status).toBe(400);
    expect((await admin('PATCH', '/admin/routes/sandbox-default', { weight: 'heavy' })).status).toBe(400);
    expect((await admin('PATCH', '/admin/routes/sandbox-default', { id: 'other' })).status).toBe(400);
    const badCode = await admin<{ message: string }>('PATCH', '/admin/routes/sandbox-default', {
      codeMap: { '012': '012' },
    });
    expect(badCode).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^codeMap\.012/) } });
    expect((await admin('PUT', '/admin/routes/sandbox-default/merchants', { merchants: 'all' })).status).toBe(
      400,
    );
    const unknownMerchant = await admin<{ message: string }>(
      'PUT',
      '/admin/routes/sandbox-default/merchants',
      {
        merchants: [merchant.mchNo, 'NO_SUCH_MERCHANT'],
      },
    );
    expect(unknownMerchant).toMatchObject({
      status: 400,
      body: { message: 'merchants.1: no such merchant' },
    });
    // None of it changed the route.
    expect(await routeById('sandbox-default')).toMatchObject({ name: NAME_A, merchants: [] });
  });

  it('merges a config change key by key, a null removing a key', async () => {
    const set = await admin<RouteJson>('PATCH', '/admin/routes/sandbox-default', {
      config: { timeoutMs: 4000 },
    });
    expect(set.body.config).toMatchObject({ baseUrl: stack.urls.sandbox, timeoutMs: 4000 });
    const unset = await admin<RouteJson>('PATCH', '/admin/routes/sandbox-default', {
      config: { timeoutMs: null },
    });
    expect(unset.body.config).toMatchObject({ baseUrl: stack.urls.sandbox });
    expect(unset.body.config).not.toHaveProperty('timeoutMs');
  });

  it('answers 404 for an unknown route and 409 for an id that exists', async () => {
    expect((await admin('GET', '/admin/routes/no-such-route')).status).toBe(404);
    expect((await admin('PATCH', '/admin/routes/no-such-route', { weight: 5 })).status).toBe(404);
    expect((await admin('POST', '/admin/routes/no-such-route/enable', {})).status).toBe(404);
    expect((await admin('POST', `/admin/routes/no-such-route/merchants/${merchant.mchNo}`, {})).status).toBe(
      404,
    );
    expect((await admin('POST', '/admin/routes', { ...routeBBody(), id: 'sandbox-default' })).status).toBe(
      409,
    );
  });
});

describe('two sandboxes as two routes', () => {
  it('a second sandbox added through the admin API at the same priority shares new orders at once', async () => {
    const created = await admin<RouteJson>('POST', '/admin/routes', routeBBody());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: ROUTE_B,
      name: NAME_B,
      enabled: true,
      priority: 100,
      weight: 100,
      merchantScope: 'all',
      // Defaulted to the router's own notice endpoint for this route.
      config: { noticeUrl: `http://127.0.0.1:${stack.ports.routerNotices}/notices/${ROUTE_B}` },
      health: { state: 'closed' },
    });
    const seen = await issuers(16);
    expect(seen).toContain('A');
    expect(seen).toContain('B');
  });

  it('disabling a route moves every new order to the other; orders there are paid and paid out by its notices', async () => {
    const disabled = await admin<RouteJson>('POST', '/admin/routes/sandbox-default/disable', {});
    expect(disabled).toMatchObject({ status: 200, body: { enabled: false } });
    expect(await issuers(6)).toEqual(['B', 'B', 'B', 'B', 'B', 'B']);

    // A pay-in through the second sandbox: its notice is verified for that route and applied.
    const order = await pay(merchant, { notifyUrl: `${sinkUrl}/pay` });
    const deposit = await fetch(`${sandboxBUrl}/sandbox/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clabe: order.clabe, amount: 12.5 }),
    });
    expect(deposit.status).toBe(201);
    await waitFor(
      async () =>
        (
          (await send(merchant, '/gateway/query/payOrder', { orderNo: order.orderNo })).data as {
            status: string;
          }
        ).status === 'success',
      { timeoutMs: 15_000, intervalMs: 200, message: 'order paid through the second sandbox' },
    );

    // A payout and an inquiry on the only enabled route, the second sandbox.
    const inquiry = await send(merchant, '/gateway/inqury', {
      bizInquryNo: biz('Q'),
      payeeType: 'spei_transfer',
      payeeAccount: CLABE,
      payeeName: 'Ana Perez',
    });
    expect(inquiry).toMatchObject({ code: 0, data: { status: 'valid' } });
    for (const payeeName of ['Ana Perez', 'SYNCREJECT Ana']) {
      const transfer = await send(merchant, '/gateway/transfer', {
        bizTransferNo: biz('T'),
        amount: 20,
        title: 'Payout',
        reason: 'commission',
        payeeType: 'spei_transfer',
        payeeAccount: CLABE,
        payeeName,
        notifyUrl: `${sinkUrl}/transfer`,
      });
      expect(transfer.code).toBe(0);
      const { transferNo } = transfer.data as { transferNo: string };
      const expected = payeeName === 'Ana Perez' ? 'success' : 'fail';
      await waitFor(
        async () =>
          (
            (await send(merchant, '/gateway/query/transferOrder', { transferNo })).data as {
              status: string;
            }
          ).status === expected,
        { timeoutMs: 15_000, intervalMs: 200, message: `transfer ${transferNo} ${expected}` },
      );
      if (expected === 'success') {
        // Settled by the second sandbox's notice.
        const notices = await fetch(`${sandboxBUrl}/sandbox/notices?ref=${transferNo}`);
        expect(((await notices.json()) as { notices: unknown[] }).notices.length).toBeGreaterThan(0);
      }
    }
    await waitFor(() => callbacks.length >= 2, { timeoutMs: 15_000, message: 'callbacks of the run' });
  });

  it('re-enabling the route brings traffic back to it', async () => {
    const enabled = await admin<RouteJson>('POST', '/admin/routes/sandbox-default/enable', {});
    expect(enabled).toMatchObject({ status: 200, body: { enabled: true, health: { state: 'closed' } } });
    const seen = await issuers(16);
    expect(seen).toContain('A');
    expect(seen).toContain('B');
  });

  it('a list-scoped route serves only the merchants bound to it', async () => {
    const scoped = await admin<RouteJson>('PATCH', `/admin/routes/${ROUTE_B}`, { merchantScope: 'list' });
    expect(scoped.body).toMatchObject({ merchantScope: 'list', merchants: [] });
    const bound = await admin<RouteJson>('PUT', `/admin/routes/${ROUTE_B}/merchants`, {
      merchants: [other.mchNo],
    });
    expect(bound).toMatchObject({ status: 200, body: { merchants: [other.mchNo] } });
    expect(await issuers(6, merchant)).toEqual(['A', 'A', 'A', 'A', 'A', 'A']);

    const added = await admin<RouteJson>('POST', `/admin/routes/${ROUTE_B}/merchants/${merchant.mchNo}`, {});
    expect([...added.body.merchants].sort()).toEqual([merchant.mchNo, other.mchNo].sort());
    const removed = await admin<RouteJson>('DELETE', `/admin/routes/${ROUTE_B}/merchants/${other.mchNo}`);
    expect(removed).toMatchObject({ status: 200, body: { merchants: [merchant.mchNo] } });
    // `other` lost its binding: only the route open to all serves it now.
    expect(await issuers(6, other)).toEqual(['A', 'A', 'A', 'A', 'A', 'A']);

    expect((await admin('PATCH', `/admin/routes/${ROUTE_B}`, { merchantScope: 'all' })).status).toBe(200);
  });

  it('weights set through the admin API split the picks of the real selection within a few percent', async () => {
    for (const [id, weight] of [
      ['sandbox-default', 25],
      [ROUTE_B, 75],
    ] as const)
      expect((await admin<RouteJson>('PATCH', `/admin/routes/${id}`, { weight })).body.weight).toBe(weight);

    // The router's own selection code over the router's routes table, as the admin API left it.
    const selector = createRouteSelector(routerDb, {
      breakers: createBreakers({ failureThreshold: 5, windowMs: 60_000, coolDownMs: 15_000 }),
      logger: createLogger({ service: 'test', level: 'silent' }),
    });
    const picks = 4_000;
    const firsts: (string | undefined)[] = [];
    // A few picks at a time: each is one query of the routes table, as in the router.
    for (let i = 0; i < picks; i += 8)
      firsts.push(
        ...(await Promise.all(
          Array.from(
            { length: 8 },
            async () => (await selector.forMethod(merchant.mchNo, 'mex_virtual_account'))[0]?.id,
          ),
        )),
      );
    expect(new Set(firsts)).toEqual(new Set(['sandbox-default', ROUTE_B]));
    const onB = firsts.filter((id) => id === ROUTE_B).length;
    // 75 % expected; the standard deviation over 4000 picks is 0.7 %.
    expect(Math.abs(onB / picks - 0.75)).toBeLessThan(0.03);

    // Weight 0 drains a route: it takes no new traffic at all. (This selector is the test's own, with no
    // LISTEN for the routes' NOTIFY that drops a router's cache, so it is told directly.)
    await admin('PATCH', `/admin/routes/${ROUTE_B}`, { weight: 0 });
    selector.invalidate();
    for (let i = 0; i < 200; i++)
      expect((await selector.forMethod(merchant.mchNo, 'mex_virtual_account')).map((r) => r.id)).toEqual([
        'sandbox-default',
      ]);

    for (const id of ['sandbox-default', ROUTE_B])
      expect((await admin('PATCH', `/admin/routes/${id}`, { weight: 100 })).status).toBe(200);
  }, 90_000);

  it('when a sandbox dies, orders still succeed through the other; then its breaker opens and it is skipped without a connection attempt', async () => {
    sandboxB.kill('SIGKILL');
    await sandboxBExited;

    // Each order that picks the dead route first fails over to the live one; two such failures open it.
    let orders = 0;
    while ((await routeById(ROUTE_B)).health.state !== 'open') {
      // Half the orders pick the dead route first; 40 without two such picks would be a broken selection.
      expect(orders, 'orders before the breaker opened').toBeLessThan(40);
      expect(await issuer((await pay()).clabe)).toBe('A');
      orders++;
    }
    expect(orders).toBeGreaterThanOrEqual(2);
    const opened = (await routeById(ROUTE_B)).health;
    expect(opened).toMatchObject({ state: 'open', recentFailures: 2 });

    expect(await issuers(5)).toEqual(['A', 'A', 'A', 'A', 'A']);
    const later = await routeById(ROUTE_B);
    // Not one more failed attempt: the dead route was left out of every selection.
    expect(later.health.state).toBe('open');
    expect(later.health.failuresTotal).toBe(opened.failuresTotal);
    expect(later.health.skippedTotal).toBeGreaterThanOrEqual(opened.skippedTotal + 5);
    expect((await routeById('sandbox-default')).health.state).toBe('closed');
  });

  it('with every eligible route open or disabled, the merchant gets 50002 and nothing is created; re-enabling brings orders back', async () => {
    const before = (await routeById(ROUTE_B)).health;
    expect((await admin('POST', '/admin/routes/sandbox-default/disable', {})).status).toBe(200);
    const bizOrderNo = biz('B');
    const params = { bizOrderNo, title: 'Routes test', method: 'mex_virtual_account', amount: 12.5 };
    const refused = await send(merchant, '/gateway/pay', params);
    expect(refused.code).toBe(50002);
    expect((await send(merchant, '/gateway/query/payOrder', { bizOrderNo })).code).toBe(30003);
    const after = (await routeById(ROUTE_B)).health;
    expect(after.failuresTotal).toBe(before.failuresTotal);

    expect((await admin('POST', '/admin/routes/sandbox-default/enable', {})).status).toBe(200);
    const retried = await send(merchant, '/gateway/pay', params);
    expect(retried.code).toBe(0);
    const { payBody } = retried.data as { payBody: string };
    expect(await issuer((JSON.parse(payBody) as { clabe: string }).clabe)).toBe('A');
  });

  it('no merchant reply or callback of the run names a route, its channel or its address', async () => {
    expect(replies.length).toBeGreaterThan(50);
    expect(callbacks.length).toBeGreaterThanOrEqual(2);
    const forbidden: (string | RegExp)[] = [
      ROUTE_B,
      'sandbox-default',
      NAME_A,
      NAME_B,
      sandboxBUrl.replace('http://', ''),
      stack.urls.sandbox.replace('http://', ''),
      `127.0.0.1:${stack.ports.routerNotices}`,
      '/notices/',
      /\bva_[0-9a-f]{8}/,
      /\bpo_[0-9a-f]{8}/,
      /\bntc_[0-9a-f]{8}/,
      /ECONNREFUSED|rejected_by_channel|beneficiary_bank_rejected|x-api-key|channel refused/i,
    ];
    const texts = [...replies.map((e) => JSON.stringify(e)), ...callbacks];
    for (const text of texts)
      for (const needle of forbidden)
        if (typeof needle === 'string') expect(text).not.toContain(needle);
        else expect(text).not.toMatch(needle);
  });
});
