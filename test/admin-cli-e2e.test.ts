import { execFile } from 'node:child_process';
import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentpayClient, parsePayBody, unwrap } from '@agentpay/merchant-sdk';
import { REPO_ROOT, type Stack } from '@agentpay/stack';
import { waitFor } from '@agentpay/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// The admin CLI as an operator runs it, a real process against the real admin APIs: generate a key
// pair, register a merchant with it, hand out the platform key, disable and enable the merchant, and
// look up and resend an order's callbacks. The merchant then really pays with the generated key.

let stack: Stack;
let dir: string;
let sink: Server;
let sinkUrl: string;
const received: string[] = [];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'packages/admin-cli/src/main.ts', ...args],
      {
        cwd: REPO_ROOT,
        // Callback deliveries are served by the gateway's admin port (the notifier answers only the gateway).
        env: { ...process.env, ADMIN_URL: stack.urls.admin, NOTIFIER_URL: stack.urls.admin, ...env },
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

const json = (run: Run) => JSON.parse(run.stdout) as Record<string, unknown>;
const mchNo = `CLI${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  stack = await startTestStack();
  dir = mkdtempSync(join(tmpdir(), 'agentpay-cli-'));
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
