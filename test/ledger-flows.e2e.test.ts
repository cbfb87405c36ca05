import { CLIENT_OPTIONS, call, type LedgerServiceClient, loadProtos } from '@agentpay/proto';
import type { Stack } from '@agentpay/stack';
import { merchantClient, settleApproval, type TestMerchant, TIME_ZONE, waitFor } from '@agentpay/testing';
import { type Envelope, feeFor, formatWireTime, generateKeyPair, parsePublicKey } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMerchantBalances } from '../scripts/chaos/balances.js';
import { startTestStack } from './support/stack.js';

// CONTRACT.md section 13 end to end, every service a real process: pay-ins book the merchant's pending
// or available with the fee to the platform, settlement moves D+N money on business days (a weekend and
// two bank holidays in between), transfers freeze inside their create and book their outcome (success,
// fail, rejected at once, returned), a transfer beyond the balance creates nothing, and 50 concurrent
// transfers of one merchant take exactly what fits, `available` never below zero while they run.

const CLABE = '002010077777777771';
const FEE_RATE = { percentBps: 200, fixedCentavos: 100 };

let stack: Stack;
/** The Mexico City day the flows started on (the last test reconciles it, and today if they straddle midnight). */
let startDay: string;
/** When the flows started (ms). */
let startedAt: number;
let ledger: LedgerServiceClient;
const ymd = (date: Date) => formatWireTime(date, TIME_ZONE).slice(0, 10);
const addDays = (day: string, n: number) => {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
};
const weekday = (day: string) => new Date(`${day}T12:00:00Z`).getUTCDay();
const isWeekend = (day: string) => weekday(day) === 0 || weekday(day) === 6;

/** The next two business days after today are bank holidays, so a D+3 order waits over a weekend too. */
const holidays: string[] = [];
{
  let day = ymd(new Date());
  while (holidays.length < 2) {
    day = addDays(day, 1);
    if (!isWeekend(day)) holidays.push(day);
  }
}

/** The Mexico City day a D+N order paid at `payTime` becomes due (00:00 of its N-th business day after). */
function dueDay(payTime: string, n: number): string {
  // A wire time is Mexico City wall time: its day is its date part. (Parsed with `new Date`, it was read as
  // UTC and gave the previous day from 00:00 to 06:00 there, so this test failed every morning.)
  let day = payTime.slice(0, 10);
  let left = n;
  while (left > 0) {
    day = addDays(day, 1);
    if (!isWeekend(day) && !holidays.includes(day)) left--;
  }
  return day;
}

async function admin(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${stack.urls.admin}${path}`, {
    method,
    headers: {
      authorization: 'Bearer dev-admin-token',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // A request that needs four eyes (an adjustment) is approved by a second person, and answers as it would.
  const { status, body: json } = await settleApproval(stack.urls.admin, {
    status: response.status,
    body: await response.json(),
  });
  if (status >= 300) throw new Error(`${path}: ${status} ${JSON.stringify(json)}`);
  return json;
}

let merchantSeq = 0;
async function newMerchant(settleType: string): Promise<TestMerchant> {
  const keys = generateKeyPair();
  const mchNo = `LF${Date.now().toString(36)}${++merchantSeq}`.toUpperCase();
  await admin('POST', '/admin/merchants', {
    mchNo,
    name: `Ledger flows ${mchNo}`,
    publicKey: keys.publicKeyPem,
    feeRate: FEE_RATE,
    settleType,
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

/** The merchant's balance through the gateway, in centavos. */
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

const fund = (merchant: TestMerchant, centavos: number, reference: string) =>
  admin('POST', `/admin/merchants/${merchant.mchNo}/adjustments`, {
    amount: centavos / 100,
    reason: 'funding',
    reference,
  });

/** A pay order paid through the sandbox, once it is `success`. */
async function paidOrder(merchant: TestMerchant, amountCentavos: number): Promise<Record<string, unknown>> {
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
    body: JSON.stringify({ clabe, amount: amountCentavos / 100 }),
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

function transfer(
  merchant: TestMerchant,
  bizTransferNo: string,
  amountCentavos: number,
  payeeName = 'Ana Perez',
) {
  return send(merchant, '/gateway/transfer', {
    bizTransferNo,
    amount: amountCentavos / 100,
    title: 'Payout',
    reason: 'commission',
    payeeType: 'spei_transfer',
    payeeAccount: CLABE,
    payeeName,
  });
}

async function transferReaching(merchant: TestMerchant, transferNo: string, status: string) {
  return waitFor(
    async () => {
      const reply = await send(merchant, '/gateway/query/transferOrder', { transferNo });
      const data = reply.data as Record<string, unknown> | null;
      return data?.['status'] === status ? data : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 200, message: `transfer ${transferNo} to reach ${status}` },
  );
}

/** Waits until the merchant's balance is `expected` (events are booked asynchronously). */
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

beforeAll(async () => {
  startedAt = Date.now();
  startDay = ymd(new Date(startedAt));
  stack = await startTestStack({
    serviceEnv: {
      // Settlement runs only when a test asks (admin RunSettlement), on this calendar.
      // Reconciliation only when the last test asks, counting every movement however recent.
      ledger: {
        SETTLEMENT_SWEEP_INTERVAL_MS: '0',
        SETTLEMENT_HOLIDAYS: holidays.join(','),
        RECON_SCHEDULE: 'off',
        RECON_GRACE_MS: '0',
      },
    },
  });
  ledger = new (loadProtos().agentpay.ledger.v1.LedgerService)(
    `127.0.0.1:${stack.ports.ledger}`,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
}, 120_000);

afterAll(async () => {
  ledger?.close();
  await stack?.stop();
});

describe('pay-ins', () => {
  it('books a REALTIME pay-in as available at once, fee kept, and the order shows it settled at its pay time', async () => {
    const merchant = await newMerchant('REALTIME');
    const order = await paidOrder(merchant, 200_00);
    const fee = feeFor(200_00, FEE_RATE);
    expect(cents(order['fee'])).toBe(fee);
    expect(cents(order['realAmount'])).toBe(200_00 - fee);
    expect(order).toMatchObject({ settleType: 'REALTIME', settleStatus: 'settled' });
    expect(order['settleTime']).toBe(order['payTime']);
    await balanceBecomes(merchant, { available: 200_00 - fee, pending: 0, frozen: 0 });
  });

  it('keeps a D+3 pay-in pending until its third business day after a weekend and two holidays, then settles it', async () => {
    const merchant = await newMerchant('D+3');
    const order = await paidOrder(merchant, 300_00);
    const real = 300_00 - feeFor(300_00, FEE_RATE);
    expect(order).toMatchObject({ settleStatus: 'not_settle' });
    await balanceBecomes(merchant, { available: 0, pending: real, frozen: 0 });

    const due = dueDay(String(order['payTime']), 3);
    // The span holds both holidays and a weekend day.
    for (const holiday of holidays) expect(holiday < due).toBe(true);
    expect(
      [1, 2, 3, 4, 5, 6].some(
        (n) => isWeekend(addDays(ymd(new Date()), n)) && addDays(ymd(new Date()), n) < due,
      ),
    ).toBe(true);

    await admin('POST', '/admin/settlements/run', { until: `${addDays(due, -1)} 23:59:59` });
    expect(await balance(merchant)).toEqual({ available: 0, pending: real, frozen: 0 });
    const run = await admin('POST', '/admin/settlements/run', { until: `${due} 00:00:00` });
    expect(run['settled']).toBeGreaterThanOrEqual(1);
    expect(await balance(merchant)).toEqual({ available: real, pending: 0, frozen: 0 });

    // Payments hears of it from the ledger's OrderSettled: settled, nothing else of the order changed.
    const settled = await waitFor(
      async () => {
        const reply = await send(merchant, '/gateway/query/payOrder', { orderNo: order['orderNo'] });
        const data = reply.data as Record<string, unknown>;
        return data['settleStatus'] === 'settled' ? data : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 200, message: 'payments to record the settlement' },
    );
    expect(settled['settleTime']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect({ ...settled, settleStatus: 'not_settle', settleTime: order['settleTime'] }).toEqual(order);
  });
});

describe('transfers', () => {
  it('freezes amount + fee at create, then books success, fail (later and at once) and a return', async () => {
    const merchant = await newMerchant('REALTIME');
    await fund(merchant, 1_000_00, 'transfers-funding');
    const amount = 100_00;
    const fee = feeFor(amount, FEE_RATE);
    let available = 1_000_00;

    // success: frozen at create, then moved out with its fee.
    const ok = await transfer(merchant, `TR-OK-${Date.now()}`, amount);
    expect(ok).toMatchObject({ code: 0, data: { status: 'progress' } });
    const okNo = (ok.data as { transferNo: string }).transferNo;
    await transferReaching(merchant, okNo, 'success');
    available -= amount + fee;
    await balanceBecomes(merchant, { available, pending: 0, frozen: 0 });

    // fail later (REJECT): unfrozen, nothing kept.
    const rejected = await transfer(merchant, `TR-REJ-${Date.now()}`, amount, 'Ana REJECT');
    expect(rejected).toMatchObject({ code: 0, data: { status: 'progress' } });
    await transferReaching(merchant, (rejected.data as { transferNo: string }).transferNo, 'fail');
    await balanceBecomes(merchant, { available, pending: 0, frozen: 0 });

    // refused by the channel at once (SYNCREJECT): created as fail, its freeze released in the create.
    const syncRejected = await transfer(merchant, `TR-SREJ-${Date.now()}`, amount, 'Ana SYNCREJECT');
    expect(syncRejected).toMatchObject({ code: 0, data: { status: 'fail' } });
    expect(await balance(merchant)).toEqual({ available, pending: 0, frozen: 0 });

    // returned (RETURN): success, then close; the amount comes back, the fee is kept.
    const returned = await transfer(merchant, `TR-RET-${Date.now()}`, amount, 'Ana RETURN');
    expect(returned).toMatchObject({ code: 0 });
    await transferReaching(merchant, (returned.data as { transferNo: string }).transferNo, 'close');
    available -= fee;
    await balanceBecomes(merchant, { available, pending: 0, frozen: 0 });

    const records = await send(merchant, '/gateway/query/balanceRecords', {
      startTime: formatWireTime(new Date(Date.now() - 3_600_000), TIME_ZONE),
      endTime: formatWireTime(new Date(Date.now() + 60_000), TIME_ZONE),
    });
    const types = ((records.data as { records: { type: string }[] }).records ?? []).map((r) => r.type);
    expect(types.filter((t) => t === 'transfer_freeze')).toHaveLength(4);
    expect(types).toEqual(expect.arrayContaining(['transfer_out', 'transfer_unfreeze', 'transfer_return']));
  });

  it('answers 40006 beyond the balance and creates nothing; the same bizTransferNo succeeds once funded', async () => {
    const merchant = await newMerchant('REALTIME');
    await fund(merchant, 50_00, 'small-funding');
    const bizTransferNo = `TR-BIG-${Date.now()}`;
    const refused = await transfer(merchant, bizTransferNo, 100_00);
    expect(refused.code).toBe(40006);
    const query = await send(merchant, '/gateway/query/transferOrder', { bizTransferNo });
    expect(query.code).toBe(40004);
    expect(await balance(merchant)).toEqual({ available: 50_00, pending: 0, frozen: 0 });

    await fund(merchant, 100_00, 'top-up');
    const accepted = await transfer(merchant, bizTransferNo, 100_00);
    expect(accepted).toMatchObject({ code: 0, data: { status: 'progress' } });
    await transferReaching(merchant, (accepted.data as { transferNo: string }).transferNo, 'success');
    await balanceBecomes(merchant, {
      available: 150_00 - 100_00 - feeFor(100_00, FEE_RATE),
      pending: 0,
      frozen: 0,
    });
  });

  it('accepts exactly the 50 concurrent transfers that fit, available never below zero while they run', async () => {
    const merchant = await newMerchant('REALTIME');
    const amount = 100_00;
    const cost = amount + feeFor(amount, FEE_RATE);
    const fits = 9;
    const funds = fits * cost + cost / 2;
    await fund(merchant, funds, 'concurrent-funding');

    const samples: { available: number; frozen: number }[] = [];
    let running = true;
    const sampler = (async () => {
      while (running) {
        const b = await call(ledger, ledger.GetBalance, { mch_no: merchant.mchNo });
        samples.push({ available: Number(b.available), frozen: Number(b.frozen) });
      }
    })();
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => transfer(merchant, `TR-C${i}-${Date.now()}`, amount)),
    ).finally(() => {
      running = false;
    });
    await sampler;

    const codes = replies.map((r) => r.code);
    expect(codes.filter((c) => c === 0)).toHaveLength(fits);
    expect(codes.filter((c) => c === 40006)).toHaveLength(50 - fits);
    expect(samples.length).toBeGreaterThan(0);
    for (const s of samples) {
      expect(s.available).toBeGreaterThanOrEqual(0);
      expect(s.frozen).toBeGreaterThanOrEqual(0);
    }
    for (const reply of replies.filter((r) => r.code === 0))
      await transferReaching(merchant, (reply.data as { transferNo: string }).transferNo, 'success');
    await balanceBecomes(merchant, { available: funds - fits * cost, pending: 0, frozen: 0 });
  });
});

describe('the books', () => {
  it('balance after every flow above: every entry balances and matches its order or transfer', async () => {
    const check = await admin('GET', '/admin/ledger/check');
    expect(check).toMatchObject({ ok: true, problems: [] });
    // The fault run's checker agrees: each merchant's balance is what its orders and transfers imply.
    expect(await checkMerchantBalances(stack)).toEqual([]);
  });

  it('reconciles the day of every flow above against the channel with no discrepancy', async () => {
    // The ledger judges a movement within 15 minutes of a midnight once both days' statements are stored: near
    // one, the neighbour day is run too, and every day twice (the first pass stores the statements).
    const EDGE_MS = 15 * 60_000;
    const now = Date.now();
    const days = [
      ...new Set([
        ymd(new Date(startedAt - EDGE_MS)),
        startDay,
        ymd(new Date(now)),
        ymd(new Date(now + EDGE_MS)),
      ]),
    ].sort();
    if (days.length > 1) for (const day of days) await admin('POST', '/admin/reconciliations', { day });
    let lines = 0;
    for (const day of days) {
      const run = await admin('POST', '/admin/reconciliations', { day });
      const routes = run['routes'] as {
        lines: number;
        matched: number;
        pending: number;
        discrepancies: number;
      }[];
      for (const route of routes) {
        expect(route).toMatchObject({ pending: 0, discrepancies: 0 });
        expect(route.matched).toBe(route.lines);
        lines += route.lines;
      }
      expect((await admin('GET', `/admin/discrepancies?day=${day}`))['items']).toEqual([]);
    }
    // The pay-ins, the successful payouts and the return all reached the statement and matched.
    expect(lines).toBeGreaterThanOrEqual(10);
  });
});
