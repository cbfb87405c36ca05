import type { Logger } from '@agentpay/logger';
import type { Kysely } from 'kysely';
import type { Database, NoticeRow } from '../db/schema.js';
import { claimDueNotices, markNoticeDelivered, markNoticeFailed } from './notice.repository.js';
import { NOTICE_ID_HEADER, SIGNATURE_HEADER, signNotice } from './notice-signature.js';

export interface NoticeDeliveryOptions {
  secret: string;
  maxAttempts: number;
  backoffMs: number;
  timeoutMs: number;
}

const BATCH = 20;

/** Sends every due notice once; answers how many were attempted. Failures are rescheduled with backoff. */
export async function deliverDueNotices(
  db: Kysely<Database>,
  logger: Logger,
  options: NoticeDeliveryOptions,
  signal: AbortSignal,
): Promise<number> {
  // The lease outlives one attempt, so a notice is never sent twice at once.
  const due = await claimDueNotices(db, { limit: BATCH, leaseMs: options.timeoutMs + 5_000 });
  await Promise.all(due.map((notice) => deliverOne(db, logger, options, notice, signal)));
  return due.length;
}

async function deliverOne(
  db: Kysely<Database>,
  logger: Logger,
  options: NoticeDeliveryOptions,
  notice: NoticeRow,
  signal: AbortSignal,
): Promise<void> {
  let status: number | null = null;
  let error: string;
  try {
    const response = await fetch(notice.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signNotice(options.secret, notice.body),
        [NOTICE_ID_HEADER]: notice.id,
      },
      body: notice.body,
      signal: AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)]),
    });
    status = response.status;
    await response.body?.cancel();
    if (response.ok) {
      await markNoticeDelivered(db, notice, status);
      logger.debug({ noticeId: notice.id, attempt: notice.attempts }, 'notice delivered');
      return;
    }
    error = `HTTP ${status}`;
  } catch (err) {
    error =
      err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
  }
  const retryInMs =
    notice.attempts >= options.maxAttempts ? undefined : options.backoffMs * 2 ** (notice.attempts - 1);
  await markNoticeFailed(db, notice, { status, error, retryInMs });
  logger.warn(
    { noticeId: notice.id, attempt: notice.attempts, status, error, gaveUp: retryInMs === undefined },
    'notice delivery failed',
  );
}
