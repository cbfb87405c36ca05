import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

// Builds the operator console and the merchant dashboard (docs/console.md "How it is built") into
// apps/<name>/dist: one hashed script and stylesheet each, an index.html that names them, nothing from
// outside. Run by the root `prepare` (so `npm install` builds them) or as `tsx packages/ui/build/build-apps.ts
// [console] [dashboard]`. It prints each app's first-load JavaScript, compressed, against the budget of
// CONTRACT section 18, and exits 1 above it.

/** Compressed first-load JavaScript allowed per page (docs/console.md "Quality bars"). */
export const JS_BUDGET_BYTES = 300 * 1024;

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const APPS = {
  console: { base: '/console/', title: 'agentpay · Consola de operación' },
  dashboard: { base: '/dashboard/', title: 'agentpay · Panel del comercio' },
} as const;
type AppName = keyof typeof APPS;

export interface AppBuild {
  name: AppName;
  /** Bytes of every script the first page load fetches, gzip and brotli (quality 11). */
  js: { raw: number; gzip: number; brotli: number };
  ms: number;
}

/** Builds one app into apps/<name>/dist; throws if it breaks the JavaScript budget. */
export async function buildApp(name: AppName): Promise<AppBuild> {
  const started = performance.now();
  const dir = join(ROOT, 'apps', name);
  const dist = join(dir, 'dist');
  const { base, title } = APPS[name];
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(join(dist, 'assets'), { recursive: true });

  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { app: join(dir, 'src', 'main.tsx') },
    outdir: join(dist, 'assets'),
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022', 'chrome111', 'firefox111', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });

  const outputs = Object.keys(result.metafile.outputs).map((path) => relative(join(dist, 'assets'), path));
  const scripts = outputs.filter((f) => f.endsWith('.js'));
  const styles = outputs.filter((f) => f.endsWith('.css'));
  const html = `<!doctype html>
<html lang="es-MX">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="${base}assets/icon.svg" type="image/svg+xml">
${styles.map((f) => `<link rel="stylesheet" href="${base}assets/${f}">`).join('\n')}
${scripts.map((f) => `<script type="module" src="${base}assets/${f}"></script>`).join('\n')}
</head>
<body>
<div id="app"></div>
<noscript>Esta página necesita JavaScript. This page needs JavaScript.</noscript>
</body>
</html>
`;
  writeFileSync(join(dist, 'index.html'), html);
  writeFileSync(
    join(dist, 'assets', 'icon.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1d4ed8"/><path d="M4 12 8 4l4 8" stroke="#fff" stroke-width="2" fill="none"/></svg>\n',
  );

  const js = { raw: 0, gzip: 0, brotli: 0 };
  for (const file of readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js'))) {
    const bytes = readFileSync(join(dist, 'assets', file));
    js.raw += bytes.length;
    js.gzip += gzipSync(bytes, { level: 9 }).length;
    js.brotli += brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return { name, js, ms: Math.round(performance.now() - started) };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main(args: string[]) {
  const names = (args.length ? args : Object.keys(APPS)) as AppName[];
  const unknown = names.filter((n) => !(n in APPS));
  if (unknown.length)
    throw new Error(`no such app: ${unknown.join(', ')} (apps: ${Object.keys(APPS).join(', ')})`);
  let over = false;
  for (const built of await Promise.all(names.map(buildApp))) {
    const fits = built.js.gzip <= JS_BUDGET_BYTES;
    over ||= !fits;
    console.log(
      `${built.name}: first-load JavaScript ${kb(built.js.gzip)} gzip, ${kb(built.js.brotli)} brotli ` +
        `(${kb(built.js.raw)} minified); budget ${kb(JS_BUDGET_BYTES)} gzip: ${fits ? 'ok' : 'OVER BUDGET'} ` +
        `(${built.ms} ms)`,
    );
  }
  if (over) {
    console.error('a web app is over its JavaScript budget (docs/console.md "Quality bars")');
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main(process.argv.slice(2));
}
