import type { Logger } from '@agentpay/logger';
import { contextFrom, Gauge, inSpan, type Registry, SpanKind } from '@agentpay/telemetry';
import {
  AckPolicy,
  type ConsumerConfig,
  type ConsumerMessages,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JsMsg,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

export interface EventConsumerOptions {
  nc: NatsConnection;
  logger: Logger;
  /** The consuming service, named on each message's CONSUMER span. */
  service: string;
  stream: string;
  /** Durable consumer name, shared by every replica. */
  durable: string;
  filterSubject: string;
  /** Batches handled at once. */
  concurrency: number;
  /** Most messages handed to `handle` at once. */
  batchSize: number;
  /** JetStream redelivers a message not acked within this. */
  ackWaitMs: number;
  /**
   * Records a batch, answering per message: `ack` once committed; `term` for a message that can never be
   * recorded (JetStream drops it); `retry` (or a throw, for the whole batch) makes JetStream redeliver it.
   */
  handle: (msgs: readonly JsMsg[]) => Promise<Verdict[]>;
  /** Delay before JetStream redelivers a message answered `retry`; default 2000 ms. */
  nakDelayMs?: number;
  /** Where to report the consumer's backlog (`event_consumer_pending_messages{consumer}`); none: not reported. */
  registry?: Registry;
  /** How often the backlog is read from JetStream; default 15000 ms. */
  pendingPollMs?: number;
}

/** What becomes of one message: acked, dropped for good, or redelivered later. */
export type Verdict = 'ack' | 'term' | 'retry';

export interface EventConsumer {
  /** Stops pulling and waits for the messages being handled. */
  stop(): Promise<void>;
}

/** Delay before JetStream redelivers a message whose handling failed (e.g. Postgres down). */
const DEFAULT_NAK_DELAY_MS = 2_000;
const RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 10_000;
/** Unacked messages per consumer over all replicas: the pull buffers, never the backlog. */
const MAX_ACK_PENDING = 1_000;

/** How often a consumer reads its backlog from JetStream for `event_consumer_pending_messages`. */
const DEFAULT_PENDING_POLL_MS = 15_000;

/** The registry's backlog gauge: one per registry, shared by the service's consumers (a label each). */
function pendingGauge(registry: Registry): Gauge {
  const existing = registry.getSingleMetric('event_consumer_pending_messages');
  if (existing) return existing as Gauge;
  return new Gauge({
    name: 'event_consumer_pending_messages',
    help: 'Events of the stream a durable consumer has not had acknowledged yet: not delivered, or delivered and not yet applied (the same on every replica)',
    labelNames: ['consumer'],
    registers: [registry],
  });
}

/**
 * Reads the durable consumer's backlog from JetStream every `pollMs` into the registry's gauge; a failed
 * read keeps the last value (NATS away: the outbox and subscription alerts say so). Returns the stop.
 */
function reportPending(
  nc: NatsConnection,
  registry: Registry,
  opts: { stream: string; durable: string; pollMs: number },
): () => void {
  const gauge = pendingGauge(registry);
  const read = async () => {
    const info = await (await jetstreamManager(nc)).consumers.info(opts.stream, opts.durable);
    gauge.set({ consumer: opts.durable }, info.num_pending + info.num_ack_pending);
  };
  const timer = setInterval(() => void read().catch(() => {}), opts.pollMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Creates the durable pull consumer or brings its settings up to date; safe at every start of every replica. */
export async function ensureConsumer(
  nc: NatsConnection,
  opts: { stream: string; durable: string; filterSubject: string; maxAckPending: number; ackWaitMs: number },
): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const wanted = {
    filter_subject: opts.filterSubject,
    ack_wait: opts.ackWaitMs * 1_000_000,
    max_ack_pending: opts.maxAckPending,
  } satisfies Partial<ConsumerConfig>;
  const update = () => jsm.consumers.update(opts.stream, opts.durable, wanted);
  try {
    await jsm.consumers.info(opts.stream, opts.durable);
    await update();
    return;
  } catch (err) {
    if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.ConsumerNotFound)) throw err;
  }
  try {
    await jsm.consumers.add(opts.stream, {
      ...wanted,
      durable_name: opts.durable,
      ack_policy: AckPolicy.Explicit,
      // Every event in the stream, also those published before the consumer first existed; consumers
      // are idempotent on the event, so a replay is harmless.
      deliver_policy: DeliverPolicy.All,
      max_deliver: -1,
    });
  } catch (err) {
    // Another replica created it a moment ago.
    await update().catch(() => {
      throw err;
    });
  }
}

/**
 * A `for await` loop over the durable consumer that gathers messages into batches and hands each batch
 * to `handle` without waiting for it, up to `concurrency` batches at once, acking each message after the
 * handler's commit. A batch starts as soon as a slot is free, with every message that arrived meanwhile
 * (up to `batchSize`): one message when the stream is quiet, many under load, so a busy consumer makes
 * fewer, larger transactions without a timer adding delay. If the subscription ends unexpectedly
 * (consumer deleted, heartbeats lost), it is set up again.
 */
export function startEventConsumer(opts: EventConsumerOptions): EventConsumer {
  const { nc, logger } = opts;
  const nakDelayMs = opts.nakDelayMs ?? DEFAULT_NAK_DELAY_MS;
  const js = jetstream(nc);
  const handling = new Set<Promise<void>>();
  const waiting: JsMsg[] = [];
  let stopping = false;
  let messages: ConsumerMessages | undefined;
  let freed: (() => void) | undefined;
  let pumpScheduled = false;

  const handleBatch = async (batch: JsMsg[]) => {
    const verdicts = opts.handle(batch);
    try {
      // One CONSUMER span per message, in the trace of the request that caused the event (its
      // traceparent rides the message), covering the batch's transaction.
      await Promise.all(
        batch.map((msg, i) =>
          inSpan(
            `consume ${msg.subject}`,
            {
              service: opts.service,
              kind: SpanKind.CONSUMER,
              parent: contextFrom({ traceparent: msg.headers?.get('traceparent') || undefined }),
            },
            async () => (await verdicts)[i],
          ),
        ),
      );
      const answers = await verdicts;
      batch.forEach((msg, i) => {
        if (answers[i] === 'ack') msg.ack();
        // No reason text: a NATS server before 2.10 takes `+TERM <reason>` for an unknown ack and
        // redelivers the message forever.
        else if (answers[i] === 'term') msg.term();
        else msg.nak(nakDelayMs);
      });
    } catch (err) {
      logger.error({ err, events: batch.length }, 'could not record events; JetStream will redeliver them');
      for (const msg of batch) msg.nak(nakDelayMs);
    }
  };

  /** Starts batches from the waiting messages while slots are free. */
  const pump = () => {
    pumpScheduled = false;
    while (waiting.length > 0 && handling.size < opts.concurrency) {
      const p = handleBatch(waiting.splice(0, opts.batchSize));
      handling.add(p);
      void p.finally(() => {
        handling.delete(p);
        pump();
        const wake = freed;
        freed = undefined;
        wake?.();
      });
    }
  };

  /** Resolves once the waiting messages fit another batch, so the loop stops pulling when all are busy. */
  const roomToWait = () =>
    waiting.length < opts.batchSize * opts.concurrency
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          freed = resolve;
        });

  const loop = (async () => {
    let failures = 0;
    while (!stopping) {
      try {
        // Declared again at every (re)start, so a consumer deleted by hand comes back.
        await ensureConsumer(nc, {
          stream: opts.stream,
          durable: opts.durable,
          filterSubject: opts.filterSubject,
          maxAckPending: MAX_ACK_PENDING,
          ackWaitMs: opts.ackWaitMs,
        });
        const consumer = await js.consumers.get(opts.stream, opts.durable);
        messages = await consumer.consume({ max_messages: opts.batchSize * opts.concurrency });
        if (stopping) {
          await messages.close();
          break;
        }
        failures = 0;
        void watchStatus(messages).catch((err: unknown) =>
          logger.warn({ err }, 'event subscription status stream failed'),
        );
        for await (const msg of messages) {
          waiting.push(msg);
          // After the messages already received have been gathered (the iterator hands them over in
          // microtasks), not one batch per message.
          if (!pumpScheduled) {
            pumpScheduled = true;
            setImmediate(pump);
          }
          await roomToWait();
        }
      } catch (err) {
        if (stopping) break;
        failures += 1;
        logger.error({ err, failures }, 'event subscription failed; setting it up again');
      }
      const delay = Math.min(RESTART_DELAY_MS * 2 ** Math.max(0, failures - 1), MAX_RESTART_DELAY_MS);
      if (!stopping) await new Promise((r) => setTimeout(r, delay));
    }
  })();

  async function watchStatus(subscription: ConsumerMessages) {
    for await (const status of subscription.status()) {
      if (status.type === 'heartbeats_missed' && status.count >= 3) {
        logger.warn({ count: status.count }, 'event subscription missed heartbeats; restarting it');
        subscription.stop();
      } else if (status.type === 'consumer_not_found' || status.type === 'consumer_deleted') {
        logger.warn({ type: status.type }, 'durable consumer missing; declaring it again');
        subscription.stop();
      }
    }
  }

  const stopReporting = opts.registry
    ? reportPending(nc, opts.registry, {
        stream: opts.stream,
        durable: opts.durable,
        pollMs: opts.pendingPollMs ?? DEFAULT_PENDING_POLL_MS,
      })
    : () => {};
  logger.info(
    { stream: opts.stream, durable: opts.durable, subject: opts.filterSubject },
    'event consumer started',
  );

  let stopped: Promise<void> | undefined;
  return {
    stop: () => {
      stopped ??= (async () => {
        stopping = true;
        stopReporting();
        await messages?.close().catch(() => {});
        freed?.();
        await loop;
        // Record what was already received rather than leave it to be redelivered after the ack wait.
        while (handling.size > 0 || waiting.length > 0) {
          pump();
          await Promise.allSettled([...handling]);
        }
        logger.info('event consumer stopped');
      })();
      return stopped;
    },
  };
}
