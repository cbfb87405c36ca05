import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from '@agentpay/http';
import type { Logger } from '@agentpay/logger';

// The operator console (/console/ on the admin port) and the merchant dashboard (/dashboard/ on the public
// port), served same-origin from their built files (docs/console.md "How it is served"). The files are read
// once at start: they change only with a build. A missing build is not a failed start (the API still
// works): every page of the app answers 503 with how to build it, and the log says so once.

export type WebAppName = 'console' | 'dashboard';

/**
 * Nothing from outside, no inline script or style, no framing, no plugin; the app calls only its own
 * origin. The QR code is SVG drawn by the page, so no `data:` image is needed either.
 */
export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': WEB_APP_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
} as const;

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.html': 'text/html; charset=utf-8',
};

/** Where `npm install` puts an app's build: apps/<name>/dist beside this service in the repository. */
export function defaultWebAppDir(name: WebAppName): string {
  return fileURLToPath(new URL(`../../../apps/${name}/dist`, import.meta.url));
}

/** Whether a request is for an app's files (which need no credentials), not for its `/api/` calls. */
export function isWebAppRequest(url: string, name: WebAppName): boolean {
  const path = url.split('?', 1)[0] ?? '';
  const base = `/${name}`;
  return path === base || (path.startsWith(`${base}/`) && !path.startsWith(`${base}/api/`));
}

interface Built {
  index: Buffer;
  assets: Map<string, { body: Buffer; type: string }>;
}

function load(dir: string): Built | undefined {
  const indexPath = join(dir, 'index.html');
  if (!existsSync(indexPath)) return undefined;
  const assets = new Map<string, { body: Buffer; type: string }>();
  const assetDir = join(dir, 'assets');
  for (const file of existsSync(assetDir) ? readdirSync(assetDir) : []) {
    const type = TYPES[extname(file)];
    if (type) assets.set(file, { body: readFileSync(join(assetDir, file)), type });
  }
  return { index: readFileSync(indexPath), assets };
}

function notBuiltPage(name: WebAppName, dir: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>The ${name} is not built</title></head>
<body><main><h1>The ${name} is not built</h1>
<p>This gateway found no build of the ${name} in <code>${dir}</code>.
Build it with <code>npm install</code> (or <code>npm run build:web</code>) in the repository, then restart the gateway.</p>
</main></body></html>
`;
}

/**
 * Registers `/<name>/`: hashed assets with a year's cache, index.html (no-cache) for every other path so the
 * app's own router shows the page, and a strict CSP on all of it. `/<name>/api/...` is left to the people
 * routes; an unknown one is a JSON 404, never the page.
 */
export function registerWebApp(
  app: FastifyInstance,
  opts: { name: WebAppName; logger: Logger; dir?: string | undefined },
): void {
  const dir = opts.dir ?? defaultWebAppDir(opts.name);
  const built = load(dir);
  if (!built) opts.logger.warn({ app: opts.name, dir }, `the ${opts.name} is not built: run npm install`);
  const base = `/${opts.name}`;

  const secure = (reply: FastifyReply) => reply.headers(SECURITY_HEADERS);
  const page = (reply: FastifyReply) => {
    secure(reply).header('cache-control', 'no-cache').type('text/html; charset=utf-8');
    if (!built) return reply.code(503).send(notBuiltPage(opts.name, dir));
    return reply.send(built.index);
  };

  app.get(base, async (_request, reply) => secure(reply).redirect(`${base}/`, 301));
  app.get(`${base}/assets/:file`, async (request, reply) => {
    const { file } = request.params as { file: string };
    const asset = built?.assets.get(file);
    if (!asset) return secure(reply).code(404).type('text/plain; charset=utf-8').send('not found');
    // Names carry their content's hash (the icon excepted, which may be a day old).
    const cache = file === 'icon.svg' ? 'public, max-age=86400' : 'public, max-age=31536000, immutable';
    return secure(reply).header('cache-control', cache).type(asset.type).send(asset.body);
  });
  app.get(`${base}/*`, async (request, reply) => {
    if (request.url.startsWith(`${base}/api/`)) {
      return reply.code(404).send({ error: 'not_found', message: 'no such call' });
    }
    return page(reply);
  });
}
