import { listen } from '@agentpay/db';
import type { Logger } from '@agentpay/logger';
import { type Next, startBackgroundLoop } from '@agentpay/runtime';
import { Counter, Histogram, LATENCY_BUCKETS, type Registry } from '@agentpay/telemetry';
import { jetstream } from '@nats-io/jetstream';
import { type NatsConnection, headers as natsHeaders } from '@nats-io/transport-node';
import { type Kysely, sql } from 'kysely';
import { OUTBOX_CHANNEL } from './outbox.js';

// biome-ignore lint/suspicious/noExplicitAny: the relay works on every service's own Database type
type AnyDatabase = any;

export interface OutboxRelayOptions {
  db: Kysely<AnyDatabase>;
  /** The same database as `db`; the relay opens one extra connection on it to LISTEN. */
  databaseUrl: string;
  nc: NatsConnection;
  logger: Logger;
  /** Rows published per transaction; default 100. */
  batchSize?: number;
  /** Safety-net poll when no NOTIFY arrives; default 1000 ms. */
  pollIntervalMs?: number;
  /** Where to count published events and their lag from commit to JetStream. */
  registry?: Registry;
}

export interface OutboxRelay {
  /** Finishes the batch in flight, then stops polling and closes the LISTEN connection. */
  stop(): Promise<void>;
  /** Looks for new rows now instead of at the next NOTIFY or poll. */
  kick(): void;
}

interface OutboxRow {
  id: string;
  subject: string;
  /** JSON text, published as is. */
  payload: string;
  headers: Record<string, string> | null;
  created_at: Date;
}

const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 10_000;
const LISTENER_APPLICATION_NAME = 'agentpay-outbox-listener';

/**
 * Publishes committed outbox rows to JetStream in insertion order, with msgID = row id so a re-publish after
 * a crash is dropped as a duplicate. Several replicas may run at once: `skip locked` splits the rows.
 * Stop it before closing `nc` or `db`.
 */
export function startOutboxRelay(opts: OutboxRelayOptions): OutboxRelay {
  const { db, nc, logger } = opts;
  const batchSize = opts.batchSize ?? 100;
  const pollIntervalMs = opts.pollIntervalMs ?? 1_000;
  const js = jetstream(nc);
  const registers = opts.registry ? [opts.registry] : [];
  const publishedTotal = new Counter({
    name: 'outbox_published_total',
    help: 'Outbox events published to JetStream',
    registers,
  });
  const failedTotal = new Counter({
    name: 'outbox_publish_failures_total',
    help: 'Failed attempts to publish an outbox event',
    registers,
  });
  const lag = new Histogram({
    name: 'outbox_lag_seconds',
    help: 'Time from an outbox row being written to its event being acknowledged by JetStream',
    buckets: LATENCY_BUCKETS,
    registers,
  });

  /** One transaction: lock a batch, publish it in order, stop at the first failure, mark what went out. */
  const relayBatch = async (): Promise<{ published: number; failed: boolean }> =>
    db.transaction().execute(async (trx) => {
      const { rows } = await sql<OutboxRow>`
        select id, subject, payload::text as payload, headers, created_at
        from outbox
        where published_at is null
        order by seq
        limit ${batchSize}
        for update skip locked`.execute(trx);

      // Publishes are pipelined: one connection keeps them in order on the wire, and waiting for each
      // ack before sending the next would cap the relay at one round trip per event.
      const acks = await Promise.allSettled(
        rows.map((row) =>
          js.publish(row.subject, row.payload, { msgID: row.id, headers: toHeaders(row.headers) }),
        ),
      );
      const published: string[] = [];
      let failure: { row: OutboxRow; error: unknown } | undefined;
      for (const [i, row] of rows.entries()) {
        const ack = acks[i]!;
        if (ack.status === 'rejected') {
          failedTotal.inc();
          // Only the prefix before the first failure counts as published. Rows after it that JetStream did
          // store go out again with the failed one and are dropped there as duplicates (same msgID).
          failure = { row, error: ack.reason };
          break;
        }
        if (ack.value.duplicate) logger.debug({ eventId: row.id }, 'outbox event was already in JetStream');
        published.push(row.id);
        publishedTotal.inc();
        lag.observe((Date.now() - row.created_at.getTime()) / 1000);
      }

      if (published.length > 0) {
        await sql`update outbox set published_at = now() where id = any(${published}::uuid[])`.execute(trx);
      }
      if (failure) {
        const message = failure.error instanceof Error ? failure.error.message : String(failure.error);
        const { rows: updated } = await sql<{ attempts: number }>`
          update outbox set attempts = attempts + 1, last_error = ${message}
          where id = ${failure.row.id}
          returning attempts`.execute(trx);
        logger.warn(
          {
            eventId: failure.row.id,
            subject: failure.row.subject,
            attempts: updated[0]?.attempts,
            err: failure.error,
          },
          'publishing outbox event failed; will retry',
        );
      }
      return { published: published.length, failed: failure !== undefined };
    });

  // A full batch means more rows are probably waiting; a kick during the batch may be for a row it missed.
  const loop = startBackgroundLoop({
    name: 'outbox relay',
    logger,
    intervalMs: pollIntervalMs,
    backoff: { firstMs: FIRST_BACKOFF_MS, maxMs: MAX_BACKOFF_MS },
    round: async () => {
      try {
        return await relayBatch();
      } catch (err) {
        logger.error({ err }, 'outbox relay could not read or update the outbox');
        return { published: 0, failed: true };
      }
    },
    next: (outcome): Next => (outcome.failed ? 'failed' : outcome.published < batchSize ? 'idle' : 'more'),
  });
  const kick = loop.kick;

  const listener = listen(opts.databaseUrl, OUTBOX_CHANNEL, logger, kick, LISTENER_APPLICATION_NAME);
  logger.info({ batchSize, pollIntervalMs }, 'outbox relay started');

  let stopped: Promise<void> | undefined;
  return {
    kick,
    stop: () => {
      stopped ??= (async () => {
        await loop.stop();
        await listener.close();
        logger.info('outbox relay stopped');
      })();
      return stopped;
    },
  };
}

function toHeaders(values: Record<string, string> | null) {
  if (!values) return undefined;
  const h = natsHeaders();
  for (const [key, value] of Object.entries(values)) h.set(key, value);
  return h;
}
