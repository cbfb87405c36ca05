import { createServer, type Server } from 'node:http';
import type { Stack } from '@agentpay/stack';
import { createTestMerchant, createTestPerson, type TestMerchant, type TestPerson } from '@agentpay/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.js';
import { PHONE } from './support/console.js';
import { startTestStack } from './support/stack.js';

// A second tab is signed in too (CONTRACT sections 17 and 18): a person signs in through the page in one
// tab, then opens an order in a new tab of the same browser (an order opened beside the list, a link from an
// e-mail). The new tab has the session cookie but not the first tab's sessionStorage, where the apps keep
// the CSRF token: it asks the server for it (`GET /dashboard/api/session`, `GET /console/api/session`) and
// shows the order, not the sign-in form, and its actions carry the recovered token. The call answers only
// to the session's own cookie; a page of another site can neither send that cookie (SameSite=Strict) nor
// read the answer (no CORS header).

let stack: Stack;
let browser: Browser;
let shop: TestMerchant;
let shopPerson: TestPerson;
let operator: TestPerson;
let orderNo = '';
/** A page of another site (localhost, while the stack is at 127.0.0.1), for what it must not read. */
let elsewhere: Server;
let elsewhereUrl = '';

interface Surface {
  name: string;
  /** The origin the surface is served on, and its browser calls' base. */
  origin: () => string;
  api: '/console/api' | '/dashboard/api';
  /** Where a person's own tokens are made (a state-changing call that needs the CSRF token). */
  tokens: string;
  person: () => TestPerson;
}

const surfaces: Surface[] = [
  {
    name: 'dashboard',
    origin: () => stack.urls.gateway,
    api: '/dashboard/api',
    tokens: '/dashboard/api/me/tokens',
    person: () => shopPerson,
  },
  {
    name: 'console',
    origin: () => stack.urls.admin,
    api: '/console/api',
    tokens: '/admin/me/tokens',
    person: () => operator,
  },
];

async function call(url: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(url, { method: init.method ?? 'GET', headers: init.headers ?? {} });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
  };
}

/** The CSRF token a tab keeps in its sessionStorage ('' when it has none). */
const csrfOf = (page: Page, base: string) =>
  page.evaluate<string>(
    `JSON.parse(sessionStorage.getItem('agentpay.session:${base}') ?? '{}').csrfToken ?? ''`,
  );

/** A state-changing call made from inside the page with the CSRF token its tab holds: its status. */
const makeToken = (page: Page, path: string, csrf: string, roles: string[]) =>
  page.evaluate<number, { path: string; csrf: string; roles: string[] }>(
    async ({ path, csrf, roles }) =>
      (
        await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
          body: JSON.stringify({ name: 'second tab', roles, expiresInDays: 1 }),
          credentials: 'same-origin',
        })
      ).status,
    { path, csrf, roles },
  );

/** Signs `person` in through the sign-in page of a new browser context, with a recovery code. */
async function signedInTab(surface: Surface): Promise<{ context: BrowserContext; first: Page }> {
  const person = surface.person();
  const context = await browser.newContext({ viewport: PHONE, locale: 'es-MX' });
  const first = await context.newPage();
  await first.goto(`${surface.origin()}/${surface.name}/sign-in`);
  await first.getByLabel('Correo electrónico').fill(person.email);
  await first.getByLabel('Contraseña').fill(person.password);
  await first.getByLabel('Código de verificación').fill(person.recoveryCodes.shift() ?? '');
  await first.getByRole('button', { name: 'Entrar' }).click();
  await first.getByRole('button', { name: 'Cerrar sesión' }).waitFor();
  expect(await csrfOf(first, surface.api)).not.toBe('');
  return { context, first };
}

beforeAll(async () => {
  browser = await launchChromium();
  stack = await startTestStack();
  shop = await createTestMerchant({ adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway });
  [shopPerson, operator] = await Promise.all([
    createTestPerson({
      adminUrl: stack.urls.admin,
      gatewayUrl: stack.urls.gateway,
      roles: ['admin'],
      mchNo: shop.mchNo,
    }),
    createTestPerson({ adminUrl: stack.urls.admin, roles: ['support'] }),
  ]);
  const pay = await shop.request('/gateway/pay', {
    bizOrderNo: `TAB-${Date.now()}`,
    title: 'Orden en otra pestaña',
    method: 'mex_virtual_account',
    amount: 321.5,
  });
  expect(pay.envelope.code, JSON.stringify(pay.envelope)).toBe(0);
  orderNo = (pay.envelope.data as { orderNo: string }).orderNo;

  const page = `<!doctype html><html lang="en"><head><title>elsewhere</title></head><body><p>another site</p></body></html>`;
  elsewhere = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
  await new Promise<void>((resolve) => elsewhere.listen(0, 'localhost', resolve));
  elsewhereUrl = `http://localhost:${(elsewhere.address() as { port: number }).port}/`;
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await new Promise((resolve) => elsewhere?.close(resolve));
});

for (const surface of surfaces)
  describe(`GET ${surface.api}/session`, () => {
    it("answers a valid cookie's own CSRF token and person, never cached, with no CORS header", async () => {
      const person = surface.person();
      const session = await person.signIn();
      const before = await call(`${surface.origin()}${surface.tokens.replace('/tokens', '/sessions')}`, {
        headers: { cookie: session.cookie },
      });
      const answer = await call(`${surface.origin()}${surface.api}/session`, {
        headers: { cookie: session.cookie, origin: 'https://evil.example' },
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        csrfToken: session.csrfToken,
        user: {
          id: person.id,
          email: person.email,
          roles: person.roles,
          ...(surface.name === 'dashboard' && { mchNo: shop.mchNo }),
        },
      });
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
      // Reading it changes nothing: the same sessions, none made or ended.
      const after = await call(`${surface.origin()}${surface.tokens.replace('/tokens', '/sessions')}`, {
        headers: { cookie: session.cookie },
      });
      expect((after.body['sessions'] as { id: string }[]).map((s) => s.id).sort()).toEqual(
        (before.body['sessions'] as { id: string }[]).map((s) => s.id).sort(),
      );
    });

    it('answers 401 without a cookie, to an ended session, to a wrong cookie and to a bearer token', async () => {
      const person = surface.person();
      const url = `${surface.origin()}${surface.api}/session`;
      expect((await call(url)).status).toBe(401);
      const session = await person.signIn();
      const [name] = session.cookie.split('=');
      expect((await call(url, { headers: { cookie: `${name}=not-a-session` } })).status).toBe(401);
      expect((await call(url, { headers: { authorization: `Bearer ${person.token}` } })).status).toBe(401);
      const ended = await call(url, {
        method: 'DELETE',
        headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken },
      });
      expect(ended.status).toBe(204);
      const after = await call(url, { headers: { cookie: session.cookie } });
      expect(after.status).toBe(401);
      expect(JSON.stringify(after.body)).not.toContain(session.csrfToken);
    });
  });

describe('a second tab in Chromium', { timeout: 120_000 }, () => {
  it('a merchant signed in to the dashboard opens an order in a new tab: the order shows, not the sign-in form', async () => {
    const surface = surfaces[0]!;
    const { context, first } = await signedInTab(surface);
    const second = await context.newPage();
    await second.goto(`${surface.origin()}/dashboard/orders/${orderNo}`);
    await second.getByRole('heading', { level: 1, name: `Orden ${orderNo}` }).waitFor();
    await second.getByText('$321.50').first().waitFor();
    await expect(second.getByLabel('Código de verificación').count()).resolves.toBe(0);
    await expect(second.getByRole('link', { name: shopPerson.email }).count()).resolves.toBe(1);
    // The new tab holds the session's own token, and a change made from it is accepted.
    const token = await csrfOf(second, surface.api);
    expect(token).toBe(await csrfOf(first, surface.api));
    expect(await makeToken(second, surface.tokens, token, surface.person().roles)).toBe(201);
    await context.close();
  });

  it('an operator signed in to the console opens an order in a new tab: the order and its actions, no sign-in', async () => {
    const surface = surfaces[1]!;
    const { context, first } = await signedInTab(surface);
    const second = await context.newPage();
    await second.goto(`${surface.origin()}/console/orders/${orderNo}`);
    await second.getByRole('heading', { level: 1, name: `Orden ${orderNo}` }).waitFor();
    await second.getByRole('button', { name: 'Sincronizar con el canal' }).waitFor();
    await expect(second.getByLabel('Código de verificación').count()).resolves.toBe(0);
    await expect(second.getByRole('link', { name: operator.email }).count()).resolves.toBe(1);
    const token = await csrfOf(second, surface.api);
    expect(token).toBe(await csrfOf(first, surface.api));
    expect(await makeToken(second, surface.tokens, token, surface.person().roles)).toBe(201);

    // Signed out in the first tab, the second tab's next page load asks again and shows the sign-in form.
    await first.getByRole('button', { name: 'Cerrar sesión' }).click();
    await first.getByLabel('Código de verificación').waitFor();
    await second.goto(`${surface.origin()}/console/orders/${orderNo}`);
    await second.getByLabel('Código de verificación').waitFor();
    expect(await csrfOf(second, surface.api)).toBe('');
    await context.close();
  });

  it('a page of another site, in the same browser, gets no session: the cookie stays home and the answer is unreadable', async () => {
    const surface = surfaces[0]!;
    const { context } = await signedInTab(surface);
    const page = await context.newPage();
    await page.goto(elsewhereUrl);
    const url = `${surface.origin()}${surface.api}/session`;
    // No CORS header: the other site's script cannot read the answer, with or without a cookie.
    const read = await page.evaluate<string, string>(
      (target) =>
        fetch(target, { credentials: 'include' }).then(
          async (r) => `read ${r.status} ${await r.text()}`,
          () => 'refused',
        ),
      url,
    );
    expect(read).toBe('refused');
    // SameSite=Strict: even a link the other site makes the person follow carries no cookie (Lax would send
    // it on a top-level navigation): the server knows nobody.
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url() === url),
      page.evaluate(`location.href = ${JSON.stringify(url)}`),
    ]);
    expect(answer.status()).toBe(401);
    expect(await answer.text()).not.toMatch(/csrfToken/);
    await context.close();
  });
});
