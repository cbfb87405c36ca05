import type { Stack } from '@agentpay/stack';
import {
  createTestMerchant,
  createTestPerson,
  type TestMerchant,
  type TestPerson,
  waitFor,
} from '@agentpay/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// Four eyes (services/gateway/README.md) through the whole stack as real processes: a request that moves money
// waits for a second person; the person who asked cannot approve; two approvals at the same moment execute
// once; an approval survives a crash of the gateway between the approval and the execution; the ledger and
// the router record who asked, and for which approval.

const DEV = 'dev-admin-token';
let stack: Stack;
let gatewayDb: pg.Pool;
let ledgerDb: pg.Pool;
let merchant: TestMerchant;
let approver: TestPerson;
let owner: TestPerson;
let reconciler: TestPerson;

type Json = Record<string, unknown>;
type Approval = {
  id: string;
  state: string;
  action: string;
  summary: string;
  result?: { status: number; body: Json };
  requestedBy?: { id: string; label: string };
  decidedBy?: { id: string; label: string };
};

async function call<T = Json>(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${stack.urls.admin}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
}

const approve = (id: string, token: string) =>
  call<{ approval: Approval }>('POST', `/admin/approvals/${id}/approve`, token);

async function available(mchNo: string): Promise<number> {
  const balance = await call<{ available: number }>('GET', `/admin/merchants/${mchNo}/balance`, owner.token);
  return balance.body.available;
}

async function adjustmentsOf(mchNo: string) {
  const { rows } = await ledgerDb.query<{
    key: string;
    amount: string;
    actor_label: string;
    approval_id: string;
  }>(
    `select e.key, e.amount, o.actor_label, o.approval_id
       from entries e left join entry_origins o on o.entry_key = e.key
      where e.mch_no = $1 and e.type = 'adjust' order by e.id`,
    [mchNo],
  );
  return rows;
}

beforeAll(async () => {
  stack = await startTestStack({
    serviceEnv: { gateway: { APPROVALS_LEASE_MS: '1000', APPROVALS_SWEEP_MS: '500' } },
  });
  gatewayDb = new pg.Pool({ connectionString: stack.databaseUrl('gateway'), max: 2 });
  ledgerDb = new pg.Pool({ connectionString: stack.databaseUrl('ledger'), max: 2 });
  merchant = await createTestMerchant({
    adminUrl: stack.urls.admin,
    gatewayUrl: stack.urls.gateway,
    fund: false,
  });
  [approver, owner, reconciler] = await Promise.all([
    createTestPerson({ adminUrl: stack.urls.admin, roles: ['approver'] }),
    createTestPerson({ adminUrl: stack.urls.admin, roles: ['owner'] }),
    createTestPerson({ adminUrl: stack.urls.admin, roles: ['reconciliation'] }),
  ]);
}, 180_000);

afterAll(async () => {
  await gatewayDb?.end();
  await ledgerDb?.end();
  await stack?.stop();
});

describe('a manual adjustment', () => {
  it('waits for a second person; what would be refused is refused at once, with no approval', async () => {
    const before = (await gatewayDb.query('select count(*)::int as n from approvals')).rows[0].n as number;
    const refusals = [
      await call('POST', `/admin/merchants/${merchant.mchNo}/adjustments`, DEV, {
        amount: 0,
        reason: 'x',
        reference: 'r0',
      }),
      await call('POST', '/admin/merchants/NO_SUCH/adjustments', DEV, {
        amount: 5,
        reason: 'x',
        reference: 'r0',
      }),
      await call('POST', `/admin/merchants/${merchant.mchNo}/adjustments`, DEV, {
        amount: -5,
        reason: 'more than there is',
        reference: 'r0',
      }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([400, 404, 409]);
    expect((await gatewayDb.query('select count(*)::int as n from approvals')).rows[0].n).toBe(before);

    const asked = await call<{ approval: Approval }>(
      'POST',
      `/admin/merchants/${merchant.mchNo}/adjustments`,
      reconciler.token,
      {
        amount: 125.5,
        reason: 'goodwill',
        reference: 'four-eyes-1',
      },
    );
    expect(asked.status).toBe(202);
    expect(asked.body.approval).toMatchObject({ state: 'pending', action: 'adjustment.create' });
    expect(asked.body.approval.summary).toContain('+125.50 MXN');
    expect(await available(merchant.mchNo)).toBe(0);

    // The person who asked cannot approve (nor could they: reconciliation may not), and neither may a role
    // without approver or owner.
    expect((await approve(asked.body.approval.id, reconciler.token)).status).toBe(403);
    expect(await available(merchant.mchNo)).toBe(0);
    const waiting = await call<{ items: Approval[] }>('GET', '/admin/approvals?mine=waiting', approver.token);
    expect(waiting.body.items.map((i) => i.id)).toContain(asked.body.approval.id);

    const approved = await approve(asked.body.approval.id, approver.token);
    expect(approved).toMatchObject({
      status: 200,
      body: {
        approval: {
          state: 'executed',
          result: { status: 201, body: { created: true } },
          requestedBy: { label: reconciler.email },
          decidedBy: { label: approver.email },
        },
      },
    });
    expect(await available(merchant.mchNo)).toBe(125.5);
    // The ledger records who asked, and the approval.
    expect(await adjustmentsOf(merchant.mchNo)).toEqual([
      {
        key: `adjust:${merchant.mchNo}:four-eyes-1`,
        amount: '12550',
        actor_label: reconciler.email,
        approval_id: asked.body.approval.id,
      },
    ]);
    // Both people in the audit log, tied by the approval.
    const { rows } = await gatewayDb.query<{ actor_label: string; action: string }>(
      'select actor_label, action from audit_log where approval_id = $1 order by id',
      [asked.body.approval.id],
    );
    expect(rows).toEqual([
      { actor_label: reconciler.email, action: 'approval.request' },
      { actor_label: approver.email, action: 'approval.approve' },
      { actor_label: approver.email, action: 'adjustment.create' },
    ]);
  });

  it('system:dev is one person: it asks, and cannot approve its own request', async () => {
    const asked = await call<{ approval: Approval }>(
      'POST',
      `/admin/merchants/${merchant.mchNo}/adjustments`,
      DEV,
      {
        amount: 1,
        reason: 'dev',
        reference: 'four-eyes-dev',
      },
    );
    expect(asked.status).toBe(202);
    expect((await approve(asked.body.approval.id, DEV)).status).toBe(403);
    expect((await approve(asked.body.approval.id, approver.token)).body.approval.state).toBe('executed');
  });

  it('two approvers at the same moment: one executes it, the other gets 409, booked once', async () => {
    const before = await available(merchant.mchNo);
    const asked = await call<{ approval: Approval }>(
      'POST',
      `/admin/merchants/${merchant.mchNo}/adjustments`,
      DEV,
      {
        amount: 10,
        reason: 'race',
        reference: 'four-eyes-race',
      },
    );
    const answers = await Promise.all([
      approve(asked.body.approval.id, approver.token),
      approve(asked.body.approval.id, owner.token),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await available(merchant.mchNo)).toBe(before + 10);
    expect(
      (await adjustmentsOf(merchant.mchNo)).filter((a) => a.key.endsWith('four-eyes-race')),
    ).toHaveLength(1);
  });
});

describe('routes', () => {
  const body = {
    id: 'four-eyes-route',
    name: 'Four eyes',
    adapter: 'sandbox',
    config: { baseUrl: 'http://127.0.0.1:9', noticeSecretRef: 'SANDBOX_NOTICE_SECRET' },
    credentialsRef: 'SANDBOX_API_KEY',
    methods: ['mex_virtual_account'],
    enabled: false,
    weight: 0,
  };

  it('creating one waits for approval, checked by the router first; the route names who and the approval', async () => {
    const refused = await call('POST', '/admin/routes', DEV, { ...body, adapter: 'no-such-adapter' });
    expect(refused.status).toBe(400);
    const asked = await call<{ approval: Approval }>('POST', '/admin/routes', DEV, body);
    expect(asked.status).toBe(202);
    expect((await call('GET', `/admin/routes/${body.id}`, owner.token)).status).toBe(404);
    expect((await approve(asked.body.approval.id, approver.token)).body.approval).toMatchObject({
      state: 'executed',
      result: { status: 201 },
    });
    expect((await call('GET', `/admin/routes/${body.id}`, owner.token)).body).toMatchObject({
      id: body.id,
      createdBy: 'system:dev',
      approvalId: asked.body.approval.id,
    });
  });

  it('name, weight, priority and enabled change at once (incidents); settings and merchants wait', async () => {
    const atOnce = await call('PATCH', `/admin/routes/${body.id}`, owner.token, {
      weight: 3,
      name: 'Renamed',
    });
    expect(atOnce).toMatchObject({
      status: 200,
      body: { weight: 3, name: 'Renamed', updatedBy: owner.email },
    });
    const waits = await call<{ approval: Approval }>('PATCH', `/admin/routes/${body.id}`, owner.token, {
      weight: 4,
      config: { timeoutMs: 2000 },
    });
    expect(waits.status).toBe(202);
    expect((await call('GET', `/admin/routes/${body.id}`, owner.token)).body).toMatchObject({ weight: 3 });
    expect(
      (await call('PUT', `/admin/routes/${body.id}/merchants`, owner.token, { merchants: [merchant.mchNo] }))
        .status,
    ).toBe(202);
    expect((await call('POST', `/admin/routes/${body.id}/merchants/NO_SUCH`, owner.token)).status).toBe(404);
    const executed = await approve(waits.body.approval.id, approver.token);
    expect(executed.body.approval.result?.body).toMatchObject({ weight: 4, config: { timeoutMs: 2000 } });
  });
});

describe('a crash between the approval and the execution', () => {
  it('the approval survives a restart of the gateway and is executed once, by the sweep', async () => {
    const before = await available(merchant.mchNo);
    const asked = await call<{ approval: Approval }>(
      'POST',
      `/admin/merchants/${merchant.mchNo}/adjustments`,
      DEV,
      {
        amount: 7,
        reason: 'crash',
        reference: 'four-eyes-crash',
      },
    );
    expect(asked.status).toBe(202);
    await stack.restart('gateway', { env: { APPROVALS_CRASH_POINT: 'after-approve' } });
    // The gateway dies right after the approval commits: the answer never comes.
    await expect(approve(asked.body.approval.id, approver.token)).rejects.toThrow();
    await waitFor(async () => !stack.running('gateway'), { message: 'the gateway died at the crash point' });
    const row = await gatewayDb.query('select state from approvals where id = $1', [asked.body.approval.id]);
    expect(row.rows).toEqual([{ state: 'approved' }]);
    expect((await adjustmentsOf(merchant.mchNo)).filter((a) => a.key.endsWith('four-eyes-crash'))).toEqual(
      [],
    );

    await stack.restart('gateway', { env: { APPROVALS_CRASH_POINT: 'none' } });
    const done = await waitFor(
      async () => {
        const got = await call<Approval>('GET', `/admin/approvals/${asked.body.approval.id}`, approver.token);
        return got.body.state === 'executed' ? got.body : undefined;
      },
      { message: 'the sweep executed the approval after the restart', timeoutMs: 20_000 },
    );
    expect(done.result).toMatchObject({ status: 201 });
    expect(await available(merchant.mchNo)).toBe(before + 7);
    expect(
      (await adjustmentsOf(merchant.mchNo)).filter((a) => a.key.endsWith('four-eyes-crash')),
    ).toHaveLength(1);
  });
});
