import type { Stack } from '@agentpay/stack';
import {
  createTestMerchant,
  createTestPerson,
  type TestMerchant,
  type TestPerson,
  totpCode,
} from '@agentpay/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayRetentionRules } from '../services/gateway/src/db/retention.js';
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
  merchant = await createTestMerchant({
    adminUrl: stack.urls.admin,
    gatewayUrl: stack.urls.gateway,
    fund: false,
  });
  owner = await createTestPerson({ adminUrl: stack.urls.admin, roles: ['owner'] });
}, 120_000);

afterAll(async () => {
  await gatewayDb?.end();
  await stack?.stop();
});

describe('a person', () => {
  it('acts as themself through their session and their personal token', async () => {
    const viaToken = await call('/admin/me', { headers: bearer(owner.token) });
    expect(viaToken.body).toMatchObject({
      id: `user:${owner.id}`,
      email: owner.email,
      roles: ['owner'],
      via: 'token',
    });
    const viaSession = await call('/admin/me', { headers: { cookie: owner.cookie } });
    expect(viaSession.body).toMatchObject({ id: `user:${owner.id}`, via: 'session' });
  });
});

describe('a session', () => {
  it('refuses a change without x-csrf-token (403, nothing changed) and accepts it with the token', async () => {
    const path = `/admin/merchants/${merchant.mchNo}`;
    const before = await call(path, { headers: DEV });
    const refused = await call(path, {
      method: 'PATCH',
      headers: { cookie: owner.cookie },
      body: { name: 'no csrf' },
    });
    expect(refused.status).toBe(403);
    const wrong = await call(path, {
      method: 'PATCH',
      headers: { cookie: owner.cookie, 'x-csrf-token': `${owner.csrfToken}x` },
      body: { name: 'wrong csrf' },
    });
    expect(wrong.status).toBe(403);
    expect((await call(path, { headers: DEV })).body).toEqual(before.body);

    const done = await call(path, {
      method: 'PATCH',
      headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrfToken },
      body: { name: 'renamed by a person' },
    });
    expect(done.status).toBe(200);
    expect(done.body['name']).toBe('renamed by a person');
  });

  it('sets an HttpOnly, SameSite=Strict cookie on Path=/, and a person lists and ends their own sessions', async () => {
    const response = await fetch(`${stack.urls.admin}/console/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: owner.email,
        password: owner.password,
        code: owner.recoveryCodes.shift(),
      }),
    });
    expect(response.status).toBe(200);
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^agentpay_console=[^;]+; Path=\/; HttpOnly; SameSite=Strict/);
    const second = {
      cookie: cookie.split(';')[0] ?? '',
      csrf: ((await response.json()) as { csrfToken: string }).csrfToken,
    };

    const listed = await call('/admin/me/sessions', { headers: { cookie: owner.cookie } });
    const sessions = listed.body['sessions'] as { id: string; current: boolean }[];
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    const other = sessions.find((s) => !s.current);
    expect(other).toBeDefined();
    const ended = await call(`/admin/me/sessions/${other?.id}`, {
      method: 'DELETE',
      headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrfToken },
    });
    expect(ended.status).toBe(204);
    expect((await call('/admin/me', { headers: { cookie: second.cookie } })).status).toBe(401);
    expect((await call('/admin/me', { headers: { cookie: owner.cookie } })).status).toBe(200);
  });

  it('signs out with DELETE /console/api/session: the cookie stops working', async () => {
    const session = await owner.signIn();
    expect((await call('/admin/me', { headers: { cookie: session.cookie } })).status).toBe(200);
    const out = await call('/console/api/session', {
      method: 'DELETE',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken },
    });
    expect(out.status).toBe(204);
    expect((await call('/admin/me', { headers: { cookie: session.cookie } })).status).toBe(401);
  });
  it('ends after 15 minutes without a request, and 12 hours after sign-in, however busy', async () => {
    const idle = await owner.signIn();
    const old = await owner.signIn();
    for (const s of [idle, old])
      expect((await call('/admin/me', { headers: { cookie: s.cookie } })).status).toBe(200);
    const me = async (cookie: string) => call('/admin/me', { headers: { cookie } });
    // Moved back in time in the store: the clock the gateway reads is the database's rows against now.
    await gatewayDb.query(
      "update user_sessions set last_seen_at = now() - interval '16 minutes' where id = (select id from user_sessions order by created_at desc offset 1 limit 1)",
    );
    await gatewayDb.query(
      "update user_sessions set created_at = now() - interval '12 hours 1 minute' where id = (select id from user_sessions order by created_at desc limit 1)",
    );
    expect((await me(idle.cookie)).status).toBe(401);
    expect((await me(old.cookie)).status).toBe(401);
  });
});

describe('sign-in', () => {
  it('answers the same 401 for a wrong email, password or code, and audits each with its reason', async () => {
    const person = await createTestPerson({ adminUrl: stack.urls.admin, roles: ['support'] });
    const attempts = [
      { email: `nobody-${person.email}`, password: person.password, code: totpCode(person.totpSecret) },
      { email: person.email, password: `${person.password}x`, code: totpCode(person.totpSecret) },
      {
        email: person.email,
        password: person.password,
        code: '000000' === totpCode(person.totpSecret) ? '111111' : '000000',
      },
      { email: person.email, password: person.password, code: 'NOT-A-CODE' },
    ];
    const bodies = new Set<string>();
    for (const attempt of attempts) {
      const reply = await call('/console/api/session', { body: attempt });
      expect(reply.status).toBe(401);
      expect(reply.headers.get('set-cookie')).toBeNull();
      bodies.add(reply.text);
    }
    expect(bodies.size).toBe(1);
    const audit = await call(
      `/admin/audit?action=session.create&target=${encodeURIComponent(`user:${person.id}`)}`,
      { headers: DEV },
    );
    const reasons = (audit.body['entries'] as { outcome: string; reason: string }[])
      .filter((e) => e.outcome === 'failure')
      .map((e) => e.reason);
    expect(reasons).toEqual(expect.arrayContaining(['wrong password', 'wrong code', 'wrong recovery code']));
  });

  it('locks the account after ten failures in a row, even for the right password and code, until an owner unlocks', async () => {
    const person = await createTestPerson({ adminUrl: stack.urls.admin, roles: ['auditor'] });
    for (let i = 0; i < 10; i++) {
      const reply = await call('/console/api/session', {
        body: { email: person.email, password: 'wrong password 123', code: '123456' },
      });
      expect(reply.status).toBe(401);
    }
    const users = await call('/admin/users', { headers: DEV });
    const row = (users.body['users'] as { id: string; locked: boolean }[]).find((u) => u.id === person.id);
    expect(row?.locked).toBe(true);
    const right = { email: person.email, password: person.password, code: person.recoveryCodes[0] };
    expect((await call('/console/api/session', { body: right })).status).toBe(401);
    // Sessions and tokens already held are not what the lock is about.
    expect((await call('/admin/me', { headers: bearer(person.token) })).status).toBe(200);

    const bySupport = await createTestPerson({ adminUrl: stack.urls.admin, roles: ['admin', 'support'] });
    const refused = await call(`/admin/users/${person.id}`, {
      method: 'PATCH',
      headers: bearer(bySupport.token),
      body: { unlock: true },
    });
    expect(refused.status).toBe(403);
    const unlocked = await call(`/admin/users/${person.id}`, {
      method: 'PATCH',
      headers: bearer(owner.token),
      body: { unlock: true },
    });
    expect(unlocked.status).toBe(200);
    expect(unlocked.body['locked']).toBe(false);
    expect((await call('/console/api/session', { body: right })).status).toBe(200);
    // A recovery code signs in once.
    expect((await call('/console/api/session', { body: right })).status).toBe(401);
    // And so does a TOTP code. The helper's sign-in spent the freshest step; forgotten here, so a code works
    // once and the same code again does not.
    await gatewayDb.query('update users set totp_last_step = null where id = $1', [person.id]);
    const code = totpCode(person.totpSecret, 1);
    const once = { email: person.email, password: person.password, code };
    expect((await call('/console/api/session', { body: once })).status).toBe(200);
    expect((await call('/console/api/session', { body: once })).status).toBe(401);
  });

  it('refuses a password under 12 characters or among the most common, naming the problem', async () => {
    const invited = await call('/admin/users', {
      headers: DEV,
      body: { email: 'weak@people.test', name: 'Weak', roles: ['support'] },
    });
    expect(invited.status).toBe(201);
    const token = String(invited.body['inviteToken']);
    expect(invited.body['inviteUrl']).toBe(`${stack.urls.admin}/console/invitations/${token}`);
    expect((await call(`/console/api/invitations/${token}`)).body).toEqual({
      email: 'weak@people.test',
      name: 'Weak',
    });
    const short = await call(`/console/api/invitations/${token}`, { body: { password: 'short-pw-1' } });
    expect(short).toMatchObject({ status: 400, body: { message: expect.stringMatching(/12 characters/) } });
    const common = await call(`/console/api/invitations/${token}`, { body: { password: 'Unbelievable' } });
    expect(common).toMatchObject({ status: 400, body: { message: expect.stringMatching(/common/) } });
    const ok = await call(`/console/api/invitations/${token}`, {
      body: { password: 'a long and rare passphrase' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body['totpSecret']).toMatch(/^[A-Z2-7]{32}$/);
    expect(String(ok.body['otpauthUri'])).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(String(ok.body['qrSvg'])).toMatch(/^<svg/);
    const confirmed = await call(`/console/api/invitations/${token}/confirm`, {
      body: { code: totpCode(String(ok.body['totpSecret'])) },
    });
    expect((confirmed.body['recoveryCodes'] as string[]).length).toBe(10);
    // Single use.
    expect((await call(`/console/api/invitations/${token}`)).status).toBe(404);
    const row = await gatewayDb.query('select password_hash, totp_secret_enc from users where email = $1', [
      'weak@people.test',
    ]);
    expect(row.rows[0].password_hash).toMatch(/^scrypt\$N=32768,r=8,p=1\$/);
    expect(row.rows[0].totp_secret_enc).not.toContain(String(ok.body['totpSecret']));
  });
});

describe('a disabled person', () => {
  it('an invitation not yet accepted stops working when its person is disabled', async () => {
    const invited = await call('/admin/users', {
      headers: DEV,
      body: { email: 'never-joined@people.test', name: 'Never', roles: ['support'] },
    });
    const token = String(invited.body['inviteToken']);
    expect((await call(`/console/api/invitations/${token}`)).status).toBe(200);
    const disabled = await call(`/admin/users/${String(invited.body['id'])}`, {
      method: 'PATCH',
      headers: DEV,
      body: { status: 'disabled' },
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body['status']).toBe('disabled');
    expect((await call(`/console/api/invitations/${token}`)).status).toBe(404);
  });

  it('stops at once: every session and token answers 401 on the next request', async () => {
    const person = await createTestPerson({ adminUrl: stack.urls.admin, roles: ['support'] });
    const second = await person.signIn();
    for (const headers of [bearer(person.token), { cookie: person.cookie }, { cookie: second.cookie }]) {
      expect((await call('/admin/me', { headers })).status).toBe(200);
    }
    const disabled = await call(`/admin/users/${person.id}`, {
      method: 'PATCH',
      headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrfToken },
      body: { status: 'disabled' },
    });
    expect(disabled).toMatchObject({ status: 200, body: { status: 'disabled' } });
    for (const headers of [bearer(person.token), { cookie: person.cookie }, { cookie: second.cookie }]) {
      expect((await call('/admin/me', { headers })).status).toBe(401);
    }
    expect(
      (
        await call('/console/api/session', {
          body: { email: person.email, password: person.password, code: person.recoveryCodes[0] },
        })
      ).status,
    ).toBe(401);
    // Enabled again, the person signs in anew: what they held stays ended.
    await call(`/admin/users/${person.id}`, {
      method: 'PATCH',
      headers: bearer(owner.token),
      body: { status: 'enabled' },
    });
    expect((await call('/admin/me', { headers: bearer(person.token) })).status).toBe(401);
    expect((await call('/admin/me', { headers: { cookie: person.cookie } })).status).toBe(401);
    const audit = await call(
      `/admin/audit?action=user.update&target=${encodeURIComponent(`user:${person.id}`)}`,
      { headers: DEV },
    );
    const entry = (
      audit.body['entries'] as {
        before: { status: string };
        after: { status: string };
        actor: { id: string };
      }[]
    ).at(-1);
    expect(entry).toMatchObject({
      before: { status: 'enabled' },
      after: { status: 'disabled' },
      actor: { id: `user:${owner.id}` },
    });
  });
});

describe('a personal token', () => {
  it('never exceeds its person: no role beyond theirs, and a role taken from the person leaves the token too', async () => {
    const person = await createTestPerson({ adminUrl: stack.urls.admin, roles: ['support', 'auditor'] });
    const beyond = await call('/admin/me/tokens', {
      headers: bearer(person.token),
      body: { name: 'x', roles: ['admin'], expiresInDays: 1 },
    });
    expect(beyond.status).toBe(403);
    const tooLong = await call('/admin/me/tokens', {
      headers: bearer(person.token),
      body: { name: 'x', roles: ['support'], expiresInDays: 91 },
    });
    expect(tooLong.status).toBe(400);
    const narrow = await call('/admin/me/tokens', {
      headers: bearer(person.token),
      body: { name: 'support only', roles: ['support'], expiresInDays: 7 },
    });
    expect(narrow.status).toBe(201);
    const narrowToken = String(narrow.body['token']);
    expect((await call('/admin/me', { headers: bearer(narrowToken) })).body['roles']).toEqual(['support']);
    // A token narrower than its person acts within the token.
    expect((await call('/admin/audit', { headers: bearer(narrowToken) })).status).toBe(403);
    expect((await call('/admin/audit', { headers: bearer(person.token) })).status).toBe(200);

    const narrowed = await call(`/admin/users/${person.id}`, {
      method: 'PATCH',
      headers: bearer(owner.token),
      body: { roles: ['support'] },
    });
    expect(narrowed.status).toBe(200);
    expect((await call('/admin/me', { headers: bearer(person.token) })).body['roles']).toEqual(['support']);
    expect((await call('/admin/audit', { headers: bearer(person.token) })).status).toBe(403);

    const tokens = await call('/admin/me/tokens', { headers: bearer(person.token) });
    expect(JSON.stringify(tokens.body)).not.toContain(narrowToken);
    const revoked = await call(`/admin/me/tokens/${narrow.body['id']}`, {
      method: 'DELETE',
      headers: bearer(person.token),
    });
    expect(revoked.status).toBe(204);
    expect((await call('/admin/me', { headers: bearer(narrowToken) })).status).toBe(401);
    const stored = await gatewayDb.query('select secret_hash from personal_tokens where id = $1', [
      narrow.body['id'],
    ]);
    expect(stored.rows[0].secret_hash).not.toContain(narrowToken);
  });
});

describe("a merchant's people", () => {
  it('sign in to the dashboard on the public port, see only their merchant, and manage their team by role', async () => {
    const mOwner = await createTestPerson({
      adminUrl: stack.urls.admin,
      gatewayUrl: stack.urls.gateway,
      mchNo: merchant.mchNo,
      roles: ['owner'],
    });
    const me = await call('/dashboard/api/me', { base: stack.urls.gateway, headers: bearer(mOwner.token) });
    expect(me.body).toMatchObject({ id: `user:${mOwner.id}`, mchNo: merchant.mchNo, roles: ['owner'] });
    // Not an operator: the admin port does not know this person's session or token.
    expect((await call('/admin/me', { headers: bearer(mOwner.token) })).status).toBe(401);
    expect((await call('/admin/me', { headers: { cookie: mOwner.cookie } })).status).toBe(401);

    const viewer = await createTestPerson({
      adminUrl: stack.urls.admin,
      gatewayUrl: stack.urls.gateway,
      mchNo: merchant.mchNo,
      roles: ['viewer'],
      invitedBy: 'dev-admin-token',
    });
    const invited = await call('/dashboard/api/users', {
      base: stack.urls.gateway,
      headers: { cookie: mOwner.cookie, 'x-csrf-token': mOwner.csrfToken },
      body: { email: 'finance@merchant.test', name: 'Finance', roles: ['finance'] },
    });
    expect(invited.status).toBe(201);
    expect(String(invited.body['inviteUrl'])).toContain('/dashboard/invitations/');
    const team = await call('/dashboard/api/users', {
      base: stack.urls.gateway,
      headers: bearer(mOwner.token),
    });
    expect((team.body['users'] as { email: string }[]).map((u) => u.email).sort()).toEqual(
      [mOwner.email, viewer.email, 'finance@merchant.test'].sort(),
    );
    expect(
      (await call('/dashboard/api/users', { base: stack.urls.gateway, headers: bearer(viewer.token) }))
        .status,
    ).toBe(403);
    const refused = await call('/dashboard/api/users', {
      base: stack.urls.gateway,
      headers: bearer(viewer.token),
      body: { email: 'x@merchant.test', name: 'X', roles: ['owner'] },
    });
    expect(refused.status).toBe(403);

    // The merchant's own security history: its entries only, for its owner and admin.
    const history = await call('/dashboard/api/audit?limit=500', {
      base: stack.urls.gateway,
      headers: bearer(mOwner.token),
    });
    const own = history.body['entries'] as { mchNo: string; action: string }[];
    expect(own.length).toBeGreaterThan(3);
    expect(own.every((e) => e.mchNo === merchant.mchNo)).toBe(true);
    expect(own.map((e) => e.action)).toEqual(
      expect.arrayContaining(['merchant_user.invite', 'session.create']),
    );
    const forViewer = await call('/dashboard/api/audit', {
      base: stack.urls.gateway,
      headers: bearer(viewer.token),
    });
    expect(forViewer.status).toBe(403);

    const audit = await call(`/admin/audit?mchNo=${merchant.mchNo}&action=merchant_user.invite`, {
      headers: DEV,
    });
    const entries = audit.body['entries'] as { actor: { id: string }; outcome: string }[];
    expect(entries.map((e) => [e.actor.id, e.outcome])).toEqual(
      expect.arrayContaining([
        [`user:${mOwner.id}`, 'success'],
        [`user:${viewer.id}`, 'denied'],
      ]),
    );
  });
});

describe('the audit log', () => {
  it('pages newest first by a cursor, filtered by actor and action', async () => {
    const first = await call(`/admin/audit?actor=${encodeURIComponent(`user:${owner.id}`)}&limit=2`, {
      headers: DEV,
    });
    const page = first.body['entries'] as { id: string; actor: { id: string } }[];
    expect(page).toHaveLength(2);
    expect(page.every((e) => e.actor.id === `user:${owner.id}`)).toBe(true);
    expect(Number(page[0]?.id)).toBeGreaterThan(Number(page[1]?.id));
    const next = await call(
      `/admin/audit?actor=${encodeURIComponent(`user:${owner.id}`)}&limit=2&cursor=${first.body['nextCursor']}`,
      { headers: DEV },
    );
    expect(Number((next.body['entries'] as { id: string }[])[0]?.id)).toBeLessThan(Number(page[1]?.id));
    // Reading the audit log is itself audited.
    const reads = await call(`/admin/audit?action=audit.read&actor=system:dev&limit=1`, { headers: DEV });
    expect((reads.body['entries'] as unknown[]).length).toBe(1);
  });

  it('exports CSV with a header row where no cell starts a formula', async () => {
    const evil = '=HYPERLINK("http://x","y")';
    await call(`/admin/merchants/${merchant.mchNo}`, {
      method: 'PATCH',
      headers: { ...bearer(owner.token), 'user-agent': evil },
      body: { name: '+SUM(1,2)' },
    });
    const response = await fetch(`${stack.urls.admin}/admin/audit/export`, { headers: bearer(owner.token) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = await response.text();
    const [header, ...lines] = text.trimEnd().split('\r\n');
    expect(header?.split(',')).toEqual(
      expect.arrayContaining(['id', 'at', 'actor_id', 'action', 'target', 'outcome', 'hash']),
    );
    expect(text).toContain(`"'${evil.replaceAll('"', '""')}"`);
    for (const line of lines) {
      for (const cell of line.split(',')) expect(cell.replace(/^"/, '')).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  it('is named by no retention rule: it is kept for good', () => {
    const rules = gatewayRetentionRules({ rateWindowSeconds: 1, cashierLinkDays: 1 });
    expect(rules.length).toBeGreaterThan(0);
    expect(rules.map((r) => r.table)).not.toContain('audit_log');
  });

  it('refuses UPDATE and DELETE in the database itself', async () => {
    await expect(gatewayDb.query("update audit_log set reason = 'x'")).rejects.toThrow(/append-only/);
    await expect(gatewayDb.query('delete from audit_log')).rejects.toThrow(/append-only/);
  });

  it('verifies its chain, and names the first entry edited behind its back', async () => {
    const good = await call('/admin/audit/verify', { headers: bearer(owner.token) });
    expect(good.body).toMatchObject({ ok: true });
    expect(good.body['entries']).toBeGreaterThan(10);
    const { rows } = await gatewayDb.query<{ id: string }>(
      "select id::text from audit_log where action = 'merchant.update' order by id limit 1",
    );
    const id = rows[0]?.id;
    const client = await gatewayDb.connect();
    try {
      await client.query('alter table audit_log disable trigger audit_log_append_only');
      await client.query(`update audit_log set reason = 'edited behind its back' where id = $1`, [id]);
      await client.query('alter table audit_log enable trigger audit_log_append_only');
    } finally {
      client.release();
    }
    const broken = await call('/admin/audit/verify', { headers: bearer(owner.token) });
    expect(broken.body).toMatchObject({ ok: false, firstBroken: id });
  });
});
