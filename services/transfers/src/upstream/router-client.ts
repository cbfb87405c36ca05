import {
  CLIENT_OPTIONS,
  call,
  type InquirePayeeRequest,
  type InquirePayeeResponse__Output,
  loadProtos,
  type PayoutRef,
  type SubmitPayoutRequest,
  type SubmitPayoutResponse__Output,
  type UpstreamPayout__Output,
} from '@agentpay/proto';
import * as grpc from '@grpc/grpc-js';

export interface RouterCallOptions {
  timeoutMs: number;
  /** Passed on as `traceparent` metadata so the router's logs join the merchant's trace. */
  traceparent?: string | undefined;
}

/** What transfers needs from the upstream router. Errors reject as AppErrors (see @agentpay/proto `call`). */
export interface PayoutRouter {
  submitPayout(
    request: SubmitPayoutRequest,
    options: RouterCallOptions,
  ): Promise<SubmitPayoutResponse__Output>;
  inquirePayee(
    request: InquirePayeeRequest,
    options: RouterCallOptions,
  ): Promise<InquirePayeeResponse__Output>;
  queryPayout(ref: PayoutRef, options: RouterCallOptions): Promise<UpstreamPayout__Output>;
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
  const metadata = (traceparent: string | undefined) => {
    const m = new grpc.Metadata();
    if (traceparent) m.set('traceparent', traceparent);
    return m;
  };
  return {
    submitPayout: (request, options) =>
      call(client, client.SubmitPayout, request, {
        timeoutMs: options.timeoutMs,
        metadata: metadata(options.traceparent),
      }),
    inquirePayee: (request, options) =>
      call(client, client.InquirePayee, request, {
        timeoutMs: options.timeoutMs,
        metadata: metadata(options.traceparent),
      }),
    queryPayout: (ref, options) =>
      call(client, client.QueryPayout, ref, {
        timeoutMs: options.timeoutMs,
        metadata: metadata(options.traceparent),
      }),
    reachable: (timeoutMs) =>
      new Promise((resolve) => client.waitForReady(Date.now() + timeoutMs, (err) => resolve(!err))),
    close: () => client.close(),
  };
}
