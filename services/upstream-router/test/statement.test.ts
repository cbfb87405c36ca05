import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDb } from '@agentpay/db';
import { createLogger } from '@agentpay/logger';
import {
  CLIENT_OPTIONS,
  call,
  type GrpcServerHandle,
  loadProtos,
  type StatementLine__Output,
  startGrpcServer,
  type UpstreamRouterClient,
} from '@agentpay/proto';
import { freePort } from '@agentpay/stack';
import { createTestDatabase, migratedTestDatabase, type TestDatabase, waitFor } from '@agentpay/testing';
import * as grpc from '@grpc/grpc-js';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database as SandboxDatabase } from '../../upstream-sandbox/src/db/schema.js';
import { type Sandbox, main as sandboxMain } from '../../upstream-sandbox/src/main.js';
import { createVirtualAccountService } from '../src/accounts/virtual-account.service.js';
import { createAdapters } from '../src/adapters/registry.js';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import { SANDBOX_CODE_MAP } from '../src/options/catalog.js';
import { createOptionsService } from '../src/options/options.service.js';
import { createPayoutService } from '../src/payout/payout.service.js';
import { createRouterHandlers } from '../src/router.grpc.js';
import { createChannels } from '../src/routes/channels.js';
import { findRoute, insertRoute, type NewRoute } from '../src/routes/route.repository.js';
import { createSecretResolver } from '../src/routes/secrets.js';
import { createBreakers } from '../src/routing/circuit-breaker.js';
import { createRouteSelector } from '../src/routing/route-selector.js';
import { createStatementLookups } from '../src/statements/statement-lookups.js';

// StreamStatement end to end: the router's gRPC handlers over its own Postgres (composed here as main.ts
// does, without NATS, which statements do not use), the real sandbox channel over HTTP, and a gRPC
// client reading the stream. A channel that is down or cuts the statement must end the stream with
// UNAVAILABLE: a short statement that ends OK would read as a day with less money in it.

const MCH = 'M_STATEMENT';
const DAY = '2025-07-15';

let routerDb: Awaited<ReturnType<typeof migratedTestDatabase<Database>>>;
let sandboxDatabase: TestDatabase;
let sandboxDb: Kysely<SandboxDatabase>;
let sandbox: Sandbox;
let grpcServer: GrpcServerHandle;
let client: UpstreamRouterClient;
let sandboxUrl: string;
/** A channel that sends two good lines of a statement, then drops the connection. */
let cutting: Server;
/** A channel whose statement is far larger than any buffer, written only as fast as it is read. */
let firehose: Server;
const FIREHOSE_LINES = 100_000;
const produced = { lines: 0, blocked: false, closed: false };

const no = (label: string) => `${label}${randomBytes(6).toString('hex')}`;

function route(id: string, baseUrl: string, extra: Record<string, unknown> = {}): NewRoute {
  return {
    id,
    name: id,
    adapter: 'sandbox',
    config: {
      baseUrl,
      noticeUrl: `http://127.0.0.1:1/notices/${id}`,
      noticeSecretRef: 'SANDBOX_NOTICE_SECRET',
      ...extra,
    },
    credentialsRef: 'SANDBOX_API_KEY',
    enabled: true,
    methods: id === 'sandbox' ? ['mex_virtual_account'] : [],
    payeeTypes: id === 'sandbox' ? ['spei_transfer'] : [],
    priority: 100,
    weight: 100,
    merchantScope: 'all',
    codeMap: SANDBOX_CODE_MAP,
  };
}

/** The whole stream: the lines that arrived and the status it ended with. */
function readStatement(routeId: string, day: string, options: { pauseMs?: number } = {}) {
  return new Promise<{ lines: StatementLine__Output[]; status: grpc.status; details: string }>((resolve) => {
    const lines: StatementLine__Output[] = [];
    const stream = client.StreamStatement({ route_id: routeId, day });
    stream.on('data', (line: StatementLine__Output) => {
      lines.push(line);
      // A slow reader: the server must wait for it rather than buffer the day.
      if (options.pauseMs && lines.length % 10 === 0) {
        stream.pause();
        setTimeout(() => stream.resume(), options.pauseMs);
      }
    });
    stream.on('error', (err: grpc.ServiceError) =>
      resolve({ lines, status: err.code, details: err.details }),
    );
    // 'status' may come while read lines still wait in a paused stream; 'end' comes after the last.
    let ok: grpc.StatusObject | undefined;
    let ended = false;
    const settle = () => {
      if (ok && ended) resolve({ lines, status: ok.code, details: ok.details });
    };
    stream.on('status', (s: grpc.StatusObject) => {
      if (s.code === grpc.status.OK) ok = s;
      settle();
    });
    stream.on('end', () => {
      ended = true;
      settle();
    });
  });
}

async function sandboxCall(path: string, body: unknown) {
  const response = await fetch(`${sandboxUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { depositId: string; createdAt: string };
}

beforeAll(async () => {
  [routerDb, sandboxDatabase] = await Promise.all([
    migratedTestDatabase<Database>('router_statement', migrations),
    createTestDatabase('router_statement_sandbox'),
  ]);
  sandbox = await sandboxMain({
    DATABASE_URL: sandboxDatabase.url,
    HOST: '127.0.0.1',
    SANDBOX_PORT: '0',
    SANDBOX_SETTLE_DELAY_MS: '100',
    SANDBOX_POLL_MS: '50',
    // Statements of a few pages even in a test.
    SANDBOX_STATEMENT_PAGE_SIZE: '7',
    LOG_LEVEL: 'silent',
  });
  sandboxUrl = `http://127.0.0.1:${sandbox.port}`;
  sandboxDb = createDb<SandboxDatabase>(sandboxDatabase.url);

  const good = (n: number) =>
    JSON.stringify({
      reference: `dep_${n}`,
      claveRastreo: `SBXD20250715${String(n).padStart(16, '0')}`,
      kind: 'deposit',
      amount: 100,
      occurredAt: '2025-07-15T18:00:00.000Z',
      account: '646180000000000012',
      platformRef: '',
      upstreamRef: '',
      senderAccount: '',
      senderName: '',
      applied: false,
    });
  cutting = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.write(`${good(1)}\n${good(2)}\n`);
    setTimeout(() => res.socket?.destroy(), 50);
  });
  await new Promise<void>((resolve) => cutting.listen(0, '127.0.0.1', resolve));
  firehose = createServer((_req, res) => {
    Object.assign(produced, { lines: 0, blocked: false, closed: false });
    res.on('close', () => {
      produced.closed = true;
    });
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const more = (): void => {
      produced.blocked = false;
      while (produced.lines < FIREHOSE_LINES) {
        produced.lines++;
        if (!res.write(`${good(produced.lines)}\n`)) {
          produced.blocked = true;
          res.once('drain', more);
          return;
        }
      }
      res.end(`${JSON.stringify({ end: true, day: DAY, lines: FIREHOSE_LINES })}\n`);
    };
    more();
  });
  await new Promise<void>((resolve) => firehose.listen(0, '127.0.0.1', resolve));

  const { db } = routerDb;
  await insertRoute(db, route('sandbox', sandboxUrl));
  await insertRoute(db, route('down', `http://127.0.0.1:${await freePort()}`));
  await insertRoute(db, route('cutting', `http://127.0.0.1:${(cutting.address() as AddressInfo).port}`));
  // A short timeout: a reader pausing longer than it must not pass for a channel gone quiet.
  await insertRoute(
    db,
    route('firehose', `http://127.0.0.1:${(firehose.address() as AddressInfo).port}`, { timeoutMs: 200 }),
  );

  // main.ts's composition, minus NATS and the notice server.
  const logger = createLogger({ service: 'router-statement-test', level: 'silent' });
  const adapters = createAdapters({ timeoutMs: 3_000 });
  const channels = createChannels(adapters, createSecretResolver({}, false));
  const breakers = createBreakers({ failureThreshold: 100, windowMs: 60_000, coolDownMs: 1_000 });
  const selector = createRouteSelector(db, { breakers, logger });
  const protos = loadProtos();
  grpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [
      [
        protos.agentpay.router.v1.UpstreamRouter.service,
        createRouterHandlers({
          logger,
          options: createOptionsService(db),
          virtualAccounts: createVirtualAccountService({
            db,
            selector,
            channels,
            breakers,
            logger,
            quarantineDays: 180,
          }),
          payouts: createPayoutService({ db, selector, channels, breakers, logger }),
          statements: {
            findRoute: (id) => findRoute(db, id),
            channels,
            lookups: (routeId) => createStatementLookups(db, routeId),
          },
        }),
      ],
    ],
  });
  grpcServer.setServing(true);
  client = new protos.agentpay.router.v1.UpstreamRouter(
    `127.0.0.1:${grpcServer.port}`,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
});

afterAll(async () => {
  client?.close();
  await grpcServer?.stop(1_000);
  await sandboxDb?.destroy();
  await sandbox?.stop();
  cutting?.closeAllConnections();
  await new Promise((resolve) => (cutting ? cutting.close(resolve) : resolve(undefined)));
  firehose?.closeAllConnections();
  await new Promise((resolve) => (firehose ? firehose.close(resolve) : resolve(undefined)));
  await Promise.all([routerDb?.drop(), sandboxDatabase?.drop()]);
});

describe('StreamStatement', () => {
  it('streams the channel statement with the references the platform holds (upstream_ref as the router stored it)', async () => {
    const orderNo = no('P');
    const va = await call(client, client.CreateVirtualAccount, {
      mch_no: MCH,
      method: 'mex_virtual_account',
      order_no: orderNo,
      amount: '10050',
      expired_time: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const paid = await sandboxCall('/sandbox/deposits', {
      clabe: va.clabe,
      amount: 100.5,
      senderAccount: '012180000123456782',
      senderName: 'Ana Lopez',
    });
    const transferNo = no('T');
    const submitted = await call(client, client.SubmitPayout, {
      mch_no: MCH,
      transfer_no: transferNo,
      amount: '2500',
      payee_type: 'spei_transfer',
      payee_account: '002010077777777771',
      payee_name: 'Ana RETURN',
      payee_code: '40002',
      reason: 'test',
    });
    // The return is the last movement; wait for it on the channel's own record.
    await waitFor(async () => {
      const row = await sandboxDb
        .selectFrom('payouts')
        .select('status')
        .where('payout_ref', '=', transferNo)
        .executeTakeFirst();
      return row?.status === 'returned';
    });

    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(
      new Date(paid.createdAt),
    );
    const { lines, status } = await readStatement('sandbox', day);
    expect(status).toBe(grpc.status.OK);
    const deposit = lines.find((l) => l.reference === paid.depositId);
    expect(deposit).toEqual({
      route_id: 'sandbox',
      reference: paid.depositId,
      clave_rastreo: expect.stringMatching(/^SBXD[0-9A-F]{24}$/),
      kind: 'deposit',
      amount: '10050',
      occurred_at: paid.createdAt,
      account: va.clabe,
      platform_ref: orderNo,
      upstream_ref: va.upstream_ref,
      sender_account: '012180000123456782',
      sender_name: 'Ana Lopez',
      applied: true,
    });
    const payoutLines = lines.filter((l) => l.platform_ref === transferNo);
    expect(payoutLines.map((l) => [l.kind, l.amount, l.upstream_ref])).toEqual([
      ['payout', '2500', submitted.upstream_ref],
      ['payout_return', '2500', submitted.upstream_ref],
    ]);
    expect(payoutLines[0]!.clave_rastreo).not.toBe(payoutLines[1]!.clave_rastreo);
  });

  it('streams a day of many pages to a slow reader, every line once and in order', async () => {
    const made = [];
    for (let i = 0; i < 60; i++)
      made.push(
        await sandboxCall('/sandbox/deposits', { clabe: '646180999999999990', amount: (100 + i) / 100 }),
      );
    const ids = made.map((d) => d.depositId);
    // Move them to a day of their own, a second apart, in the order they were made.
    for (const [i, id] of ids.entries())
      await sql`update deposits set created_at = ${`${DAY}T12:00:00Z`}::timestamptz + make_interval(secs => ${i})
        where id = ${id}`.execute(sandboxDb);

    const { lines, status } = await readStatement('sandbox', DAY, { pauseMs: 20 });
    expect(status).toBe(grpc.status.OK);
    expect(lines.map((l) => l.reference)).toEqual(ids);
    expect(lines.map((l) => Number(l.amount))).toEqual(ids.map((_, i) => 100 + i));
  });

  it('a reader that stops reading stops the channel read: the router holds back instead of buffering the day', async () => {
    const lines: StatementLine__Output[] = [];
    const stream = client.StreamStatement({ route_id: 'firehose', day: DAY });
    const done = new Promise<grpc.StatusObject>((resolve) => {
      let status: grpc.StatusObject | undefined;
      let ended = false;
      stream.on('status', (s: grpc.StatusObject) => {
        status = s;
        if (ended) resolve(s);
      });
      stream.on('end', () => {
        ended = true;
        if (status) resolve(status);
      });
      stream.on('error', (err: grpc.ServiceError) =>
        resolve({ code: err.code, details: err.details } as grpc.StatusObject),
      );
    });
    stream.on('data', (line: StatementLine__Output) => lines.push(line));
    stream.pause();

    // The channel's writes back up and stay backed up while nobody reads: the same count on several
    // looks in a row, far short of the day.
    const looks: number[] = [];
    const stalledAt = await waitFor(
      () => {
        looks.push(produced.lines);
        const last = looks.slice(-5);
        return produced.blocked && last.length === 5 && last.every((n) => n === last[0]) && last[0];
      },
      { intervalMs: 100, timeoutMs: 20_000 },
    );
    expect(stalledAt).toBeLessThan(FIREHOSE_LINES / 2);

    stream.resume();
    expect(await done).toMatchObject({ code: grpc.status.OK });
    expect(lines).toHaveLength(FIREHOSE_LINES);
    expect(lines.at(-1)?.reference).toBe(`dep_${FIREHOSE_LINES}`);
  });

  it('a reader that cancels stops the channel read', async () => {
    const stream = client.StreamStatement({ route_id: 'firehose', day: DAY });
    stream.on('error', () => {});
    await new Promise((resolve) => stream.once('data', resolve));
    stream.cancel();
    await waitFor(() => produced.closed);
    expect(produced.lines).toBeLessThan(FIREHOSE_LINES);
  });

  it('an unknown route is NOT_FOUND; a day that is not a date is INVALID_ARGUMENT', async () => {
    expect(await readStatement('no-such-route', DAY)).toMatchObject({
      lines: [],
      status: grpc.status.NOT_FOUND,
    });
    expect(await readStatement('sandbox', '2025-02-30')).toMatchObject({
      lines: [],
      status: grpc.status.INVALID_ARGUMENT,
    });
  });

  it('a channel that is down ends the stream UNAVAILABLE', async () => {
    expect(await readStatement('down', DAY)).toMatchObject({ lines: [], status: grpc.status.UNAVAILABLE });
  });

  it('a statement cut after some lines ends the stream UNAVAILABLE after those lines, never OK', async () => {
    const { lines, status } = await readStatement('cutting', DAY);
    expect(lines.map((l) => l.reference)).toEqual(['dep_1', 'dep_2']);
    expect(status).toBe(grpc.status.UNAVAILABLE);
  });

  it('a sandbox stopped mid-day is UNAVAILABLE, and the same day reads whole again once it is back', async () => {
    const own = await createTestDatabase('router_statement_restart');
    try {
      const port = await freePort();
      const env = {
        DATABASE_URL: own.url,
        HOST: '127.0.0.1',
        SANDBOX_PORT: String(port),
        LOG_LEVEL: 'silent',
      };
      await insertRoute(routerDb.db, route('restart', `http://127.0.0.1:${port}`));
      let second = await sandboxMain(env);
      await fetch(`http://127.0.0.1:${port}/sandbox/deposits`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clabe: '646180999999999990', amount: 3 }),
      });
      await second.stop();
      expect(await readStatement('restart', DAY)).toMatchObject({
        lines: [],
        status: grpc.status.UNAVAILABLE,
      });
      second = await sandboxMain(env);
      try {
        expect(await readStatement('restart', DAY)).toMatchObject({ lines: [], status: grpc.status.OK });
      } finally {
        await second.stop();
      }
    } finally {
      await own.drop();
    }
  });
});
