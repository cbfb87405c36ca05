import { drainRetention, retentionPlan, retentionRound } from '@agentpay/db';
import { migratedTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import { admitRequest } from '../src/merchants/admission.repository.js';
import { gatewayRetentionRules } from '../src/retention/retention.js';

let db: Kysely<Database>;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('gateway_retention', migrations));
});

afterAll(() => drop?.());

beforeEach(async () => {
  await sql`truncate nonces, rate_windows`.execute(db);
});

const rules = gatewayRetentionRules({ rateWindowSeconds: 60 });

/** A nonce whose replay window ends `inSeconds` from now (negative: it has passed). */
async function nonce(mchNo: string, value: string, inSeconds: number): Promise<void> {
  await sql`insert into nonces (mch_no, nonce, expires_at)
    values (${mchNo}, ${value}, now() + make_interval(secs => ${inSeconds}))`.execute(db);
}

/** A rate window that started `secondsAgo` seconds ago. */
async function rateWindow(mchNo: string, secondsAgo: number): Promise<void> {
  await sql`insert into rate_windows (mch_no, window_start, count)
    values (${mchNo}, date_trunc('second', now()) - make_interval(secs => ${secondsAgo}), 3)`.execute(db);
}

/** Rounds of 2-row batches until one is idle; answers how many it took. */
const drain = () => drainRetention(db, rules, { batchSize: 2 });

describe('gateway retention', () => {
  it('deletes nonces past their replay window and rate windows past their retention, across batches', async () => {
    for (const [i, s] of [-3600, -600, -60, -1, -86_400].entries()) await nonce('M1', `spent-${i}`, s);
    await nonce('M1', 'live', 3600);
    await nonce('M2', 'almost', 5);
    for (const s of [61, 120, 3600]) await rateWindow('M1', s);
    await rateWindow('M1', 0);
    await rateWindow('M2', 30);
    // Five nonces and three windows, in batches of two: two full rounds, then one nonce, one window and idle.
    expect(await drain()).toBe(3);
    expect(
      (await db.selectFrom('nonces').select('nonce').orderBy('nonce').execute()).map((r) => r.nonce),
    ).toEqual(['almost', 'live']);
    expect(
      (
        await sql<{ mch_no: string; age: number }>`select mch_no,
          extract(epoch from date_trunc('second', now()) - window_start)::int as age
          from rate_windows order by age`.execute(db)
      ).rows,
    ).toEqual([
      { mch_no: 'M1', age: 0 },
      { mch_no: 'M2', age: 30 },
    ]);
  });

  it('leaves a nonce in its replay window used: a replay is still refused after a round', async () => {
    const admit = (n: string) =>
      admitRequest(db, { mchNo: 'M3', nonce: n, limitPerS: 0, nonceTtlSeconds: 60 });
    expect((await admit('once')).nonceUsed).toBe(false);
    await drain();
    expect((await admit('once')).nonceUsed).toBe(true);
  });

  it('is idle when nothing is due', async () => {
    await nonce('M1', 'live', 3600);
    await rateWindow('M1', 1);
    expect(await retentionRound(db, rules, { batchSize: 2 })).toEqual({
      deleted: { nonces: 0, rate_windows: 0 },
      more: false,
    });
  });

  it('keeps rate windows forever at 0 seconds, and nonces go regardless', () => {
    expect(gatewayRetentionRules({ rateWindowSeconds: 0 }).map((r) => r.name)).toEqual(['nonces']);
  });

  it('finds due rows of every rule through an index, never a scan of the table', async () => {
    const indexes: Record<string, string> = {
      nonces: 'nonces_expires_at_idx',
      rate_windows: 'rate_windows_window_start_idx',
    };
    for (const rule of rules) {
      const plan = await retentionPlan(db, rule, { forbidSeqScan: true });
      expect(plan.filter((n) => n.nodeType === 'Seq Scan')).toEqual([]);
      expect(plan).toContainEqual(expect.objectContaining({ index: indexes[rule.name] }));
    }
  });
});
