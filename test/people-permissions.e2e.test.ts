import type { Stack } from '@agentpay/stack';
import { createTestMerchant, createTestPerson, type TestMerchant, type TestPerson } from '@agentpay/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_ROLES, type Permission } from '../services/gateway/src/identity/index.js';
import { ADMIN_PERMISSIONS } from '../services/gateway/src/permissions.js';
import { startTestStack } from './support/stack.js';

// CONTRACT.md section 17: deny by default, checked in one place, with a test per route and role. Generated
// from the one permission table: for every admin route and every operator role that may not call it, a
// person holding only that role gets 403 and nothing changes in any service's database.

let stack: Stack;
let merchant: TestMerchant;
const people = new Map<string, TestPerson>();
const databases: string[] = [];

// Rows every request or the clock touches, not what a route changes.
const VOLATILE = new Set([
  'audit_log',
  'user_sessions',
  'personal_tokens',
  'nonces',
  'rate_windows',
  'kysely_migration',
  'kysely_migration_lock',
]);

/** One hash per table of every service database: what "nothing changed" compares. */
async function fingerprint(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const url of databases) {
    // One short-lived connection at a time: the shared server's connections are few.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const db = url.split('/').at(-1) ?? '';
      const { rows: tables } = await client.query<{ name: string }>(
        "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
      );
      for (const { name } of tables) {
        if (VOLATILE.has(name)) continue;
        const { rows } = await client.query<{ h: string }>(
          `select md5(coalesce(string_agg(md5(t::text), '' order by md5(t::text)), '')) as h from "${name}" t`,
        );
        out[`${db}.${name}`] = rows[0]?.h ?? '';
      }
    } finally {
      await client.end();
    }
  }
  return out;
}

function concrete(p: Permission): string {
  return p.url
    .replaceAll(':mchNo', merchant.mchNo)
    .replaceAll(':token', 'not-a-token')
    .replace(
      /:id\b/g,
      p.url.startsWith('/admin/routes') ? 'sandbox-default' : '00000000-0000-4000-8000-000000000000',
    );
}

const guarded = ADMIN_PERMISSIONS.filter((p): p is Permission & { allow: readonly string[] } =>
  Array.isArray(p.allow),
);
const cases = guarded.flatMap((p) =>
  OPERATOR_ROLES.filter((role) => !p.allow.includes(role)).map((role) => ({ permission: p, role })),
);

beforeAll(async () => {
  // Nothing but the requests may write: the ledger's own schedules (reconciliation runs, the settlement
  // sweep) would change its tables on their own and blur "nothing changed".
  stack = await startTestStack({
    serviceEnv: { ledger: { RECON_SCHEDULE: 'off', SETTLEMENT_SWEEP_INTERVAL_MS: '0' } },
  });
  merchant = await createTestMerchant({
    adminUrl: stack.urls.admin,
    gatewayUrl: stack.urls.gateway,
    fund: false,
  });
  for (const role of OPERATOR_ROLES) {
    people.set(role, await createTestPerson({ adminUrl: stack.urls.admin, roles: [role] }));
  }
  for (const service of [
    'gateway',
    'upstream-router',
    'ledger',
    'notifier',
    'payments',
    'transfers',
  ] as const) {
    databases.push(stack.databaseUrl(service));
  }
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe('every admin route x every operator role without the right', () => {
  it('has a route in the table for each case (the table is not empty)', () => {
    expect(cases.length).toBeGreaterThan(100);
    expect(OPERATOR_ROLES.every((role) => cases.some((c) => c.role === role && c.permission.changes))).toBe(
      false,
    );
  });

  it('answers 403 to each pair, by token and by session, and nothing changes anywhere', async () => {
    const before = await fingerprint();
    expect(Object.keys(before).length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const { permission, role } of cases) {
      const person = people.get(role) as TestPerson;
      const path = concrete(permission);
      const body =
        permission.method === 'GET' || permission.method === 'DELETE' ? undefined : JSON.stringify({});
      const credentials: Record<string, string>[] = [
        { authorization: `Bearer ${person.token}` },
        { cookie: person.cookie, 'x-csrf-token': person.csrfToken },
      ];
      for (const headers of credentials) {
        const response = await fetch(`${stack.urls.admin}${path}`, {
          method: permission.method,
          headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body } : {}),
        });
        await response.arrayBuffer();
        if (response.status !== 403)
          failures.push(`${role} ${permission.method} ${path}: ${response.status}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await fingerprint()).toEqual(before);
  });

  it('refuses a support person every write outside support, and audits each refusal as denied', async () => {
    const support = people.get('support') as TestPerson;
    const writes = guarded.filter((p) => p.changes && !p.allow.includes('support'));
    expect(writes.length).toBeGreaterThan(15);
    const audit = await fetch(
      `${stack.urls.admin}/admin/audit?actor=${encodeURIComponent(`user:${support.id}`)}&limit=500`,
      { headers: { authorization: 'Bearer dev-admin-token' } },
    );
    const entries = ((await audit.json()) as { entries: { action: string; outcome: string }[] }).entries;
    for (const p of writes) {
      expect(
        entries.filter((e) => e.action === p.action && e.outcome === 'denied').length,
        p.action,
      ).toBeGreaterThanOrEqual(2);
    }
  });

  it('lets each role through where the table says it may (so the refusals are about the role)', async () => {
    const reads = guarded.filter((p) => p.method === 'GET' && !p.url.includes(':'));
    for (const p of reads) {
      for (const role of p.allow) {
        const person = people.get(role) as TestPerson;
        const response = await fetch(`${stack.urls.admin}${concrete(p)}`, {
          headers: { authorization: `Bearer ${person.token}` },
        });
        await response.arrayBuffer();
        expect(response.status, `${role} ${p.method} ${p.url}`).not.toBe(403);
        expect(response.status, `${role} ${p.method} ${p.url}`).not.toBe(401);
      }
    }
  });

  it('answers 403 to everyone, owner included, for a route missing from the table', async () => {
    const owner = people.get('owner') as TestPerson;
    const response = await fetch(`${stack.urls.admin}/admin/not-in-the-table`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(response.status).toBe(403);
    expect((await fetch(`${stack.urls.admin}/admin/not-in-the-table`)).status).toBe(401);
  });
});
