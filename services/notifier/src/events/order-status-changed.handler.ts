import type { Logger } from '@agentpay/logger';
import { isStatusChangedSubject } from '@agentpay/messaging';
import { traceIdOf } from '@agentpay/proto';
import type { EnvelopeSigner } from '@agentpay/wire';
import type { JsMsg } from '@nats-io/jetstream';
import type { Kysely } from 'kysely';
import { buildCallbackBody } from '../callbacks/callback-body.js';
import type { Database } from '../db/schema.js';
import type { NewDelivery, RecordOutcome } from '../deliveries/delivery.repository.js';
import { recordDeliveries } from '../deliveries/delivery.service.js';
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

/** What becomes of one message of a batch: acked, dropped for good, or redelivered later. */
export type Verdict = 'ack' | 'term' | 'retry';

/**
 * Turns a batch of OrderStatusChanged messages into delivery rows: signs each callback body once and
 * records them all in one transaction (idempotently on event id, with the supersede rule). If that
 * transaction fails, each event is recorded on its own, so one event Postgres refuses cannot hold back
 * the others. An event without a notify URL is recorded as `skipped`, so operators can see it arrived
 * and why nothing was sent.
 */
export function orderStatusChangedHandler(deps: HandlerDeps): (msgs: readonly JsMsg[]) => Promise<Verdict[]> {
  return async (msgs) => {
    const verdicts: Verdict[] = msgs.map(() => 'ack');
    const parsed: { index: number; delivery: NewDelivery }[] = [];
    // The stream also carries events meant for other services (upstream notices for payments and
    // transfers) while the consumer's filter takes every subject: those are acked and left alone.
    const built = await Promise.all(
      msgs.map((msg) => (isStatusChangedSubject(msg.subject) ? toDelivery(msg, deps) : null)),
    );
    built.forEach((delivery, index) => {
      if (delivery) parsed.push({ index, delivery });
      else if (delivery === undefined) verdicts[index] = 'term';
    });

    const log = (delivery: NewDelivery, outcome: RecordOutcome) => {
      const ids = { eventId: delivery.eventId, orderNo: delivery.orderNo, traceId: delivery.traceId };
      if (outcome.kind === 'duplicate') deps.logger.debug(ids, 'event already recorded');
      else
        deps.logger.info(
          { ...ids, deliveryId: outcome.id, status: outcome.status, superseded: outcome.superseded },
          'event recorded',
        );
    };

    try {
      const outcomes = await recordDeliveries(
        deps.db,
        parsed.map((p) => p.delivery),
      );
      for (const [i, p] of parsed.entries()) log(p.delivery, outcomes[i]!);
      return verdicts;
    } catch (err) {
      if (parsed.length <= 1) {
        for (const p of parsed) verdicts[p.index] = 'retry';
        deps.logger.error(
          { err, events: parsed.length },
          'could not record event; JetStream will redeliver it',
        );
        return verdicts;
      }
      deps.logger.warn(
        { err, events: parsed.length },
        'could not record the batch; recording its events one by one',
      );
    }
    for (const p of parsed) {
      try {
        const [outcome] = await recordDeliveries(deps.db, [p.delivery]);
        log(p.delivery, outcome!);
      } catch (err) {
        verdicts[p.index] = 'retry';
        deps.logger.error(
          { err, eventId: p.delivery.eventId, orderNo: p.delivery.orderNo },
          'could not record event; JetStream will redeliver it',
        );
      }
    }
    return verdicts;
  };
}

/** The delivery an event asks for, its callback body signed; undefined for a message that is no event. */
async function toDelivery(msg: JsMsg, deps: HandlerDeps): Promise<NewDelivery | undefined> {
  let event: ReturnType<typeof parseOrderStatusChanged>;
  try {
    event = parseOrderStatusChanged(msg.string());
  } catch (err) {
    // Redelivering it would fail the same way forever; it stays in the stream for inspection.
    deps.logger.error(
      { err, subject: msg.subject, seq: msg.seq, msgId: msg.headers?.get('Nats-Msg-Id') },
      'unreadable status-change event; dropping it',
    );
    return undefined;
  }
  const order = event.kind === 'pay' ? event.pay_order : event.transfer;
  const notifyUrl = (event.notify_url || order.notify_url).trim();
  const traceId = traceIdOf(event.traceparent || msg.headers?.get('traceparent'));
  const body = notifyUrl
    ? await buildCallbackBody(event, { signer: deps.signer, timeZone: deps.timeZone, traceId })
    : '';
  return {
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
  };
}
