import { readFileSync } from 'node:fs';
import type { Stack } from '@agentpay/stack';
import {
  createTestMerchant,
  createTestPerson,
  type TestMerchant,
  type TestPerson,
  waitFor,
} from '@agentpay/testing';
import { formatWireTime } from '@agentpay/wire';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.js';
import { meetsTheBars, openPage } from './support/console.js';
import { parseCsv } from './support/csv.js';
import { startTestStack } from './support/stack.js';

// The books in a browser (CONTRACT section 18 "ledger" and the dashboard's "balance and statement with CSV
// export"), each flow as the person who does it, on a 390-px phone: a merchant's finance person sees the
// balance and downloads the statement's CSV, whose movements add up from the opening to the closing balance
// the page and the API show, with a merchant's formula-like text made harmless; a viewer reads but is
// offered no export and is refused it; an operator with the reconciliation role opens a merchant's
// statement and runs the ledger check; an admin settles what is due and sees its run listed; support may not
// read statements or settlements.

const TIME_ZONE = 'America/Mexico_City';
/** A merchant-controlled text a spreadsheet would run as a formula. */
const FORMULA = '=HYPERLINK("http://evil.example","x")';
const CLABE = '002010077777777771';

let stack: Stack;
let browser: Browser;
let merchant: TestMerchant;
let finance: TestPerson;
let viewer: TestPerson;
let reconciler: TestPerson;
let adminOperator: TestPerson;
let support: TestPerson;

const money = (pesos: number) =>
  new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' }).format(pesos);
const cents = (pesos: string | number) => Math.round(Number(pesos) * 100);

async function admin(method: string, path: string, body?: unknown) {
  const response = await fetch(`${stack.urls.admin}${path}`, {
    method,
    headers: {
      authorization: 'Bearer dev-admin-token',
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status >= 300) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** A dashboard call with the person's session cookie. */
async function dash(person: TestPerson, path: string) {
  return fetch(`${stack.urls.gateway}${path}`, { headers: { cookie: person.cookie } });
}

async function payOrder(bizOrderNo: string, amount: number) {
  const created = await merchant.request('/gateway/pay', {
    bizOrderNo,
    title: 'Ledger pages',
    method: 'mex_virtual_account',
    amount,
  });
  expect(created.envelope.code).toBe(0);
  const order = created.envelope.data as { orderNo: string; payBody: string };
  const { clabe } = JSON.parse(order.payBody) as { clabe: string };
  const deposit = await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clabe, amount }),
  });
  expect(deposit.status).toBe(201);
  return order.orderNo;
}

/** The merchant's balance through the signed merchant API, in centavos. */
async function apiBalance() {
  const reply = await merchant.request('/gateway/query/balance', {});
  const data = reply.envelope.data as Record<string, number>;
  return {
    available: cents(data['available'] ?? 0),
    pending: cents(data['pending'] ?? 0),
    frozen: cents(data['frozen'] ?? 0),
  };
}

/** The figure on the card headed `name` (the balance cards). */
const cardFigure = (page: Page, name: string) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name, exact: true }) })
    .getByText('$');

beforeAll(async () => {
  browser = await launchChromium();
  // Several stacks may share this machine's two cores: give the start more than the default minute.
  stack = await startTestStack({ readyTimeoutMs: 180_000 });
  merchant = await createTestMerchant({
    adminUrl: stack.urls.admin,
    gatewayUrl: stack.urls.gateway,
    feeRate: { percentBps: 200, fixedCentavos: 100 },
    fund: false,
  });
  const merchantPerson = (roles: string[]) =>
    createTestPerson({
      adminUrl: stack.urls.admin,
      roles,
      mchNo: merchant.mchNo,
      gatewayUrl: stack.urls.gateway,
    });
  const operator = (roles: string[]) => createTestPerson({ adminUrl: stack.urls.admin, roles });
  [finance, viewer, reconciler, adminOperator, support] = await Promise.all([
    merchantPerson(['finance']),
    merchantPerson(['viewer']),
    operator(['reconciliation']),
    operator(['admin']),
    operator(['support']),
  ]);

  // Money in: two pay-ins (one with a formula for its bizOrderNo), settled; then a payout out of it.
  const orders = [await payOrder(FORMULA, 250), await payOrder(`LP-${Date.now()}`, 120.5)];
  // Fees of 2 % + 1.00 each: 250.00 keeps 244.00, 120.50 keeps 117.09.
  await waitFor(async () => (await apiBalance()).pending === 24_400 + 11_709, {
    timeoutMs: 20_000,
    intervalMs: 200,
    message: `pay-ins of ${orders.join(', ')} booked`,
  }).catch(async (err: Error) => {
    throw new Error(`${err.message}: ${JSON.stringify(await apiBalance())}`);
  });
  const later = new Date(Date.now() + 10 * 86_400_000);
  const until = `${formatWireTime(later, TIME_ZONE).slice(0, 10)} 00:00:00`;
  const run = await admin('POST', '/admin/settlements/run', { until });
  expect(run['settled']).toBe(2);
  const transfer = await merchant.request('/gateway/transfer', {
    bizTransferNo: `LT-${Date.now()}`,
    amount: 100,
    title: 'Payout',
    reason: 'commission',
    payeeType: 'spei_transfer',
    payeeAccount: CLABE,
    payeeName: 'Ana Perez',
  });
  expect(transfer.envelope.code).toBe(0);
  await waitFor(async () => (await apiBalance()).frozen === 0, {
    timeoutMs: 20_000,
    intervalMs: 200,
    message: 'the payout settled out of frozen',
  });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('the merchant dashboard', () => {
  it("a finance person sees the balance and exports the statement's CSV, which adds up to it", async () => {
    const balance = await apiBalance();
    expect(balance.available).toBeGreaterThan(0);
    const fromDashboard = (await (await dash(finance, '/dashboard/api/balance')).json()) as Record<
      string,
      number
    >;
    expect({
      available: cents(fromDashboard['available'] ?? NaN),
      pending: cents(fromDashboard['pending'] ?? NaN),
      frozen: cents(fromDashboard['frozen'] ?? NaN),
    }).toEqual(balance);

    const opened = await openPage(browser, `${stack.urls.gateway}/dashboard/balance`, {
      as: { person: finance },
    });
    const { page } = opened;
    await expect
      .poll(() => cardFigure(page, 'Disponible').textContent(), { timeout: 10_000 })
      .toBe(money(balance.available / 100));
    expect(await cardFigure(page, 'Congelado').textContent()).toBe(money(0));
    await page.getByRole('region', { name: 'Movimientos del periodo' }).waitFor();
    await meetsTheBars(opened, 'dashboard-balance');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Descargar CSV del periodo' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^statement-${merchant.mchNo}-.*\\.csv$`));
    const text = readFileSync(await download.path(), 'utf8');
    const [header, ...rows] = parseCsv(text);
    const col = (name: string) => {
      const index = header?.indexOf(name) ?? -1;
      expect(index, name).toBeGreaterThanOrEqual(0);
      return index;
    };
    const [type, available, pending, frozen] = [
      'type',
      'availableBalance',
      'pendingBalance',
      'frozenBalance',
    ].map(col);
    const changes = ['availableChange', 'pendingChange', 'frozenChange'].map(col);
    const opening = rows.at(0);
    const closing = rows.at(-1);
    expect(opening?.[type ?? 0]).toBe('opening');
    expect(closing?.[type ?? 0]).toBe('closing');
    const movements = rows.slice(1, -1);
    expect(movements.map((r) => r[type ?? 0])).toEqual([
      'pay_in',
      'pay_in',
      'settle',
      'settle',
      'transfer_freeze',
      'transfer_out',
    ]);
    // Opening + every movement = closing, part by part; the closing is the balance the page and API show.
    const parts = [available, pending, frozen] as number[];
    parts.forEach((balanceCol, i) => {
      const moved = movements.reduce((sum, r) => sum + cents(r[changes[i] ?? 0] ?? ''), 0);
      expect(cents(opening?.[balanceCol] ?? '') + moved).toBe(cents(closing?.[balanceCol] ?? ''));
    });
    expect(cents(opening?.[available ?? 0] ?? '')).toBe(0);
    expect({
      available: cents(closing?.[available ?? 0] ?? ''),
      pending: cents(closing?.[pending ?? 0] ?? ''),
      frozen: cents(closing?.[frozen ?? 0] ?? ''),
    }).toEqual(balance);
    // The merchant's formula arrives as text: the cell starts with an apostrophe, and no cell starts a formula.
    const bizOrderNo = col('bizOrderNo');
    expect(movements.map((r) => r[bizOrderNo])).toContain(`'${FORMULA}`);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+@\t\r]/);
    await opened.context.close();
  });

  it('the home page shows the balance and the way to the statement', async () => {
    const opened = await openPage(browser, `${stack.urls.gateway}/dashboard/`, { as: { person: finance } });
    const { page } = opened;
    const balance = await apiBalance();
    await expect
      .poll(() => cardFigure(page, 'Disponible').textContent(), { timeout: 10_000 })
      .toBe(money(balance.available / 100));
    await page.getByRole('link', { name: 'Ver saldo y estado de cuenta' }).click();
    await page.getByRole('heading', { level: 1, name: 'Saldo y estado de cuenta' }).waitFor();
    await opened.context.close();
  });

  it('a viewer reads the balance and statement but is offered no export, and the API refuses it', async () => {
    const opened = await openPage(browser, `${stack.urls.gateway}/dashboard/balance`, {
      as: { person: viewer },
    });
    const { page } = opened;
    await page.getByRole('region', { name: 'Movimientos del periodo' }).waitFor();
    expect(await page.getByRole('link', { name: 'Descargar CSV del periodo' }).count()).toBe(0);
    await meetsTheBars(opened, 'dashboard-balance-viewer');
    await opened.context.close();
    expect((await dash(viewer, '/dashboard/api/statement.csv')).status).toBe(403);
    expect((await dash(viewer, '/dashboard/api/statement')).status).toBe(200);
  });

  it('a statement is always of the signed-in merchant, and a bad period is a 400 that says why', async () => {
    const other = await dash(finance, '/dashboard/api/statement?mchNo=SOMEONE');
    expect(other.status).toBe(400);
    const page = (await (await dash(finance, '/dashboard/api/statement?limit=2')).json()) as {
      mchNo: string;
      items: unknown[];
      next?: string;
    };
    expect(page.mchNo).toBe(merchant.mchNo);
    expect(page.items).toHaveLength(2);
    expect(page.next).toBeDefined();
    const bad = await dash(finance, '/dashboard/api/statement?from=2026-02-30');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/from/);
    const reversed = await dash(finance, '/dashboard/api/statement?from=2026-05-02&to=2026-05-01');
    expect(reversed.status).toBe(400);
  });
});

describe('the operator console', () => {
  it('an operator with the reconciliation role opens a merchant statement and runs the ledger check', async () => {
    const opened = await openPage(browser, `${stack.urls.admin}/console/ledger`, {
      as: { person: reconciler },
    });
    const { page } = opened;
    await page.getByRole('heading', { level: 1, name: 'Contabilidad' }).waitFor();
    // Reconciliation may not list merchants, so the page asks for the number; it may not run settlements.
    await page.getByRole('table').first().waitFor();
    expect(await page.getByRole('button', { name: 'Liquidar ahora lo vencido' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Revisar ahora' }).click();
    await page.getByRole('status').filter({ hasText: 'La contabilidad cuadra' }).waitFor();
    await meetsTheBars(opened, 'console-ledger');

    await page.getByLabel('Número de comercio').fill(merchant.mchNo);
    await page.getByRole('button', { name: 'Ver saldo y estado de cuenta' }).click();
    await page.getByRole('heading', { level: 1, name: `Contabilidad de ${merchant.mchNo}` }).waitFor();
    const region = page.getByRole('region', { name: 'Movimientos del periodo' });
    await region.waitFor();
    expect(await region.getByRole('row').count()).toBe(7);
    const balance = await apiBalance();
    expect(await cardFigure(page, 'Disponible').textContent()).toBe(money(balance.available / 100));
    const csv = page.getByRole('link', { name: 'Descargar CSV del periodo' });
    expect(await csv.getAttribute('href')).toMatch(
      new RegExp(`/admin/merchants/${merchant.mchNo}/statement\\.csv\\?from=`),
    );
    await meetsTheBars(opened, 'console-statement');
    await opened.context.close();

    const exported = await fetch(`${stack.urls.admin}/admin/merchants/${merchant.mchNo}/statement.csv`, {
      headers: { authorization: `Bearer ${reconciler.token}` },
    });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
    expect((await exported.text()).split('\r\n').filter(Boolean)).toHaveLength(1 + 1 + 6 + 1);
  });

  it('an admin settles what is due from the ledger page, sees the run head the runs, and sees no check and no statements', async () => {
    const opened = await openPage(browser, `${stack.urls.admin}/console/ledger`, {
      as: { person: adminOperator },
    });
    const { page } = opened;
    const region = page.getByRole('region', { name: 'Última liquidación por comercio' });
    await region.getByRole('link', { name: merchant.mchNo }).waitFor();
    expect(await page.getByRole('button', { name: 'Revisar ahora' }).count()).toBe(0);
    expect(await page.getByLabel('Comercio (número o nombre)').count()).toBe(0);
    // The setup's run (an operator's, two orders) is in the runs table, newest first.
    const runs = page.getByRole('region', { name: 'Corridas de liquidación' });
    const runRows = runs.getByRole('row');
    await runRows.nth(1).waitFor();
    const before = await runRows.count();
    const cells = (row: number) => runRows.nth(row).getByRole('cell').allTextContents();
    const listed = await Promise.all(Array.from({ length: before - 1 }, (_, i) => cells(i + 1)));
    // Started and finished, then trigger, due up to, orders settled, status.
    expect(listed.map((c) => c.slice(2))).toContainEqual(['Operador', expect.any(String), '2', 'Terminada']);
    await page.getByRole('button', { name: 'Liquidar ahora lo vencido' }).click();
    await page.getByRole('status').filter({ hasText: 'Se liquidaron 0 órdenes' }).waitFor();
    await waitFor(async () => (await runRows.count()) === before + 1, { message: 'the new run listed' });
    expect((await cells(1)).slice(2)).toEqual(['Operador', expect.any(String), '0', 'Terminada']);
    await opened.context.close();
  });

  it('support may not read statements or settlements, and an unknown merchant is a 404', async () => {
    const as = (person: TestPerson, path: string) =>
      fetch(`${stack.urls.admin}${path}`, { headers: { authorization: `Bearer ${person.token}` } });
    expect((await as(support, `/admin/merchants/${merchant.mchNo}/statement`)).status).toBe(403);
    expect((await as(support, `/admin/merchants/${merchant.mchNo}/statement.csv`)).status).toBe(403);
    expect((await as(support, '/admin/settlements')).status).toBe(403);
    expect((await as(support, '/admin/settlements/runs')).status).toBe(403);
    expect((await as(reconciler, '/admin/settlements/runs?cursor=x')).status).toBe(400);
    const runs = (await (await as(reconciler, '/admin/settlements/runs?limit=200')).json()) as {
      items: { trigger: string; settled: number; status: string }[];
    };
    expect(runs.items).toContainEqual(
      expect.objectContaining({ trigger: 'operator', settled: 2, status: 'succeeded' }),
    );
    expect((await as(reconciler, '/admin/merchants/NOPE404/statement')).status).toBe(404);
    const settlements = (await (await as(reconciler, '/admin/settlements?limit=200')).json()) as {
      items: { mchNo: string; lastSettlement?: { orderNo: string } }[];
    };
    expect(settlements.items.find((m) => m.mchNo === merchant.mchNo)?.lastSettlement?.orderNo).toBeTruthy();
  });
});
