import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { AgentpayClient, type BalanceRecord, unwrap } from '@agentpay/merchant-sdk';
import { connectNats, statusChangedSubject } from '@agentpay/messaging';
import {
  approverFor,
  createTestDatabase,
  createTestMerchant,
  createTestPerson,
  natsUrl,
  settleApproval,
  type TestDatabase,
  type TestMerchant,
  TIME_ZONE,
  uniqueName,
  waitFor,
} from '@agentpay/testing';
import { formatWireTime, generateKeyPair } from '@agentpay/wire';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as runCli } from '../packages/admin-cli/src/cli.js';
import { type Gateway, main as startGateway } from '../services/gateway/src/main.js';
import { type Ledger, main as startLedger } from '../services/ledger/src/main.js';

// The ledger as merchants and operators see it: the gateway and the ledger service in-process on fresh
// databases and a real NATS stream. Merchants query their balance and page through their statement with
// signed requests (replies verified); operators adjust, settle and check through the admin API and the
// CLI. A pay-in reaches the ledger as producers publish it, on JetStream.

type Json = Record<string, unknown>;
type Merchant = TestMerchant & { platformKey: import('node:crypto').KeyObject };

const prefix = uniqueName('t_ledger_surface');
const stream = prefix.toUpperCase();
const keyDir = `/tmp/agentpay-${prefix}`;
let gatewayDb: TestDatabase;
let ledgerDb: TestDatabase;
let ledger: Ledger;
let gateway: Gateway;
let production: Gateway;
let noLedger: Gateway;
let nc: NatsConnection;
let admin: string;
let a: Merchant;
let b: Merchant;

const window = () => ({
  startTime: formatWireTime(new Date(Date.now() - 60 * 60_000), TIME_ZONE),
  endTime: formatWireTime(new Date(Date.now() + 60 * 60_000), TIME_ZONE),
});
const centavos = (pesos: unknown) => Math.round(Number(pesos) * 100);

async function adminCall(
  method: string,
  path: string,
  body?: unknown,
  base = admin,
  token = 'dev-admin-token',
) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // An adjustment needs four eyes: approved by the stack's approver, answered as it would be.
  return settleApproval<Json>(base, { status: response.status, body: await response.json() });
}

const adjust = (mchNo: string, amount: number, reference = randomBytes(6).toString('hex'), reason = 'test') =>
  adminCall('POST', `/admin/merchants/${mchNo}/adjustments`, { amount, reason, reference });

/** A pay order of `mchNo` reaching success, published as payments' outbox relay would. */
async function publishPayIn(mchNo: string, orderNo: string, amount: number, fee: number) {
  const payTime = new Date().toISOString();
  const event = {
    event_id: randomUUID(),
    mch_no: mchNo,
    kind: 'pay',
    order_no: orderNo,
    from_status: 'wait',
    to_status: 'success',
    version: '2',
    occurred_at: payTime,
    pay_order: {
      order_no: orderNo,
      biz_order_no: `B-${orderNo}`,
      mch_no: mchNo,
      amount: String(amount),
      fee: String(fee),
      real_amount: String(amount - fee),
      status: 'success',
      settle_type: 'D+1',
      pay_time: payTime,
    },
  };
  await jetstream(nc).publish(statusChangedSubject(`${prefix}.events`, 'pay'), JSON.stringify(event), {
    msgID: event.event_id,
  });
}

async function balanceOf(merchant: Merchant) {
  const reply = await merchant.request('/gateway/query/balance');
  expect(reply.signed).toBe(true);
  expect(reply.envelope.code).toBe(0);
  return reply.envelope.data as Json;
}

/** Every record of `merchant` in the window, page by page through signed requests. */
async function statement(merchant: Merchant, limit: number) {
  const records: Json[] = [];
  const pages: number[] = [];
  let cursor: string | undefined;
  do {
    const reply = await merchant.request('/gateway/query/balanceRecords', {
      ...window(),
      limit,
      ...(cursor ? { cursor } : {}),
    });
    expect(reply.signed).toBe(true);
    expect(reply.envelope.code, reply.envelope.msg).toBe(0);
    const data = reply.envelope.data as { records: Json[]; nextCursor?: string };
    records.push(...data.records);
    pages.push(data.records.length);
    cursor = data.nextCursor;
  } while (cursor);
  return { records, pages };
}

/** Each record's balances equal the previous record's (zero before the first) plus its changes. */
function expectChained(records: Json[]) {
  let available = 0;
  let pending = 0;
  let frozen = 0;
  for (const record of records) {
    available += centavos(record['availableChange']);
    pending += centavos(record['pendingChange']);
    frozen += centavos(record['frozenChange']);
    expect(
      [
        centavos(record['availableBalance']),
        centavos(record['pendingBalance']),
        centavos(record['frozenBalance']),
      ],
      `record ${String(record['recordNo'])}`,
    ).toEqual([available, pending, frozen]);
  }
  return { available, pending, frozen };
}

beforeAll(async () => {
  [gatewayDb, ledgerDb] = await Promise.all([
    createTestDatabase('ledger_surface_gateway'),
    createTestDatabase('ledger_surface_ledger'),
  ]);
  const nats = await natsUrl();
  nc = await connectNats(nats, { name: 'ledger-surface-test' });
  ledger = await startLedger({
    DATABASE_URL: ledgerDb.url,
    NATS_URL: nats,
    GRPC_PORT: '0',
    METRICS_PORT: '0',
    HOST: '127.0.0.1',
    EVENTS_STREAM: stream,
    EVENTS_SUBJECT_PREFIX: `${prefix}.events`,
    LEDGER_CONSUMER: `${prefix}_ledger`,
    SETTLEMENT_SWEEP_INTERVAL_MS: '0',
    LOG_LEVEL: 'silent',
  });
  const gatewayEnv = {
    DATABASE_URL: gatewayDb.url,
    NATS_URL: nats,
    GATEWAY_PORT: '0',
    ADMIN_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    PLATFORM_PRIVATE_KEY_FILE: `${keyDir}/platform-key.pem`,
    LEDGER_ADDR: `127.0.0.1:${ledger.grpcPort}`,
    // Nothing listens there: these tests need only the ledger.
    PAYMENTS_ADDR: '127.0.0.1:1',
    TRANSFERS_ADDR: '127.0.0.1:1',
    ROUTER_ADDR: '127.0.0.1:1',
    GRPC_TIMEOUT_MS: '5000',
  };
  gateway = await startGateway(gatewayEnv);
  production = await startGateway({
    ...gatewayEnv,
    NODE_ENV: 'production',
    ADMIN_TOKEN: 'prod-token',
    CASHIER_SECRET: randomBytes(24).toString('hex'),
    PEOPLE_SECRET_KEY: randomBytes(24).toString('hex'),
    NOTIFIER_ADMIN_TOKEN: 'prod-notifier-token',
    PLATFORM_PRIVATE_KEY: generateKeyPair().privateKeyPem,
  });
  noLedger = await startGateway({ ...gatewayEnv, LEDGER_ADDR: '127.0.0.1:1', GRPC_TIMEOUT_MS: '1000' });
  admin = `http://127.0.0.1:${gateway.adminPort}`;
  const gatewayUrl = `http://127.0.0.1:${gateway.merchantPort}`;
  a = await createTestMerchant({ adminUrl: admin, gatewayUrl, fund: false });
  b = await createTestMerchant({ adminUrl: admin, gatewayUrl, fund: false });
});

afterAll(async () => {
  await Promise.all([gateway?.stop(), production?.stop(), noLedger?.stop()]);
  await ledger?.stop();
  await nc?.close();
  await Promise.all([gatewayDb?.drop(), ledgerDb?.drop()]);
  rmSync(keyDir, { recursive: true, force: true });
});

describe('operators adjust a balance through the admin API', () => {
  it('credits and debits available, idempotent by reference, and the merchant sees it in its signed balance', async () => {
    expect(await balanceOf(a)).toEqual({ currency: 'MXN', available: 0, pending: 0, frozen: 0 });

    const credit = await adjust(a.mchNo, 250.5, 'fund-1', 'sandbox funding');
    expect(credit.status).toBe(201);
    expect(credit.body).toMatchObject({
      created: true,
      record: {
        type: 'adjust',
        amount: 250.5,
        availableChange: 250.5,
        availableBalance: 250.5,
        remark: 'sandbox funding',
      },
    });
    const again = await adjust(a.mchNo, 250.5, 'fund-1', 'sandbox funding');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, record: credit.body['record'] as Json });

    const debit = await adjust(a.mchNo, -0.5, 'fee-correction-1');
    expect(debit.status).toBe(201);
    expect(debit.body['record']).toMatchObject({
      amount: -0.5,
      availableChange: -0.5,
      availableBalance: 250,
    });

    expect(await balanceOf(a)).toEqual({ currency: 'MXN', available: 250, pending: 0, frozen: 0 });
    const shown = await adminCall('GET', `/admin/merchants/${a.mchNo}/balance`);
    expect(shown).toEqual({
      status: 200,
      body: { mchNo: a.mchNo, currency: 'MXN', available: 250, pending: 0, frozen: 0 },
    });
  });

  it('refuses an overdraw with 409 and changes nothing', async () => {
    const overdraw = await adjust(a.mchNo, -250.01);
    expect(overdraw.status).toBe(409);
    expect(overdraw.body['error']).toBe('insufficient_balance');
    expect((await balanceOf(a))['available']).toBe(250);
  });

  it('answers 409 for a reference reused with another amount', async () => {
    const reused = await adjust(a.mchNo, 99, 'fund-1', 'sandbox funding');
    expect(reused.status).toBe(409);
    expect(reused.body['error']).toBe('conflict');
  });

  it('answers 400 naming the field for bad input, 404 for an unknown merchant, 401 without the token', async () => {
    const bad: [unknown, string][] = [
      [{ amount: 0, reason: 'r', reference: 'x' }, 'amount'],
      [{ amount: 1.005, reason: 'r', reference: 'x' }, 'amount'],
      [{ amount: '10', reason: 'r', reference: 'x' }, 'amount'],
      [{ amount: 100_000_000, reason: 'r', reference: 'x' }, 'amount'],
      [{ amount: 10, reference: 'x' }, 'reason'],
      [{ amount: 10, reason: 'r' }, 'reference'],
      [{ amount: 10, reason: 'r', reference: 'x'.repeat(101) }, 'reference'],
    ];
    for (const [body, field] of bad) {
      const answer = await adminCall('POST', `/admin/merchants/${a.mchNo}/adjustments`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(String(answer.body['message']), JSON.stringify(body)).toMatch(new RegExp(`^${field}:`));
    }
    expect((await adjust('NOSUCHMERCHANT', 10)).status).toBe(404);
    expect((await adminCall('GET', '/admin/merchants/NOSUCHMERCHANT/balance')).status).toBe(404);
    expect(
      (await adminCall('GET', `/admin/merchants/${a.mchNo}/balance`, undefined, admin, 'wrong')).status,
    ).toBe(401);
  });
});

describe('settlement runs and the check', () => {
  it('a D+1 pay-in waits in pending until a run with a future until moves it to available', async () => {
    const orderNo = `P${randomBytes(6).toString('hex')}`;
    await publishPayIn(a.mchNo, orderNo, 10_050, 302);
    const pending = await waitFor(
      async () => {
        const balance = await balanceOf(a);
        return balance['pending'] === 97.48 && balance;
      },
      { message: 'the pay-in reached pending', timeoutMs: 15_000 },
    );
    expect(pending).toEqual({ currency: 'MXN', available: 250, pending: 97.48, frozen: 0 });

    // Not due yet: a run until now settles nothing of it.
    const now = await adminCall('POST', '/admin/settlements/run', {});
    expect(now.status).toBe(200);
    expect((await balanceOf(a))['pending']).toBe(97.48);

    const until = formatWireTime(new Date(Date.now() + 10 * 24 * 60 * 60_000), TIME_ZONE);
    const run = await adminCall('POST', '/admin/settlements/run', { until });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ until });
    expect(run.body['settled']).toBeGreaterThanOrEqual(1);
    expect(await balanceOf(a)).toEqual({ currency: 'MXN', available: 347.48, pending: 0, frozen: 0 });
  });

  it('refuses a malformed until with 400, and in production an until in the future', async () => {
    const malformed = await adminCall('POST', '/admin/settlements/run', { until: '2026-13-01 00:00:00' });
    expect(malformed.status).toBe(400);
    expect(String(malformed.body['message'])).toMatch(/^until:/);

    const prodAdmin = `http://127.0.0.1:${production.adminPort}`;
    // Production: ADMIN_TOKEN creates the first owner and nothing else; the owner acts with a personal token.
    const owner = await createTestPerson({ adminUrl: prodAdmin, roles: ['owner'], invitedBy: 'prod-token' });
    const tokenRefused = await adminCall('POST', '/admin/settlements/run', {}, prodAdmin, 'prod-token');
    expect(tokenRefused.status).toBe(401);
    const secondOwner = await adminCall(
      'POST',
      '/admin/users',
      { email: 'second@owner.test', name: 'Second', roles: ['owner'] },
      prodAdmin,
      'prod-token',
    );
    expect(secondOwner.status).toBe(401);
    const future = formatWireTime(new Date(Date.now() + 60 * 60_000), TIME_ZONE);
    const refused = await adminCall(
      'POST',
      '/admin/settlements/run',
      { until: future },
      prodAdmin,
      owner.token,
    );
    expect(refused.status).toBe(400);
    expect(String(refused.body['message'])).toMatch(/^until:.*future/);
    const past = formatWireTime(new Date(Date.now() - 60_000), TIME_ZONE);
    const allowed = await adminCall(
      'POST',
      '/admin/settlements/run',
      { until: past },
      prodAdmin,
      owner.token,
    );
    expect(allowed).toMatchObject({ status: 200, body: { until: past } });
  });

  it('checks the books: balanced, every balance the sum of its postings', async () => {
    const check = await adminCall('GET', '/admin/ledger/check');
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ ok: true, problems: [] });
    expect(check.body['entries']).toBeGreaterThanOrEqual(4);
    expect(check.body['accounts']).toBeGreaterThanOrEqual(3);
  });
});

describe('query/balanceRecords', () => {
  it('pages the statement with a cursor; the running balances chain and end at the balance', async () => {
    // A few more movements so that pages of two split them.
    for (const amount of [12.34, -2.34, 0.01]) expect((await adjust(a.mchNo, amount)).status).toBe(201);

    const { records, pages } = await statement(a, 2);
    expect(records.map((r) => r['type'])).toEqual([
      'adjust',
      'adjust',
      'pay_in',
      'settle',
      'adjust',
      'adjust',
      'adjust',
    ]);
    expect(pages).toEqual([2, 2, 2, 1]);
    const end = expectChained(records);
    const balance = await balanceOf(a);
    expect(end).toEqual({
      available: centavos(balance['available']),
      pending: centavos(balance['pending']),
      frozen: centavos(balance['frozen']),
    });

    const payIn = records[2]!;
    expect(payIn).toMatchObject({ amount: 100.5, fee: 3.02, pendingChange: 97.48, availableChange: 0 });
    expect(payIn['orderNo']).toMatch(/^P/);
    expect(payIn['bizOrderNo']).toBe(`B-${String(payIn['orderNo'])}`);
    // A field without a value is left out, never null.
    expect(payIn).not.toHaveProperty('transferNo');
    expect(payIn).not.toHaveProperty('remark');
    expect(String(payIn['createTime'])).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(new Set(records.map((r) => r['recordNo'])).size).toBe(records.length);

    // One page of 100 (the default) holds the same records, with no nextCursor.
    const whole = await a.request('/gateway/query/balanceRecords', window());
    expect(whole.envelope.data).toEqual({ records });
  });

  it('shows another merchant only its own records and balance', async () => {
    expect(await balanceOf(b)).toEqual({ currency: 'MXN', available: 0, pending: 0, frozen: 0 });
    expect((await statement(b, 100)).records).toEqual([]);
    await adjust(b.mchNo, 5);
    const own = (await statement(b, 100)).records;
    expect(own).toHaveLength(1);
    const ofA = new Set((await statement(a, 500)).records.map((r) => r['recordNo']));
    expect(own.some((r) => ofA.has(r['recordNo']))).toBe(false);
  });

  it('answers 10001 naming the field for bad parameters, after the signature is checked', async () => {
    const { startTime, endTime } = window();
    // One base instant, so that two times computed for one request are exactly the days apart they say.
    const base = Date.now();
    const later = (days: number) => formatWireTime(new Date(base + days * 24 * 60 * 60_000), TIME_ZONE);
    const cases: [Json, string][] = [
      [{ endTime }, 'startTime'],
      [{ startTime }, 'endTime'],
      [{ startTime: '2026/11/01 00:00:00', endTime }, 'startTime'],
      [{ startTime, endTime: '2026-02-30 00:00:00' }, 'endTime'],
      [{ startTime: endTime, endTime: startTime }, 'endTime'],
      [{ startTime, endTime: startTime }, 'endTime'],
      [{ startTime: later(0), endTime: later(31.5) }, 'endTime'],
      [{ startTime, endTime, limit: 0 }, 'limit'],
      [{ startTime, endTime, limit: 501 }, 'limit'],
      [{ startTime, endTime, limit: 1.5 }, 'limit'],
      [{ startTime, endTime, limit: '10' }, 'limit'],
      [{ startTime, endTime, cursor: 'not-a-cursor' }, 'cursor'],
    ];
    for (const [params, field] of cases) {
      const reply = await a.request('/gateway/query/balanceRecords', params);
      expect(reply.signed).toBe(true);
      expect(reply.envelope.code, JSON.stringify(params)).toBe(10001);
      expect(reply.envelope.msg, JSON.stringify(params)).toContain(field);
    }
    const exactly31 = await a.request('/gateway/query/balanceRecords', {
      startTime: later(0),
      endTime: later(31),
    });
    expect(exactly31.envelope.code).toBe(0);

    // The signature comes before the parameters: a bad request with a bad signature is 20052.
    const body = a.signed({ endTime });
    const forged = await a.send('/gateway/query/balanceRecords', {
      ...body,
      sign: b.signed({ endTime })['sign'],
    });
    expect(forged.envelope.code).toBe(20052);
  });
});

describe('the merchant SDK', () => {
  it('reads the balance and iterates every page of the statement', async () => {
    const client = new AgentpayClient({
      baseUrl: `http://127.0.0.1:${gateway.merchantPort}`,
      mchNo: a.mchNo,
      privateKey: a.privateKey,
      platformPublicKey: a.platformKey,
    });
    const balance = unwrap(await client.balance());
    expect(balance.currency).toBe('MXN');
    expect(balance.available).toBeGreaterThan(0);

    const params = { ...window(), limit: 3 };
    const first = unwrap(await client.balanceRecords(params));
    expect(first.records).toHaveLength(3);
    expect(first.nextCursor).toBeDefined();

    const all: BalanceRecord[] = [];
    for await (const record of client.allBalanceRecords(params)) all.push(record);
    expect(all).toEqual((await statement(a, 500)).records);
    expect(all.slice(0, 3)).toEqual(first.records);
    expect(all.at(-1)?.availableBalance).toBe(balance.available);

    // From a cursor on: the rest of the statement only.
    const rest: BalanceRecord[] = [];
    for await (const record of client.allBalanceRecords({ ...params, cursor: first.nextCursor! }))
      rest.push(record);
    expect(rest).toEqual(all.slice(3));
  });
});

describe('the admin CLI', () => {
  async function cli(...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(
      argv,
      // The CLI uses ADMIN_TOKEN only when it is given (otherwise the person's login).
      { ADMIN_URL: admin, ADMIN_TOKEN: 'dev-admin-token' },
      {
        stdout: (text) => {
          stdout += text;
        },
        stderr: (text) => {
          stderr += text;
        },
      },
    );
    return { code, stdout, stderr };
  }

  /**
   * An adjustment asked for through the CLI waits for a second person (four eyes): that person approves it
   * with the CLI, and the approval's result is what the adjustment answers.
   */
  async function cliAdjust(...argv: string[]) {
    const asked = await cli('adjust', ...argv);
    if (asked.code !== 0) return asked;
    const { approval } = JSON.parse(asked.stdout) as { approval: { id: string } };
    const approver = await approverFor(admin);
    const approved = await cli('approvals', 'approve', approval.id, '--token', approver.token);
    if (approved.code !== 0) return approved;
    const { result } = (
      JSON.parse(approved.stdout) as { approval: { result: { status: number; body: unknown } } }
    ).approval;
    return result.status < 300
      ? { code: 0, stdout: JSON.stringify(result.body), stderr: '' }
      : { code: 1, stdout: '', stderr: `${result.status} ${JSON.stringify(result.body)}` };
  }

  it('shows a balance, adjusts it both ways, settles and checks the books', async () => {
    const before = await cli('balance', b.mchNo);
    expect(before.code, before.stderr).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual({
      mchNo: b.mchNo,
      currency: 'MXN',
      available: 5,
      pending: 0,
      frozen: 0,
    });

    const credit = await cliAdjust(
      b.mchNo,
      '--amount',
      '10.25',
      '--reason',
      'cli credit',
      '--reference',
      'cli-1',
    );
    expect(credit.code, credit.stderr).toBe(0);
    expect(JSON.parse(credit.stdout)).toMatchObject({
      created: true,
      record: { amount: 10.25, availableBalance: 15.25 },
    });
    const debit = await cliAdjust(b.mchNo, '--amount=-0.25', '--reason', 'cli debit', '--reference', 'cli-2');
    expect(debit.code, debit.stderr).toBe(0);
    expect(JSON.parse(debit.stdout)).toMatchObject({
      record: { availableChange: -0.25, availableBalance: 15 },
    });

    const overdraw = await cliAdjust(
      b.mchNo,
      '--amount=-15.01',
      '--reason',
      'too much',
      '--reference',
      'cli-3',
    );
    expect(overdraw.code).toBe(1);
    expect(overdraw.stderr).toContain('409');
    const wrong = await cliAdjust(b.mchNo, '--amount', '1.005', '--reason', 'r', '--reference', 'cli-4');
    expect(wrong.code).toBe(2);

    const settled = await cli('settle', '--until', formatWireTime(new Date(), TIME_ZONE));
    expect(settled.code, settled.stderr).toBe(0);
    expect(JSON.parse(settled.stdout)).toHaveProperty('settled');

    const check = await cli('ledger-check');
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ ok: true, problems: [] });
  });
});

describe('when the ledger is unavailable', () => {
  it('the merchant endpoints answer HTTP 503 with a signed 50003, the admin API 503', async () => {
    const merchant = await createTestMerchant({
      adminUrl: `http://127.0.0.1:${noLedger.adminPort}`,
      gatewayUrl: `http://127.0.0.1:${noLedger.merchantPort}`,
      fund: false,
    });
    for (const [path, params] of [
      ['/gateway/query/balance', {}],
      ['/gateway/query/balanceRecords', window()],
    ] as const) {
      const reply = await merchant.request(path, params);
      expect(reply.status, path).toBe(503);
      expect(reply.envelope.code, path).toBe(50003);
      expect(reply.signed, path).toBe(true);
    }
    const shown = await adminCall(
      'GET',
      `/admin/merchants/${merchant.mchNo}/balance`,
      undefined,
      `http://127.0.0.1:${noLedger.adminPort}`,
    );
    expect(shown.status).toBe(503);
  });
});
