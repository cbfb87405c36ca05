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

// The console's home page and callbacks page (CONTRACT section 18) in a real Chromium on a 390-px phone, as
// the people who use them: after real pay-ins and a payout through the sandbox, the home page shows today's
// figures per route as they happened; a merchant whose callback URL fails shows on the callbacks page as a
// failing endpoint, and a support operator opens its delivery, reads the attempts with the signed request and
// the merchant's answer, and resends it (the merchant's receiver gets it again); an auditor is offered no
// resend and a forged one is refused; a card whose service is down says so while the others still show.

const DEV = { authorization: 'Bearer dev-admin-token' };

interface Flow {
  count: number;
  amount: number;
  succeeded: number;
  succeededAmount: number;
  failed: number;
  pending: number;
  successRate: number | null;
}
interface Figures {
  day: string;
  routes: { routeId: string; name: string; payIns: Flow; payouts: Flow }[];
}

let stack: Stack;
let browser: Browser;
let sink: Server;
let sinkUrl = '';
/** Callback bodies the merchants' receivers got, by path. */
const received = new Map<string, string[]>();
let shop: TestMerchant & { platformKey: KeyObject };
let broken: TestMerchant & { platformKey: KeyObject };
let support: TestPerson;
let auditor: TestPerson;
/** The paid order of `broken`, whose callbacks its receiver refuses. */
let brokenOrderNo = '';

async function admin<T>(path: string) {
  const response = await fetch(`${stack.urls.admin}${path}`, { headers: DEV });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
}

async function payIn(merchant: TestMerchant, amount: number, notifyPath: string, pay: boolean) {
  const created = await merchant.request('/gateway/pay', {
    bizOrderNo: `HOME-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
    title: 'Orden de prueba',
    method: 'mex_virtual_account',
    amount,
    notifyUrl: `${sinkUrl}${notifyPath}`,
  });
  expect(created.envelope.code, JSON.stringify(created.envelope)).toBe(0);
  const data = created.envelope.data as { orderNo: string; payBody: string };
  if (pay) {
    const { clabe } = JSON.parse(data.payBody) as { clabe: string };
    const deposit = await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clabe, amount }),
    });
    expect(deposit.ok).toBe(true);
  }
  return data.orderNo;
}

/** The sum of one direction over every route: what the home page's rows must add up to. */
const total = (figures: Figures, pick: (r: Figures['routes'][number]) => Flow) =>
  figures.routes.reduce(
    (sum, r) => {
      const f = pick(r);
      return {
        count: sum.count + f.count,
        amount: sum.amount + f.amount,
        succeeded: sum.succeeded + f.succeeded,
        succeededAmount: sum.succeededAmount + f.succeededAmount,
      };
    },
    { count: 0, amount: 0, succeeded: 0, succeededAmount: 0 },
  );

/** The cells of a route's row in one of the home page's tables (after its row header, the route's name). */
async function rowCells(page: Page, table: string, route: string) {
  const row = page
    .getByRole('region', { name: table })
    .getByRole('row')
    .filter({
      has: page.getByRole('rowheader', { name: route, exact: true }),
    });
  await row.waitFor();
  return row.getByRole('cell').allTextContents();
}

beforeAll(async () => {
  sink = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.set(path, [...(received.get(path) ?? []), Buffer.concat(chunks).toString()]);
      if (path.startsWith('/broken')) {
        res.statusCode = 500;
        res.end('boom: the shop is down');
      } else res.end('SUCCESS');
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}`;
  browser = await launchChromium();
  // Two quick retries, then a long wait: the failing delivery stays pending and failing while the test runs.
  stack = await startTestStack({ env: { NOTIFY_RETRY_SCHEDULE: '300ms,10m', NOTIFY_TIMEOUT_MS: '3000' } });
  const urls = { adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway };
  [shop, broken] = await Promise.all([
    createTestMerchant(urls),
    createTestMerchant({ ...urls, fund: false }),
  ]);
  [support, auditor] = await Promise.all([
    createTestPerson({ adminUrl: stack.urls.admin, roles: ['support'] }),
    createTestPerson({ adminUrl: stack.urls.admin, roles: ['auditor'] }),
  ]);

  // Today's movements: three pay orders (two paid), and one payout that settles.
  await payIn(shop, 100, '/shop', true);
  await payIn(shop, 250.5, '/shop', false);
  brokenOrderNo = await payIn(broken, 30, '/broken', true);
  const transfer = await shop.request('/gateway/transfer', {
    bizTransferNo: `HOME-PAYOUT-${Date.now()}`,
    amount: 150.25,
    title: 'Pago a proveedor',
    reason: 'commission',
    payeeType: 'spei_transfer',
    payeeAccount: '002010077777777771',
    payeeName: 'Ana Perez',
    notifyUrl: `${sinkUrl}/shop`,
  });
  expect(transfer.envelope.code, JSON.stringify(transfer.envelope)).toBe(0);

  // Until the payout settled and the broken merchant's callback failed twice.
  await waitFor(
    async () => {
      const figures = await admin<Figures>('/admin/figures');
      const payouts = total(figures.body, (r) => r.payouts);
      return payouts.succeeded === 1 && (received.get('/broken')?.length ?? 0) >= 2 ? true : undefined;
    },
    { timeoutMs: 40_000, message: 'the payout did not settle or the failing callback was not tried twice' },
  );
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await new Promise((resolve) => sink?.close(resolve));
});

describe('the console home page and callbacks page', { timeout: 120_000 }, () => {
  it("the home page shows today's pay-ins and payouts per route as they happened", async () => {
    const figures = (await admin<Figures>('/admin/figures')).body;
    // What was done today, in integer centavos, over every route.
    expect(total(figures, (r) => r.payIns)).toEqual({
      count: 3,
      amount: 38_050,
      succeeded: 2,
      succeededAmount: 13_000,
    });
    expect(total(figures, (r) => r.payouts)).toEqual({
      count: 1,
      amount: 15_025,
      succeeded: 1,
      succeededAmount: 15_025,
    });
    // A day with nothing, and a day that is not one.
    const empty = (await admin<Figures>('/admin/figures?day=2020-01-01')).body;
    expect(empty.routes.every((r) => r.payIns.count === 0 && r.payouts.count === 0)).toBe(true);
    expect((await admin('/admin/figures?day=2020-13-45')).status).toBe(400);
    expect((await admin('/admin/figures?day=2021-02-30')).status).toBe(400);
    expect((await admin('/admin/figures?day=today')).status).toBe(400);

    const opened = await openPage(browser, `${stack.urls.admin}/console/`, { as: { person: auditor } });
    const { page } = opened;
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Inicio');
    const busy = figures.routes.filter((r) => r.payIns.count > 0 || r.payouts.count > 0);
    expect(busy.length).toBeGreaterThan(0);
    for (const route of busy) {
      const name = route.name || route.routeId;
      const payIns = await rowCells(page, 'Cobros de hoy por ruta', name);
      const payouts = await rowCells(page, 'Pagos de hoy por ruta', name);
      const money = (centavos: number) =>
        new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' }).format(centavos / 100);
      expect(payIns.slice(0, 4)).toEqual([
        String(route.payIns.count),
        money(route.payIns.amount),
        String(route.payIns.succeeded),
        money(route.payIns.succeededAmount),
      ]);
      expect(payouts.slice(0, 4)).toEqual([
        String(route.payouts.count),
        money(route.payouts.amount),
        String(route.payouts.succeeded),
        money(route.payouts.succeededAmount),
      ]);
    }
    // One route took everything here: its row is what was done, amounts to the centavo.
    if (busy.length === 1) {
      const name = busy[0]!.name || busy[0]!.routeId;
      const payIns = await rowCells(page, 'Cobros de hoy por ruta', name);
      expect(payIns.slice(0, 4)).toEqual(['3', '$380.50', '2', '$130.00']);
      // Both paid of the two finished ones (the third waits): 100 %.
      expect(payIns[6]).toBe('100%');
      const payouts = await rowCells(page, 'Pagos de hoy por ruta', name);
      expect(payouts.slice(0, 4)).toEqual(['1', '$150.25', '1', '$150.25']);
    }
    // The callback backlog: the broken merchant's delivery waits, failing.
    const backlog = page.getByRole('listitem').filter({
      has: page.getByRole('heading', { name: 'Notificaciones pendientes' }),
    });
    await backlog.getByText('Endpoints con fallas: 1').waitFor();
    await meetsTheBars(opened, 'console-home-today');
    await opened.context.close();
  });

  it('a support operator finds the failing endpoint, opens its delivery, reads the attempts and resends it', async () => {
    const opened = await openPage(browser, `${stack.urls.admin}/console/callbacks`, {
      as: { person: support },
    });
    const { page } = opened;
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Notificaciones a comercios',
    );
    const failing = page.getByRole('region', { name: 'Endpoints con fallas, por comercio y host' });
    const row = failing.getByRole('row').filter({ hasText: broken.mchNo });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[0]).toBe(broken.mchNo);
    expect(cells[1]).toBe(new URL(sinkUrl).host);
    expect(cells[2]).toBe('1');
    expect(cells[4]).toMatch(/HTTP 500/);
    // The healthy merchant is not failing.
    await expect(failing.getByRole('row').filter({ hasText: shop.mchNo }).count()).resolves.toBe(0);
    await meetsTheBars(opened, 'console-callbacks');

    await row.getByRole('link', { name: `Abrir la entrega de ${brokenOrderNo}` }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Entrega');
    const attempts = page.getByRole('region', { name: 'Intentos de la entrega' });
    await attempts.waitFor();
    const rows = attempts.getByRole('row');
    // A header and the two failed attempts, newest first, each with the merchant's answer.
    await expect(rows.count()).resolves.toBe(3);
    const newest = await rows.nth(1).getByRole('cell').allTextContents();
    expect(newest[0]).toBe('2');
    expect(newest[2]).toBe('Fallido');
    expect(newest[3]).toBe('500');
    expect(newest[5]).toBe('boom: the shop is down');
    // The request: the signed body exactly as the merchant's receiver got it.
    const sent = received.get('/broken')?.[0] ?? '';
    expect(sent).toContain(brokenOrderNo);
    await expect(page.locator('pre').textContent()).resolves.toBe(sent);
    await meetsTheBars(opened, 'console-callback');

    const before = received.get('/broken')?.length ?? 0;
    await page.getByRole('button', { name: 'Reenviar la notificación' }).click();
    await page.getByRole('status').filter({ hasText: 'Reenvío programado' }).waitFor();
    await waitFor(() => ((received.get('/broken')?.length ?? 0) > before ? true : undefined), {
      timeoutMs: 15_000,
      message: "the merchant's receiver did not get the callback again",
    });
    // The same bytes again, and a third attempt after a refresh.
    expect(received.get('/broken')?.at(-1)).toBe(sent);
    await waitFor(
      async () => {
        await page.getByRole('button', { name: 'Actualizar' }).click();
        return (await rows.count()) === 4 ? true : undefined;
      },
      { timeoutMs: 15_000, message: 'the third attempt did not show' },
    );
    await opened.context.close();
  });

  it('finds the deliveries of an order by its number', async () => {
    const opened = await openPage(browser, `${stack.urls.admin}/console/callbacks`, {
      as: { person: support },
    });
    const { page } = opened;
    await page.getByLabel('Número de orden o transferencia').fill(brokenOrderNo);
    await page.getByRole('button', { name: 'Buscar' }).click();
    const found = page.getByRole('region', { name: `Entregas de ${brokenOrderNo}` });
    await found.waitFor();
    expect(new URL(page.url()).searchParams.get('order')).toBe(brokenOrderNo);
    await found.getByRole('link', { name: new RegExp(`^Abrir la entrega de ${brokenOrderNo}`) }).click();
    await page.getByRole('region', { name: 'Intentos de la entrega' }).waitFor();
    await opened.context.close();
  });

  it('an auditor reads the failing delivery but is offered no resend, and a forged resend is refused', async () => {
    const deliveries = await admin<{ deliveries: { id: string; attempts: unknown[] }[] }>(
      `/admin/deliveries?orderNo=${brokenOrderNo}`,
    );
    const delivery = deliveries.body.deliveries[0]!;
    const opened = await openPage(browser, `${stack.urls.admin}/console/callbacks?delivery=${delivery.id}`, {
      as: { person: auditor },
    });
    const { page } = opened;
    await page.getByRole('region', { name: 'Intentos de la entrega' }).waitFor();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('button', { name: /Reenviar/ }).count()).resolves.toBe(0);
    const csrf = await page.evaluate<string>(
      `JSON.parse(sessionStorage.getItem('agentpay.session:/console/api') ?? '{}').csrfToken ?? ''`,
    );
    const status = await page.evaluate<number, { path: string; csrf: string }>(
      async ({ path, csrf }) =>
        (
          await fetch(path, {
            method: 'POST',
            headers: { 'x-csrf-token': csrf },
            credentials: 'same-origin',
          })
        ).status,
      { path: `/admin/deliveries/${delivery.id}/resend`, csrf },
    );
    expect(status).toBe(403);
    const after = await admin<{ attempts: unknown[] }>(`/admin/deliveries/${delivery.id}`);
    expect(after.body.attempts.length).toBe(delivery.attempts.length);
    await opened.context.close();
  });

  it('roles: the callback reads are refused to a role that may not read callbacks', async () => {
    const approver = await createTestPerson({ adminUrl: stack.urls.admin, roles: ['approver'] });
    for (const path of ['/admin/callbacks/backlog', '/admin/callbacks/failing-endpoints']) {
      const answer = await fetch(`${stack.urls.admin}${path}`, {
        headers: { authorization: `Bearer ${approver.token}` },
      });
      expect(answer.status, path).toBe(403);
    }
    const figures = await fetch(`${stack.urls.admin}/admin/figures`, {
      headers: { authorization: `Bearer ${approver.token}` },
    });
    expect(figures.status).toBe(200);
  });

  it('with the notifier down, the backlog card says so and the figures still show', async () => {
    await stack.kill('notifier');
    try {
      const opened = await openPage(browser, `${stack.urls.admin}/console/`, { as: { person: auditor } });
      const { page } = opened;
      const backlog = page.getByRole('listitem').filter({
        has: page.getByRole('heading', { name: 'Notificaciones pendientes' }),
      });
      await backlog.getByRole('alert').waitFor();
      await page.getByRole('region', { name: 'Cobros de hoy por ruta' }).waitFor();
      await meetsTheBars(opened, 'console-home-degraded');
      await opened.context.close();
    } finally {
      await stack.restart('notifier');
    }
  });
});
