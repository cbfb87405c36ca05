import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createDb } from '@agentpay/db';
import { CLIENT_OPTIONS, call, loadProtos, type UpstreamRouterClient } from '@agentpay/proto';
import { freePort } from '@agentpay/stack';
import { createTestDatabase, type TestDatabase } from '@agentpay/testing';
import { AppError } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect } from 'vitest';
import { type Sandbox, main as sandboxMain } from '../../../upstream-sandbox/src/main.js';
import type { Database } from '../../src/db/schema.js';
import { type Router, main as routerMain } from '../../src/main.js';
import { SANDBOX_CODE_MAP } from '../../src/options/catalog.js';
import { bindMerchant, insertRoute } from '../../src/routes/route.repository.js';
import { startComplianceStub } from '../compliance-stub.js';
import { startNoticeStream } from '../notice-stream.js';

// The router between real processes' worth of code: its own main (gRPC + notice HTTP + Postgres), the
// real sandbox channel over HTTP, and a JetStream reader standing in for payments and transfers, which
// apply the NoticeReceived events the router publishes. One per test file: `useRouterStack()` starts it
// before the file's tests and stops it after. Its merchants: M_MAIN and M_FAILOVER are served by the
// seeded sandbox route (M_FAILOVER behind a dead route first), M_DEAD by the dead route only, M_SLOW by a
// hung route first, M_NONE by none.

export const M_MAIN = 'M_MAIN';
export const M_FAILOVER = 'M_FAILOVER';
export const M_DEAD = 'M_DEAD';
export const M_NONE = 'M_NONE';
export const M_SLOW = 'M_SLOW';

export const no = (label: string) => `${label}${randomBytes(6).toString('hex')}`;
export const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

export async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

/** Starts the router, the sandbox and the notice reader for this file's tests, and stops them after. */
export function useRouterStack() {
  let routerDatabase: TestDatabase;
  let sandboxDatabase: TestDatabase;
  let notices: Awaited<ReturnType<typeof startNoticeStream>>;
  let compliance: Awaited<ReturnType<typeof startComplianceStub>>;
  let sandbox: Sandbox;
  let router: Router;
  let db: Kysely<Database>;
  let client: UpstreamRouterClient;
  let sandboxUrl: string;
  let noticeUrl: string;
  /** A channel that accepts connections and never answers, as a hung upstream would. */
  let hanging: Server;

  function createVa(mchNo: string, orderNo: string, amount = '10050') {
    return call(client, client.CreateVirtualAccount, {
      mch_no: mchNo,
      method: 'mex_virtual_account',
      order_no: orderNo,
      amount,
      expired_time: inAnHour(),
    });
  }

  function submit(mchNo: string, transferNo: string, payee: Record<string, string> = {}) {
    return call(client, client.SubmitPayout, {
      mch_no: mchNo,
      transfer_no: transferNo,
      amount: '2500',
      payee_type: 'spei_transfer',
      payee_account: '002010077777777771',
      payee_name: 'Ana Lopez',
      payee_code: '40002',
      reason: 'test',
      ...payee,
    });
  }

  function inquire(mchNo: string, payee: Record<string, string> = {}) {
    return call(client, client.InquirePayee, {
      mch_no: mchNo,
      payee_type: 'spei_transfer',
      payee_account: '002010077777777771',
      payee_name: 'Ana Lopez',
      payee_code: '40002',
      ...payee,
    });
  }

  async function sandboxNotices(ref: string) {
    const response = await fetch(`${sandboxUrl}/sandbox/notices?ref=${ref}`);
    return (
      (await response.json()) as {
        notices: { noticeId: string; deliveredAt: string | null; lastStatus: number | null }[];
      }
    ).notices;
  }

  async function pay(clabe: string, amount: number) {
    const response = await fetch(`${sandboxUrl}/sandbox/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clabe, amount }),
    });
    expect(response.status).toBe(201);
  }

  /** The NoticeReceived events the router wrote to its outbox for an order or transfer number. */
  async function outboxRows(ref: string) {
    const rows = await db.selectFrom('outbox').select(['id', 'subject', 'payload']).orderBy('seq').execute();
    return rows.filter((r) => {
      const event = r.payload as { payment?: { order_no: string }; payout?: { transfer_no: string } };
      return event.payment?.order_no === ref || event.payout?.transfer_no === ref;
    });
  }

  function postNotice(routeId: string, body: string, signature: string) {
    return fetch(`${noticeUrl}/notices/${routeId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature },
      body,
    });
  }

  beforeAll(async () => {
    [routerDatabase, sandboxDatabase] = await Promise.all([
      createTestDatabase('router'),
      createTestDatabase('router_sandbox'),
    ]);
    notices = await startNoticeStream();
    compliance = await startComplianceStub();
    sandbox = await sandboxMain({
      DATABASE_URL: sandboxDatabase.url,
      HOST: '127.0.0.1',
      SANDBOX_PORT: '0',
      SANDBOX_SETTLE_DELAY_MS: '150',
      SANDBOX_POLL_MS: '50',
      SANDBOX_NOTICE_BACKOFF_MS: '100',
      LOG_LEVEL: 'silent',
    });
    sandboxUrl = `http://127.0.0.1:${sandbox.port}`;
    const noticePort = await freePort();
    noticeUrl = `http://127.0.0.1:${noticePort}`;
    router = await routerMain({
      DATABASE_URL: routerDatabase.url,
      HOST: '127.0.0.1',
      GRPC_PORT: '0',
      NOTICE_PORT: String(noticePort),
      METRICS_PORT: '0',
      SANDBOX_URL: sandboxUrl,
      PUBLIC_NOTICE_URL: noticeUrl,
      COMPLIANCE_ADDR: compliance.address,
      ...notices.env,
      UPSTREAM_TIMEOUT_MS: '3000',
      LOG_LEVEL: 'silent',
    });

    // The seeded route serves only two test merchants; a route to a dead port comes first for two others.
    db = createDb<Database>(routerDatabase.url);
    await db
      .updateTable('routes')
      .set({ merchant_scope: 'list' })
      .where('id', '=', 'sandbox-default')
      .execute();
    await bindMerchant(db, 'sandbox-default', M_MAIN);
    await bindMerchant(db, 'sandbox-default', M_FAILOVER);
    await insertRoute(db, {
      id: 'dead-first',
      name: 'Dead channel',
      adapter: 'sandbox',
      config: {
        baseUrl: `http://127.0.0.1:${await freePort()}`,
        noticeUrl: `${noticeUrl}/notices/dead-first`,
      },
      credentialsRef: 'SANDBOX_API_KEY',
      enabled: true,
      methods: ['mex_virtual_account'],
      payeeTypes: ['spei_transfer', 'bank_card', 'user_id', 'open_id', 'login_name'],
      priority: 1,
      weight: 100,
      merchantScope: 'list',
      codeMap: SANDBOX_CODE_MAP,
    });
    await bindMerchant(db, 'dead-first', M_FAILOVER);
    await bindMerchant(db, 'dead-first', M_DEAD);

    hanging = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    await insertRoute(db, {
      id: 'slow-first',
      name: 'Hung channel',
      adapter: 'sandbox',
      config: {
        baseUrl: `http://127.0.0.1:${(hanging.address() as { port: number }).port}`,
        noticeUrl: `${noticeUrl}/notices/slow-first`,
        timeoutMs: 300,
      },
      credentialsRef: 'SANDBOX_API_KEY',
      enabled: true,
      methods: ['mex_virtual_account'],
      payeeTypes: ['spei_transfer'],
      priority: 1,
      weight: 100,
      merchantScope: 'list',
      codeMap: SANDBOX_CODE_MAP,
    });
    await bindMerchant(db, 'slow-first', M_SLOW);
    await bindMerchant(db, 'sandbox-default', M_SLOW);

    const protos = loadProtos();
    client = new protos.agentpay.router.v1.UpstreamRouter(
      `127.0.0.1:${router.grpcPort}`,
      grpc.credentials.createInsecure(),
      CLIENT_OPTIONS,
    );
  });

  afterAll(async () => {
    client?.close();
    await db?.destroy();
    await router?.stop();
    await sandbox?.stop();
    await notices?.stop();
    await compliance?.stop();
    hanging?.closeAllConnections();
    await new Promise((resolve) => (hanging ? hanging.close(resolve) : resolve(undefined)));
    await Promise.all([routerDatabase?.drop(), sandboxDatabase?.drop()]);
  });

  return {
    createVa,
    submit,
    inquire,
    sandboxNotices,
    pay,
    outboxRows,
    postNotice,
    get db() {
      return db;
    },
    get client() {
      return client;
    },
    get notices() {
      return notices;
    },
    get sandboxUrl() {
      return sandboxUrl;
    },
    get noticeUrl() {
      return noticeUrl;
    },
    get routerDatabase() {
      return routerDatabase;
    },
  };
}
