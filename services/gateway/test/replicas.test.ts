import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createTestDatabase, createTestMerchant, type TestMerchant } from '@agentpay/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, main } from '../src/main.js';

// Two gateway replicas on one database: a request replayed to the other replica is still refused,
// because the nonce store is the shared database, not replica memory.

let replicas: Gateway[] = [];
let drop: () => Promise<void>;
let merchant: TestMerchant;
const keyFile = `/tmp/agentpay-gw-${randomBytes(4).toString('hex')}/platform.pem`;

beforeAll(async () => {
  const database = await createTestDatabase('gateway_replicas');
  drop = database.drop;
  const env = {
    DATABASE_URL: database.url,
    GATEWAY_PORT: '0',
    ADMIN_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    PLATFORM_PRIVATE_KEY_FILE: keyFile,
    // Nothing listens here: business calls fail, but only after the checks this test is about.
    ROUTER_ADDR: '127.0.0.1:1',
    GRPC_TIMEOUT_MS: '500',
  };
  replicas = [await main(env), await main(env)];
  merchant = await createTestMerchant({
    adminUrl: `http://127.0.0.1:${replicas[0]!.adminPort}`,
    gatewayUrl: `http://127.0.0.1:${replicas[0]!.merchantPort}`,
    fund: false,
  });
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  rmSync(keyFile, { force: true });
  await drop?.();
});

describe('gateway replicas', () => {
  it('share one nonce store: a body replayed to the other replica is 20054', async () => {
    const body = merchant.signed({});
    const first = await fetch(`http://127.0.0.1:${replicas[0]!.merchantPort}/gateway/options/pay-methods`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const second = await fetch(`http://127.0.0.1:${replicas[1]!.merchantPort}/gateway/options/pay-methods`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(((await first.json()) as { code: number }).code).not.toBe(20054);
    expect(((await second.json()) as { code: number }).code).toBe(20054);
  });

  it('share one rate limit per merchant: beyond it both replicas answer HTTP 429 with 42900', async () => {
    const limited = await createTestMerchant({
      adminUrl: `http://127.0.0.1:${replicas[0]!.adminPort}`,
      gatewayUrl: `http://127.0.0.1:${replicas[0]!.merchantPort}`,
      fund: false,
    });
    const patched = await fetch(
      `http://127.0.0.1:${replicas[0]!.adminPort}/admin/merchants/${limited.mchNo}`,
      {
        method: 'PATCH',
        headers: { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' },
        body: JSON.stringify({ rateLimitPerS: 5 }),
      },
    );
    expect(patched.status).toBe(200);
    // The other replica caches merchants for up to MERCHANT_CACHE_MS; this one was just told.
    const replies = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const port = replicas[i % 2]!.merchantPort;
        const response = await fetch(`http://127.0.0.1:${port}/gateway/options/pay-methods`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(limited.signed({})),
        });
        return {
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          body: (await response.json()) as { code: number },
        };
      }),
    );
    const limitedReplies = replies.filter((r) => r.body.code === 42900);
    // 30 requests land in at most two one-second windows of 5 each, unless replica 1 still used the
    // default limit from its cache, which it cannot have: it never loaded this new merchant before.
    expect(limitedReplies.length).toBeGreaterThanOrEqual(20);
    for (const r of limitedReplies) {
      expect(r.status).toBe(429);
      expect(r.retryAfter).toBe('1');
    }
  });

  it('answers 503 with a signed 50003 when an internal service is down', async () => {
    const reply = await merchant.request('/gateway/options/pay-methods');
    expect(reply.status).toBe(503);
    expect(reply.envelope.code).toBe(50003);
    expect(reply.signed).toBe(true);
  });

  it('reports not ready on /healthz while its dependencies are down', async () => {
    const response = await fetch(`http://127.0.0.1:${replicas[1]!.merchantPort}/healthz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ checks: { database: true, upstreamRouter: false } });
  });
});
