// The soak's report: the figures at fixed minutes, a verdict per series, and the plot (bench/soak-plot.ts).
import { copyFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@agentpay/stack';
import type { LoadResult } from './load.js';
import { chartSvg, type Panel, renderPng } from './soak-plot.js';
import {
  CHUNK_S,
  EXPIRE_S,
  fmt,
  isBounded,
  kindOf,
  MINUTES,
  mean,
  openAccounts,
  PAID_SHARE,
  percentile,
  RETENTION_S,
  SAMPLE_S,
  SATURATION_CONCURRENCY,
  type Sample,
  VACUUM_S,
  type Window,
} from './soak-settings.js';

/** What a soak run measured, for its report. */
export interface SoakRun {
  log: (line?: string) => void;
  workDir: string;
  samples: Sample[];
  /** The latencies of each sample's window. */
  raw: Window[];
  saturation: LoadResult;
  rate: number;
  transferRate: number;
  queryRate: number;
  retentionEnv: Record<string, string>;
  sent: { pay: number; transfer: number; query: number; deposit: number };
  errors: { pay: number; transfer: number; query: number; deposit: number };
  callbacks: number;
  missing: { callbacks: number; transferCallbacks: number };
  generatorCpu: NodeJS.CpuUsage;
  signMs: number;
  refusals: string[];
  serviceLog: Map<string, number>;
  serviceErrors: string[];
  autovacuum: string | undefined;
  vacuumed: { tables: number; ms: number };
}

/** Writes the soak's report through `log`, and its plot and raw samples into `workDir` (and docs/ on request). */
export async function reportSoak(run: SoakRun): Promise<void> {
  const {
    log,
    workDir,
    samples,
    raw,
    saturation,
    rate,
    transferRate,
    queryRate,
    retentionEnv,
    sent,
    errors,
  } = run;
  const { callbacks, missing, generatorCpu, refusals, serviceLog, serviceErrors, autovacuum, vacuumed } = run;
  const cpu = os.cpus();
  const T = samples.at(-1)?.t ?? MINUTES;
  const [early, late]: [[number, number], [number, number]] =
    T >= 12
      ? [
          [2, 7],
          [T - 5, T],
        ]
      : [
          [0, T / 3],
          [(2 * T) / 3, T],
        ];
  const within = ([a, b]: [number, number]) => samples.filter((s) => s.t > a + 1e-9 && s.t <= b + 1e-9);
  const rawWithin = ([a, b]: [number, number]) =>
    raw.filter((_, i) => samples[i]!.t > a + 1e-9 && samples[i]!.t <= b + 1e-9);
  const periods =
    T >= 12
      ? 'minutes 2–7 against the last 5 minutes'
      : `the first third (0–${fmt(T / 3, 1)} min) against the last (${fmt((2 * T) / 3, 1)}–${fmt(T, 1)} min)`;

  log(
    `## Soak: ${fmt(MINUTES, MINUTES % 1 === 0 ? 0 : 1)} minutes at ${process.env['SOAK_RATE'] ? 'SOAK_RATE' : 'half the saturating create-pay rate'}`,
  );
  log();
  log(
    `Run ${new Date().toISOString()} on ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}; load generator, services, Postgres and NATS on this machine.`,
  );
  log();
  log(
    `Rate: create-pay saturates at ${fmt(saturation.throughput, 0)} req/s on this stack (closed loop, ${SATURATION_CONCURRENCY} in flight, ${saturation.requests} requests in ${fmt(saturation.seconds, 0)} s, p99 ${fmt(saturation.p99, 1)} ms); the soak sends ${rate} create-pay/s${process.env['SOAK_RATE'] ? ' (SOAK_RATE)' : ' (half of it)'}, open loop. Mixed in: ${fmt(100 * PAID_SHARE, 0)} % of the orders paid through the sandbox (POST /sandbox/deposits once the create answers; the callback goes to a loopback endpoint and its delay is receipt − deposit answer), ${fmt(transferRate, 1)} transfers/s (each with a callback), ${fmt(queryRate, 1)} queries/s of orders a few seconds old. Orders expire ${EXPIRE_S > 0 ? `${EXPIRE_S} s after they are signed (expiredTime), so the expiry sweep ends the unpaid ones during the run` : 'after the default 24 h'}. Requests are signed ${CHUNK_S} s of traffic at a time by a child process, a few seconds before they are due.`,
  );
  log();
  log(
    `Retention (docs/deploy.md "Retention"), every window ${RETENTION_S} s: ${Object.entries(retentionEnv)
      .map(([k, v]) => `\`${k}=${v}\``)
      .join(
        ', ',
      )}. The \`*_DAYS\` settings take fractions of a day.${RETENTION_S < 300 ? ' `NONCE_TTL_S` below the 300 s `reqTime` window leaves a replay gap no deployment should have; here it makes the nonce retention act within the run.' : ''} A cashier link goes 30 days (the longest \`expiredTime\`) plus its retention after it was written, so \`gateway.cashier_links\` is reported as growing, like the record. \`nats.events stream\` is the JetStream stream (bytes and messages), trimmed by \`EVENTS_MAX_AGE_DAYS\`.${EXPIRE_S === 0 ? ' With orders open 24 h, `sandbox.virtual_accounts` holds the open account of every unpaid order of the run (its retention takes accounts once they are finished): reported as growing too.' : ''}`,
  );
  log();
  log(
    `Sent ${sent.pay} create-pay, ${sent.deposit} deposits, ${sent.transfer} transfers, ${sent.query} queries; errors: create-pay ${errors.pay}, deposits ${errors.deposit}, transfers ${errors.transfer}, queries ${errors.query}. Callbacks received ${callbacks}; after a drain of up to 60 s, ${missing.callbacks} paid orders and ${missing.transferCallbacks} transfers had none. Load generator CPU: ${fmt((generatorCpu.user + generatorCpu.system) / 1000 / (T * 60), 0)} ms/s sending, ${fmt(run.signMs / (T * 60), 0)} ms/s signing.`,
  );
  if (refusals.length > 0)
    log(`First refusals: ${refusals.map((r) => `\`${r.replace(/\|/g, '\\|')}\``).join('; ')}`);
  const logged = [...serviceLog].map(([k, n]) => `${k} ${n}`).join(', ');
  log(`Service log lines at warn or above: ${logged || 'none'}.`);
  log(
    autovacuum === 'on'
      ? 'Autovacuum is on: the server vacuums the tables itself.'
      : `Autovacuum is off on this server: the soak stood in for it (SOAK_VACUUM_S=${VACUUM_S}): every ${VACUUM_S} s, \`VACUUM (ANALYZE)\` of each table past autovacuum's default thresholds (dead rows over 50 + 20 % of live rows, rows inserted since the last vacuum over 1000 + 20 %, changed since the last analyze over 50 + 10 %): ${vacuumed.tables} table vacuums, ${fmt(vacuumed.ms / 1000, 1)} s in all.`,
  );
  if (serviceErrors.length > 0)
    log(`First errors: ${serviceErrors.map((e) => `\`${e.replace(/\|/g, '\\|')}\``).join('; ')}`);
  log();

  // At fixed minutes (scaled to the run's length when it is not 30 minutes).
  const marks = [
    ...new Set(
      [1, 2, 5, 10, 15, 20, 25, 30].map((m) => {
        const target = (m * T) / 30;
        return samples.reduce(
          (best, s, i) => (Math.abs(s.t - target) < Math.abs(samples[best]!.t - target) ? i : best),
          0,
        );
      }),
    ),
  ].map((i) => samples[i]!);
  const processes = Object.keys(samples[0]?.rssMb ?? {});
  log(`At these minutes (each latency over the ${SAMPLE_S} s window ending there):`);
  log();
  log(`| series | ${marks.map((s) => `${fmt(s.t, s.t < 10 ? 1 : 0)} min`).join(' | ')} |`);
  log(`|---|${marks.map(() => '---').join('|')}|`);
  for (const p of processes)
    log(`| RSS ${p} MB | ${marks.map((s) => fmt(s.rssMb[p] ?? Number.NaN, 0)).join(' | ')} |`);
  const latencyRows: [string, (s: Sample) => number, number][] = [
    ['create-pay p50 ms', (s) => s.payP50, 1],
    ['create-pay p99 ms', (s) => s.payP99, 1],
    ['transfer p99 ms', (s) => s.transferP99, 1],
    ['query p99 ms', (s) => s.queryP99, 1],
    ['pay callback delay p99 ms', (s) => s.callbackP99, 0],
    ['transfer callback delay p99 ms', (s) => s.transferCallbackP99, 0],
    ['requests answered', (s) => s.requests, 0],
    ['errors', (s) => s.errors, 0],
    ['generator lag, max ms', (s) => s.lagMs, 0],
    ['CPU busy, machine %', (s) => s.cpu.busy, 0],
    ['CPU this run (services, generator) %', (s) => s.cpu.ours, 0],
    ['CPU Postgres (whole server) %', (s) => s.cpu.postgres, 0],
  ];
  for (const [name, get, digits] of latencyRows)
    log(`| ${name} | ${marks.map((s) => fmt(get(s), digits)).join(' | ')} |`);
  log();
  const last = samples.at(-1);
  const tableNames = Object.keys(last?.tables ?? {}).sort();
  const shown = tableNames.filter((t) => isBounded(t) || (last?.tables[t]?.bytes ?? 0) >= 1024 * 1024);
  log(
    'Tables (heap, TOAST and indexes, MB; rows exact for the tables retention bounds, estimates otherwise):',
  );
  log();
  log(`| table | kind | ${marks.map((s) => `${fmt(s.t, s.t < 10 ? 1 : 0)} min`).join(' | ')} |`);
  log(`|---|---|${marks.map(() => '---').join('|')}|`);
  for (const t of shown)
    log(
      `| ${t} | ${kindOf(t)} | ${marks
        .map((s) => {
          const v = s.tables[t];
          return v ? `${fmt(v.bytes / 2 ** 20, 2)} (${fmt(v.rows, 0)})` : '-';
        })
        .join(' | ')} |`,
    );
  log();

  // Verdicts.
  const [e, l] = [within(early), within(late)];
  const [re, rl] = [rawWithin(early), rawWithin(late)];
  const change = (a: number, b: number) => (100 * (b - a)) / a;
  log(
    `Verdicts, ${periods}. Flat: RSS within ±10 % (mean of the samples); a p99 within ±20 % or ±2 ms (over every request of the period); a table retention bounds within +20 % or +1 MB (mean size). Kept tables grow with traffic by design: their growth per minute over the last period instead.`,
  );
  log();
  log('| series | early | late | change | verdict |');
  log('|---|---|---|---|---|');
  const verdict = (a: number, b: number, pct: number, abs: number) =>
    !Number.isFinite(a) || !Number.isFinite(b)
      ? '-'
      : Math.abs(b - a) <= abs || Math.abs(change(a, b)) <= pct
        ? 'flat'
        : b < a
          ? 'lower'
          : '**grows**';
  for (const p of processes) {
    const [a, b] = [mean(e.map((s) => s.rssMb[p]!)), mean(l.map((s) => s.rssMb[p]!))];
    log(
      `| RSS ${p} MB | ${fmt(a, 0)} | ${fmt(b, 0)} | ${fmt(change(a, b), 0)} % | ${verdict(a, b, 10, 0)} |`,
    );
  }
  const latencySeries: [string, keyof Window][] = [
    ['create-pay p99 ms', 'pay'],
    ['transfer p99 ms', 'transfer'],
    ['query p99 ms', 'query'],
    ['pay callback delay p99 ms', 'callback'],
    ['transfer callback delay p99 ms', 'transferCallback'],
  ];
  for (const [name, key] of latencySeries) {
    const a = percentile(
      re.flatMap((w) => w[key] as number[]),
      99,
    );
    const b = percentile(
      rl.flatMap((w) => w[key] as number[]),
      99,
    );
    log(`| ${name} | ${fmt(a, 1)} | ${fmt(b, 1)} | ${fmt(change(a, b), 0)} % | ${verdict(a, b, 20, 2)} |`);
  }
  const lateStart = l[0] ? (samples[samples.indexOf(l[0]) - 1] ?? l[0]) : undefined;
  for (const t of shown) {
    const mb = (s: Sample) => (s.tables[t]?.bytes ?? Number.NaN) / 2 ** 20;
    const [a, b] = [mean(e.map(mb)), mean(l.map(mb))];
    if (isBounded(t) && !openAccounts(t)) {
      const v =
        Number.isFinite(a) && Number.isFinite(b)
          ? b - a <= 1 || change(a, b) <= 20
            ? 'flat'
            : '**grows**'
          : '-';
      log(`| ${t} MB | ${fmt(a, 2)} | ${fmt(b, 2)} | ${fmt(change(a, b), 0)} % | ${v} |`);
    } else if (lateStart && last) {
      const minutes = last.t - lateStart.t;
      const perMin = (mb(last) - mb(lateStart)) / minutes;
      const rowsPerMin = ((last.tables[t]?.rows ?? 0) - (lateStart.tables[t]?.rows ?? 0)) / minutes;
      log(
        `| ${t} MB | ${fmt(a, 2)} | ${fmt(b, 2)} | ${fmt(change(a, b), 0)} % | ${kindOf(t)}: ${fmt(perMin, 2)} MB/min, ${fmt(rowsPerMin, 0)} rows/min |`,
      );
    }
  }
  log();

  // Plot and raw samples.
  const series = (name: string, get: (s: Sample) => number) => ({
    name,
    points: samples.map((s) => [s.t, get(s)] as [number, number]),
  });
  const top = (names: string[], value: (v: { bytes: number; rows: number }) => number) =>
    names
      .sort((a, b) => (last?.tables[b]?.bytes ?? 0) - (last?.tables[a]?.bytes ?? 0))
      .slice(0, 10)
      .map((t) => series(t, (s) => (s.tables[t] ? value(s.tables[t]) : Number.NaN)));
  const mbOf = (v: { bytes: number }) => v.bytes / 2 ** 20;
  const boundedTables = tableNames.filter((t) => isBounded(t) && !openAccounts(t));
  const panels: Panel[] = [
    {
      title: 'RSS per process',
      yLabel: 'MB',
      series: processes.map((p) => series(p, (s) => s.rssMb[p] ?? Number.NaN)),
    },
    {
      title: `Latency per ${SAMPLE_S} s window`,
      yLabel: 'ms',
      series: [
        series('create-pay p50', (s) => s.payP50),
        series('create-pay p99', (s) => s.payP99),
        series('transfer p99', (s) => s.transferP99),
        series('query p99', (s) => s.queryP99),
        series('pay callback delay p99', (s) => s.callbackP99),
        series('transfer callback p99', (s) => s.transferCallbackP99),
      ],
    },
    {
      title: `Tables retention bounds (window ${RETENTION_S} s)`,
      yLabel: 'MB',
      series: top(boundedTables, mbOf),
    },
    {
      title: 'Tables kept (the record, and cashier links)',
      yLabel: 'MB',
      series: top(
        tableNames.filter((t) => !boundedTables.includes(t)),
        mbOf,
      ),
    },
    {
      title: 'Rows of the tables retention bounds (log scale)',
      yLabel: 'rows',
      yScale: 'log',
      series: top(boundedTables, (v) => v.rows),
    },
    {
      title: `Traffic per ${SAMPLE_S} s window`,
      yLabel: 'per second',
      series: [
        series('answered requests /s', (s) => s.requests / SAMPLE_S),
        series('callbacks /s', (s) => s.callbacks / SAMPLE_S),
        series('errors /s', (s) => s.errors / SAMPLE_S),
      ],
    },
    {
      title: `CPU per ${SAMPLE_S} s window (% of ${os.cpus().length} cores)`,
      yLabel: '%',
      series: [
        series('machine busy', (s) => s.cpu.busy),
        series('this run: services, generator', (s) => s.cpu.ours),
        series('Postgres (whole server)', (s) => s.cpu.postgres),
      ],
    },
  ];
  const svg = chartSvg(panels, {
    title: `Soak: ${rate} create-pay/s for ${fmt(T, 0)} min, ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}`,
    xLabel: 'minutes since the soak started',
  });
  writeFileSync(join(workDir, 'soak.svg'), svg);
  const png = join(workDir, 'soak.png');
  writeFileSync(png, renderPng(svg));
  writeFileSync(
    join(workDir, 'soak-samples.json'),
    `${JSON.stringify({ rate, saturation, retentionEnv, samples }, null, 1)}\n`,
  );
  if (process.env['SOAK_WRITE_DOCS'] === '1') copyFileSync(png, join(REPO_ROOT, 'docs', 'soak.png'));
  log(
    `Plot: ${process.env['SOAK_WRITE_DOCS'] === '1' ? 'docs/soak.png (copied from ' : ''}${png}${process.env['SOAK_WRITE_DOCS'] === '1' ? ')' : ''}; samples every ${SAMPLE_S} s in ${join(workDir, 'soak-samples.json')}.`,
  );
}
