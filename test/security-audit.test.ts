import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from '@agentpay/stack';
import { describe, expect, it } from 'vitest';

// Issue 9: `npm audit` at no high or critical advisory in what ships (production dependencies).
// This machine reaches the npm registry but its network refuses the advisory endpoint (POST
// /-/npm/v1/security/advisories/bulk answers 405), so here the audit cannot run. The test then says so
// loudly (a warning annotation and a line on stderr) instead of passing as if audited; it fails when the
// audit ran and found high or critical advisories, and when not even the registry answers.

interface AuditJson {
  message?: string;
  metadata?: { vulnerabilities?: Record<string, number> };
  vulnerabilities?: Record<string, { severity: string; via: unknown[] }>;
}

function npm(args: string[]) {
  const result = spawnSync('npm', args, { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
  let json: unknown;
  try {
    json = JSON.parse(result.stdout);
  } catch {
    json = undefined;
  }
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, json };
}

describe('npm audit --omit=dev --audit-level=high', () => {
  it('finds no high or critical advisory in production dependencies, or reports plainly that it could not ask', async ({
    annotate,
  }) => {
    const audit = npm(['audit', '--omit=dev', '--audit-level=high', '--json']);
    const report = audit.json as AuditJson | undefined;
    const counts = report?.metadata?.vulnerabilities;
    if (counts) {
      const serious = Object.entries(report?.vulnerabilities ?? {})
        .filter(([, v]) => v.severity === 'high' || v.severity === 'critical')
        .map(([name, v]) => `${name} (${v.severity})`);
      expect(serious, 'production dependencies with high or critical advisories').toEqual([]);
      expect((counts['high'] ?? 0) + (counts['critical'] ?? 0)).toBe(0);
      expect(audit.status, audit.stderr).toBe(0);
      return;
    }

    const reason = report?.message ?? (audit.stderr.trim() || `exit ${audit.status}`);
    const ping = npm(['ping', '--json']);
    expect(
      ping.status,
      `npm audit could not run (${reason}), and the npm registry does not answer either: nothing was audited`,
    ).toBe(0);
    // The registry answers, so only the advisory service is out of reach: an environment limit, reported.
    expect(reason).toMatch(/advisories|audit/i);
    const warning = `AUDIT UNAVAILABLE: npm audit could not reach the advisory service (${reason}); dependencies were NOT audited`;
    process.stderr.write(`\n${warning}\n`);
    await annotate(warning, 'warning');
  }, 180_000);
});
