// The reconciliation part of the bench (BENCH_ONLY=recon, issue 19): one Mexico City day filled in SQL with
// RECON_BENCH_LINES statement movements (default 1,000,000) on both sides, the sandbox's deposits and payouts
// (its statement) and the ledger's observed orders and journal entries (what a run matches against), all
// matching but for RECON_BENCH_MISMATCHES (default 300) planted of each kind; then one RunReconciliation of
// the day on the ledger, against the real router and sandbox processes. It reports wall time, lines/s, each
// of the three processes' resident memory before and at its peak during the run (VmRSS sampled from
// /proc every 100 ms), and whether the discrepancies found are exactly the ones planted.
//
// The rows are what the services write (ids, CLABEs, tracking keys and numbers in their formats, amounts
// in centavos, times spread over the day) with two simplifications that the run never reads: the CLABEs'
// check digit is not computed, and the ledger's entries get no postings (no account moves; the books'
// Check is not what is measured here).
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { createDb } from '@agentpay/db';
import { type Database as LedgerDb, matchDay } from '@agentpay/ledger';
import { CLIENT_OPTIONS, call, loadProtos } from '@agentpay/proto';
import { type ServiceName, type StackOptions, startStack } from '@agentpay/stack';
import { formatWireTime, parseWireTime } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import pg from 'pg';

const ROUTE = 'sandbox-default';
const ZONE = 'America/Mexico_City';
const MCH = 'RB00001';
const PROCESSES: ServiceName[] = ['ledger', 'upstream-router', 'upstream-sandbox'];

/** How many lines of each kind the day holds, for `lines` statement lines and `k` mismatches of each kind. */
export function reconVolumes(lines: number, k: number) {
  const returns = Math.round(lines * 0.02);
  const payouts = Math.round(lines * 0.25);
  // Lines: matched deposits, matched payouts (returned ones too: they left once), their returns, and three
  // planted kinds that are lines (missing_on_platform, amount_mismatch, unmatched_deposit). The fourth,
  // missing_on_channel, is a platform movement with no line.
  const deposits = lines - payouts - returns - 3 * k;
  if (deposits < 1) throw new Error(`RECON_BENCH_LINES=${lines} is too few for ${k} mismatches of each kind`);
  return { lines, k, deposits, payouts, returns, matched: lines - 3 * k };
}

async function exec(url: string, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** VmRSS of a process, MB; NaN when unreadable. */
async function rssMb(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

/**
 * The sandbox's side: per matched deposit a paid virtual account and its applied deposit; planted, K
 * deposits to orders the ledger never saw (missing_on_platform), K whose statement shows one centavo more
 * (amount_mismatch), K of a wrong amount to expired accounts (unmatched_deposit); payouts that succeeded,
 * some returned later the same day.
 */
export async function fillSandbox(
  url: string,
  day: string,
  v: ReturnType<typeof reconVolumes>,
): Promise<void> {
  const step = 86_400 / v.lines; // seconds between two movements, so the day is covered evenly
  const at = (g: string) =>
    `(${`'${day}'`}::date::timestamp at time zone '${ZONE}') + (${g}) * ${step} * interval '1 second'`;
  const ymd = day.replaceAll('-', '');
  const depositsTotal = v.deposits + 3 * v.k;
  // g numbers every deposit; 1..deposits match, then the three planted blocks of k.
  await exec(
    url,
    `insert into virtual_accounts (id, order_ref, clabe, reference, amount, expires_at, notice_url, status, paid_amount, paid_at, closed_at, created_at)
     select 'va_' || lpad(to_hex(g), 24, '0'), 'PB' || $1 || lpad(g::text, 9, '0'), '646180' || lpad(g::text, 11, '0') || '0',
            lpad(g::text, 7, '0'), 1000 + (g * 7919) % 999000,
            ${at('g')} + interval '1 day', 'http://127.0.0.1:1/notices/sandbox-default',
            case when g > $2 + 2 * $3 then 'expired' else 'paid' end,
            case when g > $2 + 2 * $3 then 0 else 1000 + (g * 7919) % 999000 end,
            case when g > $2 + 2 * $3 then null else ${at('g')} end, null,
            ${at('g')} - interval '10 minutes'
       from generate_series(1, $4::bigint) g`,
    [ymd, v.deposits, v.k, depositsTotal],
  );
  await exec(
    url,
    `insert into deposits (id, clabe, amount, account_id, matched, reason, notify, created_at, clave_rastreo, sender_account, sender_name, statement_amount)
     select 'dep_' || lpad(to_hex(g), 24, '0'), '646180' || lpad(g::text, 11, '0') || '0',
            1000 + (g * 7919) % 999000 + case when g > $2 + 2 * $3 then 1 else 0 end,
            'va_' || lpad(to_hex(g), 24, '0'), g <= $2 + 2 * $3,
            case when g > $2 + 2 * $3 then 'amount_mismatch' end, true, ${at('g')},
            'SBXD' || $1 || lpad(upper(to_hex(g)), 16, '0'), '012180' || lpad(g::text, 11, '0') || '0', 'PAGADOR SANDBOX',
            case when g > $2 + $3 and g <= $2 + 2 * $3 then 1000 + (g * 7919) % 999000 + 1 end
       from generate_series(1, $4::bigint) g`,
    [ymd, v.deposits, v.k, depositsTotal],
  );
  // Payouts: 1..payouts succeeded; the last `returns` of them came back an hour later (or at the day's end).
  await exec(
    url,
    `insert into payouts (id, payout_ref, amount, payee_type, account, name, bank_code, notice_url, status, planned_outcome,
            reason, settle_at, return_at, finished_at, returned_at, created_at, clave_rastreo, return_clave_rastreo)
     select 'po_' || lpad(to_hex(g), 24, '0'), 'TB' || $1 || lpad(g::text, 9, '0'), 500 + (g * 104729) % 900000,
            'spei_transfer', '002180' || lpad(g::text, 11, '0') || '0', 'Ana Perez', '002', 'http://127.0.0.1:1/notices/sandbox-default',
            case when g > $2 - $3 then 'returned' else 'succeeded' end,
            case when g > $2 - $3 then 'return' else 'succeed' end, null,
            ${at(`$4 + g`)}, null, ${at(`$4 + g`)},
            case when g > $2 - $3 then least(${at(`$4 + g`)} + interval '1 hour', ${at(`$5`)}) end,
            ${at(`$4 + g`)} - interval '2 seconds',
            'SBXP' || $1 || lpad(upper(to_hex(g)), 16, '0'),
            case when g > $2 - $3 then 'SBXR' || $1 || lpad(upper(to_hex(g)), 16, '0') end
       from generate_series(1, $2::bigint) g`,
    [ymd, v.payouts, v.returns, depositsTotal, v.lines - 1],
  );
  await exec(url, 'vacuum (analyze) virtual_accounts, deposits, payouts');
}

/**
 * The ledger's side: each matched deposit's order observed paid on the route with its pay_in entry (the
 * amount_mismatch block too: the platform's amount is the real one), each payout's transfer observed
 * success with its transfer_out (and transfer_return for the returned ones); the expired accounts' orders
 * observed timeout (nothing booked); and K transfers the platform paid out that the channel never made
 * (missing_on_channel). The missing_on_platform block has nothing here.
 */
export async function fillLedger(
  url: string,
  day: string,
  v: ReturnType<typeof reconVolumes>,
): Promise<void> {
  const step = 86_400 / v.lines;
  const at = (g: string) =>
    `(${`'${day}'`}::date::timestamp at time zone '${ZONE}') + (${g}) * ${step} * interval '1 second'`;
  const ymd = day.replaceAll('-', '');
  const depositsTotal = v.deposits + 3 * v.k;
  // Pay orders: matched (1..deposits), amount_mismatch (deposits+k+1..deposits+2k), timeout (the last k).
  await exec(
    url,
    `insert into observed_orders (kind, number, mch_no, biz_no, status, amount, fee, route_id, upstream_ref, version, occurred_at, succeeded_at)
     select 'pay', 'PB' || $1 || lpad(g::text, 9, '0'), $5, 'BIZ' || g, case when g > $2 + 2 * $3 then 'timeout' else 'success' end,
            1000 + (g * 7919) % 999000, 0, $6, 'va_' || lpad(to_hex(g), 24, '0'), 2, ${at('g')},
            case when g > $2 + 2 * $3 then null else ${at('g')} end
       from generate_series(1, $4::bigint) g where g <= $2 or g > $2 + $3`,
    [ymd, v.deposits, v.k, depositsTotal, MCH, ROUTE],
  );
  await exec(
    url,
    `insert into entries (key, type, mch_no, order_no, biz_order_no, amount, fee, remark, available_change, pending_change,
            frozen_change, available_after, pending_after, frozen_after, created_at)
     select 'pay_in:PB' || $1 || lpad(g::text, 9, '0'), 'pay_in', $5, 'PB' || $1 || lpad(g::text, 9, '0'), 'BIZ' || g,
            1000 + (g * 7919) % 999000, 0, '', 0, 1000 + (g * 7919) % 999000, 0, 0, 0, 0, ${at('g')}
       from generate_series(1, $4::bigint) g where g <= $2 or (g > $2 + $3 and g <= $2 + 2 * $3)`,
    [ymd, v.deposits, v.k, depositsTotal, MCH],
  );
  // Transfers: the channel's payouts (1..payouts), then k the channel never made.
  await exec(
    url,
    `insert into observed_orders (kind, number, mch_no, biz_no, status, amount, fee, route_id, upstream_ref, version, occurred_at, succeeded_at, returned_at)
     select 'transfer', 'TB' || $1 || lpad(g::text, 9, '0'), $5, 'BT' || g,
            case when g > $2 - $3 and g <= $2 then 'close' else 'success' end,
            500 + (g * 104729) % 900000, 0, $6, 'po_' || lpad(to_hex(g), 24, '0'), 3, ${at(`$4 + g`)}, ${at(`$4 + g`)},
            case when g > $2 - $3 and g <= $2 then least(${at(`$4 + g`)} + interval '1 hour', ${at(`$7`)}) end
       from generate_series(1, $2 + $8::bigint) g`,
    [ymd, v.payouts, v.returns, depositsTotal, MCH, ROUTE, v.lines - 1, v.k],
  );
  const entryColumns = `key, type, mch_no, transfer_no, biz_transfer_no, amount, fee, remark, available_change,
            pending_change, frozen_change, available_after, pending_after, frozen_after, created_at`;
  await exec(
    url,
    `insert into entries (${entryColumns})
     select 'transfer_out:TB' || $1 || lpad(g::text, 9, '0'), 'transfer_out', $4, 'TB' || $1 || lpad(g::text, 9, '0'), 'BT' || g,
            500 + (g * 104729) % 900000, 0, '', 0, 0, -(500 + (g * 104729) % 900000), 0, 0, 0, ${at(`$3 + g`)}
       from generate_series(1, $2 + $5::bigint) g`,
    [ymd, v.payouts, depositsTotal, MCH, v.k],
  );
  await exec(
    url,
    `insert into entries (${entryColumns})
     select 'transfer_return:TB' || $1 || lpad(g::text, 9, '0'), 'transfer_return', $4, 'TB' || $1 || lpad(g::text, 9, '0'), 'BT' || g,
            500 + (g * 104729) % 900000, 0, '', 500 + (g * 104729) % 900000, 0, 0, 0, 0, 0,
            least(${at(`$3 + g`)} + interval '1 hour', ${at(`$6`)})
       from generate_series($2::bigint - $5 + 1, $2::bigint) g`,
    [ymd, v.payouts, depositsTotal, MCH, v.returns, v.lines - 1],
  );
  await exec(url, 'vacuum (analyze) observed_orders, entries');
}

/**
 * RECON_BENCH_MATCH=1: the ledger's matching alone, for a day too big to stream (see docs/benchmarks.md):
 * the statement the sandbox would send written into statement_lines in SQL, then `matchDay` timed in one
 * transaction (rolled back) on the filled ledger, as a run calls it after loading the statement.
 */
async function timeMatchOnly(url: string, day: string, v: ReturnType<typeof reconVolumes>) {
  const step = 86_400 / v.lines;
  const at = (g: string) =>
    `(${`'${day}'`}::date::timestamp at time zone '${ZONE}') + (${g}) * ${step} * interval '1 second'`;
  const ymd = day.replaceAll('-', '');
  const depositsTotal = v.deposits + 3 * v.k;
  const loadStarted = performance.now();
  await exec(
    url,
    `insert into statement_lines (route_id, day, reference, kind, amount, occurred_at, clave_rastreo, account, platform_ref,
            upstream_ref, sender_account, sender_name, applied)
     select $6, $7, 'dep_' || lpad(to_hex(g), 24, '0'), 'deposit',
            1000 + (g * 7919) % 999000 + case when g > $2::bigint + $3 then 1 else 0 end, ${at('g')},
            'SBXD' || $1 || lpad(upper(to_hex(g)), 16, '0'), '646180' || lpad(g::text, 11, '0') || '0',
            'PB' || $1 || lpad(g::text, 9, '0'), 'va_' || lpad(to_hex(g), 24, '0'),
            '012180' || lpad(g::text, 11, '0') || '0', 'PAGADOR SANDBOX', g <= $2 + 2 * $3
       from generate_series(1, $4::bigint) g
     union all
     select $6, $7, 'po_' || lpad(to_hex(g), 24, '0'), 'payout', 500 + (g * 104729) % 900000, ${at('$4 + g')},
            'SBXP' || $1 || lpad(upper(to_hex(g)), 16, '0'), '002180' || lpad(g::text, 11, '0') || '0',
            'TB' || $1 || lpad(g::text, 9, '0'), 'po_' || lpad(to_hex(g), 24, '0'), '', '', true
       from generate_series(1, $5::bigint) g
     union all
     select $6, $7, 'rt_' || lpad(to_hex(g), 24, '0'), 'payout_return', 500 + (g * 104729) % 900000,
            least(${at('$4 + g')} + interval '1 hour', ${at('$9')}),
            'SBXR' || $1 || lpad(upper(to_hex(g)), 16, '0'), '002180' || lpad(g::text, 11, '0') || '0',
            'TB' || $1 || lpad(g::text, 9, '0'), 'po_' || lpad(to_hex(g), 24, '0'), '', '', true
       from generate_series($5::bigint - $8 + 1, $5::bigint) g`,
    [ymd, v.deposits, v.k, depositsTotal, v.payouts, ROUTE, day, v.returns, v.lines - 1],
  );
  await exec(url, 'vacuum (analyze) statement_lines');
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const db = createDb<LedgerDb>(url, { poolSize: 1 });
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const started = performance.now();
  let counts: Awaited<ReturnType<typeof matchDay>> | undefined;
  try {
    await db
      .transaction()
      .execute(async (trx) => {
        counts = await matchDay(trx, {
          routeId: ROUTE,
          day,
          start: parseWireTime(`${day} 00:00:00`, ZONE)!,
          end: parseWireTime(`${next} 00:00:00`, ZONE)!,
          cutoff: new Date(),
          // Both neighbours' statements count as stored: the bench judges every movement of its day.
          edgeMs: 15 * 60_000,
          previous: {
            day: new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10),
            fetchedAt: new Date(),
          },
          next: { day: next, fetchedAt: new Date() },
        });
        throw new Error('rolled back');
      })
      .catch((err: unknown) => {
        if (!(err instanceof Error && err.message === 'rolled back')) throw err;
      });
  } finally {
    await db.destroy();
  }
  return { loadSeconds, matchSeconds: (performance.now() - started) / 1000, counts };
}

export async function runReconBench(opts: {
  startOptions: Omit<StackOptions, 'natsUrl' | 'databasePrefix' | 'ports'>;
  natsUrl: string;
  prefix: string;
  log: (line?: string) => void;
}): Promise<void> {
  const { log } = opts;
  const lines = Number(process.env['RECON_BENCH_LINES'] ?? 1_000_000);
  const k = Number(process.env['RECON_BENCH_MISMATCHES'] ?? 300);
  const v = reconVolumes(lines, k);
  // Two days ago in Mexico City: whole, past any grace, inside every retention window.
  const day = formatWireTime(new Date(Date.now() - 2 * 86_400_000), ZONE).slice(0, 10);
  const stack = await startStack({
    ...opts.startOptions,
    natsUrl: opts.natsUrl,
    databasePrefix: opts.prefix,
    ports: 'random',
    serviceEnv: { ledger: { RECON_SCHEDULE: 'off' } },
    // RECON_BENCH_LOG=1 shows the services' warnings and errors (LOG_LEVEL of the run) instead of silencing them.
    ...(process.env['RECON_BENCH_LOG'] === '1' && { output: 'pretty' as const }),
  });
  try {
    const fillStarted = performance.now();
    await fillSandbox(stack.databaseUrl('upstream-sandbox'), day, v);
    await fillLedger(stack.databaseUrl('ledger'), day, v);
    const fillSeconds = (performance.now() - fillStarted) / 1000;
    process.stdout.write(`filled ${day} in ${fillSeconds.toFixed(0)} s\n`);
    if (process.env['RECON_BENCH_MATCH'] === '1') {
      const m = await timeMatchOnly(stack.databaseUrl('ledger'), day, v);
      log(
        `## Reconciliation: the ledger's matching alone, ${lines.toLocaleString('en-US')} lines (RECON_BENCH_MATCH=1)`,
      );
      log();
      log(
        `statement_lines written in SQL in ${m.loadSeconds.toFixed(1)} s; matchDay ${m.matchSeconds.toFixed(1)} s: ${m.counts?.lines} lines, ${m.counts?.matched} matched, ${m.counts?.pending} pending, ${m.counts?.discrepancies} discrepancies (expected ${lines} / ${v.matched} / 0 / ${4 * k}), ${m.counts?.newUnmatched.length} new unmatched deposits`,
      );
      log();
      return;
    }

    const pids = stack.pids();
    const before: Record<string, number> = {};
    const peak: Record<string, number> = {};
    for (const name of PROCESSES) {
      before[name] = await rssMb(pids[name]!);
      peak[name] = before[name];
    }
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const name of PROCESSES) peak[name] = Math.max(peak[name]!, await rssMb(pids[name]!));
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    const ledger = new (loadProtos().agentpay.ledger.v1.LedgerService)(
      `127.0.0.1:${stack.ports.ledger}`,
      grpc.credentials.createInsecure(),
      CLIENT_OPTIONS,
    );
    const runDay = (which: string) =>
      call(ledger, ledger.RunReconciliation, { day: which, route_id: ROUTE }, { timeoutMs: 60 * 60_000 });
    const nextDay = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const started = performance.now();
    let result: Awaited<ReturnType<typeof runDay>>;
    let emptySeconds = Number.NaN;
    let emptyLines = -1;
    try {
      result = await runDay(day);
    } catch (err) {
      // The run stores why it failed; the answer alone says only the gRPC status.
      const stored = await exec(
        stack.databaseUrl('ledger'),
        'select status, error, now() - started_at as took from recon_runs where day = $1 order by id desc limit 1',
        [day],
      );
      const row = stored.rows[0] as { error?: string; took?: unknown } | undefined;
      log(
        `reconciliation of ${day} failed after ${((performance.now() - started) / 1000).toFixed(0)} s: ${String(err)}; stored: ${row?.error ?? 'no run row'}`,
      );
      throw err;
    } finally {
      sampling = false;
      await sampler;
    }
    const seconds = (performance.now() - started) / 1000;
    try {
      // The next day has no line and no movement: what its run costs is what the filled day's history costs it.
      const emptyStarted = performance.now();
      emptyLines = Number((await runDay(nextDay))?.routes[0]?.lines ?? -1);
      emptySeconds = (performance.now() - emptyStarted) / 1000;
    } finally {
      ledger.close();
    }
    const route = result.routes[0];
    const found = await exec(
      stack.databaseUrl('ledger'),
      'select kind, count(*)::int as n from discrepancies where day = $1 and route_id = $2 group by kind order by kind',
      [day, ROUTE],
    );
    const byKind = Object.fromEntries(found.rows.map((r: { kind: string; n: number }) => [r.kind, r.n]));
    const kinds = ['amount_mismatch', 'missing_on_channel', 'missing_on_platform', 'unmatched_deposit'];
    const exact = kinds.every((kind) => byKind[kind] === k) && found.rows.length === kinds.length;
    const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '-');

    log(`## Reconciliation: one day of ${lines.toLocaleString('en-US')} statement lines (RECON_BENCH_LINES)`);
    log();
    log(
      `One Mexico City day (${day}) filled in SQL in ${fillSeconds.toFixed(0)} s: ${v.deposits.toLocaleString('en-US')} deposits paying their orders, ${v.payouts.toLocaleString('en-US')} payouts (${v.returns.toLocaleString('en-US')} of them returned the same day, a second line each), and ${k} planted of each discrepancy kind; then one \`RunReconciliation\` of route ${ROUTE} on the ledger, streaming the statement from the sandbox through the router (RECON_BATCH 1,000, the sandbox's statement page 500).`,
    );
    log();
    log('| Figure | Value |');
    log('| --- | --- |');
    log(`| Wall time of the run | ${seconds.toFixed(1)} s |`);
    log(`| Lines per second | ${fmt((route ? Number(route.lines) : 0) / seconds)} |`);
    log(
      `| Lines / matched / pending / discrepancies | ${route?.lines} / ${route?.matched} / ${route?.pending} / ${route?.discrepancies} (expected ${lines} / ${v.matched} / 0 / ${4 * k}) |`,
    );
    log(
      `| Discrepancies by kind | ${kinds.map((kind) => `${kind} ${byKind[kind] ?? 0}`).join(', ')} (${k} planted each: ${exact ? 'equal' : 'NOT EQUAL'}) |`,
    );
    for (const name of PROCESSES)
      log(
        `| RSS of ${name}, before → peak during the run | ${fmt(before[name]!)} → ${fmt(peak[name]!)} MB |`,
      );
    log(
      `| The next day (${nextDay}: ${emptyLines} lines, no movement), run after it | ${emptySeconds.toFixed(1)} s |`,
    );
    log();
  } finally {
    await stack.stop();
  }
}
