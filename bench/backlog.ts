import { createServer, type Server } from 'node:http';
import os from 'node:os';
import { statusChangedSubject } from '@agentpay/messaging';
import type { Stack } from '@agentpay/stack';
import pg from 'pg';
import { paidOrderEvent } from './setup.js';

// The callback backlog part of `npm run bench` (BENCH_ONLY=backlog runs it alone). Two questions, each
// answered beside a reference measured in the same run:
// 1. A merchant whose endpoint was down while BACKLOG callbacks fell due comes back: the notifier is
//    stopped, the due deliveries are written straight into its database, and it is started again. How fast
//    does the backlog drain, and what happens meanwhile to other merchants' callbacks (status changes
//    written to the payments outbox, relayed, consumed and delivered: delay = receipt − commit)?
// 2. A third of the other merchants' endpoints hang until NOTIFY_TIMEOUT_MS: how much slower are the
//    healthy merchants' callbacks than in the run just before, with none hanging?

const BACKLOG_MERCHANT = 'BACKLOG';
/** Other merchants' endpoints; a third of them hang in the second question. */
const OTHER_ENDPOINTS = 21;

interface Sink {
  url: string;
  endpoint: string;
  server: Server;
  hang: boolean;
  /** Requests being held open now, and the most at once during the current phase. */
  held: number;
  peakHeld: number;
  requests: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '-');

export async function runBacklogBench(opts: {
  stack: Stack;
  log: (line?: string) => void;
  quick: boolean;
  prefix: string;
}): Promise<void> {
  const { stack, log } = opts;
  const backlog = Number(process.env['BENCH_BACKLOG'] ?? (opts.quick ? 20_000 : 100_000));
  /** Other merchants' status changes per second, during every phase. */
  const rate = Number(process.env['BENCH_BACKLOG_OTHER_RATE'] ?? 200);
  const seconds = opts.quick ? 5 : 15;

  // Other merchants: delay per order number, from the outbox insert to the sink's receipt.
  const sent = new Map<string, { at: number; sink: number }>();
  const delays = new Map<string, number>();
  const sinks: Sink[] = [];
  const newSink = async (onBody: (body: string, sink: Sink) => void): Promise<Sink> => {
    const sink: Sink = {
      url: '',
      endpoint: '',
      server: createServer(),
      hang: false,
      held: 0,
      peakHeld: 0,
      requests: 0,
    };
    sink.server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        sink.requests += 1;
        if (sink.hang) {
          // Never answers: the notifier's timeout ends it.
          sink.held += 1;
          sink.peakHeld = Math.max(sink.peakHeld, sink.held);
          res.on('close', () => {
            sink.held -= 1;
          });
          return;
        }
        onBody(Buffer.concat(chunks).toString(), sink);
        res.end('SUCCESS');
      });
    });
    await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
    const port = (sink.server.address() as { port: number }).port;
    sink.url = `http://127.0.0.1:${port}/callback`;
    sink.endpoint = `127.0.0.1:${port}`;
    return sink;
  };
  for (let i = 0; i < OTHER_ENDPOINTS; i++) {
    sinks.push(
      await newSink((body) => {
        const orderNo = (JSON.parse(body) as { data: { orderNo: string } }).data.orderNo;
        const origin = sent.get(orderNo);
        if (origin && !delays.has(orderNo)) delays.set(orderNo, Date.now() - origin.at);
      }),
    );
  }
  // The backlog merchant: distinct deliveries received, first and last arrival, most leased at once.
  const drained = { ids: new Set<string>(), first: 0, last: 0, peak: 0 };
  const backlogSink = await newSink(() => {});
  backlogSink.server.prependListener('request', (req) => {
    const id = req.headers['x-agentpay-delivery-id'];
    if (typeof id === 'string') drained.ids.add(id);
    const now = Date.now();
    if (drained.first === 0) drained.first = now;
    drained.last = now;
  });

  const payments = new pg.Pool({ connectionString: stack.databaseUrl('payments'), max: 2 });
  const notifierDb = new pg.Pool({ connectionString: stack.databaseUrl('notifier'), max: 2 });
  const subject = statusChangedSubject(`${opts.prefix}.events`, 'pay');
  let produced = 0;

  /** Writes status changes of other merchants at `rate` until `until()` says stop; returns their order numbers. */
  async function produce(label: string, until: () => boolean): Promise<string[]> {
    const orderNos: string[] = [];
    const batch = 10;
    const started = Date.now();
    for (let i = 0; !until(); i += batch) {
      const wait = started + (i * 1000) / rate - Date.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const rows: unknown[] = [];
      const now = new Date();
      for (let j = 0; j < batch; j++) {
        const sinkIndex = (produced + j) % OTHER_ENDPOINTS;
        const orderNo = `P${label}${String(produced + j).padStart(9, '0')}`;
        sent.set(orderNo, { at: Date.now(), sink: sinkIndex });
        orderNos.push(orderNo);
        const event = paidOrderEvent({
          orderNo,
          mchNo: `OTHER${sinkIndex}`,
          notifyUrl: sinks[sinkIndex]!.url,
          at: now,
        });
        rows.push(event.event_id, subject, JSON.stringify(event));
      }
      produced += batch;
      const values = Array.from(
        { length: batch },
        (_, k) => `($${k * 3 + 1}, $${k * 3 + 2}, $${k * 3 + 3}::jsonb)`,
      ).join(',');
      await payments.query(`insert into outbox (id, subject, payload) values ${values}`, rows);
    }
    return orderNos;
  }

  /** Waits for the healthy ones of `orderNos` (at most a minute), then their delay percentiles. */
  async function healthyDelays(orderNos: string[]) {
    const healthy = orderNos.filter((o) => !sinks[sent.get(o)!.sink]!.hang);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && healthy.some((o) => !delays.has(o)))
      await new Promise((r) => setTimeout(r, 100));
    const got = healthy
      .filter((o) => delays.has(o))
      .map((o) => delays.get(o)!)
      .sort((a, b) => a - b);
    return {
      offered: healthy.length,
      delivered: got.length,
      p50: percentile(got, 50),
      p99: percentile(got, 99),
    };
  }

  const forSeconds = (s: number) => {
    const end = Date.now() + s * 1000;
    return () => Date.now() >= end;
  };

  log(
    `## Callback backlog (${backlog.toLocaleString('en-US')} due callbacks of one merchant; other merchants' status changes at ${rate}/s through the outbox)`,
  );
  log();
  try {
    const loadBefore = os.loadavg()[0]!;
    // Warm-up, not reported.
    await healthyDelays(await produce('W', forSeconds(3)));
    const before = await healthyDelays(await produce('R', forSeconds(seconds)));

    // The merchant's endpoint was down while its callbacks fell due: written straight into the store, as
    // the notifier would have left them (pending, due, never tried), with the notifier stopped.
    await stack.kill('notifier');
    const body = JSON.stringify({
      code: 0,
      msg: 'success',
      data: { mchNo: BACKLOG_MERCHANT, orderNo: 'P0', status: 'success', amount: 10050 },
      sign: 'x'.repeat(344),
      resTime: '2026-11-24 00:00:00',
      traceId: '0'.repeat(32),
      noticeType: 'order_status_changed',
      mchNo: BACKLOG_MERCHANT,
    });
    const insertStarted = Date.now();
    await notifierDb.query(
      `insert into deliveries (event_id, kind, mch_no, order_no, version, to_status, notify_url, endpoint,
                               trace_id, body, status, next_attempt_at, created_at)
       select 'backlog-' || g, 'pay', $1, 'PBACKLOG' || lpad(g::text, 9, '0'), 2, 'success', $2, $3,
              md5(g::text), $4, 'pending', now() - interval '1 hour' + g * interval '10 ms', now() - interval '1 hour'
       from generate_series(1, $5::int) g`,
      [BACKLOG_MERCHANT, backlogSink.url, backlogSink.endpoint, body, backlog],
    );
    await notifierDb.query('analyze deliveries');
    const insertMs = Date.now() - insertStarted;
    await stack.restart('notifier');
    const restarted = Date.now();
    // The backlog endpoint's callbacks in flight (leased), sampled: how far its adaptive limit went.
    const sampler = setInterval(() => {
      notifierDb
        .query<{ n: number }>(
          `select count(*)::int as n from deliveries where endpoint = $1 and status = 'pending' and lease_until > now()`,
          [backlogSink.endpoint],
        )
        .then(({ rows }) => {
          drained.peak = Math.max(drained.peak, rows[0]?.n ?? 0);
        })
        .catch(() => {});
    }, 250);
    const duringDrain = await produce(
      'D',
      () => drained.ids.size >= backlog || Date.now() - restarted > 300_000,
    ).finally(() => clearInterval(sampler));
    const drainEnded = drained.last;
    const loadAfterDrain = os.loadavg()[0]!;
    // A long transaction anywhere on the server holds back the xmin horizon: dead index entries of settled
    // callbacks can then be neither vacuumed nor skipped, and every claim walks them (docs/benchmarks.md).
    const { rows: oldest } = await notifierDb.query<{ s: number | null }>(
      `select extract(epoch from max(now() - xact_start))::float8 as s from pg_stat_activity
       where xact_start is not null and pid <> pg_backend_pid()`,
    );
    const during = await healthyDelays(duringDrain);
    const drainRate = drained.ids.size / ((drained.last - drained.first) / 1000);
    const fromStart = drained.ids.size / ((drainEnded - restarted) / 1000);

    log(
      `The backlog was written in ${(insertMs / 1000).toFixed(1)} s with the notifier stopped, then the notifier started. Load average (1 min) ${loadBefore.toFixed(1)} before the part, ${loadAfterDrain.toFixed(1)} when the drain ended; the oldest transaction open on the Postgres server then was ${(oldest[0]?.s ?? 0).toFixed(0)} s old.`,
    );
    log();
    log('| measure | with the backlog draining | reference (same run, no backlog) | target |');
    log('|---|---|---|---|');
    log(
      `| backlog drained | ${drained.ids.size.toLocaleString('en-US')} of ${backlog.toLocaleString('en-US')} in ${((drained.last - drained.first) / 1000).toFixed(1)} s: **${drainRate.toFixed(0)}/s** (${fromStart.toFixed(0)}/s from the start) | - | ≥ 1,000/s |`,
    );
    log(
      `| backlog endpoint: most callbacks in flight (sampled every 250 ms) | ${drained.peak} | - | ≤ NOTIFY_ENDPOINT_CONCURRENCY (64) |`,
    );
    log(
      `| other merchants: delivered | ${during.delivered}/${during.offered} | ${before.delivered}/${before.offered} | all |`,
    );
    log(`| other merchants: delay p50 ms | ${ms(during.p50)} | ${ms(before.p50)} | |`);
    log(`| other merchants: delay p99 ms | **${ms(during.p99)}** | ${ms(before.p99)} | < 250 |`);

    // The drain left dead tuples for autovacuum; clean up now rather than during the next two runs.
    await notifierDb.query('vacuum (analyze) deliveries, delivery_attempts');
    await notifierDb.query('checkpoint');

    // A third of the endpoints hang, against a run just before with none hanging (same rate, same endpoints).
    const reference = await healthyDelays(await produce('N', forSeconds(seconds)));
    const hanging = Math.floor(OTHER_ENDPOINTS / 3);
    sinks.forEach((s, i) => {
      s.hang = i < hanging;
      s.peakHeld = 0;
      s.requests = 0;
    });
    const hangSeconds = seconds + 5;
    const hangStarted = Date.now();
    const hangOrders = await produce('H', forSeconds(hangSeconds));
    const withHanging = await healthyDelays(hangOrders);
    // The slowest healthy callbacks of the phase: which endpoints, and when they were sent.
    const late = hangOrders
      .filter((o) => !sinks[sent.get(o)!.sink]!.hang && (delays.get(o) ?? Number.POSITIVE_INFINITY) > 1000)
      .map((o) => ({
        sink: sent.get(o)!.sink,
        at: (sent.get(o)!.at - hangStarted) / 1000,
        delay: delays.get(o),
      }));
    const hangers = sinks.slice(0, hanging);
    const timeoutMs = Number(process.env['BENCH_NOTIFY_TIMEOUT_MS'] ?? '5000');
    log();
    log(
      `A third of the other endpoints (${hanging} of ${OTHER_ENDPOINTS}) hanging until NOTIFY_TIMEOUT_MS (${timeoutMs} ms in this run) for ${hangSeconds} s, against ${seconds} s with none hanging just before:`,
    );
    log();
    log('| measure | a third hanging | reference (none hanging) | target |');
    log('|---|---|---|---|');
    log(
      `| healthy delivered | ${withHanging.delivered}/${withHanging.offered} | ${reference.delivered}/${reference.offered} | all |`,
    );
    log(`| healthy delay p50 ms | ${ms(withHanging.p50)} | ${ms(reference.p50)} | |`);
    log(
      `| healthy delay p99 ms | **${ms(withHanging.p99)}** (${(((withHanging.p99 - reference.p99) / reference.p99) * 100).toFixed(0)} %) | ${ms(reference.p99)} | within 10 % |`,
    );
    log(
      `| hanging endpoints: most callbacks held at once (each) | ${hangers.map((s) => s.peakHeld).join(', ')} | - | few, never all |`,
    );
    log(
      `| hanging endpoints: requests received (each, over ${hangSeconds} s) | ${hangers.map((s) => s.requests).join(', ')} | - | |`,
    );
    log(
      `| healthy callbacks later than 1 s | ${late.length}${late.length > 0 ? `: endpoints ${[...new Set(late.map((l) => l.sink))].join(', ')}; sent ${Math.min(...late.map((l) => l.at)).toFixed(1)}–${Math.max(...late.map((l) => l.at)).toFixed(1)} s into the phase` : ''} | - | |`,
    );
    log();
    log(
      'The adaptive limit starts each endpoint at NOTIFY_ENDPOINT_INITIAL_LIMIT and halves it on each timeout; the hanging endpoints therefore hold their first wave, then one probe each per timeout.',
    );
  } finally {
    for (const s of [...sinks, backlogSink]) s.server.closeAllConnections();
    await Promise.all([...sinks, backlogSink].map((s) => new Promise((r) => s.server.close(r))));
    await payments.end();
    await notifierDb.end();
  }
}
