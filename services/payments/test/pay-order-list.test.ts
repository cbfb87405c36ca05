import { migratedTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import { createPayOrderListing } from '../src/pay-orders/pay-order.list.js';
import { type OrderListQuery, orderListQuery } from '../src/pay-orders/pay-order-list.repository.js';

// ListPayOrders and GetPayOrderHistory on a real Postgres: keyset pages that add up, an exact search by
// each of the four keys, and every query served by an index (no sequential scan, no sort of a merchant's
// orders) with a merchant holding most of a large table.

let db: Kysely<Database>;
let drop: () => Promise<void>;
let listing: ReturnType<typeof createPayOrderListing>;

/** Each merchant's CLABEs differ in one digit. */
const digit: Record<string, string> = { B: '1', S: '2', O: '3' };

/** `count` opened orders of `mchNo`, one second apart; every third paid with a claveRastreo. */
async function fill(mchNo: string, count: number, tag: string) {
  await sql`insert into pay_orders (order_no, mch_no, biz_order_no, title, method, amount, fee, real_amount,
      status, settle_type, expired_time, pay_body, fingerprint, clave_rastreo, version, created_at, opened_at)
    select 'P' || ${tag} || lpad(g::text, 12, '0'), ${mchNo}, ${tag} || g, 't', 'mex_virtual_account', 100, 0, 100,
      case when g % 3 = 0 then 'success' else 'wait' end, 'D+1', now() + interval '1 day',
      '{"clabe":"6461' || ${digit[tag]} || lpad(g::text, 13, '0') || '"}', md5(${tag} || g),
      case when g % 3 = 0 then 'CR' || ${tag} || g else '' end, case when g % 3 = 0 then 2 else 1 end,
      now() - interval '30 days' + g * interval '1 second', now()
    from generate_series(1, ${count}) g`.execute(db);
}

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('payments_order_list', migrations));
  listing = createPayOrderListing({ db });
  await fill('MBIG', 60_000, 'B');
  await fill('MSMALL', 10, 'S');
  await fill('MOTHER', 20_000, 'O');
  await sql`analyze pay_orders`.execute(db);
}, 120_000);

afterAll(() => drop?.());

async function plan(query: Partial<OrderListQuery>): Promise<string> {
  const full: OrderListQuery = {
    mchNo: undefined,
    search: undefined,
    status: undefined,
    from: undefined,
    to: undefined,
    limit: 50,
    afterOrderNo: undefined,
    ...query,
  };
  const { rows } = await sql`explain (format json) ${orderListQuery(full)}`.execute(db);
  return JSON.stringify(rows);
}

describe('ListPayOrders', () => {
  it('pages a merchant newest first, each page continuing the last, to the end', async () => {
    const seen: string[] = [];
    let cursor = '';
    do {
      const page = await listing.list({
        mchNo: 'MSMALL',
        query: '',
        status: '',
        createdFrom: '',
        createdTo: '',
        limit: 3,
        cursor,
      });
      seen.push(...page.orders.map((o) => o.order_no));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => `PS${String(10 - i).padStart(12, '0')}`));
  });

  it.each([
    ['order number', 'PB000000000300'],
    ['merchant number', 'B300'],
    ['claveRastreo', 'CRB300'],
    ['CLABE', `64611${'300'.padStart(13, '0')}`],
  ])('finds one order by its %s, exactly, and only within the merchant asked for', async (_name, key) => {
    const ask = (mchNo: string) =>
      listing.list({ mchNo, query: key, status: '', createdFrom: '', createdTo: '', limit: 50, cursor: '' });
    expect((await ask('')).orders.map((o) => o.order_no)).toEqual(['PB000000000300']);
    expect((await ask('MBIG')).orders.map((o) => o.order_no)).toEqual(['PB000000000300']);
    expect((await ask('MOTHER')).orders).toEqual([]);
  });

  it('refuses a bad limit, status, instant or cursor by name', async () => {
    const base = { mchNo: '', query: '', status: '', createdFrom: '', createdTo: '', limit: 0, cursor: '' };
    await expect(listing.list({ ...base, limit: 201 })).rejects.toThrow(/limit/);
    await expect(listing.list({ ...base, status: 'paid' })).rejects.toThrow(/status/);
    await expect(listing.list({ ...base, createdFrom: 'yesterday' })).rejects.toThrow(/createdFrom/);
    await expect(listing.list({ ...base, cursor: 'nonsense' })).rejects.toThrow(/cursor/);
  });

  it('serves every page and search from an index, whatever the merchant holds', async () => {
    const cases: Array<Partial<OrderListQuery>> = [
      { mchNo: 'MBIG' },
      { mchNo: 'MBIG', afterOrderNo: 'PB000000030000' },
      { mchNo: 'MBIG', status: 'success' },
      { mchNo: 'MBIG', status: 'success', afterOrderNo: 'PB000000030000' },
      {},
      { afterOrderNo: 'PB000000030000' },
      { search: 'CRB300' },
      { mchNo: 'MBIG', search: 'CRB30000' },
      { mchNo: 'MBIG', status: 'success', search: 'B30000' },
      { mchNo: 'MBIG', search: `64611${'300'.padStart(13, '0')}` },
    ];
    for (const query of cases) {
      const text = await plan(query);
      expect(text, JSON.stringify(query)).not.toContain('"Node Type":"Seq Scan"');
      // A page of a merchant is read in order from the index, never sorted whole.
      if (!query.search) expect(text, JSON.stringify(query)).not.toContain('"Node Type":"Sort"');
      // A search starts from its keys' indexes, never from a walk through the merchant's orders.
      if (query.search) {
        expect(text, JSON.stringify(query)).toContain('BitmapOr');
        expect(text, JSON.stringify(query)).not.toContain('pay_orders_mch_');
      }
    }
  });
});

describe('GetPayOrderHistory', () => {
  it("answers the order's stored changes, and marks a history retention trimmed as derived", async () => {
    await sql`insert into pay_order_status_history (order_no, from_status, to_status, version, cause, event_id)
      values ('PS000000000003', 'wait', 'success', 2, 'upstream', gen_random_uuid())`.execute(db);
    const kept = await listing.history('PS000000000003', 'MSMALL');
    expect(kept.derived).toBe(false);
    expect(kept.changes.map((c) => [c.from, c.to, c.cause])).toEqual([['wait', 'success', 'upstream']]);
    const trimmed = await listing.history('PS000000000006', '');
    expect(trimmed.derived).toBe(true);
    expect(trimmed.changes.map((c) => c.to)).toEqual(['success']);
    await expect(listing.history('PS000000000003', 'MOTHER')).rejects.toThrow(/not found/);
  });
});
