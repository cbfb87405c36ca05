import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Stack } from '@agentpay/stack';
import {
  createTestMerchant,
  createTestPerson,
  type TestMerchant,
  type TestPerson,
  waitFor,
} from '@agentpay/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// Orders and transfers for operators (GET /admin/orders, /admin/transfers and one's timeline) and for the
// merchant's own people (/dashboard/api/...), over the whole stack as real processes: a merchant makes real
// orders and payouts with its signed API, the sandbox pays them, and the answers are read as the people who
// read them. The last test stops the ledger to see its part named missing.

let stack: Stack;
let sink: Server;
let sinkUrl = '';
let merchant: TestMerchant;
let other: TestMerchant;
let support: TestPerson;
let auditor: TestPerson;
let approver: TestPerson;
let merchantAdmin: TestPerson;
let merchantViewer: TestPerson;
let otherAdmin: TestPerson;

const CLABE = '002010077777777771'; // BANAMEX, 40002
const biz = (prefix: string) => `${prefix}${randomBytes(6).toString('hex')}`;

interface Json {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

async function http(url: string, init: { method?: string; token: string; body?: unknown }): Promise<Json> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${init.token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, text };
}

const admin = (path: string, as: TestPerson = support, method = 'GET') =>
  http(`${stack.urls.admin}${path}`, { token: as.token, method });
const dashboard = (path: string, as: TestPerson = merchantViewer, method = 'GET') =>
  http(`${stack.urls.gateway}/dashboard/api${path}`, { token: as.token, method });

interface Summary {
  orderNo?: string;
  transferNo?: string;
  mchNo: string;
  claveRastreo: string;
  clabe?: string;
  createdAt: string;
}
interface Event {
  at: string;
  source: string;
  kind: string;
  detail: Record<string, unknown>;
  deliveryId?: string;
}

async function signed(client: TestMerchant, path: string, params: Record<string, unknown>) {
  const reply = await client.request(path, params);
  expect(reply.signed).toBe(true);
  expect(reply.envelope).toMatchObject({ code: 0 });
  return reply.envelope.data as Record<string, string>;
}

async function newOrder(client: TestMerchant, notify = true) {
  return signed(client, '/gateway/pay', {
    bizOrderNo: biz('B'),
    title: 'Plan',
    method: 'mex_virtual_account',
    amount: 123.45,
    ...(notify ? { notifyUrl: `${sinkUrl}/cb` } : {}),
  });
}

/** A paid order of `merchant`: created, paid through the sandbox, its success called back. */
let paid: { orderNo: string; bizOrderNo: string; clabe: string; claveRastreo: string };
/** A payout of `merchant` that succeeded, its success called back. */
let settled: { transferNo: string; bizTransferNo: string; claveRastreo: string };
/** An order of the other merchant. */
let othersOrderNo = '';

beforeAll(async () => {
  sink = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('SUCCESS'));
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}`;
  // The machine is shared: give the stack time to come up under load.
  stack = await startTestStack({ readyTimeoutMs: 300_000 });
  const urls = { adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway };
  [merchant, other] = await Promise.all([createTestMerchant(urls), createTestMerchant(urls)]);
  [support, auditor, approver, merchantAdmin, merchantViewer, otherAdmin] = await Promise.all([
    createTestPerson({ adminUrl: stack.urls.admin, roles: ['support'] }),
    createTestPerson({ adminUrl: stack.urls.admin, roles: ['auditor'] }),
    createTestPerson({ adminUrl: stack.urls.admin, roles: ['approver'] }),
    createTestPerson({ ...urls, mchNo: merchant.mchNo, roles: ['admin'] }),
    createTestPerson({ ...urls, mchNo: merchant.mchNo, roles: ['viewer'] }),
    createTestPerson({ ...urls, mchNo: other.mchNo, roles: ['admin'] }),
  ]);

  const order = await newOrder(merchant);
  const clabe = (JSON.parse(order.payBody ?? '{}') as { clabe: string }).clabe;
  const deposit = await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clabe, amount: 123.45, notify: true }),
  });
  expect(deposit.status).toBe(201);
  const transfer = await signed(merchant, '/gateway/transfer', {
    bizTransferNo: biz('T'),
    amount: 150.25,
    title: 'Payout',
    reason: 'commission',
    payeeType: 'spei_transfer',
    payeeAccount: CLABE,
    payeeName: 'Ana Perez',
    notifyUrl: `${sinkUrl}/cb`,
  });
  othersOrderNo = (await newOrder(other, false)).orderNo ?? '';

  // Paid and called back: the order's success and its callback attempt are both recorded.
  const paidOrder = await waitFor(
    async () => {
      const found = await admin(`/admin/orders/${order.orderNo}`);
      const detail = found.body.order as { status: string; claveRastreo: string } | undefined;
      const timeline = (found.body.timeline ?? []) as Event[];
      return detail?.status === 'success' && timeline.some((e) => e.kind === 'callback.attempt')
        ? detail
        : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 500, message: 'the order to be paid and called back' },
  );
  paid = {
    orderNo: order.orderNo ?? '',
    bizOrderNo: order.bizOrderNo ?? '',
    clabe,
    claveRastreo: paidOrder.claveRastreo,
  };
  const settledTransfer = await waitFor(
    async () => {
      const found = await admin(`/admin/transfers/${transfer.transferNo}`);
      const detail = found.body.transfer as { status: string; claveRastreo: string } | undefined;
      const timeline = (found.body.timeline ?? []) as Event[];
      return detail?.status === 'success' &&
        timeline.some((e) => e.kind === 'callback.attempt') &&
        timeline.some((e) => e.kind === 'entry.transfer_out')
        ? detail
        : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 500, message: 'the transfer to succeed, be booked and called back' },
  );
  settled = {
    transferNo: transfer.transferNo ?? '',
    bizTransferNo: transfer.bizTransferNo ?? '',
    claveRastreo: settledTransfer.claveRastreo,
  };
}, 600_000);

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => sink?.close(resolve));
});

describe('searching orders and transfers (console)', () => {
  it.each([
    ['order number', () => paid.orderNo],
    ['merchant order number', () => paid.bizOrderNo],
    ['claveRastreo', () => paid.claveRastreo],
    ['CLABE', () => paid.clabe],
  ])('finds the paid order by its %s, exactly', async (_name, key) => {
    expect(key()).not.toBe('');
    const found = await admin(`/admin/orders?q=${encodeURIComponent(key())}`);
    expect(found.status).toBe(200);
    const items = found.body.items as Summary[];
    expect(items.map((i) => i.orderNo)).toEqual([paid.orderNo]);
    expect(items[0]).toMatchObject({
      mchNo: merchant.mchNo,
      mchOrderNo: paid.bizOrderNo,
      amount: 12345,
      status: 'success',
      clabe: paid.clabe,
      claveRastreo: paid.claveRastreo,
    });
    // Exact, not a prefix: one character less finds nothing.
    const partial = await admin(`/admin/orders?q=${encodeURIComponent(key().slice(0, -1))}`);
    expect(partial.body.items).toEqual([]);
  });

  it.each([
    ['transfer number', () => settled.transferNo],
    ['merchant transfer number', () => settled.bizTransferNo],
    ['claveRastreo', () => settled.claveRastreo],
    ['payee CLABE', () => CLABE],
  ])('finds the settled payout by its %s', async (_name, key) => {
    expect(key()).not.toBe('');
    const found = await admin(`/admin/transfers?mchNo=${merchant.mchNo}&q=${encodeURIComponent(key())}`);
    expect(found.status).toBe(200);
    const items = found.body.items as Summary[];
    expect(items.map((i) => i.transferNo)).toEqual([settled.transferNo]);
    expect(items[0]).toMatchObject({ mchOrderNo: settled.bizTransferNo, amount: 15025, status: 'success' });
  });

  it('pages newest first and stays stable while new orders arrive', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await newOrder(other, false)).orderNo ?? '');
    const seen: Summary[] = [];
    let cursor = '';
    let pages = 0;
    do {
      const page = await admin(
        `/admin/orders?mchNo=${other.mchNo}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      seen.push(...(page.body.items as Summary[]));
      cursor = (page.body.next as string | undefined) ?? '';
      // A new order arriving mid-way lands before the first page, never inside the pages still to read.
      if (pages === 0) await newOrder(other, false);
      pages += 1;
    } while (cursor);
    const numbers = seen.map((s) => s.orderNo);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(numbers).toEqual([...made].reverse().concat(othersOrderNo));
    expect(pages).toBe(3);
    const times = seen.map((s) => s.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by status and creation time', async () => {
    const success = await admin(`/admin/orders?mchNo=${merchant.mchNo}&status=success`);
    expect((success.body.items as Summary[]).map((s) => s.orderNo)).toEqual([paid.orderNo]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const none = await admin(`/admin/orders?mchNo=${merchant.mchNo}&from=${encodeURIComponent(future)}`);
    expect(none.body.items).toEqual([]);
  });

  it.each([
    ['/admin/orders?limit=0', 'limit'],
    ['/admin/orders?limit=201', 'limit'],
    ['/admin/orders?status=paid', 'status'],
    ['/admin/orders?from=yesterday', 'from'],
    ['/admin/orders?cursor=%25%25', 'cursor'],
    ['/admin/orders?colour=red', 'colour'],
    ['/admin/transfers?status=wait', 'status'],
    ['/admin/orders/P..1', 'orderNo'],
  ])('refuses a bad query %s with 400 naming the field', async (path, field) => {
    const answer = await admin(path);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'bad_request' });
    expect(String(answer.body.message)).toContain(field);
  });

  it('answers 404 for an unknown order or transfer', async () => {
    expect((await admin('/admin/orders/P20260101000000000000000001')).body).toMatchObject({
      error: 'not_found',
    });
    expect((await admin('/admin/transfers/T20260101000000000000000001')).status).toBe(404);
  });
});

describe('the timeline (console)', () => {
  it("shows a paid order's status, channel, ledger and callback events in time order", async () => {
    const found = await admin(`/admin/orders/${paid.orderNo}`, approver);
    expect(found.status).toBe(200);
    expect(found.body.missing).toEqual([]);
    const timeline = found.body.timeline as Event[];
    const kinds = timeline.map((e) => `${e.source}:${e.kind}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'order:order.created',
        'order:status.success',
        'channel:account.opened',
        // The sandbox tells the router of a payment by notice; a channel whose deposits the router matches
        // itself (STP) shows deposit.received instead.
        'channel:account.paid',
        'channel:notice.success',
        'ledger:entry.pay_in',
        'callback:callback.queued',
        'callback:callback.attempt',
      ]),
    );
    expect(timeline.map((e) => e.at)).toEqual(timeline.map((e) => e.at).sort());
    const payment = timeline.find((e) => e.kind === 'account.paid');
    expect(payment?.detail).toMatchObject({ amount: 12345, claveRastreo: paid.claveRastreo });
    // Operators see the route the money came on.
    expect(payment?.detail.routeId).toBeTruthy();
    const attempt = timeline.find((e) => e.kind === 'callback.attempt');
    expect(attempt).toMatchObject({ detail: { outcome: 'succeeded', httpStatus: 200 } });
    expect(attempt?.deliveryId).toBeTruthy();
  });

  it("shows a settled payout's status, channel, ledger and callback events", async () => {
    const found = await admin(`/admin/transfers/${settled.transferNo}`, auditor);
    expect(found.status).toBe(200);
    expect(found.body.missing).toEqual([]);
    expect(found.body.transfer).toMatchObject({ transferNo: settled.transferNo, status: 'success' });
    const kinds = (found.body.timeline as Event[]).map((e) => `${e.source}:${e.kind}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'order:transfer.created',
        'order:status.success',
        'channel:payout.submitted',
        'ledger:entry.transfer_freeze',
        'ledger:entry.transfer_out',
        'callback:callback.attempt',
      ]),
    );
  });

  it('lets support sync an order and refuses it to an auditor with 403', async () => {
    const synced = await admin(`/admin/orders/${paid.orderNo}/sync`, support, 'POST');
    expect(synced.status).toBe(200);
    expect(synced.body.order).toMatchObject({ orderNo: paid.orderNo, status: 'success' });
    const refused = await admin(`/admin/orders/${paid.orderNo}/sync`, auditor, 'POST');
    expect(refused.status).toBe(403);
  });
});

describe("the merchant's own orders (dashboard)", () => {
  it('lists only its own orders, with the same search', async () => {
    const mine = await dashboard('/orders');
    expect(mine.status).toBe(200);
    const items = mine.body.items as Summary[];
    expect(items.map((i) => i.orderNo)).toEqual([paid.orderNo]);
    const byRastreo = await dashboard(`/orders?q=${paid.claveRastreo}`);
    expect((byRastreo.body.items as Summary[]).map((i) => i.orderNo)).toEqual([paid.orderNo]);
    // Another merchant's order is not found by its number either.
    expect((await dashboard(`/orders?q=${othersOrderNo}`)).body.items).toEqual([]);
    const transfers = await dashboard(`/transfers?q=${settled.claveRastreo}`);
    expect((transfers.body.items as Summary[]).map((i) => i.transferNo)).toEqual([settled.transferNo]);
  });

  it("answers another merchant's order 404, not 403", async () => {
    const theirs = await dashboard(`/orders/${othersOrderNo}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ error: 'not_found' });
    expect((await dashboard(`/transfers/${settled.transferNo}`, otherAdmin)).status).toBe(404);
  });

  it('never names the route or channel, and keeps the claveRastreo', async () => {
    const order = await dashboard(`/orders/${paid.orderNo}`);
    expect(order.status).toBe(200);
    const transfer = await dashboard(`/transfers/${settled.transferNo}`);
    expect(transfer.status).toBe(200);
    for (const answer of [order, transfer]) {
      expect(answer.text).not.toMatch(/routeId|route_id|sandbox|upstreamRef|noticeId|depositId/i);
      expect((answer.body.timeline as Event[]).some((e) => e.source === 'channel')).toBe(true);
    }
    expect(order.text).toContain(paid.claveRastreo);
    expect(transfer.text).toContain(settled.claveRastreo);
  });

  it('refuses a merchant filter or a bad query with 400', async () => {
    const withMerchant = await dashboard(`/orders?mchNo=${other.mchNo}`);
    expect(withMerchant.status).toBe(400);
    expect((await dashboard('/transfers?limit=abc')).status).toBe(400);
  });

  it('resends its own callback for an admin, 403 for a viewer, 404 for another merchant', async () => {
    const order = await dashboard(`/orders/${paid.orderNo}`, merchantAdmin);
    const attempt = (order.body.timeline as Event[]).find((e) => e.kind === 'callback.attempt');
    const id = attempt?.deliveryId ?? '';
    expect(id).not.toBe('');
    expect((await dashboard(`/deliveries/${id}/resend`, merchantViewer, 'POST')).status).toBe(403);
    expect((await dashboard(`/deliveries/${id}/resend`, otherAdmin, 'POST')).status).toBe(404);
    const resent = await dashboard(`/deliveries/${id}/resend`, merchantAdmin, 'POST');
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ id });
    await waitFor(
      async () => {
        const again = await admin(`/admin/orders/${paid.orderNo}`);
        return (again.body.timeline as Event[]).filter((e) => e.kind === 'callback.attempt').length >= 2;
      },
      { timeoutMs: 60_000, intervalMs: 300, message: 'the resent callback to be attempted' },
    );
  }, 120_000);
});

describe('a part that does not answer', () => {
  it('names the ledger missing and answers the rest while the ledger is down', async () => {
    await stack.kill('ledger');
    try {
      const found = await admin(`/admin/orders/${paid.orderNo}`);
      expect(found.status).toBe(200);
      expect(found.body.missing).toEqual(['ledger']);
      const sources = new Set((found.body.timeline as Event[]).map((e) => e.source));
      expect([...sources].sort()).toEqual(['callback', 'channel', 'order']);
    } finally {
      await stack.restart('ledger');
    }
  }, 400_000);
});
