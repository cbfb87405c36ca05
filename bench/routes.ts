// The routes part of the bench (BENCH_ONLY=routes): create-pay and transfer creates through the STP route
// (the sandbox's STP face: the router assigns the CLABE, signs every payout with the route's RSA key and
// the emulator checks it) beside the same requests through the sandbox route, on the stack of the run. Two
// merchants with the same request mix, one bound to `stp-default`; the sandbox figure is the reference.
// Afterwards the stores say where every order went, so a figure can never be the other route's.
import type { Stack } from '@agentpay/stack';
import { adminRequest } from '@agentpay/testing';
import pg from 'pg';
import { closedLoop, type LoadResult } from './load.js';
import { type BenchMerchant, benchMerchant, fundMerchant, payRequests, transferRequests } from './setup.js';

export const STP_ROUTE = 'stp-default';
export const SANDBOX_ROUTE = 'sandbox-default';

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** Binds `merchant` to a route through the admin API: its new orders and payouts go there. */
async function bind(adminUrl: string, routeId: string, merchant: BenchMerchant): Promise<void> {
  // A route's merchants need four eyes: asked as system:dev, approved by the stack's approver.
  const response = await adminRequest({
    adminUrl,
    method: 'POST',
    path: `/admin/routes/${routeId}/merchants/${merchant.mchNo}`,
  });
  if (response.status !== 200)
    throw new Error(`binding to ${routeId}: HTTP ${response.status} ${JSON.stringify(response.body)}`);
}

/** How many of a merchant's pay orders and transfers each route holds, from the services' own stores. */
async function routedCounts(stack: Stack, mchNo: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [service, table] of [
    ['payments', 'pay_orders'],
    ['transfers', 'transfers'],
  ] as const) {
    const client = new pg.Client({ connectionString: stack.databaseUrl(service) });
    await client.connect();
    try {
      const { rows } = await client.query<{ route_id: string | null; n: number }>(
        `select route_id, count(*)::int as n from ${table} where mch_no = $1 group by route_id`,
        [mchNo],
      );
      for (const r of rows) counts[`${table}@${r.route_id ?? 'none'}`] = r.n;
    } finally {
      await client.end();
    }
  }
  return counts;
}

const cells = (r: LoadResult) =>
  `${fmt(r.throughput, 0)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${r.errors}`;

/** Runs the routes part on `stack` and writes its table through `log`. */
export async function runRoutesBench(opts: {
  stack: Stack;
  log: (line?: string) => void;
  quick: boolean;
}): Promise<void> {
  const { stack, log, quick } = opts;
  const count = quick ? 300 : 1_500;
  const levels = quick ? [16] : [1, 16, 64];
  const sandbox = await benchMerchant(stack.urls.admin);
  const stp = await benchMerchant(stack.urls.admin);
  await bind(stack.urls.admin, STP_ROUTE, stp);
  for (const merchant of [sandbox, stp]) await fundMerchant(stack, merchant, 'bench routes');
  // Warm both paths (the STP route's key is read and cached at its first payout).
  for (const merchant of [sandbox, stp]) {
    await closedLoop(stack.urls.gateway, payRequests(merchant, 100), 8);
    await closedLoop(stack.urls.gateway, transferRequests(merchant, 100), 8);
  }

  log('## Routes: create-pay and transfer creates through STP beside the sandbox');
  log();
  log(
    `Two merchants, the same signed requests (create-pay of 100.50, transfers of 1.00 to one CLABE), ${count} per row, closed loop; one merchant on the sandbox route (the reference), one bound to \`${STP_ROUTE}\`, the STP emulator: there the router assigns the CLABE and signs each payout (RSA, the route's key) and the emulator checks the signature. Each STP row runs right after its sandbox row.`,
  );
  log();
  log(
    '| operation @ concurrency | sandbox req/s | p50 ms | p99 ms | errors | STP req/s | p50 ms | p99 ms | errors | STP / sandbox req/s |',
  );
  log('|---|---|---|---|---|---|---|---|---|---|');
  for (const [operation, requests] of [
    ['create-pay', payRequests],
    ['transfer', transferRequests],
  ] as const) {
    for (const c of levels) {
      const reference = await closedLoop(stack.urls.gateway, requests(sandbox, count), c);
      const overStp = await closedLoop(stack.urls.gateway, requests(stp, count), c);
      log(
        `| ${operation} @ ${c} | ${cells(reference)} | ${cells(overStp)} | ${fmt((100 * overStp.throughput) / reference.throughput, 0)} % |`,
      );
    }
  }
  log();
  const where = async (merchant: BenchMerchant) =>
    Object.entries(await routedCounts(stack, merchant.mchNo))
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
  log(
    `Where the stores say they went: sandbox merchant ${await where(sandbox)}; STP merchant ${await where(stp)}.`,
  );
  log();
}
