import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Stack } from '@agentpay/stack';
import { merchantClient, now, type TestMerchant, waitFor } from '@agentpay/testing';
import { generateKeyPair, parsePublicKey } from '@agentpay/wire';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeProblems, launchChromium } from './support/browser.js';
import { startTestStack } from './support/stack.js';

// The payer's hosted page (docs/merchant-api.md "Hosted payment page") in a real Chromium: real orders from
// the whole stack, paid through the sandbox, at phone and desktop sizes, in Spanish and English, checked by
// axe-core. `CASHIER_SCREENSHOTS=1` also copies the screenshots into docs/cashier/.

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 860 };
const RATE_LIMIT_PER_MIN = 200;
const SHOTS = mkdtempSync(join(tmpdir(), 'agentpay-cashier-'));
const DOCS_SHOTS = new URL('../docs/cashier/', import.meta.url).pathname;
// What the sandbox channel calls itself (its beneficiary label, its route's name): never shown to a payer.
const CHANNEL_WORDS = /sandbox|upstream|route/i;

let stack: Stack;
let merchant: TestMerchant;
/** The browser, or why none could be had: each test that needs one then fails with that reason. */
let browser: Browser | Error;
let shop: Server;
let shopUrl: string;
const MERCHANT_NAME = 'Tienda La Esquina';

const bizNo = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

interface PayBody {
  clabe: string;
  bankName: string;
  amount: number;
  reference: string;
  beneficiaryName: string;
  cashierUrl: string;
}

async function createOrder(params: Record<string, unknown> = {}) {
  const bizOrderNo = bizNo('CASHIER');
  const all: Record<string, unknown> = {
    bizOrderNo,
    title: 'Pedido 1042 · 2 cafés de olla',
    method: 'mex_virtual_account',
    amount: 1234.5,
    returnUrl: `${shopUrl}/return?shop=esquina`,
    quitUrl: `${shopUrl}/quit`,
    ...params,
  };
  const reply = await merchant.request(
    '/gateway/pay',
    Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)),
  );
  expect(reply.envelope.code, reply.envelope.msg).toBe(0);
  const data = reply.envelope.data as { orderNo: string; payBody: string };
  return { bizOrderNo, orderNo: data.orderNo, payBody: JSON.parse(data.payBody) as PayBody };
}

async function deposit(body: PayBody) {
  const reply = await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clabe: body.clabe, amount: body.amount }),
  });
  expect(reply.status).toBe(201);
}

interface Opened {
  context: BrowserContext;
  page: Page;
  /** Content-Security-Policy violations the page reported. */
  violations(): Promise<string[]>;
}

async function open(
  url: string,
  opts: { viewport: { width: number; height: number }; locale?: string; dark?: boolean },
): Promise<Opened> {
  if (browser instanceof Error) throw browser;
  const context = await browser.newContext({
    viewport: opts.viewport,
    locale: opts.locale ?? 'es-MX',
    colorScheme: opts.dark ? 'dark' : 'light',
    ...(opts.locale ? { extraHTTPHeaders: { 'accept-language': `${opts.locale},en;q=0.8` } } : {}),
  });
  // Runs before the page's own script; the page's CSP does not apply to what the test injects.
  await context.addInitScript(`
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
  `);
  const page = await context.newPage();
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  return {
    context,
    page,
    violations: () => page.evaluate<string[]>('window.cspViolations'),
  };
}

async function screenshot(page: Page, name: string) {
  const file = join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  if (process.env['CASHIER_SCREENSHOTS']) {
    mkdirSync(DOCS_SHOTS, { recursive: true });
    copyFileSync(file, join(DOCS_SHOTS, `${name}.png`));
  }
}

// What a person sees: hidden panels and the page's data block left out.
const text = (page: Page) => page.evaluate<string>('document.body.innerText');

beforeAll(async () => {
  browser = await launchChromium().catch((err: Error) => err);
  stack = await startTestStack({
    env: { EXPIRY_SWEEP_INTERVAL_MS: '1000' },
    serviceEnv: { gateway: { CASHIER_RATE_LIMIT_PER_MIN: String(RATE_LIMIT_PER_MIN) } },
  });
  const keys = generateKeyPair();
  const mchNo = `M${randomBytes(6).toString('hex')}`;
  const admin = { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' };
  const created = await fetch(`${stack.urls.admin}/admin/merchants`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ mchNo, name: MERCHANT_NAME, publicKey: keys.publicKeyPem }),
  });
  expect(created.status).toBe(201);
  const platform = (await (
    await fetch(`${stack.urls.admin}/admin/platform-key`, { headers: admin })
  ).json()) as {
    publicKey: string;
  };
  merchant = merchantClient({
    gatewayUrl: stack.urls.gateway,
    mchNo,
    privateKeyPem: keys.privateKeyPem,
    platformKey: parsePublicKey(platform.publicKey),
  });
  // The merchant's shop: where the page sends the payer back.
  shop = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Shop</title><h1>Back at the shop</h1><p>${req.url}</p>`);
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (browser && !(browser instanceof Error)) await browser.close();
  if (shop) await new Promise((resolve) => shop.close(resolve));
  await stack?.stop();
  rmSync(SHOTS, { recursive: true, force: true });
});

describe('the hosted payment page', { timeout: 120_000 }, () => {
  it('create-pay answers a cashierUrl on the public address, and payBody names the merchant, not the channel', async () => {
    const { orderNo, payBody } = await createOrder();
    expect(payBody.cashierUrl).toMatch(
      new RegExp(`^${stack.urls.gateway}/cashier/${orderNo}\\?t=[A-Za-z0-9_-]{43}$`),
    );
    expect(payBody.beneficiaryName).toBe(MERCHANT_NAME);
    expect(JSON.stringify(payBody)).not.toMatch(CHANNEL_WORDS);
  });

  it('on a phone, in Spanish: every field a payer needs, copy buttons, nothing of the channel; paid through the sandbox it turns to paid without a reload and returns to the shop', async () => {
    const order = await createOrder();
    const { page, context, violations } = await open(order.payBody.cashierUrl, { viewport: PHONE });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.urls.gateway });

    expect(await page.getAttribute('html', 'lang')).toBe('es-MX');
    const shown = await text(page);
    expect(shown).toContain('Paga con una transferencia SPEI');
    expect(shown).toContain(MERCHANT_NAME);
    expect(shown).toContain('Pedido 1042 · 2 cafés de olla');
    expect(shown).toContain('$1,234.50 MXN');
    const clabe = order.payBody.clabe;
    expect(await page.locator('#f-clabe').textContent()).toBe(
      `${clabe.slice(0, 3)} ${clabe.slice(3, 6)} ${clabe.slice(6, 10)} ${clabe.slice(10, 14)} ${clabe.slice(14)}`,
    );
    expect(order.payBody.bankName).not.toBe('');
    expect(await page.locator('#f-bank').textContent()).toBe(order.payBody.bankName);
    expect(await page.locator('#f-reference').textContent()).toBe(order.payBody.reference);
    expect(await page.locator('#f-countdown').textContent()).toMatch(/^(23:59:\d\d|1 d 00:00:00)$/);
    expect(await page.locator('#quit-link').getAttribute('href')).toBe(
      `${shopUrl}/quit?orderNo=${order.orderNo}&bizOrderNo=${order.bizOrderNo}&status=wait`,
    );
    expect(shown).not.toMatch(CHANNEL_WORDS);
    expect(await page.content()).not.toMatch(CHANNEL_WORDS);
    // Readable at 360 px: nothing wider than the screen.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
      PHONE.width,
    );

    // The countdown runs in the page.
    const before = await page.locator('#f-countdown').textContent();
    await waitFor(async () => (await page.locator('#f-countdown').textContent()) !== before, {
      timeoutMs: 5_000,
    });

    expect(await axeProblems(page)).toEqual([]);
    await screenshot(page, 'phone-es');

    // Copy buttons, reached by keyboard and pressed with Enter.
    const copyClabe = page.getByRole('button', { name: 'Copiar la CLABE' });
    await copyClabe.focus();
    await page.keyboard.press('Enter');
    await waitFor(async () => (await page.locator('#copy-status').textContent()) === 'Copiado');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(clabe);
    await page.getByRole('button', { name: 'Copiar el monto' }).click();
    await waitFor(async () => (await page.evaluate<string>('navigator.clipboard.readText()')) === '1234.50');

    expect(await axeProblems(page)).toEqual([]);

    // The page is the same document from here on: a full reload would drop this mark.
    await page.evaluate('window.stillHere = true');
    await deposit(order.payBody);
    await page.waitForSelector('body[data-status="success"]', { timeout: 45_000 });
    expect(await page.evaluate<boolean>('window.stillHere === true')).toBe(true);
    expect(await page.locator('h1').textContent()).toBe('¡Pago recibido!');
    expect(await page.locator('#live').textContent()).toBe('¡Pago recibido!');
    expect(await page.locator('#open-panel').isHidden()).toBe(true);
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('heading');
    const returned = `${shopUrl}/return?shop=esquina&orderNo=${order.orderNo}&bizOrderNo=${order.bizOrderNo}&status=success`;
    expect(await page.locator('#return-link').getAttribute('href')).toBe(returned);
    expect(await page.locator('#quit-link').isHidden()).toBe(true);
    expect(await axeProblems(page)).toEqual([]);
    await screenshot(page, 'phone-es-paid');

    await page.waitForURL(returned, { timeout: 15_000 });
    expect(await page.locator('h1').textContent()).toBe('Back at the shop');
    expect(await violations()).toEqual([]);
    await context.close();
  });

  it('on a desktop, in English by Accept-Language and by ?lang=en, in light and dark: the same fields, no accessibility problem', async () => {
    const order = await createOrder();
    const english = await open(order.payBody.cashierUrl, { viewport: DESKTOP, locale: 'en-US' });
    expect(await english.page.getAttribute('html', 'lang')).toBe('en');
    const shown = await text(english.page);
    for (const expected of [
      'Pay with a SPEI transfer',
      MERCHANT_NAME,
      '$1,234.50 MXN',
      'Exact amount',
      'Time left',
    ]) {
      expect(shown).toContain(expected);
    }
    expect(shown).not.toMatch(CHANNEL_WORDS);
    expect(await axeProblems(english.page)).toEqual([]);
    await screenshot(english.page, 'desktop-en');
    expect(await english.violations()).toEqual([]);
    await english.context.close();

    const byQuery = await open(`${order.payBody.cashierUrl}&lang=en`, { viewport: PHONE, dark: true });
    expect(await byQuery.page.getAttribute('html', 'lang')).toBe('en');
    expect(await axeProblems(byQuery.page)).toEqual([]);
    await screenshot(byQuery.page, 'phone-en-dark');
    // The language link goes back to Spanish with the same token.
    await byQuery.page.getByRole('link', { name: 'Ver esta página en español' }).click();
    await byQuery.page.waitForSelector('html[lang="es-MX"]');
    await byQuery.context.close();

    const spanish = await open(order.payBody.cashierUrl, { viewport: DESKTOP });
    expect(await text(spanish.page)).toContain('Paga con una transferencia SPEI');
    expect(await axeProblems(spanish.page)).toEqual([]);
    await screenshot(spanish.page, 'desktop-es');
    await spanish.context.close();
  });

  it('an order that times out says the payment is no longer possible, and its quit link carries the status', async () => {
    const order = await createOrder({ expiredTime: now(6_000) });
    const { page, context, violations } = await open(order.payBody.cashierUrl, { viewport: PHONE });
    expect(await page.locator('body').getAttribute('data-status')).toBe('wait');
    await page.waitForSelector('body[data-status="timeout"]', { timeout: 60_000 });
    expect(await page.locator('h1').textContent()).toBe('Este pago ya no es posible');
    expect(await page.locator('#ended-reason').textContent()).toBe(
      'El plazo para pagar terminó. No envíes dinero a esta CLABE.',
    );
    expect(await page.locator('#open-panel').isHidden()).toBe(true);
    expect(await axeProblems(page)).toEqual([]);
    await screenshot(page, 'phone-es-timeout');
    await page.getByRole('link', { name: 'Volver a la tienda' }).click();
    await page.waitForURL(
      `${shopUrl}/quit?orderNo=${order.orderNo}&bizOrderNo=${order.bizOrderNo}&status=timeout`,
    );
    expect(await violations()).toEqual([]);
    await context.close();
  });

  it('an order the merchant closes turns to closed on the open page', async () => {
    const order = await createOrder();
    const { page, context } = await open(`${order.payBody.cashierUrl}&lang=en`, { viewport: DESKTOP });
    const closed = await merchant.request('/gateway/close', { orderNo: order.orderNo });
    expect(closed.envelope.code).toBe(0);
    await page.waitForSelector('body[data-status="close"]', { timeout: 45_000 });
    expect(await page.locator('h1').textContent()).toBe('This payment is no longer possible');
    expect(await page.locator('#ended-reason').textContent()).toBe(
      'The shop closed this order. Do not send money to this CLABE.',
    );
    expect(await page.locator('#quit-link').getAttribute('href')).toBe(
      `${shopUrl}/quit?orderNo=${order.orderNo}&bizOrderNo=${order.bizOrderNo}&status=close`,
    );
    await context.close();
  });

  it('a paid order opened later shows paid and returns to the shop; without returnUrl or quitUrl it links nowhere', async () => {
    const order = await createOrder({ returnUrl: undefined, quitUrl: undefined });
    await deposit(order.payBody);
    const statusUrl = order.payBody.cashierUrl.replace('?t=', '/status?t=');
    await waitFor(
      async () => ((await (await fetch(statusUrl)).json()) as { status: string }).status === 'success',
      {
        timeoutMs: 30_000,
        intervalMs: 250,
      },
    );
    const { page, context } = await open(order.payBody.cashierUrl, { viewport: PHONE });
    expect(await page.locator('h1').textContent()).toBe('¡Pago recibido!');
    expect(await page.locator('#return-link').isHidden()).toBe(true);
    expect(await page.locator('#quit-link').isHidden()).toBe(true);
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    await context.close();
  });
});

describe('what the page refuses', () => {
  it('a wrong, missing or other order’s token answers the same 404 as an unknown order, on the page and its status', async () => {
    const order = await createOrder();
    const other = await createOrder();
    const url = new URL(order.payBody.cashierUrl);
    const token = url.searchParams.get('t')!;
    const otherToken = new URL(other.payBody.cashierUrl).searchParams.get('t')!;
    const base = `${stack.urls.gateway}/cashier/${order.orderNo}`;
    const withoutNonce = (html: string) => html.replace(/nonce="[^"]+"/g, '');

    const unknown = `${stack.urls.gateway}/cashier/P00000000000000000000000000`;
    const wrongLast = token.endsWith('A') ? 'B' : 'A';
    const refusals = [
      [base, `?t=${token.slice(0, -1)}${wrongLast}`],
      [base, '?t='],
      [base, ''],
      [base, `?t=${otherToken}`],
      [base, `?t=${token}${token}`],
      [unknown, `?t=${token}`],
    ];
    const bodies = new Set<string>();
    for (const [path, query] of refusals) {
      const page = await fetch(`${path}${query}`);
      expect(page.status, `${path}${query}`).toBe(404);
      expect(page.headers.get('content-type')).toContain('text/html');
      bodies.add(withoutNonce(await page.text()));
      const status = await fetch(`${path}/status${query}`);
      expect(status.status, `${path}/status${query}`).toBe(404);
    }
    expect(bodies.size).toBe(1);
    expect([...bodies][0]).not.toContain(order.orderNo);
    expect((await fetch(`${base}/status?t=${token}`)).status).toBe(200);
  });

  it('serves the page with a strict CSP (a nonce, no unsafe-inline, nothing from elsewhere) and no referrer', async () => {
    const order = await createOrder();
    const page = await fetch(order.payBody.cashierUrl);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]{16,}'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toMatch(/https?:/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?https?:/i);
    expect(html).not.toMatch(/ style=/);
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    for (const tag of html.match(/<(script|style)\b[^>]*>/g) ?? []) expect(tag).toContain(`nonce="${nonce}"`);
    const again = await fetch(order.payBody.cashierUrl);
    expect(again.headers.get('content-security-policy')).not.toBe(csp);
  });

  it('limits page and status requests per client address', async () => {
    const order = await createOrder();
    const path = new URL(order.payBody.cashierUrl);
    // Another loopback address than the browser's, so the limit reached here leaves the other tests alone.
    const get = (localAddress: string, target: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port: Number(path.port), path: target, localAddress },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end();
      });
    const statusPath = `${path.pathname}/status${path.search}`;
    let limitedAfter = 0;
    // Fixed one-minute windows: a window boundary during the burst delays the refusal by at most one window.
    for (let i = 1; i <= 2 * RATE_LIMIT_PER_MIN + 2; i++) {
      const status = await get('127.0.0.7', i % 2 ? statusPath : `${path.pathname}${path.search}`);
      if (status === 429) {
        limitedAfter = i;
        break;
      }
      expect(status).toBe(200);
    }
    expect(limitedAfter).toBeGreaterThan(RATE_LIMIT_PER_MIN);
    expect(await get('127.0.0.8', statusPath)).toBe(200);
  });
});
