import { readFileSync } from 'node:fs';
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
import { DESKTOP, meetsTheBars, openPage } from './support/console.js';
import { startTestStack } from './support/stack.js';

// The compliance desk's console pages (issue 36, CONTRACT sections 18 and 20) in a real Chromium on a 390-px
// phone, each step as the person who takes it: a compliance person creates a blocked list and uploads a small
// version, which waits until a second compliance person approves it on the approvals page; a transfer whose
// payee matches the list (written otherwise) is held, and its case is in the queue; it is opened, noted and
// released (two people: a blocked-list hit); another is rejected and closed as `report`, and the unusual
// report's CSV, downloaded from the page, lists it. An auditor reads it all and is offered no action;
// support sees no compliance navigation and the API answers 403.

const CLABE = '002010077777777771';
const LIST_NAME = 'UIF consola';
const LIST_CSV =
  'name,rfc,curp,birthDate,country,reference\n"Pérez López, Juan",PELJ800101AB1,,1980-01-01,MX,UIF-C-1\n';

let stack: Stack;
let browser: Browser;
let merchant: TestMerchant;
let ana: TestPerson;
let bea: TestPerson;
let auditor: TestPerson;
let support: TestPerson;
let seq = 0;

/** A person's own calls, with their session cookie and CSRF token. */
const as = (person: TestPerson) => ({ cookie: person.cookie, 'x-csrf-token': person.csrfToken });

async function call(person: TestPerson, method: string, path: string, body?: unknown) {
  const response = await fetch(`${stack.urls.admin}${path}`, {
    method,
    headers: { ...as(person), ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {}
  return { status: response.status, body: json, text };
}

async function transfer(amount: number, payeeName: string): Promise<string> {
  const reply = await merchant.request('/gateway/transfer', {
    bizTransferNo: `CC-${Date.now()}-${++seq}`,
    amount,
    payeeType: 'spei_transfer',
    payeeAccount: CLABE,
    payeeName,
    notifyUrl: 'http://127.0.0.1:9/callbacks',
  });
  expect(reply.status).toBe(200);
  const data = reply.envelope.data as { transferNo: string; status: string };
  expect(reply.envelope.code).toBe(0);
  expect(data.status).toBe('progress');
  return data.transferNo;
}

async function transferStatus(transferNo: string): Promise<string | undefined> {
  const reply = await merchant.request('/gateway/query/transferOrder', { transferNo });
  return (reply.envelope.data as { status?: string } | null)?.status;
}

/** The case that holds `transferNo`, as the desk lists it. */
async function caseOf(transferNo: string): Promise<{ id: string; state: string; releaseNeedsTwo: boolean }> {
  return waitFor(
    async () => {
      const listed = await call(ana, 'GET', '/admin/compliance/cases?kind=screening&limit=200');
      for (const c of (listed.body['cases'] ?? []) as { id: string }[]) {
        const full = await call(ana, 'GET', `/admin/compliance/cases/${c.id}`);
        if ((full.body['operations'] as { ref: string }[]).some((o) => o.ref === transferNo))
          return full.body as { id: string; state: string; releaseNeedsTwo: boolean };
      }
      return undefined;
    },
    { timeoutMs: 15_000, intervalMs: 250, message: `a case for ${transferNo}` },
  );
}

/** A second person approves request `approvalId` on the console's approvals page, with a reason. */
async function approveInPage(person: TestPerson, approvalId: string, reason: string, shot?: string) {
  const opened = await openPage(browser, `${stack.urls.admin}/console/approvals`, { as: { person } });
  const { page } = opened;
  await page.getByRole('heading', { level: 1, name: 'Aprobaciones' }).waitFor();
  const request = page
    .getByRole('region', { name: 'Esperando mi aprobación' })
    .getByRole('article')
    .filter({ hasText: approvalId });
  await request.waitFor();
  if (shot) await meetsTheBars(opened, shot);
  await request.getByLabel('Motivo de la decisión').fill(reason);
  await request.getByRole('button', { name: 'Aprobar' }).click();
  await page.getByText('Aprobada: Ejecutada.').waitFor();
  await opened.context.close();
}

/** The approval id a "waiting for approval" notice links to. */
async function waitingApproval(page: Page): Promise<string> {
  await page.getByText('Esperando aprobación').waitFor();
  const link = page.getByRole('link', { name: /^Ver la solicitud apr_/ });
  const id = ((await link.textContent()) ?? '').replace('Ver la solicitud ', '').trim();
  expect(id).toMatch(/^apr_[0-9a-f]{24}$/);
  return id;
}

beforeAll(async () => {
  browser = await launchChromium();
  stack = await startTestStack({ readyTimeoutMs: 300_000, env: { GRPC_TIMEOUT_MS: '30000' } });
  const adminUrl = stack.urls.admin;
  [ana, bea, auditor, support] = await Promise.all([
    createTestPerson({ adminUrl, roles: ['compliance'] }),
    createTestPerson({ adminUrl, roles: ['compliance'] }),
    createTestPerson({ adminUrl, roles: ['auditor'] }),
    createTestPerson({ adminUrl, roles: ['support'] }),
  ]);
  merchant = await createTestMerchant({ adminUrl, gatewayUrl: stack.urls.gateway });
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
}, 120_000);

let listId = '';
let releasedCase = '';
let reportedCase = '';
let reportedTransfer = '';

describe('the compliance desk, in the console', () => {
  it('a compliance person creates a list and uploads a version; it is in effect once a second person approves', async () => {
    const opened = await openPage(browser, `${stack.urls.admin}/console/compliance/lists`, {
      as: { person: ana },
    });
    const { page } = opened;
    await page.getByRole('heading', { level: 1, name: 'Listas de personas' }).waitFor();
    // The desk is in the navigation for a compliance person.
    await page
      .getByRole('banner')
      .getByRole('navigation')
      .getByRole('link', { name: 'Cumplimiento' })
      .waitFor();
    await page.getByText('Aún no hay listas.').waitFor();

    // A name is required; the page says so and creates nothing.
    await page.getByRole('button', { name: 'Crear lista' }).click();
    await page.getByText('Escribe el nombre de la lista.').waitFor();
    await page.getByLabel('Nombre').fill(LIST_NAME);
    await page.getByLabel('Tipo').selectOption('blocked');
    await page.getByRole('button', { name: 'Crear lista' }).click();
    await page.getByText(`Lista ${LIST_NAME} creada.`).waitFor();
    const lists = (await call(ana, 'GET', '/admin/screening/lists')).body['lists'] as {
      id: string;
      name: string;
    }[];
    listId = lists.find((l) => l.name === LIST_NAME)?.id ?? '';
    expect(listId).not.toBe('');

    // Upload without a file: refused on the page. With one: it waits for a second person.
    const upload = page.getByRole('form', { name: `Subir una versión de ${LIST_NAME}` });
    await upload.getByRole('button', { name: `Subir versión de ${LIST_NAME}` }).click();
    await upload.getByText('Elige el archivo.').waitFor();
    await upload.getByLabel('Archivo').setInputFiles({
      name: 'uif.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(LIST_CSV, 'utf8'),
    });
    await upload.getByRole('button', { name: `Subir versión de ${LIST_NAME}` }).click();
    const approvalId = await waitingApproval(page);
    const versions = page.getByRole('region', { name: `Versiones de ${LIST_NAME}` });
    await versions.getByText('Pendiente de aprobación').waitFor();
    await meetsTheBars(opened, 'console-compliance-lists-pending');

    // Not yet in effect; ana cannot approve her own upload (the API says so).
    const pending = (await call(ana, 'GET', '/admin/screening/lists')).body['lists'] as {
      id: string;
      effectiveVersion?: number;
    }[];
    expect(pending.find((l) => l.id === listId)?.effectiveVersion).toBeUndefined();
    expect((await call(ana, 'POST', `/admin/approvals/${approvalId}/approve`, { reason: 'yo' })).status).toBe(
      403,
    );

    await approveInPage(bea, approvalId, 'Lista revisada contra el oficio', 'console-compliance-approval');
    const effective = (await call(ana, 'GET', '/admin/screening/lists')).body['lists'] as {
      id: string;
      effectiveVersion?: number;
      entries?: number;
    }[];
    expect(effective.find((l) => l.id === listId)).toMatchObject({ effectiveVersion: 1, entries: 1 });

    await page.reload();
    await versions.getByText('Vigente').waitFor();
    // The version links the request that put it in effect (where who approved it is named).
    await versions.getByRole('link', { name: approvalId }).waitFor();
    const decided = await call(ana, 'GET', `/admin/approvals/${approvalId}`);
    expect(decided.body).toMatchObject({ state: 'executed', decidedBy: { label: bea.email } });
    await opened.context.close();
  }, 180_000);

  it('a held transfer is in the queue; its case is noted and released by two people', async () => {
    expect(listId).not.toBe('');
    const transferNo = await transfer(1_500, 'LOPEZ perez, juán');
    const held = await caseOf(transferNo);
    expect(held).toMatchObject({ state: 'held', releaseNeedsTwo: true });
    releasedCase = held.id;

    const opened = await openPage(browser, `${stack.urls.admin}/console/compliance`, { as: { person: ana } });
    const { page } = opened;
    await page.getByRole('heading', { level: 1, name: 'Casos' }).waitFor();
    await page.getByLabel('Estado').selectOption('held');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    const queue = page.getByRole('region', { name: 'Cola de casos' });
    const row = queue.getByRole('row').filter({ hasText: held.id });
    await row.waitFor();
    expect(await row.textContent()).toContain('Retenido');
    expect(await row.textContent()).toContain('LOPEZ perez, juán');
    await meetsTheBars(opened, 'console-compliance-cases');

    await page.getByRole('link', { name: `Ver caso ${held.id}` }).click();
    await page.getByRole('heading', { level: 1, name: `Caso ${held.id}` }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Persona revisada' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Coincidencia' }).waitFor();
    await page.getByText(`${LIST_NAME} (Bloqueadas)`).waitFor();
    await page.getByText('UIF-C-1').waitFor();
    await page.getByText('requiere una segunda persona').waitFor();
    // The operation, linked to the transfer's own page.
    const ops = page.getByRole('region', { name: 'Operaciones del caso' });
    await ops.getByRole('link', { name: transferNo }).waitFor();
    expect(await ops.textContent()).toMatch(/1,500\.00/);
    await meetsTheBars(opened, 'console-compliance-case');

    // A note: required, then added to the history.
    const notes = page.getByRole('region', { name: 'Agregar una nota' });
    await notes.getByRole('button', { name: 'Agregar nota' }).click();
    await notes.getByText('Escribe la nota.').waitFor();
    await notes.getByLabel('Nota').fill('Homónimo: otra fecha de nacimiento según el comercio');
    await notes.getByRole('button', { name: 'Agregar nota' }).click();
    await page.getByText('Nota agregada.').waitFor();
    await page
      .getByRole('list', { name: 'Historial' })
      .getByText(/Homónimo: otra fecha de nacimiento/)
      .waitFor();

    // Release: a blocked-list hit waits for a second person; nothing is sent meanwhile.
    const release = page.getByRole('region', { name: 'Liberar el pago' });
    await release.getByLabel('Motivo de la liberación (opcional)').fill('Homónimo confirmado');
    await release.getByRole('button', { name: 'Liberar pago' }).click();
    const approvalId = await waitingApproval(page);
    expect((await call(ana, 'GET', `/admin/compliance/cases/${held.id}`)).body['state']).toBe('held');
    expect(await transferStatus(transferNo)).toBe('progress');
    // Opened again, the case says it waits (linking the request) and offers no second release.
    await page.reload();
    await page.getByRole('link', { name: `Ver la solicitud ${approvalId}` }).waitFor();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('button', { name: 'Liberar pago' }).count()).resolves.toBe(0);

    await approveInPage(bea, approvalId, 'Revisé la nota: es homónimo');
    await waitFor(async () => ((await transferStatus(transferNo)) === 'success' ? true : undefined), {
      timeoutMs: 60_000,
      intervalMs: 300,
      message: `transfer ${transferNo} to succeed once released`,
    });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: `Caso ${held.id}` }).waitFor();
    await page.getByText('Liberado').first().waitFor();
    // Released: no more release or reject; closing is offered.
    await expect(page.getByRole('button', { name: 'Liberar pago' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Cerrar caso' }).waitFor();
    await opened.context.close();
  }, 180_000);

  it('another held transfer is rejected and closed as report; the report CSV downloaded from the page lists it', async () => {
    reportedTransfer = await transfer(2_000, 'Juan Perez Lopez');
    const held = await caseOf(reportedTransfer);
    reportedCase = held.id;

    const opened = await openPage(browser, `${stack.urls.admin}/console/compliance/cases/${held.id}`, {
      as: { person: ana },
    });
    const { page } = opened;
    await page.getByRole('heading', { level: 1, name: `Caso ${held.id}` }).waitFor();
    // Closing is not offered while the case holds a payout.
    await page.getByRole('button', { name: 'Rechazar pago' }).waitFor();
    await expect(page.getByRole('button', { name: 'Cerrar caso' }).count()).resolves.toBe(0);

    const reject = page.getByRole('region', { name: 'Rechazar el pago' });
    await reject.getByRole('button', { name: 'Rechazar pago' }).click();
    await reject.getByText('Escribe el motivo.').waitFor();
    expect(await transferStatus(reportedTransfer)).toBe('progress');
    await reject.getByLabel('Motivo del rechazo').fill('Coincide RFC en el oficio');
    await reject.getByRole('button', { name: 'Rechazar pago' }).click();
    await page.getByText(`Pago rechazado: transferencia ${reportedTransfer} fail.`).waitFor();
    await waitFor(async () => ((await transferStatus(reportedTransfer)) === 'fail' ? true : undefined), {
      timeoutMs: 30_000,
      intervalMs: 300,
      message: `transfer ${reportedTransfer} to fail once rejected`,
    });

    const close = page.getByRole('region', { name: 'Cerrar el caso' });
    await close.getByRole('radio', { name: 'Reportar como operación inusual' }).check();
    await close.getByLabel('Motivo del cierre').fill('Reportado a la UIF');
    await close.getByRole('button', { name: 'Cerrar caso' }).click();
    await page.getByText('Caso cerrado.').waitFor();
    await page.getByText('Reportar como operación inusual').first().waitFor();
    expect((await call(ana, 'GET', `/admin/compliance/cases/${held.id}`)).body).toMatchObject({
      state: 'closed',
      outcome: 'report',
      reason: 'Reportado a la UIF',
    });
    await meetsTheBars(opened, 'console-compliance-case-closed');

    // The report of unusual operations of today (Mexico City), downloaded as the browser does.
    await page
      .getByRole('navigation', { name: 'Mesa de cumplimiento' })
      .getByRole('link', { name: 'Reportes' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Reportes' }).waitFor();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());
    await page.getByLabel('Reporte').selectOption('unusual');
    await page.getByLabel('Desde (día de la Ciudad de México)').fill(today);
    await page.getByLabel('Hasta (incluido)').fill(today);
    await meetsTheBars(opened, 'console-compliance-reports');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Descargar CSV' }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      'operationTime,kind,amount,currency,merchant,counterpartyName,account,bank,rfcCurp,claveRastreo,caseId,ruleOrList,reason',
    );
    const row = lines.find((l) => l.includes(reportedCase));
    expect(row).toContain(`,payout,2000.00,MXN,${merchant.mchNo},Juan Perez Lopez,${CLABE},`);
    expect(row).toContain(`${LIST_NAME},Reportado a la UIF`);
    // The released case was not closed as report: not in this report.
    expect(csv).not.toContain(releasedCase);

    // A from after to is refused on the page: no link to follow.
    await page.getByLabel('Desde (día de la Ciudad de México)').fill('2026-12-31');
    await page.getByLabel('Hasta (incluido)').fill('2026-12-01');
    await page.getByText('Escribe dos días, el primero no posterior al segundo.').waitFor();
    await expect(page.getByRole('link', { name: 'Descargar CSV' }).count()).resolves.toBe(0);
    await opened.context.close();
  }, 180_000);

  it('a change of the rules waits for approval; the rules page checks its fields', async () => {
    const opened = await openPage(browser, `${stack.urls.admin}/console/compliance/rules`, {
      as: { person: ana },
      viewport: DESKTOP,
    });
    const { page } = opened;
    await page.getByRole('heading', { level: 1, name: 'Reglas de monitoreo' }).waitFor();
    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Monitoring rules' }).waitFor();
    const large = page.getByLabel('Large operation: minimum amount (MXN)');
    expect(await large.inputValue()).toBe('150000.00');
    await large.fill('12.345');
    await page.getByRole('button', { name: 'Propose change' }).click();
    await page.getByText('An amount in pesos above zero, with at most two decimals.').waitFor();
    await large.fill('200000');
    await page.getByRole('button', { name: 'Propose change' }).click();
    await page.getByText('Waiting for approval').waitFor();
    await meetsTheBars(opened, 'console-compliance-rules');
    // Not in effect until a second person approves it.
    expect((await call(ana, 'GET', '/admin/compliance/rules')).body['largeOperation']).toEqual({
      amount: 150_000,
    });
    await opened.context.close();
  }, 120_000);

  it('an auditor reads the desk and is offered no action', async () => {
    expect(releasedCase).not.toBe('');
    const opened = await openPage(browser, `${stack.urls.admin}/console/compliance/cases/${releasedCase}`, {
      as: { person: auditor },
    });
    const { page } = opened;
    await page.getByRole('heading', { level: 1, name: `Caso ${releasedCase}` }).waitFor();
    await page
      .getByRole('list', { name: 'Historial' })
      .getByText(/Homónimo: otra fecha/)
      .waitFor();
    await page.waitForLoadState('networkidle');
    await expect(
      page
        .getByRole('button')
        .filter({ hasText: /caso|nota|pago/i })
        .count(),
    ).resolves.toBe(0);
    await meetsTheBars(opened, 'console-compliance-case-auditor');

    await page.goto(`${stack.urls.admin}/console/compliance/lists`);
    await page.getByRole('heading', { level: 1, name: 'Listas de personas' }).waitFor();
    await page.getByText('Solo lectura').waitFor();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('button', { name: /Crear lista|Subir versión/ }).count()).resolves.toBe(0);

    await page.goto(`${stack.urls.admin}/console/compliance/rules`);
    await page.getByText('Operación grande: monto mínimo (MXN)').waitFor();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('button', { name: 'Proponer cambio' }).count()).resolves.toBe(0);
    // The API refuses the auditor's changes anyway.
    expect(
      (await call(auditor, 'POST', `/admin/compliance/cases/${reportedCase}/notes`, { text: 'x' })).status,
    ).toBe(403);
    await opened.context.close();
  }, 120_000);

  it('support sees no compliance navigation, and the API answers 403 on every desk route', async () => {
    const opened = await openPage(browser, `${stack.urls.admin}/console/`, { as: { person: support } });
    const { page } = opened;
    const nav = page.getByRole('banner').getByRole('navigation');
    await nav.getByRole('link', { name: 'Inicio' }).waitFor();
    await page.waitForLoadState('networkidle');
    await expect(nav.getByRole('link', { name: 'Cumplimiento' }).count()).resolves.toBe(0);
    // Typing the address: the page says it is not allowed, and shows nothing of the desk.
    await page.goto(`${stack.urls.admin}/console/compliance`);
    await page.getByRole('alert').waitFor();
    await expect(page.getByRole('region', { name: 'Cola de casos' }).count()).resolves.toBe(0);
    await opened.context.close();

    for (const [method, path, body] of [
      ['GET', '/admin/screening/lists', undefined],
      ['POST', '/admin/screening/lists', { name: 'x', kind: 'watch' }],
      ['GET', '/admin/compliance/cases', undefined],
      ['GET', `/admin/compliance/cases/${reportedCase}`, undefined],
      ['POST', `/admin/compliance/cases/${reportedCase}/notes`, { text: 'x' }],
      ['POST', `/admin/compliance/cases/${releasedCase}/close`, { outcome: 'report', reason: 'x' }],
      ['GET', '/admin/compliance/rules', undefined],
      ['GET', '/admin/compliance/reports?kind=unusual', undefined],
    ] as const) {
      expect((await call(support, method, path, body)).status, `${method} ${path}`).toBe(403);
    }
  }, 120_000);
});
