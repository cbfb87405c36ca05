import { randomUUID } from 'node:crypto';
import { createHttpServer, type FastifyInstance } from '@agentpay/http';
import { createLogger } from '@agentpay/logger';
import { migratedTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAdminApi } from '../src/admin/admin-api.js';
import { migrations } from '../src/db/migrations/index.js';
import type { Database, DeliveryStatus } from '../src/db/schema.js';

// The merchant dashboard's recent failing callbacks (README "Admin API", `failing=true`): one merchant's
// deliveries whose last attempt failed, newest first, paged by a keyset that neither skips nor repeats a
// delivery when many share the same creation time.

const TOKEN = 'failing-test-token';
let db: Kysely<Database>;
let drop: () => Promise<void>;
let app: FastifyInstance;

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('notifier_failing', migrations));
  app = createHttpServer(createLogger({ service: 'notifier', level: 'silent' }));
  registerAdminApi(app, {
    db,
    logger: createLogger({ service: 'notifier', level: 'silent' }),
    adminToken: TOKEN,
    kick: () => {},
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await drop?.();
});

let seq = 0;
async function delivery(d: { mchNo: string; status: DeliveryStatus; attempts: number; createdAt?: string }) {
  seq += 1;
  const orderNo = `F${seq}`;
  await db
    .insertInto('deliveries')
    .values({
      event_id: randomUUID(),
      kind: 'pay',
      mch_no: d.mchNo,
      app_id: '',
      order_no: orderNo,
      version: 1,
      from_status: 'wait',
      to_status: 'success',
      occurred_at: new Date(),
      notify_url: 'http://shop.test/cb',
      endpoint: 'shop.test:80',
      trace_id: 't',
      body: '{}',
      status: d.status,
      attempt_count: d.attempts,
      last_http_status: d.attempts > 0 && d.status !== 'succeeded' ? 500 : null,
      created_at: d.createdAt ? sql<Date>`${d.createdAt}::timestamptz` : sql<Date>`now()`,
    })
    .execute();
  return orderNo;
}

const list = async (query: string) => {
  const response = await app.inject({
    method: 'GET',
    url: `/admin/deliveries?${query}`,
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return {
    status: response.statusCode,
    body: response.json() as { deliveries: { orderNo: string }[]; next?: string },
  };
};

describe('failing deliveries of a merchant', () => {
  it('lists only the merchant’s deliveries whose last attempt failed, newest first', async () => {
    const gaveUp = await delivery({
      mchNo: 'FA',
      status: 'failed',
      attempts: 3,
      createdAt: '2026-11-01T10:00:00Z',
    });
    const retrying = await delivery({
      mchNo: 'FA',
      status: 'pending',
      attempts: 1,
      createdAt: '2026-11-02T10:00:00Z',
    });
    await delivery({ mchNo: 'FA', status: 'pending', attempts: 0 }); // not tried yet
    await delivery({ mchNo: 'FA', status: 'succeeded', attempts: 2 }); // got through on a retry
    await delivery({ mchNo: 'FA', status: 'superseded', attempts: 1 });
    await delivery({ mchNo: 'FA', status: 'skipped', attempts: 0 });
    await delivery({ mchNo: 'FB', status: 'failed', attempts: 3 }); // another merchant's

    const answer = await list('failing=true&mchNo=FA');
    expect(answer.status).toBe(200);
    expect(answer.body.deliveries.map((d) => d.orderNo)).toEqual([retrying, gaveUp]);
    expect(answer.body.next).toBeUndefined();
  });

  it('pages by keyset through deliveries created in the same microsecond, without a gap or a repeat', async () => {
    const same = '2026-11-20T12:00:00.123456Z';
    const made: string[] = [];
    for (let i = 0; i < 7; i++)
      made.push(await delivery({ mchNo: 'FC', status: 'failed', attempts: 3, createdAt: same }));
    // One a microsecond later, and one a microsecond earlier: a cursor cut to milliseconds would lose them.
    const later = await delivery({
      mchNo: 'FC',
      status: 'failed',
      attempts: 3,
      createdAt: '2026-11-20T12:00:00.123457Z',
    });
    const earlier = await delivery({
      mchNo: 'FC',
      status: 'failed',
      attempts: 3,
      createdAt: '2026-11-20T12:00:00.123455Z',
    });

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = await list(
        `failing=true&mchNo=FC&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(answer.status).toBe(200);
      expect(answer.body.deliveries.length).toBeLessThanOrEqual(3);
      seen.push(...answer.body.deliveries.map((d) => d.orderNo));
      cursor = answer.body.next;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(9);
    expect(new Set(seen)).toEqual(new Set([...made, later, earlier]));
    expect(seen[0]).toBe(later);
    expect(seen.at(-1)).toBe(earlier);
  });

  it('refuses a list without the merchant, a cursor it did not give, and keeps the order list as it was', async () => {
    expect((await list('failing=true')).status).toBe(400);
    expect((await list('failing=true&mchNo=FA&cursor=2026-11-01')).status).toBe(400);
    expect((await list('failing=yes&mchNo=FA')).status).toBe(400);
    // Without `failing`, the list by order number answers as before.
    expect((await list('mchNo=FA')).status).toBe(400);
    const byOrder = await list('orderNo=F1');
    expect(byOrder.status).toBe(200);
    expect(byOrder.body.deliveries.map((d) => d.orderNo)).toEqual(['F1']);
  });
});
