// The growth bench's index part (GROWTH_PARTS=indexes): what the order search's indexes cost create-pay on a
// full pay_orders. The whole growth part at scale 1 found create-pay on ten million orders below its target
// (docs/benchmarks.md "Growth"), after payments' migration 20261127T0300_order_search had added six indexes
// to the table; this part measures create-pay on the same filled table with them, without them, and with them
// built again, in one run, so the difference is theirs and not the machine's. Since migration
// 20261128T1700_order_search_opened the search has four, three of them partial on opened orders.
import { performance } from 'node:perf_hooks';
import type { Ports, Stack } from '@agentpay/stack';
import pg from 'pg';
import { fillPayments, type Store } from './growth-fill.js';
import { type Figure, PER_WINDOW, windows } from './growth-load.js';
import { closedLoop } from './load.js';
import { benchMerchant, fundMerchant, payRequests } from './setup.js';

/** The indexes on pay_orders that serve only the console's lists and search (payments' migrations 20261127T0300 and 20261128T1700). */
export const ORDER_SEARCH_INDEXES = [
  'pay_orders_mch_status_opened_idx',
  'pay_orders_biz_order_no_opened_idx',
  'pay_orders_clave_rastreo_idx',
  'pay_orders_clabe_idx',
] as const;

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

async function onPayments<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-growth-indexes' });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Create-pay, closed loop at 16: a warm-up of 600 (the JIT, the pools, the table's hot pages), then three windows, the median. */
async function createPay(stack: Stack, merchant: Awaited<ReturnType<typeof benchMerchant>>): Promise<Figure> {
  await closedLoop(stack.urls.gateway, payRequests(merchant, 600), 16);
  return windows(stack.urls.gateway, () => payRequests(merchant, PER_WINDOW));
}

export async function runIndexesOnly(
  start: (ports?: Ports) => Promise<Stack>,
  scale: number,
  prefix: string,
  log: (line?: string) => void,
): Promise<void> {
  log(
    `## Growth: what the order search's indexes cost create-pay (GROWTH_PARTS=indexes, GROWTH_SCALE=${scale})`,
  );
  log();
  let stack = await start();
  let merchant: Awaited<ReturnType<typeof benchMerchant>>;
  try {
    merchant = await benchMerchant(stack.urls.admin);
    await fundMerchant(stack, merchant, 'growth-indexes');
  } finally {
    await stack.stop();
  }
  const url = stack.databaseUrl('payments');
  const stores: Store[] = ['payments', 'transfers', 'router', 'notifier', 'gateway', 'ledger'];
  const fill = await fillPayments({
    scale,
    urls: Object.fromEntries(stores.map((s) => [s, url])) as Record<Store, string>,
    benchMchNo: merchant.mchNo,
    subjectPrefix: `${prefix}.events`,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  const definitions = await onPayments(url, async (c) => {
    await c.query('vacuum (analyze) pay_orders');
    const { rows } = await c.query<{ indexname: string; indexdef: string; mb: string }>(
      `select indexname, indexdef, round(pg_relation_size(indexname::regclass) / 1048576.0) as mb
         from pg_indexes where tablename = 'pay_orders' and indexname = any($1)`,
      [[...ORDER_SEARCH_INDEXES]],
    );
    const missing = ORDER_SEARCH_INDEXES.filter((name) => !rows.some((r) => r.indexname === name));
    if (missing.length)
      throw new Error(`pay_orders lacks ${missing.join(', ')}: update ORDER_SEARCH_INDEXES`);
    return rows;
  });
  const total = await onPayments(url, async (c) => {
    const { rows } = await c.query<{ n: string; mb: string }>(
      `select count(*) as n, round(sum(pg_relation_size(indexrelid)) / 1048576.0) as mb
         from pg_index where indrelid = 'pay_orders'::regclass`,
    );
    return rows[0]!;
  });
  process.stdout.write(`filled payments in ${fmt(fill.seconds, 0)} s; measuring\n`);

  stack = await start(stack.ports);
  const figures: { label: string; figure: Figure }[] = [];
  let rebuildSeconds = Number.NaN;
  try {
    figures.push({ label: `with every index (${total.n})`, figure: await createPay(stack, merchant) });
    await onPayments(url, async (c) => {
      for (const { indexname } of definitions) await c.query(`drop index ${indexname}`);
    });
    figures.push({
      label: `without the ${definitions.length} search indexes (${Number(total.n) - definitions.length})`,
      figure: await createPay(stack, merchant),
    });
    const started = performance.now();
    await onPayments(url, async (c) => {
      await c.query(`set maintenance_work_mem = '256MB'`);
      for (const { indexdef } of definitions) await c.query(indexdef);
      await c.query('analyze pay_orders');
    });
    rebuildSeconds = (performance.now() - started) / 1000;
    figures.push({ label: `with them built again (${total.n})`, figure: await createPay(stack, merchant) });
  } finally {
    await stack.stop();
  }

  log(
    `pay_orders filled with ${Object.values(fill.rows)[0]?.toLocaleString('en-US')} orders in ${fmt(fill.seconds, 0)} s (payments only), then VACUUM (ANALYZE); its ${total.n} indexes hold ${total.mb} MB, the ${definitions.length} search indexes ${definitions.reduce((sum, d) => sum + Number(d.mb), 0)} MB of it (${definitions.map((d) => `${d.indexname} ${d.mb}`).join(', ')}); built again in ${fmt(rebuildSeconds, 0)} s.`,
  );
  log();
  log('Create-pay, closed loop at 16, three windows of the requests, the median, on the filled table:');
  log();
  log('| pay_orders | create-pay req/s | p99 ms | errors |');
  log('|---|---|---|---|');
  for (const { label, figure } of figures)
    log(`| ${label} | ${fmt(figure.throughput, 0)} | ${fmt(figure.p99, 2)} | ${figure.errors} |`);
  log();
}
