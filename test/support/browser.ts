import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';

// A real Chromium for the page tests (the cashier, /docs, the console and the dashboard), and axe-core.

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Chromium from CHROMIUM_PATH, else the one the @sparticuz/chromium npm package ships (unpacked on first
 * use), else the system's /usr/bin/chromium. Nothing is downloaded; no browser is a failure, not a skip.
 */
export async function launchChromium(): Promise<Browser> {
  const tried: string[] = [];
  const candidates: Array<() => Promise<string>> = [];
  const configured = process.env['CHROMIUM_PATH'];
  if (configured) candidates.push(async () => configured);
  else {
    candidates.push(async () => {
      const packaged = (await import('@sparticuz/chromium')).default;
      return packaged.executablePath();
    });
    candidates.push(async () => '/usr/bin/chromium');
  }
  for (const candidate of candidates) {
    let executablePath = '';
    try {
      executablePath = await candidate();
      if (!existsSync(executablePath)) throw new Error('no such file');
      return await chromium.launch({ executablePath, args: LAUNCH_ARGS, timeout: 60_000 });
    } catch (err) {
      tried.push(`${executablePath || '@sparticuz/chromium'}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  throw new Error(
    `no Chromium to run the pages in (tried ${tried.join('; ')}). Run npm install (it brings ` +
      '@sparticuz/chromium), or set CHROMIUM_PATH to a Chromium binary.',
  );
}

/** axe-core's serious and critical findings on the page as it is now. */
export async function axeProblems(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, so the page's CSP (which would refuse an injected <script>) does not apply.
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate<{
    violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
  }>("axe.run(document, { resultTypes: ['violations'] })");
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** How far the page is wider than its viewport (0 when nothing scrolls sideways). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}
