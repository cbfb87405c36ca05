// `npm run openapi`: writes the merchant API's OpenAPI document to docs/openapi.json, formatted as the
// repository's formatter wants it (so `biome ci` stays clean). With --check it only compares, and exits 1
// when the committed file is not current.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from './openapi.document.js';

const root = fileURLToPath(new URL('../../../../../', import.meta.url));
const target = fileURLToPath(new URL('../../../../../docs/openapi.json', import.meta.url));
const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');

const text = execFileSync(
  process.execPath,
  [biome, 'format', `--stdin-file-path=${relative(root, target)}`],
  {
    cwd: root,
    input: JSON.stringify(buildOpenApiDocument()),
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'ignore'],
  },
);

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // A missing file is not current.
  }
  if (current !== text) {
    console.error(`${target} is not current: run npm run openapi`);
    process.exit(1);
  }
  console.log(`${target} is current`);
} else {
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}
