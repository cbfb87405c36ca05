// `npx tsx bench/gc-tail.ts`: where the create-pay tail comes from. Runs the bundled stack with
// `--trace-gc` on every service, sends pays in an open loop (BENCH_TAIL_RATE per second, default 220,
// about half of what this machine saturates at), and prints the slowest 1 % of requests next to every
// garbage-collection pause of 5 ms or more, on one timeline. Not part of `npm run bench`: a diagnosis.
// BENCH_NODE_OPTIONS and BENCH_NODE_ARGS (e.g. `--max-semi-space-size=32`) try other V8 settings.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { SERVICES, startStack } from '@agentpay/stack';
import { generateKeyPair } from '@agentpay/wire';
import { bundleService, IMAGE_NODE_OPTIONS } from '../deploy/bundle.js';
import { closedLoop } from './load.js';
import { benchMerchant, dropDatabases, payRequests, workDir } from './setup.js';

const rate = Number(process.env['BENCH_TAIL_RATE'] ?? 220);
const total = rate * 15;
const postgresServer = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const prefix = `tail_${randomBytes(3).toString('hex')}`;
const dir = workDir(prefix);

interface Pause {
  at: number;
  service: string;
  kind: string;
  ms: number;
}
const PAUSE = /(Scavenge|Mark-Compact|Mark-Sweep)[^,]*, (\d+\.\d+) \/ \d+\.\d+ ms/;

const started = performance.now();
const pauses: Pause[] = [];
for (const service of SERVICES) await bundleService(service);
const platformKeyFile = join(dir, 'platform-key.pem');
writeFileSync(platformKeyFile, generateKeyPair().privateKeyPem);
const extraArgs = process.env['BENCH_NODE_ARGS']?.split(' ').filter(Boolean) ?? [];
const stack = await startStack({
  entry: 'bundle',
  postgresUrl: postgresServer,
  natsUrl: process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222',
  databasePrefix: prefix,
  ports: 'random',
  output: 'silent',
  env: {
    PLATFORM_PRIVATE_KEY_FILE: platformKeyFile,
    LOG_LEVEL: 'warn',
    NODE_OPTIONS: process.env['BENCH_NODE_OPTIONS'] ?? IMAGE_NODE_OPTIONS,
  },
  nodeArgs: Object.fromEntries(SERVICES.map((s) => [s, ['--trace-gc', ...extraArgs]])),
  onLog: (service, line) => {
    const m = PAUSE.exec(line);
    if (m) pauses.push({ at: performance.now() - started, service, kind: m[1]!, ms: Number(m[2]) });
  },
});
try {
  const merchant = await benchMerchant(stack.urls.admin);
  await closedLoop(stack.urls.gateway, payRequests(merchant, 2000), 16);
  const requests = payRequests(merchant, total);
  const base = new URL(stack.urls.gateway);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const records: { at: number; ms: number }[] = [];
  pauses.length = 0;
  const from = performance.now();
  const inflight: Promise<void>[] = [];
  for (const [i, request] of requests.entries()) {
    const wait = from + (i * 1000) / rate - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const sent = performance.now();
    inflight.push(
      new Promise<void>((resolve) => {
        const req = http.request(
          { agent, host: base.hostname, port: base.port, path: request.path, method: 'POST' },
          (res) => {
            res.resume();
            res.on('end', () => {
              records.push({ at: sent - started, ms: performance.now() - sent });
              resolve();
            });
          },
        );
        req.setHeader('content-type', 'application/json');
        req.end(request.body);
      }),
    );
  }
  await Promise.all(inflight);
  agent.destroy();
  const sorted = records.map((r) => r.ms).sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(1);
  process.stdout.write(
    `${total} pays at ${rate}/s: p50 ${q(0.5)} ms, p90 ${q(0.9)} ms, p99 ${q(0.99)} ms\n\n`,
  );
  const cut = sorted[Math.floor(0.99 * sorted.length)]!;
  const events = [
    ...records
      .filter((r) => r.ms >= cut)
      .map((r) => ({ at: r.at, line: `request sent, answered in ${r.ms.toFixed(0)} ms` })),
    ...pauses
      .filter((p) => p.ms >= 5)
      .map((p) => ({ at: p.at, line: `  ${p.service} ${p.kind} ${p.ms} ms` })),
  ].sort((a, b) => a.at - b.at);
  process.stdout.write(
    'The slowest 1 % and every pause of 5 ms or more (s since start; a pause is logged as it ends):\n',
  );
  for (const e of events) process.stdout.write(`${(e.at / 1000).toFixed(2).padStart(7)}  ${e.line}\n`);
  process.stdout.write('\nPauses by service during the run:\n');
  for (const service of SERVICES) {
    const own = pauses.filter((p) => p.service === service);
    if (own.length === 0) continue;
    const ms = own.reduce((sum, p) => sum + p.ms, 0);
    const marks = own.filter((p) => p.kind !== 'Scavenge').length;
    process.stdout.write(`  ${service}: ${own.length} (${marks} mark-compact), ${ms.toFixed(0)} ms in all\n`);
  }
} finally {
  await stack.stop();
  await dropDatabases(postgresServer, prefix);
}
