import type { Logger } from '@agentpay/logger';
import {
  type EventConsumer,
  type NatsConnection,
  startEventConsumer,
  type Verdict,
} from '@agentpay/messaging';
import { decodeEvent } from '@agentpay/proto';
import type { Registry } from '@agentpay/telemetry';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { markSettled } from '../pay-orders/pay-order.repository.js';

/**
 * An OrderSettled event's order and settle time, decoded with the contract; undefined when the text is
 * not one, or lacks what the contract cannot require (an order number, a real instant).
 */
export function decodeOrderSettled(text: string): { orderNo: string; settleTime: Date } | undefined {
  let event: ReturnType<typeof decodeEvent<'OrderSettled'>>;
  try {
    event = decodeEvent('OrderSettled', text);
  } catch {
    return undefined;
  }
  const settleTime = new Date(event.settle_time);
  if (!event.order_no || !event.settle_time || Number.isNaN(settleTime.getTime())) return undefined;
  return { orderNo: event.order_no, settleTime };
}

/**
 * Records the ledger's settlements (`<prefix>.ledger.order_settled`) on the orders: a durable consumer
 * shared by every replica, acking each event after its update committed. Idempotent: an order settled
 * already (a redelivery, a REALTIME order settled with its success) is left as it is.
 */
export function startOrderSettledConsumer(deps: {
  nc: NatsConnection;
  db: Kysely<Database>;
  logger: Logger;
  stream: string;
  durable: string;
  subject: string;
  concurrency: number;
  /** Where the consumer's backlog is reported (event_consumer_pending_messages). */
  registry?: Registry;
}): EventConsumer {
  const { db, logger } = deps;
  return startEventConsumer({
    nc: deps.nc,
    logger,
    service: 'payments',
    stream: deps.stream,
    durable: deps.durable,
    filterSubject: deps.subject,
    concurrency: deps.concurrency,
    registry: deps.registry,
    batchSize: 100,
    ackWaitMs: 30_000,
    handle: async (msgs) => {
      const verdicts: Verdict[] = [];
      for (const msg of msgs) {
        const event = decodeOrderSettled(msg.string());
        if (!event) {
          logger.error({ subject: msg.subject, seq: msg.seq }, 'unreadable OrderSettled event dropped');
          verdicts.push('term');
          continue;
        }
        try {
          const changed = await markSettled(db, event.orderNo, event.settleTime);
          logger.debug({ orderNo: event.orderNo, changed }, 'order settled');
          verdicts.push('ack');
        } catch (err) {
          logger.warn(
            { err, orderNo: event.orderNo },
            'could not record a settlement; it will be redelivered',
          );
          verdicts.push('retry');
        }
      }
      return verdicts;
    },
  });
}
