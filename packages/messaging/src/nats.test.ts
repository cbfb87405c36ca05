import { natsUrl, uniqueName } from '@agentpay/testing';
import { jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { type NatsConnection, nanos } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkNats, connectNats, DependencyUnavailableError, ensureStream } from './index.js';

let nc: NatsConnection;
const streams: string[] = [];

beforeAll(async () => {
  nc = await connectNats(await natsUrl(), { name: 'messaging-test' });
});

afterAll(async () => {
  const jsm = await jetstreamManager(nc);
  for (const name of streams) await jsm.streams.delete(name).catch(() => {});
  await nc.close();
});

describe('checkNats and connectNats', () => {
  it('pass against the running JetStream server', async () => {
    await checkNats(await natsUrl());
    expect(nc.isClosed()).toBe(false);
  });

  it('report an unreachable server with host:port and how to start NATS', async () => {
    const attempts = [
      () => checkNats('nats://127.0.0.1:1'),
      () => connectNats('nats://127.0.0.1:1', { name: 'x' }),
    ];
    for (const attempt of attempts) {
      const error = await attempt().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(DependencyUnavailableError);
      const unavailable = error as DependencyUnavailableError;
      expect(unavailable.dependency).toBe('nats');
      expect(unavailable.message).toContain('NATS is not reachable at 127.0.0.1:1');
      expect(unavailable.message).toContain(
        'start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js',
      );
      expect(unavailable.message).toContain('NATS_URL');
    }
  });
});

describe('ensureStream', () => {
  it('creates a file-backed limits stream with a two-minute duplicate window', async () => {
    const name = uniqueName('STREAM');
    streams.push(name);
    const info = await ensureStream(nc, { name, subjects: [`${name}.>`] });
    expect(info.config).toMatchObject({
      name,
      subjects: [`${name}.>`],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      duplicate_window: nanos(120_000),
      max_age: 0,
    });
  });

  it('is idempotent, and brings an existing stream in line with the declared subjects and age', async () => {
    const name = uniqueName('STREAM');
    streams.push(name);
    const first = await ensureStream(nc, { name, subjects: [`${name}.a.>`] });
    const again = await ensureStream(nc, { name, subjects: [`${name}.a.>`] });
    expect(again.created).toEqual(first.created);
    expect(again.config).toEqual(first.config);

    const changed = await ensureStream(nc, {
      name,
      subjects: [`${name}.a.>`, `${name}.b.>`],
      maxAgeMs: 3_600_000,
    });
    expect(changed.config.subjects).toEqual([`${name}.a.>`, `${name}.b.>`]);
    expect(changed.config.max_age).toBe(nanos(3_600_000));
  });

  it('lets several replicas declare the same stream at once', async () => {
    const name = uniqueName('STREAM');
    streams.push(name);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => ensureStream(nc, { name, subjects: [`${name}.>`] })),
    );
    expect(new Set(results.map((r) => r.config.name))).toEqual(new Set([name]));
  });
});
