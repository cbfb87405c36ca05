import { randomUUID } from 'node:crypto';
import type { Logger } from '@agentpay/logger';
import { enqueueEvent, noticeSubject } from '@agentpay/messaging';
import type { NoticeReceived } from '@agentpay/proto';
import { currentTraceparent } from '@agentpay/telemetry';
import type { Kysely } from 'kysely';
import { NoticeRejectedError, type UpstreamNotice } from '../adapters/channel-adapter.js';
import type { Database } from '../db/schema.js';
import type { Channels } from '../routes/channels.js';
import { findRoute } from '../routes/route.repository.js';
import { recordNotice } from './notice.repository.js';

/** What the channel is answered: 2xx once the notice is durably recorded, so anything else is retried. */
export interface NoticeReply {
  status: number;
  body: { result: string };
}

/**
 * Verifies and records the notices channels deliver, once per route and notice id. Recording a notice
 * writes its NoticeReceived event to the outbox in the same transaction; payments or transfers apply it
 * from the stream, so the channel never waits for them and a service that is down delays nothing here.
 */
export function createNoticeService(deps: {
  db: Kysely<Database>;
  channels: Channels;
  logger: Logger;
  /** EVENTS_SUBJECT_PREFIX */
  subjectPrefix: string;
}) {
  const { db, channels, logger } = deps;

  return {
    async receive(
      routeId: string,
      received: { headers: Record<string, string | string[] | undefined>; rawBody: string },
    ): Promise<NoticeReply> {
      // Disabled routes still get their notices: orders created on them finish there.
      const route = await findRoute(db, routeId);
      if (!route) return { status: 404, body: { result: 'unknown_route' } };

      let notice: UpstreamNotice;
      try {
        const channel = channels.of(route);
        notice = channel.adapter.parseNotice(channel.route, received);
      } catch (err) {
        if (err instanceof NoticeRejectedError) {
          logger.warn({ routeId, reason: err.message }, 'notice refused');
          return err.reason === 'signature'
            ? { status: 401, body: { result: 'bad_signature' } }
            : { status: 400, body: { result: 'malformed' } };
        }
        throw err;
      }

      // The delivery's trace (the channel's, or one started for it) rides the event to the service
      // that applies it.
      const traceparent = currentTraceparent();
      const fresh = await db.transaction().execute(async (trx) => {
        if (!(await recordNotice(trx, routeId, notice))) return false;
        const event = noticeReceived(randomUUID(), notice, traceparent);
        await enqueueEvent(trx, noticeSubject(deps.subjectPrefix, notice.kind), event);
        return true;
      });
      const ids = { routeId, noticeId: notice.noticeId, kind: notice.kind };
      if (!fresh) {
        logger.info(ids, 'repeated notice acknowledged');
        return { status: 200, body: { result: 'duplicate' } };
      }
      logger.info({ ...ids, status: notice.status }, 'notice recorded');
      return { status: 200, body: { result: 'recorded' } };
    },
  };
}

/** The NoticeReceived event of a notice, in the proto JSON mapping the outbox publishes. */
function noticeReceived(
  eventId: string,
  notice: UpstreamNotice,
  traceparent: string,
): NoticeReceived & { event_id: string; traceparent: string } {
  const common = {
    event_id: eventId,
    notice_id: notice.noticeId,
    received_at: new Date().toISOString(),
    traceparent,
  };
  return notice.kind === 'payment'
    ? {
        ...common,
        notice: 'payment',
        payment: {
          order_no: notice.orderNo,
          status: notice.status,
          paid_amount: String(notice.paidAmount),
          paid_at: notice.paidAt?.toISOString() ?? '',
        },
      }
    : {
        ...common,
        notice: 'payout',
        payout: {
          transfer_no: notice.transferNo,
          status: notice.status,
          finished_at: notice.finishedAt?.toISOString() ?? '',
        },
      };
}

export type NoticeService = ReturnType<typeof createNoticeService>;
