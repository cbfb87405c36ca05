import { allColumns, compiledOnce } from '@agentpay/db';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, DepositRow, VirtualAccountRow, VirtualAccountsTable } from '../db/schema.js';

/** Listed for the statements every create and query runs prepared (no `*` in those). */
const ACCOUNT_COLUMNS = allColumns<VirtualAccountsTable>({
  id: true,
  order_ref: true,
  clabe: true,
  reference: true,
  amount: true,
  expires_at: true,
  notice_url: true,
  status: true,
  paid_amount: true,
  paid_at: true,
  closed_at: true,
  created_at: true,
});

/** Reserves `count` account numbers at once (gaps are harmless: a CLABE only has to be unique). */
export async function reserveAccountNumbers(db: Kysely<Database>, count: number): Promise<number[]> {
  const { rows } = await sql<{ n: string }>`
    select nextval('clabe_account_seq') as n from generate_series(1, ${count}::int)`.execute(db);
  return rows.map((r) => Number(r.n));
}

interface NewAccount {
  id: string;
  orderRef: string;
  clabe: string;
  reference: string;
  amount: number;
  expiresAt: Date;
  noticeUrl: string;
}

const insertNew = compiledOnce<Database, NewAccount, VirtualAccountRow>((db, p) =>
  db
    .insertInto('virtual_accounts')
    .values({
      id: p.id,
      order_ref: p.orderRef,
      clabe: p.clabe,
      reference: p.reference,
      amount: p.amount,
      expires_at: p.expiresAt,
      notice_url: p.noticeUrl,
    })
    .onConflict((oc) => oc.column('order_ref').doNothing())
    .returning(ACCOUNT_COLUMNS),
);

/** Inserts the account unless the order already has one; undefined when it did. */
export async function insertAccount(
  db: Kysely<Database>,
  account: NewAccount,
): Promise<VirtualAccountRow | undefined> {
  return (await insertNew.run(db, account)).rows[0];
}

const accountBy = {
  id: compiledOnce<Database, { id: string }, VirtualAccountRow>((db, p) =>
    db.selectFrom('virtual_accounts').select(ACCOUNT_COLUMNS).where('id', '=', p.id),
  ),
  orderRef: compiledOnce<Database, { orderRef: string }, VirtualAccountRow>((db, p) =>
    db.selectFrom('virtual_accounts').select(ACCOUNT_COLUMNS).where('order_ref', '=', p.orderRef),
  ),
  clabe: compiledOnce<Database, { clabe: string }, VirtualAccountRow>((db, p) =>
    db.selectFrom('virtual_accounts').select(ACCOUNT_COLUMNS).where('clabe', '=', p.clabe),
  ),
};

export async function findAccount(
  db: Kysely<Database>,
  by: { id: string } | { orderRef: string } | { clabe: string },
): Promise<VirtualAccountRow | undefined> {
  const { rows } =
    'id' in by
      ? await accountBy.id.run(db, by)
      : 'orderRef' in by
        ? await accountBy.orderRef.run(db, by)
        : await accountBy.clabe.run(db, by);
  return rows[0];
}

/** The account behind `clabe`, locked until the transaction ends, so a deposit and a close serialise. */
export async function lockAccountByClabe(
  trx: Transaction<Database>,
  clabe: string,
): Promise<VirtualAccountRow | undefined> {
  return trx
    .selectFrom('virtual_accounts')
    .selectAll()
    .where('clabe', '=', clabe)
    .forUpdate()
    .executeTakeFirst();
}

/** Marks an open account past its expiry as expired; answers the account as it is afterwards. */
export async function expireIfDue(
  db: Kysely<Database> | Transaction<Database>,
  account: VirtualAccountRow,
): Promise<VirtualAccountRow> {
  if (account.status !== 'open' || account.expires_at.getTime() > Date.now()) return account;
  const updated = await db
    .updateTable('virtual_accounts')
    .set({ status: 'expired' })
    .where('id', '=', account.id)
    .where('status', '=', 'open')
    .where('expires_at', '<=', sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst();
  return updated ?? (await findAccount(db, { id: account.id })) ?? account;
}

export async function markAccountPaid(
  trx: Transaction<Database>,
  id: string,
  paid: { amount: number; at: Date },
): Promise<VirtualAccountRow | undefined> {
  return trx
    .updateTable('virtual_accounts')
    .set({ status: 'paid', paid_amount: paid.amount, paid_at: paid.at })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .returningAll()
    .executeTakeFirst();
}

export async function markAccountClosed(
  trx: Transaction<Database>,
  id: string,
): Promise<VirtualAccountRow | undefined> {
  return trx
    .updateTable('virtual_accounts')
    .set({ status: 'closed', closed_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .returningAll()
    .executeTakeFirst();
}

/** The tracking key of the deposit that paid account `accountId`; undefined when none did. */
export async function payingDepositKey(
  db: Kysely<Database> | Transaction<Database>,
  accountId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('deposits')
    .select('clave_rastreo')
    .where('account_id', '=', accountId)
    .where('matched', '=', true)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  return row?.clave_rastreo;
}

export async function insertDeposit(
  trx: Transaction<Database>,
  deposit: Omit<DepositRow, 'created_at'>,
): Promise<DepositRow> {
  return trx.insertInto('deposits').values(deposit).returningAll().executeTakeFirstOrThrow();
}

export async function listDeposits(
  db: Kysely<Database>,
  filter: { unmatched?: boolean; clabe?: string; limit: number },
): Promise<DepositRow[]> {
  let query = db.selectFrom('deposits').selectAll();
  if (filter.unmatched !== undefined) query = query.where('matched', '=', !filter.unmatched);
  if (filter.clabe !== undefined) query = query.where('clabe', '=', filter.clabe);
  return query.orderBy('created_at', 'desc').orderBy('id').limit(filter.limit).execute();
}
