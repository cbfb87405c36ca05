// The soak part of the bench (BENCH_ONLY=soak, issue 22): SOAK_MINUTES (default 30) of open-loop create-pay at
// half the saturating rate this stack reaches in the same run (or SOAK_RATE), with payments through the sandbox
// (their callbacks to a loopback sink), transfers and queries mixed in, and retention running with windows short
// enough to act within the run. Every SOAK_SAMPLE_S seconds (default 10) it samples each service's RSS, the run's
// Postgres backends' private memory, the last window's latencies and errors, and every table's size; the report
// shows them at fixed minutes with a verdict per series, and a PNG plots them. This file runs it; its settings
// are in soak-settings.ts, the child process that signs its requests in soak-signer.ts, the report in
// soak-report.ts and the plot in soak-plot.ts.
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import { type Stack, type StackOptions, startStack } from '@agentpay/stack';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect as connectNats, type NatsConnection } from '@nats-io/transport-node';
import pg from 'pg';
import { machineBusyMs } from './growth-load.js';
import { type CpuSnapshot, closedLoop, cpuBetween, cpuSnapshot } from './load.js';
import { type BenchMerchant, benchMerchant, fundMerchant, payRequests } from './setup.js';
import { reportSoak } from './soak-report.js';
import {
  AMOUNT,
  BOUNDED,
  CHUNK_S,
  DATABASES,
  emptyWindow,
  fmt,
  MINUTES,
  num,
  percentile,
  QUERY_SHARE,
  RETENTION_INTERVAL_MS,
  RETENTION_S,
  SAMPLE_S,
  SATURATION_CONCURRENCY,
  SATURATION_SECONDS,
  type Sample,
  sleep,
  TRANSFER_SHARE,
  VACUUM_S,
  type Window,
} from './soak-settings.js';
import { startSigner } from './soak-signer.js';

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

    await reportSoak({
      log,
      workDir,
      samples,
      raw,
      saturation,
      rate,
      transferRate,
      queryRate,
      retentionEnv,
      sent,
      errors,
      callbacks,
      missing,
      generatorCpu,
      signMs: signer.signMs(),
      refusals,
      serviceLog,
      serviceErrors,
      autovacuum,
      vacuumed,
    });
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
