import { eventsEnv, z } from '@agentpay/config';
import { natsUrl, uniqueName } from '@agentpay/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { bootstrapService } from './bootstrap.js';

const schema = z.object({ LOG_LEVEL: z.string().default('silent'), NATS_URL: z.string(), ...eventsEnv });

/** Starts a service base on a stream of its own, declares the stream, and reads back its maximum age. */
async function declaredMaxAge(stream: string, env: Record<string, string>): Promise<number> {
  const svc = await bootstrapService({
    name: 'bootstrap-test',
    schema,
    env: { NATS_URL: await natsUrl(), EVENTS_STREAM: stream, EVENTS_SUBJECT_PREFIX: stream, ...env },
    tracing: false,
  });
  try {
    const nc = await svc.events();
    const info = await (await jetstreamManager(nc)).streams.info(stream);
    return info.config.max_age;
  } finally {
    await svc.stop();
  }
}

describe('the events stream a service declares', () => {
  it('keeps events EVENTS_MAX_AGE_DAYS (7 by default), forever at 0, and follows a changed value', async () => {
    const stream = uniqueName('BOOTSTRAP_AGE').toUpperCase();
    try {
      expect(await declaredMaxAge(stream, {})).toBe(nanos(7 * 86_400_000));
      expect(await declaredMaxAge(stream, { EVENTS_MAX_AGE_DAYS: '0.5' })).toBe(nanos(43_200_000));
      expect(await declaredMaxAge(stream, { EVENTS_MAX_AGE_DAYS: '0' })).toBe(0);
    } finally {
      const svc = await bootstrapService({
        name: 'bootstrap-test',
        schema,
        env: { NATS_URL: await natsUrl(), EVENTS_STREAM: stream, EVENTS_SUBJECT_PREFIX: stream },
        tracing: false,
      });
      const nc = await svc.events();
      await (await jetstreamManager(nc)).streams.delete(stream).catch(() => {});
      await svc.stop();
    }
  });
});
