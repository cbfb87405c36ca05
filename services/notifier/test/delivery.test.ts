import { createPublicKey } from 'node:crypto';
import { payOrderView, transferView } from '@agentpay/api';
import type { PayOrder__Output, Transfer__Output } from '@agentpay/proto';
import { natsUrl, waitFor } from '@agentpay/testing';
import { parseWireTime, verifyObject } from '@agentpay/wire';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type Notifier } from '../src/main.js';
import {
  ADMIN_TOKEN,
  type Bus,
  closedPort,
  createStore,
  notifierTestEnv,
  payEvent,
  platformKeys,
  type Sink,
  type Store,
  startBus,
  startSink,
} from './helpers.js';

// One notifier (in-process, real Postgres, real JetStream) delivering to real HTTP sinks on
// 127.0.0.1, with NOTIFY_RETRY_SCHEDULE=200ms,200ms,400ms (3 retries) and NOTIFY_TIMEOUT_MS=1000.

const TIME_ZONE = 'America/Mexico_City';
const keys = platformKeys();
const platformPublicKey = createPublicKey(keys.publicKeyPem);
let store: Store;
let bus: Bus;
let notifier: Notifier;
const sinks: Sink[] = [];

const sink = async (...args: Parameters<typeof startSink>) => {
  const s = await startSink(...args);
  sinks.push(s);
  return s;
};

const settled = (eventId: string, statuses = ['succeeded', 'failed', 'superseded', 'skipped']) =>
  waitFor(
    async () => {
      const row = await store.delivery(eventId);
      return row && statuses.includes(row.status) ? row : undefined;
    },
    { timeoutMs: 15_000, intervalMs: 50, message: `delivery of event ${eventId} settled` },
  );

const admin = (path: string, init: RequestInit = {}, token: string | null = ADMIN_TOKEN) =>
  fetch(`http://127.0.0.1:${notifier.httpPort}${path}`, {
    ...init,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

beforeAll(async () => {
  store = await createStore('notifier_delivery');
  bus = await startBus('delivery');
  notifier = await main(
    notifierTestEnv({
      databaseUrl: store.database.url,
      natsUrl: await natsUrl(),
      bus,
      privateKeyPem: keys.privateKeyPem,
    }),
  );
});

afterAll(async () => {
  await notifier?.stop();
  await Promise.all(sinks.map((s) => s.close()));
  await bus?.close();
  await store?.close();
});

describe('a callback that the merchant acknowledges', () => {
  it('is POSTed once as signed JSON whose data is the order as its query returns it', async () => {
    const target = await sink();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const event = payEvent({
      notifyUrl: target.url,
      appId: 'app1',
      traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
    });
    await bus.publish(event);
    const row = await settled(event.event_id);

    expect(row.status).toBe('succeeded');
    expect(target.requests).toHaveLength(1);
    const request = target.requests[0]!;
    expect(request.headers['content-type']).toMatch(/^application\/json/);
    const body = request.json;
    expect(body).toMatchObject({
      code: 0,
      msg: 'success',
      noticeType: 'order_status_changed',
      mchNo: 'M1001',
      appId: 'app1',
      traceId,
    });
    expect(parseWireTime(body['resTime'] as string, TIME_ZONE)).toBeInstanceOf(Date);
    expect(body['data']).toEqual(payOrderView(event.pay_order as unknown as PayOrder__Output, TIME_ZONE));
    expect(body['data']).toMatchObject({ amount: 100.5, fee: 0.6, realAmount: 99.9, status: 'success' });
    expect(verifyObject(body, body['sign'] as string, platformPublicKey)).toBe(true);
    // The stored body is the exact bytes sent.
    expect(request.body).toBe(row.body);

    const attempts = await store.attempts(row.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({
      number: 1,
      outcome: 'succeeded',
      http_status: 200,
      response_excerpt: 'SUCCESS',
      error: null,
    });
    expect(attempts[0]!.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it('renders a transfer callback with transferView, leaves out an empty appId, and makes up a traceId', async () => {
    const target = await sink();
    const transfer = {
      transfer_no: `T${Date.now()}`,
      biz_transfer_no: 'biz-t-1',
      mch_no: 'M1001',
      app_id: '',
      amount: '250000',
      fee: '700',
      title: 'Payout',
      reason: '',
      payee_type: 'spei_transfer',
      payee_account: '646180157000000004',
      payee_name: 'Juan Perez',
      payee_code: '646',
      status: 'success',
      finish_time: '2026-11-22T18:00:00.000Z',
      attach: '',
      notify_url: target.url,
      created_at: '2026-11-22T17:00:00.000Z',
      version: '3',
    };
    const event = {
      event_id: crypto.randomUUID(),
      mch_no: 'M1001',
      app_id: '',
      kind: 'transfer',
      order_no: transfer.transfer_no,
      from_status: 'progress',
      to_status: 'success',
      version: '3',
      occurred_at: new Date().toISOString(),
      notify_url: target.url,
      traceparent: '',
      transfer,
    };
    await bus.publish(event);
    expect((await settled(event.event_id)).status).toBe('succeeded');
    const body = target.requests[0]!.json;
    expect(body['data']).toEqual(transferView(transfer as unknown as Transfer__Output, TIME_ZONE));
    expect(body).not.toHaveProperty('appId');
    expect(body['traceId']).toMatch(/^[0-9a-f]{32}$/);
    expect(verifyObject(body, body['sign'] as string, platformPublicKey)).toBe(true);
  });

  it('counts a 2xx reply of " success \\n" (any case, padded) as acknowledged', async () => {
    const target = await sink(() => ({ status: 200, body: ' success \n' }));
    const event = payEvent({ notifyUrl: target.url });
    await bus.publish(event);
    const row = await settled(event.event_id);
    expect(row.status).toBe('succeeded');
    expect(row.attempt_count).toBe(1);
    expect(target.requests).toHaveLength(1);
  });
});

describe('failed attempts', () => {
  it('retries after FAIL and stops at SUCCESS, sending the same signed bytes and recording each attempt', async () => {
    const target = await sink((_r, i) => ({ status: 200, body: i === 0 ? 'FAIL' : 'SUCCESS' }));
    const event = payEvent({ notifyUrl: target.url });
    await bus.publish(event);
    const row = await settled(event.event_id);

    expect(row.status).toBe('succeeded');
    expect(target.requests).toHaveLength(2);
    expect(target.requests[1]!.body).toBe(target.requests[0]!.body);
    const attempts = await store.attempts(row.id);
    expect(attempts.map((a) => [a.number, a.outcome, a.http_status, a.response_excerpt])).toEqual([
      [1, 'failed', 200, 'FAIL'],
      [2, 'succeeded', 200, 'SUCCESS'],
    ]);
    expect(attempts[0]!.error).toMatch(/not SUCCESS/);
    expect(attempts.every((a) => a.latency_ms !== null && a.finished_at !== null)).toBe(true);
  });

  it('treats HTTP 500 as a failure, retries the schedule (3 retries) and then marks the delivery failed', async () => {
    const target = await sink(() => ({ status: 500, body: 'SUCCESS' }));
    const event = payEvent({ notifyUrl: target.url });
    await bus.publish(event);
    const row = await settled(event.event_id);

    expect(row.status).toBe('failed');
    expect(row.next_attempt_at).toBeNull();
    expect(target.requests).toHaveLength(4);
    const attempts = await store.attempts(row.id);
    expect(attempts.map((a) => [a.outcome, a.http_status, a.error])).toEqual(
      Array(4).fill(['failed', 500, 'HTTP 500']),
    );
  });

  it('abandons an exchange at NOTIFY_TIMEOUT_MS and retries it', async () => {
    const target = await sink((_r, i) => (i === 0 ? 'hang' : { status: 200, body: 'SUCCESS' }));
    const event = payEvent({ notifyUrl: target.url });
    await bus.publish(event);
    const row = await settled(event.event_id);

    expect(row.status).toBe('succeeded');
    const attempts = await store.attempts(row.id);
    expect(attempts.map((a) => a.outcome)).toEqual(['failed', 'succeeded']);
    expect(attempts[0]).toMatchObject({ http_status: null, error: 'timed out after 1000 ms' });
  });

  it('records a refused connection as a failed attempt each time', async () => {
    const port = await closedPort();
    const event = payEvent({ notifyUrl: `http://127.0.0.1:${port}/notify` });
    await bus.publish(event);
    const row = await settled(event.event_id);

    expect(row.status).toBe('failed');
    const attempts = await store.attempts(row.id);
    expect(attempts).toHaveLength(4);
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({ outcome: 'failed', http_status: null });
      expect(attempt.error).toMatch(/connection refused/);
    }
  });

  it('does not follow a redirect: a 302 is a failure and its target never hears from the notifier', async () => {
    const elsewhere = await sink();
    const target = await sink(() => ({ status: 302, body: '' }));
    const event = payEvent({ notifyUrl: target.url, order: { attach: elsewhere.url } });
    await bus.publish(event);
    const row = await settled(event.event_id);
    expect(row.status).toBe('failed');
    expect(row.last_error).toMatch(/HTTP 302/);
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe('supersede', () => {
  it('a newer change supersedes the older one waiting for a retry; only the newer goes out afterwards', async () => {
    const target = await sink((request) => ({
      status: 200,
      body: (request.json['data'] as { status: string }).status === 'success' ? 'SUCCESS' : 'FAIL',
    }));
    const older = payEvent({ notifyUrl: target.url, version: 1, toStatus: 'wait' });
    const orderNo = older.order_no;
    await bus.publish(older);
    const olderRow = await waitFor(async () => {
      const row = await store.delivery(older.event_id);
      return row && row.attempt_count >= 1 ? row : undefined;
    });
    const newer = payEvent({
      notifyUrl: target.url,
      version: 2,
      toStatus: 'success',
      order: { order_no: orderNo },
    });
    await bus.publish({ ...newer, order_no: orderNo });

    const newerRow = await settled(newer.event_id);
    const olderFinal = await settled(older.event_id, ['superseded']);
    expect(newerRow.status).toBe('succeeded');
    expect(olderFinal.superseded_by).toBe(newerRow.id);
    expect(olderFinal.id).toBe(olderRow.id);

    const statuses = target.requests.map((r) => (r.json['data'] as { status: string }).status);
    expect(statuses.filter((s) => s === 'success')).toHaveLength(1);
    // Every request for the older version came before the newer one, none after.
    const firstNewer = statuses.indexOf('success');
    expect(statuses.slice(firstNewer + 1)).toEqual([]);
    expect(statuses.slice(0, firstNewer).every((s) => s === 'wait')).toBe(true);
  });

  it('an older change that arrives after a newer one was recorded is superseded at once and never sent', async () => {
    const target = await sink();
    const newer = payEvent({ notifyUrl: target.url, version: 5, toStatus: 'close' });
    await bus.publish(newer);
    const newerRow = await settled(newer.event_id);
    const late = payEvent({
      notifyUrl: target.url,
      version: 4,
      toStatus: 'wait',
      order: { order_no: newer.order_no },
    });
    await bus.publish({ ...late, order_no: newer.order_no });
    const lateRow = await settled(late.event_id);

    expect(lateRow).toMatchObject({ status: 'superseded', superseded_by: newerRow.id, attempt_count: 0 });
    expect(target.requests).toHaveLength(1);
  });
});

describe('recording events', () => {
  it('records one delivery and sends one callback for an event published twice past JetStream dedupe', async () => {
    const target = await sink();
    const event = payEvent({ notifyUrl: target.url });
    // Different msg ids, as after the duplicate window: JetStream keeps both copies.
    await bus.publish(event, { msgId: `${event.event_id}-a` });
    await settled(event.event_id);
    await bus.publish(event, { msgId: `${event.event_id}-b` });
    const jsm = await jetstreamManager(bus.nc);
    const last = (await jsm.streams.info(bus.stream)).state.last_seq;
    await waitFor(
      async () => {
        const info = await jsm.consumers.info(bus.stream, `notifier_${bus.prefix}`);
        return info.ack_floor.stream_seq >= last && info.num_ack_pending === 0;
      },
      { timeoutMs: 10_000, message: 'the duplicate was consumed and acked' },
    );
    const rows = await store.deliveries(event.order_no);
    expect(rows).toHaveLength(1);
    expect(target.requests).toHaveLength(1);
  });

  it('records an event without notifyUrl as skipped and sends nothing', async () => {
    const event = payEvent({ notifyUrl: '' });
    await bus.publish(event);
    const row = await settled(event.event_id);
    expect(row).toMatchObject({ status: 'skipped', attempt_count: 0, notify_url: '' });
  });
});

describe('admin API', () => {
  it('answers 401 without the bearer token or with a wrong one', async () => {
    expect((await admin('/admin/deliveries?orderNo=x', {}, null)).status).toBe(401);
    expect((await admin('/admin/deliveries?orderNo=x', {}, 'wrong-token')).status).toBe(401);
    expect(
      (await admin('/admin/deliveries/00000000-0000-0000-0000-000000000000/resend', { method: 'POST' }, null))
        .status,
    ).toBe(401);
    expect((await admin('/healthz', {}, null)).status).toBe(200);
  });

  it('lists deliveries of an order with their attempts newest first, shows one, and resends a failed one', async () => {
    let up = false;
    const target = await sink(() => (up ? { status: 200, body: 'SUCCESS' } : { status: 503, body: 'down' }));
    const first = payEvent({ notifyUrl: target.url, version: 1, toStatus: 'wait' });
    await bus.publish(first);
    expect((await settled(first.event_id)).status).toBe('failed');
    const second = payEvent({ notifyUrl: target.url, version: 2, order: { order_no: first.order_no } });
    await bus.publish({ ...second, order_no: first.order_no });
    const secondRow = await settled(second.event_id);
    expect(secondRow.status).toBe('failed');

    const listed = await admin(`/admin/deliveries?orderNo=${first.order_no}`);
    expect(listed.status).toBe(200);
    const { deliveries } = (await listed.json()) as {
      deliveries: {
        id: string;
        eventId: string;
        status: string;
        attempts: { number: number; httpStatus: number; response: string }[];
      }[];
    };
    expect(deliveries.map((d) => d.eventId)).toEqual([second.event_id, first.event_id]);
    expect(deliveries[0]!.attempts.map((a) => a.number)).toEqual([4, 3, 2, 1]);
    expect(deliveries[0]!.attempts[0]).toMatchObject({ httpStatus: 503, response: 'down' });

    const one = await admin(`/admin/deliveries/${secondRow.id}`);
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({
      id: secondRow.id,
      status: 'failed',
      attemptCount: 4,
      body: secondRow.body,
    });

    up = true;
    const resent = await admin(`/admin/deliveries/${secondRow.id}/resend`, { method: 'POST' });
    expect(resent.status).toBe(200);
    expect(await resent.json()).toMatchObject({ id: secondRow.id, status: 'pending' });
    const after = await settled(second.event_id, ['succeeded']);
    expect(after.attempt_count).toBe(5);
    const last = target.requests.at(-1)!;
    expect(last.body).toBe(secondRow.body);
    expect(last.headers['x-agentpay-attempt']).toBe('5');
  });

  it('answers 404 for an unknown delivery, to show and to resend', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await admin(`/admin/deliveries/${unknown}`)).status).toBe(404);
    expect((await admin(`/admin/deliveries/${unknown}/resend`, { method: 'POST' })).status).toBe(404);
    expect((await admin('/admin/deliveries/not-a-uuid/resend', { method: 'POST' })).status).toBe(404);
  });
});
