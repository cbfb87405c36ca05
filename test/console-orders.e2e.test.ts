import type { KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Stack } from '@agentpay/stack';
import {
  createTestMerchant,
  createTestPerson,
  type TestMerchant,
  type TestPerson,
  waitFor,
} from '@agentpay/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.js';
import { meetsTheBars, openPage } from './support/console.js';
import { startTestStack } from './support/stack.js';

// The orders and transfers pages of the console and the dashboard (CONTRACT section 18) in a real Chromium
// on a 390-px phone, each flow as the person who does it: a support operator finds a settled transfer by its
// claveRastreo, reads its timeline and resends its callback (the notifier makes a new attempt and the
// merchant's receiver gets it again); an auditor is offered neither sync nor resend and a forged call is
// refused; a merchant's person finds their paid order by claveRastreo and sees its callback attempts, and
// another merchant's order is not found; a merchant's viewer is offered no resend and is refused one. Every
// page meets the bars (docs/console.md "Quality bars").

const DEV = { authorization: 'Bearer dev-admin-token' };

interface Event {
  at: string;
  source: string;
  kind: string;
  deliveryId?: string;
  detail?: Record<string, unknown>;
}

let stack: Stack;
let browser: Browser;
let sink: Server;
let sinkUrl = '';
/** Callback bodies the merchant's receiver got, by path. */
const received = new Map<string, string[]>();
let shop: TestMerchant & { platformKey: KeyObject };
let otherShop: TestMerchant & { platformKey: KeyObject };
let support: TestPerson;
let auditor: TestPerson;
let shopPerson: TestPerson;
let shopViewer: TestPerson;
/** A paid order and a settled transfer of `shop`, with their claveRastreo; an unpaid order of `otherShop`. */
const paid = { orderNo: '', claveRastreo: '', path: '/order-paid' };
const settled = { transferNo: '', claveRastreo: '', path: '/transfer-settled' };
let foreignOrderNo = '';

async function admin<T>(path: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${stack.urls.admin}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...DEV, ...init.headers },
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
}

/** The attempts the notifier recorded for one delivery. */
async function attemptsOf(deliveryId: string): Promise<number> {
  const answer = await admin<{ attempts: unknown[] }>(`/admin/deliveries/${encodeURIComponent(deliveryId)}`);
  expect(answer.status).toBe(200);
  return answer.body.attempts.length;
}

const csrfOf = (page: Page, base: '/console/api' | '/dashboard/api') =>
  page.evaluate<string>(
    `JSON.parse(sessionStorage.getItem('agentpay.session:${base}') ?? '{}').csrfToken ?? ''`,
  );

/** A state-changing call made from inside the page, with the session's cookie and CSRF token. */
const forge = (page: Page, path: string, csrf: string) =>
  page.evaluate<number, { path: string; csrf: string }>(
    async ({ path, csrf }) =>
      (
        await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
          body: '{}',
          credentials: 'same-origin',
        })
      ).status,
    { path, csrf },
  );

beforeAll(async () => {
  sink = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.set(path, [...(received.get(path) ?? []), Buffer.concat(chunks).toString()]);
      res.end('SUCCESS');
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}`;
  browser = await launchChromium();
  stack = await startTestStack({
    env: { NOTIFY_RETRY_SCHEDULE: '300ms,300ms,1s', NOTIFY_TIMEOUT_MS: '3000' },
  });
  const urls = { adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway };
  [shop, otherShop] = await Promise.all([
    createTestMerchant(urls),
    createTestMerchant({ ...urls, fund: false }),
  ]);
  [support, auditor, shopPerson, shopViewer] = await Promise.all([
    createTestPerson({ adminUrl: stack.urls.admin, roles: ['support'] }),
    createTestPerson({ adminUrl: stack.urls.admin, roles: ['auditor'] }),
    createTestPerson({ ...urls, roles: ['admin'], mchNo: shop.mchNo }),
    createTestPerson({ ...urls, roles: ['viewer'], mchNo: shop.mchNo }),
  ]);

  // A pay order the payer pays through the sandbox: the merchant's receiver gets its callback.
  const pay = await shop.request('/gateway/pay', {
    bizOrderNo: `PAID-${Date.now()}`,
    title: 'Orden pagada',
    method: 'mex_virtual_account',
    amount: 1234.5,
    notifyUrl: `${sinkUrl}${paid.path}`,
  });
  expect(pay.envelope.code, JSON.stringify(pay.envelope)).toBe(0);
  const payData = pay.envelope.data as { orderNo: string; payBody: string };
  paid.orderNo = payData.orderNo;
  const { clabe } = JSON.parse(payData.payBody) as { clabe: string };
  const deposit = await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clabe, amount: 1234.5 }),
  });
  expect(deposit.ok).toBe(true);

  // A payout that settles, with its callback.
  const transfer = await shop.request('/gateway/transfer', {
    bizTransferNo: `PAYOUT-${Date.now()}`,
    amount: 150.25,
    title: 'Pago a proveedor',
    reason: 'commission',
    payeeType: 'spei_transfer',
    payeeAccount: '002010077777777771',
    payeeName: 'Ana Perez',
    notifyUrl: `${sinkUrl}${settled.path}`,
  });
  expect(transfer.envelope.code, JSON.stringify(transfer.envelope)).toBe(0);
  settled.transferNo = (transfer.envelope.data as { transferNo: string }).transferNo;

  // Another merchant's order, which shop's people must not see.
  const foreign = await otherShop.request('/gateway/pay', {
    bizOrderNo: `OTHER-${Date.now()}`,
    title: 'Otra tienda',
    method: 'mex_virtual_account',
    amount: 10,
  });
  expect(foreign.envelope.code).toBe(0);
  foreignOrderNo = (foreign.envelope.data as { orderNo: string }).orderNo;

  await waitFor(
    () => (received.get(paid.path)?.length && received.get(settled.path)?.length ? true : undefined),
    {
      timeoutMs: 30_000,
      message: 'the callbacks of the paid order and the settled transfer did not arrive',
    },
  );
  // The claveRastreo each got from the channel, as the admin API tells it, once its timeline has its callback.
  const order = await waitFor(
    async () => {
      const view = await admin<{ order: { claveRastreo: string; status: string }; timeline: Event[] }>(
        `/admin/orders/${paid.orderNo}`,
      );
      return view.body.order?.claveRastreo && view.body.timeline.some((e) => e.deliveryId)
        ? view.body
        : undefined;
    },
    { timeoutMs: 20_000, message: 'the paid order has no claveRastreo or callback in its timeline' },
  );
  expect(order.order.status).toBe('success');
  paid.claveRastreo = order.order.claveRastreo;
  const payout = await waitFor(
    async () => {
      const view = await admin<{ transfer: { claveRastreo: string; status: string }; timeline: Event[] }>(
        `/admin/transfers/${settled.transferNo}`,
      );
      return view.body.transfer?.claveRastreo && view.body.timeline.some((e) => e.deliveryId)
        ? view.body
        : undefined;
    },
    { timeoutMs: 20_000, message: 'the settled transfer has no claveRastreo or callback in its timeline' },
  );
  expect(payout.transfer.status).toBe('success');
  settled.claveRastreo = payout.transfer.claveRastreo;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await new Promise((resolve) => sink?.close(resolve));
});

describe('orders and transfers in the console', { timeout: 120_000 }, () => {
  it('a support operator finds a transfer by its claveRastreo, reads its timeline and resends its callback', async () => {
    const opened = await openPage(browser, `${stack.urls.admin}/console/transfers`, {
      as: { person: support },
    });
    const { page } = opened;
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Transferencias');
    await page.getByLabel('Número, clave de rastreo o CLABE').fill(settled.claveRastreo);
    await page.getByRole('button', { name: 'Buscar' }).click();
    const results = page.getByRole('region', { name: 'Transferencias encontradas' });
    const link = results.getByRole('link', { name: settled.transferNo });
    await link.waitFor();
    // The exact claveRastreo finds that transfer and nothing else.
    await expect(results.getByRole('row').count()).resolves.toBe(2);
    expect(new URL(page.url()).searchParams.get('q')).toBe(settled.claveRastreo);
    await meetsTheBars(opened, 'console-transfers');

    await link.click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      `Transferencia ${settled.transferNo}`,
    );
    const timeline = page.getByRole('list', { name: 'Historia' });
    await timeline.waitFor();
    const items = await timeline.getByRole('listitem').allTextContents();
    expect(items.some((text) => text.includes('El estado cambió') && text.includes('Exitosa'))).toBe(true);
    expect(items.some((text) => /Intento 1 de notificación al comercio: HTTP 200/.test(text))).toBe(true);
    await page.getByText(settled.claveRastreo).first().waitFor();
    await meetsTheBars(opened, 'console-transfer');

    const view = await admin<{ timeline: Event[] }>(`/admin/transfers/${settled.transferNo}`);
    const deliveryId = view.body.timeline.find((e) => e.source === 'callback' && e.deliveryId)?.deliveryId;
    expect(deliveryId).toBeDefined();
    const before = await attemptsOf(deliveryId!);
    const receivedBefore = received.get(settled.path)?.length ?? 0;
    const attemptItems = timeline.getByRole('listitem').filter({ hasText: /Intento \d+ de notificación/ });
    const shownBefore = await attemptItems.count();
    await page
      .getByRole('button', { name: /^Reenviar notificación/ })
      .first()
      .click();
    await page.getByRole('status').filter({ hasText: 'Se reenvió la notificación' }).waitFor();
    await waitFor(async () => ((await attemptsOf(deliveryId!)) > before ? true : undefined), {
      timeoutMs: 15_000,
      message: 'the resend made no new attempt',
    });
    await waitFor(() => ((received.get(settled.path)?.length ?? 0) > receivedBefore ? true : undefined), {
      timeoutMs: 15_000,
      message: "the merchant's receiver did not get the callback again",
    });
    // The new attempt shows in the timeline after a refresh.
    await page.getByRole('button', { name: 'Actualizar' }).click();
    await waitFor(async () => ((await attemptItems.count()) > shownBefore ? true : undefined), {
      timeoutMs: 10_000,
      message: 'the new attempt is not in the timeline',
    });
    await opened.context.close();
  });

  it('a support operator opens a paid order from its claveRastreo: facts, timeline, and the actions the role allows', async () => {
    const opened = await openPage(browser, `${stack.urls.admin}/console/orders`, { as: { person: support } });
    const { page } = opened;
    await page.getByLabel('Número, clave de rastreo o CLABE').fill(paid.claveRastreo);
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page
      .getByRole('region', { name: 'Órdenes encontradas' })
      .getByRole('link', { name: paid.orderNo })
      .waitFor();
    await meetsTheBars(opened, 'console-orders');
    // The filters reach the server: another status, or another merchant, finds nothing; today's days do.
    const search = async () => {
      const [answer] = await Promise.all([
        page.waitForResponse((r) => {
          const url = new URL(r.url());
          return url.pathname === '/admin/orders' && url.searchParams.has('q');
        }),
        page.getByRole('button', { name: 'Buscar' }).click(),
      ]);
      expect(answer.status()).toBe(200);
      return {
        sent: new URL(answer.url()).searchParams,
        items: ((await answer.json()) as { items: [] }).items,
      };
    };
    await page.getByLabel('Estado').selectOption('fail');
    let found = await search();
    expect(found.sent.get('status')).toBe('fail');
    expect(found.items).toEqual([]);
    await page.getByText('Nada que mostrar.').waitFor();
    await page.getByLabel('Estado').selectOption('success');
    await page.getByLabel('Comercio').fill(otherShop.mchNo);
    found = await search();
    expect(found.sent.get('mchNo')).toBe(otherShop.mchNo);
    expect(found.items).toEqual([]);
    await page.getByText('Nada que mostrar.').waitFor();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());
    await page.getByLabel('Comercio').fill(shop.mchNo);
    await page.getByLabel('Desde').fill(today);
    await page.getByLabel('Hasta').fill(today);
    found = await search();
    // A day in Mexico City (UTC−6) is sent as the instants that bound it.
    expect(found.sent.get('from')).toBe(new Date(`${today}T00:00:00-06:00`).toISOString());
    expect(found.sent.get('to')).toBe(new Date(`${today}T23:59:59.999-06:00`).toISOString());
    expect(found.sent.get('status')).toBe('success');
    expect(found.items).toHaveLength(1);
    await page
      .getByRole('region', { name: 'Órdenes encontradas' })
      .getByRole('link', { name: paid.orderNo })
      .waitFor();
    // The search is the page's address: a reload or a shared link shows the same.
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
      q: paid.claveRastreo,
      mchNo: shop.mchNo,
      status: 'success',
      from: today,
      to: today,
    });
    await page.getByRole('link', { name: paid.orderNo }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      `Orden ${paid.orderNo}`,
    );
    await page.getByText('$1,234.50').first().waitFor();
    await page
      .getByRole('button', { name: /^Reenviar notificación/ })
      .first()
      .waitFor();
    // The permission table (services/gateway/README.md "Who may call what") lets support sync and resend.
    await expect(page.getByRole('button', { name: 'Sincronizar con el canal' }).count()).resolves.toBe(1);
    await meetsTheBars(opened, 'console-order');
    await opened.context.close();
  });

  it('an auditor reads an order but is offered neither sync nor resend, and a forged resend or sync is refused with 403', async () => {
    const opened = await openPage(browser, `${stack.urls.admin}/console/orders/${paid.orderNo}`, {
      as: { person: auditor },
    });
    const { page } = opened;
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      `Orden ${paid.orderNo}`,
    );
    await page
      .getByText(/Intento 1 de notificación al comercio/)
      .first()
      .waitFor();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('button', { name: /Reenviar/ }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: /Sincronizar/ }).count()).resolves.toBe(0);

    const view = await admin<{ timeline: Event[] }>(`/admin/orders/${paid.orderNo}`);
    const deliveryId = view.body.timeline.find((e) => e.deliveryId)?.deliveryId ?? '';
    const before = await attemptsOf(deliveryId);
    const csrf = await csrfOf(page, '/console/api');
    expect(csrf).not.toBe('');
    expect(await forge(page, `/admin/deliveries/${deliveryId}/resend`, csrf)).toBe(403);
    expect(await forge(page, `/admin/orders/${paid.orderNo}/sync`, csrf)).toBe(403);
    // Refused means nothing happened: no new attempt after the retry schedule would have made one.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await attemptsOf(deliveryId)).toBe(before);
    await opened.context.close();
  });

  it('the order page in English meets the bars', async () => {
    const opened = await openPage(browser, `${stack.urls.admin}/console/orders/${paid.orderNo}`, {
      as: { person: support },
    });
    const { page } = opened;
    await page.getByLabel('Idioma').selectOption('en');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      `Order ${paid.orderNo}`,
    );
    await page.getByRole('heading', { name: 'History' }).waitFor();
    await page
      .getByText(/Callback attempt 1 to the merchant: HTTP 200/)
      .first()
      .waitFor();
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
    await meetsTheBars(opened, 'console-order-en');
    await opened.context.close();
  });
});

describe("orders and transfers in the merchant's dashboard", { timeout: 120_000 }, () => {
  it("a merchant's person finds their order by claveRastreo, sees the claveRastreo to copy and the callback attempts", async () => {
    const opened = await openPage(browser, `${stack.urls.gateway}/dashboard/orders`, {
      as: { person: shopPerson },
    });
    const { page } = opened;
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Mis órdenes de pago');
    // No merchant filter: the server decides whose orders these are.
    await expect(page.getByLabel('Comercio').count()).resolves.toBe(0);
    await page.getByLabel('Número, clave de rastreo o CLABE').fill(paid.claveRastreo);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => {
        const url = new URL(r.url());
        return url.pathname === '/dashboard/api/orders' && url.searchParams.has('q');
      }),
      page.getByRole('button', { name: 'Buscar' }).click(),
    ]);
    expect(answer.status()).toBe(200);
    expect(new URL(answer.url()).searchParams.get('q')).toBe(paid.claveRastreo);
    expect(new URL(answer.url()).searchParams.has('mchNo')).toBe(false);
    const link = page
      .getByRole('region', { name: 'Órdenes encontradas' })
      .getByRole('link', { name: paid.orderNo });
    await link.waitFor();
    await meetsTheBars(opened, 'dashboard-orders');

    await link.click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      `Orden ${paid.orderNo}`,
    );
    // The claveRastreo stands first, on its own, with a button that copies it.
    const rastreo = page.getByRole('region', { name: 'Clave de rastreo' });
    await rastreo.getByText(paid.claveRastreo, { exact: true }).waitFor();
    await rastreo.getByRole('button', { name: 'Copiar Clave de rastreo' }).waitFor();
    const attempts = page.getByRole('region', { name: 'Intentos de notificación' });
    const first = attempts.getByRole('row').nth(1);
    await first.waitFor();
    const cells = await first.getByRole('cell').allTextContents();
    expect(cells[1]).toBe('1');
    expect(cells[2]).toBe('200');
    expect(cells[3]).toBe('aceptada');
    // A merchant's admin may resend its own callbacks: offered on the callback's last attempt.
    await first.getByRole('button', { name: /^Reenviar/ }).waitFor();
    // The channel stays the platform's: nothing of the route reaches the merchant's page.
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).not.toMatch(/sandbox|route|ruta/i);
    await meetsTheBars(opened, 'dashboard-order');

    // Another merchant's order number opens as not found, not as forbidden.
    await page.goto(`${stack.urls.gateway}/dashboard/orders/${foreignOrderNo}`);
    await page.getByRole('alert').filter({ hasText: 'No existe.' }).waitFor();
    // Nothing of it is shown: only the heading repeats the number that was asked for.
    await expect(page.getByRole('main').getByText(foreignOrderNo).count()).resolves.toBe(1);
    await expect(page.getByRole('heading', { name: 'Datos' }).count()).resolves.toBe(0);
    await opened.context.close();
  });

  it("a merchant's viewer sees the callback attempts but no resend, and a forged resend is refused with 403", async () => {
    const opened = await openPage(browser, `${stack.urls.gateway}/dashboard/orders/${paid.orderNo}`, {
      as: { person: shopViewer },
    });
    const { page } = opened;
    const attempts = page.getByRole('region', { name: 'Intentos de notificación' });
    await attempts.getByRole('row').nth(1).waitFor();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('button', { name: /Reenviar/ }).count()).resolves.toBe(0);
    await expect(attempts.getByRole('columnheader', { name: 'Acción' }).count()).resolves.toBe(0);

    const view = await admin<{ timeline: Event[] }>(`/admin/orders/${paid.orderNo}`);
    const deliveryId = view.body.timeline.find((e) => e.deliveryId)?.deliveryId ?? '';
    const before = await attemptsOf(deliveryId);
    const csrf = await csrfOf(page, '/dashboard/api');
    expect(csrf).not.toBe('');
    expect(await forge(page, `/dashboard/api/deliveries/${deliveryId}/resend`, csrf)).toBe(403);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await attemptsOf(deliveryId)).toBe(before);
    await opened.context.close();
  });

  it("the dashboard's transfers and a transfer's page meet the bars", async () => {
    const opened = await openPage(browser, `${stack.urls.gateway}/dashboard/transfers`, {
      as: { person: shopPerson },
    });
    const { page } = opened;
    await page.getByRole('link', { name: settled.transferNo }).waitFor();
    await meetsTheBars(opened, 'dashboard-transfers');
    await page.getByRole('link', { name: settled.transferNo }).click();
    const rastreo = page.getByRole('region', { name: 'Clave de rastreo' });
    await rastreo.getByText(settled.claveRastreo, { exact: true }).waitFor();
    await page.getByRole('region', { name: 'Intentos de notificación' }).waitFor();
    await meetsTheBars(opened, 'dashboard-transfer');
    await opened.context.close();
  });
});
