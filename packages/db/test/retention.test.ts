import { randomBytes } from 'node:crypto';
import { createLogger } from '@agentpay/logger';
import { startBackgroundLoop } from '@agentpay/runtime';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createDb,
  deleteDueBatch,
  ensureDatabase,
  type RetentionRule,
  retentionLoop,
  retentionPlan,
  retentionRound,
} from '../src/index.js';

// @agentpay/testing depends on this package, so this file makes its own database on the server the root
// global setup found (as src/db.test.ts does).
const server = process.env.DATABASE_URL;
if (!server)
  throw new Error('DATABASE_URL is unset: run through the root vitest config, whose global setup sets it');

interface EventsDb {
  events: { id: number; kind: string; done: boolean; at: Date };
}

const name = `t_db_retention_${randomBytes(5).toString('hex')}`;
let db: Kysely<EventsDb>;
const logger = createLogger({ service: 'retention-test', level: 'silent' });

beforeAll(async () => {
  const url = new URL(server);
  url.pathname = `/${name}`;
  await ensureDatabase(url.toString());
  db = createDb<EventsDb>(url.toString(), { poolSize: 4 });
  await sql`create table events (id int primary key, kind text not null, done boolean not null, at timestamptz not null)`.execute(
    db,
  );
  await sql`create index events_done_at_idx on events (at) where done`.execute(db);
});

afterAll(async () => {
  await db?.destroy();
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`);
  } finally {
    await client.end();
  }
});

beforeEach(async () => {
  await sql`truncate events`.execute(db);
});

/** `count` rows from id `from`, `ageS` seconds old. */
async function insert(from: number, count: number, ageS: number, done = true): Promise<void> {
  await sql`insert into events (id, kind, done, at)
    select i, 'k', ${done}, now() - make_interval(secs => ${ageS})
    from generate_series(${from}::int, ${from + count - 1}::int) as i`.execute(db);
}

const ids = async () => (await db.selectFrom('events').select('id').orderBy('id').execute()).map((r) => r.id);

const rule: RetentionRule = {
  name: 'events',
  table: 'events',
  timeColumn: 'at',
  keepMs: 3_600_000,
  where: sql`t.done`,
};

describe('retention batches', () => {
  it('deletes only rows older than the cutoff that satisfy the rule, oldest first, a batch at a time', async () => {
    await insert(1, 5, 7_200); // due
    await insert(100, 3, 7_200, false); // old but not done: kept however old
    await insert(200, 4, 60); // done but recent: kept
    await insert(300, 2, 10_800); // oldest, due
    expect((await deleteDueBatch(db, rule, 3)).deleted).toBe(3);
    // The two oldest went first, then one of the next age.
    const left = await ids();
    expect(left).not.toContain(300);
    expect(left).not.toContain(301);
    expect(left.filter((id) => id < 100)).toHaveLength(4);
    expect((await deleteDueBatch(db, rule, 3)).deleted).toBe(3);
    expect((await deleteDueBatch(db, rule, 3)).deleted).toBe(1);
    expect(await deleteDueBatch(db, rule, 3)).toEqual({ deleted: 0, last: null });
    expect(await ids()).toEqual([100, 101, 102, 200, 201, 202, 203]);
  });

  it('a row that stays before a notAfter bound is kept however old', async () => {
    await insert(1, 3, 7_200);
    await insert(10, 3, 3 * 7_200);
    // Rows from 1.5 × 7200 s ago and later are held back, as the router holds notices whose event is unpublished.
    const bounded = { ...rule, notAfter: sql`now() - interval '10800 seconds'` };
    expect((await deleteDueBatch(db, bounded, 100)).deleted).toBe(3);
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it('skips a due row another transaction holds instead of waiting for it, and takes it in a later round', async () => {
    await insert(1, 4, 7_200);
    await db.transaction().execute(async (trx) => {
      await sql`select 1 from events where id = 2 for update`.execute(trx);
      expect((await deleteDueBatch(db, rule, 100)).deleted).toBe(3);
    });
    expect(await ids()).toEqual([2]);
    expect((await deleteDueBatch(db, rule, 100)).deleted).toBe(1);
  });

  it('refuses a batch size that is not a positive integer', async () => {
    await expect(deleteDueBatch(db, rule, 0)).rejects.toThrow(RangeError);
  });
});

describe('retention rounds', () => {
  it('answers more while a batch was full and idle once nothing is due', async () => {
    await insert(1, 7, 7_200);
    const other: RetentionRule = { ...rule, name: 'others', where: sql`not t.done`, keepMs: 0 };
    await insert(100, 2, 1, false);
    const batch = { batchSize: 3 };
    expect(await retentionRound(db, [rule, other], batch)).toEqual({
      deleted: { events: 3, others: 2 },
      more: true,
    });
    expect(await retentionRound(db, [rule, other], batch)).toEqual({
      deleted: { events: 3, others: 0 },
      more: true,
    });
    expect(await retentionRound(db, [rule, other], batch)).toEqual({
      deleted: { events: 1, others: 0 },
      more: false,
    });
    expect(await retentionRound(db, [rule, other], batch)).toEqual({
      deleted: { events: 0, others: 0 },
      more: false,
    });
    expect(await ids()).toEqual([]);
  });

  it('starts each batch where the last one ended, and finds a row left behind that mark once it is cleared', async () => {
    await insert(1, 6, 7_200);
    await insert(10, 1, 9_000, false); // the oldest row, not done yet
    const resume = new Map<string, string>();
    expect(await retentionRound(db, [rule], { batchSize: 3, resume })).toEqual({
      deleted: { events: 3 },
      more: true,
    });
    expect(resume.get('events')).toBeDefined();
    // Now done, but behind the mark: the next batches do not see it.
    await sql`update events set done = true where id = 10`.execute(db);
    expect(await retentionRound(db, [rule], { batchSize: 3, resume })).toEqual({
      deleted: { events: 3 },
      more: true,
    });
    expect(await retentionRound(db, [rule], { batchSize: 3, resume })).toEqual({
      deleted: { events: 0 },
      more: false,
    });
    expect(await ids()).toEqual([10]);
    // A full pass (the loop clears the marks every few runs) starts from the oldest row again.
    resume.clear();
    expect(await retentionRound(db, [rule], { batchSize: 3, resume })).toEqual({
      deleted: { events: 1 },
      more: false,
    });
    expect(await ids()).toEqual([]);
  });

  it('as a loop, makes a full pass every fullPassEvery runs', async () => {
    await insert(1, 1, 7_200);
    await insert(10, 1, 9_000, false);
    const options = retentionLoop({
      db,
      rules: [rule],
      batchSize: 3,
      intervalMs: 0,
      logger,
      fullPassEvery: 2,
    });
    const loop = startBackgroundLoop(options);
    try {
      expect(await loop.runOnce()).toEqual({ deleted: { events: 1 }, more: false }); // run 1 sets the mark
      await sql`update events set done = true where id = 10`.execute(db);
      expect(await loop.runOnce()).toEqual({ deleted: { events: 0 }, more: false }); // run 2, from the mark
      expect(await loop.runOnce()).toEqual({ deleted: { events: 1 }, more: false }); // run 3, a full pass
      expect(await ids()).toEqual([]);
    } finally {
      await loop.stop();
    }
  });

  it('as a background loop: goes again at once while batches are full, then idles until kicked', async () => {
    await insert(1, 10, 7_200);
    await insert(100, 2, 60);
    let rounds = 0;
    const deleted: number[] = [];
    const options = retentionLoop({
      db,
      rules: [rule],
      batchSize: 3,
      intervalMs: 3_600_000,
      logger,
      onDeleted: (_rule, rows) => deleted.push(rows),
    });
    const loop = startBackgroundLoop({
      ...options,
      round: async (signal) => {
        rounds += 1;
        return options.round(signal);
      },
    });
    try {
      // runAtStart is false: the loop waits for its interval (an hour here) or a kick.
      expect(rounds).toBe(0);
      loop.kick();
      const deadline = Date.now() + 10_000;
      while (deleted.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      // 3 + 3 + 3 full batches, then 1: the fourth round answered idle, so the loop now waits an hour.
      expect(deleted).toEqual([3, 3, 3, 1]);
      expect(await loop.runOnce()).toEqual({ deleted: { events: 0 }, more: false });
      expect(rounds).toBe(5);
      expect(await ids()).toEqual([100, 101]);
    } finally {
      await loop.stop();
    }
  });
});

describe('retention plan', () => {
  it('finds due rows through the time index and deletes them by ctid, on a table large enough to matter', async () => {
    await sql`insert into events (id, kind, done, at)
      select i, 'k', i % 10 <> 0, now() - make_interval(secs => 50000 - i)
      from generate_series(1, 50000) as i`.execute(db);
    await sql`analyze events`.execute(db);
    const plan = await retentionPlan(db, rule, { limit: 1000 });
    expect(plan.filter((n) => n.nodeType === 'Seq Scan')).toEqual([]);
    expect(plan).toContainEqual(
      expect.objectContaining({ index: 'events_done_at_idx', indexCond: expect.stringContaining('at <') }),
    );
    expect(plan).toContainEqual(expect.objectContaining({ nodeType: 'Tid Scan', relation: 'events' }));
    // The check can fail: no index serves undone rows by time, so that rule would read the whole table.
    const unserved = await retentionPlan(db, { ...rule, where: sql`not t.done` }, { forbidSeqScan: true });
    expect(unserved).toContainEqual(expect.objectContaining({ nodeType: 'Seq Scan', relation: 'events' }));
  });
});
