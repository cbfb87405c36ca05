import { createLogger } from '@agentpay/logger';
import { migratedTestDatabase } from '@agentpay/testing';
import { createEnvelopeSigner, generateKeyPair, parsePrivateKey } from '@agentpay/wire';
import type { JsMsg } from '@nats-io/jetstream';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payEvent } from '../../test/helpers.js';
import { migrations } from '../db/migrations/index.js';
import type { Database } from '../db/schema.js';
import { orderStatusChangedHandler } from './order-status-changed.handler.js';

let db: Kysely<Database>;
let drop: () => Promise<void>;
let handle: ReturnType<typeof orderStatusChangedHandler>;

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('notifier_handler', migrations));
  const signer = createEnvelopeSigner({
    privateKey: parsePrivateKey(generateKeyPair().privateKeyPem),
    timeZone: 'America/Mexico_City',
  });
  handle = orderStatusChangedHandler({
    db,
    signer,
    timeZone: 'America/Mexico_City',
    logger: createLogger({ service: 'notifier-test', level: 'silent' }),
  });
});

afterAll(() => drop?.());

/** A message as the consumer hands it over: only what the handler reads. */
function message(payload: unknown, seq: number): JsMsg {
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return {
    subject: 'test.events.pay.status_changed',
    seq,
    headers: undefined,
    string: () => text,
  } as unknown as JsMsg;
}

const recorded = async (orderNos: string[]) =>
  (await db.selectFrom('deliveries').select('order_no').where('order_no', 'in', orderNos).execute()).map(
    (r) => r.order_no,
  );

describe('the status-change handler, a batch at a time', () => {
  it('records a batch in one go and acks each message', async () => {
    const events = [1, 2, 3].map(() => payEvent({ notifyUrl: 'http://merchant.example/cb' }));
    expect(await handle(events.map((e, i) => message(e, i)))).toEqual(['ack', 'ack', 'ack']);
    expect((await recorded(events.map((e) => e.order_no))).sort()).toEqual(
      events.map((e) => e.order_no).sort(),
    );
  });

  it('drops an unreadable message for good and records the rest of its batch', async () => {
    const good = payEvent({ notifyUrl: 'http://merchant.example/cb' });
    expect(await handle([message('{"not":"an event"}', 1), message(good, 2)])).toEqual(['term', 'ack']);
    expect(await recorded([good.order_no])).toEqual([good.order_no]);
  });

  it('when Postgres refuses one event, records the others one by one and leaves only that one to redeliver', async () => {
    const before = payEvent({ notifyUrl: 'http://merchant.example/cb' });
    // Postgres refuses a NUL character in text: this event fails the batch's transaction.
    const refused = payEvent({ notifyUrl: 'http://merchant.example/cb', order: { order_no: 'P\u0000BAD' } });
    const after = payEvent({ notifyUrl: 'http://merchant.example/cb' });
    expect(await handle([message(before, 1), message(refused, 2), message(after, 3)])).toEqual([
      'ack',
      'retry',
      'ack',
    ]);
    expect((await recorded([before.order_no, after.order_no])).sort()).toEqual(
      [before.order_no, after.order_no].sort(),
    );
  });
});
