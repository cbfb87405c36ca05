// `npm run openapi`: writes the merchant API's OpenAPI document to docs/openapi.json (and with --check,
// exits 1 when the committed file is not current instead of writing it).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from './openapi.document.js';

const target = fileURLToPath(new URL('../../../../docs/openapi.json', import.meta.url));
const text = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // Missing counts as stale.
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
