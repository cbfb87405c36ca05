import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, MerchantSettingRequestsTable } from '../db/schema.js';

// The merchant's pending requests to relax a control (a second owner or admin approves them). Conditional
// updates: only a pending request changes state, so two approvers at once have one winner.

export type SettingRequestRow = Selectable<MerchantSettingRequestsTable>;

async function pendingRequests(db: Kysely<Database>, mchNo: string): Promise<SettingRequestRow[]> {
  return db
    .selectFrom('merchant_setting_requests')
    .selectAll()
    .where('mch_no', '=', mchNo)
    .where('state', '=', 'pending')
    .orderBy('requested_at')
    .execute();
}

/** A new pending request; undefined when the merchant has one pending already. */
async function insertRequest(
  db: Kysely<Database>,
  input: { mchNo: string; requestedById: string; requestedByLabel: string },
): Promise<SettingRequestRow | undefined> {
  return db
    .insertInto('merchant_setting_requests')
    .values({
      id: `msr_${randomBytes(12).toString('hex')}`,
      mch_no: input.mchNo,
      change: { registeredPayeesOnly: false },
      state: 'pending',
      requested_by_id: input.requestedById,
      requested_by_label: input.requestedByLabel,
    })
    .onConflict((oc) => oc.column('mch_no').where('state', '=', 'pending').doNothing())
    .returningAll()
    .executeTakeFirst();
}

async function findRequest(
  db: Kysely<Database>,
  mchNo: string,
  id: string,
): Promise<SettingRequestRow | undefined> {
  return db
    .selectFrom('merchant_setting_requests')
    .selectAll()
    .where('mch_no', '=', mchNo)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Moves a pending request to `state`; false when it was no longer pending (someone else decided it). */
async function decideRequest(
  trx: Transaction<Database> | Kysely<Database>,
  ref: { mchNo: string; id: string; state: 'approved' | 'cancelled'; by: string },
): Promise<boolean> {
  const result = await trx
    .updateTable('merchant_setting_requests')
    .set({ state: ref.state, decided_by_id: ref.by, decided_at: new Date() })
    .where('mch_no', '=', ref.mchNo)
    .where('id', '=', ref.id)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The pending requests of merchants, over one database; `decide` joins a transaction when given one. */
export function createSettingRequests(db: Kysely<Database>) {
  return {
    pending: (mchNo: string) => pendingRequests(db, mchNo),
    insert: (input: Parameters<typeof insertRequest>[1]) => insertRequest(db, input),
    find: (mchNo: string, id: string) => findRequest(db, mchNo, id),
    decide: (ref: Parameters<typeof decideRequest>[1], trx?: Transaction<Database>) =>
      decideRequest(trx ?? db, ref),
  };
}

export type SettingRequests = ReturnType<typeof createSettingRequests>;
