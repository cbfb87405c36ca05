import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { createDb } from '@agentpay/db';
import { ensureStream } from '@agentpay/messaging';
import { createTestDatabase, natsUrl, type TestDatabase, uniqueName } from '@agentpay/testing';
import { generateKeyPair } from '@agentpay/wire';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection, headers as natsHeaders } from '@nats-io/transport-node';
import type { Kysely } from 'kysely';
import type { AttemptRow, Database, DeliveryRow } from '../src/db/schema.js';

// Fixtures for the notifier's integration tests (root test/notifier-*.test.ts): real HTTP sinks on
// 127.0.0.1, events published to JetStream exactly as the outbox relays publish them, and direct reads of
// the notifier's own database.

export interface SinkRequest {
  body: string;
  json: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  /** Order of arrival over every sink of the test file. */
  seq: number;
}

export type SinkReply = { status: number; body: string } | 'hang';

export interface Sink {
  url: string;
  port: number;
  requests: SinkRequest[];
  /** Requests that are being held open ('hang') right now. */
  hanging(): number;
  close(): Promise<void>;
}

let arrivals = 0;

/** An HTTP endpoint that records each callback and answers with `reply(request, index)`. */
export async function startSink(
  reply: (request: SinkRequest, index: number) => SinkReply | Promise<SinkReply> = () => ({
    status: 200,
    body: 'SUCCESS',
  }),
  path = '/notify',
): Promise<Sink> {
  const requests: SinkRequest[] = [];
  const sockets = new Set<Socket>();
  let held = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        // recorded as is
      }
      const request = { body, json, headers: req.headers, seq: ++arrivals };
      requests.push(request);
      const answer = await reply(request, requests.length - 1);
      if (answer === 'hang') {
        held += 1;
        res.on('close', () => {
          held -= 1;
        });
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    requests,
    hanging: () => held,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A payment order as payments' query returns it, in the proto JSON of the events (int64 as strings). */
export function payOrderJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    order_no: `P${Date.now()}${Math.floor(Math.random() * 1e6)}`,
    biz_order_no: `biz-${randomUUID().slice(0, 8)}`,
    mch_no: 'M1001',
    app_id: '',
    title: 'Order title',
    description: '',
    method: 'mex_virtual_account',
    limit_pay: '',
    amount: '10050',
    fee: '60',
    real_amount: '9990',
    status: 'success',
    settle_status: 'not_settle',
    settle_type: 'D0',
    settle_time: '',
    pay_time: '2026-11-22T17:04:05.000Z',
    close_time: '',
    expired_time: '2026-11-23T17:04:05.000Z',
    attach: 'attach-1',
    notify_url: '',
    pay_body: '',
    created_at: '2026-11-22T17:00:00.000Z',
    version: '2',
    ...overrides,
  };
}

export interface EventOptions {
  notifyUrl: string;
  version?: number;
  toStatus?: string;
  eventId?: string;
  appId?: string;
  traceparent?: string;
  order?: Record<string, unknown>;
}

/** An OrderStatusChanged event of a payment order, as the payments outbox writes it. */
export function payEvent(
  opts: EventOptions,
): Record<string, unknown> & { event_id: string; order_no: string } {
  const version = opts.version ?? 2;
  const order = payOrderJson({
    version: String(version),
    status: opts.toStatus ?? 'success',
    notify_url: opts.notifyUrl,
    app_id: opts.appId ?? '',
    ...opts.order,
  });
  return {
    event_id: opts.eventId ?? randomUUID(),
    mch_no: order['mch_no'] as string,
    app_id: opts.appId ?? '',
    kind: 'pay',
    order_no: order['order_no'] as string,
    from_status: 'wait',
    to_status: opts.toStatus ?? 'success',
    version: String(version),
    occurred_at: new Date().toISOString(),
    notify_url: opts.notifyUrl,
    traceparent: opts.traceparent ?? '',
    pay_order: order,
  };
}

/** A stream and subject prefix of the test's own, as a stack gets, plus a client publishing to it. */
export interface Bus {
  nc: NatsConnection;
  stream: string;
  prefix: string;
  /** Publishes like an outbox relay: JSON text, `Nats-Msg-Id` = event id (or `msgId`), `traceparent`. */
  publish(event: Record<string, unknown>, opts?: { msgId?: string | null; subject?: string }): Promise<void>;
  close(): Promise<void>;
}

export async function startBus(label: string): Promise<Bus> {
  const nc = await connect({ servers: (await natsUrl()).split(',') });
  const stream = uniqueName(`NOTIFIER_${label}`).toUpperCase();
  const prefix = uniqueName(`t_${label}`);
  await ensureStream(nc, { name: stream, subjects: [`${prefix}.>`] });
  const js = jetstream(nc);
  return {
    nc,
    stream,
    prefix,
    async publish(event, opts = {}) {
      const h = natsHeaders();
      if (typeof event['traceparent'] === 'string' && event['traceparent']) {
        h.set('traceparent', event['traceparent']);
      }
      const msgId = opts.msgId === undefined ? String(event['event_id']) : opts.msgId;
      const kind = event['kind'] === 'transfer' ? 'transfer' : 'pay';
      await js.publish(opts.subject ?? `${prefix}.${kind}.status_changed`, JSON.stringify(event), {
        headers: h,
        ...(msgId ? { msgID: msgId } : {}),
      });
    },
    async close() {
      const jsm = await jetstreamManager(nc);
      await jsm.streams.delete(stream).catch(() => {});
      await nc.close();
    },
  };
}

export const ADMIN_TOKEN = 'test-admin-token';

/** A platform key pair of the test's own; the notifier signs with the private half. */
export function platformKeys() {
  return generateKeyPair();
}

/** The notifier's environment for a test: short schedule and timeout, private addresses allowed. */
export function notifierTestEnv(opts: {
  databaseUrl: string;
  natsUrl: string;
  bus: Pick<Bus, 'stream' | 'prefix'>;
  privateKeyPem: string;
  overrides?: Record<string, string>;
}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env['NOTIFIER_TEST_LOG_LEVEL'] ?? 'silent',
    HOST: '127.0.0.1',
    NOTIFIER_PORT: '0',
    DATABASE_URL: opts.databaseUrl,
    NATS_URL: opts.natsUrl,
    EVENTS_STREAM: opts.bus.stream,
    EVENTS_SUBJECT_PREFIX: opts.bus.prefix,
    NOTIFIER_CONSUMER: `notifier_${opts.bus.prefix}`,
    // An event handed to a process the test kills comes back this soon.
    NOTIFIER_ACK_WAIT_MS: '3000',
    PLATFORM_PRIVATE_KEY: opts.privateKeyPem,
    NOTIFY_TIMEOUT_MS: '1000',
    NOTIFY_RETRY_SCHEDULE: '200ms,200ms,400ms',
    NOTIFY_ALLOW_PRIVATE: 'true',
    NOTIFY_LEASE_MARGIN_MS: '2000',
    NOTIFY_POLL_MS: '200',
    NOTIFIER_ADMIN_TOKEN: ADMIN_TOKEN,
    ...opts.overrides,
  };
}

/** Read access to the notifier's database, for assertions. */
export interface Store {
  db: Kysely<Database>;
  database: TestDatabase;
  deliveries(orderNo: string): Promise<DeliveryRow[]>;
  delivery(eventId: string): Promise<DeliveryRow | undefined>;
  attempts(deliveryId: string): Promise<AttemptRow[]>;
  close(): Promise<void>;
}

export async function createStore(label: string): Promise<Store> {
  const database = await createTestDatabase(label);
  const db = createDb<Database>(database.url, { poolSize: 3 });
  return {
    db,
    database,
    deliveries: (orderNo) =>
      db.selectFrom('deliveries').selectAll().where('order_no', '=', orderNo).orderBy('version').execute(),
    delivery: (eventId) =>
      db.selectFrom('deliveries').selectAll().where('event_id', '=', eventId).executeTakeFirst(),
    attempts: (deliveryId) =>
      db
        .selectFrom('delivery_attempts')
        .selectAll()
        .where('delivery_id', '=', deliveryId)
        .orderBy('id')
        .execute(),
    async close() {
      await db.destroy();
      await database.drop();
    },
  };
}
