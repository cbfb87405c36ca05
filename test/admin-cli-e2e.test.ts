import { execFile } from 'node:child_process';
import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentpayClient, parsePayBody, unwrap } from '@agentpay/merchant-sdk';
import { REPO_ROOT, type Stack } from '@agentpay/stack';
import { createTestPerson, type TestPerson, totpCode, waitFor } from '@agentpay/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// The admin CLI as an operator runs it, a real process against the real admin APIs: generate a key
// pair, register a merchant with it, hand out the platform key, disable and enable the merchant, and
// look up and resend an order's callbacks. The merchant then really pays with the generated key.
// Then a person logs in (password and TOTP): the CLI stores their personal token (mode 0600) and every
// command acts as them, audited under their name; a four-eyes command prints its pending approval; logout
// revokes the token. The onboarding steps run with ADMIN_TOKEN given explicitly (system:dev), as a
// developer outside production may.

let stack: Stack;
let dir: string;
/** XDG_CONFIG_HOME of every CLI run here: never the real ~/.config. */
let configHome: string;
let sink: Server;
let sinkUrl: string;
const received: string[] = [];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string> = {}, input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'packages/admin-cli/src/main.ts', ...args],
      {
        cwd: REPO_ROOT,
        // Callback deliveries are served by the gateway's admin port (the notifier answers only the gateway).
        env: {
          ...process.env,
          ADMIN_URL: stack.urls.admin,
          ADMIN_TOKEN: 'dev-admin-token',
          XDG_CONFIG_HOME: configHome,
          ...env,
        },
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
    child.stdin?.end(input ?? '');
  });
}

/** As a person who logged in: no ADMIN_TOKEN in the environment. */
const asPerson = { ADMIN_TOKEN: '' };

const json = (run: Run) => JSON.parse(run.stdout) as Record<string, unknown>;
const mchNo = `CLI${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  stack = await startTestStack();
  dir = mkdtempSync(join(tmpdir(), 'agentpay-cli-'));
  configHome = mkdtempSync(join(tmpdir(), 'agentpay-cli-config-'));
  sink = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      received.push(body);
      res.end('SUCCESS');
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/notify`;
});

afterAll(async () => {
  await new Promise((resolve) => sink?.close(resolve));
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (configHome) rmSync(configHome, { recursive: true, force: true });
});

// Each command is a fresh Node process with tsx: allow for slow starts on a busy machine.
const slow = { timeout: 90_000 };

describe('npm run admin', slow, () => {
  it('prints the help through the root script, marking the routes commands', async () => {
    const run = await new Promise<Run>((resolve) => {
      execFile(
        'npm',
        ['run', '--silent', 'admin', '--', '--help'],
        { cwd: REPO_ROOT },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('merchant create');
    expect(run.stdout).toMatch(/routes list\s+.*requires the routes admin API/);
    expect(run.stdout).toContain('Exit codes');
  });
});

describe('an operator onboards a merchant', slow, () => {
  let fingerprint = '';

  it('keygen writes a private key only its owner can read and the matching public key', async () => {
    const run = await cli(['keygen', '--out', dir]);
    expect(run.code, run.stderr).toBe(0);
    const privatePem = readFileSync(join(dir, 'private-key.pem'), 'utf8');
    const publicPem = readFileSync(join(dir, 'public-key.pem'), 'utf8');
    expect(statSync(join(dir, 'private-key.pem')).mode & 0o777).toBe(0o600);
    const derived = createPublicKey(createPrivateKey(privatePem)).export({ type: 'spki', format: 'pem' });
    expect(derived).toBe(publicPem);
    expect(createPublicKey(publicPem).asymmetricKeyDetails?.modulusLength).toBe(2048);
    fingerprint = /fingerprint: ([0-9a-f]{64})/.exec(run.stdout)?.[1] ?? '';
    expect(fingerprint).not.toBe('');
  });

  it('keygen refuses to overwrite existing keys without --force', async () => {
    const run = await cli(['keygen', '--out', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--force');
  });

  it('merchant create registers the merchant with that key, its apps and fee rate', async () => {
    const run = await cli([
      'merchant',
      'create',
      '--mch-no',
      mchNo,
      '--name',
      'CLI merchant',
      '--public-key',
      join(dir, 'public-key.pem'),
      '--app-id',
      'web',
      '--app-id',
      'pos',
      '--fee-bps',
      '60',
      '--fee-fixed-centavos',
      '250',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const merchant = json(run);
    expect(merchant).toMatchObject({
      mchNo,
      name: 'CLI merchant',
      status: 'enabled',
      feeRate: { percentBps: 60, fixedCentavos: 250 },
    });
    expect([...(merchant['appIds'] as string[])].sort()).toEqual(['pos', 'web']);
    expect(merchant['keys']).toEqual([expect.objectContaining({ fingerprint, status: 'active' })]);
  });

  it('merchant create of an existing number fails with the API message and exit code 1', async () => {
    const run = await cli([
      'merchant',
      'create',
      '--mch-no',
      mchNo,
      '--name',
      'Again',
      '--public-key',
      join(dir, 'public-key.pem'),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/409/);
  });

  it('platform-key writes the PEM the admin API serves, and the merchant pays with it and its own key', async () => {
    const printed = await cli(['platform-key']);
    expect(printed.code).toBe(0);
    const served = (await (
      await fetch(`${stack.urls.admin}/admin/platform-key`, {
        headers: { authorization: 'Bearer dev-admin-token' },
      })
    ).json()) as { publicKey: string };
    expect(printed.stdout.trim()).toBe(served.publicKey.trim());

    const file = join(dir, 'platform.pem');
    const written = await cli(['platform-key', '--out', file]);
    expect(written.code, written.stderr).toBe(0);
    const client = new AgentpayClient({
      baseUrl: stack.urls.gateway,
      mchNo,
      appId: 'web',
      privateKey: readFileSync(join(dir, 'private-key.pem'), 'utf8'),
      platformPublicKey: readFileSync(file, 'utf8'),
    });
    expect(unwrap(await client.payMethods()).map((m) => m.code)).toEqual(['mex_virtual_account']);
  });

  it('merchant show, disable and enable change what the merchant API answers', async () => {
    const client = new AgentpayClient({
      baseUrl: stack.urls.gateway,
      mchNo,
      privateKey: readFileSync(join(dir, 'private-key.pem'), 'utf8'),
      platformPublicKey: readFileSync(join(dir, 'platform.pem'), 'utf8'),
    });
    expect(json(await cli(['merchant', 'show', mchNo]))).toMatchObject({ mchNo, status: 'enabled' });

    const disabled = await cli(['merchant', 'disable', mchNo]);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(json(disabled)['status']).toBe('disabled');
    expect((await client.payMethods()).code).toBe(20051);

    const enabled = await cli(['merchant', 'enable', mchNo]);
    expect(json(enabled)['status']).toBe('enabled');
    expect((await client.payMethods()).code).toBe(0);
  });

  it('lists an order’s callback deliveries and resends one', async () => {
    const client = new AgentpayClient({
      baseUrl: stack.urls.gateway,
      mchNo,
      privateKey: readFileSync(join(dir, 'private-key.pem'), 'utf8'),
      platformPublicKey: readFileSync(join(dir, 'platform.pem'), 'utf8'),
    });
    const order = unwrap(
      await client.pay({
        bizOrderNo: `CB-${randomBytes(4).toString('hex')}`,
        title: 'Callback',
        method: 'mex_virtual_account',
        amount: 42,
        notifyUrl: sinkUrl,
      }),
    );
    const { clabe, amount } = parsePayBody(order.payBody!);
    await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clabe, amount }),
    });
    const delivered = await waitFor(
      async () => {
        const run = await cli(['callbacks', 'list', '--order-no', order.orderNo!]);
        const deliveries = (json(run)['deliveries'] ?? []) as {
          id: string;
          status: string;
          toStatus: string;
        }[];
        return deliveries.find((d) => d.toStatus === 'success' && d.status === 'succeeded');
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    const before = received.filter((b) => b.includes(order.orderNo!)).length;

    const resent = await cli(['callbacks', 'resend', delivered.id]);
    expect(resent.code, resent.stderr).toBe(0);
    expect(json(resent)['id']).toBe(delivered.id);
    await waitFor(() => received.filter((b) => b.includes(order.orderNo!)).length > before, {
      timeoutMs: 15_000,
      intervalMs: 100,
    });
  });
});

describe('errors and exit codes', slow, () => {
  it('an unknown merchant is exit 1 naming the 404', async () => {
    const run = await cli(['merchant', 'show', 'NO-SUCH-MERCHANT']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('404');
  });

  it('without a login or an explicit ADMIN_TOKEN nothing is sent: exit 1 saying to log in', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'agentpay-cli-none-'));
    try {
      const run = await cli(['merchant', 'show', mchNo], { ...asPerson, XDG_CONFIG_HOME: empty });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('not signed in: npm run admin -- login');
      expect(run.stdout).toBe('');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('a wrong token is exit 1 with a hint about ADMIN_TOKEN', async () => {
    const run = await cli(['merchant', 'show', mchNo], { ADMIN_TOKEN: 'wrong' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('401');
    expect(run.stderr).toContain('ADMIN_TOKEN');
  });

  it('an unreachable admin API is exit 3', async () => {
    const run = await cli(['platform-key', '--admin-url', 'http://127.0.0.1:9']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('cannot reach the admin API');
  });

  it('a missing required option or unknown command is exit 2 with the usage', async () => {
    const missing = await cli(['merchant', 'create', '--mch-no', 'X1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--name is required');
    expect(missing.stderr).toContain('Usage: npm run admin -- merchant create');
    expect((await cli(['merchant', 'explode', 'X1'])).code).toBe(2);
    expect((await cli(['merchant', 'create', '--bogus'])).code).toBe(2);
  });
});

describe('a person logs in and the CLI acts as them', slow, () => {
  let person: TestPerson;
  const file = () => join(configHome, 'agentpay', 'credentials.json');
  const stored = () =>
    JSON.parse(readFileSync(file(), 'utf8')) as {
      adminUrl: string;
      token: string;
      tokenId: string;
      email: string;
      expiresAt: string;
    };
  const asDev = async (path: string) =>
    (await (
      await fetch(`${stack.urls.admin}${path}`, { headers: { authorization: 'Bearer dev-admin-token' } })
    ).json()) as Record<string, unknown>;

  beforeAll(async () => {
    // Its helper sign-in spends a recovery code, leaving the authenticator's next code for `login`.
    person = await createTestPerson({
      adminUrl: stack.urls.admin,
      roles: ['owner'],
      firstSignIn: 'recovery-code',
    });
  });

  it('login signs in with password and TOTP and stores a personal token, mode 0600', async () => {
    const sessionsBefore = (await (
      await fetch(`${stack.urls.admin}/admin/me/sessions`, {
        headers: { authorization: `Bearer ${person.token}` },
      })
    ).json()) as { sessions: { id: string }[] };

    const run = await cli(
      ['login', '--email', person.email, '--password-stdin', '--code', totpCode(person.totpSecret, 1)],
      asPerson,
      `${person.password}\n`,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`signed in as ${person.email}`);
    expect(run.stderr).not.toContain(person.password);

    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(statSync(join(configHome, 'agentpay')).mode & 0o777).toBe(0o700);
    const credentials = stored();
    expect(credentials).toMatchObject({
      adminUrl: stack.urls.admin.replace(/\/+$/, ''),
      email: person.email,
    });
    expect(credentials.token).toMatch(/^apt_/);
    expect(run.stdout).not.toContain(credentials.token);
    const days = (Date.parse(credentials.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    // The token is the person's, named for this machine, with all their roles; the session is ended.
    const tokens = (await (
      await fetch(`${stack.urls.admin}/admin/me/tokens`, {
        headers: { authorization: `Bearer ${person.token}` },
      })
    ).json()) as { tokens: { id: string; name: string; roles: string[] }[] };
    expect(tokens.tokens.find((t) => t.id === credentials.tokenId)).toMatchObject({
      name: `cli@${hostname()}`,
      roles: ['owner'],
    });
    const sessionsAfter = (await (
      await fetch(`${stack.urls.admin}/admin/me/sessions`, {
        headers: { authorization: `Bearer ${person.token}` },
      })
    ).json()) as { sessions: { id: string }[] };
    expect(sessionsAfter.sessions.map((s) => s.id).sort()).toEqual(
      sessionsBefore.sessions.map((s) => s.id).sort(),
    );
  });

  it('a wrong code is refused with exit 1 and stores nothing new', async () => {
    const before = readFileSync(file(), 'utf8');
    const run = await cli(
      ['login', '--email', person.email, '--password-stdin', '--code', '000000'],
      { ...asPerson, XDG_CONFIG_HOME: join(configHome, 'other') },
      `${person.password}\n`,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('sign-in refused');
    expect(existsSync(join(configHome, 'other', 'agentpay', 'credentials.json'))).toBe(false);
    expect(readFileSync(file(), 'utf8')).toBe(before);
  });

  it('whoami and every command act as that person; the audit log names them', async () => {
    const me = await cli(['whoami'], asPerson);
    expect(me.code, me.stderr).toBe(0);
    expect(json(me)).toMatchObject({
      id: `user:${person.id}`,
      email: person.email,
      tokenId: stored().tokenId,
    });
    expect(me.stderr).not.toContain('system:dev');

    const disabled = await cli(['merchant', 'disable', mchNo], asPerson);
    expect(disabled.code, disabled.stderr).toBe(0);
    const enabled = await cli(['merchant', 'enable', mchNo], asPerson);
    expect(json(enabled)['status']).toBe('enabled');

    const audit = await asDev(
      `/admin/audit?actor=${encodeURIComponent(`user:${person.id}`)}&action=merchant.update&target=merchant:${mchNo}`,
    );
    const entries = audit['entries'] as {
      actor: { id: string; label: string; tokenId: string };
      after: unknown;
    }[];
    expect(entries).toHaveLength(2);
    for (const entry of entries) {
      expect(entry.actor).toMatchObject({
        id: `user:${person.id}`,
        label: person.email,
        tokenId: stored().tokenId,
      });
    }

    // The person's own audit commands: list names them, verify proves the chain, export is CSV.
    const listed = await cli(
      ['audit', 'list', '--actor', person.email, '--action', 'merchant.update'],
      asPerson,
    );
    expect(listed.code, listed.stderr).toBe(0);
    expect((json(listed)['entries'] as unknown[]).length).toBe(2);
    const verified = await cli(['audit', 'verify'], asPerson);
    expect(verified.code, verified.stderr).toBe(0);
    expect(json(verified)['ok']).toBe(true);
    const exported = await cli(
      ['audit', 'export', '--from', new Date(Date.now() - 3_600_000).toISOString()],
      asPerson,
    );
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout.split('\n')[0]).toContain('actor');
    expect(exported.stdout).toContain(`user:${person.id}`);
  });

  it('ADMIN_TOKEN is used only when given, and the CLI says it acts as system:dev', async () => {
    const run = await cli(['whoami'], { ADMIN_TOKEN: 'dev-admin-token' });
    expect(run.code, run.stderr).toBe(0);
    expect(json(run)['id']).toBe('system:dev');
    expect(run.stderr).toContain('acting as system:dev');
  });

  it('users: the owner invites a person, lists, changes roles, and disables a colleague', async () => {
    const email = `cli-${randomBytes(4).toString('hex')}@people.test`;
    const invited = await cli(['users', 'invite', '--email', email, '--role', 'support'], asPerson);
    expect(invited.code, invited.stderr).toBe(0);
    expect(String(json(invited)['inviteUrl'])).toContain('/console/invitations/');
    const listed = await cli(['users', 'list'], asPerson);
    const users = json(listed)['users'] as { id: string; email: string; roles: string[] }[];
    expect(users.find((u) => u.email === email)).toMatchObject({ roles: ['support'] });
    const roles = await cli(['users', 'roles', email, '--role', 'auditor'], asPerson);
    expect(roles.code, roles.stderr).toBe(0);
    expect(json(roles)['roles']).toEqual(['auditor']);

    // Disabling someone who works here ends their tokens at once.
    const colleague = await createTestPerson({ adminUrl: stack.urls.admin, roles: ['support'] });
    const disabled = await cli(['users', 'disable', colleague.email], asPerson);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(json(disabled)).toMatchObject({ id: colleague.id, status: 'disabled' });
    const refused = await fetch(`${stack.urls.admin}/admin/me`, {
      headers: { authorization: `Bearer ${colleague.token}` },
    });
    expect(refused.status).toBe(401);
  });

  it('a four-eyes command prints its pending approval and how a second person approves it', async () => {
    const run = await cli(
      [
        'adjust',
        mchNo,
        '--amount',
        '12.50',
        '--reason',
        'cli four eyes',
        '--reference',
        `CLI-${randomBytes(4).toString('hex')}`,
      ],
      asPerson,
    );
    expect(run.code, run.stderr).toBe(0);
    const { approval } = json(run) as { approval: { id: string; state: string; summary: string } };
    expect(approval.state).toBe('pending');
    expect(approval.id).toMatch(/^apr_[0-9a-f]{24}$/);
    expect(run.stderr).toContain(
      `waiting for a second person: npm run admin -- approvals approve ${approval.id}`,
    );
    const shown = await asDev(`/admin/approvals/${approval.id}`);
    expect(shown).toMatchObject({ state: 'pending', requestedBy: { id: `user:${person.id}` } });

    // The requester cannot approve it; withdrawing it is theirs.
    const own = await cli(['approvals', 'approve', approval.id], asPerson);
    expect(own.code).toBe(1);
    expect(own.stderr).toContain('403');
    const withdrawn = await cli(['approvals', 'reject', approval.id, '--reason', 'test done'], asPerson);
    expect(withdrawn.code, withdrawn.stderr).toBe(0);
    expect(json(withdrawn)['approval']).toMatchObject({ id: approval.id, state: 'rejected' });
  });

  it('logout revokes the token and deletes the file; the token then answers 401', async () => {
    const { token } = stored();
    const run = await cli(['logout'], asPerson);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('revoked');
    expect(existsSync(file())).toBe(false);
    const after = await fetch(`${stack.urls.admin}/admin/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(after.status).toBe(401);
    const whoami = await cli(['whoami'], asPerson);
    expect(whoami.code).toBe(1);
    expect(whoami.stderr).toContain('not signed in');
  });
});
