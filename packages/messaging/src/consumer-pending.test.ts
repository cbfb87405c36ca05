import { createLogger } from '@agentpay/logger';
import { Registry } from '@agentpay/telemetry';
import { natsUrl, uniqueName } from '@agentpay/testing';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, ensureStream, startEventConsumer, type Verdict } from './index.js';

let nc: NatsConnection;
const streams: string[] = [];

beforeAll(async () => {
  nc = await connectNats(await natsUrl(), { name: 'consumer-pending-test' });
});

afterAll(async () => {
  const jsm = await jetstreamManager(nc);
  for (const name of streams) await jsm.streams.delete(name).catch(() => {});
  await nc.close();
});

async function pending(registry: Registry, consumer: string): Promise<number | undefined> {
  const metric = await registry.getSingleMetric('event_consumer_pending_messages')?.get();
  return metric?.values.find((v) => v.labels['consumer'] === consumer)?.value;
}

describe('event_consumer_pending_messages', () => {
  it('reports the events a consumer has not applied yet, per consumer, and zero once they are', async () => {
    const stream = uniqueName('PENDING');
    streams.push(stream);
    await ensureStream(nc, { name: stream, subjects: [`${stream}.>`] });
    const js = jetstream(nc);
    for (let i = 0; i < 5; i++) await js.publish(`${stream}.a`, `event ${i}`);
    await js.publish(`${stream}.b`, 'other');

    const registry = new Registry();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const common = {
      nc,
      logger: createLogger({ service: 'test', level: 'silent' }),
      service: 'test',
      stream,
      concurrency: 1,
      batchSize: 10,
      ackWaitMs: 30_000,
      registry,
      pendingPollMs: 50,
    };
    // The first consumer applies nothing until released; the second applies its one event at once.
    const slow = startEventConsumer({
      ...common,
      durable: `${stream}_slow`,
      filterSubject: `${stream}.a`,
      handle: async (msgs) => {
        await held;
        return msgs.map((): Verdict => 'ack');
      },
    });
    const quick = startEventConsumer({
      ...common,
      durable: `${stream}_quick`,
      filterSubject: `${stream}.b`,
      handle: async (msgs) => msgs.map((): Verdict => 'ack'),
    });
    try {
      const poll = { timeout: 10_000, interval: 50 };
      await expect.poll(() => pending(registry, `${stream}_slow`), poll).toBe(5);
      await expect.poll(() => pending(registry, `${stream}_quick`), poll).toBe(0);
      release();
      await expect.poll(() => pending(registry, `${stream}_slow`), poll).toBe(0);
    } finally {
      release();
      await Promise.all([slow.stop(), quick.stop()]);
    }
  });
});
