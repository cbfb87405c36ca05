// The growth bench's load: create-pay, query, transfer and callback-delivery figures, three windows each,
// and where the machine's CPU went while they ran.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { statusChangedSubject } from '@agentpay/messaging';
import type { Stack } from '@agentpay/stack';
import { formatWireTime, parsePrivateKey, signObject } from '@agentpay/wire';
import pg from 'pg';
import { closedLoop, cpuBetween, cpuSnapshot, type LoadResult, ok, type Prepared } from './load.js';
import { type BenchMerchant, paidOrderEvent, payRequests, transferRequests } from './setup.js';

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Requests per measuring window; three windows per figure, the median reported. */
export const PER_WINDOW = Number(process.env['GROWTH_REQUESTS'] ?? '1000');
export const WINDOWS = 3;
export const CONCURRENCY = 16;
/** Callback changes per second offered in the callback windows. */
export const CALLBACK_RATE = 300;
export const CALLBACK_SECONDS = 5;
export const CALLBACK_ENDPOINTS = 10;

export interface Figure {
  throughput: number;
  p99: number;
  errors: number;
}

export interface Figures {
  pay: Figure;
  query: Figure;
  transfer: Figure;
  callback: Figure;
}

export function queryRequests(merchant: BenchMerchant, bizOrderNos: string[], count: number): Prepared[] {
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
export const refusals: string[] = [];
export const checked = (status: number, body: string) => {
  const good = ok(status, body);
  if (!good && refusals.length < 5) refusals.push(`HTTP ${status} ${body.slice(0, 200)}`);
  return good;
};

/** Three windows of a closed loop at CONCURRENCY; median throughput and median p99. */
export async function windows(url: string, make: () => Prepared[]): Promise<Figure> {
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
export async function callbackWindows(stack: Stack, prefix: string): Promise<Figure> {
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
  const subject = statusChangedSubject(`${prefix}.events`, 'pay');
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
          const event = paidOrderEvent({
            orderNo,
            mchNo: 'BENCH',
            notifyUrl: sinks[(i + j) % sinks.length]!.url,
            at: new Date(now),
          });
          params.push(event.event_id, subject, JSON.stringify(event));
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
export async function machineBusyMs(): Promise<number> {
  const stat = await readFile('/proc/stat', 'utf8');
  const [, user, nice, system, , , irq, softirq, steal] = stat
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 10;
}

/** Where the machine's CPU went while `fn` ran: this run's processes, Postgres and NATS, and everything else. */
export async function cpuShares(stack: Stack, fn: () => Promise<void>): Promise<string> {
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

export async function measureFigures(
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
