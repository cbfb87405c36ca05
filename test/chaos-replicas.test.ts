import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, SERVICES } from '@agentpay/stack';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CI_REPLICAS_OPTIONS } from '../scripts/chaos/options.js';
import { type ChaosReport, formatReport } from '../scripts/chaos/report.js';
import { runChaos } from '../scripts/chaos/run.js';
import { testServiceEntry } from './support/stack.js';

// The fault run's CI variant with two processes of every service on a three-node JetStream cluster
// (`npm run chaos -- --replicas` is the long one): the events stream is declared with one copy and raised
// to three, the load runs through both gateways (from merchants on the sandbox route and on the STP route),
// and one replica of each service and the NATS node that
// leads the stream are killed with SIGKILL and started again while the other replicas carry the load.
// The checks are those of test/chaos-faults.test.ts, plus what must hold across replicas.

let report: ChaosReport;
const progress: string[] = [];

beforeAll(async () => {
  report = await runChaos({
    ...CI_REPLICAS_OPTIONS,
    entry: testServiceEntry(),
    log: (line) => progress.push(line),
  });
}, 420_000);

afterEach(({ task }) => {
  if (task.result?.state !== 'fail' || !report) return;
  const dir = join(REPO_ROOT, '.agentpay', 'chaos');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `ci-replicas-failed-${report.prefix}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stderr.write(`\n${formatReport(report)}\n\nprogress:\n${progress.join('\n')}\nreport: ${file}\n`);
  if (report.serviceLogTail.length)
    process.stderr.write(`\nlast service log lines:\n${report.serviceLogTail.slice(-150).join('\n')}\n`);
});

describe('two replicas of every service on a three-node NATS cluster, one of each killed -9 under load', () => {
  it('kills one replica of every service and the node leading the events stream, under a real load', () => {
    expect(report.replicas).toBe(2);
    const names = report.faults.map((f) => f.name);
    for (const service of SERVICES) expect(names).toContain(`kill -9 ${service} (replica 0 of 2)`);
    expect(names.some((n) => /^restart nats node .* the events stream leader/.test(n))).toBe(true);
    expect(report.counts['payAccepted']).toBeGreaterThanOrEqual(15);
    expect(report.counts['transferAccepted']).toBeGreaterThanOrEqual(5);
    expect(report.counts['depositsMatched']).toBeGreaterThanOrEqual(3);
    expect(report.counts['payChanges']).toBeGreaterThanOrEqual(10);
    expect(report.counts['transferChanges']).toBeGreaterThanOrEqual(5);
    expect(report.counts['callbacksAnsweredSuccess']).toBeGreaterThanOrEqual(10);
    for (const route of ['sandbox', 'stp']) {
      expect(report.counts[`${route}.payAccepted`], route).toBeGreaterThanOrEqual(6);
      expect(report.counts[`${route}.transferAccepted`], route).toBeGreaterThanOrEqual(3);
    }
    // The router's and the sandbox's replica 0 die with payouts over STP in flight.
    for (const service of ['upstream-router', 'upstream-sandbox'])
      expect(
        report.faults.find((f) => f.name.startsWith(`kill -9 ${service} `))?.inFlight?.stpTransfers,
        service,
      ).toBeGreaterThanOrEqual(1);
  });

  it('keeps three current copies of the stream and its consumers, and spends a nonce once over both gateways', () => {
    // The stream was declared with one copy and raised to three before the services started; after the
    // leader's node was killed, every copy must be current again on three distinct nodes.
    expect(report.violations.replicas).toEqual([]);
  });

  it('answers every request with a signed envelope; a killed gateway replica loses only its own in-flight requests', () => {
    // The client spreads requests over both gateways and skips one that refuses connections, as a
    // Service would; a connection error counts only while a gateway replica was down.
    expect(report.violations.answers).toEqual([]);
  });

  it('keeps every accepted pay order and transfer exactly once, sweeps and relays acting once across replicas', () => {
    expect(report.violations.exactlyOnce).toEqual([]);
    expect(report.violations.stateMachine).toEqual([]);
  });

  it('delivers every status change to its merchant once; a second delivery only after a notifier died mid-attempt', () => {
    expect(report.violations.callbacks).toEqual([]);
    for (const duplicate of report.duplicates)
      expect(duplicate.explanation).toMatch(/^notifier killed mid-attempt/);
  });

  it('keeps the books balanced: the ledger finds no broken invariant on any replica', () => {
    expect(report.violations.books).toEqual([]);
  });

  it('holds the payout limits of the limited merchants: nothing over perTransfer or the day accepted', () => {
    expect(report.violations.limits).toEqual([]);
  });

  it('reconciles every day the run touched and finds no discrepancy the load did not make on purpose', () => {
    expect(report.reconciliation.days.length).toBeGreaterThanOrEqual(1);
    expect(report.reconciliation.totals.matched).toBeGreaterThanOrEqual(10);
    expect(report.violations.reconciliation).toEqual([]);
    for (const counts of Object.values(report.reconciliation.byKind)) expect(counts.unexplained).toBe(0);
    expect(report.reconciliation.byRoute['stp-default']?.matched).toBeGreaterThanOrEqual(5);
    expect(report.reconciliation.byRoute['stp-default']?.discrepancies).toBe(0);
  });

  it('settles with every replica running and none died on its own', () => {
    expect(report.violations.convergence).toEqual([]);
    expect(report.crashes.map((c) => `${c.service}#${c.replica} after ${c.after}`)).toEqual([]);
  });

  it('runs on a NATS that refuses anonymous clients, every service connected as its own user', () => {
    // The private nats-server (or cluster) requires the production credentials: the stream was declared
    // by the provision user and each service ran with NATS_PROVISION=false (packages/stack).
    expect(report.violations.nats).toEqual([]);
  });
});
