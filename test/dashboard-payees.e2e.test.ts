import type { Stack } from '@agentpay/stack';
import { createTestMerchant, createTestPerson, type TestMerchant, type TestPerson } from '@agentpay/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.js';
import { meetsTheBars, openPage } from './support/console.js';
import { startTestStack } from './support/stack.js';

// Registered payees on the merchant dashboard (CONTRACT section 19) in a real Chromium on a 390-px phone,
// each step as the merchant person who does it: the owner turns "registered payees only" on and registers a
// payee, which is cooling; a signed transfer to it answers 40009 and freezes nothing; the owner is not
// offered the approval of their own payee (and the API refuses it); an admin, a second person, approves it
// on the dashboard; the same transfer is then accepted. The limits page shows the limits in effect and the
// usage of that transfer; turning the control off waits for the second person. Every page meets the bars.

const CLABE = '002010077777777771'; // BANAMEX, 40002
const PAYEE = 'Beatriz Ruiz';

let stack: Stack;
let browser: Browser;
let merchant: TestMerchant;
let owner: TestPerson;
let admin: TestPerson;

/** A dashboard call as `person` (their session cookie and CSRF token), straight to the API. */
async function dash(
  person: TestPerson,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
  const response = await fetch(`${stack.urls.gateway}${path}`, {
    method,
    headers: {
      cookie: person.cookie,
      ...(method !== 'GET' && { 'x-csrf-token': person.csrfToken }),
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

interface Payee {
  payeeId: string;
  payeeAccount: string;
  status: string;
  registeredByMe: boolean;
}
const payeesOf = async (person: TestPerson) => {
  const answer = await dash(person, '/dashboard/api/payees');
  expect(answer.status).toBe(200);
  return answer.body['items'] as Payee[];
};

const balance = async () => {
  const reply = await merchant.request('/gateway/query/balance');
  expect(reply.envelope.code, reply.envelope.msg).toBe(0);
  return reply.envelope.data as { available: number; frozen: number };
};

beforeAll(async () => {
  browser = await launchChromium();
  // A loaded machine starts seven services slowly: the stack's own wait, and this hook's, are generous.
  stack = await startTestStack({ readyTimeoutMs: 180_000 });
  merchant = await createTestMerchant({ adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway });
  const person = (roles: string[]) =>
    createTestPerson({
      adminUrl: stack.urls.admin,
      roles,
      mchNo: merchant.mchNo,
      gatewayUrl: stack.urls.gateway,
    });
  [owner, admin] = await Promise.all([person(['owner']), person(['admin'])]);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('registered payees', () => {
  it('a payee the owner registers is cooling and refused (40009); a second person approves it on the dashboard and the same transfer is accepted', async () => {
    // The owner turns "registered payees only" on: at once.
    const controls = await openPage(browser, `${stack.urls.gateway}/dashboard/settings`, {
      as: { person: owner },
    });
    await controls.page.getByRole('heading', { level: 1, name: 'Controles de pagos' }).waitFor();
    await controls.page.getByText('Apagado', { exact: true }).waitFor();
    await controls.page.getByRole('button', { name: 'Encender' }).click();
    await controls.page
      .getByRole('status')
      .filter({ hasText: 'Solo beneficiarios registrados: encendido.' })
      .waitFor();
    await controls.page.getByText('Encendido', { exact: true }).waitFor();
    await meetsTheBars(controls, 'dashboard-controls');
    await controls.context.close();
    expect((await dash(owner, '/dashboard/api/settings')).body['registeredPayeesOnly']).toBe(true);

    // The owner registers the payee on the dashboard: it waits, and the owner is not offered its approval.
    const mine = await openPage(browser, `${stack.urls.gateway}/dashboard/payees`, { as: { person: owner } });
    await mine.page.getByRole('heading', { level: 1, name: 'Beneficiarios' }).waitFor();
    await mine.page.getByLabel('Tipo de cuenta').selectOption('spei_transfer');
    await mine.page.getByLabel('Cuenta', { exact: true }).fill(CLABE);
    await mine.page.getByLabel('Nombre del beneficiario').fill(PAYEE);
    await mine.page.getByRole('button', { name: 'Registrar' }).click();
    await mine.page
      .getByRole('status')
      .filter({ hasText: `${PAYEE} registrado` })
      .waitFor();
    const list = mine.page.getByRole('region', { name: 'Beneficiarios registrados' });
    const row = list.getByRole('row').filter({ hasText: PAYEE });
    await row.getByText('En espera').waitFor();
    await row.getByText('Lo registraste tú').waitFor();
    expect(await mine.page.getByRole('button', { name: /^Aprobar/ }).count()).toBe(0);
    await meetsTheBars(mine, 'dashboard-payees');
    await mine.context.close();

    const [registered] = (await payeesOf(owner)).filter((p) => p.payeeAccount === CLABE);
    expect(registered).toMatchObject({ status: 'cooling', registeredByMe: true });

    // A signed transfer to a cooling payee is refused, and nothing is frozen or created.
    const before = await balance();
    const transfer = {
      bizTransferNo: `DP-${Date.now()}`,
      amount: 250.75,
      title: 'Pago a proveedor',
      reason: 'supplier',
      payeeType: 'spei_transfer',
      payeeAccount: CLABE,
      payeeName: PAYEE,
    };
    const refused = await merchant.request('/gateway/transfer', transfer);
    expect(refused.signed).toBe(true);
    expect(refused.envelope).toMatchObject({ code: 40009, data: null });
    expect(refused.envelope.msg).toMatch(/^payee not registered/);
    expect(await balance()).toEqual(before);
    const unknown = await merchant.request('/gateway/query/transferOrder', {
      bizTransferNo: transfer.bizTransferNo,
    });
    expect(unknown.envelope.code).not.toBe(0);

    // The registrant cannot approve it, even by forging the call.
    const self = await dash(owner, `/dashboard/api/payees/${registered!.payeeId}/approve`, {
      method: 'POST',
    });
    expect(self.status).toBe(403);
    expect((await payeesOf(owner)).find((p) => p.payeeId === registered!.payeeId)?.status).toBe('cooling');

    // A second person, an admin, approves it on the dashboard.
    const theirs = await openPage(browser, `${stack.urls.gateway}/dashboard/payees`, {
      as: { person: admin },
    });
    const adminRow = theirs.page
      .getByRole('region', { name: 'Beneficiarios registrados' })
      .getByRole('row')
      .filter({ hasText: PAYEE });
    await adminRow.getByText('En espera').waitFor();
    await theirs.page.getByRole('button', { name: `Aprobar a ${PAYEE}` }).click();
    await theirs.page
      .getByRole('status')
      .filter({ hasText: `${PAYEE} aprobado` })
      .waitFor();
    await adminRow.getByText('Usable', { exact: true }).waitFor();
    expect(await theirs.page.getByRole('button', { name: /^Aprobar/ }).count()).toBe(0);
    await meetsTheBars(theirs, 'dashboard-payees-approved');
    await theirs.context.close();

    // The same transfer is now accepted.
    const accepted = await merchant.request('/gateway/transfer', transfer);
    expect(accepted.signed).toBe(true);
    expect(accepted.envelope.code, accepted.envelope.msg).toBe(0);
    expect(accepted.envelope.data).toMatchObject({ bizTransferNo: transfer.bizTransferNo });

    // The limits page shows the limits in effect and that payout in today's usage.
    const limits = await openPage(browser, `${stack.urls.gateway}/dashboard/limits`, {
      as: { person: admin },
    });
    await limits.page.getByRole('heading', { level: 1, name: 'Límites' }).waitFor();
    const table = limits.page.getByRole('region', { name: 'Límites y uso' });
    await table.getByRole('rowheader', { name: /payout\.perTransfer/ }).waitFor();
    const usage = (await dash(admin, '/dashboard/api/limits')).body['usage'] as {
      payoutAmount: number;
      payoutCount: number;
    };
    expect(usage.payoutCount).toBeGreaterThanOrEqual(1);
    expect(usage.payoutAmount).toBeGreaterThanOrEqual(250.75);
    await table
      .getByRole('row')
      .filter({ hasText: 'payout.dailyCount' })
      .getByRole('cell', { name: String(usage.payoutCount), exact: true })
      .waitFor();
    await meetsTheBars(limits, 'dashboard-limits');
    await limits.context.close();
  }, 300_000);

  it('turning "registered payees only" off waits for a second owner or admin, who approves it', async () => {
    const asked = await openPage(browser, `${stack.urls.gateway}/dashboard/settings`, {
      as: { person: owner },
    });
    await asked.page.getByRole('button', { name: 'Pedir apagarlo' }).click();
    await asked.page
      .getByRole('status')
      .filter({ hasText: 'otra persona propietaria o administradora debe aprobarla' })
      .waitFor();
    await asked.page.getByText('La pediste tú').waitFor();
    await asked.page.getByText('Encendido', { exact: true }).waitFor();
    await asked.context.close();
    expect((await dash(owner, '/dashboard/api/settings')).body['registeredPayeesOnly']).toBe(true);

    const approves = await openPage(browser, `${stack.urls.gateway}/dashboard/settings`, {
      as: { person: admin },
    });
    await approves.page.getByRole('button', { name: 'Aprobar' }).click();
    await approves.page.getByRole('status').filter({ hasText: 'Solicitud aprobada.' }).waitFor();
    await approves.page.getByText('Apagado', { exact: true }).waitFor();
    await approves.context.close();
    expect((await dash(owner, '/dashboard/api/settings')).body['registeredPayeesOnly']).toBe(false);
  }, 180_000);
});
