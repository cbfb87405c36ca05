import { setTimeout as sleep } from 'node:timers/promises';
import { createDb } from '@agentpay/db';
import { createLogger } from '@agentpay/logger';
import {
  type AgentpayProtos,
  type CreateTransferRequest,
  call,
  type GrpcServerHandle,
  type InquirePayeeRequest__Output,
  loadProtos,
  type OrderStatusChanged__Output,
  type PayoutRef__Output,
  type SubmitPayoutRequest__Output,
  type SubmitPayoutResponse,
  startGrpcServer,
  type TransferServiceClient,
  unary,
} from '@agentpay/proto';
import { buildClabe } from '@agentpay/spei';
import { createTestDatabase, natsUrl, type TestDatabase, uniqueName } from '@agentpay/testing';
import { AppError } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema.js';
import { main, type Transfers } from '../src/main.js';
import { createTransferService } from '../src/transfers/transfer.service.js';
import { connectRouter } from '../src/upstream/router-client.js';

// The transfers service as a real gRPC server on its own Postgres and NATS, talking over gRPC to a stand-in
// for the upstream router whose answers each test chooses. This pins down what depends only on this
// service: idempotency under concurrency, what each router answer leaves behind, the state machine and
// its outbox events. test/transfers-e2e.test.ts runs the same flows against the real router and sandbox.

const logger = createLogger({ service: 'transfers-test', level: 'silent' });
const protos: AgentpayProtos = loadProtos();

/** The stand-in router: every call is recorded, and answers come from the current handler. */
const router = {
  submits: [] as SubmitPayoutRequest__Output[],
  inquiries: [] as InquirePayeeRequest__Output[],
  queries: [] as PayoutRef__Output[],
  onQuery: async (
    _ref: PayoutRef__Output,
  ): Promise<{ status: string; finished_at: string; route_id?: string; upstream_ref?: string }> => ({
    status: 'progress',
    finished_at: '',
  }),
  onSubmit: async (_req: SubmitPayoutRequest__Output): Promise<SubmitPayoutResponse> => ({
    route_id: 'route-a',
    status: 'progress',
    upstream_ref: 'up-1',
  }),
  onInquire: async (_req: InquirePayeeRequest__Output): Promise<{ status: string }> => ({ status: 'valid' }),
};

let database: TestDatabase;
let db: Kysely<Database>;
let routerServer: GrpcServerHandle;
let service: Transfers;
let client: TransferServiceClient;
const subjectPrefix = uniqueName('tt');

const merchant = (mchNo = 'M1') => ({
  mch_no: mchNo,
  app_id: 'app1',
  fee_percent_bps: 150,
  fee_fixed_centavos: '300',
  settle_type: 'REALTIME',
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
});
const CLABE = buildClabe('002', '010', '07777777777');

let seq = 0;
function transferRequest(overrides: Partial<CreateTransferRequest> = {}): CreateTransferRequest {
  seq++;
  return {
    merchant: merchant(),
    biz_transfer_no: `B${Date.now()}-${seq}`,
    amount: '100000',
    title: 'Payout',
    reason: 'refund',
    payee_type: 'spei_transfer',
    payee_account: CLABE,
    payee_name: 'Ana Perez',
    payee_code: '',
    notify_url: 'http://127.0.0.1:9/notify',
    ...overrides,
  };
}

const opts = { timeoutMs: 10_000 };
const create = (req: CreateTransferRequest) => call(client, client.CreateTransfer, req, opts);
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (err: unknown) => (err instanceof AppError ? err.codeName : String(err)),
  );

async function eventsOf(transferNo: string): Promise<OrderStatusChanged__Output[]> {
  const rows = await db
    .selectFrom('outbox')
    .select(['payload', 'subject', 'headers', 'id'])
    .orderBy('seq')
    .execute();
  return rows
    .map((r) => {
      expect(r.subject).toBe(`${subjectPrefix}.transfer.status_changed`);
      const payload = r.payload as OrderStatusChanged__Output;
      expect(payload.event_id).toBe(r.id);
      expect(r.headers).toEqual({ traceparent: payload.traceparent });
      return payload;
    })
    .filter((e) => e.order_no === transferNo);
}

beforeAll(async () => {
  database = await createTestDatabase('transfers_grpc');
  db = createDb<Database>(database.url);
  routerServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [
      [
        protos.agentpay.router.v1.UpstreamRouter.service,
        {
          SubmitPayout: unary(logger, async (req: SubmitPayoutRequest__Output) => {
            router.submits.push(req);
            return router.onSubmit(req);
          }),
          InquirePayee: unary(logger, async (req: InquirePayeeRequest__Output) => {
            router.inquiries.push(req);
            return router.onInquire(req);
          }),
          QueryPayout: unary(logger, async (ref: PayoutRef__Output) => {
            router.queries.push(ref);
            return router.onQuery(ref);
          }),
        },
      ],
    ],
  });
  service = await main({
    DATABASE_URL: database.url,
    NATS_URL: await natsUrl(),
    HOST: '127.0.0.1',
    GRPC_PORT: '0',
    METRICS_PORT: '0',
    ROUTER_ADDR: `127.0.0.1:${routerServer.port}`,
    ROUTER_TIMEOUT_MS: '1500',
    EVENTS_STREAM: uniqueName('TT').toUpperCase(),
    EVENTS_SUBJECT_PREFIX: subjectPrefix,
    SWEEP_INTERVAL_MS: '0',
    LOG_LEVEL: 'silent',
  });
  client = new protos.agentpay.transfers.v1.TransferService(
    `127.0.0.1:${service.grpcPort}`,
    grpc.credentials.createInsecure(),
  );
});

afterAll(async () => {
  client?.close();
  await service?.stop();
  await routerServer?.stop(0);
  await db?.destroy();
  await database?.drop();
});

beforeEach(() => {
  router.submits.length = 0;
  router.inquiries.length = 0;
  router.queries.length = 0;
  router.onQuery = async () => ({ status: 'progress', finished_at: '' });
  router.onSubmit = async () => ({ route_id: 'route-a', status: 'progress', upstream_ref: 'up-1' });
  router.onInquire = async () => ({ status: 'valid' });
});

describe('CreateTransfer', () => {
  it('creates a progress transfer with the fee of the merchant rate and the derived payee code', async () => {
    const { transfer, created } = await create(transferRequest());
    expect(created).toBe(true);
    expect(transfer).toMatchObject({
      status: 'progress',
      amount: '100000',
      // 1.5 % of 1000.00 plus 3.00
      fee: '1800',
      payee_code: '40002',
      mch_no: 'M1',
      app_id: 'app1',
      finish_time: '',
      version: '1',
    });
    expect(transfer?.transfer_no).toMatch(/^T\d{14}\d{12}$/);
    expect(router.submits).toEqual([
      expect.objectContaining({ transfer_no: transfer?.transfer_no, amount: '100000', payee_code: '40002' }),
    ]);
    const row = await db
      .selectFrom('transfers')
      .selectAll()
      .where('transfer_no', '=', transfer!.transfer_no)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ route_id: 'route-a', upstream_ref: 'up-1', submission: 'accepted' });
    // Creation is not a status change: nothing for the merchant's callback yet.
    expect(await eventsOf(transfer!.transfer_no)).toEqual([]);
  });

  it('numbers transfers so that later ones sort after earlier ones', async () => {
    const first = await create(transferRequest());
    const second = await create(transferRequest());
    expect(second.transfer!.transfer_no > first.transfer!.transfer_no).toBe(true);
    expect(second.transfer!.transfer_no.length).toBeLessThanOrEqual(32);
  });

  it('answers a repeat with the existing transfer and no second submission', async () => {
    const req = transferRequest();
    const first = await create(req);
    const again = await create({ ...req, merchant: { ...merchant(), traceparent: '' } });
    expect(again).toEqual({ ...first, created: false });
    expect(router.submits).toHaveLength(1);
  });

  it('treats an omitted payee code and the derived one as the same request', async () => {
    const req = transferRequest();
    await create(req);
    const again = await create({ ...req, payee_code: '40002' });
    expect(again.created).toBe(false);
  });

  it('refuses the same bizTransferNo with other parameters as DUPLICATE_TRANSFER', async () => {
    const req = transferRequest();
    await create(req);
    expect(await codeOf(create({ ...req, amount: '100001' }))).toBe('DUPLICATE_TRANSFER');
    expect(await codeOf(create({ ...req, attach: 'x' }))).toBe('DUPLICATE_TRANSFER');
    expect(router.submits).toHaveLength(1);
  });

  it('keeps two merchants apart: the same bizTransferNo makes one transfer each', async () => {
    const req = transferRequest();
    const a = await create(req);
    const b = await create({ ...req, merchant: merchant('M2') });
    expect(b.created).toBe(true);
    expect(b.transfer!.transfer_no).not.toBe(a.transfer!.transfer_no);
  });

  it('creates exactly one transfer and one submission for 10 concurrent identical requests', async () => {
    router.onSubmit = async () => {
      await sleep(300);
      return { route_id: 'route-a', status: 'progress', upstream_ref: 'up-c' };
    };
    const req = transferRequest();
    const results = await Promise.all(Array.from({ length: 10 }, () => create(req)));
    expect(new Set(results.map((r) => r.transfer!.transfer_no)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(results.every((r) => r.transfer!.status === 'progress')).toBe(true);
    expect(router.submits).toHaveLength(1);
    const rows = await db
      .selectFrom('transfers')
      .select('transfer_no')
      .where('biz_transfer_no', '=', req.biz_transfer_no!)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses a bad account locally with INVALID_PAYEE_ACCOUNT, storing and sending nothing', async () => {
    const req = transferRequest({ payee_account: `${CLABE.slice(0, 17)}${(Number(CLABE[17]) + 1) % 10}` });
    expect(await codeOf(create(req))).toBe('INVALID_PAYEE_ACCOUNT');
    expect(await codeOf(create({ ...req, payee_account: CLABE, payee_code: '40012' }))).toBe(
      'INVALID_PAYEE_ACCOUNT',
    );
    expect(await codeOf(create({ ...req, payee_account: CLABE, payee_code: '012' }))).toBe(
      'PAYEE_CODE_NOT_AVAILABLE',
    );
    expect(await codeOf(create({ ...req, payee_type: 'paypal' }))).toBe('PAYEE_TYPE_NOT_AVAILABLE');
    expect(router.submits).toEqual([]);
    const stored = await db
      .selectFrom('transfers')
      .select('transfer_no')
      .where('biz_transfer_no', '=', req.biz_transfer_no!)
      .execute();
    expect(stored).toEqual([]);
  });

  it('creates a synchronously rejected transfer as fail, finished, with no event', async () => {
    router.onSubmit = async () => ({ route_id: 'route-a', status: 'fail', upstream_ref: 'up-r' });
    const { transfer } = await create(transferRequest());
    expect(transfer).toMatchObject({ status: 'fail', version: '1' });
    expect(transfer!.finish_time).not.toBe('');
    expect(await eventsOf(transfer!.transfer_no)).toEqual([]);
  });

  it('withdraws the submission when the router says nothing was created, so a retry can succeed', async () => {
    router.onSubmit = async () => {
      throw new AppError('UPSTREAM_UNAVAILABLE');
    };
    const req = transferRequest();
    expect(await codeOf(create(req))).toBe('UPSTREAM_UNAVAILABLE');
    router.onSubmit = async () => {
      throw new AppError('NO_UPSTREAM_ROUTE');
    };
    expect(await codeOf(create(req))).toBe('NO_UPSTREAM_ROUTE');
    router.onSubmit = async () => ({ route_id: 'route-a', status: 'progress', upstream_ref: 'up-2' });
    const retried = await create(req);
    expect(retried).toMatchObject({ created: true, transfer: { status: 'progress' } });
    expect(router.submits).toHaveLength(3);
  });

  it('keeps a transfer whose submission timed out as progress with an unknown outcome', async () => {
    router.onSubmit = async () => {
      await sleep(2_500);
      return { route_id: 'route-a', status: 'progress', upstream_ref: 'late' };
    };
    const req = transferRequest();
    const { transfer } = await create(req);
    expect(transfer!.status).toBe('progress');
    const row = await db
      .selectFrom('transfers')
      .selectAll()
      .where('transfer_no', '=', transfer!.transfer_no)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ submission: 'unknown', route_id: null });
    // A retry must not pay twice.
    expect((await create(req)).created).toBe(false);
    expect(router.submits).toHaveLength(1);
  });

  it('answers SERVICE_UNAVAILABLE and stores nothing when the router cannot be reached', async () => {
    const unreachable = connectRouter('127.0.0.1:1');
    const direct = createTransferService({
      db,
      router: unreachable,
      logger,
      subject: 'unused',
      routerTimeoutMs: 1_000,
    });
    const req = transferRequest();
    try {
      await expect(direct.create(req as never, Date.now() + 5_000)).rejects.toMatchObject({
        codeName: 'SERVICE_UNAVAILABLE',
      });
    } finally {
      unreachable.close();
    }
    const stored = await db
      .selectFrom('transfers')
      .select('transfer_no')
      .where('biz_transfer_no', '=', req.biz_transfer_no!)
      .execute();
    expect(stored).toEqual([]);
  });
});

describe('GetTransfer', () => {
  it('finds a transfer by either identifier, both only when they match, and only for its merchant', async () => {
    const { transfer } = await create(transferRequest());
    const t = transfer!;
    const get = (ref: { transfer_no?: string; biz_transfer_no?: string }, mchNo = 'M1') =>
      call(client, client.GetTransfer, { merchant: merchant(mchNo), ...ref }, opts);
    expect(await get({ transfer_no: t.transfer_no })).toEqual(t);
    expect(await get({ biz_transfer_no: t.biz_transfer_no })).toEqual(t);
    expect(await get({ transfer_no: t.transfer_no, biz_transfer_no: t.biz_transfer_no })).toEqual(t);
    expect(await codeOf(get({ transfer_no: t.transfer_no, biz_transfer_no: 'other' }))).toBe(
      'TRANSFER_NOT_FOUND',
    );
    expect(await codeOf(get({ transfer_no: t.transfer_no }, 'M2'))).toBe('TRANSFER_NOT_FOUND');
    expect(await codeOf(get({ biz_transfer_no: t.biz_transfer_no }, 'M2'))).toBe('TRANSFER_NOT_FOUND');
  });

  it('does not show a transfer still being submitted', async () => {
    let release = () => {};
    router.onSubmit = () =>
      new Promise((resolve) => {
        release = () => resolve({ route_id: 'route-a', status: 'progress', upstream_ref: 'x' });
      });
    const req = transferRequest();
    const pending = create(req);
    await sleep(300);
    expect(
      await codeOf(
        call(
          client,
          client.GetTransfer,
          { merchant: merchant(), biz_transfer_no: req.biz_transfer_no },
          opts,
        ),
      ),
    ).toBe('TRANSFER_NOT_FOUND');
    release();
    await pending;
  });
});

describe('ApplyUpstreamPayout', () => {
  const apply = (transferNo: string, status: string, extra: Record<string, string> = {}) =>
    call(client, client.ApplyUpstreamPayout, { transfer_no: transferNo, status, ...extra }, opts);

  it('moves progress to success once, with one event carrying the transfer as GetTransfer returns it', async () => {
    const { transfer } = await create(transferRequest());
    const finishedAt = new Date(Date.now() - 1_000).toISOString();
    const first = await apply(transfer!.transfer_no, 'success', { finished_at: finishedAt, notice_id: 'n1' });
    const repeat = await apply(transfer!.transfer_no, 'success', { notice_id: 'n1' });
    expect(first).toMatchObject({ changed: true, transfer: { status: 'success', version: '2' } });
    expect(first.transfer!.finish_time).toBe(finishedAt);
    expect(repeat).toEqual({ ...first, changed: false });

    const current = await call(
      client,
      client.GetTransfer,
      { merchant: merchant(), transfer_no: transfer!.transfer_no },
      opts,
    );
    const events = await eventsOf(transfer!.transfer_no);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'transfer',
      mch_no: 'M1',
      app_id: 'app1',
      order_no: transfer!.transfer_no,
      from_status: 'progress',
      to_status: 'success',
      version: '2',
      notify_url: 'http://127.0.0.1:9/notify',
    });
    expect(events[0]!.transfer).toEqual(current);
    expect(events[0]!.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });

  it('moves progress to fail', async () => {
    const { transfer } = await create(transferRequest());
    expect(await apply(transfer!.transfer_no, 'fail')).toMatchObject({
      changed: true,
      transfer: { status: 'fail' },
    });
    expect((await eventsOf(transfer!.transfer_no)).map((e) => e.to_status)).toEqual(['fail']);
  });

  it('closes a successful transfer that is returned, with its own event', async () => {
    const { transfer } = await create(transferRequest());
    await apply(transfer!.transfer_no, 'success');
    const returned = await apply(transfer!.transfer_no, 'returned');
    expect(returned).toMatchObject({ changed: true, transfer: { status: 'close', version: '3' } });
    expect((await apply(transfer!.transfer_no, 'returned')).changed).toBe(false);
    const events = await eventsOf(transfer!.transfer_no);
    expect(events.map((e) => [e.from_status, e.to_status, e.version])).toEqual([
      ['progress', 'success', '2'],
      ['success', 'close', '3'],
    ]);
  });

  it('takes a return reported while still in progress as success then close: two events', async () => {
    const { transfer } = await create(transferRequest());
    const returned = await apply(transfer!.transfer_no, 'returned');
    expect(returned).toMatchObject({ changed: true, transfer: { status: 'close', version: '3' } });
    const events = await eventsOf(transfer!.transfer_no);
    expect(events.map((e) => [e.from_status, e.to_status])).toEqual([
      ['progress', 'success'],
      ['success', 'close'],
    ]);
    expect(events[0]!.transfer?.status).toBe('success');
    expect(events[1]!.transfer?.status).toBe('close');
  });

  it('ignores an outcome that contradicts a final status and answers OK', async () => {
    const { transfer } = await create(transferRequest());
    await apply(transfer!.transfer_no, 'fail');
    expect(await apply(transfer!.transfer_no, 'success')).toMatchObject({
      changed: false,
      transfer: { status: 'fail' },
    });
    expect(await apply(transfer!.transfer_no, 'returned')).toMatchObject({ changed: false });
    expect(await eventsOf(transfer!.transfer_no)).toHaveLength(1);
  });

  it('applies concurrent duplicate notices once', async () => {
    const { transfer } = await create(transferRequest());
    const results = await Promise.all(
      Array.from({ length: 6 }, () => apply(transfer!.transfer_no, 'success')),
    );
    expect(results.filter((r) => r.changed)).toHaveLength(1);
    expect(await eventsOf(transfer!.transfer_no)).toHaveLength(1);
  });

  it('waits for a submission in flight before applying its outcome', async () => {
    let release = () => {};
    router.onSubmit = (req) =>
      new Promise((resolve) => {
        release = () => resolve({ route_id: 'route-a', status: 'progress', upstream_ref: req.transfer_no });
      });
    const creating = create(transferRequest());
    await sleep(300);
    const transferNo = router.submits[0]!.transfer_no;
    const applying = apply(transferNo, 'success');
    await sleep(200);
    release();
    const [created, applied] = await Promise.all([creating, applying]);
    expect(created.transfer!.status).toBe('progress');
    expect(applied).toMatchObject({ changed: true, transfer: { status: 'success' } });
  });

  it('answers TRANSFER_NOT_FOUND for an unknown transfer and INVALID_PARAMETER for an unknown status', async () => {
    expect(await codeOf(apply('T0000', 'success'))).toBe('TRANSFER_NOT_FOUND');
    const { transfer } = await create(transferRequest());
    expect(await codeOf(apply(transfer!.transfer_no, 'paid'))).toBe('INVALID_PARAMETER');
  });
});

describe('the submission sweep', () => {
  it('turns a submission abandoned by a crash into progress with an unknown outcome', async () => {
    const unreachable = connectRouter('127.0.0.1:1');
    const direct = createTransferService({
      db,
      router: unreachable,
      logger,
      subject: 'unused',
      routerTimeoutMs: 1_000,
    });
    const { transfer } = await create(transferRequest());
    // As if the process died between inserting the row and hearing from the router.
    await sql`update transfers set status = 'submitting', submission = 'pending', version = 0,
      created_at = now() - interval '10 minutes' where transfer_no = ${transfer!.transfer_no}`.execute(db);
    expect(await direct.sweepStaleSubmissions(60_000)).toBeGreaterThanOrEqual(1);
    unreachable.close();
    const row = await db
      .selectFrom('transfers')
      .selectAll()
      .where('transfer_no', '=', transfer!.transfer_no)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'progress', submission: 'unknown', version: 1 });
  });
});

/** The service in this process on the stand-in router, so a test runs its sweeps by hand. */
function directService() {
  const stubRouter = connectRouter(`127.0.0.1:${routerServer.port}`);
  const direct = createTransferService({
    db,
    router: stubRouter,
    logger,
    subject: `${subjectPrefix}.transfer.status_changed`,
    routerTimeoutMs: 1_000,
  });
  return { direct, stubRouter };
}

describe('reconciliation', () => {
  const backdate = (transferNo: string) =>
    sql`update transfers set updated_at = now() - interval '10 minutes' where transfer_no = ${transferNo}`.execute(
      db,
    );

  it('asks upstream about a transfer long in progress and applies its final answer with one event', async () => {
    const { direct, stubRouter } = directService();
    try {
      const { transfer } = await create(transferRequest());
      const transferNo = transfer!.transfer_no;
      await backdate(transferNo);
      router.onQuery = async () => ({ status: 'fail', finished_at: '' });
      expect(await direct.reconcileProgress(60_000)).toBe(1);
      expect(router.queries).toEqual([
        expect.objectContaining({ route_id: 'route-a', transfer_no: transferNo, upstream_ref: 'up-1' }),
      ]);
      expect((await eventsOf(transferNo)).map((e) => [e.from_status, e.to_status])).toEqual([
        ['progress', 'fail'],
      ]);
    } finally {
      stubRouter.close();
    }
  });

  it('leaves a transfer upstream still has in progress alone and does not ask again at once', async () => {
    const { direct, stubRouter } = directService();
    try {
      const { transfer } = await create(transferRequest());
      await backdate(transfer!.transfer_no);
      expect(await direct.reconcileProgress(60_000)).toBe(0);
      expect(await direct.reconcileProgress(60_000)).toBe(0);
      expect(router.queries.filter((q) => q.transfer_no === transfer!.transfer_no)).toHaveLength(1);
      expect(await eventsOf(transfer!.transfer_no)).toEqual([]);
    } finally {
      stubRouter.close();
    }
  });
});

describe('reconciliation of a transfer whose submission answer was lost', () => {
  it('asks the router with no route, records the route that holds the payout, and applies its answer', async () => {
    const { direct, stubRouter } = directService();
    try {
      const { transfer } = await create(transferRequest());
      const transferNo = transfer!.transfer_no;
      // As left by a router that died mid-submission: progress, outcome unknown, no route.
      await sql`update transfers set submission = 'unknown', route_id = null, upstream_ref = null,
        updated_at = now() - interval '10 minutes' where transfer_no = ${transferNo}`.execute(db);
      router.onQuery = async (ref) =>
        ref.transfer_no === transferNo
          ? { status: 'success', finished_at: '', route_id: 'route-b', upstream_ref: 'up-9' }
          : { status: 'progress', finished_at: '' };
      await direct.reconcileProgress(60_000);
      expect(router.queries.filter((q) => q.transfer_no === transferNo)).toEqual([
        expect.objectContaining({ route_id: '', upstream_ref: '' }),
      ]);
      const row = await db
        .selectFrom('transfers')
        .selectAll()
        .where('transfer_no', '=', transferNo)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'success', route_id: 'route-b', upstream_ref: 'up-9' });
      expect((await eventsOf(transferNo)).map((e) => [e.from_status, e.to_status])).toEqual([
        ['progress', 'success'],
      ]);
    } finally {
      router.onQuery = async () => ({ status: 'progress', finished_at: '' });
      stubRouter.close();
    }
  });
});

describe('Inquire', () => {
  const inquire = (over: Record<string, unknown> = {}) =>
    call(
      client,
      client.Inquire,
      {
        merchant: merchant(),
        biz_inqury_no: 'Q1',
        payee_type: 'spei_transfer',
        payee_account: CLABE,
        payee_name: 'Ana',
        ...over,
      },
      opts,
    );

  it('answers the router verdict with the derived code sent upstream, and stores it', async () => {
    const biz = uniqueName('q');
    const first = await inquire({ biz_inqury_no: biz });
    expect(first).toMatchObject({
      biz_inqury_no: biz,
      status: 'valid',
      account_valid: true,
      upload_payee_name: 'Ana',
    });
    expect(first.inqury_no).toMatch(/^I\d{26}$/);
    expect(router.inquiries).toEqual([expect.objectContaining({ payee_code: '40002', mch_no: 'M1' })]);
    router.onInquire = async () => ({ status: 'invalid' });
    expect(await inquire({ biz_inqury_no: biz })).toEqual(first);
    expect(router.inquiries).toHaveLength(1);
    expect(await codeOf(inquire({ biz_inqury_no: biz, payee_name: 'Other' }))).toBe('DUPLICATE_INQUIRY');
  });

  it('answers unknown as not valid', async () => {
    router.onInquire = async () => ({ status: 'unknown' });
    expect(await inquire({ biz_inqury_no: uniqueName('q') })).toMatchObject({
      status: 'unknown',
      account_valid: false,
    });
  });

  it('answers invalid for a bad account format without asking upstream', async () => {
    const result = await inquire({ biz_inqury_no: uniqueName('q'), payee_account: '002010077777777772' });
    expect(result).toMatchObject({ status: 'invalid', account_valid: false });
    expect(router.inquiries).toEqual([]);
  });

  it('stores nothing when the router fails, so the same bizInquryNo can be retried', async () => {
    const biz = uniqueName('q');
    router.onInquire = async () => {
      throw new AppError('UPSTREAM_UNAVAILABLE');
    };
    expect(await codeOf(inquire({ biz_inqury_no: biz }))).toBe('UPSTREAM_UNAVAILABLE');
    router.onInquire = async () => ({ status: 'valid' });
    expect(await inquire({ biz_inqury_no: biz })).toMatchObject({ status: 'valid' });
  });

  it('answers concurrent identical inquiries with one stored result', async () => {
    const biz = uniqueName('q');
    router.onInquire = async () => {
      await sleep(100);
      return { status: 'valid' };
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => inquire({ biz_inqury_no: biz })));
    expect(new Set(results.map((r) => r.inqury_no)).size).toBe(1);
  });

  it('refuses an unknown payee type or a raw code as errors, not as invalid', async () => {
    expect(await codeOf(inquire({ biz_inqury_no: uniqueName('q'), payee_type: 'paypal' }))).toBe(
      'PAYEE_TYPE_NOT_AVAILABLE',
    );
    expect(await codeOf(inquire({ biz_inqury_no: uniqueName('q'), payee_code: '012' }))).toBe(
      'PAYEE_CODE_NOT_AVAILABLE',
    );
  });
});
