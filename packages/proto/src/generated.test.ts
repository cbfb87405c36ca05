import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const committed = join(root, 'packages/proto/src/generated');
const fresh = mkdtempSync(join(tmpdir(), 'proto-gen-'));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

afterAll(() => rmSync(fresh, { recursive: true, force: true }));

describe('generated proto types', () => {
  it('match what scripts/proto-gen.ts produces from proto/ (run `npm run proto:gen` after a proto change)', () => {
    execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/proto-gen.ts'), fresh], {
      cwd: root,
    });
    const expected = files(fresh)
      .map((f) => relative(fresh, f))
      .sort();
    const actual = files(committed)
      .map((f) => relative(committed, f))
      .sort();
    expect(actual).toEqual(expected);
    for (const file of expected) {
      expect(readFileSync(join(committed, file), 'utf8'), file).toBe(readFileSync(join(fresh, file), 'utf8'));
    }
  });
});
