/**
 * Bundles each service's entry points (src/main.ts, src/migrate.ts) into services/<name>/dist/*.js, so the
 * images run plain `node dist/main.js` with no tsx and no TypeScript sources.
 *
 *   npm run bundle                 # every service
 *   npm run bundle -- gateway      # one or more by name
 *
 * The @agentpay/* workspace packages (TypeScript, "just-in-time") are bundled in. Every other package stays
 * an import from node_modules, installed with `npm ci --omit=dev` in the image's final stage: some of them
 * read files beside their own code at run time (grpc-health-check loads its .proto from __dirname, pino
 * spawns worker files for transports), which a bundle would break. The .proto contracts are read at run
 * time from PROTO_DIR (the images copy proto/ to /app/proto).
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

export const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Every deployable service, as named by its folder under services/. */
export const BUNDLED_SERVICES = [
  'gateway',
  'payments',
  'transfers',
  'ledger',
  'compliance',
  'upstream-router',
  'notifier',
  'upstream-sandbox',
] as const;

/**
 * NODE_OPTIONS of every image (Dockerfile.template sets it; test/deploy-docker.test.ts holds them equal).
 * The old-generation cap keeps a service's peak RSS near 150 MB under load (docs/benchmarks.md): without
 * it V8 sizes the heap from the host's memory and collects lazily, 190–205 MB on the bench machine.
 */
export const IMAGE_NODE_OPTIONS = '--enable-source-maps --max-old-space-size=128';

/**
 * The entry points a service image may run: the service itself, its migrate-only task, and (the payments
 * image only) the events stream's provision step (the nats-provision Job). Each is bundled where the
 * service has src/<entry>.ts.
 */
export const ENTRY_POINTS = ['main', 'migrate', 'nats-provision'] as const;

/** Leaves every bare import that is not an @agentpay/* workspace package to node_modules. */
const thirdPartyExternal: Plugin = {
  name: 'third-party-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@agentpay/') ? undefined : { path: args.path, external: true },
    );
  },
};

export interface BundleResult {
  service: string;
  /** Absolute paths of the written bundles. */
  files: string[];
  /** The packages the bundles import from node_modules (bare specifiers, `node:` built-ins excluded). */
  externals: string[];
}

/** Bundles one service into `<outDir>` (default services/<name>/dist), replacing what was there. */
export async function bundleService(service: string, outDir?: string): Promise<BundleResult> {
  const serviceDir = join(REPO_ROOT, 'services', service);
  const entries = ENTRY_POINTS.map((name) => ({ name, file: join(serviceDir, 'src', `${name}.ts`) })).filter(
    (entry) => existsSync(entry.file),
  );
  if (entries.length === 0) throw new Error(`services/${service} has no src/main.ts`);
  const out = outDir ?? join(serviceDir, 'dist');
  await rm(out, { recursive: true, force: true });
  const result = await build({
    metafile: true,
    entryPoints: Object.fromEntries(entries.map((e) => [e.name, e.file])),
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    // One file per entry: no shared chunks, so `node dist/migrate.js` loads nothing of the service.
    splitting: false,
    logLevel: 'warning',
    plugins: [thirdPartyExternal],
    absWorkingDir: REPO_ROOT,
  });
  const externals = new Set<string>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imported of output.imports) {
      if (imported.external && !imported.path.startsWith('node:')) externals.add(imported.path);
    }
  }
  return { service, files: entries.map((e) => join(out, `${e.name}.js`)), externals: [...externals].sort() };
}

async function cli(names: string[]): Promise<void> {
  const unknown = names.filter((n) => !(BUNDLED_SERVICES as readonly string[]).includes(n));
  if (unknown.length > 0) throw new Error(`unknown service(s): ${unknown.join(', ')}`);
  for (const service of names.length > 0 ? names : BUNDLED_SERVICES) {
    const { files } = await bundleService(service);
    process.stdout.write(`${service}: ${files.map((f) => f.slice(REPO_ROOT.length)).join(', ')}\n`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  cli(process.argv.slice(2)).catch((err: Error) => {
    process.stderr.write(`bundle: ${err.message}\n`);
    process.exit(1);
  });
}
