// The growth part of the bench (BENCH_ONLY=growth, issue 22): the same figures on empty stores and on stores
// filled to production-like volume, side by side from one run. A stack starts on fresh databases and the
// figures are measured (create-pay, query, transfer, callback delivery); it stops, each sweep's round is timed
// straight on its database; every store is filled in SQL (bench/growth-fill.ts, GROWTH_SCALE scales it),
// vacuumed and analyzed; a stack starts again on the filled databases and the same figures, sweep rounds,
// plans and sizes are measured. Targets: every throughput within 15 % and every p99 within 20 % of the empty
// figure, and every sweep's round costing what is due, not what the table holds.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createDb } from '@agentpay/db';
import { CLIENT_OPTIONS, call, loadProtos } from '@agentpay/proto';
import { type Ports, type Stack, type StackOptions, startStack } from '@agentpay/stack';
import { formatWireTime, parsePrivateKey, signObject } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database as LedgerDb } from '../services/ledger/src/db/schema.js';
import { checkLedger as ledgerCheck } from '../services/ledger/src/ledger/check.repository.js';
import type { Database as NotifierDb } from '../services/notifier/src/db/schema.js';
import {
  claimDueDeliveries,
  msUntilNextDue,
} from '../services/notifier/src/deliveries/delivery-lease.repository.js';
import type { Database as PaymentsDb } from '../services/payments/src/db/schema.js';
import { claimExpired } from '../services/payments/src/pay-orders/pay-order.repository.js';
import type { Database as TransfersDb } from '../services/transfers/src/db/schema.js';
import { markChecked, progressDueForCheck } from '../services/transfers/src/transfers/transfer.repository.js';
import { type FillReport, fillStores, MERCHANTS, type Store, volumes } from './growth-fill.js';
import { closedLoop, cpuBetween, cpuSnapshot, type LoadResult, ok, type Prepared } from './load.js';
import { type BenchMerchant, benchMerchant, payRequests } from './setup.js';

const scale = Number(process.env['GROWTH_SCALE'] ?? '1');
/** Requests per measuring window; three windows per figure, the median reported. */
const PER_WINDOW = Number(process.env['GROWTH_REQUESTS'] ?? '1000');
const WINDOWS = 3;
const CONCURRENCY = 16;
/** Rows made due for each sweep's timed round, whatever the scale: a round should cost this, not the table. */
const DUE = Number(process.env['GROWTH_DUE'] ?? '1000');
/** Callback changes per second offered in the callback windows. */
const CALLBACK_RATE = 300;
const CALLBACK_SECONDS = 5;
const CALLBACK_ENDPOINTS = 10;
const CLABE = '002010077777777771';
/** The services' defaults the sweeps run with (their config.ts). */
const EXPIRY_BATCH = 50;
const EXPIRY_LEASE_MS = 120_000;
const RECONCILE_AFTER_MS = 300_000;
const NOTIFY_SLOTS = 512;
const NOTIFY_PER_ENDPOINT = 64;
const NOTIFY_LEASE_MS = 45_000;

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

interface Figure {
  throughput: number;
  p99: number;
  errors: number;
}

interface Figures {
  pay: Figure;
  query: Figure;
  transfer: Figure;
  callback: Figure;
}

interface SweepTiming {
  name: string;
  /** A round with nothing due, ms (median of five). */
  idleMs: number;
  /** A round over `due` due rows, ms, and how many batches it took. */
  dueMs: number;
  due: number;
  batches: number;
  plan?: string;
}

function transferRequests(merchant: BenchMerchant, count: number): Prepared[] {
  const key = parsePrivateKey(merchant.privateKeyPem);
  const reqTime = formatWireTime(new Date(), 'America/Mexico_City');
  return Array.from({ length: count }, () => {
    const body: Record<string, unknown> = {
      mchNo: merchant.mchNo,
      reqTime,
      nonceStr: randomBytes(12).toString('hex'),
      bizTransferNo: `BT${randomBytes(10).toString('hex')}`,
      amount: 1,
      title: 'Benchmark payout',
      reason: 'bench',
      payeeType: 'spei_transfer',
      payeeAccount: CLABE,
      payeeName: 'Ana Perez',
    };
    return { path: '/gateway/transfer', body: JSON.stringify({ ...body, sign: signObject(body, key) }) };
  });
}

function queryRequests(merchant: BenchMerchant, bizOrderNos: string[], count: number): Prepared[] {
  const key = parsePrivateKey(merchant.privateKeyPem);
  const reqTime = formatWireTime(new Date(), 'America/Mexico_City');
  return Array.from({ length: count }, (_, i) => {
    const body: Record<string, unknown> = {
      mchNo: merchant.mchNo,
      reqTime,
      nonceStr: randomBytes(12).toString('hex'),
      bizOrderNo: bizOrderNos[(i * 7919) % bizOrderNos.length]!,
    };
    return {
      path: '/gateway/query/payOrder',
      body: JSON.stringify({ ...body, sign: signObject(body, key) }),
    };
  });
}

/** The first few refused answers of the run, for the report: an error count alone says nothing. */
const refusals: string[] = [];
const checked = (status: number, body: string) => {
  const good = ok(status, body);
  if (!good && refusals.length < 5) refusals.push(`HTTP ${status} ${body.slice(0, 200)}`);
  return good;
};

/** Three windows of a closed loop at CONCURRENCY; median throughput and median p99. */
async function windows(url: string, make: () => Prepared[]): Promise<Figure> {
  const runs: LoadResult[] = [];
  for (let w = 0; w < WINDOWS; w++) runs.push(await closedLoop(url, make(), CONCURRENCY, checked));
  return {
    throughput: median(runs.map((r) => r.throughput)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
  };
}

/**
 * Callback delivery: status changes written to the payments outbox at CALLBACK_RATE (the row a transition
 * writes), delivered to loopback endpoints; delivered/s and the p99 delay from commit to receipt.
 */
async function callbackWindows(stack: Stack, prefix: string): Promise<Figure> {
  const sent = new Map<string, number>();
  const delays = new Map<string, number>();
  const sinks: { server: Server; url: string }[] = [];
  for (let i = 0; i < CALLBACK_ENDPOINTS; i++) {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { data: { orderNo: string } };
        const at = sent.get(body.data.orderNo);
        if (at !== undefined && !delays.has(body.data.orderNo))
          delays.set(body.data.orderNo, Date.now() - at);
        res.end('SUCCESS');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    sinks.push({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/callback` });
  }
  const db = new pg.Pool({ connectionString: stack.databaseUrl('payments'), max: 2 });
  const subject = `${prefix}.events.pay.status_changed`;
  const runs: Figure[] = [];
  try {
    for (const label of ['warm', 'w1', 'w2', 'w3']) {
      sent.clear();
      delays.clear();
      const total = CALLBACK_RATE * (label === 'warm' ? 1 : CALLBACK_SECONDS);
      const batch = 10;
      const started = Date.now();
      for (let i = 0; i < total; i += batch) {
        const wait = started + (i * 1000) / CALLBACK_RATE - Date.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        const params: unknown[] = [];
        const now = new Date().toISOString();
        for (let j = 0; j < batch; j++) {
          const orderNo = `PGROWTH${label}${randomBytes(4).toString('hex')}${String(i + j).padStart(7, '0')}`;
          sent.set(orderNo, Date.now());
          const order = {
            order_no: orderNo,
            biz_order_no: `B${orderNo}`,
            mch_no: 'BENCH',
            title: 'Benchmark',
            method: 'mex_virtual_account',
            amount: '10050',
            fee: '0',
            real_amount: '10050',
            status: 'success',
            settle_status: 'not_settle',
            settle_type: 'D+1',
            pay_time: now,
            expired_time: now,
            version: '2',
          };
          const id = randomUUID();
          params.push(
            id,
            subject,
            JSON.stringify({
              event_id: id,
              mch_no: 'BENCH',
              kind: 'pay',
              order_no: orderNo,
              from_status: 'wait',
              to_status: 'success',
              version: '2',
              occurred_at: now,
              notify_url: sinks[(i + j) % sinks.length]!.url,
              traceparent: '',
              pay_order: order,
            }),
          );
        }
        const values = Array.from(
          { length: batch },
          (_, k) => `($${k * 3 + 1}, $${k * 3 + 2}, $${k * 3 + 3}::jsonb)`,
        );
        await db.query(`insert into outbox (id, subject, payload) values ${values.join(',')}`, params);
      }
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && delays.size < sent.size) await new Promise((r) => setTimeout(r, 50));
      const seconds = (Date.now() - started) / 1000;
      if (label !== 'warm')
        runs.push({
          throughput: delays.size / seconds,
          p99: percentile(
            [...delays.values()].sort((a, b) => a - b),
            99,
          ),
          errors: sent.size - delays.size,
        });
    }
  } finally {
    await db.end();
    for (const s of sinks) s.server.closeAllConnections();
    await Promise.all(sinks.map((s) => new Promise((r) => s.server.close(r))));
  }
  return {
    throughput: median(runs.map((r) => r.throughput)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
  };
}

/** Busy CPU time of the whole machine so far, ms (every core; /proc/stat, USER_HZ 100). */
async function machineBusyMs(): Promise<number> {
  const stat = await readFile('/proc/stat', 'utf8');
  const [, user, nice, system, , , irq, softirq, steal] = stat
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 10;
}

/** Where the machine's CPU went while `fn` ran: this run's processes, Postgres and NATS, and everything else. */
async function cpuShares(stack: Stack, fn: () => Promise<void>): Promise<string> {
  const named = stack.pids() as Record<string, number>;
  const before = await cpuSnapshot(named);
  const busyBefore = await machineBusyMs();
  const own = process.cpuUsage();
  const started = performance.now();
  await fn();
  const wallMs = performance.now() - started;
  const generator = process.cpuUsage(own);
  const used = cpuBetween(before, await cpuSnapshot(named));
  const busy = (await machineBusyMs()) - busyBefore;
  const capacity = wallMs * os.cpus().length;
  const postgres = used.get('postgres') ?? 0;
  const nats = used.get('nats') ?? 0;
  const ours =
    [...used]
      .filter(([name]) => name !== 'postgres' && name !== 'nats')
      .reduce((sum, [, ms]) => sum + ms, 0) +
    (generator.user + generator.system) / 1000;
  const pct = (ms: number) => `${fmt((100 * ms) / capacity, 0)} %`;
  return `machine busy ${pct(busy)} of ${os.cpus().length} cores: services and load generator ${pct(ours)}, Postgres (every database on the server) ${pct(postgres)}, NATS ${pct(nats)}, everything else ${pct(Math.max(0, busy - ours - postgres - nats))}`;
}

async function measureFigures(
  stack: Stack,
  merchant: BenchMerchant,
  bizOrderNos: string[],
  prefix: string,
): Promise<Figures & { cpu: string }> {
  // Warm-up, not reported: pools fill, the JIT settles, caches of the first requests warm.
  await closedLoop(stack.urls.gateway, payRequests(merchant, 200), 8);
  await closedLoop(stack.urls.gateway, transferRequests(merchant, 100), 8);
  await closedLoop(stack.urls.gateway, queryRequests(merchant, bizOrderNos, 200), 8);
  let figures: Figures | undefined;
  const cpu = await cpuShares(stack, async () => {
    const pay = await windows(stack.urls.gateway, () => payRequests(merchant, PER_WINDOW));
    const query = await windows(stack.urls.gateway, () => queryRequests(merchant, bizOrderNos, PER_WINDOW));
    const transfer = await windows(stack.urls.gateway, () => transferRequests(merchant, PER_WINDOW));
    const callback = await callbackWindows(stack, prefix);
    figures = { pay, query, transfer, callback };
  });
  return { ...figures!, cpu };
}

/** A Kysely on one small pool that keeps the text and parameters of the statements it ran. */
function capturingDb<DB>(url: string) {
  const statements: { sql: string; parameters: readonly unknown[] }[] = [];
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }),
    log: (event) => {
      if (event.level === 'query')
        statements.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  return { db, statements };
}

async function msOf(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function medianMs(fn: () => Promise<unknown>, times = 5): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < times; i++) runs.push(await msOf(fn));
  return median(runs);
}

/** EXPLAIN (ANALYZE, BUFFERS) of a statement with its parameters, rolled back (it may be an UPDATE). */
async function explain(
  url: string,
  statement: { sql: string; parameters: readonly unknown[] },
): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers, costs off) ${statement.sql}`,
      statement.parameters as unknown[],
    );
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await client.query('rollback').catch(() => {});
    await client.end();
  }
}

/**
 * Times a round of the expiry sweep's claim, the transfers reconciliation's query, and the notifier's claim,
 * with the services' own repository functions, straight on the stopped stack's databases: idle (nothing due),
 * then over DUE rows made due for it (removed after). The plan is of the due round's first statement.
 */
async function timeSweeps(stack: Stack, benchMchNo: string, withPlans: boolean): Promise<SweepTiming[]> {
  const out: SweepTiming[] = [];
  const admin = async (service: 'payments' | 'transfers' | 'notifier', text: string) => {
    const client = new pg.Client({ connectionString: stack.databaseUrl(service) });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };

  {
    const { db, statements } = capturingDb<PaymentsDb>(stack.databaseUrl('payments'));
    try {
      const idleMs = await medianMs(() => claimExpired(db, EXPIRY_BATCH, EXPIRY_LEASE_MS));
      const claim = statements.at(-1)!;
      await admin(
        'payments',
        `insert into pay_orders (mch_no, biz_order_no, title, method, amount, fee, real_amount, status, settle_type,
           expired_time, pay_body, route_id, upstream_ref, fingerprint, opened_at, created_at)
         select '${benchMchNo}', 'GDUE' || g, 'Due', 'mex_virtual_account', 10050, 100, 9950, 'wait', 'D+1',
           now() - g * interval '1 second', '{}', 'sandbox-default', 'SBXDUE' || g, md5(g::text), now() - interval '1 day',
           now() - interval '1 day'
         from generate_series(1, ${DUE}) g`,
      );
      const plan = withPlans ? await explain(stack.databaseUrl('payments'), claim) : undefined;
      let batches = 0;
      const dueMs = await msOf(async () => {
        for (;;) {
          batches++;
          if ((await claimExpired(db, EXPIRY_BATCH, EXPIRY_LEASE_MS)).length < EXPIRY_BATCH) break;
        }
      });
      await admin('payments', `delete from pay_orders where biz_order_no like 'GDUE%'`);
      out.push({ name: 'expiry sweep (claimExpired, batch 50)', idleMs, dueMs, due: DUE, batches, plan });
    } finally {
      await db.destroy();
    }
  }

  {
    const { db, statements } = capturingDb<TransfersDb>(stack.databaseUrl('transfers'));
    try {
      // As reconciliation keeps them: every transfer in progress was asked within its last RECONCILE_AFTER_MS.
      await admin(
        'transfers',
        `update transfers set checked_at = now() - (hashtext(transfer_no) & 255) * interval '1 second' where status = 'progress'`,
      );
      const due = () => progressDueForCheck(db, new Date(Date.now() - RECONCILE_AFTER_MS), 50);
      const idleMs = await medianMs(due);
      const query = statements.at(-1)!;
      await admin(
        'transfers',
        `insert into transfers (transfer_no, mch_no, biz_transfer_no, amount, fee, payee_type, payee_account, status,
           submission, route_id, upstream_ref, fingerprint, version, created_at, updated_at)
         select 'TDUE' || lpad(g::text, 23, '0'), '${benchMchNo}', 'GTDUE' || g, 100, 5, 'spei_transfer', '${CLABE}',
           'progress', 'accepted', 'sandbox-default', 'SBXTDUE' || g, md5(g::text), 1, now() - interval '1 hour',
           now() - interval '1 hour'
         from generate_series(1, ${DUE}) g`,
      );
      const plan = withPlans ? await explain(stack.databaseUrl('transfers'), query) : undefined;
      let batches = 0;
      const dueMs = await msOf(async () => {
        for (;;) {
          const rows = await due();
          if (rows.length === 0) break;
          batches++;
          for (const row of rows) await markChecked(db, row.transfer_no);
        }
      });
      await admin('transfers', `delete from transfers where transfer_no like 'TDUE%'`);
      out.push({
        name: 'transfers reconciliation (progressDueForCheck 50 + markChecked each)',
        idleMs,
        dueMs,
        due: DUE,
        batches,
        plan,
      });
    } finally {
      await db.destroy();
    }
  }

  {
    const { db, statements } = capturingDb<NotifierDb>(stack.databaseUrl('notifier'));
    try {
      // Nothing due but what this round adds: retries that came due while the stack was down wait.
      await admin(
        'notifier',
        `update deliveries set next_attempt_at = now() + interval '1 hour', lease_until = null
         where status = 'pending' and (next_attempt_at <= now() + interval '10 minutes' or lease_until is not null)`,
      );
      const claim = () =>
        claimDueDeliveries(db, {
          owner: 'growth',
          slots: NOTIFY_SLOTS,
          perEndpoint: NOTIFY_PER_ENDPOINT,
          leaseMs: NOTIFY_LEASE_MS,
        });
      const idleMs = await medianMs(async () => {
        await claim();
        await msUntilNextDue(db);
      });
      const claimSql = [...statements].reverse().find((s) => s.sql.includes('with recursive'))!;
      await admin(
        'notifier',
        `insert into deliveries (event_id, kind, mch_no, order_no, version, to_status, notify_url, endpoint, trace_id,
           body, status, next_attempt_at)
         select 'growth-due-' || g, 'pay', '${benchMchNo}', 'PDUE' || g, 2, 'success',
           'https://due' || (g % 20) || '.example.mx/notify', 'due' || (g % 20) || '.example.mx:443', md5(g::text),
           '{}', 'pending', now() - interval '1 second'
         from generate_series(1, ${DUE}) g`,
      );
      const plan = withPlans ? await explain(stack.databaseUrl('notifier'), claimSql) : undefined;
      let batches = 0;
      let dueMs = 0;
      for (;;) {
        const started = performance.now();
        const claimed = await claim();
        dueMs += performance.now() - started;
        if (claimed.length === 0) break;
        batches++;
        // What the worker does after each exchange, outside the timed claim: the callback succeeded.
        const ids = claimed.map((c) => c.id);
        await db
          .updateTable('deliveries')
          .set({ status: 'succeeded', lease_until: null, delivered_at: new Date() })
          .where('id', 'in', ids)
          .execute();
      }
      // Left in place (delivered now), not deleted: a delete checks `superseded_by` row by row, a scan of the
      // whole table each without the index of migration 20261124T0300 (see docs/benchmarks.md "Growth").
      out.push({
        name: `notifier claim (claimDueDeliveries, ${NOTIFY_SLOTS} slots, ${NOTIFY_PER_ENDPOINT} per endpoint)`,
        idleMs,
        dueMs,
        due: DUE,
        batches,
        plan,
      });
    } finally {
      await db.destroy();
    }
  }
  return out;
}

/** The ledger's settlement through its RunSettlement call on the running stack: idle (due by now), then everything due within 73 h. */
async function timeSettlement(stack: Stack, withPlan: boolean): Promise<SweepTiming> {
  const ledger = new (loadProtos().agentpay.ledger.v1.LedgerService)(
    `127.0.0.1:${stack.ports.ledger}`,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
  try {
    const idleMs = await medianMs(() =>
      call(ledger, ledger.RunSettlement, { until: new Date().toISOString() }, { timeoutMs: 600_000 }),
    );
    const until = new Date(Date.now() + 73 * 3_600_000).toISOString();
    let plan: string | undefined;
    if (withPlan) {
      // The sweep's batch query (settlement.sweep.ts), with SETTLEMENT_BATCH's default.
      plan = await explain(stack.databaseUrl('ledger'), {
        sql: `select "order_no", "mch_no" from "pay_ins" where "settled_at" is null and "due_at" <= $1 order by "due_at" limit $2`,
        parameters: [until, 500],
      });
    }
    let settled = 0;
    const dueMs = await msOf(async () => {
      settled = (await call(ledger, ledger.RunSettlement, { until }, { timeoutMs: 600_000 })).settled;
    });
    return {
      name: 'ledger settlement (RunSettlement: select due pay-ins by 500, book each batch)',
      idleMs,
      dueMs,
      due: settled,
      batches: Math.ceil(settled / 500),
      plan,
    };
  } finally {
    ledger.close();
  }
}

/**
 * The ledger's own check of the filled books (every entry balanced, every balance and running balance), the
 * function behind its Check call, run straight on the stopped stack's database: a call over gRPC is cut after
 * the servers' connection age (about two and a half minutes), which this check of millions of rows can pass.
 * The cross-checks against the orders (observed_orders) are left out: the fill does not write them.
 */
async function checkLedger(
  stack: Stack,
): Promise<{ ok: boolean; seconds: number; entries: string; problems: string[] }> {
  const db = createDb<LedgerDb>(stack.databaseUrl('ledger'), { poolSize: 1 });
  try {
    const started = performance.now();
    const report = await ledgerCheck(db);
    return {
      ok: report.ok,
      seconds: (performance.now() - started) / 1000,
      entries: String(report.entries),
      problems: report.problems,
    };
  } finally {
    await db.destroy();
  }
}

interface SizeRow {
  db: string;
  table: string;
  rows: number;
  heap: number;
  indexes: number;
  total: number;
}

async function sizes(
  stack: Stack,
): Promise<{ tables: SizeRow[]; indexes: { db: string; index: string; size: number }[] }> {
  const tables: SizeRow[] = [];
  const indexes: { db: string; index: string; size: number }[] = [];
  const services = ['payments', 'transfers', 'upstream-router', 'notifier', 'gateway', 'ledger'] as const;
  for (const service of services) {
    const client = new pg.Client({ connectionString: stack.databaseUrl(service) });
    await client.connect();
    try {
      const t = await client.query<{
        table: string;
        rows: string;
        heap: string;
        indexes: string;
        total: string;
      }>(
        `select c.relname as table, greatest(c.reltuples, 0)::bigint as rows, pg_relation_size(c.oid) as heap,
           pg_indexes_size(c.oid) as indexes, pg_total_relation_size(c.oid) as total
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind = 'r' order by total desc`,
      );
      for (const r of t.rows)
        tables.push({
          db: service,
          table: r.table,
          rows: Number(r.rows),
          heap: Number(r.heap),
          indexes: Number(r.indexes),
          total: Number(r.total),
        });
      const i = await client.query<{ index: string; size: string }>(
        `select i.indexrelid::regclass::text as index, pg_relation_size(i.indexrelid) as size
         from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' order by size desc`,
      );
      for (const r of i.rows) indexes.push({ db: service, index: r.index, size: Number(r.size) });
    } finally {
      await client.end();
    }
  }
  return { tables, indexes };
}

/** Business order numbers of the bench merchant's orders: `count` filled ones spread over the months. */
async function filledBizOrderNos(stack: Stack, mchNo: string, count: number): Promise<string[]> {
  const client = new pg.Client({ connectionString: stack.databaseUrl('payments') });
  await client.connect();
  try {
    const { rows } = await client.query<{ biz_order_no: string }>(
      `select biz_order_no from pay_orders tablesample system (5) where mch_no = $1 and biz_order_no like 'G%' limit $2`,
      [mchNo, count],
    );
    return rows.map((r) => r.biz_order_no);
  } finally {
    await client.end();
  }
}

async function recentBizOrderNos(stack: Stack, mchNo: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: stack.databaseUrl('payments') });
  await client.connect();
  try {
    const { rows } = await client.query<{ biz_order_no: string }>(
      `select biz_order_no from pay_orders where mch_no = $1 order by created_at desc limit 500`,
      [mchNo],
    );
    return rows.map((r) => r.biz_order_no);
  } finally {
    await client.end();
  }
}

export async function runGrowthBench(opts: {
  startOptions: Omit<StackOptions, 'natsUrl' | 'databasePrefix' | 'ports'>;
  natsUrl: string;
  prefix: string;
  log: (line?: string) => void;
}): Promise<void> {
  const { log, prefix } = opts;
  // The services' warnings and errors, counted (and the first errors kept) for the report.
  const serviceLog = new Map<string, number>();
  const serviceErrors: string[] = [];
  // GROWTH_LOG=1 shows the services' warnings and errors (LOG_LEVEL of the run) instead of silencing them.
  // The second start takes the first one's ports: the router's sandbox route was stored with its address.
  const start = (ports?: Ports) =>
    startStack({
      ...opts.startOptions,
      ...(process.env['GROWTH_LOG'] === '1' && { output: 'pretty' }),
      onLog: (service, line) => {
        // The services log the level's label (packages/logger).
        const level = /"level":"(\w+)"/.exec(line)?.[1];
        if (level !== 'warn' && level !== 'error' && level !== 'fatal') return;
        const key = `${service} ${level}`;
        serviceLog.set(key, (serviceLog.get(key) ?? 0) + 1);
        if (level !== 'warn' && serviceErrors.length < 8)
          serviceErrors.push(`${service}: ${line.slice(0, 400)}`);
      },
      natsUrl: opts.natsUrl,
      databasePrefix: prefix,
      ports: ports ?? 'random',
    });
  const v = volumes(scale);
  log(`## Growth: empty stores against stores at production-like volume (GROWTH_SCALE=${scale})`);
  log();

  // Empty.
  let stack = await start();
  let merchant: BenchMerchant;
  let empty: Figures & { cpu: string };
  let emptySettlement: SweepTiming;
  try {
    merchant = await benchMerchant(stack.urls.admin);
    const ledger = new (loadProtos().agentpay.ledger.v1.LedgerService)(
      `127.0.0.1:${stack.ports.ledger}`,
      grpc.credentials.createInsecure(),
      CLIENT_OPTIONS,
    );
    await call(ledger, ledger.Adjust, {
      mch_no: merchant.mchNo,
      amount: String(1_000_000_000),
      reason: 'bench funding',
      reference: `growth-${merchant.mchNo}`,
    });
    ledger.close();
    await closedLoop(stack.urls.gateway, payRequests(merchant, 500), 8);
    empty = await measureFigures(stack, merchant, await recentBizOrderNos(stack, merchant.mchNo), prefix);
    emptySettlement = await timeSettlement(stack, false);
  } finally {
    await stack.stop();
  }
  process.stdout.write('empty figures measured\n');
  const emptySweeps = [...(await timeSweeps(stack, merchant.mchNo, false)), emptySettlement];

  // Fill.
  const urls: Record<Store, string> = {
    payments: stack.databaseUrl('payments'),
    transfers: stack.databaseUrl('transfers'),
    router: stack.databaseUrl('upstream-router'),
    notifier: stack.databaseUrl('notifier'),
    gateway: stack.databaseUrl('gateway'),
    ledger: stack.databaseUrl('ledger'),
  };
  const fillStarted = performance.now();
  const fills: FillReport[] = await fillStores({
    scale,
    urls,
    benchMchNo: merchant.mchNo,
    subjectPrefix: `${prefix}.events`,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  const fillSeconds = (performance.now() - fillStarted) / 1000;

  // Filled.
  stack = await start(stack.ports);
  let filled: Figures & { cpu: string };
  let filledSettlement: SweepTiming;
  let check: Awaited<ReturnType<typeof checkLedger>> | undefined;
  try {
    const old = await filledBizOrderNos(stack, merchant.mchNo, 2000);
    filled = await measureFigures(stack, merchant, old, prefix);
    // A failure here is reported, not allowed to throw the fill away.
    filledSettlement = await timeSettlement(stack, true).catch((err: Error) => ({
      name: `ledger settlement (failed: ${err.message})`,
      idleMs: Number.NaN,
      dueMs: Number.NaN,
      due: 0,
      batches: 0,
    }));
  } finally {
    await stack.stop();
  }
  if (process.env['GROWTH_CHECK'] !== '0')
    check = await checkLedger(stack).catch((err: Error) => ({
      ok: false,
      seconds: Number.NaN,
      entries: '?',
      problems: [`check failed: ${err.message}`],
    }));
  process.stdout.write('filled figures measured\n');
  const filledSweeps = [...(await timeSweeps(stack, merchant.mchNo, true)), filledSettlement];
  const size = await sizes(stack);

  // The report.
  log(
    `Volumes at this scale: ${v.payOrders.toLocaleString('en-US')} pay orders (${v.openOrders.toLocaleString('en-US')} open, expiring over the next 30 days), ${v.transfers.toLocaleString('en-US')} transfers (${v.transfersInProgress.toLocaleString('en-US')} in progress), ${v.deliveries.toLocaleString('en-US')} callback deliveries with their attempts of the last 30 days, ${v.entries.toLocaleString('en-US')} ledger entries (${v.hotEntries.toLocaleString('en-US')} of them the bench merchant's, the one the transfers below freeze against), ${v.notices.toLocaleString('en-US')} upstream notices, ${v.nonces.toLocaleString('en-US')} nonces, published outbox rows of the last 7 days, over ${MERCHANTS} merchants. Filled in ${fmt(fillSeconds, 0)} s (SQL, two connections), then VACUUM (ANALYZE).`,
  );
  log();
  log('| store | seconds | rows |');
  log('|---|---|---|');
  for (const f of fills)
    log(
      `| ${f.store} | ${fmt(f.seconds, 0)} | ${Object.entries(f.rows)
        .map(([t, n]) => `${t} ${n.toLocaleString('en-US')}`)
        .join(', ')} |`,
    );
  log();
  log(
    `Figures (closed loop at ${CONCURRENCY}, ${WINDOWS} windows of ${PER_WINDOW} requests, median of the windows; callbacks at ${CALLBACK_RATE}/s for ${CALLBACK_SECONDS} s to ${CALLBACK_ENDPOINTS} loopback endpoints, ${WINDOWS} windows). Queries ask for the bench merchant's own orders: on the empty stores the last ones it created, on the filled ones orders spread over the six months. Target: throughput at least 85 % and p99 at most 120 % of the empty figure.`,
  );
  log();
  log('| figure | empty | filled | filled / empty | target | verdict | errors (empty / filled) |');
  log('|---|---|---|---|---|---|---|');
  const rows: [string, keyof Figures][] = [
    ['create-pay', 'pay'],
    ['query/payOrder', 'query'],
    ['transfer create', 'transfer'],
    ['callback delivery', 'callback'],
  ];
  for (const [label, key] of rows) {
    const e = empty[key];
    const f = filled[key];
    const tr = f.throughput / e.throughput;
    const pr = f.p99 / e.p99;
    const unit = key === 'callback' ? 'delivered/s' : 'req/s';
    const delay = key === 'callback' ? 'delay p99 ms' : 'p99 ms';
    log(
      `| ${label} ${unit} | ${fmt(e.throughput, 0)} | ${fmt(f.throughput, 0)} | ${fmt(100 * tr, 0)} % | ≥ 85 % | ${tr >= 0.85 ? 'met' : 'missed'} | ${e.errors} / ${f.errors} |`,
    );
    log(
      `| ${label} ${delay} | ${fmt(e.p99, 2)} | ${fmt(f.p99, 2)} | ${fmt(100 * pr, 0)} % | ≤ 120 % | ${pr <= 1.2 ? 'met' : 'missed'} | |`,
    );
  }
  log();
  log(`While the empty figures ran: ${empty.cpu}. While the filled ones ran: ${filled.cpu}.`);
  log();
  log(
    `Services' log lines at warn and above over the whole run: ${[...serviceLog].map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}.`,
  );
  for (const e of serviceErrors) log(`- \`${e.replaceAll('`', "'")}\``);
  if (refusals.length > 0) {
    log();
    log(`First refused answers: ${refusals.map((r) => `\`${r}\``).join('; ')}.`);
  }
  log();
  log(
    `Sweep rounds: idle is a round with nothing due (median of five); due is the round over ${DUE} rows made due for it (the ledger: every pay-in due within 73 h, through RunSettlement on the running stack). A round follows what is due when the filled idle round stays within 2× (or 5 ms) of the empty one and the due round's cost per row within 2× of the empty one's.`,
  );
  log();
  log(
    '| sweep | idle ms empty | idle ms filled | due rows empty / filled | due round ms empty | due round ms filled | ms per due row empty / filled | verdict |',
  );
  log('|---|---|---|---|---|---|---|---|');
  for (const [i, f] of filledSweeps.entries()) {
    const e = emptySweeps[i]!;
    const perE = e.due > 0 ? e.dueMs / e.due : Number.NaN;
    const perF = f.due > 0 ? f.dueMs / f.due : Number.NaN;
    const idleOk = f.idleMs <= Math.max(2 * e.idleMs, e.idleMs + 5);
    const dueOk = !Number.isFinite(perE) || !Number.isFinite(perF) || perF <= 2 * perE;
    log(
      `| ${f.name} | ${fmt(e.idleMs, 2)} | ${fmt(f.idleMs, 2)} | ${e.due} / ${f.due} | ${fmt(e.dueMs, 0)} | ${fmt(f.dueMs, 0)} | ${fmt(perE, 3)} / ${fmt(perF, 3)} | ${idleOk && dueOk ? 'follows what is due' : 'grows with the table'} |`,
    );
  }
  if (check) {
    log();
    log(
      `The ledger's check (its Check call's function, straight on the database, without the cross-checks against orders) over the filled books (${check.entries} entries): ${check.ok ? 'ok' : `${check.problems.length} problems: ${check.problems.slice(0, 5).join('; ')}`}, in ${fmt(check.seconds, 0)} s.`,
    );
  }
  log();
  log(
    "Plans of each sweep's main statement on the filled stores (EXPLAIN (ANALYZE, BUFFERS), rolled back), with the rows made due in place:",
  );
  for (const f of filledSweeps) {
    if (!f.plan) continue;
    log();
    log(`${f.name}:`);
    log();
    log('```');
    log(f.plan);
    log('```');
  }
  log();
  log('Sizes on the filled stores (tables over 1 MB; rows as estimated by ANALYZE):');
  log();
  log('| database | table | rows | heap MB | indexes MB | total MB |');
  log('|---|---|---|---|---|---|');
  const mb = (b: number) => fmt(b / 2 ** 20, 0);
  for (const t of size.tables.filter((t) => t.total >= 2 ** 20))
    log(
      `| ${t.db} | ${t.table} | ${t.rows.toLocaleString('en-US')} | ${mb(t.heap)} | ${mb(t.indexes)} | ${mb(t.total)} |`,
    );
  log();
  log('| database | index | MB |');
  log('|---|---|---|');
  for (const i of size.indexes.filter((i) => i.size >= 2 ** 20))
    log(`| ${i.db} | ${i.index} | ${mb(i.size)} |`);
}
