import { createLogger } from '@agentpay/logger';
import {
  connectNats,
  deleteStream,
  type EventConsumerOptions,
  ensureStream,
  startEventConsumer,
} from '@agentpay/messaging';
import type { NoticeReceived__Output } from '@agentpay/proto';
import { natsUrl, uniqueName } from '@agentpay/testing';

type Message = Parameters<EventConsumerOptions['handle']>[0][number];

/** A NoticeReceived event as it arrived on the stream, with the traceparent header it carried. */
export interface PublishedNotice extends NoticeReceived__Output {
  subject: string;
  header: { traceparent: string; msgId: string };
}

/**
 * A stream and subject prefix of the test's own, and a durable consumer reading every NoticeReceived the
 * router publishes onto it, standing in for payments and transfers. Pass `env` to the router.
 */
export async function startNoticeStream() {
  const stream = uniqueName('ROUTER_TEST');
  const prefix = `${stream.toLowerCase()}.events`;
  const nc = await connectNats(await natsUrl(), { name: 'router-test' });
  await ensureStream(nc, { name: stream, subjects: [`${prefix}.>`] });
  const received: PublishedNotice[] = [];
  const consumer = startEventConsumer({
    nc,
    logger: createLogger({ service: 'router-test', level: 'silent' }),
    service: 'router-test',
    stream,
    durable: 'reader',
    filterSubject: `${prefix}.notice.>`,
    concurrency: 1,
    batchSize: 50,
    ackWaitMs: 30_000,
    handle: async (msgs: readonly Message[]) =>
      msgs.map((msg) => {
        received.push({
          ...(JSON.parse(msg.string()) as NoticeReceived__Output),
          subject: msg.subject,
          header: {
            traceparent: msg.headers?.get('traceparent') ?? '',
            msgId: msg.headers?.get('Nats-Msg-Id') ?? '',
          },
        });
        return 'ack' as const;
      }),
  });
  return {
    env: { NATS_URL: await natsUrl(), EVENTS_STREAM: stream, EVENTS_SUBJECT_PREFIX: prefix },
    prefix,
    /** Payment notices published for `orderNo`. */
    payments: (orderNo: string) => received.filter((n) => n.payment?.order_no === orderNo),
    /** Payout notices published for `transferNo`. */
    payouts: (transferNo: string) => received.filter((n) => n.payout?.transfer_no === transferNo),
    async stop() {
      await consumer.stop();
      await deleteStream(nc, stream);
      await nc.close();
    },
  };
}
