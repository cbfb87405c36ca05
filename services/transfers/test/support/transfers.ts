import { createDb } from '@agentpay/db';
import { createLogger } from '@agentpay/logger';
import {
  type AgentpayProtos,
  type CreateTransferRequest,
  call,
  type FreezeRequest__Output,
  type GrpcServerHandle,
  type InquirePayeeRequest__Output,
  loadProtos,
  type OrderStatusChanged__Output,
  type PayoutRef__Output,
  type ScreenRequest__Output,
  type ScreenResponse,
  type SubmitPayoutRequest__Output,
  type SubmitPayoutResponse,
  startGrpcServer,
  type TransferServiceClient,
  unary,
  type VoidFreezeRequest__Output,
} from '@agentpay/proto';
import { type Clock, systemClock } from '@agentpay/runtime';
import { buildClabe } from '@agentpay/spei';
import { createTestDatabase, natsUrl, type TestDatabase, uniqueName } from '@agentpay/testing';
import { AppError } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { connectCompliance } from '../../src/compliance/compliance.client.js';
import type { Database } from '../../src/db/schema.js';
import { connectLedger } from '../../src/ledger/ledger.client.js';
import { main, type Transfers } from '../../src/main.js';
import { createPayeeRegistry } from '../../src/payees/payee.service.js';
import { createTransferService } from '../../src/transfers/transfer.service.js';
import { connectRouter } from '../../src/upstream/router.client.js';

// The transfers service as a real gRPC server on its own Postgres and NATS, talking over gRPC to a stand-in
// for the upstream router (and ledger) whose answers each test chooses. This pins down what depends only on
// this service: idempotency under concurrency, what each router answer leaves behind, the state machine and
// its outbox events. test/transfers-e2e.test.ts runs the same flows against the real router and sandbox.
// One per test file: `useTransfers()` starts it before the file's tests and stops it after.

export const CLABE = buildClabe('002', '010', '07777777777');
export const opts = { timeoutMs: 10_000 };
export const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (err: unknown) => (err instanceof AppError ? err.codeName : String(err)),
  );
export const merchant = (mchNo = 'M1') => ({
  mch_no: mchNo,
  app_id: 'app1',
  fee_percent_bps: 150,
  fee_fixed_centavos: '300',
  settle_type: 'REALTIME',
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
});

/** Starts transfers and its stand-ins for this file's tests (beforeAll), stops them after (afterAll). */
export function useTransfers() {
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
    onInquire: async (_req: InquirePayeeRequest__Output): Promise<{ status: string }> => ({
      status: 'valid',
    }),
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

  /** The stand-in compliance: what Screen answers (clear unless a test says otherwise), and what it was asked. */
  const compliance = {
    screens: [] as ScreenRequest__Output[],
    onScreen: async (_req: ScreenRequest__Output): Promise<ScreenResponse> => ({
      outcome: 'clear',
      hold: false,
    }),
  };

  let database: TestDatabase;
  let db: Kysely<Database>;
  let routerServer: GrpcServerHandle;
  let service: Transfers;
  let client: TransferServiceClient;
  const subjectPrefix = uniqueName('tt');
  const stream = uniqueName('TT').toUpperCase();

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

  const create = (req: CreateTransferRequest) => call(client, client.CreateTransfer, req, opts);

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
          protos.agentpay.compliance.v1.ComplianceService.service,
          {
            Screen: unary(logger, async (req: ScreenRequest__Output) => {
              compliance.screens.push(req);
              return compliance.onScreen(req);
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
      COMPLIANCE_ADDR: `127.0.0.1:${routerServer.port}`,
      COMPLIANCE_TIMEOUT_MS: '1000',
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
    compliance.screens.length = 0;
    compliance.onScreen = async () => ({ outcome: 'clear', hold: false });
  });

  /** A client of the stand-in ledger, for services built in this process. */
  const stubLedger = () => connectLedger(`127.0.0.1:${routerServer.port}`);
  /** A client of the stand-in compliance. */
  const stubCompliance = () => connectCompliance(`127.0.0.1:${routerServer.port}`);

  /**
   * The service in this process on the stand-in router, so a test runs its sweeps by hand; `noticeWaitMs`:
   * how long its notices wait on a submission (the service's default unless given).
   */
  function directService(clock: Clock = systemClock, noticeWaitMs?: number) {
    const stubRouter = connectRouter(`127.0.0.1:${routerServer.port}`);
    const direct = createTransferService({
      db,
      router: stubRouter,
      logger,
      subject: `${subjectPrefix}.transfer.status_changed`,
      routerTimeoutMs: 1_000,
      ledger: stubLedger(),
      ledgerTimeoutMs: 1_000,
      compliance: stubCompliance(),
      complianceTimeoutMs: 1_000,
      payees: createPayeeRegistry({ db, clock, coolingMs: 0 }),
      clock,
      ...(noticeWaitMs !== undefined && { noticeWaitMs }),
    });
    return { direct, stubRouter };
  }

  return {
    router,
    ledger,
    logger,
    subjectPrefix,
    stream,
    transferRequest,
    create,
    eventsOf,
    stubLedger,
    stubCompliance,
    compliance,
    directService,
    get db() {
      return db;
    },
    get client() {
      return client;
    },
    get service() {
      return service;
    },
  };
}
