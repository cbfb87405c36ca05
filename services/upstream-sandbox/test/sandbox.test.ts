import { createHmac, randomBytes } from 'node:crypto';
import { createDb } from '@agentpay/db';
import { validateClabe } from '@agentpay/spei';
import { createTestDatabase, type TestDatabase, waitFor } from '@agentpay/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema.js';
import { main, type Sandbox } from '../src/main.js';
import { startPlatformStandIn } from './platform-stand-in.js';

// The sandbox as the platform and a tester see it: its real HTTP API over its own Postgres, calling
// back a real local HTTP server that stands in for the platform.

const API_KEY = 'sandbox-dev-key';
const NOTICE_SECRET = 'sandbox-notice-secret';
const FAST = {
  LOG_LEVEL: 'silent',
  SANDBOX_PORT: '0',
  HOST: '127.0.0.1',
  SANDBOX_SETTLE_DELAY_MS: '150',
  SANDBOX_POLL_MS: '50',
  SANDBOX_NOTICE_BACKOFF_MS: '100',
  SANDBOX_NOTICE_MAX_ATTEMPTS: '5',
};

let database: TestDatabase;
let sandbox: Sandbox;
let platform: Awaited<ReturnType<typeof startPlatformStandIn>>;
let base: string;

interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

async function send<T>(method: string, path: string, body?: unknown, key: string | null = API_KEY) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key === null ? {} : { 'x-api-key': key }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T } satisfies Answer<T>;
}

const ref = (label: string) => `${label}_${randomBytes(5).toString('hex')}`;
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

interface Account {
  accountId: string;
  orderRef: string;
  clabe: string;
  bankCode: string;
  bankName: string;
  status: string;
  paidAmount: number;
  paidAt: string | null;
  claveRastreo: string | null;
}

interface Payout {
  payoutId: string;
  status: string;
  reason: string | null;
  claveRastreo: string | null;
}

interface Deposit {
  depositId: string;
  amount: number;
  statementAmount: number | null;
  matched: boolean;
  reason: string | null;
  clabe: string;
  claveRastreo: string;
}

function openAccount(orderRef: string, amount: number, noticeUrl = platform.url(`/notices/${orderRef}`)) {
  return send<Account>('POST', '/channel/virtual-accounts', {
    orderRef,
    amount,
    expiresAt: inAnHour(),
    noticeUrl,
  });
}

function deposit(clabe: string, amount: number, extra: Record<string, unknown> = {}) {
  return send<Deposit>('POST', '/sandbox/deposits', { clabe, amount, ...extra }, null);
}

function payout(payoutRef: string, name: string, extra: Record<string, unknown> = {}) {
  return send<Payout>('POST', '/channel/payouts', {
    payoutRef,
    amount: 2500,
    payeeType: 'spei_transfer',
    account: '002010077777777771',
    bankCode: '002',
    name,
    noticeUrl: platform.url(`/notices/${payoutRef}`),
    ...extra,
  });
}

function noticeBodies(path: string) {
  return platform
    .at(path)
    .map((r) => JSON.parse(r.body) as { id: string; type: string; data: Record<string, unknown> });
}

beforeAll(async () => {
  database = await createTestDatabase('sandbox');
  platform = await startPlatformStandIn();
  sandbox = await main({ ...FAST, DATABASE_URL: database.url });
  base = `http://127.0.0.1:${sandbox.port}`;
});

afterAll(async () => {
  await sandbox?.stop();
  await platform?.close();
  await database?.drop();
});

describe('channel API authentication', () => {
  it('refuses a missing or wrong x-api-key with 401', async () => {
    const body = { orderRef: ref('auth'), amount: 100, expiresAt: inAnHour(), noticeUrl: platform.url('/x') };
    expect((await send('POST', '/channel/virtual-accounts', body, null)).status).toBe(401);
    expect((await send('POST', '/channel/virtual-accounts', body, 'wrong-key')).status).toBe(401);
    expect((await send('GET', `/channel/virtual-accounts?orderRef=${body.orderRef}`)).status).toBe(404);
  });
});

describe('virtual accounts', () => {
  it('issues CLABEs that pass validation, at the STP prefix, all different across many accounts', async () => {
    const clabes: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => openAccount(ref('many'), 100)));
      for (const answer of answers) {
        expect(answer.status).toBe(201);
        expect(answer.body.bankCode).toBe('646');
        clabes.push(answer.body.clabe);
      }
    }
    for (const clabe of clabes)
      expect(validateClabe(clabe)).toMatchObject({ ok: true, institution: { clabe: '646' } });
    expect(new Set(clabes).size).toBe(200);
  });

  it('answers the same account for the same orderRef, and 409 for it with another amount', async () => {
    const orderRef = ref('idem');
    const first = await openAccount(orderRef, 4200);
    const again = await openAccount(orderRef, 4200);
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await openAccount(orderRef, 4300)).status).toBe(409);
  });

  it('refuses a malformed create with 400 naming the field', async () => {
    const answer = await send<{ error: string; message: string }>('POST', '/channel/virtual-accounts', {
      orderRef: ref('bad'),
      amount: 10.5,
      expiresAt: inAnHour(),
      noticeUrl: platform.url('/x'),
    });
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(answer.body.message).toContain('amount');
  });

  it('closes an open account, and a closed account stays closed', async () => {
    const { body: account } = await openAccount(ref('close'), 700);
    const closed = await send<Account>('POST', `/channel/virtual-accounts/${account.accountId}/close`, {});
    expect(closed.body.status).toBe('closed');
    const again = await send<Account>('POST', `/channel/virtual-accounts/${account.accountId}/close`, {});
    expect(again.body.status).toBe('closed');
  });

  it('answers expired for an account past its expiry', async () => {
    const orderRef = ref('expired');
    const created = await send<Account>('POST', '/channel/virtual-accounts', {
      orderRef,
      amount: 500,
      expiresAt: new Date(Date.now() - 1_000).toISOString(),
      noticeUrl: platform.url('/x'),
    });
    expect(created.body.status).toBe('expired');
    expect((await send<Account>('GET', `/channel/virtual-accounts?orderRef=${orderRef}`)).body.status).toBe(
      'expired',
    );
  });
});

describe('deposits', () => {
  it('answers a deposit in pesos as the tester sent it, in the reply and in the list (100.5, not 10050)', async () => {
    const { body: account } = await openAccount(ref('pesos'), 10050);
    const answer = await deposit(account.clabe, 100.5, { notify: false, statementAmount: 99.5 });
    expect(answer).toMatchObject({
      status: 201,
      body: { amount: 100.5, statementAmount: 99.5, matched: true },
    });
    const plain = await deposit(account.clabe, 5);
    expect(plain.body).toMatchObject({ amount: 5, statementAmount: null, matched: false });
    const listed = await send<{ deposits: Deposit[] }>(
      'GET',
      `/sandbox/deposits?clabe=${account.clabe}`,
      undefined,
      null,
    );
    expect(listed.body.deposits.map((d) => [d.amount, d.statementAmount])).toEqual([
      [5, null],
      [100.5, 99.5],
    ]);
  });

  it('a deposit of the right amount pays the account and notifies the platform with a valid HMAC', async () => {
    const orderRef = ref('paid');
    const { body: account } = await openAccount(orderRef, 10050);
    expect(account.claveRastreo).toBeNull();
    const answer = await deposit(account.clabe, 100.5);
    expect(answer).toMatchObject({ status: 201, body: { matched: true, reason: null } });
    const { claveRastreo } = answer.body;
    expect(claveRastreo).toMatch(/^SBXD\d{8}[0-9A-F]{16}$/);

    // The account shows the paying deposit's tracking key, by id and by orderRef.
    const state = await send<Account>('GET', `/channel/virtual-accounts/${account.accountId}`);
    expect(state.body).toMatchObject({
      status: 'paid',
      paidAmount: 10050,
      paidAt: expect.any(String),
      claveRastreo,
    });
    expect(
      (await send<Account>('GET', `/channel/virtual-accounts?orderRef=${orderRef}`)).body.claveRastreo,
    ).toBe(claveRastreo);

    const [delivery] = await waitFor(
      () => platform.at(`/notices/${orderRef}`).length > 0 && platform.at(`/notices/${orderRef}`),
    );
    const expected = createHmac('sha256', NOTICE_SECRET).update(delivery!.body).digest('hex');
    expect(delivery!.headers['x-sandbox-signature']).toBe(expected);
    const notice = JSON.parse(delivery!.body) as { id: string; type: string; data: Record<string, unknown> };
    expect(notice).toMatchObject({
      id: expect.stringMatching(/^ntc_/),
      type: 'virtual_account.paid',
      data: { orderRef, paidAmount: 10050, paidAt: state.body.paidAt, claveRastreo },
    });
    expect(delivery!.headers['x-sandbox-notice-id']).toBe(notice.id);
  });

  it('keeps a deposit of the wrong amount as unmatched and leaves the account open', async () => {
    const orderRef = ref('wrong');
    const { body: account } = await openAccount(orderRef, 10050);
    const answer = await deposit(account.clabe, 100.49);
    expect(answer.body).toMatchObject({ matched: false, reason: 'amount_mismatch' });
    // A deposit that did not pay the account lends it no tracking key.
    expect((await send<Account>('GET', `/channel/virtual-accounts/${account.accountId}`)).body).toMatchObject(
      {
        status: 'open',
        claveRastreo: null,
      },
    );

    const listed = await send<{ deposits: Deposit[] }>(
      'GET',
      `/sandbox/deposits?unmatched=true&clabe=${account.clabe}`,
      undefined,
      null,
    );
    expect(listed.body.deposits.map((d) => d.depositId)).toEqual([answer.body.depositId]);
    expect(listed.body.deposits[0]!.amount).toBe(answer.body.amount);
    expect(await send('GET', `/sandbox/notices?ref=${orderRef}`, undefined, null)).toMatchObject({
      body: { notices: [] },
    });
  });

  it('keeps deposits to an unknown CLABE, a closed account or a paid one as unmatched', async () => {
    const unknown = await deposit('646180999999999990', 10);
    expect(unknown.body).toMatchObject({ matched: false, reason: 'unknown_account' });

    const { body: closedAccount } = await openAccount(ref('closed'), 1000);
    await send('POST', `/channel/virtual-accounts/${closedAccount.accountId}/close`, {});
    expect((await deposit(closedAccount.clabe, 10)).body).toMatchObject({
      matched: false,
      reason: 'account_closed',
    });

    const { body: paidAccount } = await openAccount(ref('twice'), 1000);
    expect((await deposit(paidAccount.clabe, 10)).body.matched).toBe(true);
    expect((await deposit(paidAccount.clabe, 10)).body).toMatchObject({
      matched: false,
      reason: 'account_paid',
    });

    const unmatched = await send<{ deposits: Deposit[] }>(
      'GET',
      '/sandbox/deposits?unmatched=true',
      undefined,
      null,
    );
    const ids = unmatched.body.deposits.map((d) => d.clabe);
    expect(ids).toEqual(
      expect.arrayContaining(['646180999999999990', closedAccount.clabe, paidAccount.clabe]),
    );
    expect(unmatched.body.deposits.every((d) => !d.matched)).toBe(true);
  });

  it('with notify false, pays the account without a notice', async () => {
    const orderRef = ref('quiet');
    const { body: account } = await openAccount(orderRef, 300);
    expect((await deposit(account.clabe, 3, { notify: false })).body.matched).toBe(true);
    expect((await send<Account>('GET', `/channel/virtual-accounts/${account.accountId}`)).body.status).toBe(
      'paid',
    );
    expect(await send('GET', `/sandbox/notices?ref=${orderRef}`, undefined, null)).toMatchObject({
      body: { notices: [] },
    });
  });

  it('closing a paid account answers paid', async () => {
    const { body: account } = await openAccount(ref('paidclose'), 300);
    const paid = await deposit(account.clabe, 3, { notify: false });
    const closed = await send<Account>('POST', `/channel/virtual-accounts/${account.accountId}/close`, {});
    expect(closed.body).toMatchObject({
      status: 'paid',
      paidAmount: 300,
      claveRastreo: paid.body.claveRastreo,
    });
  });

  it('refuses a deposit amount with more than two decimals', async () => {
    const { body: account } = await openAccount(ref('cents'), 300);
    expect((await deposit(account.clabe, 3.001)).status).toBe(400);
  });
});

describe('payee inquiry', () => {
  const inquire = (payee: Record<string, unknown>) =>
    send<{ result: string }>('POST', '/channel/payee-inquiries', { payeeType: 'spei_transfer', ...payee });

  it('answers valid, unknown (UNKNOWN in the name) or invalid', async () => {
    const good = { account: '002010077777777771', bankCode: '002' };
    expect((await inquire({ ...good, name: 'Ana' })).body.result).toBe('valid');
    expect((await inquire({ ...good, name: 'Mr Unknown' })).body.result).toBe('unknown');
    expect((await inquire({ account: '002010077777777772', bankCode: '002', name: 'Ana' })).body.result).toBe(
      'invalid',
    );
    expect((await inquire({ ...good, bankCode: '012', name: 'Ana' })).body.result).toBe('invalid');
    expect((await inquire({ payeeType: 'user_id', account: 'wallet-1', name: 'Ana' })).body.result).toBe(
      'valid',
    );
  });
});

describe('payouts', () => {
  it('accepts a payout as processing and notifies success after settling', async () => {
    const payoutRef = ref('ok');
    const created = await payout(payoutRef, 'Ana Lopez');
    expect(created).toMatchObject({ status: 201, body: { status: 'processing', claveRastreo: null } });
    const [notice] = await waitFor(
      () => noticeBodies(`/notices/${payoutRef}`).length === 1 && noticeBodies(`/notices/${payoutRef}`),
    );
    // The money left with a tracking key: the notice and the payout show the same one.
    const { body: settled } = await send<Payout>('GET', `/channel/payouts?payoutRef=${payoutRef}`);
    expect(settled).toMatchObject({ status: 'succeeded', claveRastreo: expect.stringMatching(/^SBXP\d{8}/) });
    expect(notice).toMatchObject({
      type: 'payout.succeeded',
      data: { payoutRef, status: 'succeeded', claveRastreo: settled.claveRastreo },
    });
  });

  it('a payee name containing REJECT is accepted, then fails by notice', async () => {
    const payoutRef = ref('reject');
    expect((await payout(payoutRef, 'PLEASE REJECT')).body.status).toBe('processing');
    const [notice] = await waitFor(
      () => noticeBodies(`/notices/${payoutRef}`).length === 1 && noticeBodies(`/notices/${payoutRef}`),
    );
    expect(notice).toMatchObject({
      type: 'payout.failed',
      data: { payoutRef, status: 'failed', claveRastreo: null },
    });
  });

  it('a payee name containing RETURN succeeds, then a second notice reports it returned', async () => {
    const payoutRef = ref('return');
    expect((await payout(payoutRef, 'RETURN to sender')).body.status).toBe('processing');
    const notices = await waitFor(
      () => noticeBodies(`/notices/${payoutRef}`).length === 2 && noticeBodies(`/notices/${payoutRef}`),
    );
    expect(notices.map((n) => n.type)).toEqual(['payout.succeeded', 'payout.returned']);
    // Both notices name the payout's own key (the return's key is on the statement).
    expect(notices[0]!.data['claveRastreo']).toEqual(expect.stringMatching(/^SBXP/));
    expect(notices[1]!.data['claveRastreo']).toBe(notices[0]!.data['claveRastreo']);
    expect(notices[0]!.id).not.toBe(notices[1]!.id);
    expect((await send<Payout>('GET', `/channel/payouts?payoutRef=${payoutRef}`)).body.status).toBe(
      'returned',
    );
  });

  it('refuses at once a payee name containing SYNCREJECT, or an unknown bank code, with no notice', async () => {
    const syncRef = ref('sync');
    expect((await payout(syncRef, 'SYNCREJECT me')).body).toMatchObject({
      status: 'rejected',
      reason: 'rejected_by_channel',
    });
    const bankRef = ref('bank');
    const unknownBank = await payout(bankRef, 'Ana', { bankCode: '999' });
    expect(unknownBank.body).toMatchObject({ status: 'rejected', reason: 'unknown_bank_code' });
    expect(await send('GET', `/sandbox/notices?ref=${syncRef}`, undefined, null)).toMatchObject({
      body: { notices: [] },
    });
  });

  it('answers the same payout for the same payoutRef, and 409 for it with other parameters', async () => {
    const payoutRef = ref('same');
    const first = await payout(payoutRef, 'Ana');
    const again = await payout(payoutRef, 'Ana');
    expect(again.status).toBe(200);
    expect(again.body.payoutId).toBe(first.body.payoutId);
    expect((await payout(payoutRef, 'Ana', { amount: 2501 })).status).toBe(409);
    const rejected = ref('samereject');
    const refused = await payout(rejected, 'SYNCREJECT');
    expect((await payout(rejected, 'SYNCREJECT')).body).toEqual(refused.body);
  });
});

describe('notice delivery', () => {
  it('retries a notice the platform does not acknowledge until it does, same id and signature', async () => {
    const orderRef = ref('retry');
    const path = `/notices/${orderRef}`;
    platform.failNext(path, 2);
    const { body: account } = await openAccount(orderRef, 900);
    await deposit(account.clabe, 9);

    const deliveries = await waitFor(
      () => platform.at(path).some((d) => d.answered === 200) && platform.at(path),
    );
    expect(deliveries.map((d) => d.answered)).toEqual([500, 500, 200]);
    expect(new Set(deliveries.map((d) => d.body)).size).toBe(1);
    expect(new Set(deliveries.map((d) => d.headers['x-sandbox-signature'])).size).toBe(1);

    const listed = await waitFor(async () => {
      const answer = await send<{
        notices: { attempts: number; deliveredAt: string | null; lastStatus: number }[];
      }>('GET', `/sandbox/notices?ref=${orderRef}`, undefined, null);
      return answer.body.notices[0]?.deliveredAt ? answer.body.notices : undefined;
    });
    expect(listed).toMatchObject([{ attempts: 3, lastStatus: 200 }]);
  });

  it('resends a delivered notice with the same id on request', async () => {
    const orderRef = ref('resend');
    const path = `/notices/${orderRef}`;
    const { body: account } = await openAccount(orderRef, 900);
    await deposit(account.clabe, 9);
    const [first] = await waitFor(() => platform.at(path).length === 1 && platform.at(path));
    const { id } = JSON.parse(first!.body) as { id: string };
    expect((await send('POST', `/sandbox/notices/${id}/resend`, {}, null)).status).toBe(200);
    const both = await waitFor(() => platform.at(path).length === 2 && platform.at(path));
    expect(both[1]!.body).toBe(first!.body);
  });
});

describe('restart', () => {
  it('a payout accepted before a stop settles and is notified after the next start', async () => {
    const own = await createTestDatabase('sandbox_restart');
    const env = { ...FAST, DATABASE_URL: own.url };
    try {
      const before = await main({ ...env, SANDBOX_SETTLE_DELAY_MS: '1500' });
      const payoutRef = ref('restart');
      const answer = await fetch(`http://127.0.0.1:${before.port}/channel/payouts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
        body: JSON.stringify({
          payoutRef,
          amount: 100,
          payeeType: 'user_id',
          account: 'wallet-9',
          name: 'Ana',
          noticeUrl: platform.url(`/notices/${payoutRef}`),
        }),
      });
      expect(answer.status).toBe(201);
      await before.stop();

      const db = createDb<Database>(own.url);
      try {
        const row = await db
          .selectFrom('payouts')
          .select('status')
          .where('payout_ref', '=', payoutRef)
          .executeTakeFirstOrThrow();
        expect(row.status).toBe('processing');
      } finally {
        await db.destroy();
      }

      const after = await main(env);
      try {
        const [notice] = await waitFor(
          () => noticeBodies(`/notices/${payoutRef}`).length === 1 && noticeBodies(`/notices/${payoutRef}`),
          {
            timeoutMs: 10_000,
          },
        );
        expect(notice).toMatchObject({ type: 'payout.succeeded', data: { payoutRef } });
      } finally {
        await after.stop();
      }
    } finally {
      await own.drop();
    }
  });
});
