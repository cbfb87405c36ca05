import { createDb } from '@agentpay/db';
import type { Stack } from '@agentpay/stack';
import { createTestMerchant, settleApproval, type TestMerchant, waitFor } from '@agentpay/testing';
import type { Envelope } from '@agentpay/wire';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// Issue 35's money checks (CONTRACT section 19) across real processes, on ONE stack whose every service
// runs two replicas: two ledger processes on one database count the payout usage, so "exactly those that
// fit" is proved where two freezes of one merchant can land on different processes. The limits and
// settings are written into the gateway's store (what the admin PUT will write), and the gateway's
// merchant cache is kept short so they take effect at once.

let stack: Stack;
let gatewayDb: Kysely<GatewayDb>;

interface GatewayDb {
  merchants: { mch_no: string; limits: unknown; registered_payees_only: boolean; allowed_ips: string[] };
}

const CLABE = '002010077777777771';
const CACHE_MS = 100;
let seq = 0;
const biz = (prefix: string) => `${prefix}-${Date.now()}-${++seq}`;

async function send(client: TestMerchant, path: string, params: Record<string, unknown> = {}) {
  const reply = await client.request(path, params);
  expect(reply.status).toBe(200);
  return reply.envelope as Envelope & { data: never };
}

/** Writes a merchant's own settings as the gateway stores them, and waits out its merchant cache. */
async function setControls(
  mchNo: string,
  controls: { limits?: unknown; registeredPayeesOnly?: boolean; allowedIps?: string[] },
) {
  await gatewayDb
    .updateTable('merchants')
    .set({
      ...(controls.limits !== undefined && { limits: sql`${JSON.stringify(controls.limits)}::jsonb` }),
      ...(controls.registeredPayeesOnly !== undefined && {
        registered_payees_only: controls.registeredPayeesOnly,
      }),
      ...(controls.allowedIps !== undefined && { allowed_ips: controls.allowedIps }),
    })
    .where('mch_no', '=', mchNo)
    .execute();
  await new Promise((resolve) => setTimeout(resolve, CACHE_MS * 4));
}

const transfer = (client: TestMerchant, amount: number, over: Record<string, unknown> = {}) =>
  send(client, '/gateway/transfer', {
    bizTransferNo: biz('T'),
    amount,
    payeeType: 'spei_transfer',
    payeeAccount: CLABE,
    payeeName: 'Ana Perez',
    ...over,
  });

const balance = async (client: TestMerchant) =>
  (await send(client, '/gateway/query/balance')).data as { available: number; frozen: number };
const usage = async (client: TestMerchant) =>
  (
    (await send(client, '/gateway/query/limits')).data as {
      usage: { payoutAmount: number; payoutCount: number; monthAmount: number };
    }
  ).usage;

async function untilStatus(client: TestMerchant, transferNo: string, status: string) {
  await waitFor(
    async () => {
      const data = (await send(client, '/gateway/query/transferOrder', { transferNo })).data as {
        status?: string;
      } | null;
      return data?.status === status ? data : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 300, message: `transfer ${transferNo} to reach ${status}` },
  );
}

const merchant = () => createTestMerchant({ adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway });

beforeAll(async () => {
  stack = await startTestStack({
    replicas: 2,
    readyTimeoutMs: 300_000,
    // A loaded CI machine must not turn a slow gRPC hop into a 503: every answer here is 0 or a refusal.
    env: { MERCHANT_CACHE_MS: String(CACHE_MS), GRPC_TIMEOUT_MS: '30000', LEDGER_TIMEOUT_MS: '25000' },
    // The gateways listen dual-stack and trust X-Forwarded-For from ::1 only: a request through [::1]
    // comes "through the proxy", one to 127.0.0.1 straight from its peer (TRUSTED_PROXIES, section 19).
    serviceEnv: { gateway: { HOST: '::', TRUSTED_PROXIES: '::1' } },
  });
  gatewayDb = createDb<GatewayDb>(stack.databaseUrl('gateway'));
}, 360_000);

afterAll(async () => {
  await gatewayDb?.destroy();
  await stack?.stop();
}, 120_000);

describe('payout limits (two ledger replicas)', () => {
  it('a transfer above payout.perTransfer answers 40008 naming it and freezes nothing', async () => {
    const m = await merchant();
    await setControls(m.mchNo, { limits: { payout: { perTransfer: 50_000 } } });
    const before = await balance(m);
    const reply = await transfer(m, 500.01);
    expect(reply.code).toBe(40008);
    expect(reply.msg).toContain('payout.perTransfer');
    expect(await balance(m)).toEqual(before);
    expect(await usage(m)).toMatchObject({ payoutAmount: 0, payoutCount: 0 });
    expect((await transfer(m, 500)).code).toBe(0);
  });

  it('of 20 concurrent transfers near payout.daily, exactly those that fit are accepted', async () => {
    const m = await merchant();
    // 1,000.00 a day: ten transfers of 100.00 fit, whichever replica counts each.
    await setControls(m.mchNo, { limits: { payout: { daily: 100_000 } } });
    const before = await balance(m);
    const replies = await Promise.all(Array.from({ length: 20 }, () => transfer(m, 100)));
    const accepted = replies.filter((r) => r.code === 0);
    const refused = replies.filter((r) => r.code !== 0);
    expect(accepted).toHaveLength(10);
    for (const r of refused)
      expect(r).toMatchObject({ code: 40008, msg: expect.stringContaining('payout.daily') });
    expect(await usage(m)).toMatchObject({ payoutAmount: 1000, payoutCount: 10 });
    const after = await balance(m);
    expect(Math.round((before.available - after.available) * 100)).toBe(100_000);
  });

  it('a failed transfer gives its usage back; a returned one keeps it', async () => {
    const m = await merchant();
    const failed = await transfer(m, 70, { payeeName: 'Ana REJECT' });
    expect(failed.code).toBe(0);
    const returned = await transfer(m, 30, { payeeName: 'Ana RETURN' });
    expect(returned.code).toBe(0);
    await untilStatus(m, (failed.data as { transferNo: string }).transferNo, 'fail');
    await untilStatus(m, (returned.data as { transferNo: string }).transferNo, 'close');
    expect(await usage(m)).toMatchObject({ payoutAmount: 30, payoutCount: 1, monthAmount: 30 });
  });
});

describe('registered payees, addresses and pay-in limit', () => {
  it('registered-payees mode refuses an unknown payee and a cooling one with 40009', async () => {
    const m = await merchant();
    await setControls(m.mchNo, { registeredPayeesOnly: true });
    const before = await balance(m);
    expect((await transfer(m, 10)).code).toBe(40009);
    const registered = await send(m, '/gateway/payee/register', {
      payeeType: 'spei_transfer',
      payeeAccount: CLABE,
      payeeName: 'Ana Perez',
    });
    expect(registered).toMatchObject({ code: 0, data: { status: 'cooling' } });
    expect((await transfer(m, 10)).code).toBe(40009);
    expect(await balance(m)).toEqual(before);
    const page = await send(m, '/gateway/query/payees', {});
    expect((page.data as { payees: { payeeId: string }[] }).payees.map((p) => p.payeeId)).toEqual([
      (registered.data as { payeeId: string }).payeeId,
    ]);
  });

  it('a correctly signed request from outside allowedIps answers 20056', async () => {
    const m = await merchant();
    await setControls(m.mchNo, { allowedIps: ['203.0.113.0/24'] });
    expect((await send(m, '/gateway/query/balance')).code).toBe(20056);
    await setControls(m.mchNo, { allowedIps: ['127.0.0.0/8', '::1'] });
    expect((await send(m, '/gateway/query/balance')).code).toBe(0);
  });

  it('reads the address from X-Forwarded-For only through a proxy in TRUSTED_PROXIES', async () => {
    const m = await merchant();
    await setControls(m.mchNo, { allowedIps: ['203.0.113.0/24'] });
    const port = new URL(stack.urls.gateway).port;
    const from = async (host: string, forwardedFor: string) => {
      const response = await fetch(`http://${host}:${port}/gateway/query/balance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
        body: JSON.stringify(m.signed({})),
      });
      return ((await response.json()) as Envelope).code;
    };
    // Through the trusted proxy (::1): the forwarded address decides.
    expect(await from('[::1]', '203.0.113.7')).toBe(0);
    expect(await from('[::1]', '198.51.100.9')).toBe(20056);
    // From a peer that is no trusted proxy (127.0.0.1): its header is ignored, the peer is not allowed.
    expect(await from('127.0.0.1', '203.0.113.7')).toBe(20056);
  });

  it('a pay order above payin.perOrder answers 30006 naming it', async () => {
    const m = await merchant();
    await setControls(m.mchNo, { limits: { payin: { perOrder: 10_000 } } });
    const pay = (amount: number) =>
      send(m, '/gateway/pay', {
        bizOrderNo: biz('P'),
        title: 'Order',
        method: 'mex_virtual_account',
        amount,
      });
    const refused = await pay(100.01);
    expect(refused.code).toBe(30006);
    expect(refused.msg).toContain('payin.perOrder');
    expect((await pay(100)).code).toBe(0);
  });
});

describe("the operators' limits of a merchant (admin API)", () => {
  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${stack.urls.admin}${path}`, {
      method,
      headers: {
        authorization: 'Bearer dev-admin-token',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const limitsOf = async (mchNo: string) => {
    const read = await admin('GET', `/admin/merchants/${mchNo}/limits`);
    expect(read.status).toBe(200);
    return read.body as { limits: { payout: { perTransfer: number | null; daily: number | null } } };
  };

  it('reads them with usage, lowers at once with lowerOnly, raises only through a second person', async () => {
    const m = await merchant();
    const before = await limitsOf(m.mchNo);
    expect(before.limits.payout.perTransfer).toBe(1_000_000);
    expect(before).toHaveProperty('usage');

    // Lowering, said so: in effect at once, for the operators and for the merchant.
    const lowered = await admin('PUT', `/admin/merchants/${m.mchNo}/limits`, {
      limits: { payout: { perTransfer: 123.45 } },
      lowerOnly: true,
    });
    expect(lowered.status).toBe(200);
    expect((await limitsOf(m.mchNo)).limits.payout.perTransfer).toBe(123.45);
    await new Promise((resolve) => setTimeout(resolve, CACHE_MS * 4));
    const merchantView = (await send(m, '/gateway/query/limits')).data as {
      limits: { payout: { perTransfer: number } };
    };
    expect(merchantView.limits.payout.perTransfer).toBe(123.45);
    expect((await transfer(m, 123.46)).code).toBe(40008);

    // lowerOnly that raises is refused whole; a raise waits for a second person.
    const notLower = await admin('PUT', `/admin/merchants/${m.mchNo}/limits`, {
      limits: { payout: { perTransfer: 500 } },
      lowerOnly: true,
    });
    expect(notLower.status).toBe(409);
    const asked = await admin('PUT', `/admin/merchants/${m.mchNo}/limits`, {
      limits: { payout: { perTransfer: 500 } },
    });
    expect(asked.status).toBe(202);
    expect((await limitsOf(m.mchNo)).limits.payout.perTransfer).toBe(123.45);
    const done = await settleApproval(stack.urls.admin, asked);
    expect(done.status).toBe(200);
    expect((await limitsOf(m.mchNo)).limits.payout.perTransfer).toBe(500);

    // A bad amount is a clear refusal and changes nothing.
    const bad = await admin('PUT', `/admin/merchants/${m.mchNo}/limits`, {
      limits: { payout: { perTransfer: 1.234 } },
      lowerOnly: true,
    });
    expect(bad.status).toBe(400);
    expect((await limitsOf(m.mchNo)).limits.payout.perTransfer).toBe(500);
    expect((await admin('GET', '/admin/merchants/NOSUCH/limits')).status).toBe(404);
  });
});
