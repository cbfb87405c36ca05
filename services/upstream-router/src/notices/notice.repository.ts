import { type Kysely, sql } from 'kysely';
import type { UpstreamNotice } from '../adapters/channel-adapter.js';
import type { Database, UpstreamNoticeRow } from '../db/schema.js';

type Key = { routeId: string; noticeId: string };

/** Records a delivery of a notice; a repeat only counts the delivery and keeps the first content. */
export async function recordNotice(
  db: Kysely<Database>,
  routeId: string,
  notice: UpstreamNotice,
): Promise<UpstreamNoticeRow> {
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
  return db
    .insertInto('upstream_notices')
    .values({
      route_id: routeId,
      notice_id: notice.noticeId,
      kind: notice.kind,
      ref,
      status: notice.status,
      payload: JSON.stringify(payload),
    })
    .onConflict((oc) =>
      oc.columns(['route_id', 'notice_id']).doUpdateSet({ deliveries: sql`upstream_notices.deliveries + 1` }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Takes the right to apply a notice for `leaseMs`: only if it is not applied yet and nobody else holds
 * it. A holder that dies leaves it claimable again when the lease ends.
 */
export async function claimNotice(
  db: Kysely<Database>,
  key: Key,
  leaseMs: number,
): Promise<UpstreamNoticeRow | undefined> {
  return db
    .updateTable('upstream_notices')
    .set({
      claimed_until: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
      apply_attempts: sql`apply_attempts + 1`,
    })
    .where('route_id', '=', key.routeId)
    .where('notice_id', '=', key.noticeId)
    .where('applied_at', 'is', null)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', sql<Date>`now()`)]))
    .returningAll()
    .executeTakeFirst();
}

export async function markNoticeApplied(db: Kysely<Database>, key: Key): Promise<void> {
  await db
    .updateTable('upstream_notices')
    .set({ applied_at: sql`now()`, claimed_until: null, last_error: null })
    .where('route_id', '=', key.routeId)
    .where('notice_id', '=', key.noticeId)
    .execute();
}

/** Gives the claim back after a failed apply, so the channel's next delivery tries again. */
export async function releaseNotice(db: Kysely<Database>, key: Key, error: string): Promise<void> {
  await db
    .updateTable('upstream_notices')
    .set({ claimed_until: null, last_error: error })
    .where('route_id', '=', key.routeId)
    .where('notice_id', '=', key.noticeId)
    .where('applied_at', 'is', null)
    .execute();
}

export async function findNotice(db: Kysely<Database>, key: Key): Promise<UpstreamNoticeRow | undefined> {
  return db
    .selectFrom('upstream_notices')
    .selectAll()
    .where('route_id', '=', key.routeId)
    .where('notice_id', '=', key.noticeId)
    .executeTakeFirst();
}
