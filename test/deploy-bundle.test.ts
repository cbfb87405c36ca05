/**
 * The image bundles: `deploy/bundle.ts` turns a service's TypeScript entry points into plain JavaScript that
 * runs with `node` alone (no tsx), as the images run it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { postgresUrl, testDatabaseName } from '@agentpay/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BundleResult, bundleService, REPO_ROOT } from '../deploy/bundle.js';
import { migrations } from '../services/gateway/src/db/migrations/index.js';

interface PackageJson {
  dependencies?: Record<string, string>;
}

function readPackage(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as PackageJson;
}

/** Third-party packages declared by a service and, transitively, by the workspace packages it uses. */
function declaredDependencies(service: string): Set<string> {
  const declared = new Set<string>();
  const seen = new Set<string>();
  const visit = (dir: string) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    for (const name of Object.keys(readPackage(dir).dependencies ?? {})) {
      if (name.startsWith('@agentpay/')) visit(`packages/${name.slice('@agentpay/'.length)}`);
      else declared.add(name);
    }
  };
  visit(`services/${service}`);
  return declared;
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Runs `node <file>` with a bare environment (no tsx loader, nothing from the test process). */
function runNode(file: string, env: Record<string, string>, cwd: string): ChildProcess {
  return spawn(process.execPath, [file], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('the gateway bundle', () => {
  let bundle: BundleResult;
  let outDir: string;
  let workDir: string;
  let databaseUrl: string;
  let database: string;

  beforeAll(async () => {
    // Under dist/ (git-ignored) so node_modules resolves as in the image, and per run so parallel runs never share it.
    outDir = join(REPO_ROOT, 'services/gateway/dist', `.test-${randomBytes(4).toString('hex')}`);
    bundle = await bundleService('gateway', outDir);
    workDir = mkdtempSync(join(tmpdir(), 'agentpay-bundle-'));
    database = testDatabaseName('bundle_gateway');
    const url = new URL(await postgresUrl());
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  });

  afterAll(async () => {
    rmSync(outDir, { recursive: true, force: true });
    rmSync(workDir, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: await postgresUrl() });
    await admin.connect();
    await admin.query(`drop database if exists ${admin.escapeIdentifier(database)} with (force)`);
    await admin.end();
  });

  it('holds the workspace packages inside and leaves to node_modules only packages the service declares', () => {
    expect(bundle.files.map((f) => f.slice(outDir.length + 1))).toEqual(['main.js', 'migrate.js']);
    for (const file of bundle.files) {
      const code = readFileSync(file, 'utf8');
      expect(code).not.toMatch(/from\s*["']@agentpay\//);
      expect(code).not.toMatch(/import\(\s*["']@agentpay\//);
    }
    const declared = declaredDependencies('gateway');
    const undeclared = bundle.externals.map(packageName).filter((name) => !declared.has(name));
    // `npm ci --omit=dev --workspace=@agentpay/gateway` installs exactly the declared ones.
    expect(undeclared).toEqual([]);
    expect(bundle.externals.map(packageName)).toEqual(expect.arrayContaining(['pg', 'kysely', 'fastify']));
  });

  it('runs the migrate entry with plain node: creates the database, applies every migration and exits 0, twice', async () => {
    const env = { DATABASE_URL: databaseUrl, NODE_ENV: 'production', LOG_LEVEL: 'warn' };
    for (let run = 0; run < 2; run++) {
      const child = runNode(bundle.files[1]!, env, workDir);
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      expect(await exitOf(child), stderr).toBe(0);
    }
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const applied = await client.query<{ name: string }>('select name from kysely_migration order by name');
      expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(migrations).sort());
    } finally {
      await client.end();
    }
  });

  it('starts the bundled gateway with plain node in production mode, serves, and drains on SIGTERM', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const child = runNode(
      bundle.files[0]!,
      {
        NODE_ENV: 'production',
        DATABASE_URL: databaseUrl,
        GATEWAY_PORT: '0',
        ADMIN_PORT: '0',
        HOST: '127.0.0.1',
        ADMIN_TOKEN: 'bundle-test-token',
        CASHIER_SECRET: 'bundle-test-cashier-secret-0123456789',
        PEOPLE_SECRET_KEY: 'bundle-test-people-secret-0123456789',
        NOTIFIER_ADMIN_TOKEN: 'bundle-test-notifier-token',
        PLATFORM_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        PROTO_DIR: join(REPO_ROOT, 'proto'),
      },
      workDir,
    );
    const exited = exitOf(child);
    try {
      const ports = await new Promise<{ merchantPort: number; adminPort: number }>((resolve, reject) => {
        const lines = createInterface({ input: child.stdout! });
        lines.on('line', (line) => {
          try {
            const entry = JSON.parse(line) as { msg?: string; merchantPort?: number; adminPort?: number };
            if (entry.msg === 'gateway listening')
              resolve(entry as { merchantPort: number; adminPort: number });
          } catch {
            // not a log line
          }
        });
        let stderr = '';
        child.stderr!.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        void exited.then((code) => reject(new Error(`gateway exited (${code}) before listening: ${stderr}`)));
      });
      const live = await fetch(`http://127.0.0.1:${ports.merchantPort}/livez`);
      expect(live.status).toBe(200);
      // Production: ADMIN_TOKEN brings the first owner in and does nothing else. Accepting the invitation
      // runs scrypt, the common-password list, TOTP and the QR code from the bundle's node_modules.
      const admin = `http://127.0.0.1:${ports.adminPort}`;
      const auth = { authorization: 'Bearer bundle-test-token', 'content-type': 'application/json' };
      const key = await fetch(`${admin}/admin/platform-key`, { headers: auth });
      expect(key.status).toBe(401);
      const invited = await fetch(`${admin}/admin/users`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ email: 'owner@bundle.test', name: 'Owner', roles: ['owner'] }),
      });
      expect(invited.status).toBe(201);
      const { inviteToken } = (await invited.json()) as { inviteToken: string };
      const accepted = await fetch(`${admin}/console/api/invitations/${inviteToken}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password: 'a long and rare passphrase' }),
      });
      expect(accepted.status).toBe(200);
      expect(String(((await accepted.json()) as { qrSvg: string }).qrSvg)).toMatch(/^<svg/);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
