import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO_ROOT, type Stack } from '@agentpay/stack';
import { createTestMerchant, settleApproval, type TestMerchant, TIME_ZONE, waitFor } from '@agentpay/testing';
import { type Envelope, formatWireTime } from '@agentpay/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnreachableStpRoute } from './support/routes.js';
import { startTestStack } from './support/stack.js';

// CONTRACT.md section 14 end to end, every service a real process and the sandbox as the channel: a day
// of movements with one of each discrepancy made on purpose through the sandbox's tester triggers, a run
// through the admin API (and one through the admin CLI), every kind found once, re-running changing
// nothing, and each resolution doing what it says: `apply` pays the order through the normal sync, `credit`
// books the merchant an adjust record, `return` sends the money back to the payer through the channel.
// The books' check stays green throughout. Last, an STP route whose channel does not answer (a port nobody
// listens on) fails alone: every other route is still reconciled, and the failed one is named.

const CLABE = '002010077777777771';
const SENDER = '012180000123456782';
const execFileP = promisify(execFile);

let stack: Stack;
let merchant: TestMerchant;
/** The Mexico City days of every movement below, and their neighbours near a midnight (`touch`). */
const days = new Set<string>();
/** The ledger judges a movement this close to a midnight once both days' statements are stored (`dayEdgeMs`). */
const DAY_EDGE_MS = 15 * 60_000;
/** Records the day of a movement made now, and the neighbour day too when now is that close to a midnight. */
function touch(): void {
  for (const at of [Date.now() - DAY_EDGE_MS, Date.now(), Date.now() + DAY_EDGE_MS])
    days.add(formatWireTime(new Date(at), TIME_ZONE).slice(0, 10));
}

interface Discrepancy {
  id: string;
  kind: string;
  amount: number;
  state: string;
  platform: Record<string, unknown>;
  channel: Record<string, unknown>;
  resolution?: { action: string; operator: string; reason: string; reference?: string; status?: string };
}
type RouteResult = {
  routeId: string;
  state: string;
  lines: number;
  matched: number;
  pending: number;
  discrepancies: number;
};

// biome-ignore lint/suspicious/noExplicitAny: admin answers are read field by field in each test
async function admin(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${stack.urls.admin}${path}`, {
    method,
    headers: {
      authorization: 'Bearer dev-admin-token',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // A resolution by credit or return needs four eyes: approved by a second person, answered as it would be.
  const { status, body: json } = await settleApproval(stack.urls.admin, {
    status: response.status,
    body: await response.json(),
  });
  return { status, json };
}

async function send(path: string, params: Record<string, unknown>): Promise<Envelope> {
  const reply = await merchant.request(path, params);
  expect(reply.signed).toBe(true);
  return reply.envelope;
}

async function deposit(clabe: string, pesos: number, extra: Record<string, unknown> = {}): Promise<void> {
  touch();
  const response = await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clabe, amount: pesos, senderAccount: SENDER, senderName: 'Ana Lopez', ...extra }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
}

async function newOrder(pesos: number): Promise<{ orderNo: string; clabe: string }> {
  const created = await send('/gateway/pay', {
    bizOrderNo: `RC-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
    title: 'Order',
    method: 'mex_virtual_account',
    amount: pesos,
  });
  expect(created.code).toBe(0);
  const data = created.data as { orderNo: string; payBody: string };
  return { orderNo: data.orderNo, clabe: (JSON.parse(data.payBody) as { clabe: string }).clabe };
}

async function orderStatus(orderNo: string): Promise<string> {
  const reply = await send('/gateway/query/payOrder', { orderNo });
  return (reply.data as { status: string }).status;
}

const orderReaches = (orderNo: string, status: string) =>
  waitFor(async () => (await orderStatus(orderNo)) === status, {
    timeoutMs: 20_000,
    intervalMs: 200,
    message: `order ${orderNo} to be ${status}`,
  });

async function transferReaching(bizTransferNo: string, payeeName: string, pesos: number, status: string) {
  touch();
  const created = await send('/gateway/transfer', {
    bizTransferNo,
    amount: pesos,
    title: 'Payout',
    reason: 'commission',
    payeeType: 'spei_transfer',
    payeeAccount: CLABE,
    payeeName,
  });
  expect(created.code).toBe(0);
  const { transferNo } = created.data as { transferNo: string };
  await waitFor(
    async () => {
      const reply = await send('/gateway/query/transferOrder', { transferNo });
      return (reply.data as { status?: string } | null)?.status === status;
    },
    { timeoutMs: 20_000, intervalMs: 200, message: `transfer ${transferNo} to be ${status}` },
  );
  return transferNo;
}

async function available(): Promise<number> {
  const reply = await send('/gateway/query/balance', {});
  return Math.round(Number((reply.data as { available: unknown }).available) * 100);
}

/**
 * Runs every day touched and answers the runs. With more than one day (the test straddles or nears a
 * midnight), a first pass stores every statement and the second, answered, judges the movements near the
 * midnight with both days stored.
 */
async function reconcileAll(): Promise<{ day: string; routes: RouteResult[] }[]> {
  let results = [];
  for (let pass = days.size > 1 ? 1 : 2; pass <= 2; pass++) {
    results = [];
    for (const day of [...days].sort()) {
      const run = await admin('POST', '/admin/reconciliations', { day });
      expect(run.status, JSON.stringify(run.json)).toBe(200);
      results.push(run.json);
    }
  }
  return results;
}

async function discrepancies(query = ''): Promise<Discrepancy[]> {
  const items: Discrepancy[] = [];
  for (const day of [...days].sort()) {
    const page = await admin('GET', `/admin/discrepancies?day=${day}${query}`);
    expect(page.status).toBe(200);
    items.push(...page.json.items);
  }
  return items;
}

/** The one item of a list that must hold exactly one. */
function only<T>(items: T[]): T {
  expect(items).toHaveLength(1);
  return items[0]!;
}

const orders: Record<string, { orderNo: string; clabe: string }> = {};
const transfers: Record<string, string> = {};

beforeAll(async () => {
  // Every movement counts at once (no grace window), and no scheduled run interferes.
  stack = await startTestStack({ serviceEnv: { ledger: { RECON_GRACE_MS: '0', RECON_SCHEDULE: 'off' } } });
  merchant = await createTestMerchant({ adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway });

  // Matched: paid as usual.
  orders['paid'] = await newOrder(120);
  await deposit(orders['paid'].clabe, 120);
  await orderReaches(orders['paid'].orderNo, 'success');
  // missing_on_platform: the channel took the money and never told the platform.
  orders['untold'] = await newOrder(75.5);
  await deposit(orders['untold'].clabe, 75.5, { notify: false });
  // unmatched_deposit: a second payment into an order already paid (to be credited).
  await deposit(orders['paid'].clabe, 33.25);
  // unmatched_deposit: a wrong amount (to be returned to the payer).
  orders['wrong'] = await newOrder(50);
  await deposit(orders['wrong'].clabe, 49);
  // amount_mismatch: the statement shows another amount than the money that moved.
  orders['misstated'] = await newOrder(20);
  await deposit(orders['misstated'].clabe, 20, { statementAmount: 19.5 });
  await orderReaches(orders['misstated'].orderNo, 'success');
  // Matched payout, and missing_on_channel: a payout the channel leaves off its statement.
  transfers['paid'] = await transferReaching(`RT-${Date.now()}-a`, 'Ana Perez', 10, 'success');
  transfers['forgotten'] = await transferReaching(`RT-${Date.now()}-b`, 'Ana NOSTATEMENT', 11, 'success');
  // The ledger books from events: wait until it has the last of them.
  await waitFor(async () => (await admin('GET', '/admin/ledger/check')).json.ok === true, {
    timeoutMs: 20_000,
    intervalMs: 250,
    message: 'the books to be consistent before the run',
  });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe('a reconciliation run over a day with one discrepancy of each kind', () => {
  it('reads the statement and finds exactly the discrepancies made on purpose', async () => {
    const runs = await reconcileAll();
    const routes = runs.flatMap((r) => r.routes);
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.every((r) => r.state === 'succeeded')).toBe(true);
    const total = (key: Exclude<keyof RouteResult, 'routeId' | 'state'>) =>
      routes.reduce((sum, r) => sum + r[key], 0);
    // Five deposits (paid, untold, the second one, wrong, misstated) and the one payout the statement shows.
    expect(total('lines')).toBe(6);
    expect(total('pending')).toBe(0);
    expect(total('discrepancies')).toBe(5);
    expect(total('matched')).toBe(2);

    const found = await discrepancies();
    const byKind = (kind: string) => found.filter((d) => d.kind === kind);
    expect(found.map((d) => d.kind).sort()).toEqual([
      'amount_mismatch',
      'missing_on_channel',
      'missing_on_platform',
      'unmatched_deposit',
      'unmatched_deposit',
    ]);
    for (const item of found) expect(item.state).toBe('open');

    const untold = only(byKind('missing_on_platform'));
    expect(untold.amount).toBe(75.5);
    expect(untold.platform).toMatchObject({ orderNo: orders['untold']!.orderNo, mchNo: merchant.mchNo });
    expect(untold.channel).toMatchObject({ amount: 75.5, kind: 'deposit' });
    expect(untold.channel.claveRastreo).toMatch(/^.{1,30}$/);

    const unmatched = byKind('unmatched_deposit').sort((a, b) => a.amount - b.amount);
    expect(unmatched.map((d) => d.amount)).toEqual([33.25, 49]);
    expect(unmatched[0]!.platform).toMatchObject({ orderNo: orders['paid']!.orderNo, mchNo: merchant.mchNo });
    expect(unmatched[1]!.platform).toMatchObject({
      orderNo: orders['wrong']!.orderNo,
      mchNo: merchant.mchNo,
    });

    const misstated = only(byKind('amount_mismatch'));
    expect(misstated.channel).toMatchObject({ amount: 19.5 });
    expect(misstated.platform).toMatchObject({ orderNo: orders['misstated']!.orderNo, amount: 20 });

    const forgotten = only(byKind('missing_on_channel'));
    expect(forgotten.platform).toMatchObject({ transferNo: transfers['forgotten'] });
    expect(forgotten.amount).toBe(11);
  });

  it('finds the same discrepancies again when the day is run again, adding none', async () => {
    const before = (await discrepancies()).map((d) => d.id).sort();
    await reconcileAll();
    expect((await discrepancies()).map((d) => d.id).sort()).toEqual(before);
  });

  it('applies a deposit the platform missed through the normal sync: the order pays and books', async () => {
    const untold = only(await discrepancies('&kind=missing_on_platform'));
    expect(await orderStatus(orders['untold']!.orderNo)).toBe('wait');
    const wrongAction = await admin('POST', `/admin/discrepancies/${untold.id}/resolve`, {
      action: 'credit',
      reason: 'trying the wrong action',
      operator: 'ops@example.mx',
    });
    expect(wrongAction.status).toBe(400);

    const resolved = await admin('POST', `/admin/discrepancies/${untold.id}/resolve`, {
      action: 'apply',
      reason: 'channel confirms the deposit',
      operator: 'ops@example.mx',
    });
    expect(resolved.status, JSON.stringify(resolved.json)).toBe(200);
    expect(resolved.json).toMatchObject({
      state: 'resolved',
      // The operator is the person behind the request (ADMIN_TOKEN's system:dev), not the free-text field.
      resolution: { action: 'apply', operator: 'system:dev', reason: 'channel confirms the deposit' },
    });
    expect(await orderStatus(orders['untold']!.orderNo)).toBe('success');

    const again = await admin('POST', `/admin/discrepancies/${untold.id}/resolve`, {
      action: 'apply',
      reason: 'twice',
      operator: 'ops@example.mx',
    });
    expect(again.status).toBe(409);
  });

  it('credits money nobody owned to the order’s merchant as an adjust record citing the discrepancy', async () => {
    const extra = only((await discrepancies('&kind=unmatched_deposit')).filter((d) => d.amount === 33.25));
    const before = await available();
    const resolved = await admin('POST', `/admin/discrepancies/${extra.id}/resolve`, {
      action: 'credit',
      reason: 'payer paid twice; merchant will refund',
      operator: 'ops@example.mx',
    });
    expect(resolved.status, JSON.stringify(resolved.json)).toBe(200);
    expect(resolved.json.state).toBe('resolved');
    await waitFor(async () => (await available()) === before + 3_325, {
      timeoutMs: 10_000,
      message: 'the credit in available',
    });
  });

  it('returns money nobody owned to the payer through the channel, with its own outcome', async () => {
    const wrong = only((await discrepancies('&kind=unmatched_deposit')).filter((d) => d.amount === 49));
    const before = await available();
    const resolved = await admin('POST', `/admin/discrepancies/${wrong.id}/resolve`, {
      action: 'return',
      reason: 'wrong amount; sending it back',
      operator: 'ops@example.mx',
    });
    expect(resolved.status, JSON.stringify(resolved.json)).toBe(200);
    expect(resolved.json.resolution.action).toBe('return');
    const outcome = await waitFor(
      async () => {
        const item = (await admin('GET', `/admin/discrepancies/${wrong.id}`)).json;
        return item.resolution?.status === 'success' ? item : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 300, message: 'the return to succeed' },
    );
    expect(outcome.resolution.reference).toBeTruthy();
    // The merchant's money is not touched by a return of money that was never theirs.
    expect(await available()).toBe(before);
  });

  it('has no action for a payout the channel forgot or an amount it misstated: they stay open', async () => {
    for (const kind of ['missing_on_channel', 'amount_mismatch']) {
      const item = only(await discrepancies(`&kind=${kind}`));
      for (const action of ['apply', 'credit', 'return']) {
        const refused = await admin('POST', `/admin/discrepancies/${item.id}/resolve`, {
          action,
          reason: 'no',
          operator: 'ops@example.mx',
        });
        expect(refused.status).toBe(400);
      }
      expect((await admin('GET', `/admin/discrepancies/${item.id}`)).json.state).toBe('open');
    }
    const open = (await discrepancies('&state=open')).map((d) => d.kind).sort();
    expect(open).toEqual(['amount_mismatch', 'missing_on_channel']);
  });

  it('keeps resolved discrepancies resolved when the day is run again, and the books consistent', async () => {
    await reconcileAll();
    const items = await discrepancies();
    expect(items.filter((d) => d.state === 'resolved')).toHaveLength(3);
    expect(items).toHaveLength(5);
    const check = await admin('GET', '/admin/ledger/check');
    expect(check.json.problems).toEqual([]);
    expect(check.json.ok).toBe(true);
  });

  it('drives the same through the admin CLI', async () => {
    const day = [...days].sort()[0]!;
    const cli = (...args: string[]) =>
      execFileP(process.execPath, ['--import', 'tsx', 'packages/admin-cli/src/main.ts', ...args], {
        cwd: REPO_ROOT,
        env: { ...process.env, ADMIN_URL: stack.urls.admin, ADMIN_TOKEN: 'dev-admin-token' },
      });
    const run = JSON.parse((await cli('reconcile', day)).stdout) as { day: string; routes: unknown[] };
    expect(run.day).toBe(day);
    const listed = JSON.parse(
      (await cli('discrepancies', 'list', '--state', 'open', '--day', day)).stdout,
    ) as {
      items: { kind: string }[];
    };
    expect(listed.items.map((d) => d.kind).sort()).toEqual(
      days.size === 1 ? ['amount_mismatch', 'missing_on_channel'] : expect.any(Array),
    );
  });

  it('refuses malformed input with a 400 that names the field', async () => {
    const badDay = await admin('POST', '/admin/reconciliations', { day: '2026-02-30' });
    expect(badDay.status).toBe(400);
    expect(JSON.stringify(badDay.json)).toMatch(/day/);
    const badKind = await admin('GET', '/admin/discrepancies?kind=lost');
    expect(badKind.status).toBe(400);
    const unknown = await admin('GET', '/admin/discrepancies/does-not-exist');
    expect(unknown.status).toBe(404);
    const badAction = await admin('POST', '/admin/discrepancies/x/resolve', {
      action: 'forgive',
      reason: 'r',
      operator: 'o',
    });
    expect(badAction.status).toBe(400);
  });
});

describe('a route whose channel does not answer', () => {
  const DOWN = 'stp-down';
  let port = 0;
  let day = '';

  beforeAll(async () => {
    day = [...days].sort()[0] ?? formatWireTime(new Date(), TIME_ZONE).slice(0, 10);
    port = await createUnreachableStpRoute(stack.urls.admin, DOWN);
  }, 60_000);

  it('reconciles every other route, answers 200 and names the failed one with a reason safe to show', async () => {
    let sandboxLines = 0;
    for (const each of [...days].sort()) {
      const run = await admin('POST', '/admin/reconciliations', { day: each });
      expect(run.status, JSON.stringify(run.json)).toBe(200);
      const routes = run.json.routes as (RouteResult & { error?: string })[];
      const down = routes.find((r) => r.routeId === DOWN);
      expect(down).toEqual({ routeId: DOWN, state: 'failed', error: expect.any(String) });
      // The platform's words only: nothing of the channel's address, the port or the socket's error.
      expect(down?.error).toMatch(/channel/);
      expect(down?.error).not.toMatch(new RegExp(`127\\.0\\.0\\.1|${port}|ECONNREFUSED|fetch failed`));
      // The sandbox route and the seeded STP route ran and counted their lines, as they did before.
      const others = routes.filter((r) => r.routeId !== DOWN);
      expect(others.map((r) => r.routeId).sort()).toEqual(['sandbox-default', 'stp-default']);
      for (const other of others)
        expect(other).toMatchObject({ state: 'succeeded', lines: expect.any(Number) });
      sandboxLines += others.find((r) => r.routeId === 'sandbox-default')?.lines ?? 0;
      // The runs list says the same: the failed run with the same reason, the others succeeded.
      const listed = await admin('GET', `/admin/reconciliations?day=${each}&routeId=${DOWN}&limit=1`);
      expect(listed.json.items[0]).toMatchObject({ routeId: DOWN, state: 'failed', error: down?.error });
      const sandbox = await admin(
        'GET',
        `/admin/reconciliations?day=${each}&routeId=sandbox-default&limit=1`,
      );
      expect(sandbox.json.items[0]).toMatchObject({ state: 'succeeded' });
    }
    // The sandbox's statement was read again: the six lines of the first run, and the return's payout since.
    expect(sandboxLines).toBeGreaterThanOrEqual(6);
  });

  it('asked for that route alone, answers 503 naming it, and the other routes run as before', async () => {
    const alone = await admin('POST', '/admin/reconciliations', { day, routeId: DOWN });
    expect(alone.status, JSON.stringify(alone.json)).toBe(503);
    expect(alone.json).toMatchObject({
      error: 'unavailable',
      routes: [{ routeId: DOWN, state: 'failed' }],
    });
    expect(alone.json.message).toContain(DOWN);
    const sandbox = await admin('POST', '/admin/reconciliations', { day, routeId: 'sandbox-default' });
    expect(sandbox.status).toBe(200);
    expect(sandbox.json.routes).toEqual([
      expect.objectContaining({ routeId: 'sandbox-default', state: 'succeeded' }),
    ]);
  });
});
