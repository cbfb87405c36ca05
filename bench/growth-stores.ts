// The growth bench's view of the stores: each sweep's round timed straight on its database (idle, and
// over DUE due rows), the plans that show what a round reads, the ledger's check of the filled books, and
// the size of every table and index.
import { performance } from 'node:perf_hooks';
import { createDb } from '@agentpay/db';
import { type Database as LedgerDb, checkLedger as ledgerCheck } from '@agentpay/ledger';
import { claimDueDeliveries, msUntilNextDue, type Database as NotifierDb } from '@agentpay/notifier';
import { claimExpired, type Database as PaymentsDb } from '@agentpay/payments';
import { CLIENT_OPTIONS, call, loadProtos } from '@agentpay/proto';
import type { Stack } from '@agentpay/stack';
import { markChecked, progressDueForCheck, type Database as TransfersDb } from '@agentpay/transfers';
import * as grpc from '@grpc/grpc-js';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { CLABE } from './setup.js';

const _fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const _percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Rows made due for each sweep's timed round, whatever the scale: a round should cost this, not the table. */
export const DUE = Number(process.env['GROWTH_DUE'] ?? '1000');
/** The services' defaults the sweeps run with (their config.ts). */
export const EXPIRY_BATCH = 50;
export const EXPIRY_LEASE_MS = 120_000;
export const RECONCILE_AFTER_MS = 300_000;
export const NOTIFY_SLOTS = 512;
export const NOTIFY_PER_ENDPOINT = 64;
export const NOTIFY_LEASE_MS = 45_000;

export interface SweepTiming {
  name: string;
  /** A round with nothing due, ms (median of five). */
  idleMs: number;
  /** A round over `due` due rows, ms, and how many batches it took. */
  dueMs: number;
  due: number;
  batches: number;
  plan?: string;
}

/** A Kysely on one small pool that keeps the text and parameters of the statements it ran. */
export function capturingDb<DB>(url: string) {
  const statements: { sql: string; parameters: readonly unknown[] }[] = [];
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }),
    log: (event) => {
      if (event.level === 'query')
        statements.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  return { db, statements };
}

export async function msOf(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

export async function medianMs(fn: () => Promise<unknown>, times = 5): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < times; i++) runs.push(await msOf(fn));
  return median(runs);
}

/** EXPLAIN (ANALYZE, BUFFERS) of a statement with its parameters, rolled back (it may be an UPDATE). */
export async function explain(
  url: string,
  statement: { sql: string; parameters: readonly unknown[] },
): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers, costs off) ${statement.sql}`,
      statement.parameters as unknown[],
    );
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await client.query('rollback').catch(() => {});
    await client.end();
  }
}

/**
 * Times a round of the expiry sweep's claim, the transfers reconciliation's query, and the notifier's claim,
 * with the services' own repository functions, straight on the stopped stack's databases: idle (nothing due),
 * then over DUE rows made due for it (removed after, but the notifier's). The plan is of the due round's first
 * statement. `pass` (letters and digits) goes into every key of the rows a pass adds, so a second pass over
 * the same databases never meets the first one's.
 */
export async function timeSweeps(
  stack: Stack,
  benchMchNo: string,
  withPlans: boolean,
  pass: string,
): Promise<SweepTiming[]> {
  if (!/^[A-Za-z0-9]+$/.test(pass)) throw new Error(`timeSweeps: pass ${pass} is not letters and digits`);
  const out: SweepTiming[] = [];
  const admin = async (service: 'payments' | 'transfers' | 'notifier', text: string) => {
    const client = new pg.Client({ connectionString: stack.databaseUrl(service) });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };

  {
    const { db, statements } = capturingDb<PaymentsDb>(stack.databaseUrl('payments'));
    try {
      const idleMs = await medianMs(() => claimExpired(db, EXPIRY_BATCH, EXPIRY_LEASE_MS, new Date()));
      const claim = statements.at(-1)!;
      await admin(
        'payments',
        `insert into pay_orders (mch_no, biz_order_no, title, method, amount, fee, real_amount, status, settle_type,
           expired_time, pay_body, route_id, upstream_ref, fingerprint, opened_at, created_at)
         select '${benchMchNo}', 'GDUE${pass}-' || g, 'Due', 'mex_virtual_account', 10050, 100, 9950, 'wait', 'D+1',
           now() - g * interval '1 second', '{}', 'sandbox-default', 'SBXDUE${pass}-' || g, md5(g::text), now() - interval '1 day',
           now() - interval '1 day'
         from generate_series(1, ${DUE}) g`,
      );
      try {
        const plan = withPlans ? await explain(stack.databaseUrl('payments'), claim) : undefined;
        let batches = 0;
        const dueMs = await msOf(async () => {
          for (;;) {
            batches++;
            if ((await claimExpired(db, EXPIRY_BATCH, EXPIRY_LEASE_MS, new Date())).length < EXPIRY_BATCH)
              break;
          }
        });
        out.push({ name: 'expiry sweep (claimExpired, batch 50)', idleMs, dueMs, due: DUE, batches, plan });
      } finally {
        await admin('payments', `delete from pay_orders where biz_order_no like 'GDUE${pass}-%'`);
      }
    } finally {
      await db.destroy();
    }
  }

  {
    const { db, statements } = capturingDb<TransfersDb>(stack.databaseUrl('transfers'));
    try {
      // As reconciliation keeps them: every transfer in progress was asked within its last RECONCILE_AFTER_MS.
      await admin(
        'transfers',
        `update transfers set checked_at = now() - (hashtext(transfer_no) & 255) * interval '1 second' where status = 'progress'`,
      );
      const due = () => progressDueForCheck(db, new Date(Date.now() - RECONCILE_AFTER_MS), 50);
      const idleMs = await medianMs(due);
      const query = statements.at(-1)!;
      await admin(
        'transfers',
        `insert into transfers (transfer_no, mch_no, biz_transfer_no, amount, fee, payee_type, payee_account, status,
           submission, route_id, upstream_ref, fingerprint, version, created_at, updated_at)
         select 'TDUE${pass}-' || lpad(g::text, 12, '0'), '${benchMchNo}', 'GTDUE${pass}-' || g, 100, 5, 'spei_transfer',
           '${CLABE}', 'progress', 'accepted', 'sandbox-default', 'SBXTDUE${pass}-' || g, md5(g::text), 1, now() - interval '1 hour',
           now() - interval '1 hour'
         from generate_series(1, ${DUE}) g`,
      );
      try {
        const plan = withPlans ? await explain(stack.databaseUrl('transfers'), query) : undefined;
        let batches = 0;
        const dueMs = await msOf(async () => {
          for (;;) {
            const rows = await due();
            if (rows.length === 0) break;
            batches++;
            for (const row of rows) await markChecked(db, row.transfer_no);
          }
        });
        out.push({
          name: 'transfers reconciliation (progressDueForCheck 50 + markChecked each)',
          idleMs,
          dueMs,
          due: DUE,
          batches,
          plan,
        });
      } finally {
        await admin('transfers', `delete from transfers where transfer_no like 'TDUE${pass}-%'`);
      }
    } finally {
      await db.destroy();
    }
  }

  {
    const { db, statements } = capturingDb<NotifierDb>(stack.databaseUrl('notifier'));
    try {
      // Nothing due but what this round adds: retries that came due while the stack was down wait.
      await admin(
        'notifier',
        `update deliveries set next_attempt_at = now() + interval '1 hour', lease_until = null
         where status = 'pending' and (next_attempt_at <= now() + interval '10 minutes' or lease_until is not null)`,
      );
      const claim = () =>
        claimDueDeliveries(db, {
          owner: 'growth',
          slots: NOTIFY_SLOTS,
          perEndpoint: NOTIFY_PER_ENDPOINT,
          leaseMs: NOTIFY_LEASE_MS,
        });
      const idleMs = await medianMs(async () => {
        await claim();
        await msUntilNextDue(db);
      });
      const claimSql = [...statements].reverse().find((s) => s.sql.includes('with recursive'))!;
      await admin(
        'notifier',
        `insert into deliveries (event_id, kind, mch_no, order_no, version, to_status, notify_url, endpoint, trace_id,
           body, status, next_attempt_at)
         select 'growth-due-${pass}-' || g, 'pay', '${benchMchNo}', 'PDUE${pass}-' || g, 2, 'success',
           'https://due' || (g % 20) || '.example.mx/notify', 'due' || (g % 20) || '.example.mx:443', md5(g::text),
           '{}', 'pending', now() - interval '1 second'
         from generate_series(1, ${DUE}) g`,
      );
      const plan = withPlans ? await explain(stack.databaseUrl('notifier'), claimSql) : undefined;
      let batches = 0;
      let dueMs = 0;
      for (;;) {
        const started = performance.now();
        const claimed = await claim();
        dueMs += performance.now() - started;
        if (claimed.length === 0) break;
        batches++;
        // What the worker does after each exchange, outside the timed claim: the callback succeeded.
        const ids = claimed.map((c) => c.id);
        await db
          .updateTable('deliveries')
          .set({ status: 'succeeded', lease_until: null, delivered_at: new Date() })
          .where('id', 'in', ids)
          .execute();
      }
      // Left in place (delivered now), not deleted: a delete checks `superseded_by` row by row, a scan of the
      // whole table each without the index of migration 20261124T0300 (see docs/benchmarks.md "Growth"). So
      // their event ids carry the pass: the filled pass runs on the same databases as the empty one.
      out.push({
        name: `notifier claim (claimDueDeliveries, ${NOTIFY_SLOTS} slots, ${NOTIFY_PER_ENDPOINT} per endpoint)`,
        idleMs,
        dueMs,
        due: DUE,
        batches,
        plan,
      });
    } finally {
      await db.destroy();
    }
  }
  return out;
}

/** The ledger's settlement through its RunSettlement call on the running stack: idle (due by now), then everything due within 73 h. */
export async function timeSettlement(stack: Stack, withPlan: boolean): Promise<SweepTiming> {
  const ledger = new (loadProtos().agentpay.ledger.v1.LedgerService)(
    `127.0.0.1:${stack.ports.ledger}`,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
  try {
    const idleMs = await medianMs(() =>
      call(ledger, ledger.RunSettlement, { until: new Date().toISOString() }, { timeoutMs: 600_000 }),
    );
    const until = new Date(Date.now() + 73 * 3_600_000).toISOString();
    let plan: string | undefined;
    if (withPlan) {
      // The sweep's batch query (settlement.sweep.ts), with SETTLEMENT_BATCH's default.
      plan = await explain(stack.databaseUrl('ledger'), {
        sql: `select "order_no", "mch_no" from "pay_ins" where "settled_at" is null and "due_at" <= $1 order by "due_at" limit $2`,
        parameters: [until, 500],
      });
    }
    let settled = 0;
    const dueMs = await msOf(async () => {
      settled = (await call(ledger, ledger.RunSettlement, { until }, { timeoutMs: 600_000 })).settled;
    });
    return {
      name: 'ledger settlement (RunSettlement: select due pay-ins by 500, book each batch)',
      idleMs,
      dueMs,
      due: settled,
      batches: Math.ceil(settled / 500),
      plan,
    };
  } finally {
    ledger.close();
  }
}

/**
 * The ledger's own check of the filled books (every entry balanced, every balance and running balance), the
 * function behind its Check call, run straight on the stopped stack's database: a call over gRPC is cut after
 * the servers' connection age (about two and a half minutes), which this check of millions of rows can pass.
 * The cross-checks against the orders (observed_orders) are left out: the fill does not write them.
 */
export async function checkLedger(
  stack: Stack,
): Promise<{ ok: boolean; seconds: number; entries: string; problems: string[] }> {
  const db = createDb<LedgerDb>(stack.databaseUrl('ledger'), { poolSize: 1 });
  try {
    const started = performance.now();
    const report = await ledgerCheck(db);
    return {
      ok: report.ok,
      seconds: (performance.now() - started) / 1000,
      entries: String(report.entries),
      problems: report.problems,
    };
  } finally {
    await db.destroy();
  }
}

export interface SizeRow {
  db: string;
  table: string;
  rows: number;
  heap: number;
  indexes: number;
  total: number;
}

export async function sizes(
  stack: Stack,
): Promise<{ tables: SizeRow[]; indexes: { db: string; index: string; size: number }[] }> {
  const tables: SizeRow[] = [];
  const indexes: { db: string; index: string; size: number }[] = [];
  const services = ['payments', 'transfers', 'upstream-router', 'notifier', 'gateway', 'ledger'] as const;
  for (const service of services) {
    const client = new pg.Client({ connectionString: stack.databaseUrl(service) });
    await client.connect();
    try {
      const t = await client.query<{
        table: string;
        rows: string;
        heap: string;
        indexes: string;
        total: string;
      }>(
        `select c.relname as table, greatest(c.reltuples, 0)::bigint as rows, pg_relation_size(c.oid) as heap,
           pg_indexes_size(c.oid) as indexes, pg_total_relation_size(c.oid) as total
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind = 'r' order by total desc`,
      );
      for (const r of t.rows)
        tables.push({
          db: service,
          table: r.table,
          rows: Number(r.rows),
          heap: Number(r.heap),
          indexes: Number(r.indexes),
          total: Number(r.total),
        });
      const i = await client.query<{ index: string; size: string }>(
        `select i.indexrelid::regclass::text as index, pg_relation_size(i.indexrelid) as size
         from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' order by size desc`,
      );
      for (const r of i.rows) indexes.push({ db: service, index: r.index, size: Number(r.size) });
    } finally {
      await client.end();
    }
  }
  return { tables, indexes };
}
