import { migratedTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import { createTransferListing } from '../src/transfers/transfer.list.js';
import { type TransferListQuery, transferListQuery } from '../src/transfers/transfer-list.repository.js';

// ListTransfers and GetTransferHistory on a real Postgres: keyset pages, an exact search by each key, every
// query served by an index with a merchant holding most of a large table, and the history a transfer older
// than transfer_status_history derives from its own times.

let db: Kysely<Database>;
let drop: () => Promise<void>;
let listing: ReturnType<typeof createTransferListing>;

/** `count` transfers of `mchNo`, one second apart: every fourth succeeded with a claveRastreo. */
async function fill(mchNo: string, count: number, tag: string, payee: string) {
  await sql`insert into transfers (transfer_no, mch_no, biz_transfer_no, amount, fee, payee_type, payee_account,
      status, submission, fingerprint, clave_rastreo, version, finish_time, created_at)
    select 'T' || ${tag} || lpad(g::text, 12, '0'), ${mchNo}, ${tag} || g, 100, 5, 'spei_transfer',
      case when g % 1000 = 0 then ${payee} else '6461' || lpad(g::text, 14, '0') end,
      case when g % 4 = 0 then 'success' else 'progress' end, 'accepted', md5(${tag} || g),
      case when g % 4 = 0 then 'CR' || ${tag} || g else '' end, case when g % 4 = 0 then 2 else 1 end,
      case when g % 4 = 0 then now() - interval '29 days' + g * interval '1 second' end,
      now() - interval '30 days' + g * interval '1 second'
    from generate_series(1, ${count}) g`.execute(db);
}

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('transfers_list', migrations));
  listing = createTransferListing({ db });
  await fill('MBIG', 60_000, 'B', '002010077777777771');
  await fill('MSMALL', 7, 'S', '002010077777777771');
  await sql`insert into transfers (transfer_no, mch_no, biz_transfer_no, amount, fee, payee_type, payee_account,
      status, submission, fingerprint) values ('TSUBMITTING1', 'MSMALL', 'SX', 1, 0, 'spei_transfer', 'x',
      'submitting', 'pending', 'f')`.execute(db);
  await sql`analyze transfers`.execute(db);
}, 120_000);

afterAll(() => drop?.());

const base = { mchNo: '', query: '', status: '', createdFrom: '', createdTo: '', limit: 50, cursor: '' };

describe('ListTransfers', () => {
  it('pages a merchant newest first to the end, never showing a submitting transfer', async () => {
    const seen: string[] = [];
    let cursor = '';
    do {
      const page = await listing.list({ ...base, mchNo: 'MSMALL', limit: 2, cursor });
      seen.push(...page.transfers.map((t) => t.transfer_no));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => `TS${String(7 - i).padStart(12, '0')}`));
  });

  it.each([
    ['transfer number', 'TB000000000400'],
    ['merchant number', 'B400'],
    ['claveRastreo', 'CRB400'],
    ['payee account', `6461${'400'.padStart(14, '0')}`],
  ])('finds one transfer by its %s, exactly', async (_name, key) => {
    expect((await listing.list({ ...base, query: key })).transfers.map((t) => t.transfer_no)).toEqual([
      'TB000000000400',
    ]);
  });

  it("finds a payee's transfers of one merchant by the payee's CLABE", async () => {
    const found = await listing.list({ ...base, mchNo: 'MSMALL', query: '002010077777777771' });
    expect(found.transfers).toEqual([]);
    const big = await listing.list({ ...base, mchNo: 'MBIG', query: '002010077777777771', limit: 100 });
    expect(big.transfers).toHaveLength(60);
  });

  it('serves every page and search from an index', async () => {
    const full = (q: Partial<TransferListQuery>): TransferListQuery => ({
      mchNo: undefined,
      search: undefined,
      status: undefined,
      from: undefined,
      to: undefined,
      limit: 50,
      afterTransferNo: undefined,
      ...q,
    });
    const cases: Array<Partial<TransferListQuery>> = [
      { mchNo: 'MBIG' },
      { mchNo: 'MBIG', afterTransferNo: 'TB000000030000' },
      { mchNo: 'MBIG', status: 'success' },
      {},
      { search: 'CRB400' },
      { mchNo: 'MBIG', search: 'CRB40000' },
      { mchNo: 'MBIG', search: '002010077777777771' },
    ];
    for (const query of cases) {
      const { rows } = await sql`explain (format json) ${transferListQuery(full(query))}`.execute(db);
      const text = JSON.stringify(rows);
      expect(text, JSON.stringify(query)).not.toContain('"Node Type":"Seq Scan"');
      if (!query.search) expect(text, JSON.stringify(query)).not.toContain('"Node Type":"Sort"');
      if (query.search) {
        expect(text, JSON.stringify(query)).toContain('BitmapOr');
        expect(text, JSON.stringify(query)).not.toContain('transfers_mch_');
      }
    }
  });
});

describe('GetTransferHistory', () => {
  it('derives the changes of a transfer older than its history, and hides a submitting one', async () => {
    const old = await listing.history('TB000000000400', '');
    expect(old.derived).toBe(true);
    expect(old.changes.map((c) => [c.from, c.to])).toEqual([
      ['submitting', 'progress'],
      ['progress', 'success'],
    ]);
    await expect(listing.history('TSUBMITTING1', '')).rejects.toThrow(/not found/);
    await expect(listing.history('TB000000000400', 'MSMALL')).rejects.toThrow(/not found/);
  });
});
