// The fixed parts of a create-pay, measured alone: what one gRPC call, one HTTP call, one prepared
// Postgres statement and one RSA signature cost in CPU, caller and callee, built with the services' own
// helpers. Their sum for the five-process path is what no tuning of our own code can remove.
import { fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createDb, executePrepared } from '@agentpay/db';
import { CLIENT_OPTIONS, call, loadProtos } from '@agentpay/proto';
import { generateKeyPair, parsePrivateKey, parsePublicKey, signObject, verifyObject } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { CompiledQuery, sql } from 'kysely';
import { Agent, request } from 'undici';
import { OPEN_ACCOUNT, PAY_ORDER } from './hops-fixture.js';

export interface HopCosts {
  /** CPU µs per call: [caller, callee]. */
  grpc: [number, number];
  http: [number, number];
  statement: [number, number];
  signUs: number;
  verifyUs: number;
}

const cpuUs = (u: NodeJS.CpuUsage) => u.user + u.system;
const HOPS_APPLICATION = 'agentpay-bench-hops';

async function backendCpuUs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000; // USER_HZ 100
}

/** Runs `fn` `total` times, `concurrency` at once. */
async function repeat(total: number, concurrency: number, fn: () => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) await fn();
    }),
  );
}

export async function measureHops(opts: { databaseUrl: string; quick: boolean }): Promise<HopCosts> {
  const calls = opts.quick ? 4_000 : 15_000;
  const child = fork(fileURLToPath(new URL('./hops-server.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  const ports = await new Promise<{ grpcPort: number; httpPort: number }>((resolve) =>
    child.once('message', resolve as (m: unknown) => void),
  );
  const calleeCpu = () =>
    new Promise<number>((resolve) => {
      child.once('message', (m) => resolve(cpuUs((m as { cpu: NodeJS.CpuUsage }).cpu)));
      child.send('cpu');
    });
  /** CPU per call on both sides, after a warm-up of a fifth as many calls. */
  const perCall = async (fn: () => Promise<unknown>): Promise<[number, number]> => {
    await repeat(calls / 5, 16, fn);
    const callee0 = await calleeCpu();
    const caller0 = process.cpuUsage();
    await repeat(calls, 16, fn);
    const caller = cpuUs(process.cpuUsage(caller0)) / calls;
    return [caller, ((await calleeCpu()) - callee0) / calls];
  };

  const protos = loadProtos();
  const client = new protos.agentpay.payments.v1.PaymentService(
    `127.0.0.1:${ports.grpcPort}`,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const db = createDb<Record<string, never>>(opts.databaseUrl, {
    poolSize: 10,
    applicationName: HOPS_APPLICATION,
  });
  try {
    const grpcCost = await perCall(() =>
      call(client, client.GetPayOrder, {
        merchant: { mch_no: PAY_ORDER.mch_no },
        order_no: PAY_ORDER.order_no,
      }),
    );
    const httpCost = await perCall(async () => {
      const response = await request(`http://127.0.0.1:${ports.httpPort}/channel/virtual-accounts`, {
        dispatcher: agent,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'key' },
        body: JSON.stringify(OPEN_ACCOUNT),
      });
      return response.body.json();
    });

    // Autocommitted, prepared inserts … returning, as the hot path runs them, 16 at once over a pool of
    // ten connections like a service's (one at a time, each statement would also pay for waking both
    // processes from idle, which the services under load mostly do not). The backends' CPU is read from
    // /proc for every connection of this pool, found by its application name.
    await sql`create table if not exists hops (id bigserial primary key, ref text not null unique, amount int8 not null)`.execute(
      db,
    );
    const insert =
      'insert into hops (ref, amount) values ($1, $2) on conflict (ref) do nothing returning id, ref';
    let n = 0;
    const statement = () =>
      executePrepared(
        db,
        CompiledQuery.raw(insert, [`r${process.pid}-${n++}`, 10050]) as CompiledQuery<unknown>,
      );
    // As many as the gRPC calls: the backends' CPU is counted in 10 ms ticks, spread over ten processes.
    const statements = calls;
    await repeat(statements / 5, 16, statement);
    const backendsCpuUs = async () => {
      const { rows } = await sql<{ pid: number }>`
        select pid from pg_stat_activity where application_name = ${HOPS_APPLICATION}`.execute(db);
      let total = 0;
      for (const { pid } of rows) total += await backendCpuUs(pid);
      return total;
    };
    const backend0 = await backendsCpuUs();
    const caller0 = process.cpuUsage();
    await repeat(statements, 16, statement);
    const statementCost: [number, number] = [
      cpuUs(process.cpuUsage(caller0)) / statements,
      ((await backendsCpuUs()) - backend0) / statements,
    ];

    const keys = generateKeyPair();
    const privateKey = parsePrivateKey(keys.privateKeyPem);
    const publicKey = parsePublicKey(keys.publicKeyPem);
    const body = {
      code: 0,
      msg: 'success',
      data: PAY_ORDER,
      resTime: '2026-11-21 10:15:00',
      traceId: 'a'.repeat(32),
    };
    const signature = signObject(body, privateKey);
    if (!verifyObject({ ...body, sign: signature }, signature, [publicKey]))
      throw new Error('hops: verify failed');
    const perOp = (fn: () => unknown, times: number) => {
      const t0 = process.cpuUsage();
      for (let i = 0; i < times; i++) fn();
      return cpuUs(process.cpuUsage(t0)) / times;
    };
    const signUs = perOp(() => signObject(body, privateKey), 2_000);
    const verifyUs = perOp(() => verifyObject({ ...body, sign: signature }, signature, [publicKey]), 10_000);
    return { grpc: grpcCost, http: httpCost, statement: statementCost, signUs, verifyUs };
  } finally {
    client.close();
    await agent.close();
    await db.destroy();
    child.send('stop');
  }
}
