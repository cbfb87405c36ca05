import type { StatementLine, StatementLine__Output } from '@agentpay/proto';
import { loadProtos, startGrpcServer } from '@agentpay/proto';
import * as grpc from '@grpc/grpc-js';

// The one test double of the reconciliation tests: a small gRPC server in the router's place serving
// StreamStatement from the lines a test gives it (plus ListRoutes, and SubmitPayout/QueryPayout for the
// return payouts, answering what the test says). The real router and sandbox run in the lead's end-to-end.

export type Statement = Iterable<StatementLine> | (() => Iterable<StatementLine>);

export interface StatementRouter {
  address: string;
  /** Lines per (route, day); `failAfter` ends the stream with UNAVAILABLE after that many lines. */
  statements: Map<string, { lines: Statement; failAfter?: number }>;
  routes: string[];
  /** Payouts submitted, by transfer_no; their status is what QueryPayout answers (set by the test). */
  payouts: Map<string, { request: Record<string, unknown>; status: string }>;
  /** What SubmitPayout answers (progress or fail). */
  submitStatus: string;
  stop(): Promise<void>;
}

export const statementKey = (routeId: string, day: string) => `${routeId}/${day}`;

export async function startStatementRouter(): Promise<StatementRouter> {
  const protos = loadProtos();
  const state = {
    statements: new Map<string, { lines: Statement; failAfter?: number }>(),
    routes: [] as string[],
    payouts: new Map<string, { request: Record<string, unknown>; status: string }>(),
    submitStatus: 'progress',
  };
  const router: grpc.UntypedServiceImplementation = {
    StreamStatement(call: grpc.ServerWritableStream<{ route_id: string; day: string }, StatementLine>) {
      const statement = state.statements.get(statementKey(call.request.route_id, call.request.day));
      if (!statement) {
        call.emit('error', { code: grpc.status.NOT_FOUND, details: 'no such route' });
        return;
      }
      const lines = typeof statement.lines === 'function' ? statement.lines() : statement.lines;
      let sent = 0;
      for (const line of lines) {
        if (statement.failAfter !== undefined && sent >= statement.failAfter) {
          call.emit('error', { code: grpc.status.UNAVAILABLE, details: 'the channel went away' });
          return;
        }
        call.write(line);
        sent += 1;
      }
      if (statement.failAfter !== undefined && sent >= statement.failAfter) {
        call.emit('error', { code: grpc.status.UNAVAILABLE, details: 'the channel went away' });
        return;
      }
      call.end();
    },
    SubmitPayout(
      call: grpc.ServerUnaryCall<Record<string, string>, unknown>,
      callback: grpc.sendUnaryData<unknown>,
    ) {
      const transferNo = call.request.transfer_no ?? '';
      state.payouts.set(transferNo, { request: call.request, status: state.submitStatus });
      callback(null, { route_id: 'r-payout', status: state.submitStatus, upstream_ref: `UP-${transferNo}` });
    },
    QueryPayout(
      call: grpc.ServerUnaryCall<Record<string, string>, unknown>,
      callback: grpc.sendUnaryData<unknown>,
    ) {
      const payout = state.payouts.get(call.request.transfer_no ?? '');
      callback(null, { status: payout?.status ?? 'fail', finished_at: '', route_id: '', upstream_ref: '' });
    },
  };
  const admin: grpc.UntypedServiceImplementation = {
    ListRoutes(_call: unknown, callback: grpc.sendUnaryData<unknown>) {
      callback(null, { routes: state.routes.map((id) => ({ spec: { id }, mch_nos: [] })) });
    },
  };
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [
      [protos.agentpay.router.v1.UpstreamRouter.service, router],
      [protos.agentpay.router.v1.RouteAdmin.service, admin],
    ],
  });
  server.setServing(true);
  return Object.assign(state, {
    address: `127.0.0.1:${server.port}`,
    stop: () => server.stop(0),
  }) as StatementRouter;
}

let refSeq = 0;

/** A statement line (centavos), with the defaults of an applied deposit. */
export function line(
  fields: Partial<Omit<StatementLine__Output, 'amount'>> & {
    kind: string;
    amount: number;
    platform_ref: string;
    at: Date;
  },
): StatementLine__Output {
  const { at, amount, ...rest } = fields;
  return {
    route_id: '',
    reference: `CH-${++refSeq}`,
    clave_rastreo: `CR${refSeq}`,
    account: '646180000000000000',
    upstream_ref: '',
    sender_account: '012180001234567897',
    sender_name: 'Payer Name',
    applied: fields.kind === 'deposit',
    ...rest,
    amount: String(amount),
    occurred_at: at.toISOString(),
  };
}
