import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Stack } from '@agentpay/stack';
import { createTestMerchant } from '@agentpay/testing';
import { generateKeyPair } from '@agentpay/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// The merchant SDK as a merchant gets it: `npm pack` of packages/merchant-sdk, installed from the tarball
// into an empty project outside this repository, then driven by plain `node` from an ES module and from a
// CommonJS script against the whole stack: a signed pay whose reply the SDK verifies, a real notifier
// callback verified with verifyCallback, and refusals of a reply and a callback that do not verify. The
// declarations are checked by compiling a .mts and a .cts consumer with strict TypeScript.

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const sdkDir = join(repoRoot, 'packages/merchant-sdk');
const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');

/** The environment without npm's own variables, so the inner npm behaves as in a merchant's shell. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

let work: string;
let project: string;
let packed: { filename: string; files: { path: string }[] };
let stack: Stack;
let merchantEnv: Record<string, string>;
let installed: { stdout: string; stderr: string };

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'agentpay-sdk-package-'));
  const tarballs = join(work, 'tarballs');
  project = join(work, 'merchant-app');
  mkdirSync(tarballs);
  mkdirSync(project);

  const [startedStack, packOutput] = await Promise.all([
    startTestStack(),
    // `npm pack` runs the package's prepack script, so the tarball holds a fresh build of src.
    run('npm', ['pack', '--json', '--pack-destination', tarballs], { cwd: sdkDir, env: cleanEnv() }),
  ]);
  stack = startedStack;
  packed = (JSON.parse(packOutput.stdout) as (typeof packed)[])[0]!;

  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'merchant-app', version: '1.0.0', private: true }, null, 2)}\n`,
  );
  installed = await run(
    'npm',
    [
      'install',
      join(tarballs, packed.filename),
      '--offline',
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
    ],
    { cwd: project, env: cleanEnv() },
  );

  const merchant = await createTestMerchant({ adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway });
  merchantEnv = {
    GATEWAY_URL: stack.urls.gateway,
    SANDBOX_URL: stack.urls.sandbox,
    MCH_NO: merchant.mchNo,
    MERCHANT_PRIVATE_KEY: merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    PLATFORM_PUBLIC_KEY: merchant.platformKey.export({ type: 'spki', format: 'pem' }).toString(),
    IMPOSTOR_PUBLIC_KEY: generateKeyPair().publicKeyPem,
  };
});

afterAll(async () => {
  await stack?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed merchant SDK', { timeout: 120_000 }, () => {
  it('ships built ESM, CommonJS and declarations with its README and changelog, and no source or tests', () => {
    const paths = packed.files.map((f) => f.path).sort();
    expect(paths).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'CHANGELOG.md',
        'dist/esm/index.js',
        'dist/esm/index.d.ts',
        'dist/cjs/index.js',
        'dist/cjs/index.d.ts',
        'dist/cjs/package.json',
      ]),
    );
    const source = (p: string) => p.startsWith('src/') || (p.endsWith('.ts') && !p.endsWith('.d.ts'));
    expect(paths.filter(source)).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8')) as {
      version: string;
      dependencies?: object;
    };
    expect(packed.filename).toBe(`agentpay-merchant-sdk-${manifest.version}.tgz`);
    expect(readFileSync(join(sdkDir, 'CHANGELOG.md'), 'utf8')).toContain(`## ${manifest.version}`);
  });

  it('installs into an empty project outside the repository with nothing but itself', () => {
    expect(project.startsWith(repoRoot)).toBe(false);
    const modules = readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'));
    expect(modules).toEqual(['@agentpay']);
    expect(readdirSync(join(project, 'node_modules/@agentpay'))).toEqual(['merchant-sdk']);
    const manifest = JSON.parse(
      readFileSync(join(project, 'node_modules/@agentpay/merchant-sdk/package.json'), 'utf8'),
    ) as { dependencies?: Record<string, string>; scripts?: Record<string, string> };
    expect(Object.keys(manifest.dependencies ?? {})).toEqual([]);
    // No lifecycle script for npm to run or ask the merchant to approve (npm 11 allowScripts).
    expect(Object.keys(manifest.scripts ?? {}).filter((s) => /install|prepare/.test(s))).toEqual([]);
    expect(installed.stderr).not.toMatch(/install.scripts|ERR/i);
  });

  for (const [format, file] of [
    ['esm', 'merchant.mjs'],
    ['cjs', 'merchant.cjs'],
  ] as const) {
    it(`from ${format === 'esm' ? 'an ES module' : 'a CommonJS script'}: pays with a verified reply and verifies the paid callback`, async () => {
      writeFileSync(join(project, file), merchantScript(format));
      const bizOrderNo = `PKG-${format}-${randomBytes(5).toString('hex')}`;
      const { stdout } = await run(process.execPath, [file], {
        cwd: project,
        env: cleanEnv({ ...merchantEnv, BIZ_ORDER_NO: bizOrderNo }),
        timeout: 90_000,
      });
      const result = JSON.parse(stdout) as Record<string, unknown>;
      expect(result['resolved']).toBe(
        join(project, `node_modules/@agentpay/merchant-sdk/dist/${format}/index.js`),
      );
      expect(result).toMatchObject({
        created: { code: 0, bizOrderNo, status: 'wait' },
        payBodyAmount: 12.34,
        depositStatus: 201,
        callback: { bizOrderNo, status: 'success', amount: 12.34 },
        callbackAnswer: { status: 200, body: 'SUCCESS' },
        impostorReply: 'AgentpaySignatureError',
        tamperedCallback: 'AgentpaySignatureError',
        forgedCallbackAnswer: 400,
      });
      expect((result['callback'] as { orderNo: string }).orderNo).toBe(
        (result['created'] as { orderNo: string }).orderNo,
      );
    });
  }

  it('types a strict TypeScript consumer in both module systems, refusing a wrongly typed call', async () => {
    const consumer = `
      const client = new AgentpayClient({
        baseUrl: 'http://127.0.0.1:8080',
        mchNo: 'M1',
        privateKey: 'pem',
        platformPublicKey: 'pem',
      });
      export async function order(): Promise<string | undefined> {
        const reply = await client.pay({ bizOrderNo: 'B1', title: 'T', method: 'mex_virtual_account', amount: 1 });
        // @ts-expect-error amount is a number of pesos
        await client.pay({ bizOrderNo: 'B1', title: 'T', method: 'mex_virtual_account', amount: '1' });
        return isSuccess(reply) ? reply.data.orderNo : undefined;
      }
      export function status(body: string): string | undefined {
        const callback: Callback = verifyCallback(body, 'pem');
        return isPayOrderCallback(callback) ? callback.data.status : callback.data.status;
      }
    `;
    const names = 'AgentpayClient, type Callback, isPayOrderCallback, isSuccess, verifyCallback';
    // The same text is an ES module as .mts and compiles to require() as .cts.
    for (const file of ['consumer.mts', 'consumer.cts']) {
      writeFileSync(join(project, file), `import { ${names} } from '@agentpay/merchant-sdk';\n${consumer}`);
    }
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          typeRoots: [join(repoRoot, 'node_modules/@types')],
          types: ['node'],
          traceResolution: true,
        },
        files: ['consumer.mts', 'consumer.cts'],
      }),
    );
    const { stdout } = await run(process.execPath, [tsc, '-p', project], { cwd: project }).catch(
      (err: { stdout: string }) => {
        // Only the diagnostics, not the resolution trace.
        throw new Error(
          err.stdout
            .split('\n')
            .filter((line) => /error TS/.test(line))
            .join('\n'),
        );
      },
    );
    const resolved = [...stdout.matchAll(/'@agentpay\/merchant-sdk' was successfully resolved to '([^']+)'/g)]
      .map((m) => m[1]!.replace(project, ''))
      .sort();
    expect(resolved).toEqual([
      '/node_modules/@agentpay/merchant-sdk/dist/cjs/index.d.ts',
      '/node_modules/@agentpay/merchant-sdk/dist/esm/index.d.ts',
    ]);
  });
});

/**
 * A merchant's script: the same body loaded with `import` (.mjs) or `require` (.cjs). It prints one JSON
 * line of what it saw; the test judges it.
 */
function merchantScript(format: 'esm' | 'cjs'): string {
  const load =
    format === 'esm'
      ? `import * as sdk from '@agentpay/merchant-sdk';
import http from 'node:http';
const resolved = new URL(import.meta.resolve('@agentpay/merchant-sdk')).pathname;`
      : `const sdk = require('@agentpay/merchant-sdk');
const http = require('node:http');
const resolved = require.resolve('@agentpay/merchant-sdk');`;
  return `${load}
const {
  AgentpayClient, AgentpaySignatureError, acknowledgeCallback, isPayOrderCallback, parsePayBody, unwrap,
  verifyCallback,
} = sdk;
const env = process.env;

async function main() {
  const client = new AgentpayClient({
    baseUrl: env.GATEWAY_URL,
    mchNo: env.MCH_NO,
    privateKey: env.MERCHANT_PRIVATE_KEY,
    platformPublicKey: env.PLATFORM_PUBLIC_KEY,
  });

  // The merchant's notifyUrl: verify the raw body, then acknowledge; keep the paid callback.
  let paid;
  const callbackPaid = new Promise((resolve) => (paid = resolve));
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      let callback;
      try {
        callback = verifyCallback(raw, env.PLATFORM_PUBLIC_KEY);
      } catch {
        res.writeHead(400).end('FAIL');
        return;
      }
      acknowledgeCallback(res);
      if (isPayOrderCallback(callback) && callback.data.status === 'success') paid({ raw, callback });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const notifyUrl = 'http://127.0.0.1:' + server.address().port + '/agentpay/notify';

  const reply = await client.pay({
    bizOrderNo: env.BIZ_ORDER_NO,
    title: 'Packaged SDK order',
    method: 'mex_virtual_account',
    amount: 12.34,
    notifyUrl,
  });
  const order = unwrap(reply);
  const payBody = parsePayBody(order.payBody);

  const deposit = await fetch(env.SANDBOX_URL + '/sandbox/deposits', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clabe: payBody.clabe, amount: payBody.amount }),
  });
  const timeout = setTimeout(() => {
    console.error('no paid callback within 60 s');
    process.exit(2);
  }, 60_000);
  const { raw, callback } = await callbackPaid;
  clearTimeout(timeout);

  // The same callback once more, as the platform would send it, then one with a changed amount.
  const post = (body) =>
    fetch(notifyUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const again = await post(raw);
  const forged = raw.replace('"amount":12.34', '"amount":1234');
  const forgedAnswer = await post(forged);
  server.close();

  const errorName = (fn) => {
    try {
      fn();
      return 'accepted';
    } catch (err) {
      return err instanceof AgentpaySignatureError ? 'AgentpaySignatureError' : String(err);
    }
  };
  const impostor = new AgentpayClient({
    baseUrl: env.GATEWAY_URL,
    mchNo: env.MCH_NO,
    privateKey: env.MERCHANT_PRIVATE_KEY,
    platformPublicKey: env.IMPOSTOR_PUBLIC_KEY,
  });
  let impostorReply = 'accepted';
  try {
    await impostor.payMethods();
  } catch (err) {
    impostorReply = err instanceof AgentpaySignatureError ? 'AgentpaySignatureError' : String(err);
  }

  console.log(JSON.stringify({
    resolved,
    created: { code: reply.code, ...order },
    payBodyAmount: payBody.amount,
    depositStatus: deposit.status,
    callback: callback.data,
    callbackAnswer: { status: again.status, body: await again.text() },
    impostorReply,
    tamperedCallback: forged === raw ? 'not changed' : errorName(() => verifyCallback(forged, env.PLATFORM_PUBLIC_KEY)),
    forgedCallbackAnswer: forgedAnswer.status,
  }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
`;
}
