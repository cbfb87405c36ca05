// The ledger's hot paths on this machine: freezes of ONE merchant at 64 in flight, over gRPC from a
// process of its own (the way transfers calls it) and in process, checked for overdraft, and the
// merchant statement query over a million entries of one merchant. Runs alone: `npx tsx bench/ledger.ts` (Postgres and NATS as for the tests; it makes
// and drops its own database and stream). Prints the figures; writes nothing in the tree.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { main } from '@agentpay/ledger';
import { call, type LedgerServiceClient, loadProtos } from '@agentpay/proto';
import * as grpc from '@grpc/grpc-js';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const IN_FLIGHT = 64;
const FREEZES = 20_000;
const AMOUNT = 290;
const FEE = 10;
/** Enough for three quarters of the freezes: the rest must be refused, none may overdraw. */
const FIT = (FREEZES * 3) / 4;
const STATEMENT_ENTRIES = 1_000_000;
const QUERY_RUNS = 25;

const suffix = randomBytes(4).toString('hex');
const database = `bench_ledger_${suffix}`;
const prefix = `bench_ledger_${suffix}`;

async function onServer<T>(fn: (client: pg.Client) => Promise<T>, db = 'postgres'): Promise<T> {
  const url = new URL(SERVER_URL);
  url.pathname = `/${db}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function ms(value: number): string {
  return `${value.toFixed(2)} ms`;
}

type FreezeCall = (mchNo: string, i: number) => Promise<unknown>;

interface DriveResult {
  accepted: number;
  refused: number;
  seconds: number;
  /** CPU seconds the process that sent the freezes used meanwhile. */
  cpuSeconds: number;
}

/** Sends FREEZES freezes of one merchant, IN_FLIGHT at a time; refusals must be INSUFFICIENT_BALANCE. */
async function drive(mchNo: string, freeze: FreezeCall): Promise<DriveResult> {
  let nextIndex = 0;
  let accepted = 0;
  let refused = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (nextIndex < FREEZES) {
        const i = nextIndex++;
        try {
          await freeze(mchNo, i);
          accepted += 1;
        } catch (err) {
          const code =
            (err as { codeName?: string; code?: unknown }).codeName ?? (err as { code?: unknown }).code;
          if (code !== 'INSUFFICIENT_BALANCE') throw err;
          refused += 1;
        }
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return {
    accepted,
    refused,
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
  };
}

const grpcFreeze =
  (client: LedgerServiceClient): FreezeCall =>
  (mchNo, i) =>
    call(client, client.Freeze, {
      mch_no: mchNo,
      transfer_no: `G${i}`,
      biz_transfer_no: `BG${i}`,
      amount: String(AMOUNT),
      fee: String(FEE),
    });

/** The gRPC load from a process of its own, as transfers would call: this file run with `client <port>`. */
function driveFromChild(port: number, mchNo: string): Promise<DriveResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), 'client', String(port), mchNo],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as DriveResult) : reject(new Error(`load process exited ${code}`)),
    );
  });
}

/** Sum and count of the ledger's ledger_batch_size histogram, from its /metrics. */
async function batchSizes(metricsPort: number): Promise<{ sum: number; count: number }> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const read = (name: string) =>
    Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return { sum: read('ledger_batch_size_sum'), count: read('ledger_batch_size_count') };
}

async function benchFreezes(
  label: string,
  mchNo: string,
  run: (mchNo: string) => Promise<DriveResult>,
  client: LedgerServiceClient,
  dbUrl: string,
  metricsPort: number,
): Promise<void> {
  await call(client, client.Adjust, {
    mch_no: mchNo,
    amount: String(FIT * (AMOUNT + FEE)),
    reason: 'bench opening balance',
    reference: 'opening',
  });

  const sampler = new pg.Client({ connectionString: dbUrl });
  await sampler.connect();
  let sampling = true;
  let lowest = Number.POSITIVE_INFINITY;
  let samples = 0;
  const sampled = (async () => {
    while (sampling) {
      const { rows } = await sampler.query<{ balance: string }>(
        `select balance from accounts where id = 'mch:${mchNo}:available'`,
      );
      lowest = Math.min(lowest, Number(rows[0]?.balance));
      samples += 1;
      // Often enough to see every batch, not so often that the sampler takes a core from the ledger.
      await new Promise((r) => setTimeout(r, 2));
    }
  })();

  const batchesBefore = await batchSizes(metricsPort);
  const ledgerCpu = process.cpuUsage();
  const { accepted, refused, seconds, cpuSeconds } = await run(mchNo);
  const ledgerUsed = process.cpuUsage(ledgerCpu);
  sampling = false;
  await sampled;
  const batchesAfter = await batchSizes(metricsPort);
  const batches = batchesAfter.count - batchesBefore.count;
  const { rows } = await sampler.query<{ lowest: string }>(
    `select min(balance_after) as lowest from postings where account = 'mch:${mchNo}:available'`,
  );
  await sampler.end();
  const balance = await call(client, client.GetBalance, { mch_no: mchNo });
  const check = await call(client, client.Check, {});

  console.log(`freezes of one merchant, ${IN_FLIGHT} in flight, ${label}:`);
  console.log(`  ${FREEZES} freezes in ${seconds.toFixed(2)} s = ${Math.round(FREEZES / seconds)} freezes/s`);
  console.log(`  accepted ${accepted} (expected ${FIT}), refused ${refused} as INSUFFICIENT_BALANCE`);
  console.log(
    `  CPU: ${((1000 * (ledgerUsed.user + ledgerUsed.system)) / 1e6 / FREEZES).toFixed(3)} ms per freeze in the ledger process` +
      ` (the in-process caller included), ${((1000 * cpuSeconds) / FREEZES).toFixed(3)} ms in the caller`,
  );
  console.log(
    `  in ${batches} transactions, ${((batchesAfter.sum - batchesBefore.sum) / Math.max(1, batches)).toFixed(1)} freezes each on average`,
  );
  console.log(
    `  available sampled ${samples} times while they ran, lowest ${lowest}; lowest posting balance ${rows[0]?.lowest}; ` +
      `now available ${balance.available}, frozen ${balance.frozen}`,
  );
  console.log(`  check: ok=${check.ok} entries=${check.entries} problems=${check.problems.length}`);
  if (
    accepted !== FIT ||
    lowest < 0 ||
    Number(rows[0]?.lowest) < 0 ||
    balance.available !== '0' ||
    !check.ok
  ) {
    throw new Error('overdraft or miscount: the ledger is wrong');
  }
}

async function benchStatement(client: LedgerServiceClient): Promise<void> {
  const mchNo = 'MSTATEMENT';
  const loadStarted = performance.now();
  await onServer(async (c) => {
    // Written straight into the journal (the query is what is measured), a month of entries of one merchant.
    await c.query(
      `insert into entries (key, type, mch_no, amount, fee, available_change, pending_change, frozen_change,
         available_after, pending_after, frozen_after, created_at)
       select $1 || ':' || g, 'adjust', $1, 1, 0, 1, 0, 0, g, 0, 0,
         now() - interval '30 days' + g * ($2::float8 / $3) * interval '1 second'
       from generate_series(1, $3) g`,
      [mchNo, 29 * 24 * 3600, STATEMENT_ENTRIES],
    );
    await c.query('analyze entries');
  }, database);
  console.log(
    `statement of one merchant with ${STATEMENT_ENTRIES.toLocaleString('en')} entries (loaded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s):`,
  );

  const now = Date.now();
  // The contract allows 31 days per query: the window spans all of them.
  const window = {
    start_time: new Date(now - 31 * 24 * 3600_000).toISOString(),
    end_time: new Date(now).toISOString(),
  };
  const deepId = await onServer(async (c) => {
    const { rows } = await c.query<{ id: string }>('select id from entries where key = $1', [
      `${mchNo}:${STATEMENT_ENTRIES / 2}`,
    ]);
    return Number(rows[0]?.id);
  }, database);
  const deepCursor = Buffer.from(`e${deepId}`).toString('base64url');

  for (const [label, cursor, limit] of [
    ['first page of 100', '', 100],
    ['first page of 500', '', 500],
    ['page of 500 after the 500,000th entry', deepCursor, 500],
  ] as const) {
    const times: number[] = [];
    let count = 0;
    for (let i = 0; i < QUERY_RUNS; i++) {
      const started = performance.now();
      const page = await call(client, client.ListRecords, { mch_no: mchNo, ...window, limit, cursor });
      times.push(performance.now() - started);
      count = page.records.length;
    }
    console.log(
      `  ${label}: median ${ms(median(times))} over ${QUERY_RUNS} runs via gRPC (${count} records)`,
    );
  }
}

async function run(): Promise<void> {
  await onServer((c) => c.query(`create database ${database}`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${database}`;
  const dbUrl = url.toString();
  const ledger = await main({
    ...process.env,
    DATABASE_URL: dbUrl,
    NATS_URL,
    GRPC_PORT: '0',
    METRICS_PORT: '0',
    HOST: '127.0.0.1',
    EVENTS_STREAM: prefix.toUpperCase(),
    EVENTS_SUBJECT_PREFIX: `${prefix}.events`,
    LEDGER_CONSUMER: prefix,
    SETTLEMENT_SWEEP_INTERVAL_MS: '0',
    // No router here: the ledger alone, without its daily reconciliation.
    RECON_SCHEDULE: 'off',
    LOG_LEVEL: 'warn',
  });
  const client = new (loadProtos().agentpay.ledger.v1.LedgerService)(
    `127.0.0.1:${ledger.grpcPort}`,
    grpc.credentials.createInsecure(),
  );
  try {
    await benchFreezes(
      'over gRPC from another process',
      'MHOT',
      (mchNo) => driveFromChild(ledger.grpcPort, mchNo),
      client,
      dbUrl,
      ledger.metricsPort,
    );
    await benchFreezes(
      'calling the use case in process (no gRPC)',
      'MHOT2',
      (mchNo) =>
        drive(mchNo, (m, i) =>
          ledger.ledger.freeze({
            mchNo: m,
            transferNo: `D${i}`,
            bizTransferNo: `BD${i}`,
            amount: AMOUNT,
            fee: FEE,
          }),
        ),
      client,
      dbUrl,
      ledger.metricsPort,
    );
    await benchStatement(client);
  } finally {
    client.close();
    await ledger.stop();
    const nc = await connect({ servers: NATS_URL });
    await (await jetstreamManager(nc)).streams.delete(prefix.toUpperCase()).catch(() => false);
    await nc.close();
    await onServer((c) => c.query(`drop database if exists ${database} with (force)`));
  }
}

if (process.argv[2] === 'client') {
  const client = new (loadProtos().agentpay.ledger.v1.LedgerService)(
    `127.0.0.1:${process.argv[3]}`,
    grpc.credentials.createInsecure(),
  );
  const result = await drive(process.argv[4] ?? 'MHOT', grpcFreeze(client));
  client.close();
  process.stdout.write(JSON.stringify(result));
} else {
  await run();
}
