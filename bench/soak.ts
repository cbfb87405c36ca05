// The soak part of the bench (BENCH_ONLY=soak, issue 22): SOAK_MINUTES (default 30) of open-loop create-pay at
// half the saturating rate this stack reaches in the same run, with payments through the sandbox (their
// callbacks to a loopback sink), transfers and queries mixed in, and retention running with windows short enough
// to act within the run. Every SOAK_SAMPLE_S seconds (default 10) it samples each service's RSS, the run's
// Postgres backends' private memory, the last window's latencies and errors, and every table's size; the report
// shows them at fixed minutes with a verdict per series, and a PNG plots them (bench/soak-plot.ts).
//
// Requests are signed ahead, in chunks of CHUNK_S seconds, by a child process (this file, started with
// SOAK_SIGNER=1), so that RSA signing neither blocks the sending loop nor runs before the clock for the whole run
// (reqTime must lie within 300 s of the platform's clock).
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT, type ServiceName, type Stack, type StackOptions, startStack } from '@agentpay/stack';
import { formatWireTime, parsePrivateKey, signObject } from '@agentpay/wire';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect as connectNats, type NatsConnection } from '@nats-io/transport-node';
import pg from 'pg';
import { CLABE, machineBusyMs } from './growth-load.js';
import { type CpuSnapshot, closedLoop, cpuBetween, cpuSnapshot } from './load.js';
import { type BenchMerchant, benchMerchant, fundMerchant, payRequests } from './setup.js';
import { chartSvg, type Panel, renderPng } from './soak-plot.js';

const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0`);
  return value;
};
const MINUTES = num('SOAK_MINUTES', 30);
const SAMPLE_S = num('SOAK_SAMPLE_S', 10);
/** Share of the created orders paid through the sandbox, each with a callback to the sink. */
const PAID_SHARE = num('SOAK_PAID_SHARE', 0.1);
/** Transfers and queries per created order. */
const TRANSFER_SHARE = num('SOAK_TRANSFER_SHARE', 0.05);
const QUERY_SHARE = num('SOAK_QUERY_SHARE', 0.05);
/**
 * expiredTime of each order, seconds after its signing; 0 (default) leaves the platform's default, 24 h. On two
 * cores the expiry of nine orders in ten (two upstream calls and a transition each) on top of the create-pay rate
 * overloads the stack, so by default the unpaid orders stay open through the run, as most of a day's would.
 */
const EXPIRE_S = num('SOAK_EXPIRE_S', 0);
/** Every retention window of the run, seconds. */
const RETENTION_S = num('SOAK_RETENTION_S', 60);
const RETENTION_INTERVAL_MS = num('SOAK_RETENTION_INTERVAL_MS', 10_000);
/**
 * When the server's autovacuum is off (the repository's test Postgres runs without it), the soak vacuums its own
 * tables this often, choosing them as autovacuum's default thresholds would: without it no deleted row's space is
 * ever reused and every table a retention bounds grows in bytes however flat its row count.
 */
const VACUUM_S = num('SOAK_VACUUM_S', 60);
const CHUNK_S = 5;
const SATURATION_CONCURRENCY = 64;
const SATURATION_SECONDS = 20;
const AMOUNT = 100.5;
const TZ = 'America/Mexico_City';

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const mean = (values: number[]) =>
  values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

// --- The signer (child process) --------------------------------------------------------------------------

interface SignerInit {
  mchNo: string;
  privateKeyPem: string;
  sinkUrl: string;
}
interface ChunkRequest {
  chunk: number;
  pays: number;
  transfers: number;
  queries: number;
}
export interface SignedChunk {
  chunk: number;
  pays: { body: string; paid: boolean }[];
  transfers: string[];
  queries: string[];
  signMs: number;
}

function runSigner(): void {
  let init: SignerInit | undefined;
  let key: ReturnType<typeof parsePrivateKey> | undefined;
  let payIndex = 0;
  // The orders of the last two chunks: queries ask for those of the chunk before the last, 5 to 10 s old.
  let previous: string[][] = [[], []];
  process.on('message', (message: { init?: SignerInit } & Partial<ChunkRequest>) => {
    if (message.init) {
      init = message.init;
      key = parsePrivateKey(init.privateKeyPem);
      return;
    }
    const started = performance.now();
    const now = new Date();
    const reqTime = formatWireTime(now, TZ);
    const expiredTime = EXPIRE_S > 0 ? formatWireTime(new Date(now.getTime() + EXPIRE_S * 1000), TZ) : '';
    const sign = (body: Record<string, unknown>) => JSON.stringify({ ...body, sign: signObject(body, key!) });
    const common = () => ({ mchNo: init!.mchNo, reqTime, nonceStr: randomBytes(12).toString('hex') });
    const bizOrderNos: string[] = [];
    const pays = Array.from({ length: message.pays ?? 0 }, () => {
      // Evenly spread: order g is paid when the running count of paid orders steps up at it.
      const paid = Math.floor((payIndex + 1) * PAID_SHARE) > Math.floor(payIndex * PAID_SHARE);
      payIndex += 1;
      const bizOrderNo = `S${randomBytes(10).toString('hex')}`;
      bizOrderNos.push(bizOrderNo);
      const body: Record<string, unknown> = {
        ...common(),
        bizOrderNo,
        title: 'Soak order',
        method: 'mex_virtual_account',
        amount: AMOUNT,
        ...(expiredTime && { expiredTime }),
        ...(paid && { notifyUrl: `${init!.sinkUrl}/pay` }),
      };
      return { body: sign(body), paid };
    });
    const transfers = Array.from({ length: message.transfers ?? 0 }, () =>
      sign({
        ...common(),
        bizTransferNo: `ST${randomBytes(10).toString('hex')}`,
        amount: 1,
        title: 'Soak payout',
        reason: 'soak',
        payeeType: 'spei_transfer',
        payeeAccount: CLABE,
        payeeName: 'Ana Perez',
        notifyUrl: `${init!.sinkUrl}/transfer`,
      }),
    );
    // Queries ask for orders of the chunk before the last, created by the time they are sent.
    const older = previous[0]!;
    const queries =
      older.length === 0
        ? []
        : Array.from({ length: message.queries ?? 0 }, (_, i) =>
            sign({ ...common(), bizOrderNo: older[(i * 7919) % older.length]! }),
          );
    previous = [previous[1]!, bizOrderNos];
    const reply: SignedChunk = {
      chunk: message.chunk!,
      pays,
      transfers,
      queries,
      signMs: performance.now() - started,
    };
    process.send!(reply);
  });
}

if (process.env['SOAK_SIGNER'] === '1' && process.send) {
  process.on('disconnect', () => process.exit(0));
  runSigner();
}

/** The signer as a child process: chunks asked for ahead, answered in order. */
function startSigner(init: SignerInit) {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    cwd: REPO_ROOT,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, SOAK_SIGNER: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (chunk: SignedChunk) => void>();
  const asked = new Map<number, Promise<SignedChunk>>();
  let signMs = 0;
  child.on('message', (chunk: SignedChunk) => {
    signMs += chunk.signMs;
    waiting.get(chunk.chunk)?.(chunk);
    waiting.delete(chunk.chunk);
  });
  child.send({ init });
  return {
    ask(request: ChunkRequest): Promise<SignedChunk> {
      let promise = asked.get(request.chunk);
      if (!promise) {
        promise = new Promise<SignedChunk>((resolve) => waiting.set(request.chunk, resolve));
        asked.set(request.chunk, promise);
        child.send(request);
      }
      return promise;
    },
    take(chunk: number) {
      asked.delete(chunk);
    },
    signMs: () => signMs,
    pid: () => child.pid,
    stop() {
      child.kill('SIGTERM');
    },
  };
}

// --- Sending ---------------------------------------------------------------------------------------------

function post(
  agent: http.Agent,
  base: URL,
  path: string,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', (err) => resolve({ status: 0, body: err.message }));
    req.end(body);
  });
}

const accepted = (r: { status: number; body: string }) => r.status === 200 && r.body.includes('"code":0,');

// --- Sampling --------------------------------------------------------------------------------------------

const DATABASES: [string, ServiceName][] = [
  ['gateway', 'gateway'],
  ['payments', 'payments'],
  ['transfers', 'transfers'],
  ['router', 'upstream-router'],
  ['ledger', 'ledger'],
  ['notifier', 'notifier'],
  ['sandbox', 'upstream-sandbox'],
];

/** Tables a retention job bounds (docs/deploy.md "Retention"), by database. */
const BOUNDED: Record<string, string[]> = {
  gateway: ['nonces', 'rate_windows'],
  payments: ['outbox', 'pay_order_status_history'],
  transfers: ['outbox'],
  router: ['outbox', 'upstream_notices'],
  ledger: ['outbox', 'statement_lines'],
  notifier: ['delivery_attempts', 'deliveries'],
  nats: ['events stream'],
  sandbox: ['notices', 'deposits', 'payouts', 'virtual_accounts'],
};
/** Kept CASHIER_LINK_RETENTION_DAYS past the latest expiry an order can have (30 days): longer than any soak. */
const KEPT_PAST_EXPIRY = new Set(['gateway.cashier_links']);
const isBounded = (table: string) => {
  const [db, name] = table.split('.') as [string, string];
  return BOUNDED[db]?.includes(name) ?? false;
};
/** With the default 24 h expiry, the sandbox keeps every unpaid order's account open through the run. */
const openAccounts = (table: string) => table === 'sandbox.virtual_accounts' && EXPIRE_S === 0;
const kindOf = (table: string) =>
  openAccounts(table)
    ? 'open until the order expires (24 h)'
    : isBounded(table)
      ? 'bounded'
      : KEPT_PAST_EXPIRY.has(table)
        ? 'kept 30 days + its retention'
        : 'record';

interface Window {
  pay: number[];
  transfer: number[];
  query: number[];
  callback: number[];
  transferCallback: number[];
  errors: number;
  lagMs: number;
}
const emptyWindow = (): Window => ({
  pay: [],
  transfer: [],
  query: [],
  callback: [],
  transferCallback: [],
  errors: 0,
  lagMs: 0,
});

export interface Sample {
  /** Minutes since the soak started (the end of the window). */
  t: number;
  rssMb: Record<string, number>;
  payP50: number;
  payP99: number;
  transferP99: number;
  queryP99: number;
  callbackP99: number;
  transferCallbackP99: number;
  requests: number;
  callbacks: number;
  errors: number;
  lagMs: number;
  inflight: number;
  /**
   * CPU over the window, % of all cores: the machine busy, this run's services with the load generator and its
   * signer, and Postgres (every database on the server: other work on the machine shows here and in the rest).
   */
  cpu: { busy: number; ours: number; postgres: number };
  /** `<database>.<table>` → heap, TOAST and indexes, bytes; rows (exact for the tables retention bounds). */
  tables: Record<string, { bytes: number; rows: number }>;
}

async function statusKb(pid: number, field: string): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

// --- The run -----------------------------------------------------------------------------------------------

export async function runSoakBench(opts: {
  startOptions: Omit<StackOptions, 'natsUrl' | 'databasePrefix' | 'ports'>;
  natsUrl: string;
  prefix: string;
  workDir: string;
  log: (line?: string) => void;
}): Promise<void> {
  const { log, prefix, workDir } = opts;
  const days = String(RETENTION_S / 86_400);
  // Every retention of the run, as docs/deploy.md "Retention" names them; the *_DAYS settings take fractions.
  const retentionEnv: Record<string, string> = {
    RETENTION_INTERVAL_MS: String(RETENTION_INTERVAL_MS),
    OUTBOX_RETENTION_DAYS: days,
    STATUS_HISTORY_RETENTION_DAYS: days,
    NOTICE_RETENTION_DAYS: days,
    CALLBACK_ATTEMPT_RETENTION_DAYS: days,
    CALLBACK_DELIVERY_RETENTION_DAYS: days,
    CASHIER_LINK_RETENTION_DAYS: days,
    EVENTS_MAX_AGE_DAYS: days,
    SANDBOX_RETENTION_DAYS: days,
    STATEMENT_RETENTION_DAYS: days,
    NONCE_TTL_S: String(Math.max(1, Math.round(RETENTION_S))),
    RATE_WINDOW_RETENTION_S: '60',
  };
  const serviceLog = new Map<string, number>();
  const serviceErrors: string[] = [];
  const stack: Stack = await startStack({
    ...opts.startOptions,
    env: { ...opts.startOptions.env, ...retentionEnv },
    onLog: (service, line) => {
      const level = /"level":"(\w+)"/.exec(line)?.[1];
      if (level !== 'warn' && level !== 'error' && level !== 'fatal') return;
      serviceLog.set(`${service} ${level}`, (serviceLog.get(`${service} ${level}`) ?? 0) + 1);
      if (level !== 'warn' && serviceErrors.length < 5)
        serviceErrors.push(`${service}: ${line.slice(0, 300)}`);
    },
    natsUrl: opts.natsUrl,
    databasePrefix: prefix,
    ports: 'random',
  });
  const clients = new Map<string, pg.Client>();
  const nats: NatsConnection = await connectNats({ servers: opts.natsUrl, name: 'soak' });
  const server = new pg.Client({ connectionString: stack.databaseUrl('gateway') });
  let signer: ReturnType<typeof startSigner> | undefined;
  let sink: http.Server | undefined;
  try {
    await server.connect();
    for (const [db, service] of DATABASES) {
      const client = new pg.Client({ connectionString: stack.databaseUrl(service) });
      await client.connect();
      clients.set(db, client);
    }
    const merchant: BenchMerchant = await benchMerchant(stack.urls.admin);
    // Transfers draw on the merchant's balance: fund it once, far above what the run pays out.
    await fundMerchant(stack, merchant, 'soak');

    // Step 1: the saturating create-pay rate (closed loop, as the main bench measures it).
    await closedLoop(stack.urls.gateway, payRequests(merchant, 300), 8);
    const probe = await closedLoop(stack.urls.gateway, payRequests(merchant, 500), SATURATION_CONCURRENCY);
    const satCount = Math.min(
      20_000,
      Math.max(1_000, Math.round(1.5 * probe.throughput * SATURATION_SECONDS)),
    );
    const saturation = await closedLoop(
      stack.urls.gateway,
      payRequests(merchant, satCount),
      SATURATION_CONCURRENCY,
    );
    const rate = process.env['SOAK_RATE']
      ? num('SOAK_RATE', 1)
      : Math.max(1, Math.floor(saturation.throughput / 2));
    const transferRate = rate * TRANSFER_SHARE;
    const queryRate = rate * QUERY_SHARE;
    process.stdout.write(
      `saturation ${fmt(saturation.throughput, 0)} req/s; soak at ${rate} create-pay/s for ${MINUTES} min\n`,
    );

    // The merchant's endpoint: pays' and transfers' callbacks, timed at receipt.
    const callbackAt = new Map<string, number>();
    const paidAt = new Map<string, number>();
    const transferAt = new Map<string, number>();
    let window = emptyWindow();
    let callbacks = 0;
    const settle = (key: string) => {
      const cb = callbackAt.get(key);
      const at = paidAt.get(key) ?? transferAt.get(key);
      if (cb === undefined || at === undefined) return;
      (paidAt.has(key) ? window.callback : window.transferCallback).push(Math.max(0, cb - at));
      paidAt.delete(key);
      transferAt.delete(key);
      callbackAt.delete(key);
    };
    sink = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const now = performance.now();
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString()) as {
            data: { orderNo?: string; transferNo?: string; status?: string };
          };
          const key = body.data.orderNo ?? body.data.transferNo;
          // A transfer calls back once it ends (success here); the first callback per order or transfer counts.
          if (key && !callbackAt.has(key)) {
            callbacks += 1;
            callbackAt.set(key, now);
            settle(key);
          }
        } catch {
          // not a callback body: answered all the same
        }
        res.end('SUCCESS');
      });
    });
    await new Promise<void>((resolve) => sink!.listen(0, '127.0.0.1', resolve));
    const sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}`;
    signer = startSigner({ mchNo: merchant.mchNo, privateKeyPem: merchant.privateKeyPem, sinkUrl });

    // Step 2: the soak. An open loop over three schedules (pays, transfers, queries), chunk by chunk.
    const gateway = new URL(stack.urls.gateway);
    const sandbox = new URL(stack.urls.sandbox);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    const sandboxAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const refusals: string[] = [];
    const errors = { pay: 0, transfer: 0, query: 0, deposit: 0 };
    const sent = { pay: 0, transfer: 0, query: 0, deposit: 0 };
    let inflight = 0;
    const refuse = (kind: keyof typeof errors, r: { status: number; body: string }) => {
      errors[kind] += 1;
      window.errors += 1;
      if (refusals.length < 5) refusals.push(`${kind}: HTTP ${r.status} ${r.body.slice(0, 200)}`);
    };
    const send = async (kind: 'pay' | 'transfer' | 'query', body: string, paid: boolean) => {
      inflight += 1;
      sent[kind] += 1;
      const path =
        kind === 'pay'
          ? '/gateway/pay'
          : kind === 'transfer'
            ? '/gateway/transfer'
            : '/gateway/query/payOrder';
      const t0 = performance.now();
      const r = await post(agent, gateway, path, body);
      const t1 = performance.now();
      try {
        if (!accepted(r)) return refuse(kind, r);
        window[kind].push(t1 - t0);
        if (kind === 'transfer') {
          const { transferNo } = (JSON.parse(r.body) as { data: { transferNo: string } }).data;
          transferAt.set(transferNo, t1);
          settle(transferNo);
        }
        if (kind === 'pay' && paid) {
          const { orderNo, payBody } = (JSON.parse(r.body) as { data: { orderNo: string; payBody: string } })
            .data;
          const { clabe } = JSON.parse(payBody) as { clabe: string };
          sent.deposit += 1;
          const d = await post(
            sandboxAgent,
            sandbox,
            '/sandbox/deposits',
            JSON.stringify({ clabe, amount: AMOUNT }),
          );
          if (d.status !== 201) return refuse('deposit', d);
          paidAt.set(orderNo, performance.now());
          settle(orderNo);
        }
      } finally {
        inflight -= 1;
      }
    };

    const samples: Sample[] = [];
    const raw: Window[] = [];
    const totalS = MINUTES * 60;
    const chunks = Math.ceil(totalS / CHUNK_S);
    const count = (n: number, perS: number) =>
      Math.floor((n + 1) * CHUNK_S * perS) - Math.floor(n * CHUNK_S * perS);
    const ask = (n: number) =>
      signer!.ask({
        chunk: n,
        pays: count(n, rate),
        transfers: count(n, transferRate),
        queries: n < 2 ? 0 : count(n, queryRate),
      });
    // The first chunks are signed before the clock starts; later ones while the ones before are sent.
    await Promise.all([ask(0), ask(1)]);
    let started = 0;

    const dispatch = async () => {
      for (let n = 0; n < chunks; n++) {
        void ask(n + 1);
        void ask(n + 2);
        const chunk = await ask(n);
        signer!.take(n);
        const events: { due: number; kind: 'pay' | 'transfer' | 'query'; body: string; paid: boolean }[] = [];
        const at = (first: number, i: number, perS: number) => started + ((first + i) * 1000) / perS;
        const firstPay = Math.floor(n * CHUNK_S * rate);
        for (const [i, p] of chunk.pays.entries())
          events.push({ due: at(firstPay, i, rate), kind: 'pay', body: p.body, paid: p.paid });
        const firstTransfer = Math.floor(n * CHUNK_S * transferRate);
        for (const [i, body] of chunk.transfers.entries())
          events.push({ due: at(firstTransfer, i, transferRate), kind: 'transfer', body, paid: false });
        const firstQuery = Math.floor(n * CHUNK_S * queryRate);
        for (const [i, body] of chunk.queries.entries())
          events.push({ due: at(firstQuery, i, queryRate), kind: 'query', body, paid: false });
        events.sort((a, b) => a.due - b.due);
        for (const event of events) {
          const wait = event.due - performance.now();
          if (wait > 1) await sleep(wait);
          window.lagMs = Math.max(window.lagMs, performance.now() - event.due);
          void send(event.kind, event.body, event.paid);
        }
      }
    };

    const cpuNamed = () => ({
      ...(stack.pids() as Record<string, number>),
      generator: process.pid,
      signer: signer!.pid() ?? -1,
    });
    let cpuBefore: { at: number; busy: number; snapshot: CpuSnapshot } = {
      at: performance.now(),
      busy: await machineBusyMs(),
      snapshot: await cpuSnapshot(cpuNamed()),
    };
    const sample = async (t: number): Promise<Sample> => {
      const w = window;
      window = emptyWindow();
      raw.push(w);
      const cpuNow = {
        at: performance.now(),
        busy: await machineBusyMs(),
        snapshot: await cpuSnapshot(cpuNamed()),
      };
      const used = cpuBetween(cpuBefore.snapshot, cpuNow.snapshot);
      const capacity = (cpuNow.at - cpuBefore.at) * os.cpus().length;
      const pct = (ms: number) => (100 * ms) / capacity;
      const cpu = {
        busy: pct(cpuNow.busy - cpuBefore.busy),
        ours: pct(
          [...used]
            .filter(([name]) => name !== 'postgres' && name !== 'nats')
            .reduce((a, [, ms]) => a + ms, 0),
        ),
        postgres: pct(used.get('postgres') ?? 0),
      };
      cpuBefore = cpuNow;
      const rssMb: Record<string, number> = {};
      for (const p of stack.processes()) rssMb[p.service] = (await statusKb(p.pid, 'VmRSS')) / 1024;
      // The run's own Postgres backends: their private memory (a backend's VmRSS also counts the shared buffers
      // it touched).
      const { rows: backends } = await server.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname like $1',
        [`${prefix}%`],
      );
      let pgKb = 0;
      for (const { pid } of backends) pgKb += (await statusKb(pid, 'RssAnon')) || 0;
      rssMb['postgres backends'] = pgKb / 1024;
      const tables: Sample['tables'] = {};
      // The events stream the stack declared (packages/stack names it after the prefix): bytes and messages.
      const stream = await (await jetstreamManager(nats)).streams.info(`${prefix.toUpperCase()}_EVENTS`);
      tables['nats.events stream'] = { bytes: stream.state.bytes, rows: stream.state.messages };
      for (const [db, client] of clients) {
        // n_live_tup: the statistics' count of live rows (inserts less deletes), current without an ANALYZE.
        const { rows } = await client.query<{ name: string; bytes: number; rows: number }>(
          `select relname as name, pg_total_relation_size(relid)::float8 as bytes, n_live_tup::float8 as rows
             from pg_stat_user_tables where schemaname = 'public' and relname not like 'kysely%'`,
        );
        for (const r of rows) {
          let rowsNow = r.rows;
          if (BOUNDED[db]?.includes(r.name))
            rowsNow = Number((await client.query(`select count(*)::float8 as n from "${r.name}"`)).rows[0].n);
          tables[`${db}.${r.name}`] = { bytes: r.bytes, rows: rowsNow };
        }
      }
      return {
        t,
        rssMb,
        payP50: percentile(w.pay, 50),
        payP99: percentile(w.pay, 99),
        transferP99: percentile(w.transfer, 99),
        queryP99: percentile(w.query, 99),
        callbackP99: percentile(w.callback, 99),
        transferCallbackP99: percentile(w.transferCallback, 99),
        requests: w.pay.length + w.transfer.length + w.query.length,
        callbacks: w.callback.length + w.transferCallback.length,
        errors: w.errors,
        lagMs: w.lagMs,
        cpu,
        inflight,
        tables,
      };
    };

    const sampler = async () => {
      const count = Math.floor(totalS / SAMPLE_S);
      for (let k = 1; k <= count; k++) {
        await sleep(started + k * SAMPLE_S * 1000 - performance.now());
        const s = await sample((k * SAMPLE_S) / 60);
        samples.push(s);
        process.stdout.write(
          `${fmt(s.t, 2)} min: pay p99 ${fmt(s.payP99, 1)} ms, callback p99 ${fmt(s.callbackP99, 0)} ms, errors ${s.errors}, lag ${fmt(s.lagMs, 0)} ms, in flight ${s.inflight}\n`,
        );
      }
    };
    // Autovacuum's part, when the server has it off: its default thresholds, checked every VACUUM_S.
    const autovacuum = (await server.query<{ autovacuum: string }>('show autovacuum')).rows[0]?.autovacuum;
    const vacuumed = { tables: 0, ms: 0 };
    const vacuumer = async () => {
      if (autovacuum === 'on' || VACUUM_S === 0) return;
      const vacuumClients = new Map<string, pg.Client>();
      try {
        for (const [db, service] of DATABASES) {
          const client = new pg.Client({ connectionString: stack.databaseUrl(service) });
          await client.connect();
          vacuumClients.set(db, client);
        }
        for (let k = 1; k * VACUUM_S < totalS; k++) {
          await sleep(started + k * VACUUM_S * 1000 - performance.now());
          for (const client of vacuumClients.values()) {
            const { rows } = await client.query<{ name: string }>(
              `select relname as name from pg_stat_user_tables
                where schemaname = 'public'
                  and (n_dead_tup > 50 + 0.2 * n_live_tup or n_ins_since_vacuum > 1000 + 0.2 * n_live_tup
                       or n_mod_since_analyze > 50 + 0.1 * n_live_tup)`,
            );
            for (const { name } of rows) {
              const t0 = performance.now();
              await client.query(`vacuum (analyze) "${name}"`);
              vacuumed.tables += 1;
              vacuumed.ms += performance.now() - t0;
            }
          }
        }
      } finally {
        for (const client of vacuumClients.values()) await client.end().catch(() => undefined);
      }
    };
    cpuBefore = {
      at: performance.now(),
      busy: await machineBusyMs(),
      snapshot: await cpuSnapshot(cpuNamed()),
    };
    const ownCpu = process.cpuUsage();
    started = performance.now();
    await Promise.all([dispatch(), sampler(), vacuumer()]);
    const generatorCpu = process.cpuUsage(ownCpu);
    // What is still under way: answers, then callbacks of the last payments (not counted in the windows).
    const drainUntil = Date.now() + 60_000;
    while (inflight > 0 && Date.now() < drainUntil) await sleep(50);
    while (paidAt.size > 0 && Date.now() < drainUntil) await sleep(100);
    const missing = { callbacks: paidAt.size, transferCallbacks: transferAt.size };
    agent.destroy();
    sandboxAgent.destroy();

    // --- Report ---------------------------------------------------------------------------------------------
    const cpu = os.cpus();
    const T = samples.at(-1)?.t ?? MINUTES;
    const [early, late]: [[number, number], [number, number]] =
      T >= 12
        ? [
            [2, 7],
            [T - 5, T],
          ]
        : [
            [0, T / 3],
            [(2 * T) / 3, T],
          ];
    const within = ([a, b]: [number, number]) => samples.filter((s) => s.t > a + 1e-9 && s.t <= b + 1e-9);
    const rawWithin = ([a, b]: [number, number]) =>
      raw.filter((_, i) => samples[i]!.t > a + 1e-9 && samples[i]!.t <= b + 1e-9);
    const periods =
      T >= 12
        ? 'minutes 2–7 against the last 5 minutes'
        : `the first third (0–${fmt(T / 3, 1)} min) against the last (${fmt((2 * T) / 3, 1)}–${fmt(T, 1)} min)`;

    log(
      `## Soak: ${fmt(MINUTES, MINUTES % 1 === 0 ? 0 : 1)} minutes at ${process.env['SOAK_RATE'] ? 'SOAK_RATE' : 'half the saturating create-pay rate'}`,
    );
    log();
    log(
      `Run ${new Date().toISOString()} on ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}; load generator, services, Postgres and NATS on this machine.`,
    );
    log();
    log(
      `Rate: create-pay saturates at ${fmt(saturation.throughput, 0)} req/s on this stack (closed loop, ${SATURATION_CONCURRENCY} in flight, ${saturation.requests} requests in ${fmt(saturation.seconds, 0)} s, p99 ${fmt(saturation.p99, 1)} ms); the soak sends ${rate} create-pay/s${process.env['SOAK_RATE'] ? ' (SOAK_RATE)' : ' (half of it)'}, open loop. Mixed in: ${fmt(100 * PAID_SHARE, 0)} % of the orders paid through the sandbox (POST /sandbox/deposits once the create answers; the callback goes to a loopback endpoint and its delay is receipt − deposit answer), ${fmt(transferRate, 1)} transfers/s (each with a callback), ${fmt(queryRate, 1)} queries/s of orders a few seconds old. Orders expire ${EXPIRE_S > 0 ? `${EXPIRE_S} s after they are signed (expiredTime), so the expiry sweep ends the unpaid ones during the run` : 'after the default 24 h'}. Requests are signed ${CHUNK_S} s of traffic at a time by a child process, a few seconds before they are due.`,
    );
    log();
    log(
      `Retention (docs/deploy.md "Retention"), every window ${RETENTION_S} s: ${Object.entries(retentionEnv)
        .map(([k, v]) => `\`${k}=${v}\``)
        .join(
          ', ',
        )}. The \`*_DAYS\` settings take fractions of a day.${RETENTION_S < 300 ? ' `NONCE_TTL_S` below the 300 s `reqTime` window leaves a replay gap no deployment should have; here it makes the nonce retention act within the run.' : ''} A cashier link goes 30 days (the longest \`expiredTime\`) plus its retention after it was written, so \`gateway.cashier_links\` is reported as growing, like the record. \`nats.events stream\` is the JetStream stream (bytes and messages), trimmed by \`EVENTS_MAX_AGE_DAYS\`.${EXPIRE_S === 0 ? ' With orders open 24 h, `sandbox.virtual_accounts` holds the open account of every unpaid order of the run (its retention takes accounts once they are finished): reported as growing too.' : ''}`,
    );
    log();
    log(
      `Sent ${sent.pay} create-pay, ${sent.deposit} deposits, ${sent.transfer} transfers, ${sent.query} queries; errors: create-pay ${errors.pay}, deposits ${errors.deposit}, transfers ${errors.transfer}, queries ${errors.query}. Callbacks received ${callbacks}; after a drain of up to 60 s, ${missing.callbacks} paid orders and ${missing.transferCallbacks} transfers had none. Load generator CPU: ${fmt((generatorCpu.user + generatorCpu.system) / 1000 / (T * 60), 0)} ms/s sending, ${fmt(signer.signMs() / (T * 60), 0)} ms/s signing.`,
    );
    if (refusals.length > 0)
      log(`First refusals: ${refusals.map((r) => `\`${r.replace(/\|/g, '\\|')}\``).join('; ')}`);
    const logged = [...serviceLog].map(([k, n]) => `${k} ${n}`).join(', ');
    log(`Service log lines at warn or above: ${logged || 'none'}.`);
    log(
      autovacuum === 'on'
        ? 'Autovacuum is on: the server vacuums the tables itself.'
        : `Autovacuum is off on this server: the soak stood in for it (SOAK_VACUUM_S=${VACUUM_S}): every ${VACUUM_S} s, \`VACUUM (ANALYZE)\` of each table past autovacuum's default thresholds (dead rows over 50 + 20 % of live rows, rows inserted since the last vacuum over 1000 + 20 %, changed since the last analyze over 50 + 10 %): ${vacuumed.tables} table vacuums, ${fmt(vacuumed.ms / 1000, 1)} s in all.`,
    );
    if (serviceErrors.length > 0)
      log(`First errors: ${serviceErrors.map((e) => `\`${e.replace(/\|/g, '\\|')}\``).join('; ')}`);
    log();

    // At fixed minutes (scaled to the run's length when it is not 30 minutes).
    const marks = [
      ...new Set(
        [1, 2, 5, 10, 15, 20, 25, 30].map((m) => {
          const target = (m * T) / 30;
          return samples.reduce(
            (best, s, i) => (Math.abs(s.t - target) < Math.abs(samples[best]!.t - target) ? i : best),
            0,
          );
        }),
      ),
    ].map((i) => samples[i]!);
    const processes = Object.keys(samples[0]?.rssMb ?? {});
    log(`At these minutes (each latency over the ${SAMPLE_S} s window ending there):`);
    log();
    log(`| series | ${marks.map((s) => `${fmt(s.t, s.t < 10 ? 1 : 0)} min`).join(' | ')} |`);
    log(`|---|${marks.map(() => '---').join('|')}|`);
    for (const p of processes)
      log(`| RSS ${p} MB | ${marks.map((s) => fmt(s.rssMb[p] ?? Number.NaN, 0)).join(' | ')} |`);
    const latencyRows: [string, (s: Sample) => number, number][] = [
      ['create-pay p50 ms', (s) => s.payP50, 1],
      ['create-pay p99 ms', (s) => s.payP99, 1],
      ['transfer p99 ms', (s) => s.transferP99, 1],
      ['query p99 ms', (s) => s.queryP99, 1],
      ['pay callback delay p99 ms', (s) => s.callbackP99, 0],
      ['transfer callback delay p99 ms', (s) => s.transferCallbackP99, 0],
      ['requests answered', (s) => s.requests, 0],
      ['errors', (s) => s.errors, 0],
      ['generator lag, max ms', (s) => s.lagMs, 0],
      ['CPU busy, machine %', (s) => s.cpu.busy, 0],
      ['CPU this run (services, generator) %', (s) => s.cpu.ours, 0],
      ['CPU Postgres (whole server) %', (s) => s.cpu.postgres, 0],
    ];
    for (const [name, get, digits] of latencyRows)
      log(`| ${name} | ${marks.map((s) => fmt(get(s), digits)).join(' | ')} |`);
    log();
    const last = samples.at(-1);
    const tableNames = Object.keys(last?.tables ?? {}).sort();
    const shown = tableNames.filter((t) => isBounded(t) || (last?.tables[t]?.bytes ?? 0) >= 1024 * 1024);
    log(
      'Tables (heap, TOAST and indexes, MB; rows exact for the tables retention bounds, estimates otherwise):',
    );
    log();
    log(`| table | kind | ${marks.map((s) => `${fmt(s.t, s.t < 10 ? 1 : 0)} min`).join(' | ')} |`);
    log(`|---|---|${marks.map(() => '---').join('|')}|`);
    for (const t of shown)
      log(
        `| ${t} | ${kindOf(t)} | ${marks
          .map((s) => {
            const v = s.tables[t];
            return v ? `${fmt(v.bytes / 2 ** 20, 2)} (${fmt(v.rows, 0)})` : '-';
          })
          .join(' | ')} |`,
      );
    log();

    // Verdicts.
    const [e, l] = [within(early), within(late)];
    const [re, rl] = [rawWithin(early), rawWithin(late)];
    const change = (a: number, b: number) => (100 * (b - a)) / a;
    log(
      `Verdicts, ${periods}. Flat: RSS within ±10 % (mean of the samples); a p99 within ±20 % or ±2 ms (over every request of the period); a table retention bounds within +20 % or +1 MB (mean size). Kept tables grow with traffic by design: their growth per minute over the last period instead.`,
    );
    log();
    log('| series | early | late | change | verdict |');
    log('|---|---|---|---|---|');
    const verdict = (a: number, b: number, pct: number, abs: number) =>
      !Number.isFinite(a) || !Number.isFinite(b)
        ? '-'
        : Math.abs(b - a) <= abs || Math.abs(change(a, b)) <= pct
          ? 'flat'
          : b < a
            ? 'lower'
            : '**grows**';
    for (const p of processes) {
      const [a, b] = [mean(e.map((s) => s.rssMb[p]!)), mean(l.map((s) => s.rssMb[p]!))];
      log(
        `| RSS ${p} MB | ${fmt(a, 0)} | ${fmt(b, 0)} | ${fmt(change(a, b), 0)} % | ${verdict(a, b, 10, 0)} |`,
      );
    }
    const latencySeries: [string, keyof Window][] = [
      ['create-pay p99 ms', 'pay'],
      ['transfer p99 ms', 'transfer'],
      ['query p99 ms', 'query'],
      ['pay callback delay p99 ms', 'callback'],
      ['transfer callback delay p99 ms', 'transferCallback'],
    ];
    for (const [name, key] of latencySeries) {
      const a = percentile(
        re.flatMap((w) => w[key] as number[]),
        99,
      );
      const b = percentile(
        rl.flatMap((w) => w[key] as number[]),
        99,
      );
      log(`| ${name} | ${fmt(a, 1)} | ${fmt(b, 1)} | ${fmt(change(a, b), 0)} % | ${verdict(a, b, 20, 2)} |`);
    }
    const lateStart = l[0] ? (samples[samples.indexOf(l[0]) - 1] ?? l[0]) : undefined;
    for (const t of shown) {
      const mb = (s: Sample) => (s.tables[t]?.bytes ?? Number.NaN) / 2 ** 20;
      const [a, b] = [mean(e.map(mb)), mean(l.map(mb))];
      if (isBounded(t) && !openAccounts(t)) {
        const v =
          Number.isFinite(a) && Number.isFinite(b)
            ? b - a <= 1 || change(a, b) <= 20
              ? 'flat'
              : '**grows**'
            : '-';
        log(`| ${t} MB | ${fmt(a, 2)} | ${fmt(b, 2)} | ${fmt(change(a, b), 0)} % | ${v} |`);
      } else if (lateStart && last) {
        const minutes = last.t - lateStart.t;
        const perMin = (mb(last) - mb(lateStart)) / minutes;
        const rowsPerMin = ((last.tables[t]?.rows ?? 0) - (lateStart.tables[t]?.rows ?? 0)) / minutes;
        log(
          `| ${t} MB | ${fmt(a, 2)} | ${fmt(b, 2)} | ${fmt(change(a, b), 0)} % | ${kindOf(t)}: ${fmt(perMin, 2)} MB/min, ${fmt(rowsPerMin, 0)} rows/min |`,
        );
      }
    }
    log();

    // Plot and raw samples.
    const series = (name: string, get: (s: Sample) => number) => ({
      name,
      points: samples.map((s) => [s.t, get(s)] as [number, number]),
    });
    const top = (names: string[], value: (v: { bytes: number; rows: number }) => number) =>
      names
        .sort((a, b) => (last?.tables[b]?.bytes ?? 0) - (last?.tables[a]?.bytes ?? 0))
        .slice(0, 10)
        .map((t) => series(t, (s) => (s.tables[t] ? value(s.tables[t]) : Number.NaN)));
    const mbOf = (v: { bytes: number }) => v.bytes / 2 ** 20;
    const boundedTables = tableNames.filter((t) => isBounded(t) && !openAccounts(t));
    const panels: Panel[] = [
      {
        title: 'RSS per process',
        yLabel: 'MB',
        series: processes.map((p) => series(p, (s) => s.rssMb[p] ?? Number.NaN)),
      },
      {
        title: `Latency per ${SAMPLE_S} s window`,
        yLabel: 'ms',
        series: [
          series('create-pay p50', (s) => s.payP50),
          series('create-pay p99', (s) => s.payP99),
          series('transfer p99', (s) => s.transferP99),
          series('query p99', (s) => s.queryP99),
          series('pay callback delay p99', (s) => s.callbackP99),
          series('transfer callback p99', (s) => s.transferCallbackP99),
        ],
      },
      {
        title: `Tables retention bounds (window ${RETENTION_S} s)`,
        yLabel: 'MB',
        series: top(boundedTables, mbOf),
      },
      {
        title: 'Tables kept (the record, and cashier links)',
        yLabel: 'MB',
        series: top(
          tableNames.filter((t) => !boundedTables.includes(t)),
          mbOf,
        ),
      },
      {
        title: 'Rows of the tables retention bounds (log scale)',
        yLabel: 'rows',
        yScale: 'log',
        series: top(boundedTables, (v) => v.rows),
      },
      {
        title: `Traffic per ${SAMPLE_S} s window`,
        yLabel: 'per second',
        series: [
          series('answered requests /s', (s) => s.requests / SAMPLE_S),
          series('callbacks /s', (s) => s.callbacks / SAMPLE_S),
          series('errors /s', (s) => s.errors / SAMPLE_S),
        ],
      },
      {
        title: `CPU per ${SAMPLE_S} s window (% of ${os.cpus().length} cores)`,
        yLabel: '%',
        series: [
          series('machine busy', (s) => s.cpu.busy),
          series('this run: services, generator', (s) => s.cpu.ours),
          series('Postgres (whole server)', (s) => s.cpu.postgres),
        ],
      },
    ];
    const svg = chartSvg(panels, {
      title: `Soak: ${rate} create-pay/s for ${fmt(T, 0)} min, ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}`,
      xLabel: 'minutes since the soak started',
    });
    writeFileSync(join(workDir, 'soak.svg'), svg);
    const png = join(workDir, 'soak.png');
    writeFileSync(png, renderPng(svg));
    writeFileSync(
      join(workDir, 'soak-samples.json'),
      `${JSON.stringify({ rate, saturation, retentionEnv, samples }, null, 1)}\n`,
    );
    if (process.env['SOAK_WRITE_DOCS'] === '1') copyFileSync(png, join(REPO_ROOT, 'docs', 'soak.png'));
    log(
      `Plot: ${process.env['SOAK_WRITE_DOCS'] === '1' ? 'docs/soak.png (copied from ' : ''}${png}${process.env['SOAK_WRITE_DOCS'] === '1' ? ')' : ''}; samples every ${SAMPLE_S} s in ${join(workDir, 'soak-samples.json')}.`,
    );
  } finally {
    signer?.stop();
    if (sink) {
      sink.closeAllConnections();
      await new Promise((r) => sink!.close(r));
    }
    for (const client of clients.values()) await client.end().catch(() => undefined);
    await server.end().catch(() => undefined);
    await nats.close().catch(() => undefined);
    await stack.stop();
  }
}
