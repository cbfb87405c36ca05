import type {
  ApplyUpstreamPaymentRequest__Output,
  ApplyUpstreamPayoutRequest__Output,
  PaymentServiceHandlers,
  TransferServiceHandlers,
} from '@agentpay/proto';
import { loadProtos, startGrpcServer } from '@agentpay/proto';
import { AppError } from '@agentpay/wire';
import type * as grpc from '@grpc/grpc-js';

type Unary<Req, Res> = grpc.handleUnaryCall<Req, Res>;

/**
 * A contract stand-in for payments and transfers: a real gRPC server implementing only their
 * Apply* methods, recording every call. `failNext(ref, n)` makes the next n calls for a ref fail.
 */
export async function startApplyStandIn() {
  const payments: ApplyUpstreamPaymentRequest__Output[] = [];
  const payouts: ApplyUpstreamPayoutRequest__Output[] = [];
  const failures = new Map<string, number>();
  /** The traceparent metadata each Apply* call arrived with, by order_no / transfer_no. */
  const traceparents = new Map<string, string>();
  const remember = (ref: string, call: { metadata: grpc.Metadata }) =>
    traceparents.set(ref, String(call.metadata.get('traceparent')[0] ?? ''));
  const shouldFail = (ref: string) => {
    const left = failures.get(ref) ?? 0;
    if (left > 0) failures.set(ref, left - 1);
    return left > 0;
  };

  const applyPayment: Unary<ApplyUpstreamPaymentRequest__Output, unknown> = (call, callback) => {
    if (shouldFail(call.request.order_no)) return callback({ code: 14, details: 'payments is down' });
    remember(call.request.order_no, call);
    payments.push(call.request);
    callback(null, { changed: true });
  };
  const applyPayout: Unary<ApplyUpstreamPayoutRequest__Output, unknown> = (call, callback) => {
    if (shouldFail(call.request.transfer_no)) return callback({ code: 14, details: 'transfers is down' });
    remember(call.request.transfer_no, call);
    payouts.push(call.request);
    callback(null, { changed: true });
  };
  const unimplemented = (_call: unknown, callback: (err: Error) => void) =>
    callback(new AppError('SERVICE_UNAVAILABLE'));

  const protos = loadProtos();
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [
      [
        protos.agentpay.payments.v1.PaymentService.service,
        {
          CreatePayOrder: unimplemented,
          ClosePayOrder: unimplemented,
          GetPayOrder: unimplemented,
          SyncPayOrder: unimplemented,
          ApplyUpstreamPayment: applyPayment,
        } as unknown as PaymentServiceHandlers,
      ],
      [
        protos.agentpay.transfers.v1.TransferService.service,
        {
          CreateTransfer: unimplemented,
          GetTransfer: unimplemented,
          Inquire: unimplemented,
          ApplyUpstreamPayout: applyPayout,
        } as unknown as TransferServiceHandlers,
      ],
    ],
  });
  server.setServing(true);
  return {
    address: `127.0.0.1:${server.port}`,
    payments,
    payouts,
    traceparents,
    failNext(ref: string, times: number) {
      failures.set(ref, times);
    },
    stop: () => server.stop(0),
  };
}
