import { randomUUID } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, NoticeRow } from '../db/schema.js';

export type NoticeType = 'virtual_account.paid' | 'payout.succeeded' | 'payout.failed' | 'payout.returned';

/**
 * Queues a notice in the caller's transaction, so the state change and its notice commit together;
 * the body is rendered once here and the same bytes go out on every attempt.
 */
export async function enqueueNotice(
  trx: Transaction<Database>,
  notice: { type: NoticeType; ref: string; url: string; data: Record<string, unknown>; at: Date },
): Promise<string> {
  const id = `ntc_${randomUUID().replaceAll('-', '')}`;
  const body = JSON.stringify({
    id,
    type: notice.type,
    createdAt: notice.at.toISOString(),
    data: notice.data,
  });
  await trx
    .insertInto('notices')
    .values({ id, type: notice.type, ref: notice.ref, url: notice.url, body })
    .execute();
  return id;
}

/**
 * Takes up to `limit` due notices and pushes their next attempt `leaseMs` ahead, so another replica
 * does not send them too; a sender that dies mid-attempt leaves them due again when the lease ends.
 */
export async function claimDueNotices(
  db: Kysely<Database>,
  opts: { limit: number; leaseMs: number },
): Promise<NoticeRow[]> {
  return db
    .updateTable('notices')
    .set({
      attempts: sql`attempts + 1`,
      next_attempt_at: sql`now() + make_interval(secs => ${opts.leaseMs / 1000})`,
    })
    .where(
      'id',
      'in',
      db
        .selectFrom('notices')
        .select('id')
        .where('delivered_at', 'is', null)
        .where('gave_up_at', 'is', null)
        .where('next_attempt_at', '<=', sql<Date>`now()`)
        .orderBy('next_attempt_at')
        .limit(opts.limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute();
}

// Both marks apply only to the attempt that was claimed: a resend requested meanwhile resets
// `attempts`, and must not be swallowed by the outcome of the attempt before it.

export async function markNoticeDelivered(
  db: Kysely<Database>,
  claimed: { id: string; attempts: number },
  status: number,
): Promise<void> {
  await db
    .updateTable('notices')
    .set({ delivered_at: sql`now()`, last_status: status, last_error: null })
    .where('id', '=', claimed.id)
    .where('attempts', '=', claimed.attempts)
    .execute();
}

/** Records a failed attempt: due again after `retryInMs`, or given up when that is undefined. */
export async function markNoticeFailed(
  db: Kysely<Database>,
  claimed: { id: string; attempts: number },
  failure: { status: number | null; error: string; retryInMs: number | undefined },
): Promise<void> {
  await db
    .updateTable('notices')
    .set(
      failure.retryInMs === undefined
        ? { gave_up_at: sql`now()`, last_status: failure.status, last_error: failure.error }
        : {
            next_attempt_at: sql`now() + make_interval(secs => ${failure.retryInMs / 1000})`,
            last_status: failure.status,
            last_error: failure.error,
          },
    )
    .where('id', '=', claimed.id)
    .where('attempts', '=', claimed.attempts)
    .where('delivered_at', 'is', null)
    .execute();
}

/** Notices about one orderRef or payoutRef, oldest first. */
export async function noticesFor(db: Kysely<Database>, ref: string): Promise<NoticeRow[]> {
  return db
    .selectFrom('notices')
    .selectAll()
    .where('ref', '=', ref)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Sends a notice again, same id and bytes, as a channel that lost the acknowledgement would. */
export async function requeueNotice(db: Kysely<Database>, id: string): Promise<NoticeRow | undefined> {
  return db
    .updateTable('notices')
    .set({ delivered_at: null, gave_up_at: null, attempts: 0, next_attempt_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}
