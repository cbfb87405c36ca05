import type { Stack } from '@agentpay/stack';
import { createTestMerchant, type TestMerchant } from '@agentpay/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// Issue 9, security: no secret or full key in any log line. Every line every service writes is kept
// while the test drives the stack at debug level, then searched for the secrets it handled.

const lines: string[] = [];
let stack: Stack;
let merchant: TestMerchant;
const ADMIN_TOKEN = 'a-very-secret-admin-token-1234567890';
const signatures: string[] = [];

beforeAll(async () => {
  stack = await startTestStack({
    env: { LOG_LEVEL: 'debug', ADMIN_TOKEN },
    onLog: (service, line) => lines.push(`${service}: ${line}`),
  });
  merchant = await createTestMerchant({
    adminUrl: stack.urls.admin,
    gatewayUrl: stack.urls.gateway,
    adminToken: ADMIN_TOKEN,
  });
  for (const path of [
    '/gateway/options/pay-methods',
    '/gateway/pay',
    '/gateway/transfer',
    '/gateway/query/payOrder',
  ]) {
    const body = merchant.signed({ bizOrderNo: 'B1', title: 't', method: 'mex_virtual_account', amount: 1 });
    signatures.push(String(body['sign']));
    await merchant.send(path, body);
    await merchant.send(path, { ...body, sign: `${String(body['sign']).slice(0, -4)}AAA=` });
  }
  await fetch(`${stack.urls.admin}/admin/platform-key`, { headers: { authorization: 'Bearer wrong-token' } });
});

afterAll(async () => {
  await stack?.stop();
});

describe('logs', () => {
  it('were written (the test reads real output)', () => {
    expect(lines.length).toBeGreaterThan(10);
  });

  it('never contain a private key, a full public key, the admin token or a request signature', () => {
    const merchantKeyBody = merchant.publicKeyPem.split('\n').slice(1, -2).join('');
    for (const line of lines) {
      expect(line).not.toContain('PRIVATE KEY');
      expect(line).not.toContain('BEGIN PUBLIC KEY');
      expect(line).not.toContain(merchantKeyBody.slice(0, 40));
      expect(line).not.toContain(ADMIN_TOKEN);
      for (const sign of signatures) expect(line).not.toContain(sign.slice(0, 40));
    }
  });
});
