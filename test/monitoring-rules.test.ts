/**
 * The alert rules of the monitoring component, checked by Prometheus's own tool: `promtool check rules` on
 * the PrometheusRule's groups (deploy/k8s/components/monitoring/prometheus-rule.yaml, the rules' one home),
 * and `promtool test rules` on the cases beside it, a planted discrepancy among them. promtool comes with
 * Debian's `prometheus` package; without it these tests fail and say how to install it.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { REPO_ROOT } from './support/deploy-manifests.js';

const MONITORING = join(REPO_ROOT, 'deploy/k8s/components/monitoring');

interface RuleGroup {
  name: string;
  rules: { alert?: string; record?: string; expr: string }[];
}

function promtool(args: string[], cwd: string): { status: number | null; output: string } {
  const run = spawnSync('promtool', args, { cwd, encoding: 'utf8', timeout: 120_000 });
  if (run.error && (run.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new Error(
      'promtool is not installed: `apt-get install prometheus` (Debian) puts it on the PATH; the alert rules cannot be checked without it',
    );
  }
  if (run.error) throw run.error;
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('the alert rules (promtool)', () => {
  let dir: string;
  let groups: RuleGroup[];

  beforeAll(() => {
    const rule = parse(readFileSync(join(MONITORING, 'prometheus-rule.yaml'), 'utf8')) as {
      kind: string;
      spec: { groups: RuleGroup[] };
    };
    expect(rule.kind).toBe('PrometheusRule');
    groups = rule.spec.groups;
    // promtool reads a plain rules file: the PrometheusRule's spec, as the Operator hands it to Prometheus.
    dir = mkdtempSync(join(tmpdir(), 'agentpay-rules-'));
    writeFileSync(join(dir, 'rules.yaml'), stringify({ groups }));
    copyFileSync(join(MONITORING, 'monitoring-rules.test.yaml'), join(dir, 'monitoring-rules.test.yaml'));
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('are valid Prometheus rules (promtool check rules)', () => {
    const { status, output } = promtool(['check', 'rules', 'rules.yaml'], dir);
    expect(output).toContain('SUCCESS');
    expect(status, output).toBe(0);
  });

  it('fire on their cases, a planted discrepancy first, and stay quiet before their time (promtool test rules)', () => {
    const { status, output } = promtool(['test', 'rules', 'monitoring-rules.test.yaml'], dir);
    expect(status, output).toBe(0);
    expect(output).toContain('SUCCESS');
  });

  it('have a firing case for every alert', () => {
    const cases = parse(readFileSync(join(MONITORING, 'monitoring-rules.test.yaml'), 'utf8')) as {
      tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[];
    };
    const firing = new Set(
      cases.tests.flatMap((t) =>
        (t.alert_rule_test ?? []).filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname),
      ),
    );
    const alerts = groups.flatMap((g) => g.rules.flatMap((r) => (r.alert ? [r.alert] : [])));
    expect(alerts.length).toBeGreaterThan(15);
    expect(alerts.filter((a) => !firing.has(a))).toEqual([]);
  });

  it('would catch a rule that never fires: the discrepancy case fails against a broken rule', () => {
    const broken = groups.map((g) => ({
      ...g,
      rules: g.rules.map((r) =>
        r.alert === 'ReconciliationMissingMoney' ? { ...r, expr: r.expr.replace('> 0', '> 1') } : r,
      ),
    }));
    // The planted discrepancy's case alone, against the broken rules.
    const cases = parse(readFileSync(join(MONITORING, 'monitoring-rules.test.yaml'), 'utf8')) as {
      tests: unknown[];
    };
    writeFileSync(join(dir, 'broken.yaml'), stringify({ groups: broken }));
    writeFileSync(
      join(dir, 'discrepancy.test.yaml'),
      stringify({ ...cases, rule_files: ['broken.yaml'], tests: cases.tests.slice(0, 1) }),
    );
    const { status, output } = promtool(['test', 'rules', 'discrepancy.test.yaml'], dir);
    expect(status).not.toBe(0);
    expect(output).toContain('alertname: ReconciliationMissingMoney');
  });
});
