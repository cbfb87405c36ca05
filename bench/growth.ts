// The growth part of the bench (BENCH_ONLY=growth, issue 22): the same figures on empty stores and on stores
// filled to production-like volume, side by side from one run. A stack starts on fresh databases and the
// figures are measured (create-pay, query, transfer, callback delivery); it stops, each sweep's round is timed
// straight on its database; every store is filled in SQL (bench/growth-fill.ts, GROWTH_SCALE scales it),
// vacuumed and analyzed; a stack starts again on the filled databases and the same figures, sweep rounds,
// plans and sizes are measured. Targets: every throughput within 15 % and every p99 within 20 % of the empty
// figure, and every sweep's round costing what is due, not what the table holds.
import { performance } from 'node:perf_hooks';
import { type Ports, type Stack, type StackOptions, startStack } from '@agentpay/stack';
import pg from 'pg';
import { type FillReport, fillStores, MERCHANTS, type Store, volumes } from './growth-fill.js';
import { runIndexesOnly } from './growth-indexes.js';
import {
  CALLBACK_ENDPOINTS,
  CALLBACK_RATE,
  CALLBACK_SECONDS,
  CONCURRENCY,
  type Figures,
  measureFigures,
  PER_WINDOW,
  refusals,
  WINDOWS,
} from './growth-load.js';
import {
  fillOrderMerchants,
  logOrderReads,
  measureOrderReads,
  type OrderMerchant,
  type OrderReads,
} from './growth-orders.js';
import { checkLedger, DUE, type SweepTiming, sizes, timeSettlement, timeSweeps } from './growth-stores.js';
import { closedLoop } from './load.js';
import { type BenchMerchant, benchMerchant, fundMerchant, payRequests } from './setup.js';

const scale = Number(process.env['GROWTH_SCALE'] ?? '1');

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const _median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const _percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Business order numbers of the bench merchant's orders: `count` filled ones spread over the months. */
async function filledBizOrderNos(stack: Stack, mchNo: string, count: number): Promise<string[]> {
  const client = new pg.Client({ connectionString: stack.databaseUrl('payments') });
  await client.connect();
  try {
    const { rows } = await client.query<{ biz_order_no: string }>(
      `select biz_order_no from pay_orders tablesample system (5) where mch_no = $1 and biz_order_no like 'G%' limit $2`,
      [mchNo, count],
    );
    if (rows.length > 0) return rows.map((r) => r.biz_order_no);
    // A small GROWTH_SCALE fills too few pages for a 5 % sample to hold one of them: read them all.
    const all = await client.query<{ biz_order_no: string }>(
      `select biz_order_no from pay_orders where mch_no = $1 and biz_order_no like 'G%' order by random() limit $2`,
      [mchNo, count],
    );
    return all.rows.map((r) => r.biz_order_no);
  } finally {
    await client.end();
  }
}

async function recentBizOrderNos(stack: Stack, mchNo: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: stack.databaseUrl('payments') });
  await client.connect();
  try {
    const { rows } = await client.query<{ biz_order_no: string }>(
      `select biz_order_no from pay_orders where mch_no = $1 order by created_at desc limit 500`,
      [mchNo],
    );
    return rows.map((r) => r.biz_order_no);
  } finally {
    await client.end();
  }
}

/**
 * GROWTH_PARTS=orders: the orders pages alone. A stack starts on fresh databases (the migrations) and stops;
 * payments gets only the two merchants' orders (no other store is filled); the stack starts again on the
 * same ports and the same reads are measured, printed in the same table.
 */
async function runOrdersOnly(
  start: (ports?: Ports) => Promise<Stack>,
  log: (line?: string) => void,
): Promise<void> {
  log(`## Growth: the orders pages only (GROWTH_PARTS=orders, GROWTH_SCALE=${scale})`);
  log();
  let stack = await start();
  await stack.stop();
  const fillStarted = performance.now();
  const merchants = await fillOrderMerchants(stack.databaseUrl('payments'), scale, (line) =>
    process.stdout.write(`${line}\n`),
  );
  const fillSeconds = (performance.now() - fillStarted) / 1000;
  stack = await start(stack.ports);
  let reads: { big: OrderReads; small: OrderReads } | Error;
  try {
    reads = await measureOrderReads(stack.urls.admin, merchants).catch((err: Error) => err);
  } finally {
    await stack.stop();
  }
  log(
    `Payments filled with only the two merchants' orders (${merchants.big.orders.toLocaleString('en-US')} and ${merchants.small.orders}) in ${fmt(fillSeconds, 0)} s, then ANALYZE; no other store filled.`,
  );
  logOrderReads(log, merchants.big, merchants.small, reads);
  if (reads instanceof Error) throw reads;
}

export async function runGrowthBench(opts: {
  startOptions: Omit<StackOptions, 'natsUrl' | 'databasePrefix' | 'ports'>;
  natsUrl: string;
  prefix: string;
  log: (line?: string) => void;
}): Promise<void> {
  const { log, prefix } = opts;
  // The services' warnings and errors, counted (and the first errors kept) for the report.
  const serviceLog = new Map<string, number>();
  const serviceErrors: string[] = [];
  // GROWTH_LOG=1 shows the services' warnings and errors (LOG_LEVEL of the run) instead of silencing them.
  // The second start takes the first one's ports: the router's sandbox route was stored with its address.
  const start = (ports?: Ports) =>
    startStack({
      ...opts.startOptions,
      // A shared or busy machine (the fill's vacuum, other runs) can take minutes to bring a stack up.
      readyTimeoutMs: 300_000,
      ...(process.env['GROWTH_LOG'] === '1' && { output: 'pretty' }),
      onLog: (service, line) => {
        // The services log the level's label (packages/logger).
        const level = /"level":"(\w+)"/.exec(line)?.[1];
        if (level !== 'warn' && level !== 'error' && level !== 'fatal') return;
        const key = `${service} ${level}`;
        serviceLog.set(key, (serviceLog.get(key) ?? 0) + 1);
        if (level !== 'warn' && serviceErrors.length < 8)
          serviceErrors.push(`${service}: ${line.slice(0, 400)}`);
      },
      natsUrl: opts.natsUrl,
      databasePrefix: prefix,
      ports: ports ?? 'random',
    });
  // GROWTH_PARTS=orders: only the orders pages, at full size without the other stores' fill.
  if (process.env['GROWTH_PARTS'] === 'orders') {
    await runOrdersOnly(start, log);
    return;
  }
  // GROWTH_PARTS=indexes: create-pay on a filled pay_orders with and without the order search's indexes.
  if (process.env['GROWTH_PARTS'] === 'indexes') {
    await runIndexesOnly(start, scale, prefix, log);
    return;
  }
  const v = volumes(scale);
  log(`## Growth: empty stores against stores at production-like volume (GROWTH_SCALE=${scale})`);
  log();

  // What was measured so far: a step that fails leaves the ones after it undefined, and the report below
  // shows what there is, with the failure, instead of nothing (a late failure used to lose the whole run).
  let stage = 'starting the empty stack';
  let failure: Error | undefined;
  let empty: (Figures & { cpu: string }) | undefined;
  let emptySettlement: SweepTiming | undefined;
  let emptySweeps: SweepTiming[] | undefined;
  let fills: FillReport[] | undefined;
  let fillSeconds = Number.NaN;
  let filled: (Figures & { cpu: string }) | undefined;
  let filledSettlement: SweepTiming | undefined;
  let check: Awaited<ReturnType<typeof checkLedger>> | undefined;
  let filledSweeps: SweepTiming[] | undefined;
  let size: Awaited<ReturnType<typeof sizes>> | undefined;
  let orderMerchants: { big: OrderMerchant; small: OrderMerchant } | undefined;
  let orderReads: { big: OrderReads; small: OrderReads } | Error | undefined;
  try {
    // Empty.
    let stack = await start();
    let merchant: BenchMerchant;
    try {
      stage = 'the empty figures';
      merchant = await benchMerchant(stack.urls.admin);
      await fundMerchant(stack, merchant, 'growth');
      await closedLoop(stack.urls.gateway, payRequests(merchant, 500), 8);
      empty = await measureFigures(stack, merchant, await recentBizOrderNos(stack, merchant.mchNo), prefix);
      stage = 'the settlement round on the empty stores';
      emptySettlement = await timeSettlement(stack, false);
    } finally {
      await stack.stop();
    }
    process.stdout.write('empty figures measured\n');
    stage = 'the sweep rounds on the empty stores';
    emptySweeps = [...(await timeSweeps(stack, merchant.mchNo, false, 'empty')), emptySettlement];

    // Fill.
    stage = 'the fill';
    const urls: Record<Store, string> = {
      payments: stack.databaseUrl('payments'),
      transfers: stack.databaseUrl('transfers'),
      router: stack.databaseUrl('upstream-router'),
      notifier: stack.databaseUrl('notifier'),
      gateway: stack.databaseUrl('gateway'),
      ledger: stack.databaseUrl('ledger'),
    };
    const fillStarted = performance.now();
    fills = await fillStores({
      scale,
      urls,
      benchMchNo: merchant.mchNo,
      subjectPrefix: `${prefix}.events`,
      log: (line) => process.stdout.write(`${line}\n`),
    });
    fillSeconds = (performance.now() - fillStarted) / 1000;
    // The orders pages' two merchants (bench/growth-orders.ts): a million orders (scaled) and ten.
    stage = 'the orders pages fill';
    orderMerchants = await fillOrderMerchants(urls.payments, scale, (line) =>
      process.stdout.write(`${line}\n`),
    );

    // Filled.
    stage = 'starting the filled stack';
    stack = await start(stack.ports);
    try {
      stage = 'the filled figures';
      const old = await filledBizOrderNos(stack, merchant.mchNo, 2000);
      filled = await measureFigures(stack, merchant, old, prefix);
      stage = 'the orders pages';
      if (orderMerchants) {
        orderReads = await measureOrderReads(stack.urls.admin, orderMerchants).catch((err: Error) => err);
      }
      // A failure here is reported, not allowed to throw the fill away.
      filledSettlement = await timeSettlement(stack, true).catch((err: Error) => ({
        name: `ledger settlement (failed: ${err.message})`,
        idleMs: Number.NaN,
        dueMs: Number.NaN,
        due: 0,
        batches: 0,
      }));
    } finally {
      await stack.stop();
    }
    stage = "the ledger's check";
    if (process.env['GROWTH_CHECK'] !== '0')
      check = await checkLedger(stack).catch((err: Error) => ({
        ok: false,
        seconds: Number.NaN,
        entries: '?',
        problems: [`check failed: ${err.message}`],
      }));
    process.stdout.write('filled figures measured\n');
    stage = 'the sweep rounds on the filled stores';
    filledSweeps = [...(await timeSweeps(stack, merchant.mchNo, true, 'filled')), filledSettlement];
    stage = 'the sizes';
    size = await sizes(stack);
  } catch (err) {
    failure = err as Error;
    log(
      `**This run failed during ${stage}**: \`${failure.message.replaceAll('`', "'")}\`. What follows is what it measured before; a figure it did not reach shows \`-\`.`,
    );
    log();
  }

  // The report.
  if (fills)
    log(
      `Volumes at this scale: ${v.payOrders.toLocaleString('en-US')} pay orders (${v.openOrders.toLocaleString('en-US')} open, expiring over the next 30 days), ${v.transfers.toLocaleString('en-US')} transfers (${v.transfersInProgress.toLocaleString('en-US')} in progress), ${v.deliveries.toLocaleString('en-US')} callback deliveries with their attempts of the last 30 days, ${v.entries.toLocaleString('en-US')} ledger entries (${v.hotEntries.toLocaleString('en-US')} of them the bench merchant's, the one the transfers below freeze against), ${v.notices.toLocaleString('en-US')} upstream notices, ${v.nonces.toLocaleString('en-US')} nonces, published outbox rows of the last 7 days, over ${MERCHANTS} merchants. Filled in ${fmt(fillSeconds, 0)} s (SQL, two connections), then VACUUM (ANALYZE).`,
    );
  if (fills) {
    log();
    log('| store | seconds | rows |');
    log('|---|---|---|');
    for (const f of fills)
      log(
        `| ${f.store} | ${fmt(f.seconds, 0)} | ${Object.entries(f.rows)
          .map(([t, n]) => `${t} ${n.toLocaleString('en-US')}`)
          .join(', ')} |`,
      );
    log();
  }
  log(
    `Figures (closed loop at ${CONCURRENCY}, ${WINDOWS} windows of ${PER_WINDOW} requests, median of the windows; callbacks at ${CALLBACK_RATE}/s for ${CALLBACK_SECONDS} s to ${CALLBACK_ENDPOINTS} loopback endpoints, ${WINDOWS} windows). Queries ask for the bench merchant's own orders: on the empty stores the last ones it created, on the filled ones orders spread over the six months. Target: throughput at least 85 % and p99 at most 120 % of the empty figure.`,
  );
  log();
  log('| figure | empty | filled | filled / empty | target | verdict | errors (empty / filled) |');
  log('|---|---|---|---|---|---|---|');
  const rows: [string, keyof Figures][] = [
    ['create-pay', 'pay'],
    ['query/payOrder', 'query'],
    ['transfer create', 'transfer'],
    ['callback delivery', 'callback'],
  ];
  const notMeasured = { throughput: Number.NaN, p99: Number.NaN, errors: '-' };
  for (const [label, key] of rows) {
    const e = empty?.[key] ?? notMeasured;
    const f = filled?.[key] ?? notMeasured;
    const tr = f.throughput / e.throughput;
    const pr = f.p99 / e.p99;
    const verdict = (ratio: number, ok: boolean) => (Number.isFinite(ratio) ? (ok ? 'met' : 'missed') : '-');
    const unit = key === 'callback' ? 'delivered/s' : 'req/s';
    const delay = key === 'callback' ? 'delay p99 ms' : 'p99 ms';
    log(
      `| ${label} ${unit} | ${fmt(e.throughput, 0)} | ${fmt(f.throughput, 0)} | ${fmt(100 * tr, 0)} % | ≥ 85 % | ${verdict(tr, tr >= 0.85)} | ${e.errors} / ${f.errors} |`,
    );
    log(
      `| ${label} ${delay} | ${fmt(e.p99, 2)} | ${fmt(f.p99, 2)} | ${fmt(100 * pr, 0)} % | ≤ 120 % | ${verdict(pr, pr <= 1.2)} | |`,
    );
  }
  log();
  log(`While the empty figures ran: ${empty?.cpu ?? '-'}. While the filled ones ran: ${filled?.cpu ?? '-'}.`);
  if (orderMerchants && orderReads) logOrderReads(log, orderMerchants.big, orderMerchants.small, orderReads);
  log();
  log(
    `Services' log lines at warn and above over the whole run: ${[...serviceLog].map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}.`,
  );
  for (const e of serviceErrors) log(`- \`${e.replaceAll('`', "'")}\``);
  if (refusals.length > 0) {
    log();
    log(`First refused answers: ${refusals.map((r) => `\`${r}\``).join('; ')}.`);
  }
  const unmeasured = (name: string): SweepTiming => ({
    name,
    idleMs: Number.NaN,
    dueMs: Number.NaN,
    due: 0,
    batches: 0,
  });
  const sweepRows = Math.max(emptySweeps?.length ?? 0, filledSweeps?.length ?? 0);
  if (sweepRows > 0) {
    log();
    log(
      `Sweep rounds: idle is a round with nothing due (median of five); due is the round over ${DUE} rows made due for it (the ledger: every pay-in due within 73 h, through RunSettlement on the running stack). A round follows what is due when the filled idle round stays within 2× (or 5 ms) of the empty one and the due round's cost per row within 2× of the empty one's.`,
    );
    log();
    log(
      '| sweep | idle ms empty | idle ms filled | due rows empty / filled | due round ms empty | due round ms filled | ms per due row empty / filled | verdict |',
    );
    log('|---|---|---|---|---|---|---|---|');
  }
  for (let i = 0; i < sweepRows; i++) {
    const e = emptySweeps?.[i] ?? unmeasured(filledSweeps![i]!.name);
    const f = filledSweeps?.[i] ?? unmeasured(e.name);
    const perE = e.due > 0 ? e.dueMs / e.due : Number.NaN;
    const perF = f.due > 0 ? f.dueMs / f.due : Number.NaN;
    const idleOk = f.idleMs <= Math.max(2 * e.idleMs, e.idleMs + 5);
    const dueOk = !Number.isFinite(perE) || !Number.isFinite(perF) || perF <= 2 * perE;
    const verdict =
      !Number.isFinite(e.idleMs) || !Number.isFinite(f.idleMs)
        ? '-'
        : idleOk && dueOk
          ? 'follows what is due'
          : 'grows with the table';
    log(
      `| ${f.name} | ${fmt(e.idleMs, 2)} | ${fmt(f.idleMs, 2)} | ${e.due} / ${f.due} | ${fmt(e.dueMs, 0)} | ${fmt(f.dueMs, 0)} | ${fmt(perE, 3)} / ${fmt(perF, 3)} | ${verdict} |`,
    );
  }
  if (check) {
    log();
    log(
      `The ledger's check (its Check call's function, straight on the database, without the cross-checks against orders) over the filled books (${check.entries} entries): ${check.ok ? 'ok' : `${check.problems.length} problems: ${check.problems.slice(0, 5).join('; ')}`}, in ${fmt(check.seconds, 0)} s.`,
    );
  }
  if (filledSweeps?.some((f) => f.plan)) {
    log();
    log(
      "Plans of each sweep's main statement on the filled stores (EXPLAIN (ANALYZE, BUFFERS), rolled back), with the rows made due in place:",
    );
  }
  for (const f of filledSweeps ?? []) {
    if (!f.plan) continue;
    log();
    log(`${f.name}:`);
    log();
    log('```');
    log(f.plan);
    log('```');
  }
  if (failure) throw failure;
  if (!size) return;
  log();
  log('Sizes on the filled stores (tables over 1 MB; rows as estimated by ANALYZE):');
  log();
  log('| database | table | rows | heap MB | indexes MB | total MB |');
  log('|---|---|---|---|---|---|');
  const mb = (b: number) => fmt(b / 2 ** 20, 0);
  for (const t of size.tables.filter((t) => t.total >= 2 ** 20))
    log(
      `| ${t.db} | ${t.table} | ${t.rows.toLocaleString('en-US')} | ${mb(t.heap)} | ${mb(t.indexes)} | ${mb(t.total)} |`,
    );
  log();
  log('| database | index | MB |');
  log('|---|---|---|');
  for (const i of size.indexes.filter((i) => i.size >= 2 ** 20))
    log(`| ${i.db} | ${i.index} | ${mb(i.size)} |`);
}
