// The load: closed-loop workers that create, pay, close, expire and pay out, retrying as a merchant must.
import type { KeyObject } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildClabe } from '@agentpay/spei';
import { SERVICES, type Stack } from '@agentpay/stack';
import { adminRequest, createTestMerchant, now, type TestMerchant } from '@agentpay/testing';
import type { FinalQuery } from './checks/input.js';
import { errorText, gatewayCall, post } from './client.js';
import type { ChaosOptions } from './options.js';
import { between, pick, prng } from './random.js';
import {
  type CreateRecord,
  type DepositRecord,
  type RequestRecord,
  ROUTE_IDS,
  type RouteName,
} from './records.js';
import type { Sink, SinkPolicy } from './sink.js';

/** What the workers share: where to send, and where every request, create and deposit is recorded. */
export interface LoadContext {
  options: ChaosOptions;
  stack: Stack;
  platformKey: KeyObject;
  merchants: TestMerchant[];
  /** The route each merchant is bound to. */
  routes: Map<string, RouteName>;
  sinkUrl: string;
  requests: RequestRecord[];
  creates: CreateRecord[];
  deposits: DepositRecord[];
  unexpected: string[];
  stopAt: () => number;
  counter: { n: number };
  /** Work started outside the workers (the payouts sent just before a kill), awaited with them. */
  background: Promise<void>[];
  /** The merchants given their own payout limits (CHAOS_LIMITS); their transfers may answer 40008. */
  limited: Set<string>;
}

/**
 * The payout limits (pesos, CONTRACT section 19) every other merchant runs under, so the fault run counts
 * usage while services, NATS and Postgres die: transfers are 10.00 to 9,999.99, so about one in ten is over
 * `perTransfer`, and a merchant's day reaches `daily` part-way through a run.
 */
export const CHAOS_LIMITS = { payout: { perTransfer: 9_000, daily: 150_000 } } as const;

/** Each merchant's starting balance: a run's payouts (under 10,000 pesos each) never come near it. */
const FUNDING_PESOS = 50_000_000;

// Codes after which a merchant retries the same request.
const TRANSIENT_CODES = new Set([50000, 50001, 50002, 50003, 42900]);

/** Sends a create until it is accepted (code 0) or refused for good, always with the same business fields. */
async function createWithRetries(ctx: LoadContext, merchant: TestMerchant, record: CreateRecord) {
  const path = record.kind === 'pay' ? '/gateway/pay' : '/gateway/transfer';
  for (let attempt = 0; attempt < 10; attempt++) {
    // A merchant stops retrying an order whose expiry is about to pass (it would be refused as new).
    if (record.expiresAt && Date.now() > record.expiresAt - 2_000) return undefined;
    const reply = await gatewayCall(ctx, merchant, path, record.params);
    if (reply.envelope) {
      record.codes.push(reply.envelope.code);
      if (reply.envelope.code === 0) {
        const data = reply.envelope.data as Record<string, string>;
        record.acceptedAs.push(record.kind === 'pay' ? data['orderNo']! : data['transferNo']!);
        if (record.kind === 'pay') record.payBody ??= data['payBody'];
        return data;
      }
      // A limited merchant's transfer over its limits is refused for good; checks/limits.ts judges it.
      if (reply.envelope.code === 40008 && record.kind === 'transfer' && ctx.limited.has(record.mchNo))
        return undefined;
      if (!TRANSIENT_CODES.has(reply.envelope.code)) {
        // A first attempt that reached payments only as its expiry passed is refused as expired: right.
        const expiredMeanwhile =
          reply.envelope.code === 10001 &&
          reply.envelope.msg.includes('expiredTime') &&
          record.expiresAt !== undefined &&
          Date.now() > record.expiresAt - 5_000;
        if (expiredMeanwhile) return undefined;
        ctx.unexpected.push(
          `${path} ${record.bizNo} of ${record.mchNo} answered ${reply.envelope.code} ${reply.envelope.msg}`,
        );
        return undefined;
      }
    }
    // The merchant's duty on doubt: retry the same create, with the same bizOrderNo/bizTransferNo.
    await sleep(Math.min(400 * 1.6 ** attempt, 4_000));
  }
  return undefined;
}

async function deposit(ctx: LoadContext, rec: DepositRecord, stopBy: number): Promise<void> {
  while (Date.now() < stopBy) {
    const startedAt = Date.now();
    rec.attempts = (rec.attempts ?? 0) + 1;
    try {
      const reply = await post(
        `${ctx.stack.urls.sandbox}/sandbox/deposits`,
        JSON.stringify({ clabe: rec.clabe, amount: rec.amount }),
        ctx.options.requestTimeoutMs,
      );
      ctx.requests.push({
        target: 'sandbox',
        path: '/sandbox/deposits',
        mchNo: '',
        startedAt,
        endedAt: Date.now(),
        outcome: 'envelope',
        status: reply.status,
      });
      if (reply.status === 201) {
        if (rec.route === 'stp') {
          // The STP face answers what the platform said to its abono; `pending` (the router did not answer)
          // is the emulator's to retry, as STP does: the payer never sends the money twice for it.
          const body = JSON.parse(reply.body) as { answer: 'confirmar' | 'devolver' | 'pending' };
          rec.matched = body.answer === 'confirmar';
          rec.reason = body.answer;
          return;
        }
        const body = JSON.parse(reply.body) as { matched: boolean; reason: string | null };
        rec.matched = body.matched;
        rec.reason = body.reason;
        return;
      }
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      ctx.requests.push({
        target: 'sandbox',
        path: '/sandbox/deposits',
        mchNo: '',
        startedAt,
        endedAt: Date.now(),
        outcome: timedOut ? 'timeout' : 'connection',
        error: errorText(err),
      });
      // A reply lost to a kill may hide an applied deposit; the retry then lands as `account_paid`.
    }
    await sleep(500);
  }
}

const PAYEE_NAMES = [
  ['Ana Perez', 5],
  ['REJECT Luis Gomez', 2],
  ['RETURN Maria Lopez', 2],
] as const;
const BANK_PREFIXES = ['002', '012', '014', '072'] as const;

type Scenario = 'pay-deposit' | 'pay-deposit-close' | 'pay-close' | 'pay-expire' | 'pay-idle' | 'transfer';
const SCENARIOS: readonly (readonly [Scenario, number])[] = [
  ['pay-deposit', 28],
  ['pay-deposit-close', 5],
  ['pay-close', 14],
  ['pay-expire', 13],
  ['pay-idle', 5],
  ['transfer', 35],
];

const routeOf = (ctx: LoadContext, merchant: TestMerchant): RouteName =>
  ctx.routes.get(merchant.mchNo) ?? 'sandbox';

/** A payout of one merchant: created (retried as a merchant must), queried, sometimes created again. */
async function transfer(
  ctx: LoadContext,
  rand: () => number,
  merchant: TestMerchant,
  payeeName: string,
  bizNo: string,
): Promise<void> {
  const withNotify = rand() < 0.9;
  const account = String(between(rand, 0, 99_999_999_999)).padStart(11, '0');
  const record: CreateRecord = {
    kind: 'transfer',
    route: routeOf(ctx, merchant),
    scenario: payeeName.split(' ')[0]!,
    mchNo: merchant.mchNo,
    bizNo,
    withNotify,
    acceptedAs: [],
    codes: [],
    params: {
      bizTransferNo: bizNo,
      amount: between(rand, 1_000, 999_999) / 100,
      title: 'Chaos payout',
      payeeType: 'spei_transfer',
      payeeAccount: buildClabe(BANK_PREFIXES[between(rand, 0, 3)]!, '180', account),
      payeeName,
      ...(withNotify ? { notifyUrl: `${ctx.sinkUrl}/notify/${merchant.mchNo}` } : {}),
    },
  };
  ctx.creates.push(record);
  const data = await createWithRetries(ctx, merchant, record);
  if (data)
    await gatewayCall(ctx, merchant, '/gateway/query/transferOrder', { transferNo: data['transferNo'] });
  if (data && rand() < 0.15) await createWithRetries(ctx, merchant, record);
}

/**
 * Sends `count` payouts from the merchants bound to STP at once, in the background (ctx.background): the
 * fault plan calls it just before it kills the router or the sandbox, so the kill meets them mid-way.
 */
export function startStpPayouts(ctx: LoadContext, count: number, label: string): void {
  const stp = ctx.merchants.filter((m) => ctx.routes.get(m.mchNo) === 'stp');
  if (stp.length === 0) return;
  const rand = prng(ctx.options.seed * 7_919 + ctx.counter.n);
  for (let i = 0; i < count; i++) {
    const n = ++ctx.counter.n;
    // Mostly ordinary payees, some returned: a RETURN stays in flight longest (liquidated, then back).
    const payee = i % 3 === 2 ? 'RETURN Maria Lopez' : 'Ana Perez';
    ctx.background.push(
      transfer(ctx, rand, stp[i % stp.length]!, payee, `CK-${label}-${ctx.options.seed}-${n}`),
    );
  }
}

async function runScenario(ctx: LoadContext, rand: () => number, scenario: Scenario): Promise<void> {
  const merchant = ctx.merchants[between(rand, 0, ctx.merchants.length - 1)]!;
  const n = ++ctx.counter.n;
  if (scenario === 'transfer') {
    await transfer(ctx, rand, merchant, pick(rand, PAYEE_NAMES), `CT-${ctx.options.seed}-${n}`);
    return;
  }
  const withNotify = rand() < 0.9;
  const notifyUrl = `${ctx.sinkUrl}/notify/${merchant.mchNo}`;
  const centavos = between(rand, 1_000, 999_999);
  const amount = centavos / 100;

  const expiresAt =
    scenario === 'pay-expire'
      ? Date.now() + between(rand, ctx.options.shortExpiryMs[0], ctx.options.shortExpiryMs[1])
      : undefined;
  const record: CreateRecord = {
    kind: 'pay',
    route: routeOf(ctx, merchant),
    scenario,
    mchNo: merchant.mchNo,
    bizNo: `CP-${ctx.options.seed}-${n}`,
    withNotify,
    acceptedAs: [],
    codes: [],
    ...(expiresAt ? { expiresAt } : {}),
    params: {
      bizOrderNo: `CP-${ctx.options.seed}-${n}`,
      title: 'Chaos order',
      method: 'mex_virtual_account',
      amount,
      attach: scenario,
      ...(expiresAt ? { expiredTime: now(expiresAt - Date.now()) } : {}),
      ...(withNotify ? { notifyUrl } : {}),
    },
  };
  ctx.creates.push(record);
  const data = await createWithRetries(ctx, merchant, record);
  if (!data) return;
  const orderNo = data['orderNo']!;
  const clabe = (JSON.parse(data['payBody'] ?? '{}') as { clabe?: string }).clabe ?? '';
  if (rand() < 0.1) await createWithRetries(ctx, merchant, record);

  const closeOrder = async (useCancel: boolean) => {
    for (let attempt = 0; attempt < 8; attempt++) {
      const reply = await gatewayCall(ctx, merchant, '/gateway/close', { orderNo, useCancel });
      const code = reply.envelope?.code;
      if (code !== undefined && !TRANSIENT_CODES.has(code)) {
        if (![0, 30004, 30005].includes(code))
          ctx.unexpected.push(`close ${orderNo} answered ${code} ${reply.envelope?.msg}`);
        return;
      }
      await sleep(Math.min(400 * 1.6 ** attempt, 4_000));
    }
  };

  switch (scenario) {
    case 'pay-deposit':
    case 'pay-deposit-close': {
      const rec: DepositRecord = { route: record.route, orderNo, clabe, amount, exact: true };
      ctx.deposits.push(rec);
      await deposit(ctx, rec, Date.now() + 25_000);
      if (scenario === 'pay-deposit-close') await closeOrder(false);
      else if (rand() < 0.5) await gatewayCall(ctx, merchant, '/gateway/sync/order/pay', { orderNo });
      await gatewayCall(ctx, merchant, '/gateway/query/payOrder', { orderNo });
      return;
    }
    case 'pay-close':
      await sleep(between(rand, 0, 800));
      await closeOrder(rand() < 0.4);
      return;
    case 'pay-expire':
      if (rand() < 0.3) {
        const rec: DepositRecord = {
          route: record.route,
          orderNo,
          clabe,
          amount: (centavos + 1) / 100,
          exact: false,
        };
        ctx.deposits.push(rec);
        await deposit(ctx, rec, Date.now() + 10_000);
      }
      return;
    case 'pay-idle':
      await gatewayCall(ctx, merchant, '/gateway/query/payOrder', { bizOrderNo: record.bizNo });
      return;
  }
}

/** One closed-loop worker: scenario after scenario until the run says stop. */
export async function worker(ctx: LoadContext, seed: number): Promise<void> {
  const rand = prng(seed);
  while (Date.now() < ctx.stopAt()) {
    await runScenario(ctx, rand, pick(rand, SCENARIOS));
    await sleep(between(rand, 50, 300));
  }
}

/**
 * Gives a merchant a balance far above what a run pays out, through an operator adjustment, so payouts
 * are refused for their payee rules and never for the balance. A stack without a ledger has no balances.
 */
async function fund(stack: Stack, mchNo: string): Promise<void> {
  if (!(SERVICES as readonly string[]).includes('ledger')) return;
  // An adjustment needs four eyes: asked as system:dev, approved by the stack's approver.
  const reply = await adminRequest({
    adminUrl: stack.urls.admin,
    method: 'POST',
    path: `/admin/merchants/${mchNo}/adjustments`,
    body: { amount: FUNDING_PESOS, reason: 'chaos run funding', reference: `fund-${mchNo}` },
  });
  if (reply.status !== 201 && reply.status !== 200)
    throw new Error(`funding ${mchNo} failed: HTTP ${reply.status} ${JSON.stringify(reply.body)}`);
}

/** Gives a merchant its own payout limits through the admin API (four eyes, as funding). */
async function limit(stack: Stack, mchNo: string): Promise<void> {
  const reply = await adminRequest({
    adminUrl: stack.urls.admin,
    method: 'PUT',
    path: `/admin/merchants/${mchNo}/limits`,
    body: { limits: CHAOS_LIMITS },
  });
  if (reply.status !== 200)
    throw new Error(`limiting ${mchNo} failed: HTTP ${reply.status} ${JSON.stringify(reply.body)}`);
}

/** Binds a merchant to a route through the admin API (the route then serves its new orders and payouts). */
async function bind(stack: Stack, routeId: string, mchNo: string): Promise<void> {
  // A route's merchants need four eyes: asked as system:dev, approved by the stack's approver.
  const reply = await adminRequest({
    adminUrl: stack.urls.admin,
    method: 'POST',
    path: `/admin/routes/${routeId}/merchants/${mchNo}`,
  });
  if (reply.status !== 200)
    throw new Error(
      `binding ${mchNo} to ${routeId} failed: HTTP ${reply.status} ${JSON.stringify(reply.body)}`,
    );
}

/**
 * Registers the merchants that drive the load; their sinks answer SUCCESS, FAIL first, HTTP 500 first, in
 * turn. Every second one (up to `stpCount`) is bound to the STP route, so each route meets every policy
 * over a long run; the rest stay on the sandbox route.
 */
export async function registerMerchants(
  stack: Stack,
  sink: Sink,
  count: number,
  stpCount: number,
  prefix: string,
): Promise<{
  merchants: TestMerchant[];
  routes: Map<string, RouteName>;
  platformKey: KeyObject;
  limited: Set<string>;
}> {
  const merchants: TestMerchant[] = [];
  const limited = new Set<string>();
  const routes = new Map<string, RouteName>();
  let stpLeft = stpCount;
  const policies: SinkPolicy[] = ['success', 'fail-first', 'error-first'];
  let platformKey: KeyObject | undefined;
  for (let i = 0; i < count; i++) {
    const m = await createTestMerchant({
      adminUrl: stack.urls.admin,
      gatewayUrl: stack.urls.gateway,
      mchNo: `CH${prefix.slice(-8)}${i}`,
      feeRate: { percentBps: 100 * i, fixedCentavos: 50 * i },
      fund: false,
    });
    platformKey = m.platformKey;
    await fund(stack, m.mchNo);
    // Odd ones first, then from the end: stpCount of them whatever the count.
    const onStp = stpLeft > 0 && (i % 2 === 1 || count - i <= stpLeft);
    if (onStp) {
      await bind(stack, ROUTE_IDS.stp, m.mchNo);
      stpLeft -= 1;
    }
    routes.set(m.mchNo, onStp ? 'stp' : 'sandbox');
    // Every other merchant from the first: both routes get one once there are four or more.
    if (i % 2 === 0 || (onStp && i === count - 1)) {
      await limit(stack, m.mchNo);
      limited.add(m.mchNo);
    }
    merchants.push(m);
    sink.policy.set(m.mchNo, policies[i % policies.length]!);
  }
  if (!platformKey) throw new Error('a chaos run needs at least one merchant');
  sink.setPlatformKey(platformKey);
  return { merchants, routes, platformKey, limited };
}

/** The merchant's view once the platform settled: every accepted order queried through the gateway. */
export async function queryAccepted(ctx: LoadContext): Promise<FinalQuery[]> {
  const finalQueries: FinalQuery[] = [];
  const byMch = new Map(ctx.merchants.map((m) => [m.mchNo, m]));
  const accepted = ctx.creates.filter((c) => c.acceptedAs.length > 0);
  for (let i = 0; i < accepted.length; i += 8) {
    await Promise.all(
      accepted.slice(i, i + 8).map(async (c) => {
        const merchant = byMch.get(c.mchNo)!;
        const reply =
          c.kind === 'pay'
            ? await gatewayCall(ctx, merchant, '/gateway/query/payOrder', { bizOrderNo: c.bizNo })
            : await gatewayCall(ctx, merchant, '/gateway/query/transferOrder', { bizTransferNo: c.bizNo });
        const data = (reply.envelope?.data ?? {}) as Record<string, string>;
        finalQueries.push({
          key: `${c.mchNo}|${c.bizNo}`,
          outcome: reply.outcome,
          ...(reply.envelope ? { code: reply.envelope.code } : {}),
          ...(data['orderNo'] || data['transferNo'] ? { number: data['orderNo'] ?? data['transferNo'] } : {}),
          ...(data['status'] ? { status: data['status'] } : {}),
        });
      }),
    );
  }
  return finalQueries;
}
