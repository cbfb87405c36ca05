import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createDb } from '@agentpay/db';
import { CLIENT_OPTIONS, call, loadProtos, type UpstreamRouterClient } from '@agentpay/proto';
import { validateClabe } from '@agentpay/spei';
import { freePort } from '@agentpay/stack';
import { createTestDatabase, type TestDatabase, waitFor } from '@agentpay/testing';
import { AppError } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, main as sandboxMain } from '../../upstream-sandbox/src/main.js';
import { ROUTES_CHANNEL } from '../src/db/channels.js';
import type { Database } from '../src/db/schema.js';
import { type Router, main as routerMain } from '../src/main.js';
import { SANDBOX_CODE_MAP } from '../src/options/catalog.js';
import { bindMerchant, insertRoute } from '../src/routes/route.repository.js';
import { startNoticeStream } from './notice-stream.js';

// The router between real processes' worth of code: its own main (gRPC + notice HTTP + Postgres), the
// real sandbox channel over HTTP, and a JetStream reader standing in for payments and transfers, which
// apply the NoticeReceived events the router publishes.

const M_MAIN = 'M_MAIN';
const M_FAILOVER = 'M_FAILOVER';
const M_DEAD = 'M_DEAD';
const M_NONE = 'M_NONE';
const M_SLOW = 'M_SLOW';

let routerDatabase: TestDatabase;
let sandboxDatabase: TestDatabase;
let notices: Awaited<ReturnType<typeof startNoticeStream>>;
let sandbox: Sandbox;
let router: Router;
let db: Kysely<Database>;
let client: UpstreamRouterClient;
let sandboxUrl: string;
let noticeUrl: string;
/** A channel that accepts connections and never answers, as a hung upstream would. */
let hanging: Server;

const no = (label: string) => `${label}${randomBytes(6).toString('hex')}`;
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

function createVa(mchNo: string, orderNo: string, amount = '10050') {
  return call(client, client.CreateVirtualAccount, {
    mch_no: mchNo,
    method: 'mex_virtual_account',
    order_no: orderNo,
    amount,
    expired_time: inAnHour(),
  });
}

function submit(mchNo: string, transferNo: string, payee: Record<string, string> = {}) {
  return call(client, client.SubmitPayout, {
    mch_no: mchNo,
    transfer_no: transferNo,
    amount: '2500',
    payee_type: 'spei_transfer',
    payee_account: '002010077777777771',
    payee_name: 'Ana Lopez',
    payee_code: '40002',
    reason: 'test',
    ...payee,
  });
}

function inquire(mchNo: string, payee: Record<string, string> = {}) {
  return call(client, client.InquirePayee, {
    mch_no: mchNo,
    payee_type: 'spei_transfer',
    payee_account: '002010077777777771',
    payee_name: 'Ana Lopez',
    payee_code: '40002',
    ...payee,
  });
}

async function sandboxNotices(ref: string) {
  const response = await fetch(`${sandboxUrl}/sandbox/notices?ref=${ref}`);
  return (
    (await response.json()) as {
      notices: { noticeId: string; deliveredAt: string | null; lastStatus: number | null }[];
    }
  ).notices;
}

async function pay(clabe: string, amount: number) {
  const response = await fetch(`${sandboxUrl}/sandbox/deposits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clabe, amount }),
  });
  expect(response.status).toBe(201);
}

/** The NoticeReceived events the router wrote to its outbox for an order or transfer number. */
async function outboxRows(ref: string) {
  const rows = await db.selectFrom('outbox').select(['id', 'subject', 'payload']).orderBy('seq').execute();
  return rows.filter((r) => {
    const event = r.payload as { payment?: { order_no: string }; payout?: { transfer_no: string } };
    return event.payment?.order_no === ref || event.payout?.transfer_no === ref;
  });
}

function postNotice(routeId: string, body: string, signature: string) {
  return fetch(`${noticeUrl}/notices/${routeId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature },
    body,
  });
}

beforeAll(async () => {
  [routerDatabase, sandboxDatabase] = await Promise.all([
    createTestDatabase('router'),
    createTestDatabase('router_sandbox'),
  ]);
  notices = await startNoticeStream();
  sandbox = await sandboxMain({
    DATABASE_URL: sandboxDatabase.url,
    HOST: '127.0.0.1',
    SANDBOX_PORT: '0',
    SANDBOX_SETTLE_DELAY_MS: '150',
    SANDBOX_POLL_MS: '50',
    SANDBOX_NOTICE_BACKOFF_MS: '100',
    LOG_LEVEL: 'silent',
  });
  sandboxUrl = `http://127.0.0.1:${sandbox.port}`;
  const noticePort = await freePort();
  noticeUrl = `http://127.0.0.1:${noticePort}`;
  router = await routerMain({
    DATABASE_URL: routerDatabase.url,
    HOST: '127.0.0.1',
    GRPC_PORT: '0',
    NOTICE_PORT: String(noticePort),
    SANDBOX_URL: sandboxUrl,
    PUBLIC_NOTICE_URL: noticeUrl,
    ...notices.env,
    UPSTREAM_TIMEOUT_MS: '3000',
    LOG_LEVEL: 'silent',
  });

  // The seeded route serves only two test merchants; a route to a dead port comes first for two others.
  db = createDb<Database>(routerDatabase.url);
  await db
    .updateTable('routes')
    .set({ merchant_scope: 'list' })
    .where('id', '=', 'sandbox-default')
    .execute();
  await bindMerchant(db, 'sandbox-default', M_MAIN);
  await bindMerchant(db, 'sandbox-default', M_FAILOVER);
  await insertRoute(db, {
    id: 'dead-first',
    name: 'Dead channel',
    adapter: 'sandbox',
    config: { baseUrl: `http://127.0.0.1:${await freePort()}`, noticeUrl: `${noticeUrl}/notices/dead-first` },
    credentialsRef: 'SANDBOX_API_KEY',
    enabled: true,
    methods: ['mex_virtual_account'],
    payeeTypes: ['spei_transfer', 'bank_card', 'user_id', 'open_id', 'login_name'],
    priority: 1,
    weight: 100,
    merchantScope: 'list',
    codeMap: SANDBOX_CODE_MAP,
  });
  await bindMerchant(db, 'dead-first', M_FAILOVER);
  await bindMerchant(db, 'dead-first', M_DEAD);

  hanging = createServer(() => {});
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  await insertRoute(db, {
    id: 'slow-first',
    name: 'Hung channel',
    adapter: 'sandbox',
    config: {
      baseUrl: `http://127.0.0.1:${(hanging.address() as { port: number }).port}`,
      noticeUrl: `${noticeUrl}/notices/slow-first`,
      timeoutMs: 300,
    },
    credentialsRef: 'SANDBOX_API_KEY',
    enabled: true,
    methods: ['mex_virtual_account'],
    payeeTypes: ['spei_transfer'],
    priority: 1,
    weight: 100,
    merchantScope: 'list',
    codeMap: SANDBOX_CODE_MAP,
  });
  await bindMerchant(db, 'slow-first', M_SLOW);
  await bindMerchant(db, 'sandbox-default', M_SLOW);

  const protos = loadProtos();
  client = new protos.agentpay.router.v1.UpstreamRouter(
    `127.0.0.1:${router.grpcPort}`,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
});

afterAll(async () => {
  client?.close();
  await db?.destroy();
  await router?.stop();
  await sandbox?.stop();
  await notices?.stop();
  hanging?.closeAllConnections();
  await new Promise((resolve) => (hanging ? hanging.close(resolve) : resolve(undefined)));
  await Promise.all([routerDatabase?.drop(), sandboxDatabase?.drop()]);
});

describe('virtual accounts', () => {
  it('opens a virtual account with a valid CLABE and the public bank code, on a recorded route', async () => {
    const orderNo = no('P');
    const va = await createVa(M_MAIN, orderNo);
    expect(validateClabe(va.clabe).ok).toBe(true);
    expect(va).toMatchObject({
      route_id: 'sandbox-default',
      bank_code: '90646',
      bank_name: 'STP',
      upstream_ref: expect.stringMatching(/.+/),
      reference: expect.stringMatching(/^\d+$/),
    });
    expect((await createVa(M_MAIN, orderNo)).clabe).toBe(va.clabe);
  });

  it('a deposit is published as one NoticeReceived event, even when the channel delivers the notice twice', async () => {
    const orderNo = no('P');
    const va = await createVa(M_MAIN, orderNo);
    await pay(va.clabe, 100.5);
    const [applied] = await waitFor(() => notices.payments(orderNo).length > 0 && notices.payments(orderNo));
    expect(applied).toMatchObject({
      subject: `${notices.prefix}.notice.payment`,
      notice: 'payment',
      payment: {
        order_no: orderNo,
        status: 'success',
        paid_amount: '10050',
        paid_at: expect.stringMatching(/Z$/),
      },
    });
    expect(applied!.header.msgId).toBe(applied!.event_id);

    const notice = await waitFor(async () => {
      const [n] = await sandboxNotices(orderNo);
      return n?.deliveredAt ? n : undefined;
    });
    expect(applied!.notice_id).toBe(notice.noticeId);
    expect(
      (await fetch(`${sandboxUrl}/sandbox/notices/${notice.noticeId}/resend`, { method: 'POST' })).status,
    ).toBe(200);
    const row = await waitFor(async () => {
      const r = await db
        .selectFrom('upstream_notices')
        .selectAll()
        .where('notice_id', '=', notice.noticeId)
        .executeTakeFirst();
      return r && r.deliveries === 2 ? r : undefined;
    });
    expect(row.kind).toBe('payment');
    await waitFor(async () => (await sandboxNotices(orderNo))[0]?.deliveredAt);
    expect(await outboxRows(orderNo)).toHaveLength(1);
    expect(notices.payments(orderNo)).toHaveLength(1);
  });

  it('answers the channel once the notice and its event are committed, without waiting for anyone to apply it', async () => {
    const orderNo = no('P');
    const at = new Date().toISOString();
    const body = JSON.stringify({
      id: `ntc_${orderNo}`,
      type: 'virtual_account.paid',
      createdAt: at,
      data: { orderRef: orderNo, paidAmount: 700, paidAt: at },
    });
    const signature = createHmac('sha256', 'sandbox-notice-secret').update(body).digest('hex');
    const response = await postNotice('sandbox-default', body, signature);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ result: 'recorded' });
    // By the time the channel has its answer, the notice and its event are both in the database.
    const [row] = await db.selectFrom('upstream_notices').selectAll().where('ref', '=', orderNo).execute();
    expect(row).toMatchObject({ kind: 'payment', status: 'success', deliveries: 1 });
    const [event] = await outboxRows(orderNo);
    expect(event).toMatchObject({
      subject: `${notices.prefix}.notice.payment`,
      payload: {
        notice_id: `ntc_${orderNo}`,
        payment: { order_no: orderNo, status: 'success', paid_amount: '700' },
      },
    });
    const [published] = await waitFor(
      () => notices.payments(orderNo).length > 0 && notices.payments(orderNo),
    );
    expect(published!.event_id).toBe(event!.id);
  });

  it('queries and closes on the recorded route: paid stays success, open becomes close', async () => {
    const paidNo = no('P');
    const paid = await createVa(M_MAIN, paidNo, '300');
    await pay(paid.clabe, 3);
    const paidRef = { route_id: paid.route_id, order_no: paidNo, upstream_ref: paid.upstream_ref };
    expect(await call(client, client.QueryVirtualAccount, paidRef)).toMatchObject({
      status: 'success',
      paid_amount: '300',
    });
    expect((await call(client, client.CloseVirtualAccount, paidRef)).status).toBe('success');

    const openNo = no('P');
    const open = await createVa(M_MAIN, openNo, '300');
    const openRef = { route_id: open.route_id, order_no: openNo, upstream_ref: '' };
    expect(await call(client, client.QueryVirtualAccount, openRef)).toMatchObject({
      status: 'wait',
      paid_amount: '0',
    });
    expect((await call(client, client.CloseVirtualAccount, openRef)).status).toBe('close');
    expect((await call(client, client.QueryVirtualAccount, openRef)).status).toBe('close');
  });

  it('never reselects: a close or query on an unknown route is NO_UPSTREAM_ROUTE', async () => {
    const ref = { route_id: 'no-such-route', order_no: no('P'), upstream_ref: '' };
    expect((await rejection(call(client, client.QueryVirtualAccount, ref))).codeName).toBe(
      'NO_UPSTREAM_ROUTE',
    );
    expect((await rejection(call(client, client.CloseVirtualAccount, ref))).codeName).toBe(
      'NO_UPSTREAM_ROUTE',
    );
  });
});

describe('notice endpoint', () => {
  it('refuses a notice with a bad signature with 401 and applies nothing', async () => {
    const orderNo = no('P');
    const body = JSON.stringify({
      id: 'ntc_forged',
      type: 'virtual_account.paid',
      createdAt: new Date().toISOString(),
      data: { orderRef: orderNo, paidAmount: 100, paidAt: new Date().toISOString() },
    });
    const forged = createHmac('sha256', 'not-the-secret').update(body).digest('hex');
    expect((await postNotice('sandbox-default', body, forged)).status).toBe(401);
    expect((await postNotice('sandbox-default', body, '')).status).toBe(401);
    expect(await outboxRows(orderNo)).toEqual([]);
    expect(await db.selectFrom('upstream_notices').selectAll().where('ref', '=', orderNo).execute()).toEqual(
      [],
    );
  });

  it('records a notice delivered several times at once exactly once, and acknowledges later repeats', async () => {
    const orderNo = no('P');
    const at = new Date().toISOString();
    const body = JSON.stringify({
      id: `ntc_${orderNo}`,
      type: 'virtual_account.paid',
      createdAt: at,
      data: { orderRef: orderNo, paidAmount: 100, paidAt: at },
    });
    const signature = createHmac('sha256', 'sandbox-notice-secret').update(body).digest('hex');
    const statuses = await Promise.all(
      Array.from({ length: 6 }, () => postNotice('sandbox-default', body, signature).then((r) => r.status)),
    );
    // Each delivery waits for the one that records it to commit, then is acknowledged as a repeat.
    expect(statuses).toEqual(Array.from({ length: 6 }, () => 200));
    expect((await postNotice('sandbox-default', body, signature)).status).toBe(200);
    const [row] = await db.selectFrom('upstream_notices').selectAll().where('ref', '=', orderNo).execute();
    expect(row?.deliveries).toBe(7);
    expect(await outboxRows(orderNo)).toHaveLength(1);
    await waitFor(() => notices.payments(orderNo).length > 0);
    expect(notices.payments(orderNo)).toHaveLength(1);
  });

  it("carries the channel's traceparent on the NoticeReceived event, or starts a trace when none came", async () => {
    const traceId = randomBytes(16).toString('hex');
    const signedNotice = (orderNo: string) => {
      const at = new Date().toISOString();
      const body = JSON.stringify({
        id: `ntc_${orderNo}`,
        type: 'virtual_account.paid',
        createdAt: at,
        data: { orderRef: orderNo, paidAmount: 100, paidAt: at },
      });
      return { body, signature: createHmac('sha256', 'sandbox-notice-secret').update(body).digest('hex') };
    };

    const traced = no('P');
    const first = signedNotice(traced);
    const response = await fetch(`${noticeUrl}/notices/sandbox-default`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-sandbox-signature': first.signature,
        traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
      },
      body: first.body,
    });
    expect(response.status).toBe(200);
    const [tracedEvent] = await waitFor(
      () => notices.payments(traced).length > 0 && notices.payments(traced),
    );
    expect(tracedEvent!.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(tracedEvent!.header.traceparent).toBe(tracedEvent!.traceparent);

    const untraced = no('P');
    const second = signedNotice(untraced);
    expect((await postNotice('sandbox-default', second.body, second.signature)).status).toBe(200);
    const [untracedEvent] = await waitFor(
      () => notices.payments(untraced).length > 0 && notices.payments(untraced),
    );
    const fresh = untracedEvent!.traceparent;
    expect(fresh).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(fresh).not.toContain(traceId);
    expect(fresh).not.toMatch(/^00-0{32}-/);
  });

  it('answers 404 for an unknown route and 400 for a signed notice it cannot read', async () => {
    const body = JSON.stringify({ id: 'ntc_odd', type: 'something.else', data: {} });
    const signature = createHmac('sha256', 'sandbox-notice-secret').update(body).digest('hex');
    expect((await postNotice('no-such-route', body, signature)).status).toBe(404);
    expect((await postNotice('sandbox-default', body, signature)).status).toBe(400);
  });
});

describe('payee inquiry', () => {
  it('answers valid, unknown or invalid from the channel', async () => {
    expect((await inquire(M_MAIN)).status).toBe('valid');
    expect((await inquire(M_MAIN, { payee_name: 'UNKNOWN person' })).status).toBe('unknown');
    // A BBVA code for a Banamex CLABE: the channel finds the account does not belong to that bank.
    expect((await inquire(M_MAIN, { payee_code: '40012' })).status).toBe('invalid');
    expect(
      (await inquire(M_MAIN, { payee_type: 'user_id', payee_account: 'wallet-1', payee_code: '' })).status,
    ).toBe('valid');
  });

  it('derives the public code from the CLABE when none is given', async () => {
    expect((await inquire(M_MAIN, { payee_code: '' })).status).toBe('valid');
  });
});

describe('payouts', () => {
  const appliedPayouts = (transferNo: string) =>
    notices.payouts(transferNo).map((n) => ({ ...n.payout!, notice_id: n.notice_id, subject: n.subject }));

  it('a payout is accepted in progress and its success is published as a payout notice', async () => {
    const transferNo = no('T');
    const answer = await submit(M_MAIN, transferNo);
    expect(answer).toMatchObject({
      route_id: 'sandbox-default',
      status: 'progress',
      upstream_ref: expect.stringMatching(/.+/),
    });
    const [applied] = await waitFor(
      () => appliedPayouts(transferNo).length === 1 && appliedPayouts(transferNo),
    );
    expect(applied).toMatchObject({
      subject: `${notices.prefix}.notice.payout`,
      status: 'success',
      finished_at: expect.stringMatching(/Z$/),
      notice_id: expect.stringMatching(/.+/),
    });
    const ref = { route_id: answer.route_id, transfer_no: transferNo, upstream_ref: answer.upstream_ref };
    expect((await call(client, client.QueryPayout, ref)).status).toBe('success');
  });

  it('REJECT in the payee name fails by notice', async () => {
    const transferNo = no('T');
    expect((await submit(M_MAIN, transferNo, { payee_name: 'REJECT me' })).status).toBe('progress');
    const [applied] = await waitFor(
      () => appliedPayouts(transferNo).length === 1 && appliedPayouts(transferNo),
    );
    expect(applied!.status).toBe('fail');
  });

  it('RETURN in the payee name succeeds, then is returned', async () => {
    const transferNo = no('T');
    const answer = await submit(M_MAIN, transferNo, { payee_name: 'RETURN me' });
    const applied = await waitFor(
      () => appliedPayouts(transferNo).length === 2 && appliedPayouts(transferNo),
    );
    expect(applied.map((p) => p.status)).toEqual(['success', 'returned']);
    const ref = { route_id: answer.route_id, transfer_no: transferNo, upstream_ref: '' };
    expect((await call(client, client.QueryPayout, ref)).status).toBe('returned');
  });

  it('SYNCREJECT in the payee name is refused synchronously as fail', async () => {
    const transferNo = no('T');
    const answer = await submit(M_MAIN, transferNo, { payee_name: 'SYNCREJECT me' });
    expect(answer).toMatchObject({ route_id: 'sandbox-default', status: 'fail' });
    const ref = { route_id: answer.route_id, transfer_no: transferNo, upstream_ref: answer.upstream_ref };
    expect((await call(client, client.QueryPayout, ref)).status).toBe('fail');
  });

  it('a payout the channel never accepted queries as fail', async () => {
    const ref = { route_id: 'sandbox-default', transfer_no: no('T'), upstream_ref: '' };
    expect((await call(client, client.QueryPayout, ref)).status).toBe('fail');
  });

  // A submission whose answer was lost before the route was known (the router died mid-call): the
  // transfer has no route_id, so QueryPayout with none asks every payout route, enabled or not.
  describe('queried with no route recorded', () => {
    const unrecorded = (transferNo: string) => ({ route_id: '', transfer_no: transferNo, upstream_ref: '' });

    it('finds the payout on the route that holds it, even a disabled one, and names that route and its reference', async () => {
      const transferNo = no('T');
      const answer = await submit(M_MAIN, transferNo);
      await db.updateTable('routes').set({ enabled: false }).where('id', '=', 'sandbox-default').execute();
      try {
        expect(await call(client, client.QueryPayout, unrecorded(transferNo))).toMatchObject({
          status: expect.stringMatching(/^(progress|success)$/),
          route_id: 'sandbox-default',
          upstream_ref: answer.upstream_ref,
        });
      } finally {
        await db.updateTable('routes').set({ enabled: true }).where('id', '=', 'sandbox-default').execute();
      }
    });

    it('answers UPSTREAM_UNAVAILABLE, not fail, while some payout route cannot be asked', async () => {
      // dead-first refuses connections and slow-first never answers: either might hold it.
      const err = await rejection(call(client, client.QueryPayout, unrecorded(no('T'))));
      expect(err.codeName).toBe('UPSTREAM_UNAVAILABLE');
    });

    it('answers fail once every payout route says it never took the payout', async () => {
      const others = ['dead-first', 'slow-first'];
      const saved = await db
        .selectFrom('routes')
        .select(['id', 'payee_types'])
        .where('id', 'in', others)
        .execute();
      await db.updateTable('routes').set({ payee_types: [] }).where('id', 'in', others).execute();
      try {
        expect(await call(client, client.QueryPayout, unrecorded(no('T')))).toMatchObject({
          status: 'fail',
          route_id: '',
        });
      } finally {
        for (const route of saved)
          await db
            .updateTable('routes')
            .set({ payee_types: route.payee_types })
            .where('id', '=', route.id)
            .execute();
      }
    });
  });
});

describe('route changes', () => {
  it('are announced to every replica by NOTIFY, for routes and for their merchants, and reach the cache', async () => {
    const listener = new pg.Client({ connectionString: routerDatabase.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.channel));
    await listener.query(`listen ${ROUTES_CHANNEL}`);
    try {
      // M_NONE has no route: the answer is cached, until a binding made elsewhere announces itself.
      expect((await rejection(createVa(M_NONE, no('P')))).codeName).toBe('PAY_METHOD_NOT_AVAILABLE');
      await bindMerchant(db, 'sandbox-default', M_NONE);
      await waitFor(() => heard.length === 1, { message: 'a NOTIFY for the binding' });
      expect((await waitFor(async () => createVa(M_NONE, no('P')).catch(() => undefined))).route_id).toBe(
        'sandbox-default',
      );
      await db.updateTable('routes').set({ weight: 100 }).where('id', '=', 'sandbox-default').execute();
      await waitFor(() => heard.length === 2, { message: 'a NOTIFY for the route update' });
    } finally {
      await db
        .deleteFrom('route_merchants')
        .where('route_id', '=', 'sandbox-default')
        .where('mch_no', '=', M_NONE)
        .execute();
      // Later tests need M_NONE unserved again, in the router's cache too.
      await waitFor(
        async () =>
          await createVa(M_NONE, no('P')).then(
            () => false,
            () => true,
          ),
      );
      await listener.end();
    }
  });
});

describe('route selection and failover', () => {
  it('when the preferred route is down, creates succeed through the next one', async () => {
    const va = await createVa(M_FAILOVER, no('P'));
    expect(va.route_id).toBe('sandbox-default');
    expect(validateClabe(va.clabe).ok).toBe(true);
    expect((await inquire(M_FAILOVER)).status).toBe('valid');
    expect((await submit(M_FAILOVER, no('T'))).route_id).toBe('sandbox-default');
  });

  it('after a timeout, a virtual account is opened on the next route', async () => {
    expect((await createVa(M_SLOW, no('P'))).route_id).toBe('sandbox-default');
  });

  it('after a timeout, a payout stays in progress on that route instead of going to another (no double pay)', async () => {
    expect(await submit(M_SLOW, no('T'))).toEqual({
      route_id: 'slow-first',
      status: 'progress',
      upstream_ref: '',
      clave_rastreo: '',
    });
  });

  it('when every route is down, answers UPSTREAM_UNAVAILABLE without naming a route', async () => {
    for (const attempt of [
      () => createVa(M_DEAD, no('P')),
      () => inquire(M_DEAD),
      () => submit(M_DEAD, no('T')),
    ]) {
      const err = await rejection(attempt());
      expect(err.codeName).toBe('UPSTREAM_UNAVAILABLE');
      expect(err.detail).toBeUndefined();
      expect(err.message).not.toMatch(/dead|sandbox|route|127\.0\.0\.1/i);
    }
  });

  it('a merchant no route serves gets PAY_METHOD_NOT_AVAILABLE and PAYEE_TYPE_NOT_AVAILABLE', async () => {
    expect((await rejection(createVa(M_NONE, no('P')))).codeName).toBe('PAY_METHOD_NOT_AVAILABLE');
    expect((await rejection(inquire(M_NONE))).codeName).toBe('PAYEE_TYPE_NOT_AVAILABLE');
    expect((await rejection(submit(M_NONE, no('T')))).codeName).toBe('PAYEE_TYPE_NOT_AVAILABLE');
  });

  it('an unknown method or payee type is not available either', async () => {
    const err = await rejection(
      call(client, client.CreateVirtualAccount, {
        mch_no: M_MAIN,
        method: 'cash',
        order_no: no('P'),
        amount: '100',
        expired_time: inAnHour(),
      }),
    );
    expect(err.codeName).toBe('PAY_METHOD_NOT_AVAILABLE');
    expect((await rejection(inquire(M_MAIN, { payee_type: 'paypal' }))).codeName).toBe(
      'PAYEE_TYPE_NOT_AVAILABLE',
    );
  });

  it('a raw upstream code such as 012, or a code outside the public list, is PAYEE_CODE_NOT_AVAILABLE', async () => {
    expect((await rejection(submit(M_MAIN, no('T'), { payee_code: '012' }))).codeName).toBe(
      'PAYEE_CODE_NOT_AVAILABLE',
    );
    expect((await rejection(inquire(M_MAIN, { payee_code: '012' }))).codeName).toBe(
      'PAYEE_CODE_NOT_AVAILABLE',
    );
    expect((await rejection(inquire(M_MAIN, { payee_code: '99999' }))).codeName).toBe(
      'PAYEE_CODE_NOT_AVAILABLE',
    );
    expect(
      (
        await rejection(
          inquire(M_MAIN, { payee_type: 'bank_card', payee_account: '4111111111111111', payee_code: '' }),
        )
      ).codeName,
    ).toBe('PAYEE_CODE_NOT_AVAILABLE');
  });

  it('refuses a malformed amount by field name', async () => {
    const err = await rejection(createVa(M_MAIN, no('P'), '0'));
    expect(err).toMatchObject({ codeName: 'INVALID_PARAMETER', detail: 'amount' });
  });
});
