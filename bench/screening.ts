// The screening part of the bench (BENCH_ONLY=screening): transfer creates with no screening list in effect,
// then the same creates with a blocked list of 1,000,000 entries in effect (CONTRACT section 20: at most 5 ms
// more at the 99th percentile). Every create is screened either way (the payee by name, through compliance's
// trigram index); the list is written straight into the compliance database, as an approved upload would
// leave it, so the fill does not dominate the run. The payee is not on the list: every create goes through.
import { CLIENT_OPTIONS, call, loadProtos } from '@agentpay/proto';
import type { Stack } from '@agentpay/stack';
import * as grpc from '@grpc/grpc-js';
import pg from 'pg';
import { closedLoop, type LoadResult } from './load.js';
import { benchMerchant, fundMerchant, transferRequests } from './setup.js';

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/**
 * Writes a blocked list of `entries` names into the compliance database and puts it in effect: Spanish-like
 * names of three words from a few hundred syllable pairs, so the trigram index holds realistic, overlapping
 * posting lists. `folded` is what the service's foldName makes of them (lower case, words sorted; C order).
 */
async function fillList(databaseUrl: string, entries: number): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  try {
    await client.query(`insert into lists (id, name, kind, created_by) values ('lst_bench', 'bench 1M', 'blocked', 'bench')
      on conflict do nothing`);
    await client.query(
      `insert into list_versions (id, list_id, version, state, format, entries, uploaded_by, effective_at)
      values ('ver_bench', 'lst_bench', 1, 'pending', 'csv', $1, 'bench', now()) on conflict do nothing`,
      [entries],
    );
    await client.query('drop index if exists list_entries_folded_trgm');
    await client.query(
      `with syl(s) as (select unnest(array['ma','ri','lo','pe','so','ga','ta','ne','vi','ro','mu','ca','la','de',
         'fe','go','hu','ja','ki','za','bel','cor','dan','fer','gil','har','mon','nal','pla','quin']))
       , names as (
         select i, initcap(
           (select string_agg(s, '') from (select s from syl offset (i * 7) % 30 limit 1) a) ||
           (select string_agg(s, '') from (select s from syl offset (i * 13 + 5) % 30 limit 1) b) || ' ' ||
           (select string_agg(s, '') from (select s from syl offset (i * 17 + 3) % 30 limit 1) c) ||
           (select string_agg(s, '') from (select s from syl offset (i / 30) % 30 limit 1) d) ||
           (select string_agg(s, '') from (select s from syl offset (i / 900) % 30 limit 1) e) || ' ' ||
           (select string_agg(s, '') from (select s from syl offset (i / 27000) % 30 limit 1) f) ||
           (select string_agg(s, '') from (select s from syl offset (i * 31 + 11) % 30 limit 1) g)) as name
         from generate_series(1, $1) i)
       insert into list_entries (version_id, list_id, name, folded, reference)
       select 'ver_bench', 'lst_bench', name,
         array_to_string(array(select w from unnest(string_to_array(lower(name), ' ')) w order by w collate "C"), ' '),
         'BENCH-' || i
       from names`,
      [entries],
    );
    await client.query(
      'create index list_entries_folded_trgm on list_entries using gin (folded gin_trgm_ops)',
    );
    await client.query('analyze list_entries');
    await client.query(`update list_versions set state = 'effective' where id = 'ver_bench'`);
  } finally {
    await client.end();
  }
  return (performance.now() - started) / 1000;
}

/** Takes the bench list out of effect, so later parts of the run screen against no list. */
async function retireList(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`update list_versions set state = 'superseded' where id = 'ver_bench'`);
  } finally {
    await client.end();
  }
}

/** Screen alone, one call at a time (no case opened): p50 and p99 of `n` calls, ms. */
async function screenLatency(stack: Stack, n: number): Promise<{ p50: number; p99: number }> {
  const client = new (loadProtos().agentpay.compliance.v1.ComplianceService)(
    `127.0.0.1:${stack.ports.compliance}`,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
  const names = [
    'Ana Perez',
    'Maria Lopez Garcia',
    'Ricardo Salinas',
    'Malo Peri Sogaruca',
    'Empresa del Norte SA',
  ];
  const times: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      await call(client, client.Screen, {
        operation_kind: 'payout',
        operation_ref: `bench-${i}`,
        mch_no: 'BENCH',
        amount: '100',
        name: names[i % names.length]!,
        open_case: false,
      });
      times.push(performance.now() - started);
    }
  } finally {
    client.close();
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

const cells = (r: LoadResult) =>
  `${fmt(r.throughput, 0)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${r.errors}`;

/** Runs the screening part on `stack` and writes its table through `log`. */
export async function runScreeningBench(opts: {
  stack: Stack;
  log: (line?: string) => void;
  quick: boolean;
}): Promise<void> {
  const { stack, log, quick } = opts;
  const count = quick ? 300 : 1_500;
  const levels = quick ? [1, 16] : [1, 16, 64];
  const entries = Number(process.env['SCREENING_BENCH_ENTRIES'] ?? 1_000_000);
  const merchant = await benchMerchant(stack.urls.admin);
  await fundMerchant(stack, merchant, 'bench screening');
  await closedLoop(stack.urls.gateway, transferRequests(merchant, 100), 8);

  const without: LoadResult[] = [];
  for (const c of levels)
    without.push(await closedLoop(stack.urls.gateway, transferRequests(merchant, count), c));
  const screenWithout = await screenLatency(stack, count);
  const fillS = await fillList(stack.databaseUrl('compliance'), entries);
  await closedLoop(stack.urls.gateway, transferRequests(merchant, 100), 8);
  const withList: LoadResult[] = [];
  for (const c of levels)
    withList.push(await closedLoop(stack.urls.gateway, transferRequests(merchant, count), c));
  const screenWith = await screenLatency(stack, count);
  await retireList(stack.databaseUrl('compliance'));

  log(
    `## Screening: transfer creates with no list, then with ${entries.toLocaleString('en-US')} blocked entries`,
  );
  log();
  log(
    `One merchant, signed transfer creates of 1.00 (payee "Ana Perez", on no list), ${count} per row, closed loop. Every create is screened by compliance inside transfers' create; first with no list in effect, then with a blocked list of ${entries.toLocaleString('en-US')} generated names in effect (written in ${fmt(fillS, 0)} s, trigram GIN index built after the fill). Target: p99 at most 5 ms above the row without lists.`,
  );
  log();
  log(
    '| concurrency | no list req/s | p50 ms | p99 ms | errors | 1M list req/s | p50 ms | p99 ms | errors | p99 delta ms |',
  );
  log('|---|---|---|---|---|---|---|---|---|---|');
  levels.forEach((c, i) => {
    const a = without[i]!;
    const b = withList[i]!;
    log(`| ${c} | ${cells(a)} | ${cells(b)} | ${fmt(b.p99 - a.p99, 2)} |`);
  });
  log();
  log(
    `Screen alone (compliance's gRPC call, one at a time, ${count} calls over five names, no case opened): no list p50 ${fmt(screenWithout.p50, 2)} ms, p99 ${fmt(screenWithout.p99, 2)} ms; with the list p50 ${fmt(screenWith.p50, 2)} ms, p99 ${fmt(screenWith.p99, 2)} ms.`,
  );
  log();
}
