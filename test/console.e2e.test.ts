import { createHmac, randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Stack } from '@agentpay/stack';
import { createTestPerson } from '@agentpay/testing';
import { generateKeyPair } from '@agentpay/wire';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeProblems, horizontalOverflow, launchChromium } from './support/browser.js';
import { openPage, meetsTheBars as pageMeetsTheBars } from './support/console.js';
import { startTestStack } from './support/stack.js';

// The operator console (/console/ on the admin port) and the merchant dashboard (/dashboard/ on the public
// port) in a real Chromium, built by `npm install` and served by the gateway: every page on a 390-px phone
// with no sideways scroll, no serious or critical axe-core finding, a strict CSP and no request leaving the
// origin; sign-in and invitation as the person does them. `CONSOLE_SCREENSHOTS=1` copies the screenshots
// into docs/console/.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 860 };
const ADMIN = { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' };
const SHOTS = mkdtempSync(join(tmpdir(), 'agentpay-console-'));
const DOCS_SHOTS = new URL('../docs/console/', import.meta.url).pathname;

let stack: Stack;
let browser: Browser | Error;
const tag = randomBytes(3).toString('hex').toUpperCase();
const merchants = ['A', 'B', 'C'].map((letter) => ({
  mchNo: `CON${tag}${letter}`,
  name: `Tienda ${letter} ${tag}`,
}));

interface Opened {
  context: BrowserContext;
  page: Page;
  /** Requests the page made to anywhere but its own origin. */
  foreign: string[];
  violations(): Promise<string[]>;
  csp: string | undefined;
}

/**
 * Opens `url` as an operator. Until a test signs in through the page, the context carries the development
 * ADMIN_TOKEN (the built-in system:dev, CONTRACT section 17) in place of a session.
 */
async function open(
  url: string,
  opts: { viewport?: { width: number; height: number }; locale?: string; asDev?: boolean } = {},
): Promise<Opened> {
  if (browser instanceof Error) throw browser;
  const origin = new URL(url).origin;
  const context = await browser.newContext({
    viewport: opts.viewport ?? PHONE,
    locale: opts.locale ?? 'es-MX',
    ...(opts.asDev !== false && { extraHTTPHeaders: { authorization: ADMIN.authorization } }),
  });
  await context.addInitScript(`
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
  `);
  const foreign: string[] = [];
  context.on('request', (request) => {
    if (new URL(request.url()).origin !== origin) foreign.push(request.url());
  });
  const page = await context.newPage();
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  return {
    context,
    page,
    foreign,
    violations: () => page.evaluate<string[]>('window.cspViolations'),
    csp: response?.headers()['content-security-policy'],
  };
}

/** The bars every page meets (docs/console.md "Quality bars"). */
async function meetsTheBars(opened: Opened, name: string) {
  const { page } = opened;
  await page.waitForLoadState('networkidle');
  expect(opened.csp).toMatch(/default-src 'self'/);
  expect(opened.csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
  expect(await axeProblems(page), name).toEqual([]);
  expect(await horizontalOverflow(page), `${name} scrolls sideways`).toBeLessThanOrEqual(0);
  expect(await opened.violations(), name).toEqual([]);
  expect(opened.foreign, name).toEqual([]);
  await screenshot(page, name);
}

async function screenshot(page: Page, name: string) {
  const file = join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  if (process.env['CONSOLE_SCREENSHOTS']) {
    mkdirSync(DOCS_SHOTS, { recursive: true });
    copyFileSync(file, join(DOCS_SHOTS, `${name}.png`));
  }
}

/** RFC 6238 (30 s, 6 digits, SHA-1) from a Base32 secret: what a person's authenticator app shows. */
function totp(base32: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of base32.replace(/=+$/, '').toUpperCase()) {
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  }
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0xf;
  const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(code).padStart(6, '0');
}

beforeAll(async () => {
  browser = await launchChromium().catch((err: Error) => err);
  stack = await startTestStack();
  for (const m of merchants) {
    const created = await fetch(`${stack.urls.admin}/admin/merchants`, {
      method: 'POST',
      headers: ADMIN,
      body: JSON.stringify({ ...m, publicKey: generateKeyPair().publicKeyPem }),
    });
    expect(created.status, await created.text()).toBe(201);
  }
});

afterAll(async () => {
  if (browser && !(browser instanceof Error)) await browser.close();
  await stack?.stop();
  rmSync(SHOTS, { recursive: true, force: true });
});

describe('how the apps are served', () => {
  it('the console is served on the admin port with a strict CSP, hashed assets cached a year, index.html not cached, client routes falling back to it', async () => {
    const index = await fetch(`${stack.urls.admin}/console/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await index.text();
    const script = /src="(\/console\/assets\/app-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(html).not.toMatch(/<script>|https?:\/\//);

    const asset = await fetch(`${stack.urls.admin}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    const deep = await fetch(`${stack.urls.admin}/console/merchants/ANY`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toBe(html);
    expect((await fetch(`${stack.urls.admin}/console/assets/nope.js`)).status).toBe(404);
    // The console is not on the public port, nor the dashboard on the admin port.
    expect((await fetch(`${stack.urls.gateway}/console/`)).status).toBe(404);
    const dashboard = await fetch(`${stack.urls.gateway}/dashboard/`);
    expect(dashboard.status).toBe(200);
    expect(dashboard.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('GET /admin/merchants pages by merchant number on the server and searches number prefix or name', async () => {
    const first = await fetch(`${stack.urls.admin}/admin/merchants?search=CON${tag}&limit=2`, {
      headers: ADMIN,
    });
    expect(first.status).toBe(200);
    const page1 = (await first.json()) as { items: { mchNo: string }[]; next?: string };
    expect(page1.items.map((m) => m.mchNo)).toEqual([merchants[0]?.mchNo, merchants[1]?.mchNo]);
    expect(page1.next).toBeDefined();
    const second = await fetch(
      `${stack.urls.admin}/admin/merchants?search=CON${tag}&limit=2&cursor=${page1.next}`,
      { headers: ADMIN },
    );
    const page2 = (await second.json()) as { items: { mchNo: string }[]; next?: string };
    expect(page2.items.map((m) => m.mchNo)).toEqual([merchants[2]?.mchNo]);
    expect(page2.next).toBeUndefined();
    const byName = (await (
      await fetch(`${stack.urls.admin}/admin/merchants?search=${encodeURIComponent(`b ${tag}`)}`, {
        headers: ADMIN,
      })
    ).json()) as { items: { mchNo: string }[] };
    expect(byName.items.map((m) => m.mchNo)).toEqual([merchants[1]?.mchNo]);
    // A wildcard in the search is a character, not a pattern.
    const wild = (await (
      await fetch(`${stack.urls.admin}/admin/merchants?search=%25`, { headers: ADMIN })
    ).json()) as {
      items: unknown[];
    };
    expect(wild.items).toEqual([]);
    expect((await fetch(`${stack.urls.admin}/admin/merchants?limit=0`, { headers: ADMIN })).status).toBe(400);
  });
});

describe('the operator console in Chromium', { timeout: 120_000 }, () => {
  it('sign-in page, on a phone in Spanish: labelled fields, a wrong code is refused without saying which part', async () => {
    const opened = await open(`${stack.urls.admin}/console/sign-in`, { asDev: false });
    const { page } = opened;
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Iniciar sesión');
    await meetsTheBars(opened, 'console-sign-in');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByText('Falta este dato.').first().waitFor();
    await page.getByLabel('Correo electrónico').fill('nadie@example.com');
    await page.getByLabel('Contraseña').fill('una contraseña cualquiera');
    await page.getByLabel('Código de verificación').fill('123456');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('alert').waitFor();
    const alert = await page.getByRole('alert').textContent();
    expect(alert).toBe('El correo, la contraseña o el código no son correctos.');
    await opened.context.close();
  });

  it('home, merchants, a merchant, routes and reconciliation: each meets the bars on a phone', async () => {
    const opened = await open(`${stack.urls.admin}/console/`);
    const { page } = opened;
    await page.getByRole('heading', { level: 1, name: 'Inicio' }).waitFor();
    await page.getByText(/de \d+ rutas sanas/).waitFor();
    await meetsTheBars(opened, 'console-home');

    await page
      .getByRole('navigation', { name: 'Secciones' })
      .getByRole('link', { name: 'Comercios' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Comercios' }).waitFor();
    await page.getByLabel('Buscar por número o nombre').fill(`CON${tag}`);
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.getByRole('link', { name: merchants[2]?.mchNo ?? '' }).waitFor();
    expect(page.url()).toContain(`search=CON${tag}`);
    await meetsTheBars(opened, 'console-merchants');

    await page.getByRole('link', { name: merchants[1]?.mchNo ?? '' }).click();
    await page
      .getByRole('heading', { level: 1, name: `${merchants[1]?.name} (${merchants[1]?.mchNo})` })
      .waitFor();
    await page.getByText(/%.*\$0\.00 por orden/).waitFor();
    await meetsTheBars(opened, 'console-merchant');
    await page.getByRole('button', { name: 'Deshabilitar', exact: true }).click();
    await page.getByRole('button', { name: 'Habilitar', exact: true }).waitFor();
    const after = (await (
      await fetch(`${stack.urls.admin}/admin/merchants/${merchants[1]?.mchNo}`, { headers: ADMIN })
    ).json()) as { status: string };
    expect(after.status).toBe('disabled');

    await page.getByRole('link', { name: 'Rutas' }).click();
    await page.getByRole('heading', { level: 1, name: 'Rutas' }).waitFor();
    await page.getByRole('table').waitFor();
    await meetsTheBars(opened, 'console-routes');

    await page.getByRole('link', { name: 'Conciliación' }).click();
    await page.getByRole('heading', { level: 1, name: 'Conciliación' }).waitFor();
    await page
      .getByText(/Nada que mostrar|Día/)
      .first()
      .waitFor();
    await meetsTheBars(opened, 'console-reconciliation');
    await opened.context.close();
  });

  it('a route weight changed from the routes page reaches the router (or waits for a second person)', async () => {
    const opened = await open(`${stack.urls.admin}/console/routes`, { viewport: DESKTOP });
    const { page } = opened;
    const weight = page.getByLabel(/^Peso de /).first();
    await weight.waitFor();
    await weight.fill('7');
    await page.getByRole('button', { name: 'Guardar' }).first().click();
    const status = page.getByRole('status').filter({ hasText: /Cambio guardado|aprobación/ });
    await status.waitFor();
    const routes = (await (await fetch(`${stack.urls.admin}/admin/routes`, { headers: ADMIN })).json()) as {
      routes: { weight: number }[];
    };
    if ((await status.textContent())?.includes('Cambio guardado')) expect(routes.routes[0]?.weight).toBe(7);
    else expect(routes.routes[0]?.weight).not.toBe(7);
    await opened.context.close();
  });

  it('switches to English and stays in English on the next visit', async () => {
    const opened = await open(`${stack.urls.admin}/console/merchants`);
    const { page } = opened;
    await page.getByRole('heading', { level: 1, name: 'Comercios' }).waitFor();
    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Merchants' }).waitFor();
    await page.waitForFunction("document.documentElement.lang === 'en'", undefined, { timeout: 5_000 });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Merchants' }).waitFor();
    await meetsTheBars(opened, 'console-merchants-en');
    await opened.context.close();
  });

  it('an unknown invitation says so, in a page that meets the bars', async () => {
    const opened = await open(`${stack.urls.admin}/console/invitations/not-a-real-token`, { asDev: false });
    await opened.page.getByRole('alert').waitFor();
    await meetsTheBars(opened, 'console-invitation-gone');
    await opened.context.close();
  });

  it('an invited operator sets a password, enrols TOTP from the QR page, keeps recovery codes, and signs in', async () => {
    const email = `ana.${tag.toLowerCase()}@example.com`;
    const invited = await fetch(`${stack.urls.admin}/admin/users`, {
      method: 'POST',
      headers: ADMIN,
      body: JSON.stringify({ email, name: 'Ana Operadora', roles: ['support'] }),
    });
    expect(invited.status, 'the people API (POST /admin/users) must answer 201').toBe(201);
    const { inviteToken } = (await invited.json()) as { inviteToken: string };

    const opened = await open(`${stack.urls.admin}/console/invitations/${inviteToken}`, { asDev: false });
    const { page } = opened;
    await page.getByText(`Invitación para Ana Operadora (${email}).`).waitFor();
    await meetsTheBars(opened, 'console-invitation');
    const password = `caballo-bateria-grapa-${tag}`;
    await page.getByLabel('Contraseña nueva').fill(password);
    await page.getByLabel('Repite la contraseña').fill(password);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByRole('img', { name: 'Código QR para la app autenticadora' }).waitFor();
    await meetsTheBars(opened, 'console-enrol-totp');
    const secret = (await page.locator('code').first().textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    const enrolCode = totp(secret);
    await page.getByLabel('Código de 6 dígitos').fill(enrolCode);
    await page.getByRole('button', { name: 'Confirmar' }).click();
    const codes = page.getByRole('list', { name: 'Códigos de recuperación' }).getByRole('listitem');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    await meetsTheBars(opened, 'console-recovery-codes');

    await page.getByRole('button', { name: 'Ya los guardé: iniciar sesión' }).click();
    await page.getByRole('heading', { level: 1, name: 'Iniciar sesión' }).waitFor();
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña').fill(password);
    // A code is good once, so sign-in takes the authenticator's next one: that of the next 30-second step,
    // which the gateway accepts a step early (clock drift) rather than the test waiting up to 30 s for it.
    const signInCode = totp(secret, Date.now() + 30_000);
    expect(signInCode).not.toBe(enrolCode);
    await page.getByLabel('Código de verificación').fill(signInCode);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('heading', { level: 1, name: 'Inicio' }).waitFor();
    await page.getByText(email).waitFor();
    // A support person reads merchants with the session cookie and the CSRF token, no bearer token.
    await page.getByRole('link', { name: 'Comercios' }).click();
    await page.getByRole('link', { name: merchants[0]?.mchNo ?? '' }).waitFor();
    await opened.context.close();
  });
});

describe('merchants in the console, as the person who does it', { timeout: 120_000 }, () => {
  it('an admin creates a merchant from the form and edits its terms; amounts typed in pesos arrive as centavos', async () => {
    if (browser instanceof Error) throw browser;
    const admin = await createTestPerson({ adminUrl: stack.urls.admin, roles: ['admin'] });
    const opened = await openPage(browser, `${stack.urls.admin}/console/merchants`, {
      as: { person: admin },
    });
    const { page } = opened;
    await page.getByRole('link', { name: 'Nuevo comercio' }).click();
    await page.getByRole('heading', { level: 1, name: 'Nuevo comercio' }).waitFor();
    await page.getByRole('button', { name: 'Crear comercio' }).click();
    await page.getByText('Usa de 1 a 32 letras, dígitos, _ o -.').waitFor();
    await pageMeetsTheBars(opened, 'console-merchant-new');
    const mchNo = `NEW${tag}`;
    await page.getByLabel('Número', { exact: true }).fill(mchNo);
    await page.getByLabel('Nombre', { exact: true }).fill('Abarrotes Nuevos');
    await page.getByLabel('Comisión porcentual (%)').fill('0.6');
    await page.getByLabel('Comisión fija por orden (MXN)').fill('2.5');
    await page.getByLabel('Llave pública RSA (PEM)').fill(generateKeyPair().publicKeyPem);
    await page.getByRole('button', { name: 'Crear comercio' }).click();
    await page.getByRole('heading', { level: 1, name: `Abarrotes Nuevos (${mchNo})` }).waitFor();
    const created = (await (
      await fetch(`${stack.urls.admin}/admin/merchants/${mchNo}`, { headers: ADMIN })
    ).json()) as { feeRate: { percentBps: number; fixedCentavos: number } };
    expect(created.feeRate).toEqual({ percentBps: 60, fixedCentavos: 250 });

    await page.getByLabel('Límite de solicitudes').fill('25');
    await page.getByLabel('Comisión fija por orden (MXN)').fill('0.07');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Cambio guardado|aprobación/ })
      .waitFor();
    const edited = (await (
      await fetch(`${stack.urls.admin}/admin/merchants/${mchNo}`, { headers: ADMIN })
    ).json()) as { feeRate: { fixedCentavos: number }; rateLimitPerS: number | null };
    expect(edited.feeRate.fixedCentavos).toBe(7);
    expect(edited.rateLimitPerS).toBe(25);
    await pageMeetsTheBars(opened, 'console-merchant-edit');
    await opened.context.close();
  });

  it('a support person reads a merchant but is offered no change, and a forged change is refused', async () => {
    if (browser instanceof Error) throw browser;
    const support = await createTestPerson({ adminUrl: stack.urls.admin, roles: ['support'] });
    const mchNo = merchants[0]?.mchNo ?? '';
    const opened = await openPage(browser, `${stack.urls.admin}/console/merchants/${mchNo}`, {
      as: { person: support },
    });
    const { page } = opened;
    await page.getByRole('heading', { level: 1, name: new RegExp(mchNo) }).waitFor();
    // The keys' table (the page also shows the limits' table).
    await page.getByRole('columnheader', { name: 'Huella' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('button', { name: /Deshabilitar|Habilitar|Guardar|Revocar/ }).count()).toBe(
      0,
    );
    expect(await page.getByLabel('Agregar llave pública').count()).toBe(0);
    await pageMeetsTheBars(opened, 'console-merchant-support');
    const forged = await page.evaluate(
      async ([path, csrf]) => {
        const response = await fetch(path, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
          body: JSON.stringify({ status: 'disabled' }),
        });
        return response.status;
      },
      [`/admin/merchants/${mchNo}`, support.csrfToken] as const,
    );
    expect(forged).toBe(403);
    await page.goto(`${stack.urls.admin}/console/merchants`);
    await page.getByRole('heading', { level: 1, name: 'Comercios' }).waitFor();
    expect(await page.getByRole('link', { name: 'Nuevo comercio' }).count()).toBe(0);
    await opened.context.close();
  });
});

describe('the merchant dashboard in Chromium', { timeout: 120_000 }, () => {
  it('opens on its sign-in page, on a phone, meeting the bars', async () => {
    const opened = await open(`${stack.urls.gateway}/dashboard/`, { asDev: false });
    await opened.page.getByRole('heading', { level: 1, name: 'Iniciar sesión' }).waitFor();
    await meetsTheBars(opened, 'dashboard-sign-in');
    await opened.context.close();
  });
});
