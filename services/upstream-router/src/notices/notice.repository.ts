import { sql, type Transaction } from 'kysely';
import type { UpstreamNotice } from '../adapters/channel-adapter.js';
import type { Database } from '../db/schema.js';

/**
 * Records a delivery of a notice in the caller's transaction. Answers `true` for its first delivery;
 * a repeat only counts the delivery and keeps the first content.
 */
export async function recordNotice(
  trx: Transaction<Database>,
  routeId: string,
  notice: UpstreamNotice,
): Promise<boolean> {
  const { ref, payload } =
    notice.kind === 'payment'
      ? {
          ref: notice.orderNo,
          payload: { ...notice, paidAt: notice.paidAt?.toISOString() ?? null },
        }
      : {
          ref: notice.transferNo,
          payload: { ...notice, finishedAt: notice.finishedAt?.toISOString() ?? null },
        };
  const inserted = await trx
    .insertInto('upstream_notices')
    .values({
      route_id: routeId,
      notice_id: notice.noticeId,
      kind: notice.kind,
      ref,
      status: notice.status,
      payload: JSON.stringify(payload),
    })
    .onConflict((oc) => oc.columns(['route_id', 'notice_id']).doNothing())
    .returning('notice_id')
    .executeTakeFirst();
  if (inserted) return true;
  await trx
    .updateTable('upstream_notices')
    .set({ deliveries: sql`deliveries + 1` })
    .where('route_id', '=', routeId)
    .where('notice_id', '=', notice.noticeId)
    .execute();
  return false;
}
