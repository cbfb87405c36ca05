import { createDb } from '@agentpay/db';
import { loadProtos, type UpstreamRouterClient } from '@agentpay/proto';
import { freePort } from '@agentpay/stack';
import { createTestDatabase, type TestDatabase } from '@agentpay/testing';
import * as grpc from '@grpc/grpc-js';
import type { Kysely } from 'kysely';
import { type Sandbox, main as sandboxMain } from '../../upstream-sandbox/src/main.js';
import type { Database } from '../src/db/schema.js';
import { type Router, main as routerMain } from '../src/main.js';
import { startComplianceStub } from './compliance-stub.js';
import { startNoticeStream } from './notice-stream.js';

/**
 * The router's own main (gRPC, notice port, Postgres) beside the real sandbox process with its STP face, whose
 * webhooks reach the router's seeded `stp-default` route; a JetStream reader stands in for payments and
 * transfers. The test itself is a trusted proxy of the notice port, so it may name a caller (X-Forwarded-For).
 */
export async function startChannelStack(name: string, routerEnv: Record<string, string> = {}) {
  const [routerDatabase, sandboxDatabase]: TestDatabase[] = await Promise.all([
    createTestDatabase(`router_${name}`),
    createTestDatabase(`router_${name}_sandbox`),
  ]);
  const notices = await startNoticeStream();
  const compliance = await startComplianceStub();
  const noticePort = await freePort();
  const noticeUrl = `http://127.0.0.1:${noticePort}`;
  const sandbox: Sandbox = await sandboxMain({
    DATABASE_URL: sandboxDatabase!.url,
    HOST: '127.0.0.1',
    SANDBOX_PORT: '0',
    SANDBOX_SETTLE_DELAY_MS: '150',
    SANDBOX_POLL_MS: '50',
    SANDBOX_NOTICE_BACKOFF_MS: '100',
    STP_EMULATOR_WEBHOOK_BASE: `${noticeUrl}/notices/stp-default`,
    LOG_LEVEL: 'silent',
  });
  const sandboxUrl = `http://127.0.0.1:${sandbox.port}`;
  const router: Router = await routerMain({
    DATABASE_URL: routerDatabase!.url,
    HOST: '127.0.0.1',
    GRPC_PORT: '0',
    NOTICE_PORT: String(noticePort),
    METRICS_PORT: '0',
    SANDBOX_URL: sandboxUrl,
    PUBLIC_NOTICE_URL: noticeUrl,
    TRUSTED_PROXIES: '127.0.0.1,::1',
    COMPLIANCE_ADDR: compliance.address,
    ...notices.env,
    UPSTREAM_TIMEOUT_MS: '3000',
    LOG_LEVEL: 'silent',
    ...routerEnv,
  });
  const db: Kysely<Database> = createDb<Database>(routerDatabase!.url);
  const client: UpstreamRouterClient = new (loadProtos().agentpay.router.v1.UpstreamRouter)(
    `127.0.0.1:${router.grpcPort}`,
    grpc.credentials.createInsecure(),
  );

  /** A tester's call to the sandbox (GET without a body); throws on a non-2xx answer. */
  async function sandboxCall<T>(path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${sandboxUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }

  return {
    db,
    client,
    notices,
    router,
    compliance,
    sandboxUrl,
    noticeUrl,
    sandboxCall,
    async stop() {
      client.close();
      await router.stop();
      await sandbox.stop();
      await notices.stop();
      await compliance.stop();
      await db.destroy();
      await Promise.all([routerDatabase?.drop(), sandboxDatabase?.drop()]);
    },
  };
}

export type ChannelStack = Awaited<ReturnType<typeof startChannelStack>>;
