// What a chaos run reports: the faults it injected, what the load did, and each check's violations.
import type { ServiceName } from '@agentpay/stack';
import type { CallbackCheck } from './checks/callbacks.js';
import type { ReconciliationCheck } from './checks/reconciliation.js';
import type { InFlight } from './faults.js';
import {
  type CreateRecord,
  type DepositRecord,
  type Receipt,
  type RequestRecord,
  ROUTE_IDS,
  type RouteName,
} from './records.js';
import type { Snapshot } from './snapshot.js';
import { tally } from './tally.js';

export interface FaultRecord {
  name: string;
  /** When the fault began (kill, outage start), ms since the epoch. */
  from: number;
  /** When the component was back (restart ready, outage end). */
  to: number;
  service?: ServiceName;
  /** Which of the service's replicas, in a run with several. */
  replica?: number;
  /** A service that died on its own somewhere in [from, to], rather than killed at `from`. */
  crashed?: boolean;
  /** The router's and the sandbox's kills: the STP payouts they met mid-way. */
  inFlight?: InFlight;
}

/** A service that died on its own (not killed by the plan), noticed after a fault and started again. */
export interface CrashRecord {
  service: ServiceName;
  /** Which of the service's replicas, in a run with several. */
  replica?: number;
  /** The fault after which it was found dead. */
  after: string;
  /** Window in which it was down: from that fault's start until it was back (ms since the run began). */
  from: number;
  to: number;
  /** The service's last output lines before it died. */
  output: string[];
}

export interface Duplicate {
  key: string;
  deliveries: number;
  explanation: string;
}

export interface ChaosReport {
  name: string;
  prefix: string;
  postgres: 'terminate' | 'private-cluster';
  seed: number;
  /** Processes per service. */
  replicas: number;
  startedAt: string;
  durationMs: number;
  faults: FaultRecord[];
  counts: Record<string, number>;
  requestsByOutcome: Record<string, number>;
  violations: {
    answers: string[];
    exactlyOnce: string[];
    stateMachine: string[];
    callbacks: string[];
    convergence: string[];
    /** The ledger's check of its own invariants, asked of every ledger replica (when there is a ledger). */
    books: string[];
    /** Section 19's payout limits on the limited merchants (checks/limits.ts). */
    limits: string[];
    /** Replicas only: what must hold across them (a nonce spent once over both gateways, R3 streams). */
    replicas: string[];
    /**
     * The run's NATS after the faults: an anonymous client refused, every service connected as its own
     * user (checks/nats-auth.ts).
     */
    nats: string[];
    /**
     * Reconciliation of every day the run touched, once settled: a day whose run failed, a discrepancy the
     * load did not make on purpose (checks/reconciliation.ts), the books' check after the run booked it.
     */
    reconciliation: string[];
  };
  /** What the reconciliation after the run found: its totals and, per kind, explained and unexplained. */
  reconciliation: {
    days: string[];
    totals: ReconciliationCheck['totals'];
    byKind: ReconciliationCheck['byKind'];
    /** Per route id: the runs' totals over every day, and the route's discrepancies explained or not. */
    byRoute: ReconciliationCheck['byRoute'];
    explained: ReconciliationCheck['explained'];
  };
  duplicates: Duplicate[];
  /** Services that died on their own during the run (each was started again so the run could go on). */
  crashes: CrashRecord[];
  notes: string[];
  /** The last service log lines, kept when a check failed. */
  serviceLogTail: string[];
}

/** The counts of a report: how much load there was, so the checks' silence means something. */
export function runCounts(
  load: { requests: RequestRecord[]; creates: CreateRecord[]; deposits: DepositRecord[] },
  snap: Snapshot,
  receipts: Receipt[],
  callbacks: CallbackCheck,
): Record<string, number> {
  const statuses = (rows: { status: string }[]) => Object.entries(tally(rows, (r) => r.status));
  // Per route: what the merchants bound to it asked for, and where the stores say each order went.
  const perRoute: Record<string, number> = {};
  for (const route of ['sandbox', 'stp'] as const) {
    const id = ROUTE_IDS[route];
    const creates = load.creates.filter((c) => c.route === route);
    perRoute[`${route}.payAccepted`] = creates.filter((c) => c.kind === 'pay' && c.acceptedAs.length).length;
    perRoute[`${route}.transferAccepted`] = creates.filter(
      (c) => c.kind === 'transfer' && c.acceptedAs.length,
    ).length;
    perRoute[`${route}.depositsMatched`] = load.deposits.filter((d) => d.route === route && d.matched).length;
    for (const [k, v] of statuses(snap.payOrders.filter((o) => o.route_id === id)))
      perRoute[`${route}.pay.${k}`] = v;
    for (const [k, v] of statuses(snap.transfers.filter((t) => t.route_id === id)))
      perRoute[`${route}.transfer.${k}`] = v;
  }
  // Orders of a merchant bound to one route that the router sent to the other (its failover when a
  // route's breaker is open): allowed, and counted so a run shows how much of STP's load really was STP's.
  const bound = new Map<string, RouteName>(load.creates.map((c) => [`${c.mchNo}|${c.bizNo}`, c.route]));
  perRoute['failedOver'] = [
    ...snap.payOrders.map((o) => ({ key: `${o.mch_no}|${o.biz_order_no}`, routeId: o.route_id })),
    ...snap.transfers.map((t) => ({ key: `${t.mch_no}|${t.biz_transfer_no}`, routeId: t.route_id })),
  ].filter((o) => {
    const route = bound.get(o.key);
    return route !== undefined && o.routeId !== null && o.routeId !== ROUTE_IDS[route];
  }).length;
  return {
    requests: load.requests.length,
    gatewayRequests: load.requests.filter((r) => r.target === 'gateway').length,
    payCreates: load.creates.filter((c) => c.kind === 'pay').length,
    payAccepted: load.creates.filter((c) => c.kind === 'pay' && c.acceptedAs.length > 0).length,
    transferCreates: load.creates.filter((c) => c.kind === 'transfer').length,
    transferAccepted: load.creates.filter((c) => c.kind === 'transfer' && c.acceptedAs.length > 0).length,
    createRetries: load.creates.reduce((s, c) => s + Math.max(0, c.codes.length - 1), 0),
    deposits: load.deposits.length,
    depositsMatched: load.deposits.filter((d) => d.matched).length,
    payChanges: snap.payHistory.length,
    transferChanges: snap.transferEvents.length,
    callbacksReceived: receipts.length,
    callbacksAnsweredSuccess: receipts.filter((r) => r.answer === 'SUCCESS').length,
    changesDelivered: callbacks.delivered,
    changesSuperseded: callbacks.superseded,
    changesWithoutNotifyUrl: callbacks.skipped,
    duplicateDeliveries: callbacks.duplicates.length,
    orphanVirtualAccounts: snap.accounts.filter(
      (a) => !snap.payOrders.some((o) => o.order_no === a.order_ref),
    ).length,
    ...Object.fromEntries(statuses(snap.payOrders).map(([k, v]) => [`pay.${k}`, v])),
    ...Object.fromEntries(statuses(snap.transfers).map(([k, v]) => [`transfer.${k}`, v])),
    ...perRoute,
  };
}

/** A readable summary of a report; the violations in full. */
export function formatReport(report: ChaosReport): string {
  const lines = [
    `chaos run "${report.name}" (seed ${report.seed}, ${report.replicas} process(es) per service, Postgres: ${report.postgres}, ${Math.round(report.durationMs / 1000)} s)`,
    '',
    'faults (ms from start → back):',
    ...report.faults.map(
      (f) =>
        `  ${String(f.from).padStart(7)} → ${String(f.to).padStart(7)}  ${f.name}${
          f.inFlight
            ? ` (STP in flight: ${f.inFlight.stpTransfers} transfers, ${f.inFlight.stpOrders} orders at the emulator, ${f.inFlight.stpWebhooks} webhooks)`
            : ''
        }`,
    ),
    '',
    'counts:',
    ...Object.entries(report.counts).map(([k, v]) => `  ${k.padEnd(28)} ${v}`),
    '',
    'requests by outcome:',
    ...Object.entries(report.requestsByOutcome).map(([k, v]) => `  ${k.padEnd(28)} ${v}`),
    '',
    ...(report.duplicates.length
      ? [
          'duplicate deliveries:',
          ...report.duplicates.map((d) => `  ${d.key}: ${d.deliveries}× (${d.explanation})`),
          '',
        ]
      : []),
    ...(report.crashes.length
      ? [
          'services that died on their own (each started again):',
          ...report.crashes.map(
            (c) =>
              `  ${c.service} after "${c.after}": ${c.output
                .filter((l) => !l.startsWith('{'))
                .slice(0, 6)
                .join(' | ')}`,
          ),
          '',
        ]
      : []),
    ...(report.notes.length ? ['notes:', ...report.notes.map((n) => `  ${n}`), ''] : []),
    `reconciliation of ${report.reconciliation.days.join(', ')}: ${report.reconciliation.totals.lines} lines, ${report.reconciliation.totals.matched} matched, ${report.reconciliation.totals.pending} pending, ${report.reconciliation.totals.discrepancies} discrepancies`,
    ...Object.entries(report.reconciliation.byRoute).map(
      ([route, n]) =>
        `  ${route.padEnd(28)} ${n.lines} lines, ${n.matched} matched, ${n.returned} returned, ${n.pending} pending, ${n.discrepancies} discrepancies (${n.unexplained} unexplained)`,
    ),
    ...Object.entries(report.reconciliation.byKind).map(
      ([kind, n]) => `  ${kind.padEnd(28)} ${n.explained} explained, ${n.unexplained} unexplained`,
    ),
    '',
  ];
  for (const [check, list] of Object.entries(report.violations)) {
    lines.push(`${check}: ${list.length === 0 ? 'ok' : `${list.length} violation(s)`}`);
    for (const v of list.slice(0, 50)) lines.push(`  - ${v}`);
    if (list.length > 50) lines.push(`  … ${list.length - 50} more`);
  }
  return lines.join('\n');
}
