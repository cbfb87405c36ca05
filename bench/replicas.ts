// The replicas part of `npm run bench` (BENCH_ONLY=replicas runs it alone): what two processes of every
// service and R3 streams on a three-node NATS cluster cost on this one machine, against the single-replica
// stack of the same run. Both run the same create-pay load; the publish figures isolate what three copies
// add to each event's acknowledgement, which the request path does not wait for (the outbox relay does).
import { randomBytes } from 'node:crypto';
import { connectNats, deleteStream, ensureStream } from '@agentpay/messaging';
import {
  type NatsCluster,
  type Stack,
  type StackOptions,
  startNatsCluster,
  startStack,
} from '@agentpay/stack';
import { jetstream } from '@nats-io/jetstream';
import {
  closedLoop,
  cpuBetween,
  cpuSnapshot,
  type LoadResult,
  ok,
  type Prepared,
  peakRssMb,
} from './load.js';
import { benchMerchant, payRequests } from './setup.js';

export interface ReplicasBenchOptions {
  /** The single-replica stack already running, and how it was started (the replicated one copies it). */
  single: Stack;
  startOptions: Omit<StackOptions, 'natsUrl' | 'replicas' | 'databasePrefix' | 'ports'>;
  natsUrl: string;
  prefix: string;
  quick: boolean;
  log: (line?: string) => void;
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** Counts the failures of a load by HTTP status and envelope code, so an error column can be explained. */
function failureTally(): { check: (status: number, body: string) => boolean; text(errors: number): string } {
  const failures = new Map<string, number>();
  return {
    check(status, body) {
      if (ok(status, body)) return true;
      const key = `HTTP ${status} code ${/"code":(\d+)/.exec(body)?.[1] ?? 'none'}`;
      failures.set(key, (failures.get(key) ?? 0) + 1);
      return false;
    },
    // A request that got no answer at all (a broken connection) never reaches `check`.
    text: (errors) => {
      const answered = [...failures.values()].reduce((a, b) => a + b, 0);
      const parts = [...failures].map(([key, n]) => `${n} × ${key}`);
      if (errors > answered) parts.push(`${errors - answered} × no answer`);
      return parts.join(', ');
    },
  };
}

/** Spreads one closed loop over several gateways (as their Service would), `concurrency` in all. */
async function spreadLoop(
  urls: string[],
  requests: Prepared[],
  concurrency: number,
  check: (status: number, body: string) => boolean = ok,
): Promise<LoadResult> {
  const share = Math.ceil(requests.length / urls.length);
  const runs = await Promise.all(
    urls.map((url, i) =>
      closedLoop(
        url,
        requests.slice(i * share, (i + 1) * share),
        Math.max(1, Math.round(concurrency / urls.length)),
        check,
      ),
    ),
  );
  const seconds = Math.max(...runs.map((r) => r.seconds));
  const done = runs.reduce((s, r) => s + r.requests, 0);
  return {
    requests: done,
    errors: runs.reduce((s, r) => s + r.errors, 0),
    seconds,
    throughput: done / seconds,
    // Percentiles of separate loops do not merge: the mean median and the worst p99 stand for them.
    p50: runs.reduce((s, r) => s + r.p50, 0) / runs.length,
    p99: Math.max(...runs.map((r) => r.p99)),
    max: Math.max(...runs.map((r) => r.max)),
  };
}

/** Publishes `count` events with `inFlight` outstanding and times each acknowledgement. */
async function publishAcks(url: string, replicas: number, count: number, inFlight: number) {
  const nc = await connectNats(url, { name: 'bench' });
  const name = `BENCH_${randomBytes(3).toString('hex').toUpperCase()}_R${replicas}`;
  const subject = `${name.toLowerCase()}.events`;
  try {
    await ensureStream(nc, { name, subjects: [`${subject}.>`], replicas });
    const js = jetstream(nc);
    const payload = JSON.stringify({ event_id: '', padding: 'x'.repeat(400) });
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < count) {
          const id = `${name}-${next++}`;
          const t0 = performance.now();
          await js.publish(`${subject}.pay`, payload, { msgID: id });
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
    return { perSecond: count / seconds, p50: at(0.5), p99: at(0.99) };
  } finally {
    await deleteStream(nc, name).catch(() => {});
    await nc.close();
  }
}

/** CPU ms per create-pay over every process of a stack (plus every postgres and nats-server on the machine). */
async function measure(urls: string[], stack: Stack, requests: Prepared[], concurrency: number) {
  const named = Object.fromEntries(stack.processes().map((p) => [`${p.service}#${p.replica}`, p.pid]));
  const failures = failureTally();
  const before = await cpuSnapshot(named);
  const run = await spreadLoop(urls, requests, concurrency, failures.check);
  const used = cpuBetween(before, await cpuSnapshot(named));
  const total = [...used.values()].reduce((a, b) => a + b, 0);
  return {
    run,
    cpuMs: total / run.requests,
    nats: (used.get('nats') ?? 0) / run.requests,
    failures: failures.text(run.errors),
  };
}

/**
 * Measures the single-replica stack, stops it, then starts and measures the replicated one: both at once
 * would hold more Postgres connections than a default server allows (eighteen processes with their pools).
 */
export async function runReplicasBench(opts: ReplicasBenchOptions): Promise<void> {
  const { log, quick } = opts;
  const perLevel = quick ? 300 : 1500;
  const levels = quick ? [16] : [16, 64];
  let cluster: NatsCluster | undefined;
  let replicated: Stack | undefined;
  // The replicated stack's own words for its failures, shown when a run had errors.
  const complaints: string[] = [];
  const rows: { label: string; m: Awaited<ReturnType<typeof measure>> }[] = [];
  try {
    const singleMerchant = await benchMerchant(opts.single.urls.admin);
    await spreadLoop([opts.single.urls.gateway], payRequests(singleMerchant, 200), 8);
    for (const c of levels)
      rows.push({
        label: `1 replica, R1 @ ${c}`,
        m: await measure([opts.single.urls.gateway], opts.single, payRequests(singleMerchant, perLevel), c),
      });
    await opts.single.stop();

    cluster = await startNatsCluster({ nodes: 3 });
    const stream = `${opts.prefix.toUpperCase()}_R_EVENTS`;
    const nc = await connectNats(cluster.url, { name: 'bench' });
    await ensureStream(nc, { name: stream, subjects: [`${opts.prefix}_r.events.>`], replicas: 3 });
    await nc.close();
    replicated = await startStack({
      ...opts.startOptions,
      natsUrl: cluster.url,
      databasePrefix: `${opts.prefix}_r`,
      ports: 'random',
      replicas: 2,
      env: { ...opts.startOptions.env, EVENTS_STREAM_REPLICAS: '3' },
      onLog: (service, line, replica) => {
        if (complaints.length < 400 && /"level":"(warn|error|fatal)"/.test(line))
          complaints.push(`${service}#${replica} ${line.slice(0, 300)}`);
      },
    });
    const replicatedMerchant = await benchMerchant(replicated.urls.admin);
    await spreadLoop(replicated.gatewayUrls, payRequests(replicatedMerchant, 200), 8);
    for (const c of levels)
      rows.push({
        label: `2 replicas, R3 @ ${c}`,
        m: await measure(replicated.gatewayUrls, replicated, payRequests(replicatedMerchant, perLevel), c),
      });

    log('## Two replicas of every service, R3 streams on a three-node NATS cluster');
    log();
    log(
      `The same create-pay closed loop against the single-replica stack (one nats-server, R1 stream), then, with that stack stopped, against two processes of every service (${replicated.processes().length} processes) on a three-node JetStream cluster with an R3 stream, spread over both gateways as their Service would. Both share this machine's ${(await import('node:os')).cpus().length} cores with the load generator and Postgres, so the second pays for its extra processes without gaining any core. CPU counts every process of the stack and every postgres and nats-server process on the machine.`,
    );
    log();
    log('| stack @ concurrency | req/s | p50 ms | p99 ms | errors | CPU ms per create-pay | of which NATS |');
    log('|---|---|---|---|---|---|---|');
    const failed: string[] = [];
    for (const { label, m } of rows) {
      log(
        `| ${label} | ${fmt(m.run.throughput, 0)} | ${fmt(m.run.p50, 2)} | ${fmt(m.run.p99, 2)} | ${m.run.errors} | ${fmt(m.cpuMs, 2)} | ${fmt(m.nats, 2)} |`,
      );
      if (m.failures) failed.push(`${label}: ${m.failures}`);
    }
    log();
    log('Peak RSS of the replicated stack, MB per process:');
    log();
    log('| process | peak RSS MB |');
    log('|---|---|');
    for (const p of replicated.processes())
      log(`| ${p.service}#${p.replica} | ${fmt(await peakRssMb(p.pid), 0)} |`);

    const count = quick ? 1_000 : 5_000;
    log();
    log(
      `Publishing alone: ${count} events of 0.5 KB with 32 acknowledgements outstanding (as a relay's batch publishes), per stream:`,
    );
    log();
    log('| stream | events/s | ack p50 ms | ack p99 ms |');
    log('|---|---|---|---|');
    for (const [label, url, replicas] of [
      ['one nats-server, R1', opts.natsUrl, 1],
      ['three-node cluster, R1', cluster.url, 1],
      ['three-node cluster, R3', cluster.url, 3],
    ] as const) {
      const r = await publishAcks(url, replicas, count, 32);
      log(`| ${label} | ${fmt(r.perSecond, 0)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} |`);
    }
  } finally {
    await replicated?.stop();
    await cluster?.stop();
  }
}
