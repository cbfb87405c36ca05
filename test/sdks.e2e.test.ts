import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentpayClient, parsePayBody, unwrap } from '@agentpay/merchant-sdk';
import type { Stack } from '@agentpay/stack';
import { createTestMerchant, waitFor } from '@agentpay/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapiEndpoints, readReport, runSdkCommand, SDK_LANGUAGES } from './support/sdks.js';
import { startTestStack } from './support/stack.js';

// Every SDK under sdks/ against one whole stack as real processes (sdks/README.md): `run-example
// pay-and-query` creates and queries an order with the SDK's own signing and verification, and refuses
// either reply once it is changed on the way; `run-tests e2e` makes every typed call of the OpenAPI
// document; `run-example verify-callback` answers ok to a callback the notifier really sent and bad to the
// same with a changed amount.

let stack: Stack;
let work: string;
let client: AgentpayClient;
let env: Record<string, string>;
let receiver: Server;
let proxy: Server;
/** Changes a reply from the gateway on its way through the proxy, by path. */
let change: (path: string, reply: Record<string, unknown>) => Record<string, unknown> = (_p, r) => r;
const callbacks: string[] = [];
let paidCallback: string;

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

function readBody(req: import('node:http').IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

beforeAll(async () => {
  stack = await startTestStack({ env: { NOTIFY_RETRY_SCHEDULE: '1s,1s,1s' } });
  const merchant = await createTestMerchant({ adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway });
  work = mkdtempSync(join(tmpdir(), 'agentpay-sdks-e2e-'));
  const privateKeyPath = join(work, 'private-key.pem');
  const platformKeyPath = join(work, 'platform-public-key.pem');
  writeFileSync(privateKeyPath, merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  writeFileSync(platformKeyPath, merchant.platformKey.export({ type: 'spki', format: 'pem' }).toString());
  client = new AgentpayClient({
    baseUrl: stack.urls.gateway,
    mchNo: merchant.mchNo,
    privateKey: merchant.privateKey,
    platformPublicKey: merchant.platformKey,
  });
  env = {
    AGENTPAY_URL: stack.urls.gateway,
    AGENTPAY_MCH_NO: merchant.mchNo,
    AGENTPAY_PRIVATE_KEY: privateKeyPath,
    AGENTPAY_PLATFORM_PUBLIC_KEY: platformKeyPath,
  };

  // The merchant's notifyUrl: keeps each callback's raw body, as a merchant's endpoint receives it.
  receiver = createServer(async (req, res) => {
    callbacks.push((await readBody(req)).toString('utf8'));
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('SUCCESS');
  });
  const notifyUrl = `${await listen(receiver)}/agentpay/notify`;

  // Relays to the real gateway and may change the real, signed reply on the way back.
  proxy = createServer(async (req, res) => {
    const upstream = await fetch(`${stack.urls.gateway}${req.url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: await readBody(req),
    });
    const reply = change(req.url ?? '', (await upstream.json()) as Record<string, unknown>);
    res.writeHead(upstream.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply));
  });
  await listen(proxy);

  // A real callback: an order paid through the sandbox, notified by the notifier.
  const order = unwrap(
    await client.pay({
      bizOrderNo: `CB-${randomBytes(6).toString('hex')}`,
      title: 'Callback for the SDKs',
      method: 'mex_virtual_account',
      amount: 100.5,
      notifyUrl,
      extraParam: { customer: { id: 'C-9', note: null } },
    }),
  );
  const payBody = parsePayBody(order.payBody!);
  const deposit = await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clabe: payBody.clabe, amount: payBody.amount }),
  });
  expect(deposit.status).toBe(201);
  paidCallback = await waitFor(
    () =>
      callbacks.find((text) => {
        const body = JSON.parse(text) as { data?: { orderNo?: string; status?: string } };
        return body.data?.orderNo === order.orderNo && body.data?.status === 'success';
      }),
    { timeoutMs: 30_000, intervalMs: 100 },
  );
});

afterAll(async () => {
  for (const server of [receiver, proxy]) {
    if (server) await new Promise((resolve) => server.close(resolve));
  }
  await stack?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.each(SDK_LANGUAGES)('sdks/%s/run-example against the stack', { timeout: 120_000 }, (language) => {
  it('pay-and-query creates an order, queries it and prints it with its CLABE', async () => {
    const run = await runSdkCommand(language, 'run-example', ['pay-and-query'], { env });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const printed = JSON.parse(lines[0]!) as Record<string, string>;
    expect(Object.keys(printed).sort()).toEqual(['bizOrderNo', 'clabe', 'orderNo', 'status']);
    expect(printed['status']).toBe('wait');
    expect(printed['clabe']).toMatch(/^\d{18}$/);

    // The platform holds that order, for 12.34 pesos (the default amount), payable to that CLABE.
    const order = unwrap(await client.queryPayOrder({ orderNo: printed['orderNo']! }));
    expect(order).toMatchObject({ bizOrderNo: printed['bizOrderNo'], amount: 12.34, status: 'wait' });
  });

  it('signs an integer AGENTPAY_AMOUNT as the platform does', async () => {
    const run = await runSdkCommand(language, 'run-example', ['pay-and-query'], {
      env: { ...env, AGENTPAY_AMOUNT: '5' },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout) as { orderNo: string };
    expect(unwrap(await client.queryPayOrder({ orderNo: printed.orderNo })).amount).toBe(5);
  });

  it('refuses the pay reply and the query reply when either is changed on the way', async () => {
    const viaProxy = { ...env, AGENTPAY_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` };
    for (const tampered of ['/gateway/pay', '/gateway/query/payOrder']) {
      change = (path, reply) =>
        path === tampered ? { ...reply, data: { ...(reply['data'] as object), status: 'success' } } : reply;
      try {
        const run = await runSdkCommand(language, 'run-example', ['pay-and-query'], { env: viaProxy });
        expect(run.exitCode, `${tampered}: ${run.stdout}`).toBe(1);
        expect(run.stdout).toBe('');
        expect(run.stderr).toMatch(/Signature/);
      } finally {
        change = (_p, r) => r;
      }
    }
    // Unchanged, the same way through the proxy works.
    const run = await runSdkCommand(language, 'run-example', ['pay-and-query'], { env: viaProxy });
    expect(run.exitCode, run.stderr).toBe(0);
  });

  it('makes every typed call of docs/openapi.json against the stack (run-tests e2e)', async () => {
    const run = await runSdkCommand(language, 'run-tests', ['e2e'], { env });
    const results = readReport(run.stdout);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(run.exitCode, run.stderr).toBe(0);
    const called = results.map((r) => r.name).sort();
    expect(called).toEqual(
      Object.keys(openapiEndpoints())
        .map((operation) => `e2e: ${operation}`)
        .sort(),
    );
  });

  it('verify-callback answers ok to a real callback and bad to one with a changed amount', async () => {
    const ok = await runSdkCommand(language, 'run-example', ['verify-callback'], {
      env,
      input: paidCallback,
    });
    expect(ok).toMatchObject({ stdout: 'ok\n', exitCode: 0 });

    const body = JSON.parse(paidCallback) as { data: { amount: number } };
    expect(body.data.amount).toBe(100.5);
    const changed = JSON.stringify({ ...body, data: { ...body.data, amount: 1005 } });
    const bad = await runSdkCommand(language, 'run-example', ['verify-callback'], { env, input: changed });
    expect(bad).toMatchObject({ stdout: 'bad\n', exitCode: 1 });
  });
});
