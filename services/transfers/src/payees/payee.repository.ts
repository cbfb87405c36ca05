import { type Kysely, sql } from 'kysely';
import type { Database, PayeeRow } from '../db/schema.js';

const nextPayeeId = sql<string>`'P' || to_char(clock_timestamp() at time zone 'UTC', 'YYYYMMDDHH24MISS') || lpad(nextval('payee_id_seq')::text, 12, '0')`;

export interface NewPayee {
  mch_no: string;
  payee_type: string;
  payee_account: string;
  payee_name: string;
  payee_code: string;
  usable_at: Date;
  registered_by: string;
}

/**
 * Registers a payee, or answers the merchant's active registration of the same account (a repeat, or two
 * at once: the partial unique index lets one win). `created` says which.
 */
export async function insertPayee(
  db: Kysely<Database>,
  payee: NewPayee,
): Promise<{ row: PayeeRow; created: boolean }> {
  const inserted = await db
    .insertInto('payees')
    .values({ ...payee, payee_id: nextPayeeId, status: 'cooling' })
    .onConflict((oc) =>
      oc.columns(['mch_no', 'payee_type', 'payee_account']).where('status', '<>', 'removed').doNothing(),
    )
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { row: inserted, created: true };
  const existing = await findActivePayee(db, payee.mch_no, payee.payee_type, payee.payee_account);
  if (!existing) throw new Error('a payee registration conflicted with one that is gone');
  return { row: existing, created: false };
}

/** The merchant's active (not removed) registration of an account, if any. */
export function findActivePayee(
  db: Kysely<Database>,
  mchNo: string,
  payeeType: string,
  payeeAccount: string,
): Promise<PayeeRow | undefined> {
  return db
    .selectFrom('payees')
    .selectAll()
    .where('mch_no', '=', mchNo)
    .where('payee_type', '=', payeeType)
    .where('payee_account', '=', payeeAccount)
    .where('status', '<>', 'removed')
    .executeTakeFirst();
}

export function findPayee(
  db: Kysely<Database>,
  mchNo: string,
  payeeId: string,
): Promise<PayeeRow | undefined> {
  return db
    .selectFrom('payees')
    .selectAll()
    .where('mch_no', '=', mchNo)
    .where('payee_id', '=', payeeId)
    .executeTakeFirst();
}

/** A merchant's payees newest first, keyset-paged by (created_at, payee_id); removed ones only when asked. */
export function listPayees(
  db: Kysely<Database>,
  query: { mchNo: string; limit: number; after?: { createdAt: Date; payeeId: string }; withRemoved: boolean },
): Promise<PayeeRow[]> {
  let q = db.selectFrom('payees').selectAll().where('mch_no', '=', query.mchNo);
  if (!query.withRemoved) q = q.where('status', '<>', 'removed');
  if (query.after) {
    const { createdAt, payeeId } = query.after;
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '<', createdAt),
        eb.and([eb('created_at', '=', createdAt), eb('payee_id', '<', payeeId)]),
      ]),
    );
  }
  return q.orderBy('created_at', 'desc').orderBy('payee_id', 'desc').limit(query.limit).execute();
}

/**
 * Makes a cooling payee usable now, approved by `approvedBy`: only while it is still cooling and only by
 * someone other than whoever registered it (a conditional update, so a removal or another approval
 * racing it cannot both win). Undefined when nothing was changed.
 */
export function approvePayee(
  db: Kysely<Database>,
  ref: { mchNo: string; payeeId: string; approvedBy: string; now: Date },
): Promise<PayeeRow | undefined> {
  return db
    .updateTable('payees')
    .set({ status: 'usable', usable_at: ref.now, approved_by: ref.approvedBy })
    .where('mch_no', '=', ref.mchNo)
    .where('payee_id', '=', ref.payeeId)
    .where('status', '=', 'cooling')
    .where('registered_by', '<>', ref.approvedBy)
    .returningAll()
    .executeTakeFirst();
}

/** Removes a payee at once; undefined when it was removed already or is not the merchant's. */
export function removePayee(
  db: Kysely<Database>,
  ref: { mchNo: string; payeeId: string; now: Date },
): Promise<PayeeRow | undefined> {
  return db
    .updateTable('payees')
    .set({ status: 'removed', removed_at: ref.now })
    .where('mch_no', '=', ref.mchNo)
    .where('payee_id', '=', ref.payeeId)
    .where('status', '<>', 'removed')
    .returningAll()
    .executeTakeFirst();
}
