import { createServer, type Server } from 'node:http';
import { statusChangedSubject } from '@agentpay/messaging';
import type { Stack } from '@agentpay/stack';
import pg from 'pg';
import { paidOrderEvent } from './setup.js';

// Callback delivery: status changes written to the payments outbox at a fixed rate (exactly the row a
// real transition writes, in the same table), relayed to JetStream, consumed by the notifier and POSTed
// to merchant endpoints on loopback. Delay = sink receipt − the change's commit. The second phase makes
// a tenth of the endpoints hang until NOTIFY_TIMEOUT_MS, to show healthy merchants are not slowed.

const ENDPOINTS = 20;

interface Sink {
  url: string;
  server: Server;
  hang: boolean;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function runCallbackBench(opts: {
  stack: Stack;
  log: (line?: string) => void;
  quick: boolean;
  prefix: string;
}): Promise<void> {
  const { stack, log } = opts;
  const delays = new Map<string, number>();
  const sent = new Map<string, { at: number; sink: number }>();
  const sinks: Sink[] = [];
  for (let i = 0; i < ENDPOINTS; i++) {
    const sink: Sink = { url: '', server: createServer(), hang: false };
    sink.server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (sink.hang) return; // never answers: the notifier's timeout ends it
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { data: { orderNo: string } };
        const origin = sent.get(body.data.orderNo);
        if (origin && !delays.has(body.data.orderNo)) delays.set(body.data.orderNo, Date.now() - origin.at);
        res.end('SUCCESS');
      });
    });
    await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
    sink.url = `http://127.0.0.1:${(sink.server.address() as { port: number }).port}/callback`;
    sinks.push(sink);
  }

  const db = new pg.Pool({ connectionString: stack.databaseUrl('payments'), max: 4 });
  const subject = statusChangedSubject(`${opts.prefix}.events`, 'pay');
  // Status changes offered per second; BENCH_CALLBACK_RATE overrides it to look for the ceiling.
  const rate = Number(process.env['BENCH_CALLBACK_RATE'] ?? 1_000);
  const seconds = opts.quick ? 3 : 10;

  async function phase(label: string, hanging: number, duration = seconds): Promise<string> {
    sinks.forEach((s, i) => {
      s.hang = i < hanging;
    });
    delays.clear();
    sent.clear();
    const total = rate * duration;
    const batch = 20;
    const started = Date.now();
    for (let i = 0; i < total; i += batch) {
      const due = started + (i * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const rows: unknown[] = [];
      const now = new Date();
      for (let j = 0; j < batch; j++) {
        const n = i + j;
        const sinkIndex = n % ENDPOINTS;
        const orderNo = `PBENCH${label}${String(n).padStart(8, '0')}`;
        sent.set(orderNo, { at: Date.now(), sink: sinkIndex });
        const event = paidOrderEvent({ orderNo, mchNo: 'BENCH', notifyUrl: sinks[sinkIndex]!.url, at: now });
        rows.push(event.event_id, subject, JSON.stringify(event));
      }
      const values = Array.from(
        { length: batch },
        (_, k) => `($${k * 3 + 1}, $${k * 3 + 2}, $${k * 3 + 3}::jsonb)`,
      ).join(',');
      await db.query(`insert into outbox (id, subject, payload) values ${values}`, rows);
    }
    const produced = Date.now();
    const healthy = [...sent].filter(([, s]) => !sinks[s.sink]!.hang).map(([orderNo]) => orderNo);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && healthy.some((o) => !delays.has(o)))
      await new Promise((r) => setTimeout(r, 100));
    const finished = Date.now();
    const got = healthy.filter((o) => delays.has(o)).map((o) => delays.get(o)!);
    const sorted = got.sort((a, b) => a - b);
    const lastArrival = Math.max(produced, finished);
    const throughput = got.length / ((lastArrival - started) / 1000);
    stages.push(await stageBreakdown(label, [...sent.keys()]));
    return `| ${label} | ${hanging} of ${ENDPOINTS} | ${total} | ${got.length}/${healthy.length} | ${throughput.toFixed(0)} | ${percentile(sorted, 50).toFixed(0)} | ${percentile(sorted, 99).toFixed(0)} |`;
  }

  // Where the delay goes, from the stores' own timestamps (Postgres's clock throughout): the relay (outbox
  // row committed → published), the notifier's ingest (published → delivery row recorded) and delivery
  // (recorded → acknowledged by the sink). Healthy endpoints only.
  const notifierDb = new pg.Pool({ connectionString: stack.databaseUrl('notifier'), max: 2 });
  const stages: string[] = [];
  async function stageBreakdown(label: string, orderNos: string[]): Promise<string> {
    const outbox = await db.query<{ order_no: string; created: number; published: number }>(
      `select payload->>'order_no' as order_no, extract(epoch from created_at) * 1000 as created,
              extract(epoch from published_at) * 1000 as published
       from outbox where payload->>'order_no' = any($1::text[])`,
      [orderNos],
    );
    const deliveries = await notifierDb.query<{
      order_no: string;
      recorded: number;
      claimed: number;
      latency: number;
      delivered: number;
    }>(
      `select d.order_no, extract(epoch from d.created_at) * 1000 as recorded,
              extract(epoch from a.started_at) * 1000 as claimed, a.latency_ms as latency,
              extract(epoch from d.delivered_at) * 1000 as delivered
       from deliveries d
       join delivery_attempts a on a.delivery_id = d.id and a.outcome = 'succeeded'
       where d.order_no = any($1::text[]) and d.delivered_at is not null`,
      [orderNos],
    );
    const byOrder = new Map(outbox.rows.map((r) => [r.order_no, r]));
    const relay: number[] = [];
    const ingest: number[] = [];
    const claim: number[] = [];
    const exchange: number[] = [];
    const settle: number[] = [];
    for (const d of deliveries.rows) {
      const o = byOrder.get(d.order_no);
      if (!o) continue;
      relay.push(Number(o.published) - Number(o.created));
      ingest.push(Number(d.recorded) - Number(o.published));
      claim.push(Number(d.claimed) - Number(d.recorded));
      exchange.push(Number(d.latency));
      settle.push(Number(d.delivered) - Number(d.claimed) - Number(d.latency));
    }
    const cell = (values: number[]) => {
      const v = values.sort((a, b) => a - b);
      return `${percentile(v, 50).toFixed(0)} / ${percentile(v, 99).toFixed(0)}`;
    };
    return `| ${label} | ${cell(relay)} | ${cell(ingest)} | ${cell(claim)} | ${cell(exchange)} | ${cell(settle)} |`;
  }

  log(
    `## Callbacks (status changes at ${rate.toLocaleString('en-US')}/s into the outbox, delivered to loopback merchant endpoints, after a 2 s warm-up)`,
  );
  log();
  log(
    '| phase | hanging endpoints | changes | healthy delivered | delivered/s | delay p50 ms | delay p99 ms |',
  );
  log('|---|---|---|---|---|---|---|');
  try {
    // Warm-up, not reported: connection pools fill and the JIT settles, as before the create-pay levels.
    await phase('warm-up', 0, 2);
    stages.length = 0;
    log(await phase('all-healthy', 0));
    log(await phase('tenth-hanging', ENDPOINTS / 10));
  } finally {
    for (const s of sinks) s.server.closeAllConnections();
    await Promise.all(sinks.map((s) => new Promise((r) => s.server.close(r))));
  }
  try {
    log();
    log("Where the delay goes (ms, p50 / p99, delivered callbacks, from the stores' timestamps):");
    log();
    log(
      '| phase | relay: committed → published | ingest: published → recorded | claim: recorded → attempt started | HTTP exchange | settle: reply → recorded |',
    );
    log('|---|---|---|---|---|---|');
    for (const line of stages) log(line);
  } finally {
    await db.end();
    await notifierDb.end();
  }
  log();
  log(
    `Targets: at least 1,000 delivered/s, p99 delay under 250 ms, unchanged within 10 % when a tenth of endpoints hang. NOTIFY_TIMEOUT_MS is ${process.env['BENCH_NOTIFY_TIMEOUT_MS'] ?? '5000'} in this run.`,
  );
}
