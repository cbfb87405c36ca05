import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Stack } from '@agentpay/stack';
import { createTestMerchant, type TestMerchant, waitFor } from '@agentpay/testing';
import { type Envelope, verifyEnvelope } from '@agentpay/wire';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// A merchant who knows only the served GET /openapi.json: types generated from it with openapi-typescript,
// a client from openapi-fetch, the two compiled together by tsc (strict), then a pay and a transfer driven
// through the running stack with that client. The merchant's own code adds only the signature.

/** The merchant's code, written against the generated types; it must compile as it is. */
const DRIVER = `import createClient from 'openapi-fetch';
import type { components, paths } from './merchant-api.js';

type Common = 'mchNo' | 'reqTime' | 'sign' | 'nonceStr' | 'appId' | 'clientIp';
type Body<P extends keyof paths> = paths[P]['post']['requestBody']['content']['application/json'];
type Params<P extends keyof paths> = Omit<Body<P>, Common>;
export type Signer = <T extends object>(params: T) => T & { mchNo: string; reqTime: string; sign: string };
export type Code = components['schemas']['Code'];

export function merchantApi(baseUrl: string, sign: Signer) {
  const client = createClient<paths>({ baseUrl });
  return {
    async pay(params: Params<'/gateway/pay'>) {
      // Compiles only while the document says null is accepted (as absent) for an optional field.
      const body: Body<'/gateway/pay'> = sign({ ...params, attach: params.attach ?? null });
      const { data, response } = await client.POST('/gateway/pay', { body });
      const code: Code | undefined = data?.code;
      const orderNo: string | undefined = data?.data?.orderNo;
      const payBody: string | undefined = data?.data?.payBody;
      return { status: response.status, envelope: data, code, orderNo, payBody };
    },
    async queryPayOrder(params: Params<'/gateway/query/payOrder'>) {
      const { data } = await client.POST('/gateway/query/payOrder', { body: sign(params) });
      const status: components['schemas']['PayStatus'] | undefined = data?.data?.status;
      return { envelope: data, status };
    },
    async transfer(params: Params<'/gateway/transfer'>) {
      const { data, response } = await client.POST('/gateway/transfer', { body: sign(params) });
      const transferNo: string | undefined = data?.data?.transferNo;
      return { status: response.status, envelope: data, transferNo };
    },
    async queryTransferOrder(params: Params<'/gateway/query/transferOrder'>) {
      const { data } = await client.POST('/gateway/query/transferOrder', { body: sign(params) });
      const status: components['schemas']['TransferStatus'] | undefined = data?.data?.status;
      const amount: number | undefined = data?.data?.amount;
      return { envelope: data, status, amount };
    },
  };
}
`;

const root = fileURLToPath(new URL('../', import.meta.url));
// Under node_modules so that the generated code resolves openapi-fetch as any project's would.
const workDir = join(root, 'node_modules', '.cache', `openapi-client-${randomBytes(4).toString('hex')}`);

interface Driver {
  merchantApi(
    baseUrl: string,
    sign: (params: object) => Record<string, unknown>,
  ): {
    pay(
      params: object,
    ): Promise<{ status: number; envelope: Envelope; code: number; orderNo?: string; payBody?: string }>;
    queryPayOrder(params: object): Promise<{ envelope: Envelope; status?: string }>;
    transfer(params: object): Promise<{ status: number; envelope: Envelope; transferNo?: string }>;
    queryTransferOrder(params: object): Promise<{ envelope: Envelope; status?: string; amount?: number }>;
  };
}

let stack: Stack;
let merchant: TestMerchant & { platformKey: import('node:crypto').KeyObject };
let driver: Driver;

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createTestMerchant({ adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway });

  const served = await fetch(`${stack.urls.gateway}/openapi.json`);
  expect(served.status).toBe(200);
  const types = astToString(await openapiTS((await served.json()) as Parameters<typeof openapiTS>[0]));

  mkdirSync(workDir, { recursive: true });
  writeFileSync(join(workDir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(workDir, 'merchant-api.ts'), types);
  writeFileSync(join(workDir, 'driver.ts'), DRIVER);
  writeFileSync(
    join(workDir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        skipLibCheck: true,
        outDir: 'out',
      },
      files: ['merchant-api.ts', 'driver.ts'],
    }),
  );
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', join(workDir, 'tsconfig.json')], { encoding: 'utf8' });
  } catch (err) {
    throw new Error(`the generated client does not compile:\n${(err as { stdout?: string }).stdout ?? err}`);
  }
  driver = (await import(pathToFileURL(join(workDir, 'out', 'driver.js')).href)) as Driver;
}, 180_000);

afterAll(async () => {
  rmSync(workDir, { recursive: true, force: true });
  await stack?.stop();
});

const bizNo = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;

describe('a client generated from the served OpenAPI document', { timeout: 60_000 }, () => {
  it('pays: creates an order, the payer pays it in the sandbox, the order reads success', async () => {
    const api = driver.merchantApi(stack.urls.gateway, (params) => merchant.signed({ ...params }));
    const created = await api.pay({
      bizOrderNo: bizNo('GEN'),
      title: 'Generated client',
      method: 'mex_virtual_account',
      amount: 100.5,
      // null means absent, and the generated type says so.
      attach: null,
    });
    expect(created.status).toBe(200);
    expect(verifyEnvelope(created.envelope, merchant.platformKey)).toBe(true);
    expect(created.code, created.envelope.msg).toBe(0);
    const payBody = JSON.parse(created.payBody!) as { clabe: string; amount: number };

    const deposit = await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clabe: payBody.clabe, amount: payBody.amount }),
    });
    expect(deposit.status).toBe(201);
    const paid = await waitFor(
      async () => {
        const queried = await api.queryPayOrder({ orderNo: created.orderNo });
        return queried.status === 'success' ? queried : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    expect(verifyEnvelope(paid.envelope, merchant.platformKey)).toBe(true);
  });

  it('transfers: sends a payout and reads it back by its transferNo', async () => {
    const api = driver.merchantApi(stack.urls.gateway, (params) => merchant.signed({ ...params }));
    const sent = await api.transfer({
      bizTransferNo: bizNo('GENTR'),
      amount: 1.5,
      payeeType: 'spei_transfer',
      payeeAccount: '646180110400000007',
      payeeName: 'Ana',
    });
    expect(verifyEnvelope(sent.envelope, merchant.platformKey)).toBe(true);
    expect(sent.envelope.code, sent.envelope.msg).toBe(0);
    const queried = await api.queryTransferOrder({ transferNo: sent.transferNo });
    expect(verifyEnvelope(queried.envelope, merchant.platformKey)).toBe(true);
    expect(queried.amount).toBe(1.5);
    expect(['progress', 'success']).toContain(queried.status);
  });

  it('gets a signed, typed failure for a body the document refuses', async () => {
    const api = driver.merchantApi(stack.urls.gateway, (params) => merchant.signed({ ...params }));
    // Neither orderNo nor bizOrderNo: the document's anyOf and the gateway agree.
    const queried = await api.queryPayOrder({ orderNo: null });
    expect(verifyEnvelope(queried.envelope, merchant.platformKey)).toBe(true);
    expect(queried.envelope.code).toBe(10001);
    expect(queried.envelope.data).toBeNull();
  });
});
