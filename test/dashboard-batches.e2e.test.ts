import type { Stack } from '@agentpay/stack';
import {
  createTestMerchant,
  createTestPerson,
  type TestMerchant,
  type TestPerson,
  totpCode,
  waitFor,
} from '@agentpay/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.js';
import { meetsTheBars, openPage } from './support/console.js';
import { startTestStack } from './support/stack.js';

// Batch payouts on the merchant dashboard (CONTRACT section 21) in a real Chromium on a 390-px phone, each
// step as the merchant person who does it: a finance person uploads a CSV with bad rows and sees each row's
// error, and nothing can be requested or is sent; the fixed file (Spanish headers) is requested, and nothing
// leaves yet; the requester is not offered the approval (and the API refuses it); a second person, an admin,
// approves it with a current authenticator code, and only then does the batch exist and its payouts leave.
// A viewer sees the requests but is offered neither the upload nor the approval.

const CLABE = '002010077777777771'; // BANAMEX, 40002
const BAD_CLABE = '002010077777777772';

let stack: Stack;
let browser: Browser;
let merchant: TestMerchant;
let finance: TestPerson;
let admin: TestPerson;
let viewer: TestPerson;

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

const balance = async () => {
  const reply = await merchant.request('/gateway/query/balance');
  expect(reply.envelope.code, reply.envelope.msg).toBe(0);
  return reply.envelope.data as { available: number; frozen: number };
};

beforeAll(async () => {
  browser = await launchChromium();
  stack = await startTestStack({ readyTimeoutMs: 180_000 });
  merchant = await createTestMerchant({ adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway });
  // Their sign-in spends a recovery code, not the next step's TOTP code, so the codes the test approves
  // with are still unused whatever the clock (an approval takes a code of a later step than any spent).
  const person = (roles: string[]) =>
    createTestPerson({
      adminUrl: stack.urls.admin,
      roles,
      mchNo: merchant.mchNo,
      gatewayUrl: stack.urls.gateway,
      firstSignIn: 'recovery-code',
    });
  [finance, admin, viewer] = await Promise.all([person(['finance']), person(['admin']), person(['viewer'])]);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('batch payouts on the dashboard', () => {
  it('a CSV with bad rows shows each row’s error and sends nothing; a good one leaves only after a second person approves it with a code', async () => {
    const ref = `NOM-${Date.now()}`;
    const before = await balance();
    const upload = await openPage(browser, `${stack.urls.gateway}/dashboard/batches`, {
      as: { person: finance },
    });
    const { page } = upload;
    await page.getByRole('heading', { level: 1, name: 'Dispersiones' }).waitFor();

    // A file with two bad rows: every row is shown, each bad one with its error; nothing can be requested.
    const badCsv = [
      'referencia,monto,clabe,beneficiario',
      `${ref}-1,1500.00,${CLABE},Ana Pérez`,
      `${ref}-2,12.345,${CLABE},Luis Gómez`,
      `${ref}-3,80,${BAD_CLABE},Eva Ruiz`,
    ].join('\n');
    await page.getByLabel('Archivo CSV').setInputFiles({
      name: 'nomina.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(badCsv),
    });
    await page.getByLabel('Referencia del lote').fill(ref);
    await page.getByRole('button', { name: 'Revisar' }).click();
    const review = page.getByRole('region', { name: 'Filas del archivo' });
    await review.waitFor();
    await page.getByText('El archivo tiene errores en 2 filas').waitFor();
    await review
      .getByRole('row')
      .filter({ hasText: `${ref}-1` })
      .getByText('Correcta')
      .waitFor();
    await review
      .getByRole('row')
      .filter({ hasText: `${ref}-2` })
      .getByText('amount: monto inválido')
      .waitFor();
    await review
      .getByRole('row')
      .filter({ hasText: `${ref}-3` })
      .getByText('payeeAccount: CLABE inválida')
      .waitFor();
    expect(await page.getByRole('button', { name: 'Solicitar envío' }).count()).toBe(0);
    await meetsTheBars(upload, 'dashboard-batch-errors');
    // Even asked directly, a file with errors is refused with every row's errors, and nothing is stored.
    const forced = await dash(finance, '/dashboard/api/batches', { body: { bizBatchNo: ref, csv: badCsv } });
    expect(forced.status).toBe(400);
    expect((forced.body['check'] as { ok: boolean }).ok).toBe(false);
    expect((await dash(finance, '/dashboard/api/batches')).body['items']).toEqual([]);

    // The fixed file (Spanish headers, another column order) is correct and is requested.
    const goodCsv = [
      'Beneficiario,CLABE,Monto,Referencia,Concepto',
      `Ana Pérez,${CLABE},1500.00,${ref}-1,Nómina`,
      `Luis Gómez,${CLABE},12.35,${ref}-2,Nómina`,
      `Eva Ruiz,${CLABE},80,${ref}-3,Nómina`,
    ].join('\n');
    await page.getByLabel('Archivo CSV').setInputFiles({
      name: 'nomina.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(goodCsv),
    });
    await page.getByRole('button', { name: 'Revisar' }).click();
    await page.getByText('Todas las filas están correctas.').waitFor();
    await page.getByText('3 filas').waitFor();
    await page.getByRole('button', { name: 'Solicitar envío' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Solicitud ${ref} registrada` })
      .waitFor();
    const requests = page.getByRole('region', { name: 'Solicitudes de dispersión' });
    const mine = requests.getByRole('row').filter({ hasText: ref });
    await mine.getByText('Por aprobar').waitFor();
    await mine.getByText('La aprueba otra persona.').waitFor();
    expect(await page.getByRole('button', { name: /^Aprobar/ }).count()).toBe(0);
    await meetsTheBars(upload, 'dashboard-batch-requested');
    await upload.context.close();

    // Nothing has left: no batch, no transfer, nothing frozen.
    expect((await merchant.request('/gateway/query/transferBatch', { bizBatchNo: ref })).envelope.code).toBe(
      40004,
    );
    expect(
      (await merchant.request('/gateway/query/transferOrder', { bizTransferNo: `${ref}-1` })).envelope.code,
    ).toBe(40004);
    expect(await balance()).toEqual(before);

    // The requester cannot approve it, even with a good code and a forged call.
    const [request] = (await dash(finance, '/dashboard/api/batches')).body['items'] as { id: string }[];
    const self = await dash(finance, `/dashboard/api/batches/${request!.id}/approve`, {
      body: { code: totpCode(finance.totpSecret, 1) },
    });
    expect(self.status).toBe(403);
    // A second person with a wrong code is refused too, and nothing leaves.
    const wrong = await dash(admin, `/dashboard/api/batches/${request!.id}/approve`, {
      body: { code: '000000' },
    });
    expect(wrong.status).toBe(403);
    expect((await merchant.request('/gateway/query/transferBatch', { bizBatchNo: ref })).envelope.code).toBe(
      40004,
    );

    // A viewer sees the request, but is offered neither the upload nor the approval.
    const looking = await openPage(browser, `${stack.urls.gateway}/dashboard/batches`, {
      as: { person: viewer },
    });
    await looking.page
      .getByRole('region', { name: 'Solicitudes de dispersión' })
      .getByRole('row')
      .filter({ hasText: ref })
      .getByText('Por aprobar')
      .waitFor();
    expect(await looking.page.getByLabel('Archivo CSV').count()).toBe(0);
    expect(await looking.page.getByRole('button', { name: /^Aprobar/ }).count()).toBe(0);
    await looking.context.close();
    // And the API refuses a viewer every change: checking, requesting, approving, rejecting.
    for (const [path, body] of [
      ['/dashboard/api/batches/check', { csv: badCsv }],
      ['/dashboard/api/batches', { bizBatchNo: `${ref}-v`, csv: goodCsv }],
      [`/dashboard/api/batches/${request!.id}/approve`, { code: totpCode(viewer.totpSecret, 1) }],
      [`/dashboard/api/batches/${request!.id}/reject`, {}],
    ] as const) {
      expect((await dash(viewer, path, { body })).status, path).toBe(403);
    }

    // The admin, a second person, approves it with a current code of their authenticator.
    const approving = await openPage(browser, `${stack.urls.gateway}/dashboard/batches`, {
      as: { person: admin },
    });
    const theirs = approving.page
      .getByRole('region', { name: 'Solicitudes de dispersión' })
      .getByRole('row')
      .filter({ hasText: ref });
    await theirs.getByText('Por aprobar').waitFor();
    // The sign-in spent this step's code: the next step's is current too (one step of drift is allowed).
    const approvedStep = Math.floor(Date.now() / 30_000) + 1;
    await approving.page
      .getByLabel(`Código del autenticador para ${ref}`)
      .fill(totpCode(admin.totpSecret, 1));
    await approving.page.getByRole('button', { name: `Aprobar ${ref}` }).click();
    await approving.page
      .getByRole('status')
      .filter({ hasText: `Dispersión ${ref} aprobada` })
      .waitFor();
    await theirs.getByText('Aprobada').waitFor();
    await meetsTheBars(approving, 'dashboard-batch-approved');
    await approving.context.close();

    // Only now does the batch exist, and its three payouts leave and end.
    const done = await waitFor(
      async () => {
        const reply = await merchant.request('/gateway/query/transferBatch', { bizBatchNo: ref });
        const data = reply.envelope.data as { status?: string; count?: number; successCount?: number } | null;
        return data?.status === 'done' ? data : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500, message: `batch ${ref} to be done` },
    );
    expect(done).toMatchObject({ count: 3, successCount: 3 });
    const item = await merchant.request('/gateway/query/transferOrder', { bizTransferNo: `${ref}-2` });
    expect(item.envelope.data).toMatchObject({ amount: 12.35, status: 'success', payeeName: 'Luis Gómez' });
    // Approving again creates nothing twice. (With a code of a later step than the one just spent: a spent
    // step's code is refused before anything else, 403.)
    while (Math.floor(Date.now() / 30_000) + 1 <= approvedStep)
      await new Promise((resolve) => setTimeout(resolve, 500));
    const again = await dash(admin, `/dashboard/api/batches/${request!.id}/approve`, {
      body: { code: totpCode(admin.totpSecret, 1) },
    });
    expect(again.status).toBe(409);
  }, 300_000);
});
