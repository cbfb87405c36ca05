import type { Stack } from '@agentpay/stack';
import { createTestMerchant, nonce, now, settleApproval, type TestMerchant } from '@agentpay/testing';
import { generateKeyPair, signObject } from '@agentpay/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// Issue 2's "done when": the whole stack as real processes; a merchant created through the admin API
// calls options/pay-methods with a signed request and verifies the signed reply; every refusal of
// docs/merchant-api.md "Requests" comes back as a signed envelope with its code and HTTP status.

let stack: Stack;
let merchant: TestMerchant;
const admin = (path: string, init: RequestInit = {}, token = 'dev-admin-token') =>
  fetch(`${stack.urls.admin}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createTestMerchant({
    adminUrl: stack.urls.admin,
    gatewayUrl: stack.urls.gateway,
    appIds: ['app1'],
  });
});

afterAll(async () => {
  await stack?.stop();
});

describe('a merchant created through the admin API', () => {
  it('lists payment methods with a signed request and gets a reply signed by the platform', async () => {
    const reply = await merchant.request('/gateway/options/pay-methods');
    expect(reply.status).toBe(200);
    expect(reply.signed).toBe(true);
    expect(reply.envelope).toMatchObject({ code: 0, msg: 'success' });
    expect(reply.envelope.data).toEqual([{ code: 'mex_virtual_account', name: expect.any(String) }]);
    expect(reply.envelope.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(reply.envelope.resTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('continues the caller trace: the envelope traceId is the traceparent trace id', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const response = await fetch(`${stack.urls.gateway}/gateway/options/pay-methods`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      body: JSON.stringify(merchant.signed({})),
    });
    expect(((await response.json()) as { traceId: string }).traceId).toBe(traceId);
  });

  it('accepts a known appId and lists payee types', async () => {
    const reply = await merchant.request('/gateway/options/payee-types', {}, { appId: 'app1' });
    expect(reply.envelope.code).toBe(0);
    expect((reply.envelope.data as { code: string }[]).map((o) => o.code)).toContain('spei_transfer');
  });
});

describe('refusals of the check order, each a signed envelope', () => {
  it('a tampered request is 20052', async () => {
    const body = merchant.signed({});
    const reply = await merchant.send('/gateway/options/pay-methods', { ...body, clientIp: '10.0.0.9' });
    expect(reply).toMatchObject({ status: 200, signed: true, envelope: { code: 20052, data: null } });
  });

  it('a request signed by another key is 20052', async () => {
    const other = generateKeyPair();
    const body: Record<string, unknown> = { mchNo: merchant.mchNo, reqTime: now(), nonceStr: nonce() };
    const { createPrivateKey } = await import('node:crypto');
    const reply = await merchant.send('/gateway/options/pay-methods', {
      ...body,
      sign: signObject(body, createPrivateKey(other.privateKeyPem)),
    });
    expect(reply.envelope.code).toBe(20052);
    expect(reply.signed).toBe(true);
  });

  it('a stale request is 20053', async () => {
    const reply = await merchant.request('/gateway/options/pay-methods', {}, { reqTime: now(-301_000) });
    expect(reply).toMatchObject({ status: 200, signed: true, envelope: { code: 20053 } });
  });

  it('a request from the future beyond the window is 20053', async () => {
    const reply = await merchant.request('/gateway/options/pay-methods', {}, { reqTime: now(400_000) });
    expect(reply.envelope.code).toBe(20053);
  });

  it('a replayed nonce is 20054, the first use succeeds', async () => {
    const body = merchant.signed({});
    const first = await merchant.send('/gateway/options/pay-methods', body);
    const replay = await merchant.send('/gateway/options/pay-methods', body);
    expect(first.envelope.code).toBe(0);
    expect(replay).toMatchObject({ status: 200, signed: true, envelope: { code: 20054 } });
  });

  it('an unknown merchant is 20050', async () => {
    const reply = await merchant.request('/gateway/options/pay-methods', {}, { mchNo: 'NOPE-123' });
    expect(reply).toMatchObject({ status: 200, signed: true, envelope: { code: 20050, data: null } });
  });

  it('an appId of no app of the merchant is 20055', async () => {
    const reply = await merchant.request('/gateway/options/pay-methods', {}, { appId: 'someone-else' });
    expect(reply.envelope.code).toBe(20055);
  });

  it('a missing sign is 10001 naming the field', async () => {
    const reply = await merchant.send('/gateway/options/pay-methods', {
      mchNo: merchant.mchNo,
      reqTime: now(),
    });
    expect(reply.envelope).toMatchObject({ code: 10001 });
    expect(reply.envelope.msg).toContain('sign');
    expect(reply.signed).toBe(true);
  });

  it('a malformed reqTime is 10001 before the merchant is looked up', async () => {
    const reply = await merchant.request(
      '/gateway/options/pay-methods',
      {},
      { mchNo: 'NOPE', reqTime: '2026/11/21' },
    );
    expect(reply.envelope.code).toBe(10001);
    expect(reply.envelope.msg).toContain('reqTime');
  });

  it('a body that is not JSON is HTTP 400 with 10002', async () => {
    const reply = await merchant.send('/gateway/options/pay-methods', null, { raw: '{"mchNo":' });
    expect(reply).toMatchObject({ status: 400, signed: true, envelope: { code: 10002 } });
  });

  it('a JSON array is 10002', async () => {
    const reply = await merchant.send('/gateway/options/pay-methods', [1, 2]);
    expect(reply).toMatchObject({ status: 200, envelope: { code: 10002 } });
  });

  it('a non-JSON content type is HTTP 415 with 10003', async () => {
    const reply = await merchant.send('/gateway/options/pay-methods', null, {
      raw: 'mchNo=x',
      contentType: 'text/plain',
    });
    expect(reply).toMatchObject({ status: 415, signed: true, envelope: { code: 10003 } });
  });

  it('a body over 64 KiB is HTTP 413', async () => {
    const reply = await merchant.send(
      '/gateway/options/pay-methods',
      merchant.signed({ filler: 'x'.repeat(70_000) }),
    );
    expect(reply.status).toBe(413);
    expect(reply.signed).toBe(true);
  });

  it('GET on a merchant route is HTTP 405, an unknown path 404, both signed', async () => {
    const get = await merchant.send('/gateway/options/pay-methods', null, { method: 'GET' });
    const unknown = await merchant.send('/gateway/nope', merchant.signed({}));
    expect(get.status).toBe(405);
    expect(get.signed).toBe(true);
    expect(unknown.status).toBe(404);
    expect(unknown.signed).toBe(true);
  });

  it('a disabled merchant is 20051 and works again once enabled', async () => {
    const other = await createTestMerchant({ adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway });
    await admin(`/admin/merchants/${other.mchNo}`, {
      method: 'PATCH',
      body: JSON.stringify({ status: 'disabled' }),
    });
    expect((await other.request('/gateway/options/pay-methods')).envelope.code).toBe(20051);
    await admin(`/admin/merchants/${other.mchNo}`, {
      method: 'PATCH',
      body: JSON.stringify({ status: 'enabled' }),
    });
    expect((await other.request('/gateway/options/pay-methods')).envelope.code).toBe(0);
  });
});

describe('admin API', () => {
  it('refuses a missing or wrong token with 401', async () => {
    const missing = await fetch(`${stack.urls.admin}/admin/platform-key`);
    const wrong = await admin('/admin/platform-key', {}, 'not-the-token');
    expect(missing.status).toBe(401);
    expect(wrong.status).toBe(401);
  });

  it('refuses a malformed public key with 400 naming the problem', async () => {
    const response = await admin('/admin/merchants', {
      method: 'POST',
      body: JSON.stringify({ mchNo: 'BADKEY1', name: 'Bad key', publicKey: 'not a key' }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('publicKey');
  });

  it('refuses a duplicate merchant number with 409', async () => {
    const response = await admin('/admin/merchants', {
      method: 'POST',
      body: JSON.stringify({ mchNo: merchant.mchNo, name: 'Again', publicKey: merchant.publicKeyPem }),
    });
    expect(response.status).toBe(409);
  });

  it('rotates keys: a second key works at once, the revoked one stops working', async () => {
    const merchant = await createTestMerchant({ adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway });
    const next = generateKeyPair();
    // Adding a key needs four eyes: approved by the stack's approver, answered as it would be.
    const approved = async (response: Response) =>
      settleApproval(stack.urls.admin, { status: response.status, body: await response.json() });
    const added = await admin(`/admin/merchants/${merchant.mchNo}`, {
      method: 'PATCH',
      body: JSON.stringify({ addPublicKey: next.publicKeyPem }),
    });
    const view = (await approved(added)).body as unknown as { keys: { id: string; status: string }[] };
    expect(view.keys.filter((k) => k.status === 'active')).toHaveLength(2);
    const { createPrivateKey } = await import('node:crypto');
    const body: Record<string, unknown> = { mchNo: merchant.mchNo, reqTime: now(), nonceStr: nonce() };
    const withNext = { ...body, sign: signObject(body, createPrivateKey(next.privateKeyPem)) };
    expect((await merchant.send('/gateway/options/pay-methods', withNext)).envelope.code).toBe(0);

    const third = generateKeyPair();
    const tooMany = await admin(`/admin/merchants/${merchant.mchNo}`, {
      method: 'PATCH',
      body: JSON.stringify({ addPublicKey: third.publicKeyPem }),
    });
    expect((await approved(tooMany)).status).toBe(400);

    const oldKeyId = view.keys[0]!.id;
    await admin(`/admin/merchants/${merchant.mchNo}`, {
      method: 'PATCH',
      body: JSON.stringify({ revokeKeyIds: [oldKeyId] }),
    });
    expect((await merchant.request('/gateway/options/pay-methods')).envelope.code).toBe(20052);
  });
});

describe('metrics', () => {
  it('GET /metrics on the admin port counts merchant requests by route and envelope code', async () => {
    const text = await (await fetch(`${stack.urls.admin}/metrics`)).text();
    expect(text).toMatch(
      /http_server_requests_total\{[^}]*route="\/gateway\/options\/pay-methods"[^}]*code="0"[^}]*\} \d+/,
    );
    expect(text).toMatch(
      /http_server_requests_total\{[^}]*route="\/gateway\/options\/pay-methods"[^}]*code="20052"[^}]*\} \d+/,
    );
    expect(text).toContain('http_server_request_duration_seconds_bucket');
  });
});

describe('health', () => {
  it('GET /healthz is 200 when every service is ready', async () => {
    const response = await fetch(`${stack.urls.gateway}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'ok',
      checks: { database: true, payments: true, transfers: true, upstreamRouter: true, notifier: true },
    });
  });
});
