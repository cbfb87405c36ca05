import type { Stack } from '@agentpay/stack';
import {
  createTestMerchant,
  createTestPerson,
  type TestMerchant,
  type TestPerson,
  TIME_ZONE,
  waitFor,
} from '@agentpay/testing';
import { formatWireTime } from '@agentpay/wire';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.js';
import { meetsTheBars, openPage } from './support/console.js';
import { createUnreachableStpRoute } from './support/routes.js';
import { startTestStack } from './support/stack.js';

// The console's reconciliation workbench and approvals (CONTRACT sections 14, 17 and 18) in a real Chromium
// on a 390-px phone, each step as the person who takes it: a reconciliation analyst runs the day from the
// page, opens a deposit the channel has and no order took (an unmatched_deposit made through the sandbox),
// resolves it by credit with a reason and sees it wait for approval; they are never offered to approve it,
// and the API refuses them if they try. An approver finds it under "waiting for me" and approves it with a
// reason; the merchant's balance moves by exactly the amount and the books check out. Last, with a route whose
// channel does not answer, the page's run reconciles the others and names the failed route.

const DEV = { authorization: 'Bearer dev-admin-token' };
/** The second payment into an order already paid: money the channel has and the platform owes nobody. */
const EXTRA_PESOS = 33.25;
const EXTRA_CENTAVOS = 3325;
/** A movement this close to a midnight is judged once both days are stored (the ledger's dayEdgeMs). */
const DAY_EDGE_MS = 15 * 60_000;

let stack: Stack;
let browser: Browser;
let merchant: TestMerchant;
let analyst: TestPerson;
let approver: TestPerson;
/** Mexico City days the movements touch (with the neighbour near a midnight); the deposit's own day. */
const days = new Set<string>();
let day: string;

async function call(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
) {
  const response = await fetch(`${stack.urls.admin}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
      ...(init.headers ?? DEV),
    },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { text };
  }
  return { status: response.status, body };
}

function touch(): void {
  for (const at of [Date.now() - DAY_EDGE_MS, Date.now(), Date.now() + DAY_EDGE_MS])
    days.add(formatWireTime(new Date(at), TIME_ZONE).slice(0, 10));
}

async function deposit(clabe: string, pesos: number, extra: Record<string, unknown> = {}): Promise<void> {
  touch();
  const response = await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      clabe,
      amount: pesos,
      senderAccount: '012180000123456782',
      senderName: 'Ana Lopez',
      ...extra,
    }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
}

/** The merchant's balance in centavos (the admin API answers pesos). */
async function balance(): Promise<{ available: number; total: number }> {
  const answer = await call(`/admin/merchants/${merchant.mchNo}/balance`);
  expect(answer.status).toBe(200);
  const cents = (key: string) => Math.round(Number(answer.body[key]) * 100);
  return { available: cents('available'), total: cents('available') + cents('pending') + cents('frozen') };
}

/** A person's own calls, with their session cookie and CSRF token. */
const as = (person: TestPerson) => ({ cookie: person.cookie, 'x-csrf-token': person.csrfToken });

/** The request card (an <article>) on the approvals page whose text names `text`. */
const card = (page: Page, text: string): Locator => page.getByRole('article').filter({ hasText: text });

let discrepancyId = '';
let approvalId = '';
let before: { available: number; total: number };

beforeAll(async () => {
  browser = await launchChromium();
  // Every movement counts at once, and no scheduled run interferes with the runs the page starts.
  stack = await startTestStack({ serviceEnv: { ledger: { RECON_GRACE_MS: '0', RECON_SCHEDULE: 'off' } } });
  merchant = await createTestMerchant({ adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway });
  [analyst, approver] = await Promise.all([
    createTestPerson({ adminUrl: stack.urls.admin, roles: ['reconciliation'] }),
    createTestPerson({ adminUrl: stack.urls.admin, roles: ['approver'] }),
  ]);

  const newOrder = async (pesos: number) => {
    const created = await merchant.request('/gateway/pay', {
      bizOrderNo: `CR-${Date.now()}-${pesos}`,
      title: 'Order',
      method: 'mex_virtual_account',
      amount: pesos,
    });
    expect(created.envelope.code).toBe(0);
    const data = created.envelope.data as { orderNo: string; payBody: string };
    return { orderNo: data.orderNo, clabe: (JSON.parse(data.payBody) as { clabe: string }).clabe };
  };
  const order = await newOrder(120);
  const clabe = order.clabe;
  await deposit(clabe, 120);
  // missing_on_platform: the channel took money and never told the platform (resolved by apply, not credit).
  const untold = await newOrder(75.5);
  await deposit(untold.clabe, 75.5, { notify: false });
  // unmatched_deposit of another amount than its order's: a lead asks to return it, and cannot approve it.
  const wrong = await newOrder(50);
  await deposit(wrong.clabe, 49);
  await waitFor(
    async () => {
      const reply = await merchant.request('/gateway/query/payOrder', { orderNo: order.orderNo });
      return (reply.envelope.data as { status: string }).status === 'success';
    },
    { timeoutMs: 20_000, intervalMs: 200, message: 'the order to pay' },
  );
  await deposit(clabe, EXTRA_PESOS);
  day = formatWireTime(new Date(), TIME_ZONE).slice(0, 10);
  await waitFor(async () => (await call('/admin/ledger/check')).body['ok'] === true, {
    timeoutMs: 20_000,
    intervalMs: 250,
    message: 'the books to be consistent before the run',
  });
  // Near a midnight the neighbour day's statement is stored first, so the page's run judges the edge.
  for (const other of [...days].filter((d) => d !== day)) {
    expect((await call('/admin/reconciliations', { body: { day: other } })).status).toBe(200);
  }
  before = await balance();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('the reconciliation workbench and four eyes, in the console', () => {
  it('an analyst runs the day, opens the unmatched deposit and resolves it by credit: it waits for approval', async () => {
    const opened = await openPage(browser, `${stack.urls.admin}/console/reconciliation`, {
      as: { person: analyst },
    });
    const { page } = opened;
    await page.getByRole('heading', { level: 1, name: 'Conciliación' }).waitFor();
    await page.getByLabel('Día a conciliar').fill(day);
    await page.getByRole('button', { name: 'Conciliar', exact: true }).click();
    await page.getByText(`Día ${day} conciliado`).waitFor();
    // The run is listed with its counts above the discrepancies it found.
    const runs = page.getByRole('region', { name: 'Corridas por día y ruta' });
    await runs.getByRole('cell', { name: 'Terminada' }).first().waitFor();
    expect(await runs.getByRole('row').nth(1).textContent()).toContain(day);
    await meetsTheBars(opened, 'console-reconciliation-runs');

    const found = await call(`/admin/discrepancies?kind=unmatched_deposit&day=${day}`);
    const items = found.body['items'] as { id: string; amount: number; platform: { mchNo?: string } }[];
    const extra = items.filter((d) => d.amount === EXTRA_PESOS);
    expect(extra).toHaveLength(1);
    discrepancyId = extra[0]?.id ?? '';
    expect(extra[0]?.platform.mchNo).toBe(merchant.mchNo);

    await page.getByRole('link', { name: `Ver discrepancia ${discrepancyId}` }).click();
    await page.getByRole('heading', { level: 1, name: `Discrepancia ${discrepancyId}` }).waitFor();
    // Both sides: the platform's order and the channel's line of the same money.
    await page.getByRole('heading', { level: 2, name: 'Plataforma' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Canal' }).waitFor();
    await expect(page.getByText('Depósito sin orden que lo reciba').first().isVisible()).resolves.toBe(true);
    // The kind allows credit and return (the one table in @agentpay/api/reconciliation), nothing else.
    expect(await page.getByRole('radio').count()).toBe(2);
    await page.getByRole('radio', { name: 'Abonar al comercio' }).waitFor();
    await page.getByRole('radio', { name: 'Devolver al ordenante' }).waitFor();
    await meetsTheBars(opened, 'console-discrepancy');

    // A reason is required: the page says so and sends nothing.
    await page.getByRole('radio', { name: 'Abonar al comercio' }).check();
    await page.getByRole('button', { name: 'Resolver discrepancia' }).click();
    await page.getByText('Escribe el motivo.').waitFor();
    expect((await call('/admin/approvals?state=pending')).body['items']).toEqual([]);

    await page.getByLabel('Motivo').fill('Segundo pago a una orden pagada; el comercio lo reconoce');
    await page.getByRole('button', { name: 'Resolver discrepancia' }).click();
    await page.getByText('Esperando aprobación').waitFor();
    const link = page.getByRole('link', { name: /^Ver la solicitud apr_/ });
    approvalId = ((await link.textContent()) ?? '').replace('Ver la solicitud ', '').trim();
    expect(approvalId).toMatch(/^apr_[0-9a-f]{24}$/);
    // Nothing moved yet, and the discrepancy is still open; the form is gone while it waits.
    expect(await balance()).toEqual(before);
    expect((await call(`/admin/discrepancies/${discrepancyId}`)).body['state']).toBe('open');
    await expect(page.getByRole('button', { name: 'Resolver discrepancia' }).count()).resolves.toBe(0);
    await meetsTheBars(opened, 'console-discrepancy-waiting');

    // The link opens the request; the analyst who asked is offered no approval, only to withdraw it.
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'Aprobaciones' }).waitFor();
    await page.getByRole('heading', { level: 2, name: `Solicitud ${approvalId}` }).waitFor();
    await card(page, approvalId).first().getByRole('button', { name: 'Retirar mi solicitud' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Lo que pedí' }).waitFor();
    await expect(page.getByRole('heading', { name: 'Esperando mi aprobación' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Aprobar' }).count()).resolves.toBe(0);
    await meetsTheBars(opened, 'console-approvals-requested');
    await opened.context.close();

    // Forging the call: the API refuses the analyst's own approval (no role; and never one's own request).
    const forged = await call(`/admin/approvals/${approvalId}/approve`, {
      headers: as(analyst),
      body: { reason: 'me' },
    });
    expect(forged.status).toBe(403);
    expect((await call(`/admin/approvals/${approvalId}`)).body['state']).toBe('pending');
  }, 120_000);

  it('an approver finds it under "waiting for me", approves with a reason: the balance moves by exactly the amount', async () => {
    expect(approvalId).not.toBe('');
    const opened = await openPage(browser, `${stack.urls.admin}/console/approvals`, {
      as: { person: approver },
    });
    const { page } = opened;
    await page.getByRole('heading', { level: 1, name: 'Aprobaciones' }).waitFor();
    const waiting = page.getByRole('region', { name: 'Esperando mi aprobación' });
    const request = waiting.getByRole('article').filter({ hasText: approvalId });
    await request.waitFor();
    await expect(request.getByText(`discrepancy ${discrepancyId}`).first().isVisible()).resolves.toBe(true);
    await expect(request.getByText(analyst.email).isVisible()).resolves.toBe(true);
    await request.getByRole('heading', { level: 3, name: 'Resolver una discrepancia' }).waitFor();
    await meetsTheBars(opened, 'console-approvals');

    // A reason is required here too.
    await request.getByRole('button', { name: 'Aprobar' }).click();
    await request.getByText('Escribe el motivo.').waitFor();
    expect((await call(`/admin/approvals/${approvalId}`)).body['state']).toBe('pending');

    await request.getByLabel('Motivo de la decisión').fill('Coincide con el estado de cuenta del banco');
    await request.getByRole('button', { name: 'Aprobar' }).click();
    await page.getByText('Aprobada: Ejecutada.').waitFor();
    await opened.context.close();

    const decided = (await call(`/admin/approvals/${approvalId}`)).body;
    expect(decided).toMatchObject({
      state: 'executed',
      reason: 'Coincide con el estado de cuenta del banco',
      requestedBy: { id: `user:${analyst.id}`, label: analyst.email },
      decidedBy: { id: `user:${approver.id}`, label: approver.email },
      result: { status: 200 },
    });
    const after = await balance();
    expect(after.available - before.available).toBe(EXTRA_CENTAVOS);
    expect(after.total - before.total).toBe(EXTRA_CENTAVOS);
    const check = await call('/admin/ledger/check');
    expect(check.body).toMatchObject({ ok: true, problems: [] });
    expect((await call(`/admin/discrepancies/${discrepancyId}`)).body).toMatchObject({
      state: 'resolved',
      resolution: { action: 'credit', operator: analyst.email, approvalId },
    });
  }, 120_000);

  it('the discrepancy page then shows its resolution and the approval; an approver is offered no resolving or running', async () => {
    const opened = await openPage(browser, `${stack.urls.admin}/console/reconciliation/${discrepancyId}`, {
      as: { person: approver },
    });
    const { page } = opened;
    await page.getByRole('heading', { level: 2, name: 'Resolución' }).waitFor();
    await page.getByText('Abonar al comercio').waitFor();
    await page.getByRole('link', { name: approvalId }).waitFor();
    await page.getByText('Segundo pago a una orden pagada; el comercio lo reconoce').waitFor();
    await meetsTheBars(opened, 'console-discrepancy-resolved');

    // Another discrepancy, still open: the approver may read it but is not offered to resolve it; nor to run.
    const open = (await call(`/admin/discrepancies?state=open&day=${day}`)).body['items'] as { id: string }[];
    expect(open.length).toBeGreaterThan(0);
    await page.goto(`${stack.urls.admin}/console/reconciliation/${open[0]?.id}`);
    await page.getByRole('heading', { level: 1, name: `Discrepancia ${open[0]?.id}` }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Canal' }).waitFor();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('button', { name: 'Resolver discrepancia' }).count()).resolves.toBe(0);
    await page.goto(`${stack.urls.admin}/console/reconciliation`);
    await page.getByRole('heading', { level: 2, name: 'Corridas' }).waitFor();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('button', { name: 'Conciliar', exact: true }).count()).resolves.toBe(0);
    // And the API refuses the approver's run and resolution anyway.
    expect((await call('/admin/reconciliations', { headers: as(approver), body: { day } })).status).toBe(403);
    expect(
      (
        await call(`/admin/discrepancies/${open[0]?.id}/resolve`, {
          headers: as(approver),
          body: { action: 'apply', reason: 'x' },
        })
      ).status,
    ).toBe(403);
    await opened.context.close();
  }, 120_000);

  it('a person holding reconciliation and approver is never offered to approve their own request', async () => {
    const lead = await createTestPerson({
      adminUrl: stack.urls.admin,
      roles: ['reconciliation', 'approver'],
    });
    const items = (await call(`/admin/discrepancies?state=open&kind=unmatched_deposit&day=${day}`)).body[
      'items'
    ] as { id: string; amount: number }[];
    const wrong = items.find((d) => d.amount === 49);
    expect(wrong).toBeDefined();
    const asked = await call(`/admin/discrepancies/${wrong?.id}/resolve`, {
      headers: as(lead),
      body: { action: 'return', reason: 'Monto distinto al de la orden' },
    });
    expect(asked.status).toBe(202);
    const ownId = (asked.body['approval'] as { id: string }).id;

    const opened = await openPage(browser, `${stack.urls.admin}/console/approvals`, { as: { person: lead } });
    const { page } = opened;
    const mine = page
      .getByRole('region', { name: 'Lo que pedí' })
      .getByRole('article')
      .filter({ hasText: ownId });
    await mine.getByRole('button', { name: 'Retirar mi solicitud' }).waitFor();
    await expect(mine.getByRole('button', { name: 'Aprobar' }).count()).resolves.toBe(0);
    // "Waiting for me" is the lead's section (they approve others' requests), without their own.
    const waiting = page.getByRole('region', { name: 'Esperando mi aprobación' });
    await waiting.getByText('Nada pendiente.').waitFor();
    // The API refuses it all the same.
    const forged = await call(`/admin/approvals/${ownId}/approve`, {
      headers: as(lead),
      body: { reason: 'yo' },
    });
    expect(forged.status).toBe(403);

    // They withdraw it from the page, with a reason: rejected, nothing returned.
    await mine.getByLabel('Motivo de la decisión').fill('Lo reviso con el banco primero');
    await mine.getByRole('button', { name: 'Retirar mi solicitud' }).click();
    await page.getByText('Rechazada.').first().waitFor();
    expect((await call(`/admin/approvals/${ownId}`)).body).toMatchObject({
      state: 'rejected',
      reason: 'Lo reviso con el banco primero',
    });
    expect((await call(`/admin/discrepancies/${wrong?.id}`)).body['state']).toBe('open');
    await opened.context.close();
  }, 120_000);

  it('the runs endpoint pages by day and route and refuses a bad filter', async () => {
    const all = await call(`/admin/reconciliations?day=${day}`);
    expect(all.status).toBe(200);
    const items = all.body['items'] as { id: string; day: string; routeId: string; state: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((r) => r.day === day && r.state === 'succeeded')).toBe(true);
    const route = items[0]?.routeId ?? '';
    const byRoute = await call(`/admin/reconciliations?day=${day}&routeId=${route}&limit=1`);
    expect((byRoute.body['items'] as unknown[]).length).toBe(1);
    expect((await call('/admin/reconciliations?day=2026-02-30')).status).toBe(400);
    expect((await call('/admin/reconciliations?cursor=abc')).status).toBe(400);
    expect((await call('/admin/reconciliations?limit=0')).status).toBe(400);
    // Read by who reads reconciliation; refused to a person without it.
    expect((await call('/admin/reconciliations', { headers: as(analyst) })).status).toBe(200);
    const support = await createTestPerson({ adminUrl: stack.urls.admin, roles: ['support'] });
    expect((await call('/admin/reconciliations', { headers: as(support) })).status).toBe(403);
  });

  it('with one route whose channel does not answer, the run reconciles the others and the page names the failed route', async () => {
    const DOWN = 'stp-console-down';
    await createUnreachableStpRoute(stack.urls.admin, DOWN);
    const opened = await openPage(browser, `${stack.urls.admin}/console/reconciliation`, {
      as: { person: analyst },
    });
    const { page } = opened;
    await page.getByLabel('Día a conciliar').fill(day);
    await page.getByRole('button', { name: 'Conciliar', exact: true }).click();
    // The routes that answered are reconciled (the sandbox's and the seeded STP's)…
    await page
      .getByRole('status')
      .filter({ hasText: `Día ${day} conciliado: 2 rutas` })
      .waitFor();
    // …and the one that did not is named, with a reason an operator may read.
    const failed = page.getByRole('alert').getByRole('list', { name: /no se pudieron conciliar/ });
    const item = failed.getByRole('listitem');
    await expect(item.count()).resolves.toBe(1);
    expect(await item.textContent()).toMatch(new RegExp(`^${DOWN}: the channel did not give its statement`));
    // The runs list shows it failed beside the others' finished runs.
    const runs = page.getByRole('region', { name: 'Corridas por día y ruta' });
    await runs.getByRole('row').filter({ hasText: DOWN }).getByText('Falló').waitFor();
    await meetsTheBars(opened, 'console-reconciliation-failed-route');
    await opened.context.close();
  }, 120_000);
});
