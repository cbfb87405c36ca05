import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '@agentpay/logger';
import { loadProtos, startGrpcServer, type UpstreamRouterHandlers, unary } from '@agentpay/proto';
import { AppError } from '@agentpay/wire';

// An in-process stand-in for the upstream router's virtual-account RPCs, so the payments service can
// be tested on its own (real Postgres, real NATS, real gRPC). It behaves as a channel would: a closed
// account takes no deposit (unless `acceptDepositsWhenClosed`), a paid one cannot be closed.

export interface FakeAccount {
  orderNo: string;
  amount: number;
  status: 'wait' | 'success' | 'close' | 'fail';
  paidAmount: number;
  paidAt: string;
  /** The paying deposit's SPEI tracking key; '' while unpaid. */
  claveRastreo: string;
}

export interface FakeRouter {
  address: string;
  accounts: Map<string, FakeAccount>;
  /** CreateVirtualAccount calls per order number. */
  createCalls: Map<string, number>;
  totalCreateCalls(): number;
  /** Delay of every CreateVirtualAccount answer, ms. */
  createDelayMs: number;
  /** The next CreateVirtualAccount answers this error instead. */
  failNextCreate: AppError | undefined;
  /** A channel that credits deposits even to closed accounts (the closed-then-paid case). */
  acceptDepositsWhenClosed: boolean;
  /** The payer sends money (its SPEI tracking key by default a fresh one); false when the account refused it. */
  deposit(orderNo: string, claveRastreo?: string): boolean;
  stop(): Promise<void>;
}

export async function startFakeRouter(): Promise<FakeRouter> {
  const logger = createLogger({ service: 'fake-router', level: 'silent' });
  const accounts = new Map<string, FakeAccount>();
  const createCalls = new Map<string, number>();
  let sequence = 0;
  const unavailable = async (): Promise<never> => {
    throw new AppError('SERVICE_UNAVAILABLE', 'not part of the fake');
  };
  const state = (orderNo: string) => {
    const account = accounts.get(orderNo);
    if (!account) throw new AppError('INTERNAL_ERROR', `no account for ${orderNo}`);
    return {
      status: account.status,
      paid_amount: String(account.paidAmount),
      paid_at: account.paidAt,
      clave_rastreo: account.claveRastreo,
    };
  };

  const fake: Omit<FakeRouter, 'address' | 'stop'> = {
    accounts,
    createCalls,
    totalCreateCalls: () => [...createCalls.values()].reduce((a, b) => a + b, 0),
    createDelayMs: 0,
    failNextCreate: undefined,
    acceptDepositsWhenClosed: false,
    deposit(orderNo, claveRastreo = `FAKE${randomBytes(8).toString('hex').toUpperCase()}`) {
      const account = accounts.get(orderNo);
      if (!account) return false;
      const open = account.status === 'wait' || (fake.acceptDepositsWhenClosed && account.status === 'close');
      if (!open) return false;
      account.status = 'success';
      account.paidAmount = account.amount;
      account.paidAt = new Date().toISOString();
      account.claveRastreo = claveRastreo;
      return true;
    },
  };

  const handlers: UpstreamRouterHandlers = {
    StreamStatement: (call) => call.end(),
    ListPayMethods: unary(logger, unavailable),
    ListPayeeTypes: unary(logger, unavailable),
    ListPayeeCodes: unary(logger, unavailable),
    InquirePayee: unary(logger, unavailable),
    SubmitPayout: unary(logger, unavailable),
    QueryPayout: unary(logger, unavailable),
    ListChannelFacts: unary(logger, unavailable),
    CreateVirtualAccount: unary(logger, async (request) => {
      createCalls.set(request.order_no, (createCalls.get(request.order_no) ?? 0) + 1);
      if (fake.createDelayMs > 0) await sleep(fake.createDelayMs);
      const failure = fake.failNextCreate;
      if (failure) {
        fake.failNextCreate = undefined;
        throw failure;
      }
      if (request.method !== 'mex_virtual_account') throw new AppError('PAY_METHOD_NOT_AVAILABLE');
      sequence += 1;
      accounts.set(request.order_no, {
        orderNo: request.order_no,
        amount: Number(request.amount),
        status: 'wait',
        paidAmount: 0,
        paidAt: '',
        claveRastreo: '',
      });
      return {
        route_id: 'fake-route',
        clabe: `6461801234${String(sequence).padStart(7, '0')}1`,
        bank_code: '90646',
        bank_name: 'STP',
        beneficiary_name: 'Agentpay Test',
        reference: String(sequence).padStart(7, '0'),
        upstream_ref: `VA-${sequence}`,
      };
    }),
    CloseVirtualAccount: unary(logger, async (ref) => {
      const account = accounts.get(ref.order_no);
      if (account?.status === 'wait') account.status = 'close';
      return state(ref.order_no);
    }),
    QueryVirtualAccount: unary(logger, async (ref) => state(ref.order_no)),
  };

  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [[loadProtos().agentpay.router.v1.UpstreamRouter.service, handlers]],
  });
  server.setServing(true);
  return Object.assign(fake, {
    address: `127.0.0.1:${server.port}`,
    stop: () => server.stop(1_000),
  }) as FakeRouter;
}
