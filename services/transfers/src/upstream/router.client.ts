import { CLIENT_OPTIONS, call, loadProtos } from '@agentpay/proto';
import * as grpc from '@grpc/grpc-js';

export interface RouterCallOptions {
  timeoutMs: number;
  /** Passed on as `traceparent` metadata so the router's logs join the merchant's trace. */
  traceparent?: string | undefined;
}

/** A payout to submit, as the router takes it. */
export interface PayoutRequest {
  mchNo: string;
  transferNo: string;
  /** Centavos. */
  amount: number;
  payeeType: string;
  payeeAccount: string;
  payeeName: string;
  payeeCode: string;
  reason: string;
}

/** Where a payout is upstream: its route and the channel's reference (empty when not known). */
export interface PayoutLocation {
  routeId: string;
  upstreamRef: string;
}

/** The CEP facts a channel gives of a payout (CONTRACT section 21); '' when it gave none. */
export interface PayoutCepFacts {
  /** The sending bank's 5-digit Banxico code (the route's institution). */
  senderBank?: string | undefined;
  /** Banxico's CEP page of the payout. */
  cepUrl?: string | undefined;
}

/** The router's answer to a submission: `progress`, `fail`, or a status it should not have sent. */
export interface PayoutAnswer extends PayoutLocation, PayoutCepFacts {
  status: string;
  /** The payout's SPEI tracking key; empty when the channel has none (yet). */
  claveRastreo: string;
}

/** What upstream says about a payout: progress, success, fail or returned, and where it was found. */
export interface PayoutState extends PayoutLocation, PayoutCepFacts {
  status: string;
  /** Empty when upstream did not say. */
  finishedAt: string;
  /** The payout's SPEI tracking key; empty when the channel has none (yet). */
  claveRastreo: string;
}

export interface PayeeQuery {
  mchNo: string;
  payeeType: string;
  payeeAccount: string;
  payeeName: string;
  payeeCode: string;
}

/** What transfers needs from the upstream router. Errors reject as AppErrors (see @agentpay/proto `call`). */
export interface PayoutRouter {
  submitPayout(request: PayoutRequest, options: RouterCallOptions): Promise<PayoutAnswer>;
  /** The payee's status upstream: valid, invalid or unknown (as the router said it). */
  inquirePayee(query: PayeeQuery, options: RouterCallOptions): Promise<{ status: string }>;
  queryPayout(ref: PayoutLocation & { transferNo: string }, options: RouterCallOptions): Promise<PayoutState>;
  /** True when a connection to the router is up or comes up within `timeoutMs`. */
  reachable(timeoutMs: number): Promise<boolean>;
  close(): void;
}

/** A gRPC client of the router at `address` (host:port). */
export function connectRouter(address: string): PayoutRouter {
  const protos = loadProtos();
  const client = new protos.agentpay.router.v1.UpstreamRouter(
    address,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
  const callOptions = (options: RouterCallOptions) => {
    const metadata = new grpc.Metadata();
    if (options.traceparent) metadata.set('traceparent', options.traceparent);
    return { timeoutMs: options.timeoutMs, metadata };
  };
  return {
    async submitPayout(request, options) {
      const answer = await call(
        client,
        client.SubmitPayout,
        {
          mch_no: request.mchNo,
          transfer_no: request.transferNo,
          amount: String(request.amount),
          payee_type: request.payeeType,
          payee_account: request.payeeAccount,
          payee_name: request.payeeName,
          payee_code: request.payeeCode,
          reason: request.reason,
        },
        callOptions(options),
      );
      return {
        routeId: answer.route_id,
        status: answer.status,
        upstreamRef: answer.upstream_ref,
        claveRastreo: answer.clave_rastreo,
        senderBank: answer.sender_bank,
      };
    },
    async inquirePayee(query, options) {
      const answer = await call(
        client,
        client.InquirePayee,
        {
          mch_no: query.mchNo,
          payee_type: query.payeeType,
          payee_account: query.payeeAccount,
          payee_name: query.payeeName,
          payee_code: query.payeeCode,
        },
        callOptions(options),
      );
      return { status: answer.status };
    },
    async queryPayout(ref, options) {
      const state = await call(
        client,
        client.QueryPayout,
        { route_id: ref.routeId, transfer_no: ref.transferNo, upstream_ref: ref.upstreamRef },
        callOptions(options),
      );
      return {
        status: state.status,
        finishedAt: state.finished_at,
        routeId: state.route_id,
        upstreamRef: state.upstream_ref,
        claveRastreo: state.clave_rastreo,
        senderBank: state.sender_bank,
        cepUrl: state.cep_url,
      };
    },
    reachable: (timeoutMs) =>
      new Promise((resolve) => client.waitForReady(Date.now() + timeoutMs, (err) => resolve(!err))),
    close: () => client.close(),
  };
}
