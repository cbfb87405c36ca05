import { randomBytes } from 'node:crypto';
import type { Stack } from '@agentpay/stack';
import { merchantClient, type TestMerchant } from '@agentpay/testing';
import { generateKeyPair, parsePublicKey } from '@agentpay/wire';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeProblems, horizontalOverflow, launchChromium } from './support/browser.js';
import { startTestStack } from './support/stack.js';

// The pages the platform served before the console (the API docs at /docs and the payer's cashier page)
// meet the console's bars (docs/console.md "Quality bars"): no serious or critical axe-core finding and no
// sideways scroll on a 390-px phone, in a real Chromium.

const PHONE = { width: 390, height: 844 };
const ADMIN = { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' };

let stack: Stack;
let browser: Browser | Error;
let merchant: TestMerchant;

beforeAll(async () => {
  browser = await launchChromium().catch((err: Error) => err);
  stack = await startTestStack();
  const keys = generateKeyPair();
  const mchNo = `WEB${randomBytes(5).toString('hex')}`;
  const created = await fetch(`${stack.urls.admin}/admin/merchants`, {
    method: 'POST',
    headers: ADMIN,
    body: JSON.stringify({ mchNo, name: 'Papelería Centro', publicKey: keys.publicKeyPem }),
  });
  expect(created.status).toBe(201);
  const platform = (await (
    await fetch(`${stack.urls.admin}/admin/platform-key`, { headers: ADMIN })
  ).json()) as {
    publicKey: string;
  };
  merchant = merchantClient({
    gatewayUrl: stack.urls.gateway,
    mchNo,
    privateKeyPem: keys.privateKeyPem,
    platformKey: parsePublicKey(platform.publicKey),
  });
});

afterAll(async () => {
  if (browser && !(browser instanceof Error)) await browser.close();
  await stack?.stop();
});

async function onAPhone(url: string) {
  if (browser instanceof Error) throw browser;
  const context = await browser.newContext({ viewport: PHONE, locale: 'es-MX' });
  const page = await context.newPage();
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  await page.waitForLoadState('networkidle');
  const result = { axe: await axeProblems(page), overflow: await horizontalOverflow(page) };
  await context.close();
  return result;
}

describe('the pages served before the console, on a 390-px phone', { timeout: 120_000 }, () => {
  it('/docs has no serious or critical axe-core finding and does not scroll sideways', async () => {
    expect(await onAPhone(`${stack.urls.gateway}/docs`)).toEqual({ axe: [], overflow: 0 });
  });

  it('the cashier page has no serious or critical axe-core finding and does not scroll sideways', async () => {
    const reply = await merchant.request('/gateway/pay', {
      bizOrderNo: `WEB-${randomBytes(5).toString('hex')}`,
      title: 'Cuaderno profesional',
      method: 'mex_virtual_account',
      amount: 89.5,
    });
    expect(reply.envelope.code, reply.envelope.msg).toBe(0);
    const { payBody } = reply.envelope.data as { payBody: string };
    const { cashierUrl } = JSON.parse(payBody) as { cashierUrl: string };
    expect(await onAPhone(cashierUrl)).toEqual({ axe: [], overflow: 0 });
  });
});
