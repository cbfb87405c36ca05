import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDb } from '@agentpay/db';
import { createLogger } from '@agentpay/logger';
import {
  ackedThrough,
  connectNats,
  type NatsConnection,
  noticeSubject,
  publishEvent,
} from '@agentpay/messaging';
import {
  type AgentpayProtos,
  type CreateTransferRequest,
  call,
  type FreezeRequest__Output,
  type GrpcServerHandle,
  type InquirePayeeRequest__Output,
  loadProtos,
  type NoticeReceived,
  type OrderStatusChanged__Output,
  type PayoutNotice,
  type PayoutRef__Output,
  type SubmitPayoutRequest__Output,
  type SubmitPayoutResponse,
  startGrpcServer,
  type TransferServiceClient,
  unary,
  type VoidFreezeRequest__Output,
} from '@agentpay/proto';
import { buildClabe } from '@agentpay/spei';
import { createTestDatabase, natsUrl, type TestDatabase, uniqueName, waitFor } from '@agentpay/testing';
import { AppError } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema.js';
import { connectLedger } from '../src/ledger/ledger.client.js';
import { main, type Transfers } from '../src/main.js';
import { decodePayoutNotice } from '../src/notices/notice.consumer.js';
import { toTransfer } from '../src/transfers/transfer.mapper.js';
import { createTransferService } from '../src/transfers/transfer.service.js';
import type { UpstreamOutcome } from '../src/transfers/transfer.state-machine.js';
import { connectRouter } from '../src/upstream/router.client.js';

/** A client of the stand-in ledger, for services built in this process. */
const stubLedger = () => connectLedger(`127.0.0.1:${routerServer.port}`);

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
  ): Promise<{
    status: string;
    finished_at: string;
    route_id?: string;
    upstream_ref?: string;
    clave_rastreo?: string;
  }> => ({
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

/**
 * The stand-in ledger: holds by transfer number and one available balance per merchant (plenty unless a
 * test sets it), so a test sees what was frozen and voided, and can make the ledger fail.
 */
const ledger = {
  available: new Map<string, number>(),
  holds: new Map<string, { mchNo: string; amount: number; status: 'frozen' | 'void' }>(),
  calls: [] as string[],
  fail: undefined as AppError | undefined,
  failVoid: undefined as AppError | undefined,
  balanceOf(mchNo: string): number {
    return ledger.available.get(mchNo) ?? 1_000_000_000;
  },
  frozen(): string[] {
    return [...ledger.holds].filter(([, h]) => h.status === 'frozen').map(([no]) => no);
  },
};

let database: TestDatabase;
let db: Kysely<Database>;
let routerServer: GrpcServerHandle;
let service: Transfers;
let client: TransferServiceClient;
const subjectPrefix = uniqueName('tt');
const stream = uniqueName('TT').toUpperCase();

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
      [
        protos.agentpay.ledger.v1.LedgerService.service,
        {
          Freeze: unary(logger, async (req: FreezeRequest__Output) => {
            ledger.calls.push(`freeze ${req.transfer_no}`);
            if (ledger.fail) throw ledger.fail;
            const held = ledger.holds.get(req.transfer_no);
            if (held?.status === 'void') throw new AppError('DUPLICATE_TRANSFER');
            if (held) return { created: false };
            const total = Number(req.amount) + Number(req.fee);
            if (ledger.balanceOf(req.mch_no) < total) throw new AppError('INSUFFICIENT_BALANCE');
            ledger.available.set(req.mch_no, ledger.balanceOf(req.mch_no) - total);
            ledger.holds.set(req.transfer_no, { mchNo: req.mch_no, amount: total, status: 'frozen' });
            return { created: true };
          }),
          VoidFreeze: unary(logger, async (req: VoidFreezeRequest__Output) => {
            ledger.calls.push(`void ${req.transfer_no}`);
            if (ledger.failVoid) throw ledger.failVoid;
            const held = ledger.holds.get(req.transfer_no);
            if (held?.status === 'frozen')
              ledger.available.set(held.mchNo, ledger.balanceOf(held.mchNo) + held.amount);
            ledger.holds.set(req.transfer_no, { mchNo: req.mch_no, amount: 0, status: 'void' });
            return { released: true, hold_status: 'void' };
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
    LEDGER_ADDR: `127.0.0.1:${routerServer.port}`,
    LEDGER_TIMEOUT_MS: '1000',
    EVENTS_STREAM: stream,
    EVENTS_SUBJECT_PREFIX: subjectPrefix,
    SWEEP_INTERVAL_MS: '0',
    NOTICE_RETRY_DELAY_MS: '50',
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
  ledger.available.clear();
  ledger.calls.length = 0;
  ledger.fail = undefined;
  ledger.failVoid = undefined;
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
      ledger: stubLedger(),
      ledgerTimeoutMs: 1_000,
    });
    const req = transferRequest();
    try {
      const merchant = { mchNo: 'M1', appId: 'app1', feeRate: { percentBps: 150, fixedCentavos: 300 } };
      const transfer = {
        bizTransferNo: req.biz_transfer_no!,
        amount: Number(req.amount),
        title: req.title ?? '',
        reason: req.reason ?? '',
        payeeType: req.payee_type ?? '',
        payeeAccount: req.payee_account ?? '',
        payeeName: req.payee_name ?? '',
        payeeCode: req.payee_code ?? '',
        extraParam: '',
        attach: '',
        notifyUrl: req.notify_url ?? '',
      };
      const context = { traceparent: '', clientIp: '', deadline: Date.now() + 5_000 };
      await expect(direct.create(merchant, transfer, context)).rejects.toMatchObject({
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
    await waitFor(() => router.submits.length > 0);
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

describe('payout notices, applied by the use case', () => {
  let direct: ReturnType<typeof directService>;
  beforeAll(() => {
    direct = directService();
  });
  afterAll(() => direct?.stubRouter.close());
  const apply = (
    transferNo: string,
    status: UpstreamOutcome,
    extra: { finished_at?: string; notice_id?: string; clave_rastreo?: string } = {},
  ) =>
    direct.direct
      .applyNotice({
        transferNo,
        status,
        finishedAt: extra.finished_at ? new Date(extra.finished_at) : undefined,
        noticeId: extra.notice_id ?? '',
        claveRastreo: extra.clave_rastreo ?? '',
        traceparent: '',
      })
      .then(({ transfer, changed }) => ({ transfer: toTransfer(transfer), changed }));

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
    const { transfer_no: transferNo } = await waitFor(() => router.submits[0]);
    const applying = apply(transferNo, 'success');
    // A head start for the apply to find the transfer still submitting; its polling shows nowhere to
    // wait on, and if it comes late the test still passes, proving less.
    await sleep(200);
    release();
    const [created, applied] = await Promise.all([creating, applying]);
    expect(created.transfer!.status).toBe('progress');
    expect(applied).toMatchObject({ changed: true, transfer: { status: 'success' } });
  });

  it('answers TRANSFER_NOT_FOUND for an unknown transfer, and reads no notice with an unknown status', async () => {
    expect(await codeOf(apply('T0000', 'success'))).toBe('TRANSFER_NOT_FOUND');
    const { transfer } = await create(transferRequest());
    const event = (status: string) =>
      JSON.stringify({ notice_id: 'n', payout: { transfer_no: transfer!.transfer_no, status } });
    expect(decodePayoutNotice(event('paid'))).toBeUndefined();
    expect(decodePayoutNotice(event('returned'))).toMatchObject({
      status: 'returned',
      finishedAt: undefined,
      claveRastreo: '',
    });
  });
});

describe('payout notices, consumed from the stream', () => {
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connectNats(await natsUrl(), { name: 'transfers-test' });
  });
  afterAll(() => nc?.close());

  /** Publishes a payout notice as the router does; resolves once transfers applied (or dropped) it. */
  async function notify(payout: PayoutNotice, noticeId = 'n1'): Promise<void> {
    const event: NoticeReceived & { event_id: string } = {
      event_id: randomUUID(),
      notice_id: noticeId,
      received_at: new Date().toISOString(),
      traceparent: '',
      notice: 'payout',
      payout,
    };
    const seq = await publishEvent(nc, noticeSubject(subjectPrefix, 'payout'), event);
    await waitFor(async () => (await ackedThrough(nc, stream, 'transfers-notices')) >= seq);
  }

  async function dropped(reason: string): Promise<number> {
    const text = await (await fetch(`http://127.0.0.1:${service.metricsPort}/metrics`)).text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith('notices_dropped_total{') && l.includes(`reason="${reason}"`));
    return Number(line?.split(' ').at(-1) ?? 0);
  }

  it('applies a returned payout once, however often its notice is delivered', async () => {
    const { transfer } = await create(transferRequest());
    await notify({ transfer_no: transfer!.transfer_no, status: 'returned' });
    await notify({ transfer_no: transfer!.transfer_no, status: 'returned' });
    const events = await eventsOf(transfer!.transfer_no);
    expect(events.map((e) => [e.from_status, e.to_status])).toEqual([
      ['progress', 'success'],
      ['success', 'close'],
    ]);
  });

  it("stores the payout's tracking key a notice carries, shown by GetTransfer and the status event", async () => {
    const { transfer } = await create(transferRequest());
    await notify(
      { transfer_no: transfer!.transfer_no, status: 'success', clave_rastreo: 'AGPSTREAM000000001' },
      'n-key',
    );
    const current = await call(
      client,
      client.GetTransfer,
      { merchant: merchant(), transfer_no: transfer!.transfer_no },
      opts,
    );
    expect(current).toMatchObject({ status: 'success', clave_rastreo: 'AGPSTREAM000000001' });
    const [event] = await eventsOf(transfer!.transfer_no);
    expect(event!.transfer).toEqual(current);
  });

  it('drops a notice for an unknown transfer after a few tries, and one it cannot read at once', async () => {
    const [unknown, unreadable] = [await dropped('unknown_target'), await dropped('unreadable')];
    await notify({ transfer_no: 'T0000', status: 'success' });
    await notify({ transfer_no: 'T0001', status: 'paid' });
    expect(await dropped('unknown_target')).toBe(unknown + 1);
    expect(await dropped('unreadable')).toBe(unreadable + 1);
  });
});

describe('the submission sweep', () => {
  const sweeper = () =>
    createTransferService({
      db,
      router: connectRouter('127.0.0.1:1'),
      logger,
      subject: 'unused',
      routerTimeoutMs: 1_000,
      ledger: stubLedger(),
      ledgerTimeoutMs: 1_000,
    });
  const rowOf = (transferNo: string) =>
    db.selectFrom('transfers').selectAll().where('transfer_no', '=', transferNo).executeTakeFirst();

  it('turns a submission abandoned after it was sent into progress with an unknown outcome, keeping its freeze', async () => {
    const { transfer } = await create(transferRequest());
    // As if the process died between sending the payout and hearing from the router.
    await sql`update transfers set status = 'submitting', submission = 'sent', version = 0,
      created_at = now() - interval '10 minutes' where transfer_no = ${transfer!.transfer_no}`.execute(db);
    expect(await sweeper().sweepStaleSubmissions(60_000)).toBeGreaterThanOrEqual(1);
    expect(await rowOf(transfer!.transfer_no)).toMatchObject({
      status: 'progress',
      submission: 'unknown',
      version: 1,
    });
    expect(ledger.frozen()).toContain(transfer!.transfer_no);
  });

  it('voids the freeze of a submission abandoned before it was sent, then removes it', async () => {
    const { transfer } = await create(transferRequest());
    await sql`update transfers set status = 'submitting', submission = 'pending', version = 0,
      created_at = now() - interval '10 minutes' where transfer_no = ${transfer!.transfer_no}`.execute(db);
    ledger.failVoid = new AppError('SERVICE_UNAVAILABLE');
    await sweeper().sweepStaleSubmissions(60_000);
    // The ledger could not void it: the row stays, claimed for voiding, and the freeze with it.
    expect(await rowOf(transfer!.transfer_no)).toMatchObject({ submission: 'voiding' });
    expect(ledger.frozen()).toContain(transfer!.transfer_no);
    ledger.failVoid = undefined;
    expect(await sweeper().sweepStaleSubmissions(60_000)).toBeGreaterThanOrEqual(1);
    expect(await rowOf(transfer!.transfer_no)).toBeUndefined();
    expect(ledger.holds.get(transfer!.transfer_no)?.status).toBe('void');
  });
});

describe('freezing through the ledger', () => {
  const holdOf = (transferNo: string) => ledger.holds.get(transferNo)?.status;

  it('freezes amount + fee before the router is called', async () => {
    ledger.available.set('M1', 1_000_000);
    const { transfer } = await create(transferRequest({ amount: '100000' }));
    // fee: 1.5 % of 1,000.00 + 3.00 = 18.00
    expect(ledger.available.get('M1')).toBe(1_000_000 - 100_000 - 1_800);
    expect(holdOf(transfer!.transfer_no)).toBe('frozen');
    expect(ledger.calls).toEqual([`freeze ${transfer!.transfer_no}`]);
  });

  it('answers INSUFFICIENT_BALANCE and creates nothing when the freeze does not fit; the key succeeds once funded', async () => {
    ledger.available.set('M1', 100_000);
    const req = transferRequest({ amount: '100000' });
    expect(await codeOf(create(req))).toBe('INSUFFICIENT_BALANCE');
    expect(router.submits).toHaveLength(0);
    const rows = await db
      .selectFrom('transfers')
      .select('transfer_no')
      .where('biz_transfer_no', '=', req.biz_transfer_no!)
      .execute();
    expect(rows).toEqual([]);
    ledger.available.set('M1', 101_800);
    expect(await create(req)).toMatchObject({ created: true, transfer: { status: 'progress' } });
    expect(ledger.available.get('M1')).toBe(0);
  });

  it('answers SERVICE_UNAVAILABLE when the ledger fails, and removes the row only after voiding the freeze', async () => {
    ledger.fail = new AppError('SERVICE_UNAVAILABLE');
    const req = transferRequest();
    expect(await codeOf(create(req))).toBe('SERVICE_UNAVAILABLE');
    expect(router.submits).toHaveLength(0);
    const [freeze, voided] = ledger.calls;
    expect(freeze).toMatch(/^freeze T/);
    expect(voided).toBe(freeze!.replace('freeze', 'void'));
    const transferNo = freeze!.slice('freeze '.length);
    expect(
      await db.selectFrom('transfers').select('transfer_no').where('transfer_no', '=', transferNo).execute(),
    ).toEqual([]);
    ledger.fail = undefined;
    expect(await create(req)).toMatchObject({ created: true });
  });

  it('keeps the row for the sweep when neither Freeze nor VoidFreeze can be answered', async () => {
    ledger.fail = new AppError('SERVICE_UNAVAILABLE');
    ledger.failVoid = new AppError('SERVICE_UNAVAILABLE');
    const req = transferRequest();
    expect(await codeOf(create(req))).toBe('SERVICE_UNAVAILABLE');
    const row = await db
      .selectFrom('transfers')
      .selectAll()
      .where('biz_transfer_no', '=', req.biz_transfer_no!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'submitting', submission: 'voiding' });
    expect(router.submits).toHaveLength(0);
  });

  it('voids the freeze before withdrawing a submission the router refused', async () => {
    router.onSubmit = async () => {
      throw new AppError('NO_UPSTREAM_ROUTE');
    };
    expect(await codeOf(create(transferRequest()))).toBe('NO_UPSTREAM_ROUTE');
    const transferNo = ledger.calls[0]!.slice('freeze '.length);
    expect(ledger.calls).toEqual([`freeze ${transferNo}`, `void ${transferNo}`]);
    expect(holdOf(transferNo)).toBe('void');
  });

  it('withdraws a payout rejected synchronously whose freeze cannot be voided, leaving it to the sweep', async () => {
    router.onSubmit = async () => ({ route_id: 'route-a', status: 'fail', upstream_ref: 'up-r' });
    ledger.failVoid = new AppError('SERVICE_UNAVAILABLE');
    const req = transferRequest();
    expect(await codeOf(create(req))).toBe('SERVICE_UNAVAILABLE');
    const row = await db
      .selectFrom('transfers')
      .selectAll()
      .where('biz_transfer_no', '=', req.biz_transfer_no!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'submitting', submission: 'voiding' });
    expect(ledger.frozen()).toContain(row.transfer_no);
  });

  it('voids the freeze of a payout rejected synchronously, which is created as fail without an event', async () => {
    router.onSubmit = async () => ({ route_id: 'route-a', status: 'fail', upstream_ref: 'up-r' });
    const { transfer } = await create(transferRequest());
    expect(transfer!.status).toBe('fail');
    expect(holdOf(transfer!.transfer_no)).toBe('void');
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
    ledger: stubLedger(),
    ledgerTimeoutMs: 1_000,
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

describe('the SPEI tracking key (claveRastreo)', () => {
  let direct: ReturnType<typeof directService>;
  beforeAll(() => {
    direct = directService();
  });
  afterAll(() => direct?.stubRouter.close());
  const notice = (transferNo: string, status: UpstreamOutcome, claveRastreo = '') =>
    direct.direct.applyNotice({
      transferNo,
      status,
      finishedAt: undefined,
      noticeId: '',
      claveRastreo,
      traceparent: '',
    });
  const get = (transferNo: string) =>
    call(client, client.GetTransfer, { merchant: merchant(), transfer_no: transferNo }, opts);

  it('shows the key the submission answer carried in the create answer, the query and later events', async () => {
    router.onSubmit = async () => ({
      route_id: 'route-a',
      status: 'progress',
      upstream_ref: 'up-k',
      clave_rastreo: 'AGPSUBMIT000000001',
    });
    const { transfer } = await create(transferRequest());
    expect(transfer).toMatchObject({ status: 'progress', clave_rastreo: 'AGPSUBMIT000000001' });
    expect(await get(transfer!.transfer_no)).toEqual(transfer);
    // The success notice says nothing of the key: the event still shows it.
    await notice(transfer!.transfer_no, 'success');
    const [event] = await eventsOf(transfer!.transfer_no);
    expect(event!.transfer).toMatchObject({ status: 'success', clave_rastreo: 'AGPSUBMIT000000001' });
  });

  it('shows the key of a synchronously rejected payout', async () => {
    router.onSubmit = async () => ({
      route_id: 'route-a',
      status: 'fail',
      upstream_ref: 'up-r',
      clave_rastreo: 'AGPREJECT000000001',
    });
    const { transfer } = await create(transferRequest());
    expect(transfer).toMatchObject({ status: 'fail', clave_rastreo: 'AGPREJECT000000001' });
  });

  it('takes the key from a notice into the status event, and a later notice without one keeps it', async () => {
    const { transfer } = await create(transferRequest());
    expect(transfer!.clave_rastreo).toBe('');
    const transferNo = transfer!.transfer_no;
    await notice(transferNo, 'success', 'AGPNOTICE000000001');
    await notice(transferNo, 'returned');
    const events = await eventsOf(transferNo);
    expect(events.map((e) => [e.to_status, e.transfer?.clave_rastreo])).toEqual([
      ['success', 'AGPNOTICE000000001'],
      ['close', 'AGPNOTICE000000001'],
    ]);
    expect(await get(transferNo)).toMatchObject({ status: 'close', clave_rastreo: 'AGPNOTICE000000001' });
  });

  it('records a key a repeated notice brings without an event, and keeps the first key against another', async () => {
    const { transfer } = await create(transferRequest());
    const transferNo = transfer!.transfer_no;
    await notice(transferNo, 'success');
    const repeat = await notice(transferNo, 'success', 'AGPLATE0000000001');
    expect(repeat.changed).toBe(false);
    expect(repeat.transfer.clave_rastreo).toBe('AGPLATE0000000001');
    await notice(transferNo, 'success', 'AGPOTHER000000001');
    expect(await get(transferNo)).toMatchObject({ version: '2', clave_rastreo: 'AGPLATE0000000001' });
    expect(await eventsOf(transferNo)).toHaveLength(1);
  });

  it('takes the key from a reconciliation query, while the payout is in flight and when it finished', async () => {
    const { transfer } = await create(transferRequest());
    const transferNo = transfer!.transfer_no;
    const backdate = () =>
      sql`update transfers set updated_at = now() - interval '10 minutes', checked_at = null
        where transfer_no = ${transferNo}`.execute(db);
    try {
      await backdate();
      router.onQuery = async (ref) =>
        ref.transfer_no === transferNo
          ? { status: 'progress', finished_at: '', clave_rastreo: 'AGPQUERY000000001' }
          : { status: 'progress', finished_at: '' };
      await direct.direct.reconcileProgress(60_000);
      expect(await get(transferNo)).toMatchObject({
        status: 'progress',
        version: '1',
        clave_rastreo: 'AGPQUERY000000001',
      });
      expect(await eventsOf(transferNo)).toEqual([]);

      // The final answer without the key: the transfer keeps it, and its event shows it.
      await backdate();
      router.onQuery = async (ref) =>
        ref.transfer_no === transferNo
          ? { status: 'success', finished_at: '' }
          : { status: 'progress', finished_at: '' };
      await direct.direct.reconcileProgress(60_000);
      const [event] = await eventsOf(transferNo);
      expect(event!.transfer).toMatchObject({ status: 'success', clave_rastreo: 'AGPQUERY000000001' });
    } finally {
      router.onQuery = async () => ({ status: 'progress', finished_at: '' });
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
