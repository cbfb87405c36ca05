import { randomUUID } from 'node:crypto';
import { drainRetention, retentionPlan } from '@agentpay/db';
import { migratedTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import { ledgerRetentionRules } from '../src/retention/retention.js';

let db: Kysely<Database>;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('ledger_retention', migrations));
});

afterAll(() => drop?.());

beforeEach(async () => {
  await sql`truncate outbox, statement_lines, settlement_runs`.execute(db);
});

const rules = ledgerRetentionRules({ outboxDays: 7, statementDays: 400, settlementRunDays: 400 });
const ago = (days: number) => sql`now() - make_interval(days => ${days})`;

/** Rounds of 2-row batches until one is idle; answers how many it took. */
const drain = () => drainRetention(db, rules, { batchSize: 2 });

async function outboxRow(publishedDaysAgo: number | null): Promise<string> {
  const id = randomUUID();
  await sql`insert into outbox (id, subject, payload, created_at, published_at)
    values (${id}, 'agentpay.events.ledger.order_settled', '{}', ${ago((publishedDaysAgo ?? 400) + 1)},
      ${publishedDaysAgo === null ? null : ago(publishedDaysAgo)})`.execute(db);
  return id;
}

async function line(daysAgo: number): Promise<string> {
  const reference = `dep_${randomUUID()}`;
  await sql`insert into statement_lines (route_id, day, reference, kind, amount, occurred_at)
    values ('sandbox-default', to_char(${ago(daysAgo)}, 'YYYY-MM-DD'), ${reference}, 'deposit', 1000,
      ${ago(daysAgo)})`.execute(db);
  return reference;
}

async function settlementRun(daysAgo: number): Promise<string> {
  const row = await sql<{ id: string }>`insert into settlement_runs
    (trigger, until, started_at, finished_at, settled, status)
    values ('sweep', ${ago(daysAgo)}, ${ago(daysAgo)}, ${ago(daysAgo)}, 1, 'succeeded') returning id`.execute(
    db,
  );
  return String(row.rows[0]?.id);
}

const ids = async () => ({
  outbox: (await sql<{ id: string }>`select id from outbox`.execute(db)).rows.map((r) => r.id).sort(),
  lines: (await sql<{ reference: string }>`select reference from statement_lines`.execute(db)).rows
    .map((r) => r.reference)
    .sort(),
  runs: (await sql<{ id: string }>`select id from settlement_runs`.execute(db)).rows
    .map((r) => String(r.id))
    .sort(),
});

describe('ledger retention', () => {
  it('deletes published outbox rows, statement lines and settlement runs past their retention, across batches, and keeps the rest', async () => {
    // Unpublished rows stay however old (created 401 days ago here); published ones go after 7 days.
    const keptOutbox = [await outboxRow(null), await outboxRow(1)].sort();
    for (const days of [8, 30, 90, 400]) await outboxRow(days);
    const keptLines = [await line(10), await line(399)].sort();
    for (const days of [401, 500, 900]) await line(days);
    const keptRuns = [await settlementRun(0), await settlementRun(399)].sort();
    for (const days of [401, 700]) await settlementRun(days);

    await drain();

    expect(await ids()).toEqual({ outbox: keptOutbox, lines: keptLines, runs: keptRuns });
  });

  it('is off at 0 days, and each rule finds its rows through an index', async () => {
    expect(ledgerRetentionRules({ outboxDays: 0, statementDays: 0, settlementRunDays: 0 })).toEqual([]);
    const indexes: Record<string, string> = {
      outbox: 'outbox_published_idx',
      statement_lines: 'statement_lines_occurred_idx',
      settlement_runs: 'settlement_runs_started_idx',
    };
    for (const rule of rules) {
      const plan = await retentionPlan(db, rule, { forbidSeqScan: true });
      expect(
        plan.filter((n) => n.nodeType === 'Seq Scan'),
        rule.name,
      ).toEqual([]);
      expect(plan).toContainEqual(expect.objectContaining({ index: indexes[rule.name] }));
    }
  });
});
