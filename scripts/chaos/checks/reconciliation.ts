// Reconciliation after the fault run (CONTRACT.md 14, issue 19): every Mexico City day the run touched is
// reconciled through the admin API once the platform settled, and each discrepancy found must be one the
// load made on purpose. The load makes exactly one kind: `unmatched_deposit`, money that reached a virtual
// account without paying its order, in two ways:
// - a deposit of the wrong amount (pay-expire: one centavo more than the order), once per attempt that
//   reached the sandbox;
// - a deposit retried after its reply was lost to a fault (a kill, an outage): the first attempt paid the
//   order, the retry lands on a paid account (`applied: false`); at most one per attempt after the first.
// Both happen on the sandbox route only. Over STP the platform answers every deposit on arrival, and sends
// back (`devolver`) what pays no order: a wrong amount, a retry landing on a paid order. STP returns it at
// once, and reconciliation counts it as returned, never as a discrepancy (CONTRACT.md 16). So the STP route
// must reconcile with no discrepancy at all, and with exactly as many returned deposits as the emulator
// sent back.
// Anything else (money the platform never recorded, a payout the channel never made, another amount, a
// day whose run failed) is a violation: it would be money created, lost or doubled by a fault.
import { type DepositRecord, ROUTE_IDS } from '../records.js';

/** One route's counts of a day's run, as POST /admin/reconciliations answers them. */
export interface ReconRouteCounts {
  routeId: string;
  lines: number;
  matched: number;
  pending: number;
  discrepancies: number;
  /** Deposits the channel sent back on arrival (the platform refused them). */
  returned?: number;
  /** `failed` when the route's statement could not be read (its counts are then absent), with why. */
  state?: string;
  error?: string;
}

/** A day's run through the admin API: its routes' counts, or why it failed. */
export interface ReconDayRun {
  day: string;
  ok: boolean;
  /** The admin API's answer when the run failed (status and body, or the error). */
  error?: string;
  routes: ReconRouteCounts[];
}

/** A discrepancy as GET /admin/discrepancies lists it (amounts in pesos). */
export interface ReconDiscrepancy {
  id: string;
  kind: string;
  routeId: string;
  day: string;
  amount: number;
  platform: Record<string, unknown>;
  channel: Record<string, unknown>;
}

export interface ReconciliationInput {
  runs: ReconDayRun[];
  discrepancies: ReconDiscrepancy[];
  /** The load's deposits, each with the attempts it sent. */
  deposits: DepositRecord[];
  /** Deposits the STP emulator sent back because the platform answered `devolver` (its R orders in D). */
  stpReturned: number;
}

/** One route's runs over every day: the counts, and how many of its discrepancies nothing explains. */
export interface RouteTotals {
  lines: number;
  matched: number;
  returned: number;
  pending: number;
  discrepancies: number;
  unexplained: number;
}

export interface ReconciliationCheck {
  violations: string[];
  /** Each explained discrepancy and why. */
  explained: { id: string; kind: string; why: string }[];
  /** Per kind: how many the load explains and how many it does not. */
  byKind: Record<string, { explained: number; unexplained: number }>;
  /** The runs' totals over every day and route. */
  totals: { days: number; lines: number; matched: number; pending: number; discrepancies: number };
  /** Per route id, over every day. */
  byRoute: Record<string, RouteTotals>;
}

const centavos = (pesos: unknown) => Math.round(Number(pesos) * 100);

function describe(d: ReconDiscrepancy): string {
  const c = d.channel;
  const p = d.platform;
  const ref = c['platformRef'] || p['orderNo'] || p['transferNo'] || c['reference'] || '?';
  const channel = Object.keys(c).length
    ? ` channel ${c['kind']} ${c['reference']} ${c['amount']} applied=${c['applied']} at ${c['occurredAt']}`
    : '';
  const platform = Object.keys(p).length ? ` platform ${JSON.stringify(p)}` : '';
  return `${d.kind} #${d.id} on ${d.routeId} ${d.day}: ${String(ref)} ${d.amount} pesos;${channel}${platform}`;
}

/**
 * Explains every discrepancy from what the load did on purpose, and reports each one it cannot explain,
 * and each day whose run failed or left lines pending (the ledger runs with RECON_GRACE_MS=0).
 */
export function checkReconciliation(input: ReconciliationInput): ReconciliationCheck {
  const violations: string[] = [];
  const explained: ReconciliationCheck['explained'] = [];
  const byKind: ReconciliationCheck['byKind'] = {};
  const totals = { days: input.runs.length, lines: 0, matched: 0, pending: 0, discrepancies: 0 };
  const byRoute: Record<string, RouteTotals> = {};
  const routeTotals = (routeId: string) => {
    byRoute[routeId] ??= { lines: 0, matched: 0, returned: 0, pending: 0, discrepancies: 0, unexplained: 0 };
    return byRoute[routeId];
  };

  for (const run of input.runs) {
    if (!run.ok) violations.push(`reconciliation of ${run.day} failed: ${run.error ?? 'no answer'}`);
    for (const r of run.routes) {
      const route = routeTotals(r.routeId);
      route.lines += r.lines;
      route.matched += r.matched;
      route.returned += r.returned ?? 0;
      route.pending += r.pending;
      route.discrepancies += r.discrepancies;
      totals.lines += r.lines;
      totals.matched += r.matched;
      totals.pending += r.pending;
      totals.discrepancies += r.discrepancies;
      if (r.pending > 0)
        violations.push(
          `reconciliation of ${run.day} on ${r.routeId}: ${r.pending} line(s) pending with no grace`,
        );
    }
  }
  if (input.runs.length === 0) violations.push('no day was reconciled');

  // What the load's deposits may leave unmatched, per order and amount in centavos: the budget each
  // unmatched deposit consumes one of.
  const budget = new Map<string, { left: number; why: string }[]>();
  for (const d of input.deposits.filter((deposit) => deposit.route === 'sandbox')) {
    const attempts = d.attempts ?? 1;
    const allowed = d.exact ? attempts - 1 : attempts;
    if (allowed <= 0) continue;
    const key = `${d.orderNo}|${centavos(d.amount)}`;
    const list = budget.get(key) ?? [];
    list.push({
      left: allowed,
      why: d.exact
        ? `the load retried its deposit to ${d.orderNo} (${attempts} attempts) after a lost reply; the retry found the account paid`
        : `the load deposited a wrong amount to ${d.orderNo} on purpose (${attempts} attempt(s))`,
    });
    budget.set(key, list);
  }

  const sorted = [...input.discrepancies].sort((a, b) => Number(a.id) - Number(b.id));
  for (const d of sorted) {
    const counts = byKind[d.kind] ?? { explained: 0, unexplained: 0 };
    byKind[d.kind] = counts;
    let why: string | undefined;
    if (
      d.kind === 'unmatched_deposit' &&
      d.channel['kind'] === 'deposit' &&
      d.routeId === ROUTE_IDS.sandbox
    ) {
      const orderNo = String(d.channel['platformRef'] ?? '');
      const amount = centavos(d.channel['amount'] ?? d.amount);
      // A deposit the channel applied and the platform still calls unmatched is not one the load made.
      const slot =
        d.channel['applied'] === false
          ? budget.get(`${orderNo}|${amount}`)?.find((s) => s.left > 0)
          : undefined;
      if (orderNo && slot) {
        slot.left -= 1;
        why = slot.why;
      }
    }
    if (why) {
      counts.explained += 1;
      explained.push({ id: d.id, kind: d.kind, why });
    } else {
      counts.unexplained += 1;
      routeTotals(d.routeId).unexplained += 1;
      violations.push(`unexplained ${describe(d)}`);
    }
  }
  const stp = byRoute[ROUTE_IDS.stp];
  const stpDeposits = input.deposits.filter((d) => d.route === 'stp').length;
  if (stpDeposits > 0 && !stp) violations.push(`no reconciliation run covered ${ROUTE_IDS.stp}`);
  if (stp && stp.returned !== input.stpReturned)
    violations.push(
      `${ROUTE_IDS.stp}: reconciliation counts ${stp.returned} deposits returned, the STP emulator sent back ${input.stpReturned}`,
    );
  return { violations, explained, byKind, totals, byRoute };
}
