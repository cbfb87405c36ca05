import { drainRetention, retentionPlan, retentionRound } from '@agentpay/db';
import { createHttpServer } from '@agentpay/http';
import { createLogger } from '@agentpay/logger';
import type { PaymentServiceClient, PayOrder__Output } from '@agentpay/proto';
import { migratedTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gatewayEnv } from '../src/config.js';
import { migrations } from '../src/db/migrations/index.js';
import { gatewayRetentionRules } from '../src/db/retention.js';
import type { Database } from '../src/db/schema.js';
import { admitRequest } from '../src/merchant-api/admission.repository.js';
import { registerCashierRoutes } from '../src/merchant-api/cashier/cashier.routes.js';
import { cashierLinks, saveCashierLink } from '../src/merchant-api/cashier/cashier-link.repository.js';
import { createCashierTokens } from '../src/merchant-api/cashier/cashier-token.js';

let db: Kysely<Database>;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('gateway_retention', migrations));
});

afterAll(() => drop?.());

beforeEach(async () => {
  await sql`truncate nonces, rate_windows, cashier_links`.execute(db);
});

const rules = gatewayRetentionRules({ rateWindowSeconds: 60, cashierLinkDays: 0 });

/** A nonce whose replay window ends `inSeconds` from now (negative: it has passed). */
async function nonce(mchNo: string, value: string, inSeconds: number): Promise<void> {
  await sql`insert into nonces (mch_no, nonce, expires_at)
    values (${mchNo}, ${value}, now() + make_interval(secs => ${inSeconds}))`.execute(db);
}

/** A rate window that started `secondsAgo` seconds ago. */
async function rateWindow(mchNo: string, secondsAgo: number): Promise<void> {
  await sql`insert into rate_windows (mch_no, window_start, count)
    values (${mchNo}, date_trunc('second', now()) - make_interval(secs => ${secondsAgo}), 3)`.execute(db);
}

/** Rounds of 2-row batches until one is idle; answers how many it took. */
const drain = () => drainRetention(db, rules, { batchSize: 2 });

describe('gateway retention', () => {
  it('deletes nonces past their replay window and rate windows past their retention, across batches', async () => {
    for (const [i, s] of [-3600, -600, -60, -1, -86_400].entries()) await nonce('M1', `spent-${i}`, s);
    await nonce('M1', 'live', 3600);
    await nonce('M2', 'almost', 5);
    for (const s of [61, 120, 3600]) await rateWindow('M1', s);
    await rateWindow('M1', 0);
    await rateWindow('M2', 30);
    // Five nonces and three windows, in batches of two: two full rounds, then one nonce, one window and idle.
    expect(await drain()).toBe(3);
    expect(
      (await db.selectFrom('nonces').select('nonce').orderBy('nonce').execute()).map((r) => r.nonce),
    ).toEqual(['almost', 'live']);
    expect(
      (
        await sql<{ mch_no: string; age: number }>`select mch_no,
          extract(epoch from date_trunc('second', now()) - window_start)::int as age
          from rate_windows order by age`.execute(db)
      ).rows,
    ).toEqual([
      { mch_no: 'M1', age: 0 },
      { mch_no: 'M2', age: 30 },
    ]);
  });

  it('leaves a nonce in its replay window used: a replay is still refused after a round', async () => {
    const admit = (n: string) =>
      admitRequest(db, { mchNo: 'M3', nonce: n, limitPerS: 0, nonceTtlSeconds: 60 });
    expect((await admit('once')).nonceUsed).toBe(false);
    await drain();
    expect((await admit('once')).nonceUsed).toBe(true);
  });

  it('is idle when nothing is due', async () => {
    await nonce('M1', 'live', 3600);
    await rateWindow('M1', 1);
    expect(await retentionRound(db, rules, { batchSize: 2 })).toEqual({
      deleted: { nonces: 0, rate_windows: 0 },
      more: false,
    });
  });

  it('keeps rate windows forever at 0 seconds, and nonces go regardless', () => {
    expect(gatewayRetentionRules({ rateWindowSeconds: 0, cashierLinkDays: 0 }).map((r) => r.name)).toEqual([
      'nonces',
    ]);
  });

  it('finds due rows of every rule through an index, never a scan of the table', async () => {
    const indexes: Record<string, string> = {
      nonces: 'nonces_expires_at_idx',
      rate_windows: 'rate_windows_window_start_idx',
    };
    for (const rule of rules) {
      const plan = await retentionPlan(db, rule, { forbidSeqScan: true });
      expect(plan.filter((n) => n.nodeType === 'Seq Scan')).toEqual([]);
      expect(plan).toContainEqual(expect.objectContaining({ index: indexes[rule.name] }));
    }
  });
});

describe('cashier link retention', () => {
  const linkRules = gatewayRetentionRules({ rateWindowSeconds: 60, cashierLinkDays: 30 });
  const linkRule = linkRules.find((r) => r.name === 'cashier_links')!;

  /** A link written `daysAgo` days ago. */
  async function link(orderNo: string, daysAgo: number): Promise<void> {
    await saveCashierLink(db, { orderNo, mchNo: 'M1', returnUrl: 'https://shop.example/ok', quitUrl: '' });
    await sql`update cashier_links set created_at = now() - make_interval(days => ${daysAgo})
      where order_no = ${orderNo}`.execute(db);
  }

  const links = async () =>
    (await db.selectFrom('cashier_links').select('order_no').orderBy('order_no').execute()).map(
      (r) => r.order_no,
    );

  it('deletes links 30 days after their order expired at the latest (60 days after writing), across batches', async () => {
    // Expired at the latest 30 days after it was written, plus 30 days' grace: 60 days.
    for (const [i, days] of [61, 90, 365].entries()) await link(`P-old-${i}`, days);
    await link('P-59', 59);
    await link('P-today', 0);
    // Three links in batches of two: one full round, then one link and idle.
    expect(await drainRetention(db, [linkRule], { batchSize: 2 })).toBe(2);
    expect(await links()).toEqual(['P-59', 'P-today']);
  });

  it('keeps links forever at 0 days; defaults to 30 days', () => {
    expect(gatewayRetentionRules({ rateWindowSeconds: 60, cashierLinkDays: 0 }).map((r) => r.name)).toEqual([
      'nonces',
      'rate_windows',
    ]);
    expect(linkRule.keepMs).toBe(60 * 86_400_000);
    expect(gatewayEnv.parse({}).CASHIER_LINK_RETENTION_DAYS).toBe(30);
    expect(gatewayEnv.safeParse({ CASHIER_LINK_RETENTION_DAYS: '-1' }).success).toBe(false);
  });

  it('answers a link past its retention as an unknown order: the same 404 page and status', async () => {
    const tokens = createCashierTokens(Buffer.from('k'.repeat(32)));
    const order = (orderNo: string): PayOrder__Output =>
      ({
        order_no: orderNo,
        biz_order_no: 'SHOP-1',
        mch_no: 'M1',
        title: 'Coffee',
        amount: '5000',
        status: 'timeout',
        expired_time: new Date(Date.now() - 40 * 86_400_000).toISOString(),
        pay_body: JSON.stringify({ clabe: '646180000000000025', bankName: 'STP', reference: '1' }),
      }) as PayOrder__Output;
    // Payments keeps every order: the page's answer depends on the link alone.
    const payments = {
      GetPayOrder: (
        req: { order_no: string },
        _md: unknown,
        _opts: unknown,
        cb: (e: null, o: unknown) => void,
      ) => cb(null, order(req.order_no)),
    } as unknown as PaymentServiceClient;
    // Each app is a fresh replica: a replica caches the links it has served.
    const replica = async () => {
      const app = createHttpServer(createLogger({ service: 'gateway', level: 'silent' }));
      registerCashierRoutes(app, {
        links: cashierLinks(db),
        payments,
        merchants: { forAuth: async () => ({ name: 'Shop' }) as never },
        tokens,
        publicBaseUrl: 'http://127.0.0.1',
        timeZone: 'America/Mexico_City',
        grpcTimeoutMs: 1000,
        ratePerMinute: 1000,
        logger: createLogger({ service: 'gateway', level: 'silent' }),
      });
      await app.ready();
      return app;
    };
    const get = async (orderNo: string, path = '') => {
      const app = await replica();
      try {
        const res = await app.inject({ url: `/cashier/${orderNo}${path}?t=${tokens.tokenFor(orderNo)}` });
        // The CSP nonce is fresh on every response; the rest must match.
        return { status: res.statusCode, body: res.body.replace(/nonce="[^"]*"/g, 'nonce') };
      } finally {
        await app.close();
      }
    };

    await link('P-expired', 61);
    const before = await get('P-expired');
    expect(before.status).toBe(200);
    expect(before.body).toContain('Este pago ya no es posible');
    expect((await get('P-expired', '/status')).body).toContain('"status":"timeout"');

    await drainRetention(db, [linkRule], { batchSize: 10 });
    expect(await links()).toEqual([]);
    const unknown = await get('P-never-linked');
    expect(unknown.status).toBe(404);
    expect(await get('P-expired')).toEqual(unknown);
    expect(await get('P-expired', '/status')).toEqual(await get('P-never-linked', '/status'));
    expect((await get('P-expired', '/status')).status).toBe(404);
  });

  it('finds due links through the created_at index, never a scan of the table', async () => {
    const plan = await retentionPlan(db, linkRule, { forbidSeqScan: true });
    expect(plan.filter((n) => n.nodeType === 'Seq Scan')).toEqual([]);
    expect(plan).toContainEqual(expect.objectContaining({ index: 'cashier_links_created_idx' }));
  });
});
