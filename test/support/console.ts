import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestPerson } from '@agentpay/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeProblems, horizontalOverflow } from './browser.js';

// Opening the console and the dashboard in Chromium as a person, and the bars every page meets
// (docs/console.md "Quality bars"). Shared by the test/console*.e2e.test.ts files.

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 860 };
const DOCS_SHOTS = new URL('../../docs/console/', import.meta.url).pathname;

export interface Opened {
  context: BrowserContext;
  page: Page;
  /** Requests the page made to anywhere but its own origin. */
  foreign: string[];
  violations(): Promise<string[]>;
  /** The Content-Security-Policy of the last document the page loaded. */
  csp(): string | undefined;
}

export interface OpenOptions {
  viewport?: { width: number; height: number };
  locale?: string;
  /** Extra headers on every request (the development ADMIN_TOKEN, say). */
  headers?: Record<string, string>;
  /**
   * A person signed in already (createTestPerson): the browser carries their session cookie, and the tab
   * knows their CSRF token and user, as it would after signing in through the page.
   */
  as?: { person: TestPerson; session?: { cookie: string; csrfToken: string } };
}

/** Opens `url` in a new browser context (its own cookies), watching CSP reports and foreign requests. */
export async function openPage(browser: Browser, url: string, opts: OpenOptions = {}): Promise<Opened> {
  const target = new URL(url);
  const context = await browser.newContext({
    viewport: opts.viewport ?? PHONE,
    locale: opts.locale ?? 'es-MX',
    ...(opts.headers && { extraHTTPHeaders: opts.headers }),
  });
  await context.addInitScript(`
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
  `);
  if (opts.as) {
    const { person } = opts.as;
    const session = opts.as.session ?? { cookie: person.cookie, csrfToken: person.csrfToken };
    const [name = '', ...rest] = session.cookie.split('=');
    await context.addCookies([{ name, value: rest.join('='), url: target.origin }]);
    const sessionBase = target.pathname.startsWith('/dashboard') ? '/dashboard/api' : '/console/api';
    const saved = JSON.stringify({
      csrfToken: session.csrfToken,
      user: { id: person.id, email: person.email, roles: person.roles },
    });
    await context.addInitScript(
      `sessionStorage.setItem(${JSON.stringify(`agentpay.session:${sessionBase}`)}, ${JSON.stringify(saved)});`,
    );
  }
  let csp: string | undefined;
  const foreign: string[] = [];
  context.on('request', (request) => {
    if (new URL(request.url()).origin !== target.origin) foreign.push(request.url());
  });
  const page = await context.newPage();
  page.on('response', (response) => {
    if (response.request().isNavigationRequest()) csp = response.headers()['content-security-policy'];
  });
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  return {
    context,
    page,
    foreign,
    violations: () => page.evaluate<string[]>('window.cspViolations ?? []'),
    csp: () => csp,
  };
}

/**
 * The bars every page meets: a strict CSP with nothing from outside, no serious or critical axe-core
 * finding, no sideways scroll at the page's width. Takes a screenshot (`CONSOLE_SCREENSHOTS=1` copies it
 * into docs/console/).
 */
export async function meetsTheBars(opened: Opened, name: string): Promise<void> {
  const { page } = opened;
  await page.waitForLoadState('networkidle');
  expect(opened.csp()).toMatch(/default-src 'self'/);
  expect(opened.csp()).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
  expect(await axeProblems(page), name).toEqual([]);
  expect(await horizontalOverflow(page), `${name} scrolls sideways`).toBeLessThanOrEqual(0);
  expect(await opened.violations(), name).toEqual([]);
  expect(opened.foreign, name).toEqual([]);
  const file = join(process.env['TMPDIR'] ?? '/tmp', `agentpay-console-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  if (process.env['CONSOLE_SCREENSHOTS']) {
    mkdirSync(DOCS_SHOTS, { recursive: true });
    copyFileSync(file, join(DOCS_SHOTS, `${name}.png`));
  }
}
