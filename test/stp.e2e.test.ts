import type { KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { CLIENT_OPTIONS, call, loadProtos, type UpstreamRouterClient } from '@agentpay/proto';
import { buildClabe } from '@agentpay/spei';
import type { Stack } from '@agentpay/stack';
import { createTestMerchant, settleApproval, type TestMerchant, TIME_ZONE, waitFor } from '@agentpay/testing';
import { type Envelope, feeFor, formatWireTime, verifyObject } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// Issue 27's acceptance, as a merchant and an operator see it: a merchant bound to the seeded `stp-default`
// route pays in and out over STP (the sandbox's STP emulator), every service a real process. The router
// decides each deposit (confirmar keeps the money, devolver sends it back), refuses webhooks it cannot
// trust, sends each payout once even when asked twice, and the day reconciles against STP's conciliacion
// with the deposits sent back counted as returned, never as discrepancies.

const ROUTE = 'stp-default';
const PREFIX = '6461805555';
const FEE_RATE = { percentBps: 150, fixedCentavos: 300 };
/** BANAMEX (40002): the payee of every payout. */
const PAYEE_CLABE = '002010077777777771';
/** A CLABE under the route's prefix that no order holds: the router hands numbers out from 1 upwards. */
const UNKNOWN_CLABE = buildClabe('646', '180', `5555${'9999998'}`);

let stack: Stack;
let merchant: TestMerchant & { platformKey: KeyObject };
let router: UpstreamRouterClient;
let sink: Server;
let sinkUrl = '';
let noticeUrl = '';
const received: { path: string; body: Record<string, unknown> }[] = [];

/** Mexico City days the flows touched (the neighbour day too within 15 minutes of a midnight). */
const days = new Set<string>();
const DAY_EDGE_MS = 15 * 60_000;
const ymd = (at: number) => formatWireTime(new Date(at), TIME_ZONE).slice(0, 10);
function touch(): void {
  for (const at of [Date.now() - DAY_EDGE_MS, Date.now(), Date.now() + DAY_EDGE_MS]) days.add(ymd(at));
}

// biome-ignore lint/suspicious/noExplicitAny: admin and emulator answers are read field by field
type Json = any;

async function http(url: string, method: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, json };
}

const admin = (method: string, path: string, body?: unknown) =>
  http(`${stack.urls.admin}${path}`, method, body, { authorization: 'Bearer dev-admin-token' });
const emulator = (method: string, path: string, body?: unknown) =>
  http(`${stack.urls.sandbox}${path}`, method, body);

async function send(path: string, params: Record<string, unknown>): Promise<Envelope> {
  const reply = await merchant.request(path, params);
  expect(reply.signed, `${path} reply signed`).toBe(true);
  expect(reply.status).toBe(200);
  return reply.envelope;
}

/** A wire time's day as the CEP writes it: dd-MM-yyyy. */
const cepDay = (wireTime: string) =>
  `${wireTime.slice(8, 10)}-${wireTime.slice(5, 7)}-${wireTime.slice(0, 4)}`;

const cents = (pesos: unknown) => Math.round(Number(pesos) * 100);

/** The merchant's balance through the gateway, in centavos. */
async function balance() {
  const reply = await send('/gateway/query/balance', {});
  expect(reply.code).toBe(0);
  const data = reply.data as Record<string, unknown>;
  return {
    available: cents(data['available']),
    pending: cents(data['pending']),
    frozen: cents(data['frozen']),
  };
}
type Balance = Awaited<ReturnType<typeof balance>>;

/** Waits until the balance is `expected` (the ledger books from events, asynchronously). */
async function balanceBecomes(expected: Balance): Promise<void> {
  let last: Balance | undefined;
  await waitFor(
    async () => {
      last = await balance();
      return JSON.stringify(last) === JSON.stringify(expected);
    },
    { timeoutMs: 15_000, intervalMs: 150, message: `balance ${JSON.stringify(expected)}` },
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last ${JSON.stringify(last)}`);
  });
}

const callbacksAt = (path: string) => received.filter((r) => r.path === path).map((r) => r.body);

async function callbacks(path: string, count: number): Promise<Record<string, unknown>[]> {
  const found = await waitFor(() => (callbacksAt(path).length >= count ? callbacksAt(path) : undefined), {
    timeoutMs: 15_000,
    intervalMs: 100,
    message: `${count} callback(s) at ${path}`,
  });
  for (const callback of found)
    expect(verifyObject(callback, String(callback['sign']), merchant.platformKey), 'callback signed').toBe(
      true,
    );
  return found;
}

/** Rows of the router's own database. */
async function routerRows(text: string, ...values: unknown[]): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: stack.databaseUrl('upstream-router') });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(text, values)).rows;
  } finally {
    await client.end();
  }
}

let orderSeq = 0;
async function newOrder(pesos: number, notifyPath: string) {
  const created = await send('/gateway/pay', {
    bizOrderNo: `STP-${Date.now()}-${++orderSeq}`,
    title: 'STP order',
    method: 'mex_virtual_account',
    amount: pesos,
    notifyUrl: `${sinkUrl}${notifyPath}`,
  });
  expect(created.code, JSON.stringify(created)).toBe(0);
  const data = created.data as { orderNo: string; payBody: string };
  const payBody = JSON.parse(data.payBody) as { clabe: string; bankCode: string };
  return { orderNo: data.orderNo, clabe: payBody.clabe, payBody };
}

async function payOrder(orderNo: string): Promise<Record<string, unknown>> {
  const reply = await send('/gateway/query/payOrder', { orderNo });
  expect(reply.code).toBe(0);
  return reply.data as Record<string, unknown>;
}

const orderReaches = (orderNo: string, status: string) =>
  waitFor(
    async () => {
      const data = await payOrder(orderNo);
      return data['status'] === status ? data : undefined;
    },
    { timeoutMs: 15_000, intervalMs: 150, message: `order ${orderNo} to be ${status}` },
  );

interface Deposit {
  id: number;
  claveRastreo: string;
  answer: 'confirmar' | 'devolver' | 'pending';
}

/** A payer's SPEI transfer into `clabe` through the emulator, which asks the router with the abono webhook. */
async function deposit(clabe: string, pesos: number, extra: Record<string, unknown> = {}): Promise<Deposit> {
  touch();
  const reply = await emulator('POST', '/sandbox/deposits', { clabe, amount: pesos, ...extra });
  expect(reply.status, JSON.stringify(reply.json)).toBe(201);
  return reply.json as Deposit;
}

async function stpOrders(claveRastreo: string): Promise<Json[]> {
  const reply = await emulator('GET', `/sandbox/stp/orders?claveRastreo=${claveRastreo}`);
  expect(reply.status).toBe(200);
  return reply.json.orders;
}

let transferSeq = 0;
async function transfer(payeeName: string, pesos: number, notifyPath: string) {
  touch();
  const params = {
    bizTransferNo: `STPT-${Date.now()}-${++transferSeq}`,
    amount: pesos,
    title: 'Payout',
    reason: 'commission',
    payeeType: 'spei_transfer',
    payeeAccount: PAYEE_CLABE,
    payeeName,
    notifyUrl: `${sinkUrl}${notifyPath}`,
  };
  const created = await send('/gateway/transfer', params);
  expect(created.code, JSON.stringify(created)).toBe(0);
  return { params, data: created.data as { transferNo: string; status: string } };
}

async function transferOrder(transferNo: string): Promise<Record<string, unknown>> {
  const reply = await send('/gateway/query/transferOrder', { transferNo });
  expect(reply.code).toBe(0);
  return reply.data as Record<string, unknown>;
}

const transferReaches = (transferNo: string, status: string) =>
  waitFor(
    async () => {
      const data = await transferOrder(transferNo);
      return data['status'] === status ? data : undefined;
    },
    { timeoutMs: 15_000, intervalMs: 150, message: `transfer ${transferNo} to be ${status}` },
  );

/** The abono STP would send for an order it holds, built from the emulator's view of the order. */
function abonoOf(order: Json): Record<string, unknown> {
  return {
    id: order.id,
    fechaOperacion: order.fechaOperacion,
    institucionOrdenante: order.institucionContraparte,
    institucionBeneficiaria: 90646,
    claveRastreo: order.claveRastreo,
    monto: order.monto,
    nombreOrdenante: order.nombreOrdenante,
    tipoCuentaOrdenante: 40,
    cuentaOrdenante: order.cuentaOrdenante,
    rfcCurpOrdenante: 'ND',
    nombreBeneficiario: order.nombreBeneficiario,
    tipoCuentaBeneficiario: 40,
    cuentaBeneficiario: order.cuentaBeneficiario,
    rfcCurpBeneficiario: 'ND',
    conceptoPago: order.conceptoPago,
    referenciaNumerica: order.referenciaNumerica,
    empresa: order.empresa,
    tsLiquidacion: order.tsLiquidacion,
  };
}

/** What the tests below leave for the last ones to check. */
const flows = {
  paid: { orderNo: '', clabe: '', deposit: undefined as Deposit | undefined },
  returnedDeposits: [] as Deposit[],
  /** Callbacks each notify path must have received by the end, by status. */
  expectedCallbacks: new Map<string, string[]>(),
};

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
    env: { NOTIFY_RETRY_SCHEDULE: '300ms,300ms,1s', NOTIFY_TIMEOUT_MS: '3000' },
    serviceEnv: {
      // The test stands for the proxy in front of the notice port, so it may name another caller.
      'upstream-router': { TRUSTED_PROXIES: '127.0.0.1,::1' },
      // Reconciliation only when the last test asks, counting every movement however recent.
      ledger: { RECON_GRACE_MS: '0', RECON_SCHEDULE: 'off' },
    },
  });
  noticeUrl = `http://127.0.0.1:${stack.ports.routerNotices}`;
  merchant = await createTestMerchant({
    adminUrl: stack.urls.admin,
    gatewayUrl: stack.urls.gateway,
    feeRate: FEE_RATE,
  });
  // Binding a merchant to a route needs four eyes: approved by the stack's approver.
  const asked = await admin('POST', `/admin/routes/${ROUTE}/merchants/${merchant.mchNo}`);
  const bound = await settleApproval(stack.urls.admin, { status: asked.status, body: asked.json });
  expect(bound.status, JSON.stringify(bound.body)).toBe(200);
  const protos = loadProtos().agentpay;
  router = new protos.router.v1.UpstreamRouter(
    `127.0.0.1:${stack.ports.router}`,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
}, 120_000);

afterAll(async () => {
  router?.close();
  await stack?.stop();
  await new Promise((resolve) => sink?.close(resolve));
});

describe('pay-ins over STP', () => {
  it('an order paid by an abono is confirmed, succeeds with its claveRastreo in query and callback, and books amount minus fee', async () => {
    const before = await balance();
    const order = await newOrder(250.75, '/pay-ok');
    expect(order.clabe).toMatch(new RegExp(`^${PREFIX}\\d{8}$`));
    expect(order.payBody.bankCode).toBe('90646');
    flows.paid.orderNo = order.orderNo;
    flows.paid.clabe = order.clabe;

    const paid = await deposit(order.clabe, 250.75);
    expect(paid.answer).toBe('confirmar');
    flows.paid.deposit = paid;
    flows.expectedCallbacks.set('/pay-ok', ['success']);

    const data = await orderReaches(order.orderNo, 'success');
    expect(data['claveRastreo']).toBe(paid.claveRastreo);
    // The CEP facts of the deposit (section 21): from the payer's bank into the order's CLABE at STP, and the
    // CEP page STP's record of the deposit gives.
    const [received] = await stpOrders(paid.claveRastreo);
    expect(data['cep']).toEqual({
      fecha: cepDay(String(data['payTime'])),
      claveRastreo: paid.claveRastreo,
      emisor: String(received.institucionContraparte),
      receptor: '90646',
      cuenta: order.clabe,
      monto: '250.75',
    });
    expect(data['cepUrl']).toBe(received.urlCEP);
    expect(String(data['cepUrl'])).toContain(`d=${paid.claveRastreo}`);
    const fee = feeFor(250_75, FEE_RATE);
    expect(cents(data['fee'])).toBe(fee);
    expect(cents(data['realAmount'])).toBe(250_75 - fee);

    const [callback] = await callbacks('/pay-ok', 1);
    expect(callback!['data']).toMatchObject({ orderNo: order.orderNo, status: 'success' });
    expect((callback!['data'] as Record<string, unknown>)['claveRastreo']).toBe(paid.claveRastreo);
    expect(callback!['data']).toEqual(await payOrder(order.orderNo));

    // D+1 merchant: the pay-in waits in pending, net of its fee.
    await balanceBecomes({ ...before, pending: before.pending + 250_75 - fee });
    // STP shows the deposit liquidated: the platform's answer kept the money.
    const [stp] = await stpOrders(paid.claveRastreo);
    expect(stp).toMatchObject({ tipoOrden: 'R', estado: 'LQ', answer: 'confirmar' });
  });

  /** A deposit the router must send back: devolver, no notice recorded, nothing booked, the order untouched. */
  async function sentBack(clabe: string, pesos: number, orderNo?: string) {
    const before = await balance();
    const status = orderNo ? (await payOrder(orderNo))['status'] : undefined;
    const answered = await deposit(clabe, pesos);
    expect(answered.answer).toBe('devolver');
    flows.returnedDeposits.push(answered);
    // The router's record of it: returned, and no notice (the only way a deposit reaches payments).
    const [row] = await routerRows(
      'select decision, order_no from channel_deposits where route_id = $1 and clave_rastreo = $2',
      ROUTE,
      answered.claveRastreo,
    );
    expect(row).toMatchObject({ decision: 'returned', order_no: '' });
    const [stp] = await stpOrders(answered.claveRastreo);
    expect(stp).toMatchObject({ estado: 'D', answer: 'devolver' });
    if (orderNo) expect((await payOrder(orderNo))['status']).toBe(status);
    expect(await balance()).toEqual(before);
    return answered;
  }

  it('a deposit to a CLABE under the prefix that no order holds is answered devolver (account unknown)', async () => {
    const answered = await sentBack(UNKNOWN_CLABE, 75);
    const [stp] = await stpOrders(answered.claveRastreo);
    expect(stp.causaDevolucion).toBe(1);
  });

  it('a second deposit to an already paid order is answered devolver and pays nothing more', async () => {
    const answered = await sentBack(flows.paid.clabe, 250.75, flows.paid.orderNo);
    const [stp] = await stpOrders(answered.claveRastreo);
    expect(stp.causaDevolucion).toBe(3);
  });

  it('a deposit of another amount than the order’s is answered devolver; the order keeps waiting', async () => {
    const order = await newOrder(80, '/pay-wrong');
    flows.expectedCallbacks.set('/pay-wrong', []);
    const answered = await sentBack(order.clabe, 79.99, order.orderNo);
    expect((await payOrder(order.orderNo))['status']).toBe('wait');
    const [stp] = await stpOrders(answered.claveRastreo);
    expect(stp.causaDevolucion).toBe(13);
  });

  it('an abono STP sends again gets the first answer and has no second effect', async () => {
    const before = await balance();
    const again = await emulator('POST', `/sandbox/stp/abonos/${flows.paid.deposit!.id}/resend`, {});
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ answer: 'confirmar', estado: 'LQ' });
    const returned = flows.returnedDeposits[0]!;
    const againReturned = await emulator('POST', `/sandbox/stp/abonos/${returned.id}/resend`, {});
    expect(againReturned.json).toMatchObject({ answer: 'devolver', estado: 'D' });

    // The router saw each twice and recorded one notice for the paying one.
    const rows = await routerRows(
      'select clave_rastreo, deliveries from channel_deposits where route_id = $1 and clave_rastreo = any($2)',
      ROUTE,
      [flows.paid.deposit!.claveRastreo, returned.claveRastreo],
    );
    expect(rows.map((r) => r['deliveries']).sort()).toEqual([2, 2]);
    const notices = await routerRows(
      'select deliveries from upstream_notices where route_id = $1 and ref = $2',
      ROUTE,
      flows.paid.orderNo,
    );
    expect(notices).toEqual([{ deliveries: 1 }]);
    expect(await balance()).toEqual(before);
    expect(callbacksAt('/pay-ok')).toHaveLength(1);
  });

  it('a forged abono (a claveRastreo STP does not know) for an open order’s CLABE and amount pays nothing: 403', async () => {
    const order = await newOrder(64.5, '/pay-forged');
    flows.expectedCallbacks.set('/pay-forged', []);
    const forged = await http(`${noticeUrl}/notices/${ROUTE}/abono`, 'POST', {
      id: 990_000_001,
      fechaOperacion: Number(ymd(Date.now()).replaceAll('-', '')),
      institucionOrdenante: 40012,
      institucionBeneficiaria: 90646,
      claveRastreo: `FORGED${Date.now()}`,
      monto: 64.5,
      nombreOrdenante: 'Mallory',
      tipoCuentaOrdenante: 40,
      cuentaOrdenante: buildClabe('012', '180', '00000000042'),
      rfcCurpOrdenante: 'ND',
      nombreBeneficiario: 'AGENTPAY',
      tipoCuentaBeneficiario: 40,
      cuentaBeneficiario: order.clabe,
      rfcCurpBeneficiario: 'ND',
      conceptoPago: 'PAGO',
      referenciaNumerica: 1,
      empresa: 'AGENTPAY',
      tsLiquidacion: Date.now(),
    });
    expect(forged.status).toBe(403);
    expect(forged.json).toEqual({ mensaje: 'rechazado' });
    expect((await payOrder(order.orderNo))['status']).toBe('wait');
    expect(
      await routerRows(
        'select 1 from channel_deposits where route_id = $1 and clabe = $2',
        ROUTE,
        order.clabe,
      ),
    ).toEqual([]);
  });

  it('a webhook from an address outside the allow-list is refused with 403, though STP holds the deposit', async () => {
    const before = await balance();
    const order = await newOrder(42.1, '/pay-proxy');
    // STP received this deposit but has not asked yet: its abono would pass verification.
    const held = await deposit(order.clabe, 42.1, { notify: false });
    const stp = (await emulator('GET', `/sandbox/stp/orders/${held.id}`)).json;
    const refused = await http(`${noticeUrl}/notices/${ROUTE}/abono`, 'POST', abonoOf(stp), {
      'x-forwarded-for': '203.0.113.9',
    });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ mensaje: 'prohibido' });
    expect((await payOrder(order.orderNo))['status']).toBe('wait');

    // The same abono from STP's own address pays: it was the caller's address that was refused.
    const delivered = await emulator('POST', `/sandbox/stp/abonos/${held.id}/resend`, {});
    expect(delivered.json).toMatchObject({ answer: 'confirmar' });
    flows.expectedCallbacks.set('/pay-proxy', ['success']);
    const data = await orderReaches(order.orderNo, 'success');
    expect(data['claveRastreo']).toBe(held.claveRastreo);
    await balanceBecomes({ ...before, pending: before.pending + 42_10 - feeFor(42_10, FEE_RATE) });
  });
});

describe('payouts over STP', () => {
  it('a liquidated payout succeeds with its claveRastreo in query and callback, debited once', async () => {
    const before = await balance();
    const { data } = await transfer('Ana Perez', 100, '/tr-ok');
    expect(data.status).toBe('progress');
    flows.expectedCallbacks.set('/tr-ok', ['success']);
    const done = await transferReaches(data.transferNo, 'success');
    const claveRastreo = String(done['claveRastreo']);
    expect(claveRastreo).toMatch(/^[A-Z0-9]{1,29}$/);
    const [callback] = await callbacks('/tr-ok', 1);
    expect((callback!['data'] as Record<string, unknown>)['claveRastreo']).toBe(claveRastreo);
    expect(callback!['data']).toEqual(await transferOrder(data.transferNo));
    // The CEP facts of the payout (section 21): from STP to the payee's bank, and STP's urlCEP, in both.
    expect(done['cep']).toEqual({
      fecha: cepDay(String(done['finishTime'])),
      claveRastreo,
      emisor: '90646',
      receptor: '40002',
      cuenta: PAYEE_CLABE,
      monto: '100.00',
    });
    expect(String(done['cepUrl'])).toMatch(/^https:\/\/www\.banxico\.org\.mx\/cep\//);
    expect(String(done['cepUrl'])).toContain(`d=${claveRastreo}`);

    const orders = await stpOrders(claveRastreo);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      tipoOrden: 'E',
      estado: 'LQ',
      monto: 100,
      cuentaBeneficiario: PAYEE_CLABE,
    });
    await balanceBecomes({ ...before, available: before.available - 100_00 - feeFor(100_00, FEE_RATE) });
  });

  it('a refund of the order paid over STP goes back to the payer’s account over STP, with cep and cepUrl', async () => {
    expect(flows.paid.orderNo).not.toBe('');
    const funded = await admin('POST', `/admin/merchants/${merchant.mchNo}/adjustments`, {
      amount: 50,
      reason: 'refund funds',
      reference: `stp-refund-${merchant.mchNo}`,
    });
    expect(
      (await settleApproval(stack.urls.admin, { status: funded.status, body: funded.json })).status,
    ).toBeLessThan(300);
    const before = await balance();
    touch();
    const created = await send('/gateway/refund', {
      orderNo: flows.paid.orderNo,
      bizRefundNo: `STPR-${Date.now()}`,
      amount: 20.5,
      reason: 'returned goods',
    });
    expect(created.code, JSON.stringify(created)).toBe(0);
    const refundNo = String((created.data as { refundNo: string }).refundNo);
    const done = await waitFor(
      async () => {
        const reply = await send('/gateway/query/refund', { refundNo });
        const data = reply.data as Record<string, unknown>;
        return data['status'] === 'success' ? data : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 150, message: `refund ${refundNo} to succeed` },
    );
    const [received] = await stpOrders(String(flows.paid.deposit?.claveRastreo));
    expect(done).toMatchObject({
      orderNo: flows.paid.orderNo,
      amount: 20.5,
      payeeAccount: received.cuentaOrdenante,
      payeeCode: String(received.institucionContraparte),
    });
    const claveRastreo = String(done['claveRastreo']);
    expect(done['cep']).toEqual({
      fecha: cepDay(String(done['finishTime'])),
      claveRastreo,
      emisor: '90646',
      receptor: String(received.institucionContraparte),
      cuenta: received.cuentaOrdenante,
      monto: '20.50',
    });
    expect(String(done['cepUrl'])).toContain(`d=${claveRastreo}`);
    // At STP: a sent order to the payer whose concept names the deposit it returns.
    const [sent] = await stpOrders(claveRastreo);
    expect(sent).toMatchObject({
      tipoOrden: 'E',
      estado: 'LQ',
      cuentaBeneficiario: received.cuentaOrdenante,
    });
    expect(String(sent.conceptoPago)).toContain(String(flows.paid.deposit?.claveRastreo));
    await balanceBecomes({ ...before, available: before.available - 20_50 - feeFor(20_50, FEE_RATE) });
  });

  it('a payout STP refuses (−7, account does not exist) fails at once and its frozen funds are back', async () => {
    const before = await balance();
    const { data } = await transfer('Ana REJECT', 55, '/tr-rejected');
    expect(data.status).toBe('fail');
    // Created as fail: no status change, so no callback.
    flows.expectedCallbacks.set('/tr-rejected', []);
    const query = await transferOrder(data.transferNo);
    expect(query['status']).toBe('fail');
    expect(await balance()).toEqual(before);
    // The router sent it with its tracking key; STP keeps no refused order under it.
    const [sent] = await routerRows(
      'select clave_rastreo from channel_payouts where route_id = $1 and transfer_no = $2',
      ROUTE,
      data.transferNo,
    );
    expect(sent!['clave_rastreo']).toMatch(/^[A-Z0-9]{1,29}$/);
    expect(await stpOrders(String(sent!['clave_rastreo']))).toEqual([]);
  });

  it('a payout STP liquidates and then returns succeeds, then closes, and its amount comes back (fee kept)', async () => {
    const before = await balance();
    const { data } = await transfer('Ana RETURN', 70, '/tr-returned');
    expect(data.status).toBe('progress');
    flows.expectedCallbacks.set('/tr-returned', ['success', 'close']);
    const closed = await transferReaches(data.transferNo, 'close');
    const sent = await callbacks('/tr-returned', 2);
    expect(sent.map((c) => (c['data'] as { status: string }).status)).toEqual(['success', 'close']);
    for (const callback of sent)
      expect((callback['data'] as Record<string, unknown>)['claveRastreo']).toBe(closed['claveRastreo']);
    const [stp] = await stpOrders(String(closed['claveRastreo']));
    expect(stp).toMatchObject({ tipoOrden: 'E', estado: 'D' });
    await balanceBecomes({ ...before, available: before.available - feeFor(70_00, FEE_RATE) });
  });

  it('a forged cambio-estado (CN, Devuelta) for a payout STP liquidated changes nothing: still success, funds stay paid out', async () => {
    const before = await balance();
    const { data } = await transfer('Ana Gomez', 80, '/tr-forged');
    flows.expectedCallbacks.set('/tr-forged', ['success']);
    const done = await transferReaches(data.transferNo, 'success');
    const paidOut = { ...before, available: before.available - 80_00 - feeFor(80_00, FEE_RATE) };
    await balanceBecomes(paidOut);
    const [stp] = await stpOrders(String(done['claveRastreo']));
    expect(stp).toMatchObject({ tipoOrden: 'E', estado: 'LQ' });

    // From an allowed address (the route's allow-list has loopback), naming STP's own id of the order:
    // "cancelled", then "returned" (which would close the transfer and give the merchant the amount back).
    for (const estado of ['CN', 'Devuelta']) {
      const forged = await http(`${noticeUrl}/notices/${ROUTE}/cambio-estado`, 'POST', {
        id: stp.id,
        empresa: stp.empresa,
        folioOrigen: null,
        estado,
        causaDevolucion: estado === 'CN' ? null : 2,
        tsLiquidacion: null,
      });
      // STP's own state (LQ) was applied again, which changes nothing; the claim is counted as unverified.
      expect(forged.status).toBe(200);
      expect(forged.json).toEqual({ mensaje: 'recibido' });
    }
    // The forged state was never recorded, so nothing can apply it later.
    const statuses = await routerRows(
      'select status from upstream_notices where route_id = $1 and ref = $2',
      ROUTE,
      data.transferNo,
    );
    expect(statuses.map((row) => row['status'])).toEqual(expect.not.arrayContaining(['fail', 'returned']));
    await waitFor(async () => (await admin('GET', '/admin/ledger/check')).json.ok === true, {
      timeoutMs: 15_000,
      intervalMs: 200,
      message: 'the books to be consistent',
    });
    expect((await transferOrder(data.transferNo))['status']).toBe('success');
    expect(await balance()).toEqual(paidOut);
  });

  it('a payout sent twice (its first answer lost) is one order at STP (−1 answered from consultaOrden) and settles once', async () => {
    const before = await balance();
    const { params, data } = await transfer('Ana Lopez', 33.3, '/tr-twice');
    expect(data.status).toBe('progress');
    flows.expectedCallbacks.set('/tr-twice', ['success']);
    const first = await transferOrder(data.transferNo);
    // The platform sends the same payout again, as after a lost answer: same transfer, same tracking key.
    const again = await call(router, router.SubmitPayout, {
      mch_no: merchant.mchNo,
      transfer_no: data.transferNo,
      amount: '3330',
      payee_type: params.payeeType,
      payee_account: params.payeeAccount,
      payee_name: params.payeeName,
      payee_code: '40002',
      reason: params.reason,
    });
    expect(again.route_id).toBe(ROUTE);
    expect(again.status).toBe('progress');
    const done = await transferReaches(data.transferNo, 'success');
    expect(again.clave_rastreo).toBe(done['claveRastreo']);
    // STP's accepting answer gave the key already: the merchant saw it while the payout was in progress.
    expect(first['claveRastreo']).toBe(done['claveRastreo']);

    const orders = await stpOrders(again.clave_rastreo);
    expect(orders).toHaveLength(1);
    expect(String(orders[0].id)).toBe(again.upstream_ref);
    expect(orders[0]).toMatchObject({ tipoOrden: 'E', estado: 'LQ', monto: 33.3 });
    await callbacks('/tr-twice', 1);
    await balanceBecomes({ ...before, available: before.available - 33_30 - feeFor(33_30, FEE_RATE) });
  });
});

describe('the day over STP', () => {
  it('every callback arrived once per status change, and none for money sent back or refused', async () => {
    // The books caught up with every event; any stray callback would have been sent by now.
    await waitFor(async () => (await admin('GET', '/admin/ledger/check')).json.ok === true, {
      timeoutMs: 15_000,
      intervalMs: 200,
      message: 'the books to be consistent',
    });
    for (const [path, statuses] of flows.expectedCallbacks) {
      if (statuses.length > 0) await callbacks(path, statuses.length);
      expect(
        callbacksAt(path).map((c) => (c['data'] as { status: string }).status),
        `callbacks at ${path}`,
      ).toEqual(statuses);
    }
  });

  it('reconciles against STP with no discrepancy, the deposits sent back counted as returned, the books green', async () => {
    const sorted = [...days].sort();
    // Near a midnight, a first pass stores every day's statement so the second judges both sides.
    if (sorted.length > 1)
      for (const day of sorted) await admin('POST', '/admin/reconciliations', { day, routeId: ROUTE });
    const totals = { lines: 0, matched: 0, pending: 0, discrepancies: 0, returned: 0 };
    for (const day of sorted) {
      const run = await admin('POST', '/admin/reconciliations', { day, routeId: ROUTE });
      expect(run.status, JSON.stringify(run.json)).toBe(200);
      expect(run.json.routes.map((r: Json) => r.routeId)).toEqual([ROUTE]);
      const [route] = run.json.routes;
      totals.lines += route.lines;
      totals.matched += route.matched;
      totals.pending += route.pending;
      totals.discrepancies += route.discrepancies;
      totals.returned += route.returned;
      const listed = await admin('GET', `/admin/discrepancies?day=${day}`);
      expect(listed.json.items.filter((d: Json) => d.routeId === ROUTE)).toEqual([]);
    }
    expect(totals.discrepancies).toBe(0);
    expect(totals.pending).toBe(0);
    expect(totals.returned).toBe(flows.returnedDeposits.length);
    expect(totals.returned).toBe(3);
    // Deposits: two kept, three sent back. Payouts: liquidated, returned (out and back), the one a forged
    // notice named (liquidated), sent twice, and the refund of the paid order (a payout to its payer).
    expect(totals.lines).toBe(2 + 3 + 1 + 2 + 1 + 1 + 1);
    expect(totals.matched).toBe(totals.lines - totals.returned);

    const check = await admin('GET', '/admin/ledger/check');
    expect(check.json.problems).toEqual([]);
    expect(check.json.ok).toBe(true);
  });
});
