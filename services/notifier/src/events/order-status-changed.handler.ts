import type { Logger } from '@agentpay/logger';
import type { EnvelopeSigner } from '@agentpay/wire';
import type { JsMsg } from '@nats-io/jetstream';
import type { Kysely } from 'kysely';
import { buildCallbackBody, traceIdFrom } from '../callbacks/callback-body.js';
import type { Database } from '../db/schema.js';
import { recordDelivery } from '../deliveries/delivery.service.js';
import { parseOrderStatusChanged } from './order-status-changed.schema.js';

export interface HandlerDeps {
  db: Kysely<Database>;
  signer: EnvelopeSigner;
  timeZone: string;
  logger: Logger;
}

/** host:port of a notify URL (default ports filled in): the unit of per-endpoint concurrency. */
export function endpointOf(notifyUrl: string): string {
  if (!notifyUrl) return '';
  try {
    const url = new URL(notifyUrl);
    const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
    return `${url.hostname.toLowerCase()}:${port}`;
  } catch {
    return 'invalid';
  }
}

function instant(text: string): Date | null {
  if (!text) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Turns one OrderStatusChanged message into a delivery row: signs the callback body once, records it
 * (idempotently on event id) and applies the supersede rule, in one transaction. An event without a
 * notify URL is recorded as `skipped`, so operators can see it arrived and why nothing was sent.
 */
export function orderStatusChangedHandler(deps: HandlerDeps): (msg: JsMsg) => Promise<'ack' | 'term'> {
  return async (msg) => {
    let event: ReturnType<typeof parseOrderStatusChanged>;
    try {
      event = parseOrderStatusChanged(msg.string());
    } catch (err) {
      // Redelivering it would fail the same way forever; it stays in the stream for inspection.
      deps.logger.error(
        { err, subject: msg.subject, seq: msg.seq, msgId: msg.headers?.get('Nats-Msg-Id') },
        'unreadable status-change event; dropping it',
      );
      return 'term';
    }
    const order = event.kind === 'pay' ? event.pay_order : event.transfer;
    const notifyUrl = (event.notify_url || order.notify_url).trim();
    const traceId = traceIdFrom(event.traceparent || msg.headers?.get('traceparent'));
    const body = notifyUrl
      ? buildCallbackBody(event, { signer: deps.signer, timeZone: deps.timeZone, traceId })
      : '';

    const outcome = await recordDelivery(deps.db, {
      eventId: event.event_id,
      kind: event.kind,
      mchNo: event.mch_no,
      appId: event.app_id,
      orderNo: event.order_no,
      version: Number(event.version),
      fromStatus: event.from_status,
      toStatus: event.to_status,
      occurredAt: instant(event.occurred_at),
      notifyUrl,
      endpoint: endpointOf(notifyUrl),
      traceId,
      body,
      status: notifyUrl ? 'pending' : 'skipped',
    });
    const log = deps.logger.child({ eventId: event.event_id, orderNo: event.order_no, traceId });
    if (outcome.kind === 'duplicate') log.debug('event already recorded');
    else
      log.info(
        { deliveryId: outcome.id, status: outcome.status, superseded: outcome.superseded },
        'event recorded',
      );
    return 'ack';
  };
}
