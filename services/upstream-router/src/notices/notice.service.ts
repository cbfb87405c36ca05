import type { Logger } from '@agentpay/logger';
import { Counter, currentTraceparent, type Registry } from '@agentpay/telemetry';
import type { Kysely } from 'kysely';
import type { Webhook } from '../adapters/channel-adapter.js';
import type { PayerScreening } from '../compliance/compliance.client.js';
import type { Database } from '../db/schema.js';
import type { Channels } from '../routes/channels.js';
import { findRoute } from '../routes/route.repository.js';
import { createWebhookCore } from './webhook-core.js';

/** What the channel is answered: the adapter's exact reply once what it reports is durably recorded. */
export interface NoticeReply {
  status: number;
  body: unknown;
}

/**
 * Receives the webhooks channels deliver and hands each to its route's adapter, which checks it, reports
 * what it says to the router's core (which finds the order or payout in the router's own records, decides
 * and records it with its NoticeReceived event in one transaction) and shapes the reply. Payments or
 * transfers apply the events from the stream, so the channel never waits for them.
 */
export function createNoticeService(deps: {
  db: Kysely<Database>;
  channels: Channels;
  logger: Logger;
  registry: Registry;
  /** EVENTS_SUBJECT_PREFIX */
  subjectPrefix: string;
  /** Screens deposits' payers (docs/compliance.md); absent: none. */
  payers?: PayerScreening | undefined;
}) {
  const { db, channels, logger } = deps;
  const refused = new Counter({
    name: 'upstream_webhooks_refused_total',
    help: 'Webhooks refused per route and reason (forbidden: caller outside the allow-list; signature; malformed; unverified: the channel does not know it; unknown_target)',
    labelNames: ['route', 'reason'],
    registers: [deps.registry],
  });
  const received = new Counter({
    name: 'upstream_webhooks_total',
    help: 'Webhooks answered per route, event and HTTP status',
    labelNames: ['route', 'event', 'status'],
    registers: [deps.registry],
  });

  return {
    async receive(routeId: string, webhook: Webhook): Promise<NoticeReply> {
      // Disabled routes still get their webhooks: orders created on them finish there.
      const route = await findRoute(db, routeId);
      if (!route) {
        refused.inc({ route: 'unknown', reason: 'unknown_route' });
        return { status: 404, body: { result: 'unknown_route' } };
      }
      const channel = channels.of(route);
      const core = createWebhookCore({
        db,
        logger,
        routeId,
        subjectPrefix: deps.subjectPrefix,
        // The delivery's trace (the channel's, or one started for it) rides the event to the service that applies it.
        traceparent: currentTraceparent(),
        payers: deps.payers,
      });
      const reply = await channel.adapter.handleWebhook(channel.route, webhook, core);
      received.inc({ route: routeId, event: webhook.event || 'notice', status: String(reply.status) });
      if (reply.refused) {
        refused.inc({ route: routeId, reason: reply.refused });
        logger.warn(
          { routeId, event: webhook.event, reason: reply.refused, remoteAddress: webhook.remoteAddress },
          'webhook refused',
        );
      }
      return { status: reply.status, body: reply.body };
    },
  };
}

export type NoticeService = ReturnType<typeof createNoticeService>;
