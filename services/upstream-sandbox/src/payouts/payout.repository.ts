import type { Insertable } from 'kysely';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, PayoutRow, PayoutsTable } from '../db/schema.js';

export async function insertPayout(
  db: Kysely<Database>,
  payout: Insertable<PayoutsTable>,
): Promise<PayoutRow | undefined> {
  return db
    .insertInto('payouts')
    .values(payout)
    .onConflict((oc) => oc.column('payout_ref').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function findPayout(
  db: Kysely<Database>,
  by: { id: string } | { payoutRef: string },
): Promise<PayoutRow | undefined> {
  return db
    .selectFrom('payouts')
    .selectAll()
    .$call((q) => ('id' in by ? q.where('id', '=', by.id) : q.where('payout_ref', '=', by.payoutRef)))
    .executeTakeFirst();
}

/** Processing payouts whose settle time has come, locked; replicas skip each other's rows. */
export async function lockDueSettlements(trx: Transaction<Database>, limit: number): Promise<PayoutRow[]> {
  return trx
    .selectFrom('payouts')
    .selectAll()
    .where('status', '=', 'processing')
    .where('settle_at', '<=', sql<Date>`now()`)
    .orderBy('settle_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/** Succeeded payouts planned to come back whose return time has come, locked. */
export async function lockDueReturns(trx: Transaction<Database>, limit: number): Promise<PayoutRow[]> {
  return trx
    .selectFrom('payouts')
    .selectAll()
    .where('status', '=', 'succeeded')
    .where('return_at', '<=', sql<Date>`now()`)
    .orderBy('return_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/** Moves a payout from `from` to its next state; undefined when another writer moved it first. */
export async function transitionPayout(
  trx: Transaction<Database>,
  id: string,
  from: PayoutRow['status'],
  change: Partial<
    Pick<
      PayoutRow,
      | 'status'
      | 'reason'
      | 'settle_at'
      | 'return_at'
      | 'finished_at'
      | 'returned_at'
      | 'clave_rastreo'
      | 'return_clave_rastreo'
    >
  >,
): Promise<PayoutRow | undefined> {
  return trx
    .updateTable('payouts')
    .set(change)
    .where('id', '=', id)
    .where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
}
