import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerQueries, type LedgerQueries } from '../src/ledger/ledger-queries.service.js';
import { balanceBefore, listSettlements, settlementsQuery } from '../src/ledger/statement.repository.js';
import { type FreshLedger, freshLedger } from './support/fresh-ledger.js';

// The console's and the dashboard's statement (GetStatement: a page with the balances at the period's
// start and end, any span) and the settlements list (ListSettlements: each merchant's last settle entry).

let t: FreshLedger;
let queries: LedgerQueries;
beforeAll(async () => {
  t = await freshLedger('ledger_statement');
  queries = createLedgerQueries({ db: t.db });
});
afterAll(async () => {
  await t?.drop();
});

const DAY = 86_400_000;

describe('statement', () => {
  it('opens with the balance before the period, pages its entries, and closes with the balance at its end', async () => {
    const mchNo = 'MSTMT';
    await t.ledger.adjust({ mchNo, amount: 1_000, reason: 'before', reference: 'b1' });
    const periodStart = new Date();
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (let i = 1; i <= 7; i++) {
      await t.ledger.adjust({ mchNo, amount: i * 100, reason: `in ${i}`, reference: `p${i}` });
    }
    await t.ledger.freeze({ mchNo, transferNo: 'TS1', bizTransferNo: 'BTS1', amount: 300, fee: 5 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const periodEnd = new Date();
    await t.ledger.adjust({ mchNo, amount: 50, reason: 'after', reference: 'a1' });

    const seen = [];
    let cursor = '';
    let opening: unknown;
    let closing: { available: number; pending: number; frozen: number } | undefined;
    for (;;) {
      const page = await queries.statement({
        mchNo,
        startTime: periodStart.toISOString(),
        endTime: periodEnd.toISOString(),
        limit: 3,
        cursor,
      });
      opening = page.opening;
      closing = page.closing;
      seen.push(...page.records);
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(opening).toEqual({ available: 1_000, pending: 0, frozen: 0 });
    expect(seen).toHaveLength(8);
    const moved = seen.reduce((sum, r) => sum + r.available_change, 0);
    expect(closing).toEqual({ available: 1_000 + moved, pending: 0, frozen: 305 });
    expect(closing?.available).toBe(1_000 + 2_800 - 305);
    expect(seen.at(-1)?.available_after).toBe(closing?.available);
  });

  it('has no limit on the span, zero before the first entry, and refuses a bad period or cursor', async () => {
    const far = await queries.statement({
      mchNo: 'MSTMT',
      startTime: new Date(Date.now() - 400 * DAY).toISOString(),
      endTime: new Date(Date.now() + DAY).toISOString(),
      limit: 0,
      cursor: '',
    });
    expect(far.records).toHaveLength(10);
    expect(far.opening).toEqual({ available: 0, pending: 0, frozen: 0 });
    expect(await balanceBefore(t.db, 'MNOBODY', new Date())).toEqual({ available: 0, pending: 0, frozen: 0 });
    const base = { mchNo: 'MSTMT', limit: 10, cursor: '' };
    const now = new Date().toISOString();
    await expect(queries.statement({ ...base, startTime: now, endTime: now })).rejects.toThrow(/startTime/);
    await expect(queries.statement({ ...base, startTime: now, endTime: 'soon' })).rejects.toThrow(/endTime/);
    await expect(
      queries.statement({ ...base, startTime: '2020-01-01T00:00:00Z', endTime: now, cursor: 'nope' }),
    ).rejects.toThrow(/cursor/);
  });

  it('reads the opening on the statement index, one row, however many entries the merchant has', async () => {
    await sql`insert into entries (key, type, mch_no, amount, fee, available_change, pending_change,
        frozen_change, available_after, pending_after, frozen_after, created_at)
      select 'MHUGE:' || g, 'adjust', 'MHUGE', 1, 0, 1, 0, 0, g, 0, 0,
        now() - interval '30 days' + g * interval '10 seconds'
      from generate_series(1, 50000) g`.execute(t.db);
    await sql`analyze entries`.execute(t.db);
    const plan = await sql<{ 'QUERY PLAN': unknown }>`explain (format json)
      select available_after from entries where mch_no = 'MHUGE' and created_at < now() - interval '1 day'
      order by created_at desc, id desc limit 1`.execute(t.db);
    const text = JSON.stringify(plan.rows);
    expect(text).toContain('entries_statement_idx');
    expect(text).not.toContain('"Node Type": "Sort"');
    const at = await balanceBefore(t.db, 'MHUGE', new Date(Date.now() - 30 * DAY + 100_005));
    expect(at.available).toBe(10);
  });
});

describe('settlements', () => {
  it("lists each merchant's last settle entry and pending, keyset-paged by merchant", async () => {
    const payTime = new Date(Date.now() - 10 * DAY);
    for (const [mchNo, orders] of [
      ['MSET1', 2],
      ['MSET2', 1],
    ] as const) {
      for (let i = 1; i <= orders; i++) {
        await t.ledger.payIn({
          mchNo,
          orderNo: `${mchNo}-O${i}`,
          bizOrderNo: `B${i}`,
          amount: 10_000 * i,
          fee: 100,
          realAmount: 10_000 * i - 100,
          settleType: 'D+1',
          payTime,
        });
      }
    }
    await t.ledger.payIn({
      mchNo: 'MSET3',
      orderNo: 'MSET3-O1',
      bizOrderNo: 'B1',
      amount: 5_000,
      fee: 0,
      realAmount: 5_000,
      settleType: 'D+1',
      payTime: new Date(),
    });
    await t.settlement.settleDue(new Date(Date.now() - DAY));
    const realtimeAt = new Date(Date.now() - 2 * DAY);
    await t.ledger.payIn({
      mchNo: 'MSET4',
      orderNo: 'MSET4-O1',
      bizOrderNo: 'B1',
      amount: 7_000,
      fee: 70,
      realAmount: 6_930,
      settleType: 'REALTIME',
      payTime: realtimeAt,
    });

    const items = [];
    let after: string | undefined = '';
    while (after !== undefined) {
      const page = await queries.settlements({ limit: 2, after });
      items.push(...page.items);
      after = page.nextAfter;
    }
    const byMerchant = new Map(items.map((i) => [i.mch_no, i]));
    expect(items.length).toBe(new Set(items.map((i) => i.mch_no)).size);
    expect(byMerchant.get('MSET1')).toMatchObject({ pending: 0, available: 29_800, last_amount: 19_900 });
    expect(byMerchant.get('MSET1')?.last_order_no).toBe('MSET1-O2');
    expect(byMerchant.get('MSET2')).toMatchObject({
      pending: 0,
      last_amount: 9_900,
      last_order_no: 'MSET2-O1',
    });
    expect(byMerchant.get('MSET3')).toMatchObject({
      pending: 5_000,
      last_settled_at: null,
      last_amount: null,
    });
    expect(byMerchant.get('MSET4')).toMatchObject({
      pending: 0,
      available: 6_930,
      last_order_no: 'MSET4-O1',
    });
    expect(byMerchant.get('MSET4')?.last_settled_at).not.toBeNull();
    expect(byMerchant.has('MSTMT')).toBe(true);
    await expect(queries.settlements({ limit: 2, after: 'x' })).rejects.toThrow(/after/);
    const one = await listSettlements(t.db, { limit: 1, after: null });
    expect(one.items).toHaveLength(1);
    expect(one.nextAfter).toBeDefined();
  });

  it("reads each merchant's last settlement on pay_ins_settled_idx, however many pay-ins it has", async () => {
    await sql`insert into pay_ins (order_no, mch_no, biz_order_no, real_amount, settle_type, pay_time, due_at,
        settled_at)
      select 'MANY-' || g, 'MANY', 'B' || g, 100, 'D+1', now() - interval '40 days', now() - interval '39 days',
        now() - interval '39 days' + g * interval '1 second'
      from generate_series(1, 50000) g`.execute(t.db);
    await sql`insert into accounts (id, kind, mch_no) values ('mch:MANY:available', 'available', 'MANY'),
      ('mch:MANY:pending', 'pending', 'MANY'), ('mch:MANY:frozen', 'frozen', 'MANY')`.execute(t.db);
    await sql`analyze pay_ins`.execute(t.db);
    const plan = JSON.stringify(await settlementsQuery(t.db, { limit: 50, after: null }).explain('json'));
    expect(plan).toContain('pay_ins_settled_idx');
    expect(plan).not.toMatch(
      /"Relation Name":"pay_ins"[^}]*"Node Type":"Seq Scan"|"Node Type":"Seq Scan"[^}]*"Relation Name":"pay_ins"/,
    );
    const page = await listSettlements(t.db, { limit: 500, after: null });
    expect(page.items.find((i) => i.mch_no === 'MANY')?.last_order_no).toBe('MANY-50000');
  });
});
