import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Stack } from '@agentpay/stack';
import {
  createTestPerson,
  merchantClient,
  settleApproval,
  type TestMerchant,
  waitFor,
} from '@agentpay/testing';
import { type Envelope, feeFor, generateKeyPair, parsePublicKey } from '@agentpay/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// CONTRACT.md section 21, refunds of pay-ins, every service a real process: a paid order refunded in two
// parts and a third refused with 30007, the balance and the ledger check right after each step; partial
// refunds racing never pass what the order paid; a refund the channel refuses is reversed in the books and
// gives its amount back to the order; idempotency (30008) and the other refusals; the refund callback.

const FEE_RATE = { percentBps: 100, fixedCentavos: 50 };
/** The payer's CLABE (BBVA, 40012) the tests' deposits come from. */
const PAYER_CLABE = '012180015555555550';

let stack: Stack;
let hooks: Server;
let hookUrl: string;
/** Callback bodies received, newest last. */
const callbacks: Record<string, unknown>[] = [];

async function admin(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${stack.urls.admin}${path}`, {
    method,
    headers: {
      authorization: 'Bearer dev-admin-token',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const { status, body: json } = await settleApproval(stack.urls.admin, {
    status: response.status,
    body: await response.json(),
  });
  if (status >= 300) throw new Error(`${path}: ${status} ${JSON.stringify(json)}`);
  return json;
}

let merchantSeq = 0;
async function newMerchant(): Promise<TestMerchant> {
  const keys = generateKeyPair();
  const mchNo = `RF${Date.now().toString(36)}${++merchantSeq}`.toUpperCase();
  await admin('POST', '/admin/merchants', {
    mchNo,
    name: `Refunds ${mchNo}`,
    publicKey: keys.publicKeyPem,
    feeRate: FEE_RATE,
    settleType: 'REALTIME',
  });
  const platformKey = parsePublicKey(
    ((await admin('GET', '/admin/platform-key')) as { publicKey: string }).publicKey,
  );
  return merchantClient({
    gatewayUrl: stack.urls.gateway,
    mchNo,
    privateKeyPem: keys.privateKeyPem,
    platformKey,
  });
}

async function send(
  merchant: TestMerchant,
  path: string,
  params: Record<string, unknown>,
): Promise<Envelope> {
  const reply = await merchant.request(path, params);
  expect(reply.signed).toBe(true);
  return reply.envelope;
}

const cents = (pesos: unknown) => Math.round(Number(pesos) * 100);

async function balance(merchant: TestMerchant) {
  const reply = await send(merchant, '/gateway/query/balance', {});
  expect(reply.code).toBe(0);
  const data = reply.data as Record<string, unknown>;
  return {
    available: cents(data['available']),
    pending: cents(data['pending']),
    frozen: cents(data['frozen']),
  };
}

async function balanceBecomes(merchant: TestMerchant, expected: Awaited<ReturnType<typeof balance>>) {
  let last: unknown;
  await waitFor(
    async () => {
      last = await balance(merchant);
      return JSON.stringify(last) === JSON.stringify(expected);
    },
    { timeoutMs: 20_000, intervalMs: 200, message: `balance ${JSON.stringify(expected)}` },
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last ${JSON.stringify(last)}`);
  });
}

/** The ledger check is clean (it runs over every merchant's books). */
async function ledgerBalanced(): Promise<void> {
  const check = await admin('GET', '/admin/ledger/check');
  expect(check['problems']).toEqual([]);
  expect(check['ok']).toBe(true);
}

/** A pay order paid through the sandbox by `payerName` from PAYER_CLABE, once it is `success`. */
async function paidOrder(
  merchant: TestMerchant,
  amountCentavos: number,
  payerName = 'Maria Lopez',
): Promise<Record<string, unknown>> {
  const created = await send(merchant, '/gateway/pay', {
    bizOrderNo: `PO-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
    title: 'Order',
    method: 'mex_virtual_account',
    amount: amountCentavos / 100,
  });
  expect(created.code).toBe(0);
  const order = created.data as { orderNo: string; payBody: string };
  const { clabe } = JSON.parse(order.payBody) as { clabe: string };
  const deposit = await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      clabe,
      amount: amountCentavos / 100,
      payerAccount: PAYER_CLABE,
      payerName,
      payerBank: '40012',
      payerRfc: 'LOMM800101AB1',
    }),
  });
  expect(deposit.status).toBe(201);
  return waitFor(
    async () => {
      const reply = await send(merchant, '/gateway/query/payOrder', { orderNo: order.orderNo });
      const data = reply.data as Record<string, unknown>;
      return data['status'] === 'success' ? data : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 200, message: `order ${order.orderNo} paid` },
  );
}

async function refundReaching(merchant: TestMerchant, refundNo: string, status: string) {
  return waitFor(
    async () => {
      const reply = await send(merchant, '/gateway/query/refund', { refundNo });
      const data = reply.data as Record<string, unknown> | null;
      return data?.['status'] === status ? data : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 200, message: `refund ${refundNo} to reach ${status}` },
  );
}

const fund = (merchant: TestMerchant, centavos: number) =>
  admin('POST', `/admin/merchants/${merchant.mchNo}/adjustments`, {
    amount: centavos / 100,
    reason: 'funding',
    reference: `fund-${merchant.mchNo}-${centavos}`,
  });

beforeAll(async () => {
  hooks = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => {
      callbacks.push(JSON.parse(text) as Record<string, unknown>);
      response.end('SUCCESS');
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`;
  stack = await startTestStack({ serviceEnv: { ledger: { RECON_SCHEDULE: 'off' } } });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => hooks?.close(resolve));
});

describe('refunds of paid orders', () => {
  it('never lets partial refunds racing each other add up to more than the order paid', async () => {
    const merchant = await newMerchant();
    await fund(merchant, 1_000_00);
    const order = await paidOrder(merchant, 100_00);
    // Six refunds of 30.00 at once against 100.00 paid: exactly three fit.
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        send(merchant, '/gateway/refund', {
          orderNo: order['orderNo'],
          bizRefundNo: `RACE-${i}`,
          amount: 30,
        }),
      ),
    );
    const accepted = replies.filter((r) => r.code === 0);
    const refused = replies.filter((r) => r.code !== 0);
    expect(accepted).toHaveLength(3);
    for (const r of refused) {
      expect(r.code).toBe(30007);
      expect(r.msg).toContain('amount exceeds what is left');
    }
    // What is left (10.00) can still be refunded, and then nothing.
    const rest = await send(merchant, '/gateway/refund', {
      orderNo: order['orderNo'],
      bizRefundNo: 'RACE-REST',
    });
    expect(rest.code).toBe(0);
    expect(rest.data).toMatchObject({ amount: 10 });
    for (const r of [...accepted, rest]) {
      await refundReaching(merchant, String((r.data as { refundNo: string }).refundNo), 'success');
    }
    await ledgerBalanced();
  });

  it('refunds a paid order in two parts to its payer and refuses a third with 30007, books right at each step', async () => {
    const merchant = await newMerchant();
    // Funds for the refunds' fees (the order's own money, less its fee, does not cover them).
    await fund(merchant, 20_00);
    const paid = 200_00;
    const order = await paidOrder(merchant, paid);
    const orderNo = String(order['orderNo']);
    let available = 20_00 + paid - feeFor(paid, FEE_RATE);
    await balanceBecomes(merchant, { available, pending: 0, frozen: 0 });
    await ledgerBalanced();

    // First part: 50.00, with a callback.
    const first = await send(merchant, '/gateway/refund', {
      orderNo,
      bizRefundNo: 'REF-1',
      amount: 50,
      reason: 'returned goods',
      notifyUrl: hookUrl,
    });
    expect(first.code).toBe(0);
    const firstData = first.data as Record<string, unknown>;
    expect(firstData).toMatchObject({ bizRefundNo: 'REF-1', orderNo, amount: 50 });
    expect(String(firstData['refundNo'])).toMatch(/^R\d{26}$/);
    expect(['progress', 'success']).toContain(firstData['status']);
    const firstDone = await refundReaching(merchant, String(firstData['refundNo']), 'success');
    expect(firstDone).toMatchObject({
      payeeType: 'spei_transfer',
      payeeAccount: PAYER_CLABE,
      payeeName: 'Maria Lopez',
      payeeCode: '40012',
      reason: 'returned goods',
      fee: feeFor(50_00, FEE_RATE) / 100,
    });
    available -= 50_00 + feeFor(50_00, FEE_RATE);
    await balanceBecomes(merchant, { available, pending: 0, frozen: 0 });
    await ledgerBalanced();

    // The same request again answers the same refund; other parameters on the same key are 30008.
    const again = await send(merchant, '/gateway/refund', {
      orderNo,
      bizRefundNo: 'REF-1',
      amount: 50,
      reason: 'returned goods',
      notifyUrl: hookUrl,
    });
    expect(again.code).toBe(0);
    expect((again.data as Record<string, unknown>)['refundNo']).toBe(firstData['refundNo']);
    const other = await send(merchant, '/gateway/refund', { orderNo, bizRefundNo: 'REF-1', amount: 20 });
    expect(other.code).toBe(30008);

    // Second part: no amount, so all that is left (150.00).
    const second = await send(merchant, '/gateway/refund', { orderNo, bizRefundNo: 'REF-2' });
    expect(second.code).toBe(0);
    expect(second.data).toMatchObject({ amount: 150 });
    await refundReaching(merchant, String((second.data as { refundNo: string }).refundNo), 'success');
    available -= 150_00 + feeFor(150_00, FEE_RATE);
    await balanceBecomes(merchant, { available, pending: 0, frozen: 0 });
    await ledgerBalanced();

    // A third: nothing is left.
    const third = await send(merchant, '/gateway/refund', { orderNo, bizRefundNo: 'REF-3', amount: 1 });
    expect(third.code).toBe(30007);
    expect(third.msg).toContain('nothing left to refund');
    expect(await balance(merchant)).toEqual({ available, pending: 0, frozen: 0 });
    // Nothing was created under that key.
    expect((await send(merchant, '/gateway/query/refund', { bizRefundNo: 'REF-3' })).code).toBe(30009);

    // The refund callback: the transfer callback's shape with refundNo and orderNo.
    const callback = await waitFor(
      () =>
        callbacks.find((c) => {
          const data = c['data'] as Record<string, unknown>;
          return data['refundNo'] === firstData['refundNo'] && data['status'] === 'success';
        }),
      { timeoutMs: 20_000, intervalMs: 200, message: 'the refund callback' },
    );
    expect(callback['data']).toEqual(firstDone);
    expect(callback['data']).toMatchObject({ refundNo: firstData['refundNo'], orderNo });
  });

  it('reverses a refund the channel refuses in the books and gives its amount back to the order', async () => {
    const merchant = await newMerchant();
    await fund(merchant, 100_00);
    const paid = 80_00;
    // The sandbox fails a payout whose payee name contains REJECT: this payer's refunds are refused.
    const order = await paidOrder(merchant, paid, 'REJECT Payer');
    const available = 100_00 + paid - feeFor(paid, FEE_RATE);
    await balanceBecomes(merchant, { available, pending: 0, frozen: 0 });

    const refund = await send(merchant, '/gateway/refund', {
      orderNo: order['orderNo'],
      bizRefundNo: 'REJ-1',
    });
    expect(refund.code).toBe(0);
    const refundNo = String((refund.data as { refundNo: string }).refundNo);
    await refundReaching(merchant, refundNo, 'fail');
    // The freeze was released: the balance is what it was, and the books balance.
    await balanceBecomes(merchant, { available, pending: 0, frozen: 0 });
    await ledgerBalanced();
    // The whole amount can be asked for again.
    const retry = await send(merchant, '/gateway/refund', {
      orderNo: order['orderNo'],
      bizRefundNo: 'REJ-2',
    });
    expect(retry.code).toBe(0);
    expect(retry.data).toMatchObject({ amount: paid / 100 });
    await refundReaching(merchant, String((retry.data as { refundNo: string }).refundNo), 'fail');
    await balanceBecomes(merchant, { available, pending: 0, frozen: 0 });
    await ledgerBalanced();
  });

  it('refuses what cannot be refunded: an unpaid order, beyond the balance, an unknown refund', async () => {
    const merchant = await newMerchant();
    const unpaid = await send(merchant, '/gateway/pay', {
      bizOrderNo: `UNPAID-${Date.now()}`,
      title: 'Order',
      method: 'mex_virtual_account',
      amount: 10,
    });
    const unpaidRefund = await send(merchant, '/gateway/refund', {
      orderNo: (unpaid.data as { orderNo: string }).orderNo,
      bizRefundNo: 'U-1',
    });
    expect(unpaidRefund.code).toBe(30007);
    expect(unpaidRefund.msg).toContain('order not paid');

    expect((await send(merchant, '/gateway/refund', { orderNo: 'P000', bizRefundNo: 'U-2' })).code).toBe(
      30003,
    );
    expect((await send(merchant, '/gateway/query/refund', { refundNo: 'R000' })).code).toBe(30009);
    const noOrder = await send(merchant, '/gateway/refund', { bizRefundNo: 'U-3' });
    expect(noOrder.code).toBe(10001);

    // Paid, then its money paid out elsewhere: the refund does not fit the available balance.
    const order = await paidOrder(merchant, 30_00);
    const available = 30_00 - feeFor(30_00, FEE_RATE);
    await balanceBecomes(merchant, { available, pending: 0, frozen: 0 });
    const poor = await send(merchant, '/gateway/refund', { orderNo: order['orderNo'], bizRefundNo: 'U-4' });
    expect(poor.code).toBe(40006);
    expect(await balance(merchant)).toEqual({ available, pending: 0, frozen: 0 });
    // Nothing was reserved: after funding, the whole amount is refundable.
    await fund(merchant, 10_00);
    const funded = await send(merchant, '/gateway/refund', { orderNo: order['orderNo'], bizRefundNo: 'U-4' });
    expect(funded.code).toBe(0);
    expect(funded.data).toMatchObject({ amount: 30 });
  });

  it('from the dashboard: a finance person refunds a paid order, a viewer may not, and the order page shows the CEP link', async () => {
    const merchant = await newMerchant();
    await fund(merchant, 10_00);
    const order = await paidOrder(merchant, 40_00);
    const orderNo = String(order['orderNo']);
    const person = (roles: string[]) =>
      createTestPerson({
        adminUrl: stack.urls.admin,
        gatewayUrl: stack.urls.gateway,
        mchNo: merchant.mchNo,
        roles,
      });
    const dashboard = (
      who: { cookie: string; csrfToken: string },
      method: string,
      path: string,
      body?: unknown,
    ) =>
      fetch(`${stack.urls.gateway}${path}`, {
        method,
        headers: {
          cookie: who.cookie,
          'x-csrf-token': who.csrfToken,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const path = `/dashboard/api/orders/${orderNo}/refunds`;

    const viewer = await person(['viewer']);
    const refused = await dashboard(viewer, 'POST', path, { bizRefundNo: 'DASH-V', amount: 5 });
    expect(refused.status).toBe(403);

    const finance = await person(['finance']);
    const asked = await dashboard(finance, 'POST', path, {
      bizRefundNo: 'DASH-F',
      amount: 15,
      reason: 'damaged',
    });
    expect(asked.status).toBe(201);
    const refund = (await asked.json()) as Record<string, unknown>;
    expect(refund).toMatchObject({ bizRefundNo: 'DASH-F', orderNo, amount: 15, payeeAccount: PAYER_CLABE });
    const done = await refundReaching(merchant, String(refund['refundNo']), 'success');
    expect(done['cep']).toMatchObject({
      claveRastreo: done['claveRastreo'],
      cuenta: PAYER_CLABE,
      monto: '15.00',
    });
    // More than is left is refused with the reason, and nothing is created.
    const tooMuch = await dashboard(finance, 'POST', path, { bizRefundNo: 'DASH-F2', amount: 30 });
    expect(tooMuch.status).toBe(409);
    expect(((await tooMuch.json()) as { message: string }).message).toContain('amount exceeds what is left');

    // The order's page: its CEP facts and the Banxico link.
    const page = (await (await dashboard(finance, 'GET', `/dashboard/api/orders/${orderNo}`)).json()) as {
      order: Record<string, unknown>;
    };
    expect(page.order['cep']).toMatchObject({
      claveRastreo: order['claveRastreo'],
      emisor: '40012',
      monto: '40.00',
    });
    const link = new URL(String(page.order['cepLink']));
    expect(`${link.origin}${link.pathname}`).toBe('https://www.banxico.org.mx/cep/');
    expect(link.searchParams.get('criterio')).toBe(order['claveRastreo']);
    expect(link.searchParams.get('monto')).toBe('40.00');
    await ledgerBalanced();
  });
});
