import { migratedTestDatabase } from '@agentpay/testing';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import { markChecked, progressDueForCheck, progressDueQuery } from '../src/transfers/transfer.repository.js';

let db: Kysely<Database>;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('transfers_reconcile_sweep', migrations));
});

afterAll(() => drop?.());

/** `n` transfers in progress, last changed `changedMinutesAgo` and last checked `checkedMinutesAgo` (or never). */
async function inProgress(
  prefix: string,
  n: number,
  changedMinutesAgo: number,
  checkedMinutesAgo: number | null,
) {
  await sql`insert into transfers (transfer_no, mch_no, biz_transfer_no, amount, fee, payee_type, payee_account,
      status, submission, fingerprint, route_id, updated_at, checked_at)
    select ${prefix} || g, 'M1', ${prefix} || g, 10000, 100, 'spei_transfer', '002010077777777771', 'progress',
      'accepted', 'f', 'sandbox', now() - make_interval(mins => ${changedMinutesAgo}),
      ${checkedMinutesAgo === null ? null : sql`now() - make_interval(mins => ${checkedMinutesAgo})`}
    from generate_series(1, ${n}) g`.execute(db);
}

describe('the reconciliation sweep of transfers in progress', () => {
  it('takes those unchanged and unchecked for the interval, oldest first, and reads only those', async () => {
    // 3,000 stuck payouts all checked a minute ago (not due), two never checked, one checked long ago, one
    // changed a minute ago (not due whatever its check).
    await inProgress('RECENT', 3_000, 60, 1);
    await inProgress('NEVER', 2, 30, null);
    await inProgress('LONGAGO', 1, 120, 20);
    await inProgress('CHANGED', 1, 1, null);
    await sql`analyze transfers`.execute(db);

    const before = new Date(Date.now() - 5 * 60_000);
    const due = await progressDueForCheck(db, before, 50);
    // Oldest first by the later of change and check: the never-checked ones (30 min), then LONGAGO (20 min).
    expect(
      due
        .map((t) => t.transfer_no)
        .slice(0, 2)
        .sort(),
    ).toEqual(['NEVER1', 'NEVER2']);
    expect(due.map((t) => t.transfer_no).slice(2)).toEqual(['LONGAGO1']);

    // Once checked, a transfer waits a whole interval again.
    await markChecked(db, 'NEVER1');
    expect((await progressDueForCheck(db, before, 50)).map((t) => t.transfer_no)).not.toContain('NEVER1');

    // The round reads the due rows through the index, not the 3,000 checked recently.
    const compiled = progressDueQuery(db, before, 50).compile();
    const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain (analyze, buffers) ${compiled.sql}`, [...compiled.parameters]),
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('transfers_progress_check_idx');
    expect(plan).not.toMatch(/Rows Removed by Filter: [1-9]\d{2,}/);
  });
});
