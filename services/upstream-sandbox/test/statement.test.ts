import { randomBytes } from 'node:crypto';
import { createDb } from '@agentpay/db';
import { validateClabe } from '@agentpay/spei';
import { createTestDatabase, type TestDatabase, waitFor } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema.js';
import { main, type Sandbox } from '../src/main.js';
import { statementDay } from '../src/statements/clave-rastreo.js';
import { startPlatformStandIn } from './platform-stand-in.js';

// The daily statement (CONTRACT.md section 14) as the platform reads it: the sandbox's real HTTP API over
// its own Postgres, NDJSON read off the wire, a small page size so every statement spans several pages.

const API_KEY = 'sandbox-dev-key';
const PAGE_SIZE = 3;

let database: TestDatabase;
let sandbox: Sandbox;
let platform: Awaited<ReturnType<typeof startPlatformStandIn>>;
let base: string;
let db: Kysely<Database>;

interface Line {
  reference: string;
  claveRastreo: string;
  kind: 'deposit' | 'payout' | 'payout_return';
  amount: number;
  occurredAt: string;
  account: string;
  platformRef: string;
  upstreamRef: string;
  senderAccount: string;
  senderName: string;
  applied: boolean;
}

interface End {
  end: true;
  day: string;
  lines: number;
}

const ref = (label: string) => `${label}_${randomBytes(5).toString('hex')}`;

async function send<T>(method: string, path: string, body?: unknown, key: string | null = API_KEY) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key === null ? {} : { 'x-api-key': key }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** The whole statement of `day`: its movement lines and its end line, checked to be last and right. */
async function statement(day: string): Promise<{ lines: Line[]; end: End; contentType: string | null }> {
  const response = await fetch(`${base}/channel/statements/${day}`, { headers: { 'x-api-key': API_KEY } });
  expect(response.status).toBe(200);
  const text = await response.text();
  expect(text.endsWith('\n')).toBe(true);
  const parsed = text
    .slice(0, -1)
    .split('\n')
    .map((l) => JSON.parse(l) as Line | End);
  const end = parsed.at(-1) as End;
  expect(end).toEqual({ end: true, day, lines: parsed.length - 1 });
  return { lines: parsed.slice(0, -1) as Line[], end, contentType: response.headers.get('content-type') };
}

async function openAccount(amount: number) {
  const orderRef = ref('ord');
  const answer = await send<{ accountId: string; clabe: string }>('POST', '/channel/virtual-accounts', {
    orderRef,
    amount,
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    noticeUrl: platform.url(`/notices/${orderRef}`),
  });
  expect(answer.status).toBe(201);
  return { orderRef, ...answer.body };
}

async function deposit(clabe: string, amount: number, extra: Record<string, unknown> = {}) {
  const answer = await send<{
    depositId: string;
    matched: boolean;
    claveRastreo: string;
    senderAccount: string;
    senderName: string;
    createdAt: string;
  }>('POST', '/sandbox/deposits', { clabe, amount, ...extra }, null);
  expect(answer.status).toBe(201);
  return answer.body;
}

interface Payout {
  payoutId: string;
  payoutRef: string;
  status: string;
  amount: number;
  account: string;
  finishedAt: string | null;
  returnedAt: string | null;
  claveRastreo: string | null;
  returnClaveRastreo: string | null;
}

/** Submits a payout and waits until it ends as `until`. */
async function payout(name: string, until: string, amount = 2500) {
  const payoutRef = ref('tr');
  const created = await send<Payout>('POST', '/channel/payouts', {
    payoutRef,
    amount,
    payeeType: 'spei_transfer',
    account: '002010077777777771',
    bankCode: '002',
    name,
    noticeUrl: platform.url(`/notices/${payoutRef}`),
  });
  expect(created.status).toBe(201);
  return waitFor(async () => {
    const { body } = await send<Payout>('GET', `/channel/payouts/${created.body.payoutId}`);
    return body.status === until ? body : undefined;
  });
}

const find = (lines: Line[], reference: string) => lines.filter((l) => l.reference === reference);

beforeAll(async () => {
  database = await createTestDatabase('sandbox_statement');
  platform = await startPlatformStandIn();
  sandbox = await main({
    LOG_LEVEL: 'silent',
    SANDBOX_PORT: '0',
    HOST: '127.0.0.1',
    SANDBOX_SETTLE_DELAY_MS: '100',
    SANDBOX_POLL_MS: '50',
    SANDBOX_STATEMENT_PAGE_SIZE: String(PAGE_SIZE),
    DATABASE_URL: database.url,
  });
  base = `http://127.0.0.1:${sandbox.port}`;
  db = createDb<Database>(database.url);
});

afterAll(async () => {
  await db?.destroy();
  await sandbox?.stop();
  await platform?.close();
  await database?.drop();
});

describe('statement lines', () => {
  it('a deposit applied to its order names the order, the account, the payer and its tracking key', async () => {
    const account = await openAccount(10050);
    const made = await deposit(account.clabe, 100.5, {
      senderAccount: '012180000123456782',
      senderName: 'Ana Lopez',
    });
    const { lines } = await statement(statementDay(new Date(made.createdAt)));
    expect(find(lines, made.depositId)).toEqual([
      {
        reference: made.depositId,
        claveRastreo: made.claveRastreo,
        kind: 'deposit',
        amount: 10050,
        occurredAt: made.createdAt,
        account: account.clabe,
        platformRef: account.orderRef,
        upstreamRef: account.accountId,
        senderAccount: '012180000123456782',
        senderName: 'Ana Lopez',
        applied: true,
      },
    ]);
  });

  it('a deposit the account refused is on the statement, not applied; one to an unknown CLABE names no order', async () => {
    const account = await openAccount(10050);
    const wrong = await deposit(account.clabe, 99);
    const unknown = await deposit('646180999999999990', 12.34);
    expect(wrong.matched).toBe(false);
    // Without sender fields the payer is a generated CLABE at another bank, with a default name.
    expect(validateClabe(wrong.senderAccount)).toMatchObject({ ok: true, institution: { clabe: '012' } });
    expect(wrong.senderName).toBe('PAGADOR SANDBOX');

    const { lines } = await statement(statementDay(new Date(wrong.createdAt)));
    expect(find(lines, wrong.depositId)).toEqual([
      expect.objectContaining({
        kind: 'deposit',
        amount: 9900,
        platformRef: account.orderRef,
        upstreamRef: account.accountId,
        senderAccount: wrong.senderAccount,
        senderName: 'PAGADOR SANDBOX',
        applied: false,
      }),
    ]);
    expect(find(lines, unknown.depositId)).toEqual([
      expect.objectContaining({
        kind: 'deposit',
        amount: 1234,
        account: '646180999999999990',
        platformRef: '',
        upstreamRef: '',
        applied: false,
      }),
    ]);
  });

  it('a payout that succeeded is one payout line; one returned is a payout line and a return line with its own key', async () => {
    const paid = await payout('Ana Lopez', 'succeeded');
    const returned = await payout('Ana RETURN', 'returned', 3100);
    const failed = await payout('Ana REJECT', 'failed');
    const day = statementDay(new Date(paid.finishedAt!));
    const { lines } = await statement(day);

    expect(find(lines, paid.payoutId)).toEqual([
      {
        reference: paid.payoutId,
        claveRastreo: paid.claveRastreo,
        kind: 'payout',
        amount: 2500,
        occurredAt: paid.finishedAt,
        account: '002010077777777771',
        platformRef: paid.payoutRef,
        // The router keeps a payout's payoutId as its upstream_ref.
        upstreamRef: paid.payoutId,
        senderAccount: '',
        senderName: '',
        applied: true,
      },
    ]);
    const returnedLines = lines.filter((l) => l.platformRef === returned.payoutRef);
    expect(returnedLines).toEqual([
      expect.objectContaining({
        kind: 'payout',
        reference: returned.payoutId,
        claveRastreo: returned.claveRastreo,
        amount: 3100,
        occurredAt: returned.finishedAt,
        upstreamRef: returned.payoutId,
      }),
      expect.objectContaining({
        kind: 'payout_return',
        claveRastreo: returned.returnClaveRastreo,
        amount: 3100,
        occurredAt: returned.returnedAt,
        upstreamRef: returned.payoutId,
      }),
    ]);
    expect(returnedLines[1]!.reference).not.toBe(returned.payoutId);
    expect(returned.returnClaveRastreo).not.toBe(returned.claveRastreo);
    // A failed payout moved no money: no line, no key.
    expect(lines.filter((l) => l.platformRef === failed.payoutRef)).toEqual([]);
    expect(failed.claveRastreo).toBeNull();
  });

  it('every tracking key and reference of a day is unique and at most 30 characters', async () => {
    const account = await openAccount(500);
    const made = await deposit(account.clabe, 5);
    await deposit(account.clabe, 5);
    await payout('Ana RETURN', 'returned');
    const { lines } = await statement(statementDay(new Date(made.createdAt)));
    expect(lines.length).toBeGreaterThan(PAGE_SIZE);
    for (const line of lines) expect(line.claveRastreo).toMatch(/^[A-Z0-9]{1,30}$/);
    expect(new Set(lines.map((l) => l.claveRastreo)).size).toBe(lines.length);
    expect(new Set(lines.map((l) => l.reference)).size).toBe(lines.length);
  });

  it('the database refuses a tracking key used twice', async () => {
    const account = await openAccount(500);
    const first = await deposit(account.clabe, 5);
    const second = await deposit(account.clabe, 5);
    await expect(
      db
        .updateTable('deposits')
        .set({ clave_rastreo: first.claveRastreo })
        .where('id', '=', second.depositId)
        .execute(),
    ).rejects.toThrow(/deposits_clave_rastreo/);
  });
});

describe('deposit options', () => {
  it('refuses a sender account that is not a CLABE and a statement amount with more than two decimals', async () => {
    const account = await openAccount(300);
    const badSender = await send<{ error: string; message: string }>(
      'POST',
      '/sandbox/deposits',
      { clabe: account.clabe, amount: 3, senderAccount: '012180000123456783' },
      null,
    );
    expect(badSender).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(badSender.body.message).toContain('senderAccount');
    const badAmount = await send<{ message: string }>(
      'POST',
      '/sandbox/deposits',
      { clabe: account.clabe, amount: 3, statementAmount: 3.001 },
      null,
    );
    expect(badAmount.status).toBe(400);
    expect(badAmount.body.message).toContain('statementAmount');
    // Neither refusal paid the account.
    const state = await send<{ status: string }>('GET', `/channel/virtual-accounts/${account.accountId}`);
    expect(state.body.status).toBe('open');
  });
});

describe('days are Mexico City wall-clock days', () => {
  it('a movement at 23:59:59.999 Mexico City is on that day; one at 00:00 on the next (06:00 UTC)', async () => {
    const account = await openAccount(700);
    const late = await deposit(account.clabe, 1.01);
    const early = await deposit(account.clabe, 1.02);
    const lateOut = await payout('Ana Lopez', 'succeeded');
    await sql`update deposits set created_at = '2025-03-10T05:59:59.999999Z' where id = ${late.depositId}`.execute(
      db,
    );
    await sql`update deposits set created_at = '2025-03-10T06:00:00Z' where id = ${early.depositId}`.execute(
      db,
    );
    await sql`update payouts set finished_at = '2025-03-10T05:59:59.999999Z' where id = ${lateOut.payoutId}`.execute(
      db,
    );

    const ninth = await statement('2025-03-09');
    const tenth = await statement('2025-03-10');
    expect(ninth.lines.map((l) => l.reference).sort()).toEqual([late.depositId, lateOut.payoutId].sort());
    expect(tenth.lines.map((l) => l.reference)).toEqual([early.depositId]);
    expect(tenth.lines[0]!.occurredAt).toBe('2025-03-10T06:00:00.000Z');
    expect((await statement('2025-03-11')).lines).toEqual([]);
  });
});

describe('tester triggers', () => {
  it('a deposit with notify false pays the account and is on the statement, but the platform is never told', async () => {
    const account = await openAccount(800);
    const made = await deposit(account.clabe, 8, { notify: false });
    const { lines } = await statement(statementDay(new Date(made.createdAt)));
    expect(find(lines, made.depositId)).toEqual([
      expect.objectContaining({ kind: 'deposit', applied: true, platformRef: account.orderRef, amount: 800 }),
    ]);
    const notices = await send<{ notices: unknown[] }>(
      'GET',
      `/sandbox/notices?ref=${account.orderRef}`,
      undefined,
      null,
    );
    expect(notices.body.notices).toEqual([]);
  });

  it('a payout named NOSTATEMENT succeeds and notifies, but the statement leaves it (and its return) off', async () => {
    const forgotten = await payout('Ana NOSTATEMENT', 'succeeded');
    const forgottenReturn = await payout('NOSTATEMENT RETURN', 'returned');
    const kept = await payout('Ana Lopez', 'succeeded');
    await waitFor(() =>
      platform.at(`/notices/${forgotten.payoutRef}`).some((n) => n.body.includes('payout.succeeded')),
    );
    const { lines } = await statement(statementDay(new Date(kept.finishedAt!)));
    expect(find(lines, kept.payoutId)).toHaveLength(1);
    expect(lines.filter((l) => l.platformRef === forgotten.payoutRef)).toEqual([]);
    expect(lines.filter((l) => l.platformRef === forgottenReturn.payoutRef)).toEqual([]);
  });

  it('statementAmount on a deposit and STATEMENT=<pesos> in a payee name change only the amount the statement shows', async () => {
    const account = await openAccount(1000);
    const made = await deposit(account.clabe, 10, { statementAmount: 10.01 });
    expect(made.matched).toBe(true);
    const changed = await payout('Ana statement=24.99', 'succeeded');
    expect(changed.amount).toBe(2500);
    const { lines } = await statement(statementDay(new Date(made.createdAt)));
    expect(find(lines, made.depositId)).toEqual([
      expect.objectContaining({ amount: 1001, applied: true, platformRef: account.orderRef }),
    ]);
    expect(find(lines, changed.payoutId)).toEqual([
      expect.objectContaining({ kind: 'payout', amount: 2499, platformRef: changed.payoutRef }),
    ]);
    const paid = await send<{ status: string; paidAmount: number }>(
      'GET',
      `/channel/virtual-accounts/${account.accountId}`,
    );
    expect(paid.body).toMatchObject({ status: 'paid', paidAmount: 1000 });
  });
});

describe('streaming', () => {
  it('streams a day of many more lines than a page as NDJSON, in time order, each once, ties included', async () => {
    const account = await openAccount(100);
    const made = await Promise.all(
      Array.from({ length: 4 * PAGE_SIZE + 1 }, () => deposit(account.clabe, 1)),
    );
    // Same instant to the microsecond for most of them: the page boundary must fall inside a tie.
    const ids = made.map((d) => d.depositId);
    await sql`update deposits set created_at = '2025-06-01T12:00:00.123456Z' where id in (${sql.join(ids.slice(1))})`.execute(
      db,
    );
    await sql`update deposits set created_at = '2025-06-01T11:00:00Z' where id = ${ids[0]!}`.execute(db);

    const { lines, end, contentType } = await statement('2025-06-01');
    expect(contentType).toMatch(/^application\/x-ndjson/);
    expect(end.lines).toBe(ids.length);
    expect(lines[0]!.reference).toBe(ids[0]);
    expect(lines.map((l) => l.reference).sort()).toEqual([...ids].sort());
    expect(lines.slice(1).map((l) => l.reference)).toEqual([...ids.slice(1)].sort());
  });

  it('a day without movements is just the end line', async () => {
    expect(await statement('2024-01-01')).toMatchObject({ lines: [], end: { lines: 0 } });
  });

  it('answers 401 without the key and 400 for a day that is not a calendar date', async () => {
    expect((await send('GET', '/channel/statements/2025-06-01', undefined, null)).status).toBe(401);
    expect((await send('GET', '/channel/statements/2025-02-30')).status).toBe(400);
    expect((await send('GET', '/channel/statements/20250601')).status).toBe(400);
  });
});
