import type { KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Stack } from '@agentpay/stack';
import { createTestMerchant, settleApproval, type TestMerchant, waitFor } from '@agentpay/testing';
import { type Envelope, feeFor, verifyObject } from '@agentpay/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// Issue 37 part B (CONTRACT section 21), as a merchant's script sees it, every service a real process: a
// batch of 1,000 payouts is accepted in one signed call (the acceptance time is printed, not asserted: the
// machine is shared), funded and limited as one, and each item then ends as an ordinary transfer with
// exactly one callback, on the sandbox route and on the STP route (the sandbox's STP emulator). A batch
// over the balance creates nothing; the same bizBatchNo answers the same batch, other items 40010.

const FEE_RATE = { percentBps: 100, fixedCentavos: 200 };
/** BANAMEX (40002). */
const PAYEE_CLABE = '002010077777777771';
const BATCH_SIZE = Number(process.env['BATCH_E2E_SIZE'] ?? 1_000);

let stack: Stack;
let sink: Server;
let sinkUrl = '';
const received: { path: string; body: Record<string, unknown> }[] = [];

type Client = TestMerchant & { platformKey: KeyObject };

// biome-ignore lint/suspicious/noExplicitAny: admin answers are read field by field
type Json = any;

let seq = 0;
const biz = (prefix: string) => `${prefix}-${Date.now()}-${++seq}`;
const cents = (pesos: unknown) => Math.round(Number(pesos) * 100);

async function send(client: Client, path: string, params: Record<string, unknown>): Promise<Envelope> {
  const reply = await client.request(path, params);
  expect(reply.signed, `${path} reply signed`).toBe(true);
  expect(reply.status, JSON.stringify(reply.envelope)).toBe(200);
  return reply.envelope;
}

async function balance(client: Client) {
  const reply = await send(client, '/gateway/query/balance', {});
  expect(reply.code).toBe(0);
  const data = reply.data as Record<string, unknown>;
  return { available: cents(data['available']), frozen: cents(data['frozen']) };
}

function items(count: number, over: (i: number) => Record<string, unknown> = () => ({})) {
  const prefix = biz('BT');
  return Array.from({ length: count }, (_, i) => ({
    bizTransferNo: `${prefix}-${i}`,
    // 1.00 .. 10.99 pesos: a mix of amounts, all with centavos.
    amount: (100 + (i % 10) * 100 + (i % 100)) / 100,
    title: 'Payroll',
    reason: 'nomina',
    payeeType: 'spei_transfer',
    payeeAccount: PAYEE_CLABE,
    payeeName: `Ana Perez ${i}`,
    ...over(i),
  }));
}

const sumCents = (list: { amount: number }[]) => list.reduce((s, it) => s + cents(it.amount), 0);
const sumFees = (list: { amount: number }[]) =>
  list.reduce((s, it) => s + feeFor(cents(it.amount), FEE_RATE), 0);

const callbacksAt = (path: string) => received.filter((r) => r.path === path).map((r) => r.body);

/** The batch's pages, every item, following nextCursor. */
async function allItems(client: Client, batchNo: string) {
  const all: Json[] = [];
  let cursor: string | undefined;
  let batch: Json;
  do {
    const reply = await send(client, '/gateway/query/transferBatch', {
      batchNo,
      limit: 500,
      ...(cursor && { cursor }),
    });
    expect(reply.code, JSON.stringify(reply)).toBe(0);
    batch = reply.data;
    all.push(...batch.items);
    cursor = batch.nextCursor;
  } while (cursor);
  return { batch, items: all };
}

/** Sends a BATCH_SIZE batch, prints how long its acceptance took, and waits for every item to end with one callback. */
async function batchEndsWithOneCallbackEach(client: Client, label: string, notifyPath: string) {
  const before = await balance(client);
  const list = items(BATCH_SIZE);
  const params = { bizBatchNo: biz('B'), notifyUrl: `${sinkUrl}${notifyPath}`, items: list };
  const body = client.signed(params);
  const started = performance.now();
  const reply = await client.send('/gateway/transfer/batch', body);
  const acceptedMs = performance.now() - started;
  console.log(
    `[batches] ${label}: ${BATCH_SIZE}-item batch accepted in ${acceptedMs.toFixed(0)} ms (${JSON.stringify(body).length} bytes)`,
  );
  expect(reply.signed).toBe(true);
  expect(reply.envelope.code, JSON.stringify(reply.envelope)).toBe(0);
  const data = reply.envelope.data as Json;
  expect(data).toMatchObject({ bizBatchNo: params.bizBatchNo, status: 'progress', count: BATCH_SIZE });
  expect(cents(data.amount)).toBe(sumCents(list));
  expect(cents(data.fee)).toBe(sumFees(list));

  const sendStarted = performance.now();
  const done = await waitFor(
    async () => {
      const page = await send(client, '/gateway/query/transferBatch', { batchNo: data.batchNo, limit: 1 });
      const b = page.data as Json;
      return b.status === 'done' ? b : undefined;
    },
    { timeoutMs: 600_000, intervalMs: 1_000, message: `${label} batch to be done` },
  );
  console.log(
    `[batches] ${label}: every item ended ${((performance.now() - sendStarted) / 1000).toFixed(1)} s after acceptance`,
  );
  expect(done).toMatchObject({ status: 'done', count: BATCH_SIZE, successCount: BATCH_SIZE, failCount: 0 });
  expect(done.progressCount).toBeUndefined();

  const { items: all } = await allItems(client, data.batchNo);
  expect(all.map((t: Json) => t.bizTransferNo)).toEqual(list.map((it) => it.bizTransferNo));
  const transferNos = new Set(all.map((t: Json) => t.transferNo as string));
  expect(transferNos.size).toBe(BATCH_SIZE);
  for (const t of all) {
    expect(t.status).toBe('success');
    expect(t.claveRastreo, `item ${t.transferNo} claveRastreo`).toBeTruthy();
  }

  // Exactly one callback per item, signed, equal to the item's query.
  const cbs = await waitFor(
    () => (callbacksAt(notifyPath).length >= BATCH_SIZE ? callbacksAt(notifyPath) : undefined),
    { timeoutMs: 120_000, intervalMs: 200, message: `${BATCH_SIZE} callbacks at ${notifyPath}` },
  );
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const final = callbacksAt(notifyPath);
  expect(final.length).toBe(BATCH_SIZE);
  const perTransfer = new Map<string, number>();
  for (const cb of cbs) {
    expect(verifyObject(cb, String(cb['sign']), client.platformKey)).toBe(true);
    const d = cb['data'] as Json;
    expect(d.status).toBe('success');
    expect(transferNos.has(d.transferNo)).toBe(true);
    perTransfer.set(d.transferNo, (perTransfer.get(d.transferNo) ?? 0) + 1);
  }
  expect(perTransfer.size).toBe(BATCH_SIZE);
  expect([...perTransfer.values()].every((n) => n === 1)).toBe(true);
  const sample = all[BATCH_SIZE - 1];
  const sampleCallback = cbs.find((cb) => (cb['data'] as Json).transferNo === sample.transferNo);
  expect(sampleCallback?.['data']).toEqual(sample);

  // The books: every item paid out once, amount + fee, nothing left frozen.
  await waitFor(
    async () => {
      const now = await balance(client);
      return now.frozen === before.frozen &&
        now.available === before.available - sumCents(list) - sumFees(list)
        ? now
        : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 300, message: `${label} balance after the batch` },
  );
}

const admin = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${stack.urls.admin}${path}`, {
    method,
    headers: {
      authorization: 'Bearer dev-admin-token',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Json) : undefined };
};

const merchant = (fund?: number) =>
  createTestMerchant({
    adminUrl: stack.urls.admin,
    gatewayUrl: stack.urls.gateway,
    feeRate: FEE_RATE,
    ...(fund !== undefined && { fund }),
  });

beforeAll(async () => {
  sink = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '/',
        body: JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>,
      });
      res.end('SUCCESS');
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}`;
  stack = await startTestStack({
    readyTimeoutMs: 300_000,
    env: {
      NOTIFY_RETRY_SCHEDULE: '300ms,300ms,1s',
      NOTIFY_TIMEOUT_MS: '5000',
      GRPC_TIMEOUT_MS: '30000',
      LEDGER_TIMEOUT_MS: '25000',
    },
  });
}, 360_000);

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => sink?.close(resolve));
}, 120_000);

describe('batch payouts', () => {
  it(`a ${BATCH_SIZE}-item batch on the sandbox route is accepted whole and every item ends with one callback`, async () => {
    const m = await merchant();
    await batchEndsWithOneCallbackEach(m, 'sandbox', '/batch-sandbox');
  }, 900_000);

  it(`a ${BATCH_SIZE}-item batch on the STP route is accepted whole and every item ends with one callback`, async () => {
    const m = await merchant();
    // Binding a merchant to a route needs four eyes: approved by the stack's approver.
    const asked = await admin('POST', `/admin/routes/stp-default/merchants/${m.mchNo}`);
    const bound = await settleApproval(stack.urls.admin, { status: asked.status, body: asked.json });
    expect(bound.status, JSON.stringify(bound.body)).toBe(200);
    await batchEndsWithOneCallbackEach(m, 'stp', '/batch-stp');
  }, 900_000);

  it('a batch over the available balance answers 40006 and creates nothing', async () => {
    // 100.00 pesos; each item takes 9.99 + its fee 2.10 = 12.09, so one fits and ten (120.90) do not.
    const m = await merchant(100);
    const before = await balance(m);
    const list = items(10, () => ({ amount: 9.99 }));
    const bizBatchNo = biz('B-over');
    const reply = await send(m, '/gateway/transfer/batch', { bizBatchNo, items: list });
    expect(reply.code, JSON.stringify(reply)).toBe(40006);
    expect(await balance(m)).toEqual(before);
    expect((await send(m, '/gateway/query/transferBatch', { bizBatchNo })).code).toBe(40004);
    for (const it of [list[0], list[9]]) {
      const q = await send(m, '/gateway/query/transferOrder', { bizTransferNo: it?.bizTransferNo });
      expect(q.code).toBe(40004);
    }
    // Nothing was created, so the keys are free: the first item alone fits and is accepted.
    const single = await send(m, '/gateway/transfer', { ...list[0], notifyUrl: `${sinkUrl}/single` });
    expect(single.code, JSON.stringify(single)).toBe(0);
  }, 120_000);

  it('the same bizBatchNo answers the same batch; with other items 40010; nothing is frozen twice', async () => {
    const m = await merchant();
    const before = await balance(m);
    const list = items(5);
    const params = { bizBatchNo: biz('B-idem'), notifyUrl: `${sinkUrl}/idem`, items: list };
    // Four identical requests at once: one batch, every answer naming it.
    const replies = await Promise.all(
      Array.from({ length: 4 }, () => send(m, '/gateway/transfer/batch', params)),
    );
    for (const reply of replies) expect(reply.code, JSON.stringify(reply)).toBe(0);
    const batchNo = (replies[0]!.data as Json).batchNo;
    for (const reply of replies) expect((reply.data as Json).batchNo).toBe(batchNo);
    const third = await send(m, '/gateway/transfer/batch', params);
    expect((third.data as Json).batchNo).toBe(batchNo);

    const other = await send(m, '/gateway/transfer/batch', {
      ...params,
      items: list.map((it, i) => (i === 2 ? { ...it, amount: it.amount + 1 } : it)),
    });
    expect(other.code).toBe(40010);
    const fewer = await send(m, '/gateway/transfer/batch', { ...params, items: list.slice(0, 4) });
    expect(fewer.code).toBe(40010);

    const { batch, items: all } = await allItems(m, batchNo);
    expect(batch.count).toBe(5);
    expect(all).toHaveLength(5);
    // Frozen or paid once: the balance moves by one batch's amount + fees, however often it was sent.
    await waitFor(
      async () => {
        const now = await balance(m);
        return now.available === before.available - sumCents(list) - sumFees(list) ? now : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 300, message: 'balance after one batch' },
    );
  }, 120_000);

  it('a bad item refuses the whole batch naming it: 10001 items[i].field, 40005 for a bad account', async () => {
    const m = await merchant();
    const before = await balance(m);
    const list = items(4);
    const badAmount = await send(m, '/gateway/transfer/batch', {
      bizBatchNo: biz('B-bad'),
      items: list.map((it, i) => (i === 2 ? { ...it, amount: 1.234 } : it)),
    });
    expect(badAmount.code).toBe(10001);
    expect(badAmount.msg).toContain('items[2].amount');
    const missing = await send(m, '/gateway/transfer/batch', {
      bizBatchNo: biz('B-bad'),
      items: list.map((it, i) => (i === 1 ? { ...it, payeeType: undefined } : it)),
    });
    expect(missing.code).toBe(10001);
    expect(missing.msg).toContain('items[1].payeeType');
    const badAccount = await send(m, '/gateway/transfer/batch', {
      bizBatchNo: biz('B-bad'),
      items: list.map((it, i) => (i === 3 ? { ...it, payeeAccount: '002010077777777772' } : it)),
    });
    expect(badAccount.code).toBe(40005);
    expect(badAccount.msg).toContain('items[3].payeeAccount');
    const repeated = await send(m, '/gateway/transfer/batch', {
      bizBatchNo: biz('B-bad'),
      items: [...list, list[0]],
    });
    expect(repeated.code).toBe(10001);
    expect(repeated.msg).toContain('items[4].bizTransferNo');
    const empty = await send(m, '/gateway/transfer/batch', { bizBatchNo: biz('B-bad'), items: [] });
    expect(empty.code).toBe(10001);
    expect(empty.msg).toContain('items');
    const tooMany = await send(m, '/gateway/transfer/batch', {
      bizBatchNo: biz('B-bad'),
      items: items(1_001),
    });
    expect(tooMany.code).toBe(10001);
    expect(await balance(m)).toEqual(before);
  }, 120_000);
});
