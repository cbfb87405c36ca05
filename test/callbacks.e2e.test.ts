import type { KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { buildClabe } from '@agentpay/spei';
import type { Stack } from '@agentpay/stack';
import { createTestMerchant, type TestMerchant, waitFor } from '@agentpay/testing';
import { verifyObject } from '@agentpay/wire';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// The whole chain of a callback, as real processes: a merchant's order changes status (a sandbox deposit,
// a payout settling), payments/transfers write the change and its outbox event in one transaction,
// the relay publishes it to JetStream, the notifier POSTs it to the merchant's notifyUrl, signed with the
// platform key, with `data` equal to what the query returns at that moment.

interface Received {
  path: string;
  body: Record<string, unknown>;
}

let stack: Stack;
let merchant: TestMerchant & { platformKey: KeyObject };
let sink: Server;
let sinkUrl = '';
const received: Received[] = [];
/** Paths whose first callback is answered FAIL, to see the retry deliver the same signed bytes. */
const failOnce = new Set<string>();
const raw = new Map<string, string[]>();

beforeAll(async () => {
  sink = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      const path = req.url ?? '/';
      raw.set(path, [...(raw.get(path) ?? []), text]);
      if (failOnce.delete(path)) {
        res.end('FAIL');
        return;
      }
      received.push({ path, body: JSON.parse(text) as Record<string, unknown> });
      res.end('SUCCESS');
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}`;
  stack = await startTestStack({
    env: { NOTIFY_RETRY_SCHEDULE: '300ms,300ms,1s', NOTIFY_TIMEOUT_MS: '3000' },
  });
  merchant = await createTestMerchant({
    adminUrl: stack.urls.admin,
    gatewayUrl: stack.urls.gateway,
    appIds: ['shop'],
    feeRate: { percentBps: 100, fixedCentavos: 50 },
  });
});

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => sink?.close(resolve));
});

/** Rows of one service's own database. */
async function rows(service: 'payments' | 'notifier', text: string, ...values: unknown[]) {
  const client = new pg.Client({ connectionString: stack.databaseUrl(service) });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(text, values)).rows;
  } finally {
    await client.end();
  }
}

const callbacksAt = (path: string) => received.filter((r) => r.path === path).map((r) => r.body);

describe('payment callbacks through the whole stack', () => {
  it('a paid order calls the notifyUrl once, signed by the platform, with data equal to the query', async () => {
    const path = '/pay-1';
    failOnce.add(path);
    const pay = await merchant.request(
      '/gateway/pay',
      {
        bizOrderNo: `CB-${Date.now()}`,
        title: 'Callback order',
        method: 'mex_virtual_account',
        amount: 250.75,
        attach: 'cart=42',
        notifyUrl: `${sinkUrl}${path}`,
      },
      { appId: 'shop' },
    );
    expect(pay.envelope.code).toBe(0);
    const { orderNo, payBody } = pay.envelope.data as { orderNo: string; payBody: string };
    const { clabe } = JSON.parse(payBody) as { clabe: string };
    const deposit = await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clabe, amount: 250.75 }),
    });
    expect(deposit.ok).toBe(true);

    const [callback] = await waitFor(() => (callbacksAt(path).length > 0 ? callbacksAt(path) : undefined), {
      timeoutMs: 20_000,
      message: 'no payment callback arrived',
    });
    expect(callback).toMatchObject({
      code: 0,
      msg: 'success',
      noticeType: 'order_status_changed',
      mchNo: merchant.mchNo,
      appId: 'shop',
    });
    expect(verifyObject(callback!, String(callback!['sign']), merchant.platformKey)).toBe(true);
    const query = await merchant.request('/gateway/query/payOrder', { orderNo });
    expect(callback!['data']).toEqual(query.envelope.data);
    expect(callback!['data']).toMatchObject({
      status: 'success',
      amount: 250.75,
      fee: 3.01,
      realAmount: 247.74,
      attach: 'cart=42',
    });

    // The FAIL answer was retried with the very same signed bytes.
    const attempts = raw.get(path)!;
    expect(attempts.length).toBe(2);
    expect(attempts[1]).toBe(attempts[0]);
    // Nothing more can arrive for this order: it changed status once, and the notifier's one delivery of
    // that change is settled, with no retry left to send.
    expect(
      await rows('payments', 'select to_status from pay_order_status_history where order_no = $1', orderNo),
    ).toEqual([{ to_status: 'success' }]);
    const deliveries = await waitFor(
      async () => {
        const found = await rows(
          'notifier',
          'select status, attempt_count from deliveries where order_no = $1',
          orderNo,
        );
        return found.length > 0 && found.every((d) => d['status'] !== 'pending') ? found : undefined;
      },
      { message: 'the delivery to be settled' },
    );
    expect(deliveries).toEqual([{ status: 'succeeded', attempt_count: 2 }]);
    expect(callbacksAt(path)).toHaveLength(1);
  });

  it('the callback carries the trace of the change: its traceId is a W3C trace id', async () => {
    const path = '/pay-2';
    const pay = await merchant.request('/gateway/pay', {
      bizOrderNo: `CB2-${Date.now()}`,
      title: 'Closed order',
      method: 'mex_virtual_account',
      amount: 10,
      notifyUrl: `${sinkUrl}${path}`,
    });
    const { orderNo } = pay.envelope.data as { orderNo: string };
    const close = await merchant.request('/gateway/close', { orderNo, useCancel: true });
    expect(close.envelope.code).toBe(0);
    const [callback] = await waitFor(() => (callbacksAt(path).length > 0 ? callbacksAt(path) : undefined), {
      timeoutMs: 20_000,
      message: 'no cancel callback arrived',
    });
    expect(callback!['traceId']).toMatch(/^[0-9a-f]{32}$/);
    expect(callback!['data']).toMatchObject({ orderNo, status: 'cancel' });
    expect(callback!).not.toHaveProperty('appId');
  });
});

describe('transfer callbacks through the whole stack', () => {
  it('a returned transfer calls back twice, success then close, in order, each equal to the query then', async () => {
    const path = '/transfer-1';
    const transfer = await merchant.request('/gateway/transfer', {
      bizTransferNo: `TR-${Date.now()}`,
      amount: 99.9,
      payeeType: 'spei_transfer',
      payeeAccount: buildClabe('012', '180', '00000012345'),
      payeeName: 'Ana RETURN',
      notifyUrl: `${sinkUrl}${path}`,
    });
    expect(transfer.envelope.code).toBe(0);
    const callbacks = await waitFor(() => (callbacksAt(path).length >= 2 ? callbacksAt(path) : undefined), {
      timeoutMs: 20_000,
      message: 'expected two transfer callbacks',
    });
    expect(callbacks.map((c) => (c['data'] as { status: string }).status)).toEqual(['success', 'close']);
    for (const callback of callbacks) {
      expect(verifyObject(callback, String(callback['sign']), merchant.platformKey)).toBe(true);
      expect(callback['data']).toMatchObject({ payeeCode: '40012', amount: 99.9, payeeName: 'Ana RETURN' });
    }
    const query = await merchant.request('/gateway/query/transferOrder', {
      transferNo: (transfer.envelope.data as { transferNo: string }).transferNo,
    });
    expect(callbacks[1]!['data']).toEqual(query.envelope.data);
  });
});
