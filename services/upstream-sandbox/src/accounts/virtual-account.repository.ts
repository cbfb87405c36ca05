import { allColumns, executePrepared } from '@agentpay/db';
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

/** Inserts the account unless the order already has one; undefined when it did. */
export async function insertAccount(
  db: Kysely<Database>,
  account: {
    id: string;
    orderRef: string;
    clabe: string;
    reference: string;
    amount: number;
    expiresAt: Date;
    noticeUrl: string;
  },
): Promise<VirtualAccountRow | undefined> {
  const { rows } = await executePrepared(
    db,
    db
      .insertInto('virtual_accounts')
      .values({
        id: account.id,
        order_ref: account.orderRef,
        clabe: account.clabe,
        reference: account.reference,
        amount: account.amount,
        expires_at: account.expiresAt,
        notice_url: account.noticeUrl,
      })
      .onConflict((oc) => oc.column('order_ref').doNothing())
      .returning(ACCOUNT_COLUMNS),
  );
  return rows[0];
}

export async function findAccount(
  db: Kysely<Database>,
  by: { id: string } | { orderRef: string } | { clabe: string },
): Promise<VirtualAccountRow | undefined> {
  let query = db.selectFrom('virtual_accounts').select(ACCOUNT_COLUMNS);
  if ('id' in by) query = query.where('id', '=', by.id);
  else if ('orderRef' in by) query = query.where('order_ref', '=', by.orderRef);
  else query = query.where('clabe', '=', by.clabe);
  const { rows } = await executePrepared(db, query);
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
