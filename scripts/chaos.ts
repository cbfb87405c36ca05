// `npm run chaos`: the fault run of issue 9. While a bounded load of pays, deposits and transfers runs from
// a few merchants (callbacks to a local sink that answers SUCCESS, sometimes FAIL or HTTP 500 first), it
// kills every service once with SIGKILL and starts it again, restarts NATS once and takes Postgres away
// once. Then it lets the platform settle and checks, from the replies, the sink and the services' own
// databases, that nothing was lost, doubled or bent:
//   - answers:      every request got a signed envelope with a documented HTTP status; none hung;
//   - exactlyOnce:  every accepted order/transfer exists exactly once, with one upstream object;
//   - stateMachine: every order's history is a walk of its service's state machine ending in its status,
//                   with exactly one outbox event per change;
//   - callbacks:    every status change reached the merchant exactly once (after retries), except the
//                   documented cases (superseded by a newer change; a notifier dying mid-attempt);
//   - convergence:  money that arrived is `success`, payouts agree with the channel, nothing is stuck.
// `runChaos` is also what test/chaos-faults.test.ts runs, with a smaller load and no restart of shared
// servers: NATS is always a private nats-server, and in the CI variant Postgres (the machine's shared
// server) is "taken away" by refusing and terminating the stack's connections instead of restarting it.
import { type KeyObject, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isEntryPoint } from '@agentpay/config';
import { buildClabe } from '@agentpay/spei';
import {
  type NatsServer,
  type PostgresCluster,
  REPO_ROOT,
  SERVICES,
  type ServiceName,
  type Stack,
  startNatsServer,
  startPostgresCluster,
  startStack,
} from '@agentpay/stack';
import { type Envelope, verifyEnvelope, verifyObject } from '@agentpay/wire';
import pg from 'pg';
import {
  isAllowed,
  isPayStatus,
  type PayStatus,
} from '../services/payments/src/pay-orders/pay-order.state-machine.js';
import { type TransferStatus, transitionOf } from '../services/transfers/src/transfers/transfer-status.js';
import { createTestMerchant, now, type TestMerchant } from '../test/support/merchant-client.js';

// ---------------------------------------------------------------------------------------------------------
// Options and report

export interface ChaosOptions {
  /** Label for logs and the report. */
  name: string;
  /** Concurrent closed-loop load workers. */
  workers: number;
  /** Merchants driving the load; their sinks answer SUCCESS, FAIL first, HTTP 500 first, in turn. */
  merchants: number;
  /** Load before the first fault, ms. */
  warmupMs: number;
  /** Pause between two faults, ms. */
  faultGapMs: number;
  /** Load after the last fault, ms. */
  tailMs: number;
  /** How long a killed service or NATS stays down before it is started again, ms. */
  downMs: number;
  /** How long Postgres stays away, ms. */
  postgresOutageMs: number;
  /**
   * `terminate`: the stack's databases refuse connections and every backend of theirs is terminated,
   * repeatedly, for `postgresOutageMs` (the machine's shared server keeps running for everyone else).
   * `private-cluster`: the stack runs on its own initdb cluster, which is crashed (`pg_ctl -m immediate`)
   * and started again; falls back to `terminate` when a cluster cannot be created here.
   */
  postgres: 'terminate' | 'private-cluster';
  /** Rounds of the whole fault plan (each service killed once per round). */
  rounds: number;
  /** Expiry of the short-lived pay orders, ms after creation (min, max). */
  shortExpiryMs: [number, number];
  /** Deadline for the platform to settle after the load, ms. */
  settleTimeoutMs: number;
  /** Client-side deadline of one request; an answer slower than this counts as hung. */
  requestTimeoutMs: number;
  /** Seed of the load's choices, so a run can be repeated. */
  seed: number;
  /** Postgres server for the stack's databases (terminate mode); default DATABASE_URL or the local one. */
  postgresUrl?: string;
  /** Progress lines. */
  log?: (line: string) => void;
  /** Where service log lines go (they are also kept, the last ones, in the report on a violation). */
  serviceLog?: (service: ServiceName, line: string) => void;
}

export const CI_OPTIONS: ChaosOptions = {
  name: 'ci',
  workers: 3,
  merchants: 3,
  warmupMs: 4_000,
  faultGapMs: 1_200,
  tailMs: 3_000,
  downMs: 800,
  postgresOutageMs: 3_000,
  postgres: 'terminate',
  rounds: 1,
  shortExpiryMs: [8_000, 16_000],
  settleTimeoutMs: 75_000,
  requestTimeoutMs: 30_000,
  seed: 9,
};

export const FULL_OPTIONS: ChaosOptions = {
  name: 'full',
  workers: 6,
  merchants: 4,
  warmupMs: 10_000,
  faultGapMs: 8_000,
  tailMs: 10_000,
  downMs: 2_000,
  postgresOutageMs: 5_000,
  postgres: 'private-cluster',
  rounds: 2,
  shortExpiryMs: [10_000, 40_000],
  settleTimeoutMs: 180_000,
  requestTimeoutMs: 30_000,
  seed: Date.now() % 100_000,
};

/** Retry schedule of callbacks during the run: short, so every change settles within the run. */
export const CHAOS_RETRY_SCHEDULE = '200ms,500ms,1s,2s,2s,3s,3s,3s';

export interface FaultRecord {
  name: string;
  /** When the fault began (kill, outage start), ms since the epoch. */
  from: number;
  /** When the component was back (restart ready, outage end). */
  to: number;
  service?: ServiceName;
  /** A service that died on its own somewhere in [from, to], rather than killed at `from`. */
  crashed?: boolean;
}

/** A service that died on its own (not killed by the plan), noticed after a fault and started again. */
export interface CrashRecord {
  service: ServiceName;
  /** The fault after which it was found dead. */
  after: string;
  /** Window in which it was down: from that fault's start until it was back (ms since the run began). */
  from: number;
  to: number;
  /** The service's last output lines before it died. */
  output: string[];
}

export interface RequestRecord {
  target: 'gateway' | 'sandbox';
  path: string;
  mchNo: string;
  startedAt: number;
  endedAt: number;
  /** envelope: a signed JSON envelope; the others are failures of some kind. */
  outcome: 'envelope' | 'unsigned' | 'not-json' | 'connection' | 'timeout';
  status?: number;
  code?: number;
  error?: string;
}

export interface Receipt {
  at: number;
  mchNo: string;
  kind: 'pay' | 'transfer' | 'unknown';
  orderNo: string;
  status: string;
  deliveryId: string;
  attempt: number;
  answer: 'SUCCESS' | 'FAIL' | 'HTTP 500';
  signed: boolean;
  bodyMchNo: string;
}

export interface Duplicate {
  key: string;
  deliveries: number;
  explanation: string;
}

export interface ChaosReport {
  name: string;
  prefix: string;
  postgres: 'terminate' | 'private-cluster';
  seed: number;
  startedAt: string;
  durationMs: number;
  faults: FaultRecord[];
  counts: Record<string, number>;
  requestsByOutcome: Record<string, number>;
  violations: {
    answers: string[];
    exactlyOnce: string[];
    stateMachine: string[];
    callbacks: string[];
    convergence: string[];
  };
  duplicates: Duplicate[];
  /** Services that died on their own during the run (each was started again so the run could go on). */
  crashes: CrashRecord[];
  notes: string[];
  /** The last service log lines, kept when a check failed. */
  serviceLogTail: string[];
}

// ---------------------------------------------------------------------------------------------------------
// Small helpers

/** mulberry32: a small seeded PRNG, so a run's choices can be replayed with its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(rand: () => number, weighted: readonly (readonly [T, number])[]): T {
  const total = weighted.reduce((s, [, w]) => s + w, 0);
  let r = rand() * total;
  for (const [item, weight] of weighted) {
    r -= weight;
    if (r < 0) return item;
  }
  return weighted[weighted.length - 1]![0];
}

const between = (rand: () => number, min: number, max: number) => Math.floor(min + rand() * (max - min + 1));

function tally<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) {
    const k = key(item);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

interface HttpResult {
  status: number;
  body: string;
}

/** One POST on a fresh connection (no keep-alive, so a restarted server never meets a stale socket). */
function post(url: string, body: string, timeoutMs: number): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: string }).code;
    return code ? `${code} ${err.message}` : err.message || err.name;
  }
  return String(err);
}

// ---------------------------------------------------------------------------------------------------------
// The callback sink: a merchant endpoint per merchant, answering by the merchant's policy

type SinkPolicy = 'success' | 'fail-first' | 'error-first';

interface Sink {
  url: string;
  receipts: Receipt[];
  setPlatformKey(key: KeyObject): void;
  policy: Map<string, SinkPolicy>;
  close(): Promise<void>;
}

async function startSink(): Promise<Sink> {
  const receipts: Receipt[] = [];
  const policy = new Map<string, SinkPolicy>();
  const seen = new Set<string>();
  let platformKey: KeyObject | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const mchNo = decodeURIComponent((req.url ?? '').split('/')[2] ?? '');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
      } catch {
        // recorded with empty fields below; the check counts it as unreadable
      }
      const data = (body['data'] ?? {}) as Record<string, unknown>;
      const transferNo = typeof data['transferNo'] === 'string' ? data['transferNo'] : undefined;
      const orderNo = typeof data['orderNo'] === 'string' ? data['orderNo'] : undefined;
      const kind = transferNo ? 'transfer' : orderNo ? 'pay' : 'unknown';
      const status = typeof data['status'] === 'string' ? data['status'] : '';
      const key = `${transferNo ?? orderNo ?? ''}|${status}`;
      const first = !seen.has(key);
      seen.add(key);
      const mode = policy.get(mchNo) ?? 'success';
      const answer: Receipt['answer'] =
        first && mode === 'fail-first' ? 'FAIL' : first && mode === 'error-first' ? 'HTTP 500' : 'SUCCESS';
      receipts.push({
        at: Date.now(),
        mchNo,
        kind,
        orderNo: transferNo ?? orderNo ?? '',
        status,
        deliveryId: String(req.headers['x-agentpay-delivery-id'] ?? ''),
        attempt: Number(req.headers['x-agentpay-attempt'] ?? 0),
        answer,
        signed:
          platformKey !== undefined &&
          typeof body['sign'] === 'string' &&
          verifyObject(body, body['sign'], platformKey),
        bodyMchNo: typeof body['mchNo'] === 'string' ? body['mchNo'] : '',
      });
      if (answer === 'HTTP 500') res.writeHead(500).end('busy');
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    receipts,
    policy,
    setPlatformKey: (key) => {
      platformKey = key;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The load

interface CreateRecord {
  kind: 'pay' | 'transfer';
  scenario: string;
  mchNo: string;
  bizNo: string;
  params: Record<string, unknown>;
  withNotify: boolean;
  /** orderNo / transferNo of every code-0 reply. */
  acceptedAs: string[];
  /** Codes of every enveloped reply, in order. */
  codes: number[];
  /** payBody of the first accepted pay reply. */
  payBody?: string;
  expiresAt?: number;
}

interface DepositRecord {
  orderNo: string;
  clabe: string;
  amount: number;
  exact: boolean;
  matched?: boolean;
  reason?: string | null;
}

interface LoadContext {
  options: ChaosOptions;
  stack: Stack;
  platformKey: KeyObject;
  merchants: TestMerchant[];
  sinkUrl: string;
  requests: RequestRecord[];
  creates: CreateRecord[];
  deposits: DepositRecord[];
  unexpected: string[];
  stopAt: () => number;
  counter: { n: number };
}

const TRANSIENT_CODES = new Set([50000, 50001, 50002, 50003, 42900]);

async function gatewayCall(
  ctx: LoadContext,
  merchant: TestMerchant,
  path: string,
  params: Record<string, unknown>,
): Promise<RequestRecord & { envelope?: Envelope }> {
  const startedAt = Date.now();
  const base = { target: 'gateway' as const, path, mchNo: merchant.mchNo, startedAt };
  let record: RequestRecord & { envelope?: Envelope };
  try {
    const reply = await post(
      `${ctx.stack.urls.gateway}${path}`,
      JSON.stringify(merchant.signed(params)),
      ctx.options.requestTimeoutMs,
    );
    let envelope: Envelope | undefined;
    try {
      envelope = JSON.parse(reply.body) as Envelope;
    } catch {
      envelope = undefined;
    }
    if (!envelope || typeof envelope !== 'object') {
      record = { ...base, endedAt: Date.now(), outcome: 'not-json', status: reply.status };
    } else if (!verifyEnvelope(envelope, ctx.platformKey)) {
      record = {
        ...base,
        endedAt: Date.now(),
        outcome: 'unsigned',
        status: reply.status,
        code: envelope.code,
      };
    } else {
      record = {
        ...base,
        endedAt: Date.now(),
        outcome: 'envelope',
        status: reply.status,
        code: envelope.code,
        envelope,
      };
    }
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    record = {
      ...base,
      endedAt: Date.now(),
      outcome: timedOut ? 'timeout' : 'connection',
      error: errorText(err),
    };
  }
  const { envelope: _e, ...kept } = record;
  ctx.requests.push(kept);
  return record;
}

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

async function runScenario(ctx: LoadContext, rand: () => number, scenario: Scenario): Promise<void> {
  const merchant = ctx.merchants[between(rand, 0, ctx.merchants.length - 1)]!;
  const n = ++ctx.counter.n;
  const withNotify = rand() < 0.9;
  const notifyUrl = `${ctx.sinkUrl}/notify/${merchant.mchNo}`;
  const centavos = between(rand, 1_000, 999_999);
  const amount = centavos / 100;

  if (scenario === 'transfer') {
    const payeeName = pick(rand, PAYEE_NAMES);
    const account = String(between(rand, 0, 99_999_999_999)).padStart(11, '0');
    const record: CreateRecord = {
      kind: 'transfer',
      scenario: payeeName.split(' ')[0]!,
      mchNo: merchant.mchNo,
      bizNo: `CT-${ctx.options.seed}-${n}`,
      withNotify,
      acceptedAs: [],
      codes: [],
      params: {
        bizTransferNo: `CT-${ctx.options.seed}-${n}`,
        amount,
        title: 'Chaos payout',
        payeeType: 'spei_transfer',
        payeeAccount: buildClabe(BANK_PREFIXES[between(rand, 0, 3)]!, '180', account),
        payeeName,
        ...(withNotify ? { notifyUrl } : {}),
      },
    };
    ctx.creates.push(record);
    const data = await createWithRetries(ctx, merchant, record);
    if (data)
      await gatewayCall(ctx, merchant, '/gateway/query/transferOrder', { transferNo: data['transferNo'] });
    if (data && rand() < 0.15) await createWithRetries(ctx, merchant, record);
    return;
  }

  const expiresAt =
    scenario === 'pay-expire'
      ? Date.now() + between(rand, ctx.options.shortExpiryMs[0], ctx.options.shortExpiryMs[1])
      : undefined;
  const record: CreateRecord = {
    kind: 'pay',
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
      const rec: DepositRecord = { orderNo, clabe, amount, exact: true };
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
        const rec: DepositRecord = { orderNo, clabe, amount: (centavos + 1) / 100, exact: false };
        ctx.deposits.push(rec);
        await deposit(ctx, rec, Date.now() + 10_000);
      }
      return;
    case 'pay-idle':
      await gatewayCall(ctx, merchant, '/gateway/query/payOrder', { bizOrderNo: record.bizNo });
      return;
  }
}

async function worker(ctx: LoadContext, seed: number): Promise<void> {
  const rand = prng(seed);
  while (Date.now() < ctx.stopAt()) {
    await runScenario(ctx, rand, pick(rand, SCENARIOS));
    await sleep(between(rand, 50, 300));
  }
}

// ---------------------------------------------------------------------------------------------------------
// Faults

const STACK_DATABASE_LIKE = (prefix: string) => `${prefix.replaceAll('_', '\\_')}\\_%`;

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Postgres "goes away" for the stack only: its databases stop accepting connections and every backend
 * connected to them is terminated, again and again, until `ms` have passed. Other databases on the shared
 * server are untouched.
 */
async function postgresOutage(serverUrl: string, prefix: string, ms: number): Promise<void> {
  await withClient(serverUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where datname like $1',
      [STACK_DATABASE_LIKE(prefix)],
    );
    const names = rows.map((r) => r.datname);
    try {
      for (const name of names) {
        await client.query(`alter database ${client.escapeIdentifier(name)} with allow_connections false`);
      }
      const until = Date.now() + ms;
      while (Date.now() < until) {
        await client.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname like $1 and pid <> pg_backend_pid()',
          [STACK_DATABASE_LIKE(prefix)],
        );
        await sleep(150);
      }
    } finally {
      for (const name of names) {
        await client.query(`alter database ${client.escapeIdentifier(name)} with allow_connections true`);
      }
    }
  });
}

// ---------------------------------------------------------------------------------------------------------
// Settling and checks

interface Snapshot {
  payOrders: {
    order_no: string;
    mch_no: string;
    biz_order_no: string;
    status: string;
    version: number;
    notify_url: string;
    expired_time: Date;
    opened_at: Date | null;
  }[];
  payHistory: {
    order_no: string;
    from_status: string;
    to_status: string;
    version: number;
    cause: string;
    event_id: string;
  }[];
  payEvents: { id: string; order_no: string; version: string; to_status: string; published: boolean }[];
  transfers: {
    transfer_no: string;
    mch_no: string;
    biz_transfer_no: string;
    status: string;
    version: number;
    notify_url: string;
    payee_name: string;
    submission: string;
    route_id: string | null;
  }[];
  transferEvents: {
    id: string;
    order_no: string;
    from_status: string;
    to_status: string;
    version: string;
    snapshot_status: string;
    published: boolean;
  }[];
  deliveries: {
    id: string;
    event_id: string;
    kind: string;
    order_no: string;
    version: number;
    to_status: string;
    status: string;
    notify_url: string;
  }[];
  attempts: { delivery_id: string; outcome: string; started_at: Date }[];
  accounts: { order_ref: string; status: string; clabe: string }[];
  payouts: { payout_ref: string; status: string }[];
  deposits: { clabe: string; matched: boolean; account_id: string | null }[];
  accountIds: { id: string; order_ref: string }[];
}

interface Databases {
  payments: pg.Pool;
  transfers: pg.Pool;
  notifier: pg.Pool;
  sandbox: pg.Pool;
}

function openDatabases(stack: Stack): Databases {
  const pool = (service: ServiceName) => {
    const p = new pg.Pool({ connectionString: stack.databaseUrl(service), max: 2 });
    p.on('error', () => {});
    return p;
  };
  return {
    payments: pool('payments'),
    transfers: pool('transfers'),
    notifier: pool('notifier'),
    sandbox: pool('upstream-sandbox'),
  };
}

async function snapshot(db: Databases): Promise<Snapshot> {
  const q = async <T extends pg.QueryResultRow>(pool: pg.Pool, text: string) =>
    (await pool.query<T>(text)).rows;
  const [payOrders, payHistory, payEvents, transfers, transferEvents, deliveries, attempts] =
    await Promise.all([
      q<Snapshot['payOrders'][number]>(
        db.payments,
        'select order_no, mch_no, biz_order_no, status, version::int as version, notify_url, expired_time, opened_at from pay_orders',
      ),
      q<Snapshot['payHistory'][number]>(
        db.payments,
        'select order_no, from_status, to_status, version::int as version, cause, event_id::text from pay_order_status_history order by order_no, version',
      ),
      q<Snapshot['payEvents'][number]>(
        db.payments,
        `select id::text, payload->>'order_no' as order_no, payload->>'version' as version,
                payload->>'to_status' as to_status, published_at is not null as published
         from outbox order by seq`,
      ),
      q<Snapshot['transfers'][number]>(
        db.transfers,
        'select transfer_no, mch_no, biz_transfer_no, status, version::int as version, notify_url, payee_name, submission, route_id from transfers',
      ),
      q<Snapshot['transferEvents'][number]>(
        db.transfers,
        `select id::text, payload->>'order_no' as order_no, payload->>'from_status' as from_status,
                payload->>'to_status' as to_status, payload->>'version' as version,
                payload->'transfer'->>'status' as snapshot_status, published_at is not null as published
         from outbox order by seq`,
      ),
      q<Snapshot['deliveries'][number]>(
        db.notifier,
        'select id::text, event_id::text, kind, order_no, version::int as version, to_status, status, notify_url from deliveries',
      ),
      q<Snapshot['attempts'][number]>(
        db.notifier,
        'select delivery_id::text, outcome, started_at from delivery_attempts',
      ),
    ]);
  const [accounts, payouts, deposits, accountIds] = await Promise.all([
    q<Snapshot['accounts'][number]>(db.sandbox, 'select order_ref, status, clabe from virtual_accounts'),
    q<Snapshot['payouts'][number]>(db.sandbox, 'select payout_ref, status from payouts'),
    q<Snapshot['deposits'][number]>(db.sandbox, 'select clabe, matched, account_id from deposits'),
    q<Snapshot['accountIds'][number]>(db.sandbox, 'select id, order_ref from virtual_accounts'),
  ]);
  return {
    payOrders,
    payHistory,
    payEvents,
    transfers,
    transferEvents,
    deliveries,
    attempts,
    accounts,
    payouts,
    deposits,
    accountIds,
  };
}

/** What still moves: empty when the platform has settled. */
function unsettled(s: Snapshot, now: number): string[] {
  const out: string[] = [];
  const unpublished =
    s.payEvents.filter((e) => !e.published).length + s.transferEvents.filter((e) => !e.published).length;
  if (unpublished) out.push(`${unpublished} outbox events unpublished`);
  const events = s.payEvents.length + s.transferEvents.length;
  if (s.deliveries.length !== events)
    out.push(`${s.deliveries.length}/${events} events recorded by the notifier`);
  const pending = s.deliveries.filter((d) => d.status === 'pending').length;
  if (pending) out.push(`${pending} deliveries pending`);
  const moving = s.transfers.filter((t) => t.status === 'submitting' || t.status === 'progress').length;
  if (moving) out.push(`${moving} transfers not final`);
  const overdue = s.payOrders.filter(
    (o) => (o.status === 'wait' || o.status === 'progress') && o.expired_time.getTime() < now,
  ).length;
  if (overdue) out.push(`${overdue} expired pay orders still open`);
  // Short-lived orders (minutes) are waited for too, so none changes between the final queries and the
  // last snapshot; the default 24 h expiries stay open, and stay still.
  const expiring = s.payOrders.filter(
    (o) => (o.status === 'wait' || o.status === 'progress') && o.expired_time.getTime() < now + 600_000,
  ).length;
  if (expiring) out.push(`${expiring} short-lived pay orders not expired yet`);
  const paidAccounts = new Set(s.accounts.filter((a) => a.status === 'paid').map((a) => a.order_ref));
  const paidNotSuccess = s.payOrders.filter(
    (o) => paidAccounts.has(o.order_no) && o.status !== 'success',
  ).length;
  if (paidNotSuccess) out.push(`${paidNotSuccess} paid orders not yet success`);
  const returning = s.payouts.filter((p) => p.status === 'processing').length;
  if (returning) out.push(`${returning} payouts still processing at the channel`);
  return out;
}

interface CheckInput {
  options: ChaosOptions;
  snap: Snapshot;
  creates: CreateRecord[];
  deposits: DepositRecord[];
  requests: RequestRecord[];
  receipts: Receipt[];
  faults: FaultRecord[];
  unexpected: string[];
  finalQueries: { key: string; code?: number; number?: string; status?: string; outcome: string }[];
}

/** Every request got a signed envelope with a documented status; connection errors only while the target was down. */
function checkAnswers(input: CheckInput): string[] {
  const out: string[] = [];
  const downWindows = (service: ServiceName) =>
    input.faults.filter((f) => f.service === service).map((f) => [f.from - 50, f.to + 1_000] as const);
  const within = (t: number, windows: readonly (readonly [number, number])[]) =>
    windows.some(([a, b]) => t >= a && t <= b);
  const gatewayDown = downWindows('gateway');
  const sandboxDown = downWindows('upstream-sandbox');
  const DOCUMENTED = new Set([200, 429, 500, 503]);
  for (const r of input.requests) {
    const label = `${r.target} ${r.path} at +${r.startedAt}`;
    switch (r.outcome) {
      case 'timeout':
        out.push(`${label}: no answer within ${input.options.requestTimeoutMs} ms (hung)`);
        break;
      case 'not-json':
        out.push(`${label}: HTTP ${r.status} without a JSON envelope`);
        break;
      case 'unsigned':
        out.push(`${label}: HTTP ${r.status} envelope ${r.code} whose signature does not verify`);
        break;
      case 'connection':
        if (!within(r.endedAt, r.target === 'gateway' ? gatewayDown : sandboxDown))
          out.push(`${label}: connection failed while its server was up (${r.error})`);
        break;
      case 'envelope':
        if (r.target === 'gateway' && !DOCUMENTED.has(r.status ?? 0))
          out.push(`${label}: undocumented HTTP status ${r.status} (code ${r.code})`);
        // An outage is a dependency down: 503 / 50003. A 500 is a bug whatever the moment.
        if (r.target === 'gateway' && r.status === 500) out.push(`${label}: HTTP 500 (code ${r.code})`);
        break;
    }
  }
  return out;
}

function checkExactlyOnce(input: CheckInput): string[] {
  const out: string[] = [...input.unexpected.map((u) => `unexpected answer: ${u}`)];
  const { snap } = input;
  const payByBiz = new Map<string, Snapshot['payOrders']>();
  for (const o of snap.payOrders) {
    const key = `${o.mch_no}|${o.biz_order_no}`;
    payByBiz.set(key, [...(payByBiz.get(key) ?? []), o]);
  }
  const transferByBiz = new Map<string, Snapshot['transfers']>();
  for (const t of snap.transfers) {
    const key = `${t.mch_no}|${t.biz_transfer_no}`;
    transferByBiz.set(key, [...(transferByBiz.get(key) ?? []), t]);
  }
  const attempted = new Set(input.creates.map((c) => `${c.mchNo}|${c.bizNo}`));
  const queries = new Map(input.finalQueries.map((q) => [q.key, q]));
  for (const c of input.creates) {
    const key = `${c.mchNo}|${c.bizNo}`;
    const rows = (c.kind === 'pay' ? payByBiz.get(key) : transferByBiz.get(key)) ?? [];
    const numbers = new Set(c.acceptedAs);
    if (numbers.size > 1) out.push(`${c.kind} ${key}: accepted as ${[...numbers].join(' and ')}`);
    if (rows.length > 1) out.push(`${c.kind} ${key}: ${rows.length} rows in the store`);
    if (c.acceptedAs.length === 0) continue;
    const accepted = c.acceptedAs[0]!;
    if (rows.length === 0) {
      out.push(`${c.kind} ${key}: accepted as ${accepted} but not in the store`);
      continue;
    }
    const number = 'order_no' in rows[0]! ? rows[0].order_no : rows[0]!.transfer_no;
    if (number !== accepted) out.push(`${c.kind} ${key}: accepted as ${accepted}, stored as ${number}`);
    const query = queries.get(key);
    if (query?.code !== 0 || query.number !== accepted) {
      out.push(`${c.kind} ${key}: the gateway query answered ${JSON.stringify(query)}`);
    } else if (query.status !== rows[0]!.status) {
      out.push(`${c.kind} ${key}: the gateway shows ${query.status}, the store ${rows[0]!.status}`);
    }
    if (c.codes.some((code) => code === 30002 || code === 40003))
      out.push(`${c.kind} ${key}: an identical retry was refused as a duplicate (${c.codes.join(',')})`);
  }
  for (const key of [...payByBiz.keys(), ...transferByBiz.keys()]) {
    if (!attempted.has(key)) out.push(`${key}: in the store but never requested`);
  }
  // One upstream object per order: one virtual account per opened pay order, one payout per transfer.
  const accountsByRef = tally(snap.accounts, (a) => a.order_ref);
  for (const o of snap.payOrders) {
    if (o.opened_at && accountsByRef[o.order_no] !== 1)
      out.push(`pay order ${o.order_no}: ${accountsByRef[o.order_no] ?? 0} virtual accounts upstream`);
  }
  const payoutsByRef = tally(snap.payouts, (p) => p.payout_ref);
  for (const t of snap.transfers) {
    const payouts = payoutsByRef[t.transfer_no] ?? 0;
    // No payout is right for a transfer whose submission never reached the channel: reconciliation
    // then fails it (the channel denies knowing it), and no money left.
    if (payouts > 1 || (payouts === 0 && t.status !== 'fail'))
      out.push(`transfer ${t.transfer_no} (${t.status}): ${payouts} payouts upstream`);
  }
  const transferNos = new Set(snap.transfers.map((t) => t.transfer_no));
  for (const p of snap.payouts) {
    if (!transferNos.has(p.payout_ref)) out.push(`payout ${p.payout_ref} upstream has no transfer`);
  }
  return out;
}

/** Each order's history walks its state machine from creation to its current status and version. */
function checkStateMachine(input: CheckInput): string[] {
  const out: string[] = [];
  const { snap } = input;
  const history = new Map<string, Snapshot['payHistory']>();
  for (const h of snap.payHistory) history.set(h.order_no, [...(history.get(h.order_no) ?? []), h]);
  const eventsById = new Map(snap.payEvents.map((e) => [e.id, e]));
  const eventCount = tally(snap.payEvents, (e) => e.order_no);
  for (const o of snap.payOrders) {
    if (!o.opened_at) continue;
    const rows = history.get(o.order_no) ?? [];
    let status: string = 'wait';
    let version = 1;
    for (const h of rows) {
      const label = `pay ${o.order_no} v${h.version}`;
      if (h.version !== version + 1) out.push(`${label}: version follows ${version}`);
      if (h.from_status !== status) out.push(`${label}: from ${h.from_status}, but the order was ${status}`);
      const cause = h.cause as 'merchant' | 'upstream' | 'expiry';
      if (!isPayStatus(h.from_status) || !isPayStatus(h.to_status)) {
        out.push(`${label}: unknown status ${h.from_status} → ${h.to_status}`);
      } else if (!isAllowed(h.from_status as PayStatus, h.to_status as PayStatus, cause)) {
        out.push(`${label}: ${h.from_status} → ${h.to_status} by ${h.cause} is forbidden`);
      }
      const event = eventsById.get(h.event_id);
      if (!event) out.push(`${label}: its event ${h.event_id} is not in the outbox`);
      else if (
        event.order_no !== o.order_no ||
        event.to_status !== h.to_status ||
        event.version !== String(h.version)
      )
        out.push(`${label}: its event says ${event.order_no} v${event.version} ${event.to_status}`);
      status = h.to_status;
      version = h.version;
    }
    if (o.status !== status) out.push(`pay ${o.order_no}: status ${o.status}, its history ends in ${status}`);
    if (o.version !== version)
      out.push(`pay ${o.order_no}: version ${o.version}, its history ends at ${version}`);
    if ((eventCount[o.order_no] ?? 0) !== rows.length)
      out.push(`pay ${o.order_no}: ${eventCount[o.order_no] ?? 0} outbox events for ${rows.length} changes`);
  }
  const transferEvents = new Map<string, Snapshot['transferEvents']>();
  for (const e of snap.transferEvents)
    transferEvents.set(e.order_no, [...(transferEvents.get(e.order_no) ?? []), e]);
  for (const t of snap.transfers) {
    const events = [...(transferEvents.get(t.transfer_no) ?? [])].sort(
      (a, b) => Number(a.version) - Number(b.version),
    );
    // Created as progress (version 1), or as fail at once (version 1, no event).
    let status: string = events.length === 0 ? t.status : 'progress';
    let version = 1;
    for (const e of events) {
      const label = `transfer ${t.transfer_no} v${e.version}`;
      if (Number(e.version) !== version + 1) out.push(`${label}: version follows ${version}`);
      if (e.from_status !== status)
        out.push(`${label}: from ${e.from_status}, but the transfer was ${status}`);
      if (!transitionOf(e.from_status as TransferStatus, e.to_status as TransferStatus)?.announce)
        out.push(`${label}: ${e.from_status} → ${e.to_status} is forbidden`);
      if (e.snapshot_status !== e.to_status)
        out.push(`${label}: its event carries status ${e.snapshot_status}`);
      status = e.to_status;
      version = Number(e.version);
    }
    if (t.status !== status)
      out.push(`transfer ${t.transfer_no}: status ${t.status}, its events end in ${status}`);
    if (t.version !== version)
      out.push(`transfer ${t.transfer_no}: version ${t.version}, its events end at ${version}`);
  }
  return out;
}

interface CallbackCheck {
  violations: string[];
  duplicates: Duplicate[];
  delivered: number;
  superseded: number;
  skipped: number;
}

/**
 * Every status change in the stores reached its merchant: exactly one callback answered SUCCESS, counted
 * raw at the sink per (order, status). Two documented exceptions: a change superseded by a newer change of
 * the same order that was delivered (CONTRACT.md section 9), and a second delivery after a notifier died
 * mid-attempt (the attempt is then recorded `abandoned`), which is what at-least-once allows.
 */
function checkCallbacks(input: CheckInput): CallbackCheck {
  const out: string[] = [];
  const duplicates: Duplicate[] = [];
  const { snap, receipts } = input;
  const payOrders = new Map(snap.payOrders.map((o) => [o.order_no, o]));
  const transfers = new Map(snap.transfers.map((t) => [t.transfer_no, t]));
  interface Change {
    kind: 'pay' | 'transfer';
    orderNo: string;
    mchNo: string;
    version: number;
    status: string;
    eventId: string;
    notifyUrl: string;
  }
  const changes: Change[] = [];
  for (const h of snap.payHistory) {
    const o = payOrders.get(h.order_no);
    if (!o) continue;
    changes.push({
      kind: 'pay',
      orderNo: h.order_no,
      mchNo: o.mch_no,
      version: h.version,
      status: h.to_status,
      eventId: h.event_id,
      notifyUrl: o.notify_url,
    });
  }
  for (const e of snap.transferEvents) {
    const t = transfers.get(e.order_no);
    if (!t) continue;
    changes.push({
      kind: 'transfer',
      orderNo: e.order_no,
      mchNo: t.mch_no,
      version: Number(e.version),
      status: e.to_status,
      eventId: e.id,
      notifyUrl: t.notify_url,
    });
  }
  const deliveriesByEvent = new Map<string, Snapshot['deliveries']>();
  for (const d of snap.deliveries)
    deliveriesByEvent.set(d.event_id, [...(deliveriesByEvent.get(d.event_id) ?? []), d]);
  const abandoned = new Set(snap.attempts.filter((a) => a.outcome === 'abandoned').map((a) => a.delivery_id));
  const receiptsByKey = new Map<string, Receipt[]>();
  for (const r of receipts) {
    const key = `${r.orderNo}|${r.status}`;
    receiptsByKey.set(key, [...(receiptsByKey.get(key) ?? []), r]);
  }
  const successes = (key: string) => (receiptsByKey.get(key) ?? []).filter((r) => r.answer === 'SUCCESS');
  const notifierKills = input.faults.filter((f) => f.service === 'notifier');
  const changeKeys = new Set(changes.map((c) => `${c.orderNo}|${c.status}`));
  const latestDelivered = new Map<string, number>();
  for (const c of changes) {
    if (successes(`${c.orderNo}|${c.status}`).length > 0)
      latestDelivered.set(c.orderNo, Math.max(latestDelivered.get(c.orderNo) ?? 0, c.version));
  }

  let delivered = 0;
  let superseded = 0;
  let skipped = 0;
  for (const c of changes) {
    const key = `${c.orderNo}|${c.status}`;
    const label = `${c.kind} ${c.orderNo} v${c.version} → ${c.status}`;
    const rows = deliveriesByEvent.get(c.eventId) ?? [];
    if (rows.length !== 1) {
      out.push(`${label}: ${rows.length} deliveries recorded by the notifier for event ${c.eventId}`);
      continue;
    }
    const delivery = rows[0]!;
    if (!c.notifyUrl) {
      skipped += 1;
      if (delivery.status !== 'skipped') out.push(`${label}: no notifyUrl, delivery ${delivery.status}`);
      if ((receiptsByKey.get(key) ?? []).length > 0)
        out.push(`${label}: no notifyUrl, yet the sink got a callback`);
      continue;
    }
    const ok = successes(key);
    if (ok.length === 1) {
      delivered += 1;
      continue;
    }
    if (ok.length === 0) {
      if (delivery.status === 'superseded' && (latestDelivered.get(c.orderNo) ?? 0) > c.version) {
        superseded += 1;
        continue;
      }
      out.push(
        `${label}: never delivered (delivery ${delivery.status}, ${(receiptsByKey.get(key) ?? []).length} tries at the sink)`,
      );
      continue;
    }
    delivered += 1;
    // More than one SUCCESS: acceptable only if the first was answered while a notifier was being killed,
    // so its result was never recorded and the attempt was later found abandoned.
    const first = ok[0]!.at;
    const aroundKill = notifierKills.some(
      (k) => first <= (k.crashed ? k.to : k.from + 100) && first >= k.from - 20_000,
    );
    const explanation = abandoned.has(delivery.id)
      ? aroundKill
        ? 'notifier killed mid-attempt; attempt recorded abandoned, sent again'
        : 'attempt recorded abandoned, but the first delivery was not near a notifier kill'
      : 'no abandoned attempt explains it';
    duplicates.push({ key: `${label}`, deliveries: ok.length, explanation });
    if (!abandoned.has(delivery.id) || !aroundKill)
      out.push(`${label}: delivered ${ok.length} times (${explanation})`);
  }
  for (const [key, list] of receiptsByKey) {
    if (!changeKeys.has(key))
      out.push(`sink got ${list.length} callbacks for ${key}, which is no status change in the stores`);
  }
  for (const r of receipts) {
    if (!r.signed)
      out.push(`callback for ${r.orderNo}|${r.status} at ${r.at} does not verify with the platform key`);
    if (r.bodyMchNo !== r.mchNo)
      out.push(`callback for ${r.orderNo} names merchant ${r.bodyMchNo}, sent to ${r.mchNo}'s URL`);
  }
  return { violations: out, duplicates, delivered, superseded, skipped };
}

/** Money that arrived is success; payouts agree with the channel; all settled; every service still runs. */
function checkConvergence(input: CheckInput, stillMoving: string[], down: ServiceName[]): string[] {
  const out: string[] = [...stillMoving.map((m) => `not settled: ${m}`)];
  for (const service of down) out.push(`${service} is not running at the end`);
  const { snap } = input;
  const orderOfAccount = new Map(snap.accountIds.map((a) => [a.id, a.order_ref]));
  const payOrders = new Map(snap.payOrders.map((o) => [o.order_no, o]));
  for (const d of snap.deposits) {
    if (!d.matched || !d.account_id) continue;
    const orderNo = orderOfAccount.get(d.account_id);
    const order = orderNo ? payOrders.get(orderNo) : undefined;
    if (order && order.status !== 'success')
      out.push(`pay ${order.order_no} was paid upstream but is ${order.status}`);
  }
  const exactDeposits = input.deposits.filter((d) => d.exact && d.matched === true);
  for (const d of exactDeposits) {
    const order = payOrders.get(d.orderNo);
    if (order && order.status !== 'success')
      out.push(`pay ${d.orderNo}: a matched deposit, status ${order.status}`);
  }
  const expected: Record<string, string[]> = {
    succeeded: ['success'],
    returned: ['close'],
    failed: ['fail'],
    rejected: ['fail'],
    processing: ['progress'],
  };
  const payouts = new Map(snap.payouts.map((p) => [p.payout_ref, p]));
  for (const t of snap.transfers) {
    const payout = payouts.get(t.transfer_no);
    if (!payout) {
      if (t.status !== 'fail') out.push(`transfer ${t.transfer_no} is ${t.status}, the channel never had it`);
      continue;
    }
    if (!(expected[payout.status] ?? []).includes(t.status))
      out.push(`transfer ${t.transfer_no} is ${t.status}, its payout upstream ${payout.status}`);
    const rule = t.payee_name.startsWith('REJECT')
      ? 'fail'
      : t.payee_name.startsWith('RETURN')
        ? 'close'
        : 'success';
    if (t.status !== rule)
      out.push(
        `transfer ${t.transfer_no} (${t.payee_name}) ended ${t.status}, the sandbox rule says ${rule}`,
      );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The run

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => {});
  const started = Date.now();
  const prefix = `chaos_${randomBytes(4).toString('hex')}`;
  const keyDir = mkdtempSync(join(tmpdir(), 'agentpay-chaos-'));
  const logTail: string[] = [];
  const notes: string[] = [];
  const faults: FaultRecord[] = [];
  const crashes: CrashRecord[] = [];
  const serviceTail = new Map<ServiceName, string[]>();
  const serviceStderr = new Map<ServiceName, string[]>();
  let nats: NatsServer | undefined;
  let cluster: PostgresCluster | undefined;
  let stack: Stack | undefined;
  let sink: Sink | undefined;
  let dbs: Databases | undefined;
  let postgresMode = options.postgres;
  let serverUrl =
    options.postgresUrl ?? process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

  try {
    nats = await startNatsServer();
    log(`private nats-server on ${nats.url}`);
    if (postgresMode === 'private-cluster') {
      try {
        cluster = await startPostgresCluster();
        serverUrl = cluster.url;
        log(`private Postgres cluster on ${cluster.url} (${cluster.dataDir})`);
      } catch (err) {
        postgresMode = 'terminate';
        notes.push(
          `no private Postgres cluster (${errorText(err)}); Postgres outage simulated by terminating connections`,
        );
        log(notes[notes.length - 1]!);
      }
    }
    sink = await startSink();
    const schedule = CHAOS_RETRY_SCHEDULE;
    stack = await startStack({
      postgresUrl: serverUrl,
      natsUrl: nats.url,
      databasePrefix: prefix,
      ports: 'random',
      output: 'silent',
      onLog: (service, line) => {
        // Log records are JSON; anything else is the runtime talking (a crash's stack trace).
        const tails = line.startsWith('{') ? serviceTail : serviceStderr;
        const own = tails.get(service) ?? [];
        own.push(line);
        if (own.length > 120) own.shift();
        tails.set(service, own);
        logTail.push(`${service} ${line}`);
        if (logTail.length > 3_000) logTail.splice(0, 1_000);
        options.serviceLog?.(service, line);
      },
      env: {
        PLATFORM_PRIVATE_KEY_FILE: join(keyDir, 'platform-key.pem'),
        NOTIFY_ALLOW_PRIVATE: 'true',
        NOTIFY_RETRY_SCHEDULE: schedule,
        NOTIFY_TIMEOUT_MS: '3000',
        NOTIFY_LEASE_MARGIN_MS: '4000',
        NOTIFY_POLL_MS: '250',
        NOTIFIER_ACK_WAIT_MS: '3000',
        EXPIRY_SWEEP_INTERVAL_MS: '500',
        SWEEP_INTERVAL_MS: '1000',
        SUBMISSION_STALE_MS: '5000',
        RECONCILE_AFTER_MS: '3000',
        GRPC_TIMEOUT_MS: '12000',
        ROUTER_TIMEOUT_MS: '8000',
        CREATE_LEASE_MS: '10000',
        UPSTREAM_TIMEOUT_MS: '5000',
        APPLY_TIMEOUT_MS: '5000',
        ROUTE_BREAKER_COOLDOWN_MS: '1000',
        SANDBOX_SETTLE_DELAY_MS: '300',
        SANDBOX_NOTICE_BACKOFF_MS: '250',
        SANDBOX_NOTICE_MAX_ATTEMPTS: '12',
        SANDBOX_NOTICE_TIMEOUT_MS: '3000',
      },
    }).catch((err: unknown) => {
      // Say why: the failing service's own last words.
      const tails = [...serviceTail, ...serviceStderr].map(
        ([service, lines]) => `${service}:\n  ${lines.slice(-8).join('\n  ')}`,
      );
      throw new Error(`${errorText(err)}\n${tails.join('\n')}`);
    });
    log(`stack ${prefix} ready: gateway ${stack.urls.gateway}`);
    dbs = openDatabases(stack);

    const merchants: TestMerchant[] = [];
    const policies: SinkPolicy[] = ['success', 'fail-first', 'error-first'];
    let platformKey: KeyObject | undefined;
    for (let i = 0; i < options.merchants; i++) {
      const m = await createTestMerchant({
        adminUrl: stack.urls.admin,
        gatewayUrl: stack.urls.gateway,
        mchNo: `CH${prefix.slice(-8)}${i}`,
        feeRate: { percentBps: 100 * i, fixedCentavos: 50 * i },
      });
      platformKey = m.platformKey;
      merchants.push(m);
      sink.policy.set(m.mchNo, policies[i % policies.length]!);
    }
    sink.setPlatformKey(platformKey!);

    // Load runs until the fault plan is over and the tail has passed.
    let stopAt = Number.POSITIVE_INFINITY;
    const ctx: LoadContext = {
      options,
      stack,
      platformKey: platformKey!,
      merchants,
      sinkUrl: sink.url,
      requests: [],
      creates: [],
      deposits: [],
      unexpected: [],
      stopAt: () => stopAt,
      counter: { n: 0 },
    };
    const workers = Array.from({ length: options.workers }, (_, i) => worker(ctx, options.seed * 1000 + i));

    const liveStack = stack;
    const liveNats = nats;
    const plan: { name: string; run: () => Promise<FaultRecord> }[] = [];
    const killService = (service: ServiceName) => ({
      name: `kill -9 ${service}`,
      run: async (): Promise<FaultRecord> => {
        const from = Date.now();
        await liveStack.kill(service);
        await sleep(options.downMs);
        // Fails when another service died meanwhile; `revive` below then finds and restarts it.
        await liveStack.restart(service).catch((err: unknown) => log(`  restart: ${errorText(err)}`));
        return { name: `kill -9 ${service}`, service, from, to: Date.now() };
      },
    });
    const restartNats = {
      name: 'restart nats',
      run: async (): Promise<FaultRecord> => {
        const from = Date.now();
        await liveNats.restart({ downMs: options.downMs });
        return { name: 'restart nats (SIGKILL, same port and store)', from, to: Date.now() };
      },
    };
    const postgresFault = {
      name: 'postgres outage',
      run: async (): Promise<FaultRecord> => {
        const from = Date.now();
        if (cluster) {
          await cluster.restart({ mode: 'immediate', downMs: options.postgresOutageMs });
          return { name: 'postgres crash (pg_ctl stop -m immediate) and start', from, to: Date.now() };
        }
        await postgresOutage(serverUrl, prefix, options.postgresOutageMs);
        return {
          name: `postgres outage (connections refused and terminated for ${options.postgresOutageMs} ms)`,
          from,
          to: Date.now(),
        };
      },
    };
    // Each round kills every service once, restarts NATS once and takes Postgres away once.
    const order: ServiceName[] = [
      'upstream-sandbox',
      'payments',
      'transfers',
      'upstream-router',
      'notifier',
      'gateway',
    ];
    for (let round = 0; round < options.rounds; round++) {
      const services = round % 2 === 0 ? order : [...order].reverse();
      plan.push(killService(services[0]!), killService(services[1]!), restartNats, killService(services[2]!));
      plan.push(
        killService(services[3]!),
        postgresFault,
        killService(services[4]!),
        killService(services[5]!),
      );
    }
    if (new Set(plan.filter((p) => p.name.startsWith('kill')).map((p) => p.name)).size !== SERVICES.length)
      throw new Error('the fault plan must kill every service');

    /** Finds services that died on their own, records them and starts them again. */
    const revive = async (after: string, from: number) => {
      const dead = SERVICES.filter((service) => !liveStack.running(service));
      if (dead.length === 0) return;
      for (const service of dead) {
        const output = [...(serviceStderr.get(service) ?? [])].slice(-100);
        serviceStderr.delete(service);
        crashes.push({
          service,
          after,
          from,
          to: 0,
          output,
        });
        log(`  ${service} died on its own after "${after}"; starting it again`);
      }
      await Promise.all(dead.map((service) => liveStack.restart(service))).catch((err: unknown) =>
        log(`  revive: ${errorText(err)}`),
      );
      for (const crash of crashes) if (crash.to === 0) crash.to = Date.now();
    };

    await sleep(options.warmupMs);
    for (const fault of plan) {
      log(`fault: ${fault.name}`);
      const from = Date.now();
      const record = await fault.run();
      await revive(fault.name, from);
      faults.push(record);
      log(`  back after ${Date.now() - record.from} ms`);
      await sleep(options.faultGapMs);
    }
    await sleep(options.tailMs);
    await revive('the load', Date.now() - options.tailMs);
    stopAt = Date.now();
    log('load stopping');
    await Promise.all(workers);
    log(`load done: ${ctx.creates.length} creates, ${ctx.requests.length} requests`);

    // Settle: everything final, every event recorded and delivered or finished.
    const settleDeadline = Date.now() + options.settleTimeoutMs;
    let moving: string[] = [];
    let lastReceipts = -1;
    for (;;) {
      try {
        moving = unsettled(await snapshot(dbs), Date.now());
      } catch (err) {
        moving = [`snapshot failed: ${errorText(err)}`];
      }
      const quiet = sink.receipts.length === lastReceipts;
      lastReceipts = sink.receipts.length;
      if (moving.length === 0 && quiet) break;
      if (Date.now() > settleDeadline) break;
      await sleep(1_000);
    }
    log(moving.length ? `did not settle: ${moving.join('; ')}` : 'settled');

    // The merchant's view: every accepted order queried through the gateway.
    const finalQueries: CheckInput['finalQueries'] = [];
    const byMch = new Map(merchants.map((m) => [m.mchNo, m]));
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
            ...(data['orderNo'] || data['transferNo']
              ? { number: data['orderNo'] ?? data['transferNo'] }
              : {}),
            ...(data['status'] ? { status: data['status'] } : {}),
          });
        }),
      );
    }

    const snap = await snapshot(dbs);
    const input: CheckInput = {
      options,
      snap,
      creates: ctx.creates,
      deposits: ctx.deposits,
      requests: ctx.requests,
      receipts: sink.receipts,
      // A service that died on its own was down like a killed one (for answers and duplicate callbacks).
      faults: [
        ...faults,
        ...crashes.map((c) => ({
          name: `${c.service} died`,
          service: c.service,
          from: c.from,
          to: c.to,
          crashed: true,
        })),
      ],
      unexpected: ctx.unexpected,
      finalQueries,
    };
    await revive('settling', Date.now());
    const down = SERVICES.filter((s) => !liveStack.running(s));
    const callbacks = checkCallbacks(input);
    const violations = {
      answers: checkAnswers(input),
      exactlyOnce: checkExactlyOnce(input),
      stateMachine: checkStateMachine(input),
      callbacks: callbacks.violations,
      convergence: [
        ...checkConvergence(input, moving, down),
        ...crashes.map(
          (c) => `${c.service} died on its own after "${c.after}": ${c.output.slice(-3).join(' | ')}`,
        ),
      ],
    };
    const statuses = (rows: { status: string }[]) =>
      Object.entries(tally(rows, (r) => r.status)).map(([k, v]) => [`${k}`, v] as const);
    const counts: Record<string, number> = {
      requests: ctx.requests.length,
      gatewayRequests: ctx.requests.filter((r) => r.target === 'gateway').length,
      payCreates: ctx.creates.filter((c) => c.kind === 'pay').length,
      payAccepted: ctx.creates.filter((c) => c.kind === 'pay' && c.acceptedAs.length > 0).length,
      transferCreates: ctx.creates.filter((c) => c.kind === 'transfer').length,
      transferAccepted: ctx.creates.filter((c) => c.kind === 'transfer' && c.acceptedAs.length > 0).length,
      createRetries: ctx.creates.reduce((s, c) => s + Math.max(0, c.codes.length - 1), 0),
      deposits: ctx.deposits.length,
      depositsMatched: ctx.deposits.filter((d) => d.matched).length,
      payChanges: snap.payHistory.length,
      transferChanges: snap.transferEvents.length,
      callbacksReceived: sink.receipts.length,
      callbacksAnsweredSuccess: sink.receipts.filter((r) => r.answer === 'SUCCESS').length,
      changesDelivered: callbacks.delivered,
      changesSuperseded: callbacks.superseded,
      changesWithoutNotifyUrl: callbacks.skipped,
      duplicateDeliveries: callbacks.duplicates.length,
      orphanVirtualAccounts: snap.accounts.filter(
        (a) => !snap.payOrders.some((o) => o.order_no === a.order_ref),
      ).length,
      ...Object.fromEntries(statuses(snap.payOrders).map(([k, v]) => [`pay.${k}`, v])),
      ...Object.fromEntries(statuses(snap.transfers).map(([k, v]) => [`transfer.${k}`, v])),
    };
    if (counts['orphanVirtualAccounts'])
      notes.push(
        `${counts['orphanVirtualAccounts']} virtual accounts upstream belong to no order: openings withdrawn after an error or a crash (payments README, "Concurrent creates"); nobody knows their CLABE`,
      );
    const failed = Object.values(violations).some((v) => v.length > 0);
    return {
      name: options.name,
      prefix,
      postgres: postgresMode,
      seed: options.seed,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      faults: faults.map((f) => ({ ...f, from: f.from - started, to: f.to - started })),
      counts,
      requestsByOutcome: tally(ctx.requests, (r) =>
        r.outcome === 'envelope' ? `${r.target} HTTP ${r.status}` : `${r.target} ${r.outcome}`,
      ),
      violations,
      duplicates: callbacks.duplicates,
      crashes: crashes.map((c) => ({ ...c, from: c.from - started, to: c.to - started })),
      notes,
      serviceLogTail: failed ? logTail.slice(-400) : [],
    };
  } finally {
    await dbs?.payments.end();
    await dbs?.transfers.end();
    await dbs?.notifier.end();
    await dbs?.sandbox.end();
    await stack?.stop().catch((err: unknown) => log(`stack stop: ${errorText(err)}`));
    await sink?.close();
    if (!cluster)
      await dropDatabases(serverUrl, prefix).catch((err: unknown) => log(`drop: ${errorText(err)}`));
    await cluster?.stop();
    await nats?.stop();
    rmSync(keyDir, { recursive: true, force: true });
  }
}

async function dropDatabases(serverUrl: string, prefix: string): Promise<void> {
  await withClient(serverUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where datname like $1',
      [STACK_DATABASE_LIKE(prefix)],
    );
    for (const { datname } of rows) {
      await client.query(`drop database if exists ${client.escapeIdentifier(datname)} with (force)`);
    }
  });
}

// ---------------------------------------------------------------------------------------------------------
// CLI

/** A readable summary of a report; the violations in full. */
export function formatReport(report: ChaosReport): string {
  const lines = [
    `chaos run "${report.name}" (seed ${report.seed}, Postgres: ${report.postgres}, ${Math.round(report.durationMs / 1000)} s)`,
    '',
    'faults (ms from start → back):',
    ...report.faults.map((f) => `  ${String(f.from).padStart(7)} → ${String(f.to).padStart(7)}  ${f.name}`),
    '',
    'counts:',
    ...Object.entries(report.counts).map(([k, v]) => `  ${k.padEnd(28)} ${v}`),
    '',
    'requests by outcome:',
    ...Object.entries(report.requestsByOutcome).map(([k, v]) => `  ${k.padEnd(28)} ${v}`),
    '',
    ...(report.duplicates.length
      ? [
          'duplicate deliveries:',
          ...report.duplicates.map((d) => `  ${d.key}: ${d.deliveries}× (${d.explanation})`),
          '',
        ]
      : []),
    ...(report.crashes.length
      ? [
          'services that died on their own (each started again):',
          ...report.crashes.map(
            (c) =>
              `  ${c.service} after "${c.after}": ${c.output
                .filter((l) => !l.startsWith('{'))
                .slice(0, 6)
                .join(' | ')}`,
          ),
          '',
        ]
      : []),
    ...(report.notes.length ? ['notes:', ...report.notes.map((n) => `  ${n}`), ''] : []),
  ];
  for (const [check, list] of Object.entries(report.violations)) {
    lines.push(`${check}: ${list.length === 0 ? 'ok' : `${list.length} violation(s)`}`);
    for (const v of list.slice(0, 50)) lines.push(`  - ${v}`);
    if (list.length > 50) lines.push(`  … ${list.length - 50} more`);
  }
  return lines.join('\n');
}

function parseArgs(argv: string[]): ChaosOptions {
  const options = { ...FULL_OPTIONS };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split('=', 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i] ?? '';
    switch (flag) {
      case '--ci':
        Object.assign(options, CI_OPTIONS, { seed: options.seed });
        break;
      case '--seed':
        options.seed = Number(value());
        break;
      case '--workers':
        options.workers = Number(value());
        break;
      case '--rounds':
        options.rounds = Number(value());
        break;
      case '--postgres':
        options.postgres = value() === 'terminate' ? 'terminate' : 'private-cluster';
        break;
      default:
        throw new Error(
          `unknown option ${flag}; use --ci, --seed N, --workers N, --rounds N, --postgres terminate|private-cluster`,
        );
    }
  }
  return options;
}

if (isEntryPoint(import.meta.url)) {
  const options = parseArgs(process.argv.slice(2));
  const outDir = join(REPO_ROOT, '.agentpay', 'chaos');
  mkdirSync(outDir, { recursive: true });
  const serviceLines: string[] = [];
  const report = await runChaos({
    ...options,
    log: (line) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`),
    serviceLog: (service, line) => serviceLines.push(`${service} ${line}`),
  }).catch((err: unknown) => {
    const file = join(outDir, `failed-${Date.now()}.services.log`);
    writeFileSync(file, `${serviceLines.join('\n')}\n`);
    process.stderr.write(`\nthe chaos run itself failed; service logs: ${file}\n`);
    throw err;
  });
  const base = join(outDir, `${report.startedAt.replaceAll(':', '-')}-${report.prefix}`);
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${base}.services.log`, `${serviceLines.join('\n')}\n`);
  process.stdout.write(
    `\n${formatReport(report)}\n\nreport: ${base}.json\nservice logs: ${base}.services.log\n`,
  );
  const violated = Object.values(report.violations).some((v) => v.length > 0);
  process.exit(violated ? 1 : 0);
}
