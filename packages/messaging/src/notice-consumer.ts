import type { Logger } from '@agentpay/logger';
import { Counter, type Registry } from '@agentpay/telemetry';
import type { JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { type EventConsumer, startEventConsumer, type Verdict } from './consumer.js';

/** Redeliveries of a notice whose order or transfer is not found before it is dropped for good. */
export const MAX_UNKNOWN_TARGET_DELIVERIES = 5;
/** JetStream redelivers a notice not acked within this; above any single apply. */
const NOTICE_ACK_WAIT_MS = 30_000;

/** What applying a notice may fail with, as far as its redelivery is concerned. */
export type NoticeFailure = 'transient' | 'unknown_target' | 'invalid';

export interface NoticeConsumerOptions<T> {
  nc: NatsConnection;
  logger: Logger;
  /** The consuming service; names the spans and the consumer's log lines. */
  service: string;
  stream: string;
  /** Durable consumer name, shared by the service's replicas. */
  durable: string;
  /** `<prefix>.notice.payment` or `<prefix>.notice.payout`. */
  subject: string;
  /** Notices applied at once. */
  concurrency: number;
  /** Pause before a notice that failed is redelivered, ms. */
  retryDelayMs: number;
  /** Where `notices_dropped_total` is counted. */
  registry: Registry;
  /** The service's notice from the event's JSON text; undefined when it is no such notice. */
  decode: (text: string) => T | undefined;
  /** Applies a notice in the service's own transaction; a repeat must change nothing. */
  apply: (notice: T) => Promise<void>;
  /** What an error thrown by `apply` means: retry later, or the notice can never apply. */
  classify: (err: unknown) => NoticeFailure;
}

/**
 * Consumes the NoticeReceived events of one kind and applies each, acking only after the apply
 * committed. A transient failure (database down) is redelivered after a pause; a notice that cannot be
 * read, or whose order or transfer is still not found after MAX_UNKNOWN_TARGET_DELIVERIES deliveries, is
 * logged, counted in `notices_dropped_total` and terminated so it never loops.
 */
export function startNoticeConsumer<T>(opts: NoticeConsumerOptions<T>): EventConsumer {
  const { logger } = opts;
  const dropped = new Counter({
    name: 'notices_dropped_total',
    help: 'Upstream notices dropped without being applied, by reason',
    labelNames: ['reason'],
    registers: [opts.registry],
  });
  const drop = (reason: string, details: Record<string, unknown>): Verdict => {
    dropped.inc({ reason });
    logger.error({ ...details, reason }, 'upstream notice dropped without being applied');
    return 'term';
  };

  const applyOne = async (msg: JsMsg): Promise<Verdict> => {
    const ids = { subject: msg.subject, seq: msg.seq, eventId: msg.headers?.get('Nats-Msg-Id') };
    let notice: T | undefined;
    try {
      notice = opts.decode(msg.string());
    } catch (err) {
      return drop('unreadable', { ...ids, err });
    }
    if (notice === undefined) return drop('unreadable', ids);
    try {
      await opts.apply(notice);
      return 'ack';
    } catch (err) {
      const failure = opts.classify(err);
      const deliveries = msg.info.deliveryCount;
      if (failure === 'invalid') return drop('invalid', { ...ids, err });
      if (failure === 'unknown_target') {
        if (deliveries >= MAX_UNKNOWN_TARGET_DELIVERIES)
          return drop('unknown_target', { ...ids, deliveries });
        logger.warn({ ...ids, deliveries }, 'notice for an order or transfer not found (yet); will retry');
        return 'retry';
      }
      logger.warn({ ...ids, deliveries, err }, 'notice not applied; JetStream will redeliver it');
      return 'retry';
    }
  };

  return startEventConsumer({
    nc: opts.nc,
    logger,
    service: opts.service,
    stream: opts.stream,
    durable: opts.durable,
    filterSubject: opts.subject,
    // One notice per handler call: each is its own transaction, and one that fails holds back no other.
    batchSize: 1,
    concurrency: opts.concurrency,
    ackWaitMs: NOTICE_ACK_WAIT_MS,
    nakDelayMs: opts.retryDelayMs,
    handle: (msgs) => Promise.all(msgs.map(applyOne)),
    registry: opts.registry,
  });
}
