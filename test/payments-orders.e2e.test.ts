import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { validateClabe } from '@agentpay/spei';
import type { Stack } from '@agentpay/stack';
import { createTestMerchant, now, type TestMerchant, waitFor } from '@agentpay/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// Issue 3 through the gateway with every service as a real process: a merchant creates payment orders,
// a tester pays them through the sandbox (POST /sandbox/deposits), and query, close, cancel, sync and
// the expiry sweep behave as docs/merchant-api.md say. Every reply is checked for its signature.

let stack: Stack;
let merchant: TestMerchant;
let other: TestMerchant;
let paymentsDb: pg.Pool;

beforeAll(async () => {
  stack = await startTestStack({ serviceEnv: { payments: { EXPIRY_SWEEP_INTERVAL_MS: '500' } } });
  const urls = { adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway };
  // 1.5 % + 2.00 per order
  merchant = await createTestMerchant({ ...urls, feeRate: { percentBps: 150, fixedCentavos: 200 } });
  other = await createTestMerchant(urls);
  paymentsDb = new pg.Pool({ connectionString: stack.databaseUrl('payments'), max: 2 });
});

afterAll(async () => {
  await paymentsDb?.end();
  await stack?.stop();
});

interface PayData {
  bizOrderNo: string;
  orderNo: string;
  status: string;
  payBody: string;
}

const bizNo = () => `B${randomBytes(6).toString('hex')}`;

function payParams(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    bizOrderNo: bizNo(),
    title: 'Monthly plan',
    method: 'mex_virtual_account',
    amount: 150.25,
    attach: 'cart-7',
    ...overrides,
  };
}

/** A signed request whose signed reply is returned; fails the test on an unsigned reply. */
async function send(path: string, params: Record<string, unknown>, as: TestMerchant = merchant) {
  const reply = await as.request(path, params);
  expect(reply.signed).toBe(true);
  expect(reply.status).toBe(200);
  return reply.envelope;
}

async function pay(overrides: Record<string, unknown> = {}): Promise<PayData> {
  const envelope = await send('/gateway/pay', payParams(overrides));
  expect(envelope).toMatchObject({ code: 0, msg: 'success' });
  return envelope.data as PayData;
}

const query = (ref: Record<string, unknown>, as: TestMerchant = merchant) =>
  send('/gateway/query/payOrder', ref, as);
const statusOf = async (orderNo: string) => ((await query({ orderNo })).data as { status: string }).status;

async function deposit(order: PayData, amount: number, notify = true) {
  const { clabe } = JSON.parse(order.payBody) as { clabe: string };
  const response = await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clabe, amount, notify }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { matched: boolean; reason: string | null };
}

async function eventsOf(orderNo: string): Promise<{ from: string; to: string; version: string }[]> {
  const { rows } = await paymentsDb.query<{ payload: Record<string, string> }>(
    `select payload from outbox where payload->>'order_no' = $1 order by seq`,
    [orderNo],
  );
  return rows.map((r) => ({
    from: r.payload.from_status!,
    to: r.payload.to_status!,
    version: r.payload.version!,
  }));
}

const waitForStatus = (orderNo: string, status: string, timeoutMs = 10_000) =>
  waitFor(async () => (await statusOf(orderNo)) === status, {
    timeoutMs,
    intervalMs: 200,
    message: `order ${orderNo} reaching ${status}`,
  });

describe('pay', () => {
  it('creates a wait order whose payBody holds a valid CLABE, and a sandbox deposit makes it success', async () => {
    const expiredTime = now(2 * 3_600_000);
    const order = await pay({ amount: 150.25, expiredTime });
    expect(order.status).toBe('wait');
    expect(order.orderNo).toMatch(/^P\d{26}$/);
    const payBody = JSON.parse(order.payBody) as Record<string, unknown>;
    expect(Object.keys(payBody)).toEqual([
      'clabe',
      'bankCode',
      'bankName',
      'beneficiaryName',
      'amount',
      'expiredTime',
      'reference',
      'cashierUrl',
    ]);
    expect(payBody).toMatchObject({
      cashierUrl: expect.stringMatching(new RegExp(`/cashier/${order.orderNo}\\?t=[\\w-]+$`)),
      amount: 150.25,
      expiredTime,
      bankCode: expect.stringMatching(/^\d{5}$/),
    });
    expect(validateClabe(payBody.clabe as string)).toMatchObject({ ok: true });

    expect(await deposit(order, 150.25)).toMatchObject({ matched: true });
    await waitForStatus(order.orderNo, 'success');
    const data = (await query({ orderNo: order.orderNo })).data as Record<string, unknown>;
    expect(data).toEqual({
      bizOrderNo: order.bizOrderNo,
      orderNo: order.orderNo,
      title: 'Monthly plan',
      method: 'mex_virtual_account',
      amount: 150.25,
      // 1.5 % of 150.25 = 2.25375 → 2.25, plus 2.00
      fee: 4.25,
      realAmount: 146,
      status: 'success',
      settleStatus: 'not_settle',
      settleType: 'D+1',
      payTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      expiredTime,
      attach: 'cart-7',
      // The paying deposit's SPEI tracking key, once paid.
      claveRastreo: expect.stringMatching(/^[A-Z0-9]{1,30}$/),
      // Its CEP facts (section 21): the sandbox's payer (BBVA) into the order's CLABE, the day as dd-MM-yyyy.
      cep: {
        fecha: expect.stringMatching(/^\d{2}-\d{2}-\d{4}$/),
        claveRastreo: data['claveRastreo'],
        emisor: '40012',
        receptor: expect.stringMatching(/^\d{5}$/),
        cuenta: payBody['clabe'],
        monto: '150.25',
      },
    });
    expect(await eventsOf(order.orderNo)).toEqual([{ from: 'wait', to: 'success', version: '2' }]);
  });

  it('keeps a deposit of another amount as unmatched and leaves the order waiting', async () => {
    const order = await pay({ amount: 80 });
    expect(await deposit(order, 79.99)).toMatchObject({ matched: false, reason: 'amount_mismatch' });
    expect((await send('/gateway/sync/order/pay', { orderNo: order.orderNo })).data).toEqual({
      orderStatus: 'wait',
      adjust: false,
    });
  });

  it('answers an identical repeat with the same order, and other parameters with 30002', async () => {
    const params = payParams();
    const first = await send('/gateway/pay', params);
    const again = await send('/gateway/pay', params);
    expect(first.code).toBe(0);
    expect(again).toMatchObject({ code: 0, data: first.data as object });
    const changed = await send('/gateway/pay', { ...params, amount: 150.26 });
    expect(changed).toMatchObject({ code: 30002, data: null });
  });

  it('creates one order for 10 concurrent identical requests', async () => {
    const params = payParams();
    const replies = await Promise.all(Array.from({ length: 10 }, () => send('/gateway/pay', params)));
    expect(replies.map((r) => r.code)).toEqual(Array(10).fill(0));
    expect(new Set(replies.map((r) => (r.data as PayData).orderNo)).size).toBe(1);
    expect(new Set(replies.map((r) => (r.data as PayData).payBody)).size).toBe(1);
    const { rows } = await paymentsDb.query('select order_no from pay_orders where biz_order_no = $1', [
      params.bizOrderNo,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('refuses a method the merchant is not offered with 30001', async () => {
    const envelope = await send('/gateway/pay', payParams({ method: 'cash_voucher' }));
    expect(envelope).toMatchObject({ code: 30001, data: null });
  });

  it.each<[string, Record<string, unknown>]>([
    ['amount', { amount: 0 }],
    ['amount', { amount: 0.001 }],
    ['amount', { amount: 1e9 }],
    ['amount', { amount: '10' }],
    ['title', { title: undefined }],
    ['description', { description: 'x'.repeat(51) }],
    ['extraParam', { extraParam: 'not json' }],
    ['notifyUrl', { notifyUrl: 'ftp://example.com/hook' }],
    ['returnUrl', { returnUrl: 'not a url' }],
    ['expiredTime', { expiredTime: now(-60_000) }],
    ['expiredTime', { expiredTime: now(31 * 86_400_000) }],
    ['expiredTime', { expiredTime: '2030-13-01 00:00:00' }],
  ])('refuses a bad %s with 10001 naming it (%j)', async (field, overrides) => {
    const params = payParams(overrides);
    // `undefined` marks a field left out of the request.
    for (const [key, value] of Object.entries(params)) if (value === undefined) delete params[key];
    const envelope = await send('/gateway/pay', params);
    expect(envelope).toMatchObject({ code: 10001, data: null });
    expect(envelope.msg).toContain(field);
  });
});

describe('query/payOrder', () => {
  it('finds an order by either identifier or both, and answers 30003 when they name different orders', async () => {
    const a = await pay();
    const b = await pay();
    const byOrderNo = await query({ orderNo: a.orderNo });
    const byBiz = await query({ bizOrderNo: a.bizOrderNo });
    const byBoth = await query({ orderNo: a.orderNo, bizOrderNo: a.bizOrderNo });
    expect(byOrderNo.code).toBe(0);
    expect(byBiz.data).toEqual(byOrderNo.data);
    expect(byBoth.data).toEqual(byOrderNo.data);
    expect(await query({ orderNo: a.orderNo, bizOrderNo: b.bizOrderNo })).toMatchObject({
      code: 30003,
      data: null,
    });
    expect((await query({})).code).toBe(10001);
  });

  it("answers 30003 for another merchant's order", async () => {
    const order = await pay();
    expect(await query({ orderNo: order.orderNo }, other)).toMatchObject({ code: 30003, data: null });
    expect(await query({ bizOrderNo: order.bizOrderNo }, other)).toMatchObject({ code: 30003 });
    const close = await send('/gateway/close', { orderNo: order.orderNo }, other);
    expect(close.code).toBe(30003);
  });
});

describe('close', () => {
  it('closes an unpaid order (data null), repeats answer 0, a cancel afterwards is 30004', async () => {
    const order = await pay();
    expect(await send('/gateway/close', { orderNo: order.orderNo })).toMatchObject({ code: 0, data: null });
    const data = (await query({ orderNo: order.orderNo })).data as Record<string, unknown>;
    expect(data).toMatchObject({ status: 'close', closeTime: expect.any(String) });
    expect((await send('/gateway/close', { bizOrderNo: order.bizOrderNo })).code).toBe(0);
    expect((await send('/gateway/close', { orderNo: order.orderNo, useCancel: true })).code).toBe(30004);
    // The account is closed upstream: the payer's money is refused, not applied.
    expect(await deposit(order, 150.25)).toMatchObject({ matched: false });
    expect(await eventsOf(order.orderNo)).toEqual([{ from: 'wait', to: 'close', version: '2' }]);
  });

  it('cancels with useCancel, and a plain close afterwards is 30004', async () => {
    const order = await pay();
    expect((await send('/gateway/close', { orderNo: order.orderNo, useCancel: true })).code).toBe(0);
    expect(await statusOf(order.orderNo)).toBe('cancel');
    expect((await send('/gateway/close', { orderNo: order.orderNo, useCancel: true })).code).toBe(0);
    expect((await send('/gateway/close', { orderNo: order.orderNo })).code).toBe(30004);
  });

  it('answers 30005 when upstream was paid, and the order becomes success', async () => {
    const order = await pay({ amount: 99.99 });
    await deposit(order, 99.99, false);
    expect(await send('/gateway/close', { orderNo: order.orderNo })).toMatchObject({
      code: 30005,
      data: null,
    });
    expect(await statusOf(order.orderNo)).toBe('success');
    expect(await eventsOf(order.orderNo)).toEqual([{ from: 'wait', to: 'success', version: '2' }]);
  });

  it('refuses to close a paid order with 30004', async () => {
    const order = await pay({ amount: 12 });
    await deposit(order, 12);
    await waitForStatus(order.orderNo, 'success');
    expect((await send('/gateway/close', { orderNo: order.orderNo })).code).toBe(30004);
  });

  it('a close racing a deposit ends in one legal outcome with one event per change', async () => {
    const orders = await Promise.all(Array.from({ length: 8 }, () => pay({ amount: 21.5 })));
    await Promise.all(
      orders.map(async (order, i) => {
        const [close] = await Promise.all([
          send('/gateway/close', { orderNo: order.orderNo }),
          (async () => {
            await sleep((i % 4) * 15);
            return deposit(order, 21.5);
          })(),
        ]);
        // The notice of an accepted deposit may still be on its way.
        const final = close.code === 0 ? 'close' : 'success';
        expect([0, 30005]).toContain(close.code);
        await waitForStatus(order.orderNo, final);
        await sleep(300);
        expect(await statusOf(order.orderNo)).toBe(final);
        expect(await eventsOf(order.orderNo)).toEqual([{ from: 'wait', to: final, version: '2' }]);
      }),
    );
  });
});

describe('sync/order/pay', () => {
  it('adjusts once after a deposit whose notice never came, then reports no adjustment', async () => {
    const order = await pay({ amount: 42 });
    await deposit(order, 42, false);
    expect(await statusOf(order.orderNo)).toBe('wait');
    expect(await send('/gateway/sync/order/pay', { orderNo: order.orderNo })).toMatchObject({
      code: 0,
      data: { orderStatus: 'success', adjust: true },
    });
    expect(await send('/gateway/sync/order/pay', { bizOrderNo: order.bizOrderNo })).toMatchObject({
      code: 0,
      data: { orderStatus: 'success', adjust: false },
    });
    expect((await query({ orderNo: order.orderNo })).data).toMatchObject({ payTime: expect.any(String) });
    expect(await eventsOf(order.orderNo)).toEqual([{ from: 'wait', to: 'success', version: '2' }]);
  });

  it("answers 30003 for another merchant's order", async () => {
    const order = await pay();
    expect((await send('/gateway/sync/order/pay', { orderNo: order.orderNo }, other)).code).toBe(30003);
  });
});

describe('expiry', () => {
  it('times an unpaid order out once its expiredTime passes, and then refuses money for it', async () => {
    const order = await pay({ expiredTime: now(3_000) });
    await waitForStatus(order.orderNo, 'timeout', 15_000);
    const data = (await query({ orderNo: order.orderNo })).data as Record<string, unknown>;
    expect(data).toMatchObject({ status: 'timeout', closeTime: expect.any(String) });
    expect(await deposit(order, 150.25)).toMatchObject({ matched: false });
    expect((await send('/gateway/close', { orderNo: order.orderNo })).code).toBe(30004);
    expect(await eventsOf(order.orderNo)).toEqual([{ from: 'wait', to: 'timeout', version: '2' }]);
  });

  it('makes an expired order that upstream reports paid success, never timeout', async () => {
    const order = await pay({ amount: 7.5, expiredTime: now(3_000) });
    await deposit(order, 7.5, false);
    await waitForStatus(order.orderNo, 'success', 15_000);
    await sleep(1_000);
    expect(await statusOf(order.orderNo)).toBe('success');
    expect(await eventsOf(order.orderNo)).toEqual([{ from: 'wait', to: 'success', version: '2' }]);
  });
});

describe('events', () => {
  it('writes exactly one outbox event per status change, carrying the order as queried', async () => {
    const order = await pay({ amount: 33 });
    expect(await eventsOf(order.orderNo)).toEqual([]);
    await deposit(order, 33);
    await waitForStatus(order.orderNo, 'success');
    await send('/gateway/sync/order/pay', { orderNo: order.orderNo });
    const { rows } = await paymentsDb.query<{ payload: Record<string, unknown>; subject: string }>(
      `select payload, subject from outbox where payload->>'order_no' = $1`,
      [order.orderNo],
    );
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row!.subject).toMatch(/\.pay\.status_changed$/);
    const payOrder = row!.payload.pay_order as Record<string, string>;
    expect(payOrder).toMatchObject({
      order_no: order.orderNo,
      status: 'success',
      amount: '3300',
      fee: '250',
    });
    expect(payOrder).not.toHaveProperty('route_id');
    const { rows: history } = await paymentsDb.query(
      `select from_status, to_status from pay_order_status_history where order_no = $1`,
      [order.orderNo],
    );
    expect(history).toEqual([{ from_status: 'wait', to_status: 'success' }]);
  });
});
