import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { BatchRequestItem, BatchRequestsTable, Database } from '../db/schema.js';

// Batch payouts asked for on the dashboard and waiting for a second person. Conditional updates: only a
// pending request changes state, so two approvers at once have one winner.

export type BatchRequestRow = Selectable<BatchRequestsTable>;

export function createBatchRequests(db: Kysely<Database>) {
  return {
    /** A new pending request; undefined when the merchant used this bizBatchNo for one already. */
    insert(input: {
      mchNo: string;
      bizBatchNo: string;
      notifyUrl: string;
      items: readonly BatchRequestItem[];
      requestedById: string;
      requestedByLabel: string;
    }): Promise<BatchRequestRow | undefined> {
      return db
        .insertInto('batch_requests')
        .values({
          id: `bat_${randomBytes(12).toString('hex')}`,
          mch_no: input.mchNo,
          biz_batch_no: input.bizBatchNo,
          notify_url: input.notifyUrl,
          items: JSON.stringify(input.items),
          count: input.items.length,
          amount: input.items.reduce((sum, item) => sum + item.amount, 0),
          state: 'pending',
          requested_by_id: input.requestedById,
          requested_by_label: input.requestedByLabel,
        })
        .onConflict((oc) => oc.constraint('batch_requests_mch_biz_key').doNothing())
        .returningAll()
        .executeTakeFirst();
    },

    find(mchNo: string, id: string): Promise<BatchRequestRow | undefined> {
      return db
        .selectFrom('batch_requests')
        .selectAll()
        .where('mch_no', '=', mchNo)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** The merchant's latest requests, newest first (without their items). */
    latest(mchNo: string, limit: number) {
      return db
        .selectFrom('batch_requests')
        .select([
          'id',
          'biz_batch_no',
          'count',
          'amount',
          'state',
          'requested_by_id',
          'requested_by_label',
          'requested_at',
          'decided_by_label',
          'decided_at',
          'batch_no',
        ])
        .where('mch_no', '=', mchNo)
        .orderBy('requested_at', 'desc')
        .limit(limit)
        .execute();
    },

    /** pending -> `state`, by `by`; false when it was not pending any more. */
    async decide(
      mchNo: string,
      id: string,
      state: 'approved' | 'rejected' | 'cancelled',
      by: { id: string; label: string },
    ): Promise<boolean> {
      const result = await db
        .updateTable('batch_requests')
        .set({ state, decided_by_id: by.id, decided_by_label: by.label, decided_at: new Date() })
        .where('mch_no', '=', mchNo)
        .where('id', '=', id)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** An approval whose batch transfers refused: back to pending, so it may be approved again or rejected. */
    async reopen(mchNo: string, id: string): Promise<void> {
      await db
        .updateTable('batch_requests')
        .set({ state: 'pending', decided_by_id: null, decided_by_label: null, decided_at: null })
        .where('mch_no', '=', mchNo)
        .where('id', '=', id)
        .where('state', '=', 'approved')
        .where('batch_no', 'is', null)
        .execute();
    },

    async created(mchNo: string, id: string, batchNo: string): Promise<void> {
      await db
        .updateTable('batch_requests')
        .set({ batch_no: batchNo })
        .where('mch_no', '=', mchNo)
        .where('id', '=', id)
        .execute();
    },
  };
}

export type BatchRequests = ReturnType<typeof createBatchRequests>;
