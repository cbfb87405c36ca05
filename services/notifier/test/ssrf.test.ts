import { natsUrl, waitFor } from '@agentpay/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type Notifier } from '../src/main.js';
import {
  type Bus,
  createStore,
  notifierTestEnv,
  payEvent,
  platformKeys,
  type Sink,
  type Store,
  startBus,
  startSink,
} from './helpers.js';

// SSRF guard: in production (NOTIFY_ALLOW_PRIVATE unset) a callback never reaches loopback,
// private, link-local or metadata addresses, whether the URL names them or a hostname resolves to them.

const keys = platformKeys();
let store: Store;
let bus: Bus;
let notifier: Notifier;
let sink: Sink;

beforeAll(async () => {
  store = await createStore('notifier_ssrf');
  bus = await startBus('ssrf');
  sink = await startSink();
  const env = notifierTestEnv({
    databaseUrl: store.database.url,
    natsUrl: await natsUrl(),
    bus,
    privateKeyPem: keys.privateKeyPem,
    overrides: { NODE_ENV: 'production' },
  });
  delete env['NOTIFY_ALLOW_PRIVATE'];
  notifier = await main(env);
});

afterAll(async () => {
  await notifier?.stop();
  await sink?.close();
  await bus?.close();
  await store?.close();
});

async function refused(notifyUrl: string) {
  const event = payEvent({ notifyUrl });
  await bus.publish(event);
  return waitFor(
    async () => {
      const row = await store.delivery(event.event_id);
      return row?.status === 'failed' ? row : undefined;
    },
    { timeoutMs: 10_000, message: `delivery to ${notifyUrl} failed` },
  );
}

describe('in production', () => {
  it.each([
    [
      '127.0.0.1 (loopback)',
      () => `http://127.0.0.1:${sink.port}/notify`,
      /refused: 127\.0\.0\.1 is a loopback address/,
    ],
    [
      '10.x (RFC 1918)',
      () => 'http://10.20.30.40/notify',
      /refused: 10\.20\.30\.40 is a private \(RFC 1918\) address/,
    ],
    [
      '169.254.169.254 (cloud metadata)',
      () => 'http://169.254.169.254/latest/meta-data/',
      /refused: 169\.254\.169\.254 is a link-local \(cloud metadata\) address/,
    ],
    ['[::1] (IPv6 loopback)', () => `http://[::1]:${sink.port}/notify`, /refused: ::1 is a loopback address/],
    ['a non-http scheme', () => 'ftp://example.com/notify', /scheme ftp: is not http or https/],
  ])('refuses a URL naming %s at once, with one failed attempt saying why', async (_name, url, error) => {
    const row = await refused(url());
    expect(row.attempt_count).toBe(1);
    expect(row.last_error).toMatch(error);
    const attempts = await store.attempts(row.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ outcome: 'failed', http_status: null });
    expect(sink.requests).toHaveLength(0);
  });

  it('refuses a hostname that resolves to loopback (localhost) on every attempt of the schedule', async () => {
    const row = await refused(`http://localhost:${sink.port}/notify`);
    // Name resolution can change, so these are retried (3 retries) before the delivery fails.
    expect(row.attempt_count).toBe(4);
    expect(row.last_error).toMatch(/refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(sink.requests).toHaveLength(0);
  });
});
