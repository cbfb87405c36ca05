// Reconciliation after the run settled: every Mexico City day the run touched, run through the admin API
// (POST /admin/reconciliations, every route), then every discrepancy of those days listed, page by page.
// The ledger runs with RECON_GRACE_MS=0 and RECON_SCHEDULE=off (stack.ts), so what the run did a second
// ago counts and nothing else reconciles behind the run's back.
import { TIME_ZONE } from '@agentpay/testing';
import { formatWireTime } from '@agentpay/wire';
import type { ReconDayRun, ReconDiscrepancy } from './checks/reconciliation.js';
import { errorText } from './client.js';

const DAY_MS = 86_400_000;
const ADMIN_TOKEN = 'dev-admin-token';

/**
 * The ledger judges a movement this close to a midnight only with both days' statements stored
 * (services/ledger/src/reconciliation, `dayEdgeMs`): the days around a run that starts or ends that close to
 * one are reconciled too.
 */
export const DAY_EDGE_MS = 15 * 60_000;

/** The Mexico City days from `from` to `to` (ms since the epoch), widened by DAY_EDGE_MS, in order. */
export function daysTouched(from: number, to: number): string[] {
  const first = formatWireTime(new Date(from - DAY_EDGE_MS), TIME_ZONE).slice(0, 10);
  const last = formatWireTime(new Date(to + DAY_EDGE_MS), TIME_ZONE).slice(0, 10);
  const days: string[] = [];
  for (let at = Date.parse(`${first}T00:00:00Z`); ; at += DAY_MS) {
    const day = new Date(at).toISOString().slice(0, 10);
    days.push(day);
    if (day >= last) break;
  }
  return days;
}

async function admin(adminUrl: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${adminUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(120_000),
  });
  return { status: response.status, text: await response.text() };
}

/** Runs each day (every route) and lists its discrepancies; a day whose run failed is reported, not thrown. */
export async function reconcileDays(
  adminUrl: string,
  days: string[],
): Promise<{ runs: ReconDayRun[]; discrepancies: ReconDiscrepancy[] }> {
  const runs: ReconDayRun[] = [];
  const discrepancies: ReconDiscrepancy[] = [];
  // Every day run before any is listed: a movement near a midnight is judged once both days' statements are
  // stored, and its discrepancy filed under its own day (services/ledger/README.md, the limit of matching).
  // Twice: the first pass stores every day's statement, the second (the one reported) judges every movement
  // near a midnight with both of its days stored, so none is left pending.
  for (const pass of [1, 2]) {
    if (pass === 2) runs.length = 0;
    for (const day of [...days].sort()) {
      try {
        const answer = await admin(adminUrl, 'POST', '/admin/reconciliations', { day });
        if (answer.status !== 200) {
          runs.push({
            day,
            ok: false,
            error: `HTTP ${answer.status} ${answer.text.slice(0, 300)}`,
            routes: [],
          });
          continue;
        }
        const { routes } = JSON.parse(answer.text) as Pick<ReconDayRun, 'routes'>;
        // A route that could not be reconciled is named failed in a 200 (CONTRACT.md 14): still a failed day.
        const failed = routes.filter((r) => r.state === 'failed');
        if (failed.length > 0) {
          runs.push({
            day,
            ok: false,
            error: failed.map((r) => `${r.routeId} failed: ${r.error ?? ''}`).join('; '),
            routes: [],
          });
          continue;
        }
        runs.push({ day, ok: true, routes });
      } catch (err) {
        runs.push({ day, ok: false, error: errorText(err), routes: [] });
      }
    }
  }
  for (const run of runs.filter((r) => r.ok)) {
    try {
      let after = '';
      for (;;) {
        const query = `day=${run.day}&limit=500${after ? `&after=${encodeURIComponent(after)}` : ''}`;
        const page = await admin(adminUrl, 'GET', `/admin/discrepancies?${query}`);
        if (page.status !== 200)
          throw new Error(`listing its discrepancies: HTTP ${page.status} ${page.text}`);
        const body = JSON.parse(page.text) as { items: ReconDiscrepancy[]; next?: string };
        discrepancies.push(...body.items);
        if (!body.next) break;
        after = body.next;
      }
    } catch (err) {
      run.ok = false;
      run.error = errorText(err);
    }
  }
  return { runs, discrepancies };
}
