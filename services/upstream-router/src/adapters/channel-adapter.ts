// The boundary between the platform and an upstream channel. Each channel gets one adapter; everything
// channel-specific (URLs, codes, vocabularies, notice signatures) stays behind it. Nothing an adapter
// returns reaches a merchant untranslated.

/** A route as an adapter needs it. */
export interface RouteContext {
  id: string;
  /** The route's adapter settings, e.g. { baseUrl, noticeUrl }. */
  config: Record<string, unknown>;
  /** Public payee code → this channel's code. */
  codeMap: Record<string, string>;
  /** The channel credentials named by the route's credentials_ref (resolved from the environment). */
  credentials: string;
}

/** The channel could not be reached or failed (connection error, timeout, 5xx): nothing was created. */
export class UpstreamUnavailableError extends Error {
  override name = 'UpstreamUnavailableError';
}

/** The channel answered, but refused or failed in a way the adapter cannot translate. */
export class UpstreamProtocolError extends Error {
  override name = 'UpstreamProtocolError';
}

/** A notice that fails verification (bad signature, unknown shape); answered 401/400 to the channel. */
export class NoticeRejectedError extends Error {
  override name = 'NoticeRejectedError';
}

export interface VirtualAccountResult {
  clabe: string;
  /** The channel's bank code of the CLABE's bank (router maps it to the public one). */
  bankCode: string;
  bankName: string;
  beneficiaryName: string;
  reference: string;
  upstreamRef: string;
}

export interface PaymentState {
  status: 'wait' | 'success' | 'close' | 'fail';
  /** Centavos actually received; 0 when none. */
  paidAmount: number;
  paidAt?: Date | undefined;
}

export interface PayoutState {
  status: 'progress' | 'success' | 'fail' | 'returned';
  finishedAt?: Date | undefined;
}

export type UpstreamNotice =
  | {
      kind: 'payment';
      noticeId: string;
      orderNo: string;
      status: 'success' | 'fail' | 'close';
      paidAmount: number;
      paidAt?: Date | undefined;
    }
  | {
      kind: 'payout';
      noticeId: string;
      transferNo: string;
      status: 'success' | 'fail' | 'returned';
      finishedAt?: Date | undefined;
    };

export interface ChannelAdapter {
  createVirtualAccount(
    route: RouteContext,
    request: { orderNo: string; amount: number; expiredTime: Date },
  ): Promise<VirtualAccountResult>;
  closeVirtualAccount(
    route: RouteContext,
    ref: { orderNo: string; upstreamRef: string },
  ): Promise<PaymentState>;
  queryVirtualAccount(
    route: RouteContext,
    ref: { orderNo: string; upstreamRef: string },
  ): Promise<PaymentState>;
  inquire(
    route: RouteContext,
    request: { payeeType: string; payeeAccount: string; payeeName: string; upstreamCode: string },
  ): Promise<'valid' | 'invalid' | 'unknown'>;
  submitPayout(
    route: RouteContext,
    request: {
      transferNo: string;
      amount: number;
      payeeType: string;
      payeeAccount: string;
      payeeName: string;
      upstreamCode: string;
      reason: string;
    },
  ): Promise<{ status: 'progress' | 'fail'; upstreamRef: string }>;
  queryPayout(route: RouteContext, ref: { transferNo: string; upstreamRef: string }): Promise<PayoutState>;
  /** Verifies a notice the channel POSTed to the router and translates it; throws NoticeRejectedError. */
  parseNotice(
    route: RouteContext,
    notice: { headers: Record<string, string | string[] | undefined>; rawBody: string },
  ): UpstreamNotice;
}
