import type { Stack } from '@agentpay/stack';
import { createTestMerchant, createTestPerson, type TestMerchant, type TestPerson, totpCode } from '@agentpay/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// CONTRACT.md section 17 through the whole stack as real processes: people sign in, sessions and tokens
// act as them within their roles, a disabled person stops at once, the audit log proves itself.

const DEV = { authorization: 'Bearer dev-admin-token' };
let stack: Stack;
let gatewayDb: pg.Pool;
let owner: TestPerson;
let merchant: TestMerchant;

async function call(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; base?: string } = {},
) {
  const response = await fetch(`${init.base ?? stack.urls.admin}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { text };
  }
  return { status: response.status, body, text, headers: response.headers };
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  stack = await startTestStack();
  gatewayDb = new pg.Pool({ connectionString: stack.databaseUrl('gateway'), max: 2 });
  merchant = await createTestMerchant({ adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway, fund: false });
  owner = await createTestPerson({ adminUrl: stack.urls.admin, roles: ['owner'] });
}, 120_000);

afterAll(async () => {
  await gatewayDb?.end();
  await stack?.stop();
});

describe('a person', () => {
  it('acts as themself through their session and their personal token', async () => {
    const viaToken = await call('/admin/me', { headers: bearer(owner.token) });
    expect(viaToken.body).toMatchObject({ id: `user:${owner.id}`, email: owner.email, roles: ['owner'], via: 'token' });
    const viaSession = await call('/admin/me', { headers: { cookie: owner.cookie } });
    expect(viaSession.body).toMatchObject({ id: `user:${owner.id}`, via: 'session' });
  });
});
