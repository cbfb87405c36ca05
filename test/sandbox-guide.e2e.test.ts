import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, type Stack } from '@agentpay/stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// docs/sandbox-guide.md walked as a newcomer walks it: every `sh` block, in order, in one shell at the root
// of the repository, against a stack of its own. Only two things differ from a developer's terminal, both
// so that the walk meets no other stack and leaves nothing in the checkout: the stack's ports (the guide's
// 127.0.0.1:8080/8081/8090, and ADMIN_URL for the admin CLI's default) and the keys directory (`./keys`).
// A block the walk cannot run says why in a `<!-- walk-through: skip: … -->` line just before it.

const GUIDE = readFileSync(new URL('../docs/sandbox-guide.md', import.meta.url), 'utf8');

interface Block {
  line: number;
  text: string;
  skip?: string;
}

/** The guide's `sh` blocks in order, dedented, each with the skip reason written before it, if any. */
function shellBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let skip: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const marker = /<!-- walk-through: skip: (.+?) -->/.exec(lines[i]!);
    if (marker) skip = marker[1];
    const fence = /^(\s*)```(\S*)\s*$/.exec(lines[i]!);
    if (!fence) continue;
    const indent = fence[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j]!)) body.push(lines[j++]!.slice(indent));
    if (fence[2] === 'sh') blocks.push({ line: i + 1, text: body.join('\n'), ...(skip ? { skip } : {}) });
    skip = undefined;
    i = j;
  }
  return blocks;
}

let stack: Stack;
let keyDir: string;

beforeAll(async () => {
  const jq = spawnSync('jq', ['--version'], { encoding: 'utf8' });
  if (jq.error || jq.status !== 0)
    throw new Error('jq not found: the sandbox guide uses it (apt-get install -y jq)');
  stack = await startTestStack({ readyTimeoutMs: 180_000 });
  keyDir = mkdtempSync(join(tmpdir(), 'agentpay-guide-'));
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  if (keyDir) rmSync(keyDir, { recursive: true, force: true });
}, 120_000);

describe('docs/sandbox-guide.md', () => {
  const blocks = shellBlocks(GUIDE);

  it('has shell blocks for every step, and skips only those it says why for', () => {
    expect(blocks.filter((b) => !b.skip).length).toBeGreaterThanOrEqual(10);
    expect(blocks.filter((b) => b.skip).map((b) => b.skip)).toEqual([
      'needs a second person to approve',
      'starts the stack',
      'needs a delivery id from a list',
      'needs a second person to approve',
      'needs the STP binding above',
    ]);
  });

  it('runs every command of the guide in order, from the admin token to the statement', {
    timeout: 1_300_000,
  }, () => {
    const urls = stack.urls;
    const local = (text: string) =>
      text
        .replaceAll('http://127.0.0.1:8080', urls.gateway)
        .replaceAll('http://127.0.0.1:8081', urls.admin)
        .replaceAll('localhost:8081', urls.admin)
        .replaceAll('http://127.0.0.1:8090', urls.sandbox)
        .replaceAll('./keys/', `${keyDir}/`);
    const script = [
      'set -euo pipefail',
      ...blocks
        .filter((b) => !b.skip)
        .flatMap((b) => [`echo; echo "=== docs/sandbox-guide.md line ${b.line} ==="`, local(b.text)]),
      'echo; echo "=== walked ==="',
    ].join('\n');
    const env: NodeJS.ProcessEnv = { ...process.env, ADMIN_URL: urls.admin };
    // Nothing but what the guide sets: no token or merchant settings from the test's own environment.
    for (const name of [
      'ADMIN_TOKEN',
      'AGENTPAY_URL',
      'AGENTPAY_MCH_NO',
      'AGENTPAY_PRIVATE_KEY',
      'AGENTPAY_PLATFORM_PUBLIC_KEY',
    ])
      delete env[name];
    const run = spawnSync('bash', ['-c', script], {
      cwd: REPO_ROOT,
      env,
      encoding: 'utf8',
      timeout: 1_200_000,
    });
    const output = `${run.stdout}\n--- stderr ---\n${run.stderr.slice(-4000)}`;
    expect(run.status, output.slice(-8000)).toBe(0);
    expect(run.stdout).toContain('=== walked ===');

    const replies = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('{"code":'))
      .map((line) => JSON.parse(line) as { code: number; data: Record<string, unknown> | null });
    // Every merchant reply verified (npm run merchant exits 1 otherwise); the ones the guide shows:
    expect(replies[0]).toMatchObject({ code: 0, data: [{ code: 'mex_virtual_account' }] });
    expect(replies).toContainEqual(
      expect.objectContaining({
        code: 0,
        data: expect.objectContaining({ bizOrderNo: 'ORD-1', status: 'success' }),
      }),
    );
    expect(replies).toContainEqual(
      expect.objectContaining({ code: 0, data: expect.objectContaining({ bizTransferNo: 'TR-REJECT-1' }) }),
    );
    expect(replies).toContainEqual(expect.objectContaining({ code: 40002 }));
    const balance = replies.find((r) => r.data && 'currency' in r.data)!;
    expect(Number(balance.data!['available'])).toBeGreaterThan(50);
    // The sandbox answers a deposit in pesos, as sent (its statement, further on, keeps centavos).
    // curl prints no newline after the reply, so the next command's output may follow on the same line.
    const deposits = [...run.stdout.matchAll(/\{"depositId":"[^"]+","clabe":"\d+","amount":([\d.]+)/g)].map(
      (m) => Number(m[1]),
    );
    expect(deposits).toEqual([100.5, 1234.5, 1000, 200, 100.5]);
    // Section 2a: the order paid by a named payer, refunded in two parts, a third refused.
    expect(replies).toContainEqual(
      expect.objectContaining({
        code: 0,
        data: expect.objectContaining({
          bizRefundNo: 'REF-1',
          status: 'success',
          payeeAccount: '012180015555555550',
        }),
      }),
    );
    expect(replies).toContainEqual(
      expect.objectContaining({
        code: 0,
        data: expect.objectContaining({ bizRefundNo: 'REF-2', amount: 150 }),
      }),
    );
    expect(replies).toContainEqual(expect.objectContaining({ code: 30007 }));
  });
});
