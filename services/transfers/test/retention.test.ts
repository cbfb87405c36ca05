import { randomUUID } from 'node:crypto';
import { retentionPlan, retentionRound } from '@agentpay/db';
import { migratedTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import { transfersRetentionRules } from '../src/retention/retention.js';

let db: Kysely<Database>;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('transfers_retention', migrations));
});

afterAll(() => drop?.());

const rules = transfersRetentionRules({ outboxDays: 7 });

/** An outbox row created `createdDaysAgo` days ago, published `publishedDaysAgo` days ago or never (null). */
async function outboxRow(createdDaysAgo: number, publishedDaysAgo: number | null): Promise<string> {
  const id = randomUUID();
  await sql`insert into outbox (id, subject, payload, created_at, published_at)
    values (${id}, 'agentpay.events.transfer.status_changed', '{}',
      now() - make_interval(days => ${createdDaysAgo}),
      ${publishedDaysAgo === null ? null : sql`now() - make_interval(days => ${publishedDaysAgo})`})`.execute(
    db,
  );
  return id;
}

describe('transfers retention', () => {
  it('deletes outbox rows published longer ago than the retention, across batches; unpublished rows and transfers stay', async () => {
    await sql`insert into transfers (transfer_no, mch_no, biz_transfer_no, amount, fee, payee_type, payee_account,
        status, submission, fingerprint, created_at)
      values ('T1', 'M1', 'B1', 10000, 100, 'spei_transfer', '002010077777777771', 'success', 'accepted', 'f',
        now() - interval '400 days')`.execute(db);
    await Promise.all([8, 9, 10, 11, 30, 365, 400].map((d) => outboxRow(d + 1, d)));
    const kept = await Promise.all([
      outboxRow(1, 0),
      outboxRow(7, 6),
      outboxRow(365, null), // a year old and never published: it must survive, however old
    ]);
    const rounds: boolean[] = [];
    for (;;) {
      const round = await retentionRound(db, rules, { batchSize: 3 });
      rounds.push(round.more);
      if (!round.more || rounds.length > 20) break;
    }
    // 7 due rows in batches of 3: full, full, then 1 and idle.
    expect(rounds).toEqual([true, true, false]);
    expect((await db.selectFrom('outbox').select('id').execute()).map((r) => r.id).sort()).toEqual(
      kept.sort(),
    );
    expect(await db.selectFrom('transfers').select('transfer_no').execute()).toEqual([{ transfer_no: 'T1' }]);
    // Nothing more is due: the next round deletes nothing and idles.
    expect(await retentionRound(db, rules, { batchSize: 3 })).toEqual({
      deleted: { outbox: 0 },
      more: false,
    });
  });

  it('keeps the outbox forever at 0 days', () => {
    expect(transfersRetentionRules({ outboxDays: 0 })).toEqual([]);
  });

  it('finds due outbox rows through the published index, never a scan of the table', async () => {
    const plan = await retentionPlan(db, rules[0]!, { forbidSeqScan: true });
    expect(plan.filter((n) => n.nodeType === 'Seq Scan')).toEqual([]);
    expect(plan).toContainEqual(expect.objectContaining({ index: 'outbox_published_idx' }));
  });
});
