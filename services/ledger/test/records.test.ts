import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, listRecords, recordsQuery } from '../src/ledger/records.repository.js';
import { type FreshLedger, freshLedger } from './support/fresh-ledger.js';

// The merchant statement: keyset pages that add up, and a query served by the (mch_no, created_at, id)
// index however many entries the merchant has.

let t: FreshLedger;
beforeAll(async () => {
  t = await freshLedger('ledger_records');
});
afterAll(async () => {
  await t?.drop();
});

const HOUR = 3_600_000;

describe('records', () => {
  it('pages oldest first with a cursor, each page continuing the last, and consecutive balances follow the changes', async () => {
    const mchNo = 'MPAGE';
    for (let i = 1; i <= 23; i++) {
      await t.ledger.adjust({ mchNo, amount: i * 10, reason: `r${i}`, reference: `ref${i}` });
      if (i % 5 === 0) {
        await t.ledger.freeze({ mchNo, transferNo: `T${i}`, bizTransferNo: `BT${i}`, amount: 7, fee: 1 });
      }
    }
    await t.ledger.adjust({ mchNo: 'MOTHER', amount: 5, reason: 'other merchant', reference: 'x' });
    const window = { start: new Date(Date.now() - HOUR), end: new Date(Date.now() + HOUR) };
    const seen = [];
    let afterId: number | null = null;
    let pages = 0;
    for (;;) {
      const page = await listRecords(t.db, { mchNo, ...window, limit: 10, afterId });
      pages += 1;
      seen.push(...page.records);
      if (!page.nextCursor) break;
      afterId = decodeCursor(page.nextCursor);
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(27);
    expect(new Set(seen.map((r) => r.id)).size).toBe(27);
    expect(seen.every((r) => r.mch_no === mchNo)).toBe(true);
    for (let i = 1; i < seen.length; i++) {
      const [before, after] = [seen[i - 1], seen[i]];
      if (!before || !after) throw new Error('unreachable');
      expect(after.created_at.getTime()).toBeGreaterThanOrEqual(before.created_at.getTime());
      expect(after.available_after - before.available_after).toBe(after.available_change);
      expect(after.frozen_after - before.frozen_after).toBe(after.frozen_change);
      expect(after.pending_after - before.pending_after).toBe(after.pending_change);
    }
    expect(seen.filter((r) => r.type === 'transfer_freeze').map((r) => r.transfer_no)).toEqual([
      'T5',
      'T10',
      'T15',
      'T20',
    ]);

    const empty = await listRecords(t.db, {
      mchNo,
      start: new Date(Date.now() + HOUR),
      end: new Date(Date.now() + 2 * HOUR),
      limit: 10,
      afterId: null,
    });
    expect(empty).toEqual({ records: [], nextCursor: undefined });
  });

  it('a cursor is opaque and refuses what it did not make', () => {
    expect(decodeCursor(encodeCursor(42))).toBe(42);
    expect(decodeCursor('not-a-cursor')).toBeNull();
  });

  it('with 100,000 entries of one merchant the query is an index scan on (mch_no, created_at, id) with no sort', async () => {
    // Entries written straight into the journal: only the query plan is under test here.
    for (const [mchNo, rows] of [
      ['MBIG', 100_000],
      ['MSMALL', 20_000],
    ] as const) {
      await sql`insert into entries (key, type, mch_no, amount, fee, available_change, pending_change,
          frozen_change, available_after, pending_after, frozen_after, created_at)
        select ${mchNo} || ':' || g, 'adjust', ${mchNo}, 1, 0, 1, 0, 0, g, 0, 0,
          now() - interval '20 days' + g * interval '5 seconds'
        from generate_series(1, ${rows}) g`.execute(t.db);
    }
    await sql`analyze entries`.execute(t.db);
    const start = new Date(Date.now() - 21 * 24 * HOUR);
    const end = new Date(Date.now() + HOUR);
    const first = await listRecords(t.db, { mchNo: 'MBIG', start, end, limit: 500, afterId: null });
    const cursor = first.nextCursor ? decodeCursor(first.nextCursor) : null;
    expect(cursor).not.toBeNull();

    for (const afterId of [null, cursor]) {
      const plan = await recordsQuery(t.db, { mchNo: 'MBIG', start, end, limit: 500, afterId }).explain(
        'json',
      );
      const text = JSON.stringify(plan);
      expect(text).toContain('entries_statement_idx');
      expect(text).not.toContain('"Node Type":"Sort"');
      expect(text).not.toContain('"Node Type":"Seq Scan"');
    }
    const second = await listRecords(t.db, { mchNo: 'MBIG', start, end, limit: 500, afterId: cursor });
    expect(second.records[0]?.key).toBe('MBIG:501');
  });
});
