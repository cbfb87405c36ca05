// `npm run build` (also run by `npm pack` (prepack) and by `npm install` at the root): writes dist/, the
// package a merchant installs. dist/esm and dist/cjs each hold one bundled index.js and the declarations
// (tsc), and dist/cjs/package.json makes Node and TypeScript read that half as CommonJS.
// Plain JavaScript so it runs with nothing but the root dev dependencies (esbuild, typescript).
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

rmSync(dist, { recursive: true, force: true });

const common = {
  entryPoints: [join(root, 'src/index.ts')],
  bundle: true,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  banner: { js: `// @agentpay/merchant-sdk ${version}` },
};
await build({ ...common, format: 'esm', outfile: join(dist, 'esm/index.js') });
await build({ ...common, format: 'cjs', outfile: join(dist, 'cjs/index.js') });
writeFileSync(join(dist, 'cjs/package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
for (const file of readdirSync(join(dist, 'esm'))) {
  if (file.endsWith('.d.ts')) cpSync(join(dist, 'esm', file), join(dist, 'cjs', file));
}
