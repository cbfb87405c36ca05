import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, VirtualAccountRow } from '../db/schema.js';

/** An account as first recorded. */
export interface NewVirtualAccount {
  orderNo: string;
  routeId: string;
  clabe: string;
  amount: number;
  assigned: boolean;
  upstreamRef: string;
  expiresAt: Date;
}

/** Records an order's account; answers false when the order already has one (its first is kept). */
export async function insertVirtualAccount(
  db: Kysely<Database> | Transaction<Database>,
  account: NewVirtualAccount,
): Promise<boolean> {
  const row = await db
    .insertInto('virtual_accounts')
    .values({
      order_no: account.orderNo,
      route_id: account.routeId,
      clabe: account.clabe,
      amount: account.amount,
      status: 'open',
      assigned: account.assigned,
      upstream_ref: account.upstreamRef,
      expires_at: account.expiresAt,
    })
    .onConflict((oc) => oc.column('order_no').doNothing())
    .returning('order_no')
    .executeTakeFirst();
  return row !== undefined;
}

export function findVirtualAccount(
  db: Kysely<Database>,
  orderNo: string,
): Promise<VirtualAccountRow | undefined> {
  return db.selectFrom('virtual_accounts').selectAll().where('order_no', '=', orderNo).executeTakeFirst();
}

/** The account a deposit to `clabe` on the route pays (its latest), locked for the decision. */
export function lockAccountByClabe(
  trx: Transaction<Database>,
  routeId: string,
  clabe: string,
): Promise<VirtualAccountRow | undefined> {
  return trx
    .selectFrom('virtual_accounts')
    .selectAll()
    .where('route_id', '=', routeId)
    .where('clabe', '=', clabe)
    .orderBy('created_at', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

/** Marks an open account paid by a deposit; false when it was no longer open. */
export async function markAccountPaid(
  trx: Transaction<Database>,
  orderNo: string,
  paid: { amount: number; at: Date; claveRastreo: string },
): Promise<boolean> {
  const result = await trx
    .updateTable('virtual_accounts')
    .set({
      status: 'paid',
      paid_amount: paid.amount,
      paid_at: paid.at,
      clave_rastreo: paid.claveRastreo,
      ended_at: sql`now()`,
    })
    .where('order_no', '=', orderNo)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Closes an open account (the order was closed, cancelled or timed out) and answers it as it is now. */
export async function closeAccount(
  db: Kysely<Database>,
  orderNo: string,
): Promise<VirtualAccountRow | undefined> {
  const closed = await db
    .updateTable('virtual_accounts')
    .set({ status: 'closed', ended_at: sql`now()` })
    .where('order_no', '=', orderNo)
    .where('status', '=', 'open')
    .returningAll()
    .executeTakeFirst();
  return closed ?? findVirtualAccount(db, orderNo);
}

/** Follows what a channel that opens its own accounts said of one, so the router's record agrees. */
export async function followChannelState(
  db: Kysely<Database>,
  orderNo: string,
  state: {
    status: 'open' | 'paid' | 'closed';
    paidAmount: number;
    paidAt?: Date | undefined;
    claveRastreo?: string;
  },
): Promise<void> {
  if (state.status === 'open') return;
  await db
    .updateTable('virtual_accounts')
    .set({
      status: state.status,
      paid_amount: state.paidAmount,
      paid_at: state.paidAt ?? null,
      ...(state.claveRastreo ? { clave_rastreo: state.claveRastreo } : {}),
      ended_at: sql`now()`,
    })
    .where('order_no', '=', orderNo)
    .where('status', '=', 'open')
    .execute();
}

/**
 * Ends an account left open past its expiry and its CLABE's quarantine (its order was never created, or nobody
 * closed it), so the CLABE can serve a new order: it counts as ended at its expiry.
 */
export async function retireStaleAccount(
  db: Kysely<Database>,
  routeId: string,
  clabe: string,
  quarantineDays: number,
): Promise<void> {
  await db
    .updateTable('virtual_accounts')
    .set({ status: 'closed', ended_at: sql`expires_at` })
    .where('route_id', '=', routeId)
    .where('clabe', '=', clabe)
    .where('status', '=', 'open')
    .where('expires_at', '<=', sql<Date>`now() - make_interval(days => ${quarantineDays})`)
    .execute();
}
