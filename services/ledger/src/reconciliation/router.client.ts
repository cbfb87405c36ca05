import {
  CLIENT_OPTIONS,
  call,
  fromServiceError,
  loadProtos,
  type StatementLine__Output,
} from '@agentpay/proto';
import * as grpc from '@grpc/grpc-js';

/** What reconciliation asks the router (ledger -> router is one way; the router never calls the ledger). */
export interface ReconRouter {
  /** Every route id (RouteAdmin.ListRoutes). */
  listRoutes(): Promise<string[]>;
  /** A route's statement for a day, line by line; throws (an AppError) when the stream ends in error. */
  streamStatement(routeId: string, day: string): AsyncIterable<StatementLine__Output>;
  submitPayout(request: {
    mchNo: string;
    transferNo: string;
    amount: number;
    payeeAccount: string;
    payeeName: string;
    reason: string;
  }): Promise<{ routeId: string; status: string; upstreamRef: string }>;
  queryPayout(ref: { routeId: string; transferNo: string; upstreamRef: string }): Promise<{ status: string }>;
  close(): void;
}

/** A statement of a day may take long to read; the stream's deadline. */
const STATEMENT_DEADLINE_MS = 30 * 60_000;

/** gRPC clients of the router at `address` (host:port, or a list as every client accepts). */
export function connectReconRouter(address: string): ReconRouter {
  const protos = loadProtos();
  const credentials = grpc.credentials.createInsecure();
  const router = new protos.agentpay.router.v1.UpstreamRouter(address, credentials, CLIENT_OPTIONS);
  const admin = new protos.agentpay.router.v1.RouteAdmin(address, credentials, CLIENT_OPTIONS);
  return {
    async listRoutes() {
      const list = await call(admin, admin.ListRoutes, {});
      return list.routes.flatMap((r) => (r.spec?.id ? [r.spec.id] : []));
    },
    async *streamStatement(routeId, day) {
      const stream = router.StreamStatement(
        { route_id: routeId, day },
        { deadline: new Date(Date.now() + STATEMENT_DEADLINE_MS) },
      );
      try {
        for await (const line of stream) yield line as StatementLine__Output;
      } catch (err) {
        throw fromServiceError(err);
      } finally {
        stream.cancel();
      }
    },
    async submitPayout(request) {
      const answer = await call(router, router.SubmitPayout, {
        mch_no: request.mchNo,
        transfer_no: request.transferNo,
        amount: String(request.amount),
        // A return goes back to the CLABE the deposit came from; its bank is derived from the CLABE.
        payee_type: 'spei_transfer',
        payee_account: request.payeeAccount,
        payee_name: request.payeeName,
        payee_code: '',
        reason: request.reason,
      });
      return { routeId: answer.route_id, status: answer.status, upstreamRef: answer.upstream_ref };
    },
    async queryPayout(ref) {
      const answer = await call(router, router.QueryPayout, {
        route_id: ref.routeId,
        transfer_no: ref.transferNo,
        upstream_ref: ref.upstreamRef,
      });
      return { status: answer.status };
    },
    close() {
      router.close();
      admin.close();
    },
  };
}
