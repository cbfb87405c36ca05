import type { Logger } from '@agentpay/logger';
import type { Kysely } from 'kysely';
import { NoticeRejectedError } from '../adapters/channel-adapter.js';
import type { Database } from '../db/schema.js';
import type { Channels } from '../routes/channels.js';
import { findRoute } from '../routes/route.repository.js';
import {
  claimNotice,
  findNotice,
  markNoticeApplied,
  recordNotice,
  releaseNotice,
} from './notice.repository.js';
import type { NoticeApplier } from './notice-applier.js';

/** What the channel is answered: 2xx only once the change is applied, so anything else is retried. */
export interface NoticeReply {
  status: number;
  body: { result: string };
}

/** Verifies, records and applies the notices channels deliver, each at most once per route and id. */
export function createNoticeService(deps: {
  db: Kysely<Database>;
  channels: Channels;
  apply: NoticeApplier;
  logger: Logger;
  /** How long one apply may hold a notice before another delivery may try; above the apply timeout. */
  claimMs: number;
}) {
  const { db, channels, apply, logger } = deps;

  return {
    async receive(
      routeId: string,
      received: { headers: Record<string, string | string[] | undefined>; rawBody: string },
    ): Promise<NoticeReply> {
      // Disabled routes still get their notices: orders created on them finish there.
      const route = await findRoute(db, routeId);
      if (!route) return { status: 404, body: { result: 'unknown_route' } };

      let notice: ReturnType<ReturnType<Channels['of']>['adapter']['parseNotice']>;
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

      const key = { routeId, noticeId: notice.noticeId };
      await recordNotice(db, routeId, notice);
      const claimed = await claimNotice(db, key, deps.claimMs);
      if (!claimed) {
        const existing = await findNotice(db, key);
        if (existing?.applied_at) return { status: 200, body: { result: 'duplicate' } };
        // Another delivery of the same notice is applying it right now; the channel retries later.
        return { status: 409, body: { result: 'in_progress' } };
      }

      try {
        await apply(notice);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        await releaseNotice(db, key, message);
        logger.warn(
          { routeId, noticeId: notice.noticeId, kind: notice.kind, err: message },
          'notice not applied',
        );
        return { status: 503, body: { result: 'retry' } };
      }
      await markNoticeApplied(db, key);
      logger.info(
        { routeId, noticeId: notice.noticeId, kind: notice.kind, status: notice.status },
        'notice applied',
      );
      return { status: 200, body: { result: 'applied' } };
    },
  };
}

export type NoticeService = ReturnType<typeof createNoticeService>;
