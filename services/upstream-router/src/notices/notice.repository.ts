import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

/** A notice as the router records it and passes it on (NoticeReceived), in the platform's words. */
export type RecordedNotice =
  | {
      kind: 'payment';
      noticeId: string;
      orderNo: string;
      status: 'success' | 'fail' | 'close';
      paidAmount: number;
      paidAt?: Date | undefined;
      claveRastreo: string;
      /** Who paid, as the deposit named them (refunds go back there); absent when the channel did not say. */
      payer?: { account: string; name: string; bank: string; rfc: string } | undefined;
      /** Banxico's CEP page of the deposit, when the channel gave one. */
      cepUrl?: string | undefined;
    }
  | {
      kind: 'payout';
      noticeId: string;
      transferNo: string;
      status: 'success' | 'fail' | 'returned';
      finishedAt?: Date | undefined;
      claveRastreo: string;
      /** The channel's reference of the payout on the route ('' when the router has none). */
      upstreamRef: string;
      /** Banxico's CEP page of the payout and the sending bank's code, when the channel gave them. */
      cepUrl?: string | undefined;
      senderBank?: string | undefined;
    };

/**
 * Records a delivery of a notice in the caller's transaction. Answers `true` for its first delivery;
 * a repeat only counts the delivery and keeps the first content.
 */
export async function recordNotice(
  trx: Transaction<Database>,
  routeId: string,
  notice: RecordedNotice,
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
