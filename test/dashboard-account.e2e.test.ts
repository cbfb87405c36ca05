import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Stack } from '@agentpay/stack';
import {
  createTestMerchant,
  createTestPerson,
  merchantClient,
  type TestMerchant,
  type TestPerson,
  waitFor,
} from '@agentpay/testing';
import { generateKeyPair, parsePublicKey } from '@agentpay/wire';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.js';
import { meetsTheBars, openPage } from './support/console.js';
import { startTestStack } from './support/stack.js';

// The merchant dashboard's account pages (CONTRACT sections 17 and 18) in a real Chromium on a 390-px phone,
// each flow as the merchant person who does it: an admin rotates the merchant's API key (add the new one,
// revoke the old) and the merchant API then refuses the old key and takes the new; a viewer is offered
// neither and is refused when forging the call; the owner invites a team member; the security history
// lists the key changes; a callback the merchant's endpoint refuses shows on the callbacks page; a person
// makes and revokes a token and ends a session of theirs. Every page meets the bars.

let stack: Stack;
let browser: Browser;
let merchant: TestMerchant & { platformKey: KeyObject };
let owner: TestPerson;
let admin: TestPerson;
let viewer: TestPerson;
let sink: Server;
let sinkUrl = '';

const fingerprintOf = (pem: string) =>
  createHash('sha256')
    .update(parsePublicKey(pem).export({ type: 'spki', format: 'der' }))
    .digest('hex');
/** How the keys page names a key to a screen reader: the first 16 hex digits in groups of four. */
const shortPrint = (fingerprint: string) => fingerprint.slice(0, 16).replace(/(.{4})(?!$)/g, '$1 ');

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

interface Key {
  id: string;
  fingerprint: string;
  status: string;
}
const keysOf = async (person: TestPerson) => {
  const answer = await dash(person, '/dashboard/api/keys');
  expect(answer.status).toBe(200);
  return answer.body['keys'] as Key[];
};

/** A `fetch` made by the page itself, with the CSRF token the tab holds: what a forged call looks like. */
const fetchFromPage = (page: Page, path: string, body?: unknown) =>
  page.evaluate(
    async ([p, b]) => {
      // Runs in the page: the tab's own storage.
      const storage = (globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } })
        .sessionStorage;
      const saved = JSON.parse(storage.getItem('agentpay.session:/dashboard/api') ?? '{}') as {
        csrfToken?: string;
      };
      const response = await fetch(p, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': saved.csrfToken ?? '' },
        ...(b === undefined ? {} : { body: JSON.stringify(b) }),
      });
      return response.status;
    },
    [path, body] as const,
  );

beforeAll(async () => {
  // The merchant's callback endpoint, refusing every callback.
  sink = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = 500;
      res.end('FAIL');
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}`;
  browser = await launchChromium();
  stack = await startTestStack({ env: { NOTIFY_RETRY_SCHEDULE: '200ms,200ms', NOTIFY_TIMEOUT_MS: '3000' } });
  merchant = await createTestMerchant({
    adminUrl: stack.urls.admin,
    gatewayUrl: stack.urls.gateway,
    appIds: ['shop'],
    fund: false,
  });
  const person = (roles: string[]) =>
    createTestPerson({
      adminUrl: stack.urls.admin,
      roles,
      mchNo: merchant.mchNo,
      gatewayUrl: stack.urls.gateway,
    });
  [owner, admin, viewer] = await Promise.all([person(['owner']), person(['admin']), person(['viewer'])]);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await new Promise((resolve) => sink?.close(resolve));
});

describe('callbacks', () => {
  it("a callback the merchant's endpoint refuses shows on the callbacks page, with the order and the answer", async () => {
    const pay = await merchant.request(
      '/gateway/pay',
      {
        bizOrderNo: `DA-${Date.now()}`,
        title: 'Dashboard callbacks',
        method: 'mex_virtual_account',
        amount: 120.5,
        notifyUrl: `${sinkUrl}/refuses`,
      },
      { appId: 'shop' },
    );
    expect(pay.envelope.code, pay.envelope.msg).toBe(0);
    const { orderNo, payBody } = pay.envelope.data as { orderNo: string; payBody: string };
    const { clabe } = JSON.parse(payBody) as { clabe: string };
    const deposit = await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clabe, amount: 120.5 }),
    });
    expect(deposit.ok).toBe(true);

    // The API: the failing delivery, given up after its two retries, and nothing of the notifier's insides.
    const failing = await waitFor(
      async () => {
        const answer = await dash(viewer, '/dashboard/api/callbacks/failures');
        const items = answer.body['items'] as { orderNo: string; status: string }[] | undefined;
        return items?.find((i) => i.orderNo === orderNo && i.status === 'failed');
      },
      { timeoutMs: 30_000, message: 'the refused callback never showed as failing' },
    );
    expect(failing).toMatchObject({ orderNo, kind: 'pay', lastHttpStatus: 500, attemptCount: 3 });
    expect(failing).not.toHaveProperty('body');
    expect(failing).not.toHaveProperty('attempts');
    expect((await dash(viewer, '/dashboard/api/callbacks/failures?cursor=nonsense')).status).toBe(400);

    const opened = await openPage(browser, `${stack.urls.gateway}/dashboard/callbacks`, {
      as: { person: viewer },
    });
    const { page } = opened;
    await page.getByRole('heading', { level: 1, name: 'Notificaciones (callbacks)' }).waitFor();
    const table = page.getByRole('region', { name: 'Notificaciones con fallas' });
    await table.getByRole('link', { name: orderNo }).waitFor();
    await table.getByText('HTTP 500').first().waitFor();
    await table.getByText('Sin más reintentos').first().waitFor();
    await page.getByText(/una URL por orden/).waitFor();
    await meetsTheBars(opened, 'dashboard-callbacks');
    await opened.context.close();
  });
});

describe('API keys', () => {
  it('an admin adds a new key and revokes the old one; the merchant API then refuses the old key and takes the new', async () => {
    const oldPrint = fingerprintOf(merchant.publicKeyPem);
    const next = generateKeyPair();
    const nextPrint = fingerprintOf(next.publicKeyPem);
    const before = await merchant.request('/gateway/options/pay-methods');
    expect(before.envelope.code).toBe(0);

    const opened = await openPage(browser, `${stack.urls.gateway}/dashboard/keys`, { as: { person: admin } });
    const { page } = opened;
    const keys = page.getByRole('list', { name: 'Llaves públicas del comercio' });
    await keys.getByText(oldPrint).waitFor();
    // The only active key cannot be revoked: it is not offered.
    expect(await page.getByRole('button', { name: /^Revocar/ }).count()).toBe(0);

    // A private key pasted by mistake is stopped in the page, and never sent.
    const pem = page.getByLabel('Llave pública (PEM)');
    await pem.fill(next.privateKeyPem);
    await page.getByRole('button', { name: 'Agregar llave' }).click();
    await page.getByText('Esto es una llave privada').waitFor();
    expect((await keysOf(admin)).length).toBe(1);

    await pem.fill(next.publicKeyPem);
    await page.getByRole('button', { name: 'Agregar llave' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Llave ${shortPrint(nextPrint)} agregada` })
      .waitFor();
    await keys.getByText(nextPrint).waitFor();
    // Both keys sign during the rotation.
    expect((await merchant.request('/gateway/options/pay-methods')).envelope.code).toBe(0);

    await page.getByRole('button', { name: `Revocar la llave ${shortPrint(oldPrint)}` }).click();
    await page.getByRole('heading', { name: `¿Revocar la llave ${shortPrint(oldPrint)}?` }).waitFor();
    await page.getByRole('button', { name: 'Sí, revocar' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Llave ${shortPrint(oldPrint)} revocada` })
      .waitFor();
    // The new key is now the only active one: nothing left to revoke is offered.
    await page.getByText('Única llave activa').waitFor();
    expect(await page.getByRole('button', { name: /^Revocar/ }).count()).toBe(0);
    await meetsTheBars(opened, 'dashboard-keys');

    const listed = await keysOf(admin);
    expect(listed.map((k) => [k.fingerprint, k.status])).toEqual([
      [oldPrint, 'revoked'],
      [nextPrint, 'active'],
    ]);

    // The documented refusal for a request signed with a key the merchant no longer has (CONTRACT section 4).
    const withOld = await merchant.request('/gateway/options/pay-methods');
    expect(withOld.envelope.code).toBe(20052);
    expect(withOld.envelope.msg).toMatch(/^signature verification failed/);
    expect(withOld.signed).toBe(true);
    const rotated = merchantClient({
      gatewayUrl: stack.urls.gateway,
      mchNo: merchant.mchNo,
      privateKeyPem: next.privateKeyPem,
      platformKey: merchant.platformKey,
    });
    const withNew = await rotated.request('/gateway/options/pay-methods');
    expect(withNew.envelope.code).toBe(0);
    expect(withNew.signed).toBe(true);
    merchant = rotated;

    // The platform key downloads as a file, the same key the admin API serves.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Descargar llave de la plataforma (.pem)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('agentpay-platform-public-key.pem');
    const platform = (await (
      await fetch(`${stack.urls.admin}/admin/platform-key`, {
        headers: { authorization: 'Bearer dev-admin-token' },
      })
    ).json()) as { publicKey: string };
    expect(readFileSync(await download.path(), 'utf8')).toBe(platform.publicKey);
    await opened.context.close();
  });

  it('the API refuses what the page does not offer: the last active key, a bad or short key, a third key, an unknown id', async () => {
    const [active] = (await keysOf(admin)).filter((k) => k.status === 'active');
    const last = await dash(admin, `/dashboard/api/keys/${active!.id}/revoke`, { method: 'POST' });
    expect(last.status).toBe(409);
    expect(String(last.body['message'])).toMatch(/only active key/);

    const notPem = await dash(admin, '/dashboard/api/keys', { body: { publicKey: 'hello' } });
    expect(notPem.status).toBe(400);
    const short = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    const weak = await dash(admin, '/dashboard/api/keys', { body: { publicKey: short } });
    expect(weak.status).toBe(400);
    expect(String(weak.body['message'])).toMatch(/2048/);
    expect((await dash(admin, '/dashboard/api/keys', { body: {} })).status).toBe(400);
    expect(
      (await dash(admin, '/dashboard/api/keys', { body: { publicKey: merchant.publicKeyPem } })).status,
    ).toBe(409);

    expect(
      (await dash(admin, '/dashboard/api/keys', { body: { publicKey: generateKeyPair().publicKeyPem } }))
        .status,
    ).toBe(201);
    const third = await dash(admin, '/dashboard/api/keys', {
      body: { publicKey: generateKeyPair().publicKeyPem },
    });
    expect(third.status).toBe(409);
    expect((await keysOf(admin)).filter((k) => k.status === 'active')).toHaveLength(2);

    const unknown = await dash(admin, '/dashboard/api/keys/00000000-0000-4000-8000-000000000000/revoke', {
      method: 'POST',
    });
    expect(unknown.status).toBe(404);
    const revoked = (await keysOf(admin)).find((k) => k.status === 'revoked');
    expect((await dash(admin, `/dashboard/api/keys/${revoked!.id}/revoke`, { method: 'POST' })).status).toBe(
      409,
    );
  });

  it('a viewer sees the fingerprints but no add or revoke, and a forged call from the page is refused with 403', async () => {
    const before = await keysOf(admin);
    const opened = await openPage(browser, `${stack.urls.gateway}/dashboard/keys`, {
      as: { person: viewer },
    });
    const { page } = opened;
    const keys = page.getByRole('list', { name: 'Llaves públicas del comercio' });
    await keys.getByText(before[0]!.fingerprint).waitFor();
    await page.getByRole('link', { name: 'Descargar llave de la plataforma (.pem)' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('button', { name: /^Revocar/ }).count()).toBe(0);
    expect(await page.getByLabel('Llave pública (PEM)').count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Agregar una llave' }).count()).toBe(0);

    expect(
      await fetchFromPage(page, '/dashboard/api/keys', { publicKey: generateKeyPair().publicKeyPem }),
    ).toBe(403);
    const active = before.find((k) => k.status === 'active')!;
    expect(await fetchFromPage(page, `/dashboard/api/keys/${active.id}/revoke`)).toBe(403);
    expect(await keysOf(admin)).toEqual(before);
    await meetsTheBars(opened, 'dashboard-keys-viewer');
    await opened.context.close();
  });
});

describe('team', () => {
  it('the owner invites a team member from the team page, who then shows in the list with the role given', async () => {
    const email = `finance-${Date.now()}@people.test`;
    const opened = await openPage(browser, `${stack.urls.gateway}/dashboard/team`, { as: { person: owner } });
    const { page } = opened;
    const list = page.getByRole('region', { name: 'Personas del comercio' });
    await list.getByText(admin.email).waitFor();
    await page.getByLabel('Nombre', { exact: true }).fill('Ana Finanzas');
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByRole('group', { name: 'Roles' }).getByLabel('Finanzas').check();
    await page.getByRole('button', { name: 'Invitar' }).click();
    await page.getByText(`Invitación creada para ${email}`).waitFor();
    const link = await page.getByLabel('Enlace de invitación').inputValue();
    expect(link).toMatch(new RegExp(`^${stack.urls.gateway}/dashboard/invitations/`));
    await list.getByText(email).waitFor();
    await list
      .getByRole('row', { name: /Ana Finanzas/ })
      .getByText('Invitación pendiente')
      .waitFor();
    await meetsTheBars(opened, 'dashboard-team');
    await opened.context.close();

    const users = (await dash(owner, '/dashboard/api/users')).body['users'] as {
      email: string;
      roles: string[];
    }[];
    expect(users.find((u) => u.email === email)?.roles).toEqual(['finance']);
    // The invitation works: the invitee is told who they are.
    const token = link.split('/').at(-1)!;
    const invitation = await fetch(`${stack.urls.gateway}/dashboard/api/invitations/${token}`);
    expect(await invitation.json()).toMatchObject({ email, name: 'Ana Finanzas', mchNo: merchant.mchNo });
  });

  it('an admin changes a member’s roles from the page; a viewer is told the team is not theirs to see', async () => {
    const opened = await openPage(browser, `${stack.urls.gateway}/dashboard/team`, { as: { person: admin } });
    const { page } = opened;
    const viewerName = viewer.email.split('@')[0]!;
    await page.getByRole('button', { name: `Cambiar a ${viewerName}` }).click();
    const form = page.getByRole('region', { name: `Cambiar a ${viewerName}` });
    // An admin does not grant the owner role: it is not offered.
    expect(await form.getByLabel('Propietario').count()).toBe(0);
    await form.getByLabel('Finanzas').check();
    await form.getByRole('button', { name: 'Guardar roles' }).click();
    await page.getByText(`Cambios guardados para ${viewerName}`).waitFor();
    const users = (await dash(owner, '/dashboard/api/users')).body['users'] as {
      email: string;
      roles: string[];
    }[];
    expect(users.find((u) => u.email === viewer.email)?.roles).toEqual(['finance', 'viewer']);
    await opened.context.close();
    // Back as it was, for the viewer's other tests.
    expect(
      (
        await dash(owner, `/dashboard/api/users/${viewer.id}`, {
          method: 'PATCH',
          body: { roles: ['viewer'] },
        })
      ).status,
    ).toBe(200);

    const asViewer = await openPage(browser, `${stack.urls.gateway}/dashboard/team`, {
      as: { person: viewer },
    });
    await asViewer.page.getByText('Tu rol no permite ver el equipo').waitFor();
    expect(await asViewer.page.getByRole('button', { name: 'Invitar' }).count()).toBe(0);
    await meetsTheBars(asViewer, 'dashboard-team-viewer');
    await asViewer.context.close();
  });
});

describe('security history', () => {
  it("lists the key changes under the admin's name, newest first, paged by the server", async () => {
    const opened = await openPage(browser, `${stack.urls.gateway}/dashboard/security`, {
      as: { person: owner },
    });
    const { page } = opened;
    const list = page.getByRole('region', { name: 'Entradas del historial' });
    const added = list
      .getByRole('row')
      .filter({ hasText: 'Llave agregada' })
      .filter({ hasText: admin.email });
    const revoked = list
      .getByRole('row')
      .filter({ hasText: 'Llave revocada' })
      .filter({ hasText: admin.email });
    await added.first().waitFor();
    await revoked.first().waitFor();
    // The refused attempts (the last key, a third key) are there too, as failures.
    await list
      .getByRole('row')
      .filter({ hasText: 'Llave revocada' })
      .filter({ hasText: 'Falló' })
      .first()
      .waitFor();
    await meetsTheBars(opened, 'dashboard-security');
    await opened.context.close();

    // Paged: small pages follow one another without a gap or a repeat.
    const first = await dash(owner, '/dashboard/api/audit?limit=3');
    const cursor = first.body['nextCursor'] as string;
    expect(cursor).toBeTruthy();
    const second = await dash(owner, `/dashboard/api/audit?limit=3&cursor=${cursor}`);
    const ids = [
      ...(first.body['entries'] as { id: string }[]),
      ...(second.body['entries'] as { id: string }[]),
    ].map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(6);
    // Only this merchant's entries, whatever the browser asks for.
    const other = await dash(owner, '/dashboard/api/audit?mchNo=SOMEONE-ELSE');
    expect((other.body['entries'] as unknown[]).length).toBeGreaterThan(0);
    expect((other.body['entries'] as { mchNo: string }[]).every((e) => e.mchNo === merchant.mchNo)).toBe(
      true,
    );

    const asViewer = await openPage(browser, `${stack.urls.gateway}/dashboard/security`, {
      as: { person: viewer },
    });
    await asViewer.page.getByText('Tu rol no permite ver el historial de seguridad').waitFor();
    await asViewer.context.close();
  });
});

describe('my account', () => {
  it('a person makes a token with roles within theirs, sees its secret once, revokes it, and ends another session', async () => {
    const other = await admin.signIn();
    const opened = await openPage(browser, `${stack.urls.gateway}/dashboard/me`, { as: { person: admin } });
    const { page } = opened;
    const sessions = page.getByRole('region', { name: 'Sesiones abiertas' });
    await sessions.getByText('Esta sesión').waitFor();
    // Only the admin's own role is offered.
    const roles = page.getByRole('group', { name: 'Roles' });
    await roles.getByLabel('Administrador').waitFor();
    expect(await roles.getByRole('checkbox').count()).toBe(1);
    await page.getByLabel('Nombre', { exact: true }).fill('script de conciliación');
    await roles.getByLabel('Administrador').check();
    await page.getByRole('button', { name: 'Crear token' }).click();
    const secret = await page.getByLabel('Token', { exact: true }).inputValue();
    expect(secret).toMatch(/^apt_/);
    const withToken = await fetch(`${stack.urls.gateway}/dashboard/api/keys`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(withToken.status).toBe(200);
    await meetsTheBars(opened, 'dashboard-me');

    await page.getByRole('button', { name: 'Revocar el token script de conciliación' }).click();
    await page.getByText('Token revocado.').waitFor();
    const afterRevoke = await fetch(`${stack.urls.gateway}/dashboard/api/keys`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(afterRevoke.status).toBe(401);

    // The other session (signed in elsewhere) ends from here; this one is not offered, and stays.
    const otherCookie = { cookie: other.cookie };
    expect((await fetch(`${stack.urls.gateway}/dashboard/api/me`, { headers: otherCookie })).status).toBe(
      200,
    );
    const endButtons = sessions.getByRole('button', { name: /^Terminar/ });
    expect(await endButtons.count()).toBe(1);
    await endButtons.click();
    await page.getByText('Sesión terminada.').waitFor();
    await endButtons.waitFor({ state: 'detached' });
    await sessions.getByText('Esta sesión').waitFor();
    expect((await fetch(`${stack.urls.gateway}/dashboard/api/me`, { headers: otherCookie })).status).toBe(
      401,
    );
    expect((await dash(admin, '/dashboard/api/me')).status).toBe(200);
    await opened.context.close();
  });
});
