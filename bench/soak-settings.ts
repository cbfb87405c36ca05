// The soak part's settings (SOAK_* variables), the helpers its run and report share, and how its tables are
// classified (bench/soak.ts runs it, bench/soak-report.ts reports it).
import type { ServiceName } from '@agentpay/stack';

export const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0`);
  return value;
};
export const MINUTES = num('SOAK_MINUTES', 30);
export const SAMPLE_S = num('SOAK_SAMPLE_S', 10);
/** Share of the created orders paid through the sandbox, each with a callback to the sink. */
export const PAID_SHARE = num('SOAK_PAID_SHARE', 0.1);
/** Transfers and queries per created order. */
export const TRANSFER_SHARE = num('SOAK_TRANSFER_SHARE', 0.05);
export const QUERY_SHARE = num('SOAK_QUERY_SHARE', 0.05);
/**
 * expiredTime of each order, seconds after its signing; 0 (default) leaves the platform's default, 24 h. On two
 * cores the expiry of nine orders in ten (two upstream calls and a transition each) on top of the create-pay rate
 * overloads the stack, so by default the unpaid orders stay open through the run, as most of a day's would.
 */
export const EXPIRE_S = num('SOAK_EXPIRE_S', 0);
/** Every retention window of the run, seconds. */
export const RETENTION_S = num('SOAK_RETENTION_S', 60);
export const RETENTION_INTERVAL_MS = num('SOAK_RETENTION_INTERVAL_MS', 10_000);
/**
 * When the server's autovacuum is off (the repository's test Postgres runs without it), the soak vacuums its own
 * tables this often, choosing them as autovacuum's default thresholds would: without it no deleted row's space is
 * ever reused and every table a retention bounds grows in bytes however flat its row count.
 */
export const VACUUM_S = num('SOAK_VACUUM_S', 60);
export const CHUNK_S = 5;
export const SATURATION_CONCURRENCY = 64;
export const SATURATION_SECONDS = 20;
export const AMOUNT = 100.5;
export const TZ = 'America/Mexico_City';

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
export const mean = (values: number[]) =>
  values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

// --- Sampling --------------------------------------------------------------------------------------------

export const DATABASES: [string, ServiceName][] = [
  ['gateway', 'gateway'],
  ['payments', 'payments'],
  ['transfers', 'transfers'],
  ['router', 'upstream-router'],
  ['ledger', 'ledger'],
  ['notifier', 'notifier'],
  ['sandbox', 'upstream-sandbox'],
];

/** Tables a retention job bounds (docs/deploy.md "Retention"), by database. */
export const BOUNDED: Record<string, string[]> = {
  gateway: ['nonces', 'rate_windows'],
  payments: ['outbox', 'pay_order_status_history'],
  transfers: ['outbox'],
  router: ['outbox', 'upstream_notices'],
  ledger: ['outbox', 'statement_lines'],
  notifier: ['delivery_attempts', 'deliveries'],
  nats: ['events stream'],
  sandbox: ['notices', 'deposits', 'payouts', 'virtual_accounts'],
};
/** Kept CASHIER_LINK_RETENTION_DAYS past the latest expiry an order can have (30 days): longer than any soak. */
export const KEPT_PAST_EXPIRY = new Set(['gateway.cashier_links']);
export const isBounded = (table: string) => {
  const [db, name] = table.split('.') as [string, string];
  return BOUNDED[db]?.includes(name) ?? false;
};
/** With the default 24 h expiry, the sandbox keeps every unpaid order's account open through the run. */
export const openAccounts = (table: string) => table === 'sandbox.virtual_accounts' && EXPIRE_S === 0;
export const kindOf = (table: string) =>
  openAccounts(table)
    ? 'open until the order expires (24 h)'
    : isBounded(table)
      ? 'bounded'
      : KEPT_PAST_EXPIRY.has(table)
        ? 'kept 30 days + its retention'
        : 'record';

export interface Sample {
  /** Minutes since the soak started (the end of the window). */
  t: number;
  rssMb: Record<string, number>;
  payP50: number;
  payP99: number;
  transferP99: number;
  queryP99: number;
  callbackP99: number;
  transferCallbackP99: number;
  requests: number;
  callbacks: number;
  errors: number;
  lagMs: number;
  inflight: number;
  /**
   * CPU over the window, % of all cores: the machine busy, this run's services with the load generator and its
   * signer, and Postgres (every database on the server: other work on the machine shows here and in the rest).
   */
  cpu: { busy: number; ours: number; postgres: number };
  /** `<database>.<table>` → heap, TOAST and indexes, bytes; rows (exact for the tables retention bounds). */
  tables: Record<string, { bytes: number; rows: number }>;
}

/** One sample window's latencies (ms), errors and the generator's lag. */
export interface Window {
  pay: number[];
  transfer: number[];
  query: number[];
  callback: number[];
  transferCallback: number[];
  errors: number;
  lagMs: number;
}
export const emptyWindow = (): Window => ({
  pay: [],
  transfer: [],
  query: [],
  callback: [],
  transferCallback: [],
  errors: 0,
  lagMs: 0,
});
