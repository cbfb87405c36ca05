import { migratedTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import { createPayOrderListing } from '../src/pay-orders/pay-order.list.js';
import { insertCreating, markOpened } from '../src/pay-orders/pay-order.repository.js';
import { type OrderListQuery, orderListQuery } from '../src/pay-orders/pay-order-list.repository.js';

// ListPayOrders and GetPayOrderHistory on a real Postgres: keyset pages that add up, an exact search by
// each of the four keys, time ranges exact to the millisecond, every query served by an index (no
// sequential scan, no sort of a merchant's orders) with a merchant holding most of a large table, and an
// order being created entered in as few indexes as that takes.

let db: Kysely<Database>;
let drop: () => Promise<void>;
let listing: ReturnType<typeof createPayOrderListing>;

/** Each merchant's CLABEs differ in one digit. */
const digit: Record<string, string> = { B: '1', S: '2', O: '3' };

/**
 * `count` opened orders of `mchNo`, one second apart (the three merchants' g-th orders in the same second),
 * numbered as the column's default numbers them: P, the creation second in UTC, then a sequence (here the
 * merchant's digit and g); every third paid with a claveRastreo.
 */
async function fill(mchNo: string, count: number, tag: string) {
  await sql`insert into pay_orders (order_no, mch_no, biz_order_no, title, method, amount, fee, real_amount,
      status, settle_type, expired_time, pay_body, fingerprint, clave_rastreo, version, created_at, opened_at)
    select 'P' || to_char(created at time zone 'UTC', 'YYYYMMDDHH24MISS') || ${digit[tag]} || lpad(g::text, 11, '0'),
      ${mchNo}, ${tag} || g, 't', 'mex_virtual_account', 100, 0, 100,
      case when g % 3 = 0 then 'success' else 'wait' end, 'D+1', now() + interval '1 day',
      '{"clabe":"6461' || ${digit[tag]} || lpad(g::text, 13, '0') || '"}', md5(${tag} || g),
      case when g % 3 = 0 then 'CR' || ${tag} || g else '' end, case when g % 3 = 0 then 2 else 1 end,
      created, now()
    from (select g, ${start}::timestamptz + g * interval '1 second' as created
      from generate_series(1, ${count}) g) s`.execute(db);
}

/** Thirty days ago, with a fraction of a second, as a creation time has. */
const start = new Date(Math.floor(Date.now() / 1000) * 1000 - 30 * 86_400_000 + 437);

/** The platform's number and creation time of the merchant's order `bizOrderNo`. */
async function order(bizOrderNo: string): Promise<{ orderNo: string; createdAt: Date }> {
  const row = await db
    .selectFrom('pay_orders')
    .select(['order_no', 'created_at'])
    .where('biz_order_no', '=', bizOrderNo)
    .executeTakeFirstOrThrow();
  return { orderNo: row.order_no, createdAt: row.created_at };
}

/** Every page of a list request, followed to its end: the merchant's numbers of its orders, in order. */
async function everyPage(ask: { mchNo: string; createdFrom?: Date; createdTo?: Date; status?: string }) {
  const seen: string[] = [];
  let cursor = '';
  do {
    const page = await listing.list({
      mchNo: ask.mchNo,
      query: '',
      status: ask.status ?? '',
      createdFrom: ask.createdFrom?.toISOString() ?? '',
      createdTo: ask.createdTo?.toISOString() ?? '',
      limit: 5,
      cursor,
    });
    seen.push(...page.orders.map((o) => o.biz_order_no));
    cursor = page.nextCursor;
  } while (cursor);
  return seen;
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
    expect(await everyPage({ mchNo: 'MSMALL' })).toEqual(Array.from({ length: 10 }, (_, i) => `S${10 - i}`));
    expect(await everyPage({ mchNo: 'MSMALL', status: 'success' })).toEqual(['S9', 'S6', 'S3']);
  });

  it('keeps to a time range exactly, to the millisecond, for one merchant or all', async () => {
    const s3 = (await order('S3')).createdAt;
    const s7 = (await order('S7')).createdAt;
    const ms = (date: Date, delta: number) => new Date(date.getTime() + delta);
    expect(await everyPage({ mchNo: 'MSMALL', createdFrom: s3, createdTo: s7 })).toEqual([
      'S6',
      'S5',
      'S4',
      'S3',
    ]);
    expect(await everyPage({ mchNo: 'MSMALL', createdFrom: ms(s3, 1), createdTo: ms(s7, 1) })).toEqual([
      'S7',
      'S6',
      'S5',
      'S4',
    ]);
    // Every merchant's orders of those seconds, newest first; within a second, by number.
    expect(await everyPage({ mchNo: '', createdFrom: s3, createdTo: ms(s3, 999) })).toEqual([
      'O3',
      'S3',
      'B3',
    ]);
    expect(await everyPage({ mchNo: '', createdFrom: ms(s3, -1), createdTo: ms(s7, -1) })).toEqual([
      ...['O6', 'S6', 'B6', 'O5', 'S5', 'B5', 'O4', 'S4', 'B4', 'O3', 'S3', 'B3'],
    ]);
  });

  it.each([
    ['order number', ''],
    ['merchant number', 'B300'],
    ['claveRastreo', 'CRB300'],
    ['CLABE', `64611${'300'.padStart(13, '0')}`],
  ])('finds one order by its %s, exactly, and only within the merchant asked for', async (_name, given) => {
    const { orderNo } = await order('B300');
    const key = given || orderNo;
    const ask = (mchNo: string) =>
      listing.list({ mchNo, query: key, status: '', createdFrom: '', createdTo: '', limit: 50, cursor: '' });
    expect((await ask('')).orders.map((o) => o.order_no)).toEqual([orderNo]);
    expect((await ask('MBIG')).orders.map((o) => o.order_no)).toEqual([orderNo]);
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
    const middle = (await order('B30000')).orderNo;
    // Half the table's days: wide enough that sorting what they hold would cost what a merchant holds.
    const from = (await order('B10000')).createdAt;
    const to = (await order('B50000')).createdAt;
    const cases: Array<Partial<OrderListQuery>> = [
      { mchNo: 'MBIG' },
      { mchNo: 'MBIG', afterOrderNo: middle },
      { mchNo: 'MBIG', from, to },
      { mchNo: 'MBIG', status: 'success' },
      { mchNo: 'MBIG', status: 'success', afterOrderNo: middle },
      { mchNo: 'MBIG', status: 'success', from, to },
      {},
      { afterOrderNo: middle },
      { from, to },
      { search: 'CRB300' },
      { search: 'B300' },
      { mchNo: 'MBIG', search: 'CRB30000' },
      { mchNo: 'MBIG', status: 'success', search: 'B30000' },
      { mchNo: 'MBIG', search: `64611${'300'.padStart(13, '0')}` },
      { mchNo: 'MBIG', search: middle },
    ];
    for (const query of cases) {
      const text = await plan(query);
      const name = JSON.stringify(query);
      expect(text, name).not.toContain('"Node Type":"Seq Scan"');
      // A page is read in order from an index, never sorted whole.
      if (!query.search) expect(text, name).not.toContain('"Node Type":"Sort"');
      // One merchant's page, any status: its status ranges merged, each read backwards.
      if (query.mchNo && !query.search && !query.status) expect(text, name).toContain('Merge Append');
      if (query.mchNo && !query.search) expect(text, name).toContain('pay_orders_mch_status_opened_idx');
      // A search starts from its keys' indexes, never from a walk through the merchant's orders.
      if (query.search) {
        expect(text, name).toContain('BitmapOr');
        expect(text, name).not.toContain('pay_orders_mch_');
      }
    }
  });

  it('enters an order being created in three indexes only, and an opened one in six', async () => {
    const { rows: indexes } = await sql<{ name: string; predicate: string | null }>`
      select c.relname as name, pg_get_expr(i.indpred, i.indrelid) as predicate
      from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid = 'pay_orders'::regclass order by c.relname`.execute(db);
    /** The indexes whose predicate `orderNo`'s row meets, so that writing it wrote an entry in each. */
    const entered = async (orderNo: string) => {
      const names: string[] = [];
      for (const { name, predicate } of indexes) {
        const { rows } = await sql<{ hit: boolean }>`select (${sql.raw(predicate ?? 'true')}) as hit
          from pay_orders where order_no = ${orderNo}`.execute(db);
        if (rows[0]?.hit) names.push(name);
      }
      return names;
    };
    const created = await insertCreating(
      db,
      {
        mch_no: 'MNEW',
        biz_order_no: 'N1',
        app_id: '',
        title: 't',
        description: '',
        method: 'mex_virtual_account',
        limit_pay: '',
        amount: 100,
        fee: 0,
        real_amount: 100,
        status: 'wait',
        settle_status: 'not_settle',
        settle_type: 'D+1',
        attach: '',
        notify_url: '',
        return_url: '',
        quit_url: '',
        extra_param: '',
        client_ip: '',
        fingerprint: 'f',
        expired_time: null,
      },
      'a3bb189e-8bf9-3888-9912-ace4e6543002',
      { leaseMs: 30_000, defaultExpiryMs: 86_400_000 },
    );
    if (!created) throw new Error('the order was not inserted');
    expect(await entered(created.order_no)).toEqual([
      'pay_orders_creating_idx',
      'pay_orders_mch_no_biz_order_no_key',
      'pay_orders_pkey',
    ]);
    const opened = await markOpened(db, created.order_no, 'a3bb189e-8bf9-3888-9912-ace4e6543002', {
      payBody: '{"clabe":"646180000000000019"}',
      routeId: 'sandbox-default',
      upstreamRef: 'SBX1',
    });
    expect(opened?.opened_at).toBeInstanceOf(Date);
    expect(await entered(created.order_no)).toEqual([
      'pay_orders_biz_order_no_opened_idx',
      'pay_orders_clabe_idx',
      'pay_orders_expiring_idx',
      'pay_orders_mch_no_biz_order_no_key',
      'pay_orders_mch_status_opened_idx',
      'pay_orders_pkey',
    ]);
    // Numbered by the column's default: P and the creation second in UTC, which the time ranges rely on.
    expect(created.order_no.slice(0, 15)).toBe(
      `P${opened!.created_at.toISOString().slice(0, 19).replace(/[-T:]/g, '')}`,
    );
  });
});

describe('GetPayOrderHistory', () => {
  it("answers the order's stored changes, and marks a history retention trimmed as derived", async () => {
    const s3 = (await order('S3')).orderNo;
    await sql`insert into pay_order_status_history (order_no, from_status, to_status, version, cause, event_id)
      values (${s3}, 'wait', 'success', 2, 'upstream', gen_random_uuid())`.execute(db);
    const kept = await listing.history(s3, 'MSMALL');
    expect(kept.derived).toBe(false);
    expect(kept.changes.map((c) => [c.from, c.to, c.cause])).toEqual([['wait', 'success', 'upstream']]);
    const trimmed = await listing.history((await order('S6')).orderNo, '');
    expect(trimmed.derived).toBe(true);
    expect(trimmed.changes.map((c) => c.to)).toEqual(['success']);
    await expect(listing.history(s3, 'MOTHER')).rejects.toThrow(/not found/);
  });
});
