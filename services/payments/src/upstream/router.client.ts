import type { Logger } from '@agentpay/logger';
import { CLIENT_OPTIONS, call, loadProtos, type UpstreamRouterClient } from '@agentpay/proto';
import * as grpc from '@grpc/grpc-js';

/** What upstream says about an order's virtual account. */
export interface UpstreamState {
  status: 'wait' | 'success' | 'close' | 'fail';
  /** Centavos received; 0 when none (or not reported). */
  paidAmount: number;
  paidAt: Date | undefined;
  /** SPEI tracking key of the paying deposit; '' when unpaid or the channel has none. */
  claveRastreo: string;
  /** Who paid, when the channel said (a notice of the deposit); absent otherwise. */
  payer?: Payer | undefined;
  /** Banxico's CEP page of the paying deposit, when the channel gives one; '' or absent otherwise. */
  cepUrl?: string | undefined;
}

/** The payer of a deposit as SPEI reports it; each part '' when the channel did not say. */
export interface Payer {
  account: string;
  name: string;
  /** The sending bank's 5-digit Banxico code. */
  bank: string;
  rfc: string;
}

export interface VirtualAccount {
  routeId: string;
  clabe: string;
  /** Public (Banxico) institution code. */
  bankCode: string;
  bankName: string;
  beneficiaryName: string;
  reference: string;
  upstreamRef: string;
}

export interface VirtualAccountRef {
  routeId: string;
  orderNo: string;
  upstreamRef: string;
}

/** The payments service's view of the upstream router. Errors are AppErrors (router codes pass through). */
export interface Upstream {
  createVirtualAccount(
    request: { mchNo: string; method: string; orderNo: string; amount: number; expiredTime: Date },
    traceparent: string,
  ): Promise<VirtualAccount>;
  closeVirtualAccount(ref: VirtualAccountRef, traceparent: string): Promise<UpstreamState>;
  queryVirtualAccount(ref: VirtualAccountRef, traceparent: string): Promise<UpstreamState>;
  close(): void;
}

const STATUSES = new Set(['wait', 'success', 'close', 'fail']);

/** The Upstream behind the router's gRPC API. */
export function connectRouter(opts: { address: string; timeoutMs: number; logger: Logger }): Upstream {
  const protos = loadProtos();
  const client: UpstreamRouterClient = new protos.agentpay.router.v1.UpstreamRouter(
    opts.address,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
  const options = (traceparent: string) => {
    const metadata = new grpc.Metadata();
    metadata.set('traceparent', traceparent);
    return { timeoutMs: opts.timeoutMs, metadata };
  };
  const state = (payment: {
    status: string;
    paid_amount: string;
    paid_at: string;
    clave_rastreo: string;
    cep_url?: string;
  }): UpstreamState => {
    if (!STATUSES.has(payment.status)) {
      // Nothing local may move on a status we do not understand; the order stays as it is.
      opts.logger.warn({ status: payment.status }, 'router answered an unknown payment status');
    }
    return {
      status: STATUSES.has(payment.status) ? (payment.status as UpstreamState['status']) : 'wait',
      paidAmount: Number(payment.paid_amount || 0),
      paidAt: payment.paid_at ? new Date(payment.paid_at) : undefined,
      claveRastreo: payment.clave_rastreo,
      cepUrl: payment.cep_url ?? '',
    };
  };
  const ref = (r: VirtualAccountRef) => ({
    route_id: r.routeId,
    order_no: r.orderNo,
    upstream_ref: r.upstreamRef,
  });

  return {
    async createVirtualAccount(request, traceparent) {
      const account = await call(
        client,
        client.CreateVirtualAccount,
        {
          mch_no: request.mchNo,
          method: request.method,
          order_no: request.orderNo,
          amount: request.amount,
          expired_time: request.expiredTime.toISOString(),
        },
        options(traceparent),
      );
      return {
        routeId: account.route_id,
        clabe: account.clabe,
        bankCode: account.bank_code,
        bankName: account.bank_name,
        beneficiaryName: account.beneficiary_name,
        reference: account.reference,
        upstreamRef: account.upstream_ref,
      };
    },
    async closeVirtualAccount(r, traceparent) {
      return state(await call(client, client.CloseVirtualAccount, ref(r), options(traceparent)));
    },
    async queryVirtualAccount(r, traceparent) {
      return state(await call(client, client.QueryVirtualAccount, ref(r), options(traceparent)));
    },
    close() {
      client.close();
    },
  };
}
