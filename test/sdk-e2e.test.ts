import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AgentpayApiError,
  AgentpayClient,
  AgentpaySignatureError,
  type Callback,
  callbackListener,
  isPayOrderCallback,
  parsePayBody,
  ResultCode,
  unwrap,
} from '@agentpay/merchant-sdk';
import type { Stack } from '@agentpay/stack';
import { createTestMerchant, type TestMerchant, waitFor } from '@agentpay/testing';
import { generateKeyPair } from '@agentpay/wire';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// The merchant SDK against the whole stack as real processes: every call signed by the SDK and every
// reply verified by it, data shapes held to the OpenAPI document, a real callback from the notifier
// verified with verifyCallback, and refusal of replies changed between the gateway and the merchant.

let stack: Stack;
let merchant: TestMerchant & { platformKey: import('node:crypto').KeyObject };
let client: AgentpayClient;
let sink: Server;
let notifyUrl: string;
const callbacks: Callback[] = [];

const openapi = JSON.parse(readFileSync(new URL('../docs/openapi.json', import.meta.url), 'utf8')) as {
  components: { schemas: Record<string, object> };
};
const ajv = new Ajv2020({ strict: false, multipleOfPrecision: 9 });
addFormats.default(ajv);
for (const [name, schema] of Object.entries(openapi.components.schemas)) {
  ajv.addSchema(schema, `#/components/schemas/${name}`);
}
/** Asserts `data` matches the document's schema `name` (or an array of it). */
function expectShape(data: unknown, name: string) {
  const validate = ajv.getSchema(`#/components/schemas/${name}`)!;
  for (const item of Array.isArray(data) ? data : [data]) {
    expect(validate(item), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
  }
}

const bizNo = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;

beforeAll(async () => {
  stack = await startTestStack({ env: { NOTIFY_RETRY_SCHEDULE: '1s,1s,1s' } });
  merchant = await createTestMerchant({ adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway });
  client = new AgentpayClient({
    baseUrl: stack.urls.gateway,
    mchNo: merchant.mchNo,
    privateKey: merchant.privateKey,
    platformPublicKey: merchant.platformKey,
  });
  sink = createServer(
    callbackListener({
      platformPublicKey: merchant.platformKey,
      onCallback: (cb) => void callbacks.push(cb),
    }),
  );
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  notifyUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/agentpay/notify`;
});

afterAll(async () => {
  await new Promise((resolve) => sink?.close(resolve));
  await stack?.stop();
});

describe('options', () => {
  it('lists payment methods and payee types with verified replies in the documented shape', async () => {
    const methods = unwrap(await client.payMethods());
    expect(methods.map((m) => m.code)).toEqual(['mex_virtual_account']);
    expectShape(methods, 'OptionItem');

    const types = unwrap(await client.payeeTypes());
    expect(types.map((t) => t.code)).toContain('spei_transfer');
    expectShape(types, 'OptionItem');
  });

  it('lists the public SPEI payee codes', async () => {
    const codes = unwrap(await client.payeeCodes({ payeeType: 'spei_transfer' }));
    expect(codes).toContainEqual({ code: '40012', name: 'BBVA MEXICO' });
  });
});

describe('payment orders', { timeout: 60_000 }, () => {
  it('creates an order, a tester pays it in the sandbox, and the notifier callback verifies', async () => {
    const bizOrderNo = bizNo('SDK');
    const created = await client.pay({
      bizOrderNo,
      title: 'SDK order',
      method: 'mex_virtual_account',
      amount: 100.5,
      notifyUrl,
      attach: 'sdk e2e',
      extraParam: { customer: 'C-9' },
    });
    expect(created.code).toBe(0);
    const order = unwrap(created);
    expectShape(order, 'PayResult');
    expect(order).toMatchObject({ bizOrderNo, status: 'wait' });
    const payBody = parsePayBody(order.payBody!);
    expectShape(payBody, 'PayBody');
    expect(payBody.amount).toBe(100.5);

    const deposit = await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clabe: payBody.clabe, amount: payBody.amount }),
    });
    expect(deposit.status).toBe(201);

    const callback = await waitFor(
      () =>
        callbacks.find(
          (c) => isPayOrderCallback(c) && c.data.orderNo === order.orderNo && c.data.status === 'success',
        ),
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expectShape(callback, 'PayOrderCallback');
    const queried = unwrap(await client.queryPayOrder({ orderNo: order.orderNo! }));
    expectShape(queried, 'PayOrder');
    expect(queried).toMatchObject({ status: 'success', amount: 100.5, attach: 'sdk e2e' });
    expect(callback.data).toEqual(queried);
  });

  it('repeats a pay idempotently, and answers a changed repeat with 30002 as an envelope, not an exception', async () => {
    const params = { bizOrderNo: bizNo('IDEM'), title: 'Twice', method: 'mex_virtual_account', amount: 10 };
    const first = unwrap(await client.pay(params));
    const again = unwrap(await client.pay(params));
    expect(again.orderNo).toBe(first.orderNo);

    const changed = await client.pay({ ...params, amount: 11 });
    expect(changed).toMatchObject({ code: ResultCode.DUPLICATE_ORDER, data: null });
    expect(() => unwrap(changed)).toThrow(AgentpayApiError);
  });

  it('closes an order (data null) and syncs it', async () => {
    const order = unwrap(
      await client.pay({
        bizOrderNo: bizNo('CLOSE'),
        title: 'To close',
        method: 'mex_virtual_account',
        amount: 5,
      }),
    );
    const closed = await client.close({ bizOrderNo: order.bizOrderNo!, useCancel: true });
    expect(closed).toMatchObject({ code: 0, data: null });
    const synced = unwrap(await client.syncPayOrder({ orderNo: order.orderNo! }));
    expectShape(synced, 'SyncResult');
    expect(synced.orderStatus).toBe('cancel');
    expect(unwrap(await client.queryPayOrder({ orderNo: order.orderNo! })).status).toBe('cancel');
  });

  it('answers an unknown order with 30003 and a bad amount with 10001 naming the field', async () => {
    expect((await client.queryPayOrder({ bizOrderNo: bizNo('NONE') })).code).toBe(ResultCode.ORDER_NOT_FOUND);
    const bad = await client.pay({
      bizOrderNo: bizNo('BAD'),
      title: 'x',
      method: 'mex_virtual_account',
      amount: 1.005,
    });
    expect(bad.code).toBe(ResultCode.INVALID_PARAMETER);
    expect(bad.msg).toContain('amount');
  });
});

describe('transfers', () => {
  it('validates a payee, sends a transfer and reads it back', async () => {
    const account = '646180110400000007';
    const inquiry = unwrap(
      await client.inquire({
        bizInquryNo: bizNo('INQ'),
        payeeType: 'spei_transfer',
        payeeAccount: account,
        payeeName: 'Ana',
      }),
    );
    expectShape(inquiry, 'InquiryResult');
    expect(inquiry).toMatchObject({ status: 'valid', accountValid: true });

    const bizTransferNo = bizNo('TR');
    const transfer = unwrap(
      await client.transfer({
        bizTransferNo,
        amount: 1.5,
        payeeType: 'spei_transfer',
        payeeAccount: account,
        payeeName: 'Ana',
      }),
    );
    expectShape(transfer, 'TransferResult');
    const queried = unwrap(await client.queryTransferOrder({ bizTransferNo }));
    expectShape(queried, 'TransferOrder');
    expect(queried).toMatchObject({ transferNo: transfer.transferNo, amount: 1.5, payeeCode: '90646' });
  });
});

describe('signatures', () => {
  it('gets a verified 20052 envelope for a request signed with a key the platform does not know', async () => {
    const impostor = new AgentpayClient({
      baseUrl: stack.urls.gateway,
      mchNo: merchant.mchNo,
      privateKey: generateKeyPair().privateKeyPem,
      platformPublicKey: merchant.platformKey,
    });
    expect(await impostor.payMethods()).toMatchObject({ code: ResultCode.SIGNATURE_FAILED, data: null });
  });

  describe('replies changed between the gateway and the merchant', () => {
    let proxy: Server;
    let change: (reply: Record<string, unknown>) => Record<string, unknown>;

    beforeAll(async () => {
      // Relays to the real gateway and alters the real, signed reply on the way back.
      proxy = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', async () => {
          const upstream = await fetch(`${stack.urls.gateway}${req.url}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: Buffer.concat(chunks),
          });
          const reply = change((await upstream.json()) as Record<string, unknown>);
          res.writeHead(upstream.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(reply));
        });
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    });

    afterAll(async () => {
      await new Promise((resolve) => proxy.close(resolve));
    });

    const viaProxy = () =>
      new AgentpayClient({
        baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        mchNo: merchant.mchNo,
        privateKey: merchant.privateKey,
        platformPublicKey: merchant.platformKey,
      });

    it('passes an unchanged reply', async () => {
      change = (reply) => reply;
      expect((await viaProxy().payMethods()).code).toBe(0);
    });

    it('refuses a reply whose data was changed', async () => {
      change = (reply) => ({ ...reply, data: [{ code: 'mex_virtual_account', name: 'Pay here instead' }] });
      await expect(viaProxy().payMethods()).rejects.toBeInstanceOf(AgentpaySignatureError);
    });

    it('refuses a reply whose signature was removed', async () => {
      change = ({ sign: _, ...rest }) => rest;
      await expect(viaProxy().payMethods()).rejects.toThrow(/not signed/);
    });
  });
});

describe('published document', () => {
  it('the gateway serves the committed OpenAPI document and a docs page', async () => {
    const served = await fetch(`${stack.urls.gateway}/openapi.json`);
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual(openapi);
    const page = await fetch(`${stack.urls.gateway}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('/gateway/sync/order/pay');
  });
});
