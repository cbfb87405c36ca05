import type { Logger } from '@agentpay/logger';
import { type Kysely, type RawBuilder, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a rule works inside every service's own Database type
type AnyDatabase = any;

/**
 * One table's retention: rows whose `timeColumn` is older than the cutoff, and that satisfy `where`, may
 * go. An index leading with `timeColumn` (partial on `where` if need be) must serve the predicate, so a
 * round reads what is due and nothing else: without one, every round would scan the table.
 */
export interface RetentionRule {
  /** Names the rule in log lines and round results, e.g. `outbox`. */
  name: string;
  table: string;
  /** A timestamptz column: rows are due oldest first once it is older than the cutoff. */
  timeColumn: string;
  /** How long a row is kept past its `timeColumn`, ms (0: due as soon as the time has passed). */
  keepMs: number;
  /** What else a due row must satisfy, written against the table's alias `t`. */
  where?: RawBuilder<unknown>;
  /**
   * A later bound on the cutoff, evaluated by Postgres on every batch: a row is due only if its time is
   * also before this (the router's notices: before its oldest unpublished outbox row). NULL adds no bound.
   */
  notAfter?: RawBuilder<unknown>;
}

/**
 * The bounded-batch DELETE of a rule: at most `limit` due rows, oldest first, skipping rows others hold.
 * `from` (the `last` of the previous batch) starts the index scan there instead of at the oldest entry.
 * It answers how many rows went and the newest time among them, as text (microseconds intact).
 */
export function retentionBatch(rule: RetentionRule, limit: number, from?: string): RawBuilder<BatchRow> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`retention batch must be a positive integer`);
  if (!(rule.keepMs >= 0)) throw new RangeError(`retention of ${rule.name} must be 0 or more ms`);
  const table = sql.table(rule.table);
  const time = sql.ref(`t.${rule.timeColumn}`);
  const age = sql`now() - make_interval(secs => ${rule.keepMs / 1000}::float8)`;
  const cutoff = rule.notAfter ? sql`least(${age}, (${rule.notAfter}))` : age;
  const extra = rule.where ? sql`and (${rule.where})` : sql``;
  const start = from === undefined ? sql`` : sql`and ${time} >= ${from}::timestamptz`;
  // One statement is one short transaction. SKIP LOCKED: a row a writer (or another replica's round) holds
  // is left for a later round rather than waited on. Rows are found by the time index and deleted by ctid
  // (a TID scan), so a batch costs its own rows whatever the table's size.
  return sql<BatchRow>`
    with due as (
      select t.ctid from ${table} t
      where ${time} < ${cutoff} ${start} ${extra}
      order by ${time}
      limit ${limit}
      for update of t skip locked
    ), gone as (
      delete from ${table} t where t.ctid = any (array(select ctid from due)) returning ${time} as at
    )
    select count(*)::int as deleted, max(at)::text as last from gone`;
}

/** What one batch did: rows deleted, and the newest time among them (null when none). */
export interface BatchRow {
  deleted: number;
  last: string | null;
}

/**
 * Deletes at most `limit` due rows of `rule` in one short transaction, from `from` on if given; answers
 * how many went and the newest time among them.
 */
export async function deleteDueBatch(
  db: Kysely<AnyDatabase>,
  rule: RetentionRule,
  limit: number,
  from?: string,
): Promise<BatchRow> {
  const result = await retentionBatch(rule, limit, from).execute(db);
  return result.rows[0] ?? { deleted: 0, last: null };
}

/** What one retention round deleted, by rule name, and whether any batch came back full. */
export interface RetentionRoundResult {
  deleted: Record<string, number>;
  /** A batch was full: more is probably due, so the next round should run at once. */
  more: boolean;
}

/**
 * One round: one batch per rule (each its own transaction), so a rule with a large backlog does not
 * starve the others; answers `more` while any batch was full. Stops between rules when `signal` aborts.
 *
 * `resume` carries, from batch to batch, the newest time each rule has deleted: the next batch starts its
 * index scan there. Deleted rows leave dead index entries until VACUUM, and a batch that started at the
 * oldest entry every time would step over all of them: draining a backlog would cost its square, and an
 * idle round would cost the dead entries since the last VACUUM. A row behind the mark (skipped while a
 * writer held it, or satisfying `where` only later) is found once the caller clears `resume`, which
 * `retentionLoop` does every few runs (a full pass).
 */
export async function retentionRound(
  db: Kysely<AnyDatabase>,
  rules: readonly RetentionRule[],
  opts: { batchSize: number; signal?: AbortSignal; resume?: Map<string, string> },
): Promise<RetentionRoundResult> {
  const deleted: Record<string, number> = {};
  let more = false;
  for (const rule of rules) {
    if (opts.signal?.aborted) break;
    const batch = await deleteDueBatch(db, rule, opts.batchSize, opts.resume?.get(rule.name));
    deleted[rule.name] = batch.deleted;
    if (batch.last !== null) opts.resume?.set(rule.name, batch.last);
    if (batch.deleted >= opts.batchSize) more = true;
  }
  return { deleted, more };
}

/**
 * Runs rounds until one finds nothing more due (a drain, as after a backlog); answers how many rounds it
 * took, and throws if it is still busy after `maxRounds`.
 */
export async function drainRetention(
  db: Kysely<AnyDatabase>,
  rules: readonly RetentionRule[],
  opts: { batchSize: number; maxRounds?: number },
): Promise<number> {
  const maxRounds = opts.maxRounds ?? 50;
  for (let rounds = 1; rounds <= maxRounds; rounds++) {
    if (!(await retentionRound(db, rules, { batchSize: opts.batchSize })).more) return rounds;
  }
  throw new Error(`retention still had rows due after ${maxRounds} rounds`);
}

export interface RetentionLoopOptions {
  db: Kysely<AnyDatabase>;
  /** Enabled rules only: a service leaves out the ones its settings turn off. */
  rules: readonly RetentionRule[];
  /** Rows per batch (one DELETE, one transaction). */
  batchSize: number;
  /** Pause once nothing more is due, ms. */
  intervalMs: number;
  logger: Logger;
  /** Names the loop in log lines; default `retention`. */
  name?: string;
  /** Told how many rows each round deleted per rule (a metric, say). */
  onDeleted?: (rule: string, rows: number) => void;
  /**
   * Every this many runs (a run: rounds until one is idle), start again from each rule's oldest row rather
   * than from where the last batch ended, to find rows left behind that mark; default 10.
   */
  fullPassEvery?: number;
}

/**
 * The options of a `startBackgroundLoop` (`@agentpay/runtime`) that enforces `rules`: `startBackgroundLoop(retentionLoop(opts))`.
 * A round answers `more` while a batch was full (the loop goes again at once) and `idle` otherwise (it waits
 * `intervalMs`); the first round waits too, so a starting service does its own work first. Batches resume
 * where the last one ended (see `retentionRound`), with a full pass every `fullPassEvery` runs.
 */
export function retentionLoop(opts: RetentionLoopOptions) {
  const name = opts.name ?? 'retention';
  // Totals of the rounds since the loop was last idle: a backlog drained over many rounds is one info line.
  let run: { rounds: number; deleted: Record<string, number> } = { rounds: 0, deleted: {} };
  const resume = new Map<string, string>();
  const fullPassEvery = Math.max(1, Math.floor(opts.fullPassEvery ?? 10));
  let runs = 0;
  return {
    name,
    logger: opts.logger,
    intervalMs: opts.intervalMs,
    runAtStart: false,
    round: async (signal: AbortSignal): Promise<RetentionRoundResult> => {
      const result = await retentionRound(opts.db, opts.rules, { batchSize: opts.batchSize, signal, resume });
      run.rounds += 1;
      for (const [rule, n] of Object.entries(result.deleted)) {
        if (n === 0) continue;
        opts.onDeleted?.(rule, n);
        run.deleted[rule] = (run.deleted[rule] ?? 0) + n;
      }
      if (!result.more) {
        if (Object.keys(run.deleted).length > 0)
          opts.logger[run.rounds > 1 ? 'info' : 'debug'](
            { loop: name, rounds: run.rounds, deleted: run.deleted },
            'retention deleted rows past their retention',
          );
        run = { rounds: 0, deleted: {} };
        runs += 1;
        if (runs % fullPassEvery === 0) resume.clear();
      }
      return result;
    },
    next: (result: RetentionRoundResult): 'more' | 'idle' => (result.more ? 'more' : 'idle'),
  };
}

/** The outbox (`createOutboxTable`, `@agentpay/messaging`): published rows go `keepMs` after publishing, unpublished rows never. */
export function publishedOutboxRule(keepMs: number): RetentionRule {
  return {
    name: 'outbox',
    table: 'outbox',
    timeColumn: 'published_at',
    keepMs,
    where: sql`t.published_at is not null`,
  };
}

/**
 * The index that serves `publishedOutboxRule`; call it from a service's migration. Partial on published
 * rows, so the relay's writes of new (unpublished) rows do not maintain it.
 */
export async function createPublishedOutboxIndex(db: Kysely<AnyDatabase>): Promise<void> {
  await sql`create index if not exists outbox_published_idx on outbox (published_at)
    where published_at is not null`.execute(db);
}

/** The earliest `created_at` of an unpublished outbox row (NULL when none): a `notAfter` for rows that were written with their event. */
export const OLDEST_UNPUBLISHED_OUTBOX: RawBuilder<unknown> = sql`select min(o.created_at) from outbox o where o.published_at is null`;

/** One node of a query plan, as `retentionPlan` lists them. */
export interface PlanNode {
  nodeType: string;
  relation?: string;
  index?: string;
  indexCond?: string;
}

/**
 * The plan Postgres chooses for one batch of `rule` (EXPLAIN, nothing deleted), flattened: how tests and
 * operators check that an index serves the rule's predicate. `forbidSeqScan` plans with sequential scans
 * priced out, which shows whether an index *can* serve it on a table too small for the planner to prefer one.
 */
export async function retentionPlan(
  db: Kysely<AnyDatabase>,
  rule: RetentionRule,
  opts: { limit?: number; forbidSeqScan?: boolean } = {},
): Promise<PlanNode[]> {
  const explain = async (runner: Kysely<AnyDatabase>) => {
    if (opts.forbidSeqScan) await sql`set local enable_seqscan = off`.execute(runner);
    const compiled = retentionBatch(rule, opts.limit ?? 1000).compile(runner);
    const result = await runner.executeQuery<{ 'QUERY PLAN': unknown }>({
      ...compiled,
      sql: `explain (format json) ${compiled.sql}`,
    });
    return result.rows[0]?.['QUERY PLAN'];
  };
  const plan = await db.transaction().execute((trx) => explain(trx));
  const nodes: PlanNode[] = [];
  const walk = (node: Record<string, unknown>) => {
    nodes.push({
      nodeType: String(node['Node Type']),
      ...(node['Relation Name'] !== undefined && { relation: String(node['Relation Name']) }),
      ...(node['Index Name'] !== undefined && { index: String(node['Index Name']) }),
      ...(node['Index Cond'] !== undefined && { indexCond: String(node['Index Cond']) }),
    });
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  const root = (plan as { Plan: Record<string, unknown> }[] | undefined)?.[0]?.Plan;
  if (root) walk(root);
  return nodes;
}
