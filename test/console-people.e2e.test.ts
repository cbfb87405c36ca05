import { readFileSync } from 'node:fs';
import type { Stack } from '@agentpay/stack';
import { createTestPerson, type TestPerson, totpCode } from '@agentpay/testing';
import { generateKeyPair } from '@agentpay/wire';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.js';
import { meetsTheBars, openPage } from './support/console.js';
import { parseCsv } from './support/csv.js';
import { startTestStack } from './support/stack.js';

// The console's people, audit log and "my account" pages (CONTRACT sections 17 and 18) in a real Chromium on
// a 390-px phone, each flow as the person who does it: an owner invites, changes roles, disables and unlocks;
// an auditor follows a target's history, verifies the chain and downloads the CSV of that filter; a support
// person is offered nothing and is refused when forging the call; a person ends a session and revokes a token.

const DEV = { authorization: 'Bearer dev-admin-token' };

let stack: Stack;
let browser: Browser;
let owner: TestPerson;
let auditor: TestPerson;
let support: TestPerson;
/** The operator the owner invites from the page, with the credentials they then hold. */
let invitee: { id: string; email: string; cookie: string };

async function call(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
) {
  const response = await fetch(`${stack.urls.admin}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...(init.body !== undefined && { 'content-type': 'application/json' }), ...init.headers },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { text };
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** The operators whose email contains `search`, as the owner's API sees them. */
async function operators(search: string) {
  const answer = await call(`/admin/users?search=${encodeURIComponent(search)}`, { headers: DEV });
  expect(answer.status).toBe(200);
  return answer.body['users'] as {
    id: string;
    email: string;
    roles: string[];
    status: string;
    locked: boolean;
  }[];
}

const csrfOf = (page: Page) =>
  page.evaluate<string>(
    "JSON.parse(sessionStorage.getItem('agentpay.session:/console/api') ?? '{}').csrfToken ?? ''",
  );

beforeAll(async () => {
  browser = await launchChromium();
  // A shared, busy machine may take longer than the default minute to start every service.
  stack = await startTestStack({ readyTimeoutMs: 100_000 });
  const adminUrl = stack.urls.admin;
  [owner, auditor, support] = await Promise.all([
    createTestPerson({ adminUrl, roles: ['owner'] }),
    createTestPerson({ adminUrl, roles: ['auditor'] }),
    createTestPerson({ adminUrl, roles: ['support'] }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe("the console's people, audit and account pages", { timeout: 120_000 }, () => {
  it('an owner invites an operator with the support role, changes their roles, disables them (their session stops working)', async () => {
    const opened = await openPage(browser, `${stack.urls.admin}/console/people`, { as: { person: owner } });
    const { page } = opened;
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Personas');
    await page.getByRole('row', { name: new RegExp(owner.email) }).waitFor();

    const email = `invited-${Date.now()}@people.test`;
    const invite = page.getByRole('region', { name: 'Invitar a un operador' });
    // Nothing chosen: the page says what is missing and sends nothing.
    await invite.getByRole('button', { name: 'Invitar' }).click();
    await invite.getByText('Elige al menos un rol.').waitFor();
    expect(await operators(email)).toEqual([]);

    await invite.getByLabel('Correo electrónico').fill(email);
    await invite.getByLabel('Nombre').fill('Ana Soporte');
    await invite.getByRole('checkbox', { name: 'Soporte' }).check();
    await invite.getByRole('button', { name: 'Invitar' }).click();
    const link = invite.getByLabel('Enlace de invitación');
    await link.waitFor();
    const inviteUrl = await link.inputValue();
    expect(inviteUrl).toMatch(/^https?:\/\/[^/]+\/console\/invitations\/[\w-]+$/);
    const [listed] = await operators(email);
    expect(listed).toMatchObject({ email, roles: ['support'], status: 'invited' });
    await page.getByRole('row', { name: new RegExp(email) }).waitFor();
    await meetsTheBars(opened, 'console-people');

    // The invitee accepts through the link's calls and signs in: a session of their own.
    const token = inviteUrl.split('/').at(-1) ?? '';
    const password = `pw-${Date.now()}-long-enough`;
    const enrolment = await call(`/console/api/invitations/${token}`, { body: { password } });
    expect(enrolment.status).toBe(200);
    const secret = String(enrolment.body['totpSecret']);
    expect(
      (await call(`/console/api/invitations/${token}/confirm`, { body: { code: totpCode(secret) } })).status,
    ).toBe(200);
    const signedIn = await call('/console/api/session', {
      body: { email, password, code: totpCode(secret, 1) },
    });
    expect(signedIn.status).toBe(200);
    invitee = {
      id: listed?.id ?? '',
      email,
      cookie: (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
    };
    expect((await call('/admin/me', { headers: { cookie: invitee.cookie } })).status).toBe(200);

    // Roles: support and auditor.
    await page.getByRole('button', { name: `Gestionar ${email}` }).click();
    const manage = page.getByRole('region', { name: `Gestionar a ${email}` });
    await expect(manage.getByRole('checkbox', { name: 'Soporte' }).isChecked()).resolves.toBe(true);
    await manage.getByRole('checkbox', { name: 'Auditor' }).check();
    await manage.getByRole('button', { name: 'Guardar roles' }).click();
    await manage.getByText(`Cambio guardado para ${email}.`).waitFor();
    expect((await operators(email))[0]?.roles).toEqual(['support', 'auditor']);
    await page.getByRole('row', { name: /Soporte, Auditor/ }).waitFor();

    // Disabled: at once, and the session they hold stops working.
    await manage.getByRole('button', { name: 'Deshabilitar', exact: true }).click();
    await manage.getByRole('button', { name: 'Habilitar', exact: true }).waitFor();
    expect((await operators(email))[0]?.status).toBe('disabled');
    expect((await call('/admin/me', { headers: { cookie: invitee.cookie } })).status).toBe(401);
    await opened.context.close();
  });

  it('an owner unlocks a person locked by ten failed sign-ins', async () => {
    const locked = await createTestPerson({ adminUrl: stack.urls.admin, roles: ['support'] });
    for (let i = 0; i < 10; i++) {
      const wrong = { email: locked.email, password: 'not the password 123', code: '000000' };
      expect((await call('/console/api/session', { body: wrong })).status).toBe(401);
    }
    expect((await operators(locked.email))[0]?.locked).toBe(true);

    const opened = await openPage(browser, `${stack.urls.admin}/console/people?search=${locked.email}`, {
      as: { person: owner },
    });
    const { page } = opened;
    await page.getByRole('row', { name: /Bloqueada/ }).waitFor();
    await page.getByRole('button', { name: `Gestionar ${locked.email}` }).click();
    const manage = page.getByRole('region', { name: `Gestionar a ${locked.email}` });
    await manage.getByRole('button', { name: 'Desbloquear' }).click();
    await manage.getByText(`Cambio guardado para ${locked.email}.`).waitFor();
    expect((await operators(locked.email))[0]?.locked).toBe(false);
    const right = { email: locked.email, password: locked.password, code: locked.recoveryCodes[0] };
    expect((await call('/console/api/session', { body: right })).status).toBe(200);
    await opened.context.close();
  });

  it("an auditor follows the invitee's history, verifies the chain and downloads the CSV of that filter", async () => {
    const opened = await openPage(browser, `${stack.urls.admin}/console/audit`, { as: { person: auditor } });
    const { page } = opened;
    // The history it follows is the one the owner's test above made.
    if (!invitee) throw new Error('runs after the owner invites, changes and disables an operator');
    const target = `user:${invitee.id}`;
    // Each row's target is a link to its history.
    await page
      .getByRole('link', { name: `Historial de ${target}` })
      .first()
      .click();
    await page.waitForURL(/\/console\/audit\?target=/);
    await expect.poll(() => page.getByLabel('Objetivo').inputValue()).toBe(target);
    const table = page.getByRole('region', { name: 'Entradas de la auditoría' });
    const rows = table.locator('tbody tr');
    // The unfiltered page stays until the filtered one arrives.
    await expect.poll(() => rows.filter({ hasNotText: target }).count()).toBe(0);
    const shown = await rows.count();
    const actions: string[] = [];
    for (let i = 0; i < shown; i++) {
      const cells = rows.nth(i).getByRole('cell');
      expect(await cells.nth(3).textContent()).toBe(`Historial de ${target}`);
      actions.push((await cells.nth(2).textContent()) ?? '');
    }
    expect(actions).toEqual([
      'user.update',
      'user.update',
      'session.create',
      'invitation.confirm',
      'user.invite',
    ]);
    await meetsTheBars(opened, 'console-audit');
    // The newest entry is the disabling: its values before and after, one click away.
    const newest = rows.first();
    await newest.getByText('Antes y después').click();
    await expect(newest.locator('pre').first().textContent()).resolves.toContain('"status": "enabled"');
    await expect(newest.locator('pre').last().textContent()).resolves.toContain('"status": "disabled"');

    await page.getByRole('button', { name: 'Verificar la cadena' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'La cadena está íntegra' }).textContent(),
    ).resolves.toMatch(/La cadena está íntegra: [\d,]+ entradas verificadas\./);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Exportar CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = parseCsv(readFileSync((await download.path()) ?? '', 'utf8'));
    const [header, ...lines] = csv;
    const column = (name: string) => header?.indexOf(name) ?? -1;
    expect(column('target')).toBeGreaterThan(-1);
    expect(lines.map((l) => l[column('target')])).toEqual(lines.map(() => target));
    // Oldest first in the file, newest first on the page: the same entries.
    expect(lines.map((l) => l[column('action')]).reverse()).toEqual(actions);

    // Days are Mexico City days: up to yesterday holds none of it, from today all of it.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());
    const yesterday = new Date(Date.parse(`${today}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Hasta el día').fill(yesterday);
    await page.getByRole('button', { name: 'Filtrar', exact: true }).click();
    await page.getByText('Nada que mostrar.').waitFor();
    const exportHref = await page.getByRole('link', { name: 'Exportar CSV' }).getAttribute('href');
    expect(new URL(exportHref ?? '', stack.urls.admin).searchParams.get('target')).toBe(target);
    expect(new URL(exportHref ?? '', stack.urls.admin).searchParams.get('to')).toBe(`${today}T06:00:00.000Z`);
    await page.getByLabel('Hasta el día').fill('');
    await page.getByLabel('Desde el día').fill(today);
    await page.getByRole('button', { name: 'Filtrar', exact: true }).click();
    await expect.poll(() => rows.count()).toBe(actions.length);
    await opened.context.close();
  });

  it("an owner invites a merchant's first person from the merchant's page; support sees the team, not the invitation", async () => {
    const mchNo = `PPL${Date.now().toString(36).toUpperCase()}`;
    const created = await call('/admin/merchants', {
      headers: DEV,
      body: { mchNo, name: 'Tienda de personas', publicKey: generateKeyPair().publicKeyPem },
    });
    expect(created.status, created.text).toBe(201);

    const opened = await openPage(browser, `${stack.urls.admin}/console/merchants/${mchNo}`, {
      as: { person: owner },
    });
    const { page } = opened;
    const invite = page.getByRole('region', { name: 'Invitar a una persona del comercio' });
    const email = `dueno-${Date.now()}@tienda.test`;
    await invite.getByLabel('Correo electrónico').fill(email);
    await invite.getByLabel('Nombre').fill('Dueña de la tienda');
    // A merchant's roles, not the operators'.
    await expect(invite.getByRole('checkbox', { name: 'Soporte' }).count()).resolves.toBe(0);
    await invite.getByRole('checkbox', { name: 'Propietario' }).check();
    await invite.getByRole('button', { name: 'Invitar' }).click();
    const link = invite.getByLabel('Enlace de invitación');
    await link.waitFor();
    expect(await link.inputValue()).toMatch(/^https?:\/\/[^/]+\/dashboard\/invitations\/[\w-]+$/);
    const team = page.getByRole('region', { name: 'Personas del comercio' });
    await team.getByRole('row', { name: new RegExp(email) }).waitFor();
    await expect(team.getByRole('row', { name: new RegExp(email) }).textContent()).resolves.toContain(
      'Propietario',
    );
    await meetsTheBars(opened, 'console-merchant-people');
    await opened.context.close();

    const asSupport = await openPage(browser, `${stack.urls.admin}/console/merchants/${mchNo}`, {
      as: { person: support },
    });
    await asSupport.page
      .getByRole('region', { name: 'Personas del comercio' })
      .getByRole('row', { name: new RegExp(email) })
      .waitFor();
    await asSupport.page.waitForLoadState('networkidle');
    await expect(asSupport.page.getByRole('button', { name: 'Invitar' }).count()).resolves.toBe(0);
    await asSupport.context.close();
  });

  it('GET /admin/users pages the operators by email on the server, searches email and name, and refuses a bad limit', async () => {
    const tag = `pg${Date.now()}`;
    for (const letter of ['c', 'A', 'b']) {
      const invited = await call('/admin/users', {
        headers: DEV,
        body: { email: `${tag}-${letter}@people.test`, name: `Página ${letter} ${tag}`, roles: ['support'] },
      });
      expect(invited.status).toBe(201);
    }
    const first = await call(`/admin/users?search=${tag}&limit=2`, { headers: DEV });
    const page1 = first.body as { users: { email: string }[]; next?: string };
    expect(page1.users.map((u) => u.email)).toEqual([`${tag}-a@people.test`, `${tag}-b@people.test`]);
    expect(page1.next).toBeDefined();
    const second = await call(
      `/admin/users?search=${tag}&limit=2&cursor=${encodeURIComponent(page1.next ?? '')}`,
      {
        headers: DEV,
      },
    );
    const page2 = second.body as { users: { email: string }[]; next?: string };
    expect(page2.users.map((u) => u.email)).toEqual([`${tag}-c@people.test`]);
    expect(page2.next).toBeUndefined();
    const byName = await call(`/admin/users?search=${encodeURIComponent(`gina b ${tag}`)}`, { headers: DEV });
    expect((byName.body['users'] as { email: string }[]).map((u) => u.email)).toEqual([
      `${tag}-b@people.test`,
    ]);
    // A wildcard is a character.
    expect((await call('/admin/users?search=%25%25', { headers: DEV })).body['users']).toEqual([]);
    expect((await call('/admin/users?limit=0', { headers: DEV })).status).toBe(400);
    expect((await call('/admin/users?limit=201', { headers: DEV })).status).toBe(400);
    expect(
      (await call('/admin/users', { headers: { authorization: `Bearer ${auditor.token}` } })).status,
    ).toBe(200);
    expect(
      (await call('/admin/users', { headers: { authorization: `Bearer ${support.token}` } })).status,
    ).toBe(403);
  });

  it('the CSV export is streamed and safe in a spreadsheet: a cell that starts a formula gets an apostrophe', async () => {
    const formula = '=HYPERLINK("http://evil.test")@x.test';
    const wrong = await call('/console/api/session', {
      body: { email: formula, password: 'x', code: '000000' },
    });
    expect(wrong.status).toBe(401);
    const answer = await call(`/admin/audit/export?actor=${encodeURIComponent(formula)}`, {
      headers: { authorization: `Bearer ${auditor.token}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(answer.headers.get('content-length')).toBeNull();
    expect(answer.headers.get('transfer-encoding')).toBe('chunked');
    const [header, ...lines] = parseCsv(answer.text);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.[header?.indexOf('actor_label') ?? -1]).toBe(`'${formula}`);
    expect(lines[0]?.[header?.indexOf('action') ?? -1]).toBe('session.create');
  });

  it('a support person is offered no people actions, and a forged POST /admin/users from the page is 403', async () => {
    const opened = await openPage(browser, `${stack.urls.admin}/console/people`, { as: { person: support } });
    const { page } = opened;
    await page.getByRole('alert').filter({ hasText: 'Tu rol no permite esta acción.' }).waitFor();
    await meetsTheBars(opened, 'console-people-support');
    await expect(page.getByRole('region', { name: 'Invitar a un operador' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: /Gestionar|Invitar|Deshabilitar/ }).count()).resolves.toBe(
      0,
    );

    const email = `forged-${Date.now()}@people.test`;
    const csrf = await csrfOf(page);
    expect(csrf).not.toBe('');
    const status = await page.evaluate(
      async ([body, token]) =>
        (
          await fetch('/admin/users', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-csrf-token': token ?? '' },
            body,
          })
        ).status,
      [JSON.stringify({ email, name: 'Forged', roles: ['owner'] }), csrf],
    );
    expect(status).toBe(403);
    expect(await operators(email)).toEqual([]);

    // Nor the audit log: the menu entry is there, the page shows the refusal, not the entries.
    await page.getByRole('link', { name: 'Auditoría' }).click();
    await page.getByRole('alert').filter({ hasText: 'Tu rol no permite esta acción.' }).waitFor();
    await expect(page.getByRole('button', { name: 'Verificar la cadena' }).count()).resolves.toBe(0);
    await expect(page.getByRole('link', { name: 'Exportar CSV' }).count()).resolves.toBe(0);
    await opened.context.close();
  });

  it('in English, the people, audit and account pages show words, never a missing key', async () => {
    const opened = await openPage(browser, `${stack.urls.admin}/console/people`, { as: { person: owner } });
    const { page } = opened;
    await page.evaluate("localStorage.setItem('agentpay.lang', 'en')");
    for (const [path, title] of [
      ['people', 'People'],
      ['audit', 'Audit log'],
      ['me', 'My account'],
    ] as const) {
      await page.goto(`${stack.urls.admin}/console/${path}`);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(title);
      await page.waitForLoadState('networkidle');
      // A missing word shows its key (`people.invite`); the pages' own words are in headings, labels, buttons,
      // column heads, hints and badges (the entries' data, such as an action `audit.read`, is not checked).
      const words = await page
        .locator('main :is(h1, h2, h3, label, legend, button, th[scope=col], .hint, .badge, .notice)')
        .allTextContents();
      expect(words.length, path).toBeGreaterThan(5);
      expect(
        words.filter((w) => /^[a-z]+\.[a-zA-Z.]+$/.test(w.trim())),
        path,
      ).toEqual([]);
    }
    await opened.context.close();
  });

  it('a person ends one of their sessions and makes and revokes a token on "my account"', async () => {
    const person = await createTestPerson({ adminUrl: stack.urls.admin, roles: ['support', 'auditor'] });
    const other = await person.signIn();
    expect((await call('/admin/me', { headers: { cookie: other.cookie } })).status).toBe(200);

    const opened = await openPage(browser, `${stack.urls.admin}/console/me`, { as: { person } });
    const { page } = opened;
    const sessions = page.getByRole('region', { name: 'Sesiones abiertas' });
    await sessions.locator('tbody tr').nth(1).waitFor();
    await expect(sessions.locator('tbody tr').count()).resolves.toBe(2);
    await meetsTheBars(opened, 'console-me');

    // Ends the other session, not this one.
    await sessions
      .locator('tbody tr')
      .filter({ hasNotText: 'Esta sesión' })
      .getByRole('button', { name: /^Terminar/ })
      .click();
    await page.getByText('Sesión terminada.').waitFor();
    await expect.poll(() => sessions.locator('tbody tr').count()).toBe(1);
    expect((await call('/admin/me', { headers: { cookie: other.cookie } })).status).toBe(401);
    expect((await call('/admin/me', { headers: { cookie: person.cookie } })).status).toBe(200);

    // A token with one of my roles; the secret shown once; it acts as me with that role only.
    const create = page.getByRole('region', { name: 'Crear un token' });
    await expect(create.getByRole('checkbox').count()).resolves.toBe(2);
    await create.getByLabel('Nombre').fill('script de prueba');
    await create.getByRole('checkbox', { name: 'Soporte' }).uncheck();
    await create.getByLabel('Días de vigencia').fill('7');
    await create.getByRole('button', { name: 'Crear token' }).click();
    const secretBox = create.getByLabel('Token');
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^apt_/);
    const asToken = await call('/admin/me', { headers: { authorization: `Bearer ${secret}` } });
    expect(asToken.status).toBe(200);
    expect(asToken.body['roles']).toEqual(['auditor']);

    // Roles beyond mine are refused by the API even if a page asked.
    const csrf = await csrfOf(page);
    const beyond = await page.evaluate(
      async ([token]) =>
        (
          await fetch('/admin/me/tokens', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-csrf-token': token ?? '' },
            body: JSON.stringify({ name: 'too much', roles: ['owner'], expiresInDays: 7 }),
          })
        ).status,
      [csrf],
    );
    expect(beyond).toBe(403);

    await page.getByRole('button', { name: 'Revocar script de prueba' }).click();
    await page.getByText('Token revocado.').waitFor();
    expect((await call('/admin/me', { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);
    expect((await call('/admin/me', { headers: { authorization: `Bearer ${person.token}` } })).status).toBe(
      200,
    );
    await expect.poll(() => page.getByRole('button', { name: 'Revocar script de prueba' }).count()).toBe(0);
    await opened.context.close();
  });
});
