import { createHttpServer, type FastifyInstance } from '@agentpay/http';
import { createLogger } from '@agentpay/logger';
import { migratedTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type AdminOperation,
  createOperationRegistry,
  type HttpResult,
  type PerformContext,
} from '../src/approvals/admin-operation.js';
import { createFourEyes, registerApprovals } from '../src/approvals/approvals.routes.js';
import {
  type ApprovalAuditEntry,
  type Approvals,
  createApprovals,
} from '../src/approvals/approvals.service.js';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import type { Actor } from '../src/identity/actor.js';

// Four eyes on its own: a real Postgres, the approvals' admin API on a Fastify app whose stand-in for the
// authorisation hook sets the actor from a test header and hands POST /admin/things/:id to the interception.
// The operation counts what it does per approval, as a service's idempotency key would.

const logger = createLogger({ service: 'test', level: 'silent' });
let db: Kysely<Database>;
let drop: () => Promise<void>;

const person = (id: string, roles: string[]): Actor => ({
  id,
  kind: id.startsWith('system:') ? 'system' : 'person',
  label: `${id}@ops.example`,
  roles,
  scope: { kind: 'operator' },
  via: 'session',
  ip: '127.0.0.1',
  userAgent: 'test',
});
const ANA = person('user:ana', ['admin']);
const BEA = person('user:bea', ['approver']);
const CARL = person('user:carl', ['owner']);
const DAN = person('user:dan', ['admin', 'support']);
const DEV = person('system:dev', ['owner', 'admin', 'approver', 'reconciliation', 'support', 'auditor']);

/** What the stand-in service did: per approval, how many times, and who the call named. */
let done: Map<string, { times: number; by: string | undefined; approvalId: string | undefined }>;
/** The next `failures` performances throw (a service that cannot be reached). */
let failures = 0;
let audit: ApprovalAuditEntry[];
let clock: Date;

const thing: AdminOperation<{ id: string; amount: number }> = {
  action: 'things.credit',
  method: 'POST',
  url: '/admin/things/:id',
  async prepare(request) {
    const { id } = request.params as { id: string };
    const amount = (request.body as { amount?: unknown } | undefined)?.amount;
    if (typeof amount !== 'number' || amount <= 0)
      return {
        ok: false,
        refusal: { status: 400, body: { error: 'bad_request', message: 'amount: positive' } },
      };
    if (id === 'missing')
      return { ok: false, refusal: { status: 404, body: { error: 'not_found', message: 'no thing' } } };
    return { ok: true, payload: { id, amount }, summary: `credit ${amount} to ${id}`, target: `thing:${id}` };
  },
  async perform(payload, context: PerformContext): Promise<HttpResult> {
    if (failures > 0) {
      failures -= 1;
      throw new Error('the service is unreachable');
    }
    if (payload.id === 'refused') return { status: 409, body: { error: 'conflict', message: 'no longer' } };
    const key = context.origin?.approvalId ?? `direct:${payload.id}`;
    const seen = done.get(key);
    if (seen) seen.times += 1;
    else done.set(key, { times: 1, by: context.origin?.actor.label, approvalId: context.origin?.approvalId });
    return { status: 201, body: { credited: payload.amount } };
  },
};

/** A second operation whose effect is a write to the gateway's database, in one transaction with the mark. */
const local: AdminOperation<{ note: string }> = {
  action: 'things.note',
  method: 'PUT',
  url: '/admin/things/:id/note',
  async prepare(request) {
    return {
      ok: true,
      payload: { note: String((request.body as { note?: unknown }).note) },
      summary: 'note',
      target: 'thing:n',
    };
  },
  async perform(payload, context) {
    const result = { status: 200, body: { note: payload.note } };
    await db.transaction().execute(async (trx) => {
      await sql`insert into approval_test_notes (note) values (${payload.note})`.execute(trx);
      await context.markExecuted?.(trx, result);
    });
    return result;
  },
};

function build(approvals: Approvals): FastifyInstance {
  const operations = createOperationRegistry();
  operations.add(thing);
  operations.add(local);
  const fourEyes = createFourEyes({ approvals, operations });
  const app = createHttpServer(logger);
  app.addHook('preHandler', async (request, reply) => {
    const header = request.headers['x-test-actor'];
    if (typeof header === 'string') request.actor = JSON.parse(header) as Actor;
    if (operations.byRoute(request.method, request.routeOptions.url))
      return fourEyes.intercept(request, reply);
  });
  app.post('/admin/things/:id', async () => {
    throw new Error('the route runs only through its approval');
  });
  app.put('/admin/things/:id/note', async () => {
    throw new Error('the route runs only through its approval');
  });
  registerApprovals(app, { approvals });
  return app;
}

function approvalsWith(overrides: Partial<Parameters<typeof createApprovals>[0]> = {}) {
  return createApprovals({
    db,
    operations: (() => {
      const r = createOperationRegistry();
      r.add(thing);
      r.add(local);
      return r;
    })(),
    logger,
    audit: { append: async (entry) => void audit.push(entry) },
    ttlMs: 24 * 3_600_000,
    leaseMs: 60_000,
    sweepMs: 0,
    now: () => clock,
    ...overrides,
  });
}

let approvals: Approvals;
let app: FastifyInstance;

async function as<T = Record<string, unknown>>(actor: Actor, method: string, url: string, payload?: unknown) {
  const reply = await app.inject({
    method: method as 'POST',
    url,
    headers: { 'x-test-actor': JSON.stringify(actor) },
    ...(payload !== undefined && { payload: payload as object }),
  });
  return { status: reply.statusCode, body: reply.json() as T };
}

type Pending = { approval: { id: string; state: string; action: string; summary: string } };
type Decided = {
  approval: { id: string; state: string; result?: HttpResult; decidedBy?: { label: string } };
};

const ask = async (actor: Actor = ANA, id = 't1', amount = 5) => {
  const asked = await as<Pending>(actor, 'POST', `/admin/things/${id}`, { amount });
  expect(asked.status).toBe(202);
  return asked.body.approval.id;
};

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('gateway_approvals', migrations));
  await sql`create table approval_test_notes (note text not null)`.execute(db);
});

afterAll(async () => {
  await app?.close();
  await drop?.();
});

beforeEach(async () => {
  await sql`truncate approvals, approval_test_notes`.execute(db);
  done = new Map();
  failures = 0;
  audit = [];
  clock = new Date();
  approvals = approvalsWith();
  await app?.close();
  app = build(approvals);
});

describe('asking', () => {
  it('refuses at once what the route would refuse, and makes no approval', async () => {
    expect((await as(ANA, 'POST', '/admin/things/t1', { amount: -1 })).status).toBe(400);
    expect((await as(ANA, 'POST', '/admin/things/missing', { amount: 1 })).status).toBe(404);
    expect(await db.selectFrom('approvals').select('id').execute()).toEqual([]);
  });

  it('answers 202 with a pending approval, and nothing happens yet', async () => {
    const asked = await as<Pending>(ANA, 'POST', '/admin/things/t1', { amount: 5 });
    expect(asked).toMatchObject({
      status: 202,
      body: { approval: { state: 'pending', action: 'things.credit', summary: 'credit 5 to t1' } },
    });
    expect(asked.body.approval.id).toMatch(/^apr_[0-9a-f]{24}$/);
    expect(done.size).toBe(0);
    expect(audit).toEqual([
      expect.objectContaining({ action: 'approval.request', actor: expect.objectContaining({ id: ANA.id }) }),
    ]);
  });
});

describe('approving', () => {
  it('the person who asked cannot approve, even holding approver; system:dev is one person', async () => {
    const id = await ask(CARL);
    const own = await as(CARL, 'POST', `/admin/approvals/${id}/approve`);
    expect(own).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    const devId = await ask(DEV);
    expect((await as(DEV, 'POST', `/admin/approvals/${devId}/approve`)).status).toBe(403);
    expect(done.size).toBe(0);
    const rows = await db.selectFrom('approvals').select('state').execute();
    expect(rows.map((r) => r.state)).toEqual(['pending', 'pending']);
    expect(audit.filter((e) => e.action === 'approval.approve').map((e) => e.outcome)).toEqual([
      'denied',
      'denied',
    ]);
  });

  it('needs the approver or owner role', async () => {
    const id = await ask(ANA);
    expect((await as(DAN, 'POST', `/admin/approvals/${id}/approve`)).status).toBe(403);
    expect(done.size).toBe(0);
  });

  it('a second person approves: executed once, as the person who asked, with both people recorded', async () => {
    const id = await ask(ANA);
    const approved = await as<Decided>(BEA, 'POST', `/admin/approvals/${id}/approve`);
    expect(approved).toMatchObject({
      status: 200,
      body: { approval: { id, state: 'executed', result: { status: 201, body: { credited: 5 } } } },
    });
    expect(done.get(id)).toEqual({ times: 1, by: ANA.label, approvalId: id });
    const row = await db.selectFrom('approvals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ requested_by_id: ANA.id, decided_by_id: BEA.id, state: 'executed' });
    expect(audit.map((e) => [e.action, e.actor.id, e.approvalId])).toEqual([
      ['approval.request', ANA.id, id],
      ['approval.approve', BEA.id, id],
      ['things.credit', BEA.id, id],
    ]);
    // Approving again changes nothing.
    expect((await as(CARL, 'POST', `/admin/approvals/${id}/approve`)).status).toBe(409);
    expect(done.get(id)?.times).toBe(1);
  });

  it('two approvers at the same moment: one wins, the other gets 409, executed once', async () => {
    for (let round = 0; round < 5; round++) {
      const id = await ask(ANA, `race${round}`);
      const answers = await Promise.all([
        as(BEA, 'POST', `/admin/approvals/${id}/approve`),
        as(CARL, 'POST', `/admin/approvals/${id}/approve`),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(done.get(id)?.times).toBe(1);
    }
  });

  it('a refusal at execution is stored as failed, with its answer', async () => {
    const id = await ask(ANA, 'refused');
    const approved = await as<Decided>(BEA, 'POST', `/admin/approvals/${id}/approve`);
    expect(approved.body.approval).toMatchObject({ state: 'failed', result: { status: 409 } });
  });

  it('an effect in the gateway database commits with the approval marked executed', async () => {
    const asked = await as<Pending>(ANA, 'PUT', '/admin/things/x/note', { note: 'hello' });
    const approved = await as<Decided>(BEA, 'POST', `/admin/approvals/${asked.body.approval.id}/approve`);
    expect(approved.body.approval).toMatchObject({ state: 'executed', result: { status: 200 } });
    // A sweep run by a replica that thinks it was left behind finds nothing to do.
    clock = new Date(clock.getTime() + 3_600_000);
    expect(await approvals.sweep()).toEqual({ expired: 0, executed: 0 });
    expect((await sql<{ note: string }>`select note from approval_test_notes`.execute(db)).rows).toEqual([
      { note: 'hello' },
    ]);
  });
});

describe('rejecting and expiry', () => {
  it('a rejected request is never executed', async () => {
    const id = await ask(ANA);
    expect((await as(BEA, 'POST', `/admin/approvals/${id}/reject`, {})).status).toBe(400);
    const rejected = await as<Decided>(BEA, 'POST', `/admin/approvals/${id}/reject`, { reason: 'not today' });
    expect(rejected.body.approval).toMatchObject({ state: 'rejected', decidedBy: { label: BEA.label } });
    expect((await as(CARL, 'POST', `/admin/approvals/${id}/approve`)).status).toBe(409);
    expect(done.size).toBe(0);
  });

  it('the person who asked may withdraw their own request; nobody else without the role', async () => {
    const id = await ask(ANA);
    expect((await as(DAN, 'POST', `/admin/approvals/${id}/reject`, { reason: 'not mine' })).status).toBe(403);
    const withdrawn = await as<Decided>(ANA, 'POST', `/admin/approvals/${id}/reject`, { reason: 'typo' });
    expect(withdrawn.body.approval).toMatchObject({ state: 'rejected', decidedBy: { label: ANA.label } });
    expect((await as(BEA, 'POST', `/admin/approvals/${id}/approve`)).status).toBe(409);
    expect(done.size).toBe(0);
  });

  it('a pending request expires after 24 hours: approving it then is refused, and the sweep marks it', async () => {
    const id = await ask(ANA);
    const late = await ask(ANA, 't2');
    clock = new Date(clock.getTime() + 24 * 3_600_000 + 1);
    const approved = await as(BEA, 'POST', `/admin/approvals/${id}/approve`);
    expect(approved).toMatchObject({ status: 409, body: { message: 'the request is expired, not pending' } });
    expect(await approvals.sweep()).toEqual({ expired: 1, executed: 0 });
    const states = await db.selectFrom('approvals').select(['id', 'state']).orderBy('id').execute();
    expect(states.map((s) => s.state)).toEqual(['expired', 'expired']);
    expect(states.map((s) => s.id).sort()).toEqual([id, late].sort());
    expect(done.size).toBe(0);
  });
});

describe('a crash between the approval and the execution', () => {
  it('leaves it approved; the sweep of the next start executes it once, after the lease', async () => {
    const id = await ask(ANA);
    // The first process dies right after the approval commits.
    const crashing = approvalsWith({
      afterApproved: () => {
        throw new Error('crash');
      },
    });
    await app.close();
    app = build(crashing);
    expect((await as(BEA, 'POST', `/admin/approvals/${id}/approve`)).status).toBe(500);
    expect(await db.selectFrom('approvals').select('state').where('id', '=', id).executeTakeFirst()).toEqual({
      state: 'approved',
    });
    expect(done.size).toBe(0);

    // The next start: within the lease another execution may still be running, so it waits.
    const restarted = approvalsWith();
    expect(await restarted.sweep()).toEqual({ expired: 0, executed: 0 });
    clock = new Date(clock.getTime() + 61_000);
    // Two replicas sweeping at once: one takes it.
    const results = await Promise.all([restarted.sweep(), approvalsWith().sweep()]);
    expect(results.reduce((n, r) => n + r.executed, 0)).toBe(1);
    expect(done.get(id)).toEqual({ times: 1, by: ANA.label, approvalId: id });
    expect(await db.selectFrom('approvals').select('state').where('id', '=', id).executeTakeFirst()).toEqual({
      state: 'executed',
    });
    expect(await restarted.sweep()).toEqual({ expired: 0, executed: 0 });
  });

  it('a service out of reach at approval: it stays approved and the sweep executes it later', async () => {
    const id = await ask(ANA);
    failures = 1;
    const approved = await as<Decided>(BEA, 'POST', `/admin/approvals/${id}/approve`);
    expect(approved).toMatchObject({ status: 200, body: { approval: { state: 'approved' } } });
    clock = new Date(clock.getTime() + 61_000);
    expect(await approvals.sweep()).toEqual({ expired: 0, executed: 1 });
    expect(done.get(id)?.times).toBe(1);
  });
});

describe('listing', () => {
  it('what I asked for, and what waits for me', async () => {
    const mine = await ask(ANA, 'a');
    const theirs = await ask(BEA, 'b');
    const ids = (r: { body: { items: { id: string }[] } }) => r.body.items.map((i) => i.id);
    expect(ids(await as(ANA, 'GET', '/admin/approvals?mine=requested'))).toEqual([mine]);
    expect(ids(await as(ANA, 'GET', '/admin/approvals?mine=waiting'))).toEqual([theirs]);
    expect(ids(await as(CARL, 'GET', '/admin/approvals?state=pending')).sort()).toEqual(
      [mine, theirs].sort(),
    );
    expect((await as(CARL, 'GET', '/admin/approvals?state=maybe')).status).toBe(400);
    expect((await as(CARL, 'GET', `/admin/approvals/${mine}`)).body).toMatchObject({
      id: mine,
      state: 'pending',
      requestedBy: { id: ANA.id, label: ANA.label },
      request: { id: 'a', amount: 5 },
    });
    expect((await as(CARL, 'GET', '/admin/approvals/apr_000000000000000000000000')).status).toBe(404);
  });
});

describe('approving with a reason', () => {
  it('keeps the approver’s reason on the approval and in the audit entry; an empty one is refused', async () => {
    const id = await ask(ANA);
    const empty = await as(BEA, 'POST', `/admin/approvals/${id}/approve`, { reason: '  ' });
    expect(empty).toMatchObject({ status: 400, body: { error: 'bad_request' } });
    expect(done.size).toBe(0);
    const approved = await as<Decided & { approval: { reason?: string } }>(
      BEA,
      'POST',
      `/admin/approvals/${id}/approve`,
      { reason: 'matches the bank statement' },
    );
    expect(approved).toMatchObject({
      status: 200,
      body: { approval: { id, state: 'executed', reason: 'matches the bank statement' } },
    });
    expect(audit.find((e) => e.action === 'approval.approve')).toMatchObject({
      outcome: 'success',
      reason: 'matches the bank statement',
    });
  });

  it('pages what I asked for newest first with the next cursor', async () => {
    const asked: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock = new Date(clock.getTime() + 1_000);
      asked.push(await ask(ANA, `p${i}`));
    }
    await ask(BEA, 'other');
    type Page = { items: { id: string }[]; next?: string };
    const first = await as<Page>(ANA, 'GET', '/admin/approvals?mine=requested&limit=2');
    expect(first.body.items.map((i) => i.id)).toEqual([asked[2], asked[1]]);
    const second = await as<Page>(
      ANA,
      'GET',
      `/admin/approvals?mine=requested&limit=2&before=${first.body.next}`,
    );
    expect(second.body.items.map((i) => i.id)).toEqual([asked[0]]);
    expect(second.body.next).toBeUndefined();
  });

  it('lists what waits on one target', async () => {
    const onA = await ask(ANA, 'a');
    await ask(ANA, 'b');
    type Page = { items: { id: string; target: string }[] };
    const found = await as<Page>(CARL, 'GET', '/admin/approvals?state=pending&target=thing:a');
    expect(found.body.items.map((i) => [i.id, i.target])).toEqual([[onA, 'thing:a']]);
    expect((await as(CARL, 'GET', '/admin/approvals?target=')).status).toBe(400);
  });
});
