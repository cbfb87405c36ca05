import { execFileSync, spawnSync } from 'node:child_process';
import type { KeyObject } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Stack } from '@agentpay/stack';
import { createTestMerchant, type TestMerchant, waitFor } from '@agentpay/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// The Java SDK against the whole stack as real processes (one stack for the file): `run-example
// pay-and-query` prints the order with its CLABE, `run-example verify-callback` answers ok to a real
// callback from the notifier and bad to the same one with a changed amount, and every typed call of the
// client gets a verified reply from the real gateway.

const SDK_DIR = fileURLToPath(new URL('../sdks/java/', import.meta.url));

let stack: Stack;
let merchant: TestMerchant & { platformKey: KeyObject };
let keyDir: string;
let env: NodeJS.ProcessEnv;
let sink: Server;
let notifyUrl: string;
const callbackBodies: string[] = [];

beforeAll(async () => {
  const javac = spawnSync('javac', ['-version'], { encoding: 'utf8' });
  if (javac.error || javac.status !== 0) {
    throw new Error(
      'javac not found: the Java SDK tests need a JDK 17. Install the toolchains with scripts/install-toolchains.sh',
    );
  }
  execFileSync(`${SDK_DIR}build`, ['test-classes'], { stdio: 'inherit' });
  execFileSync(`${SDK_DIR}build`, ['example'], { stdio: 'inherit' });

  // A loaded machine (other suites, the JDK's compiler) can take longer than the default minute to start.
  stack = await startTestStack({ readyTimeoutMs: 180_000 });
  merchant = await createTestMerchant({ adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway });
  keyDir = mkdtempSync(join(tmpdir(), 'agentpay-java-'));
  writeFileSync(
    join(keyDir, 'private-key.pem'),
    merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  );
  writeFileSync(
    join(keyDir, 'platform-public-key.pem'),
    merchant.platformKey.export({ type: 'spki', format: 'pem' }).toString(),
  );
  env = {
    ...process.env,
    AGENTPAY_URL: stack.urls.gateway,
    AGENTPAY_MCH_NO: merchant.mchNo,
    AGENTPAY_PRIVATE_KEY: join(keyDir, 'private-key.pem'),
    AGENTPAY_PLATFORM_PUBLIC_KEY: join(keyDir, 'platform-public-key.pem'),
  };
  sink = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      callbackBodies.push(body);
      res.end('SUCCESS');
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  notifyUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/notify`;
}, 300_000);

afterAll(async () => {
  await new Promise((resolve) => sink?.close(resolve));
  await stack?.stop();
  if (keyDir) rmSync(keyDir, { recursive: true, force: true });
}, 120_000);

function runExample(command: string, extraEnv: NodeJS.ProcessEnv = {}, input = '') {
  return spawnSync(`${SDK_DIR}run-example`, [command], {
    env: { ...env, ...extraEnv },
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('Java SDK against a stack', { timeout: 90_000 }, () => {
  it('run-example pay-and-query prints the order with its CLABE, as the gateway holds it', async () => {
    const run = runExample('pay-and-query', { AGENTPAY_AMOUNT: '5' });
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const printed = JSON.parse(lines[0]!) as Record<string, string>;
    expect(Object.keys(printed)).toEqual(['orderNo', 'bizOrderNo', 'status', 'clabe']);
    expect(printed['status']).toBe('wait');
    expect(printed['clabe']).toMatch(/^\d{18}$/);

    const reply = await merchant.request('/gateway/query/payOrder', { orderNo: printed['orderNo'] });
    expect(reply.signed).toBe(true);
    expect(reply.envelope.data).toMatchObject({
      bizOrderNo: printed['bizOrderNo'],
      amount: 5,
      status: 'wait',
    });
  });

  it('run-example verify-callback answers ok to a real callback and bad to one with a changed amount', async () => {
    const created = await merchant.request('/gateway/pay', {
      bizOrderNo: `JCB-${randomBytes(6).toString('hex')}`,
      title: 'Java callback',
      method: 'mex_virtual_account',
      amount: 100.5,
      notifyUrl,
    });
    const data = created.envelope.data as { orderNo: string; payBody: string };
    const { clabe } = JSON.parse(data.payBody) as { clabe: string };
    const deposit = await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clabe, amount: 100.5 }),
    });
    expect(deposit.status).toBe(201);
    const body = await waitFor(() => callbackBodies.find((b) => b.includes(data.orderNo)), {
      timeoutMs: 30_000,
      intervalMs: 100,
      message: `the callback of ${data.orderNo}`,
    });
    expect(body).toContain('"amount":100.5');

    const ok = runExample('verify-callback', {}, body);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout.trim()).toBe('ok');

    const changed = runExample('verify-callback', {}, body.replace('"amount":100.5', '"amount":1005'));
    expect(changed.status, changed.stderr).toBe(1);
    expect(changed.stdout.trim()).toBe('bad');
  });

  it('every typed call gets a verified reply: options, pay (integer amount, nested null), close, sync, codes, transfers, balance', () => {
    const run = spawnSync(
      'java',
      ['-cp', `${SDK_DIR}target/classes:${SDK_DIR}target/test-classes`, 'com.agentpay.merchant.StackTour'],
      { env, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const tour = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(tour['payMethods']).toEqual(['mex_virtual_account']);
    expect(tour['payeeTypes']).toContain('spei_transfer');
    expect(tour['speiCodes']).toContain('40012');
    expect(tour['pay']).toMatchObject({ status: 'wait', amount: '5' });
    expect(tour['payAgainSameOrder']).toBe(true);
    expect(tour['payChangedCode']).toBe(30002);
    expect(tour['query']).toEqual({ status: 'wait', amount: '5', attach: 'java e2e' });
    expect(tour['closeCode']).toBe(0);
    expect(tour['syncStatus']).toBe('cancel');
    expect(tour['missing']).toEqual({ code: 30003, msg: expect.stringContaining('order not found') });
    expect(tour['rawPayeeCodeCode']).toBe(40002);
    expect(tour['inquiry']).toEqual({ status: 'valid', accountValid: true });
    expect(tour['transfer']).toEqual({
      status: 'success',
      bizTransferNo: expect.stringMatching(/^JT-/),
      amount: '1.5',
      payeeCode: '90646',
    });
    expect(tour['balance']).toMatchObject({ currency: 'MXN' });
    const types = tour['recordTypes'] as string[];
    expect(types).toContain('adjust');
    expect(types).toEqual(expect.arrayContaining(['transfer_freeze', 'transfer_out']));
    expect(tour['recordsPagedOneByOne']).toBe(types.length);
  });
});
