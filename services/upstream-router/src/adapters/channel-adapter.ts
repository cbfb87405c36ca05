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
  /** The channel credentials named by the route's credentials_ref (resolved from the environment); '' when unset. */
  credentials: string;
  /** Key verifying the channel's notices, named by config.noticeSecretRef; '' when unset (every notice refused). */
  noticeSecret: string;
}

/**
 * The route cannot serve the call: connection error, timeout, 5xx, refused credentials, or the route is
 * misconfigured. `ambiguous` is true when the request may have reached the channel and been acted on
 * (a timeout or a connection lost after sending), so "nothing was created" cannot be promised.
 */
export class UpstreamUnavailableError extends Error {
  override name = 'UpstreamUnavailableError';
  readonly ambiguous: boolean;
  constructor(message: string, options: { ambiguous?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.ambiguous = options.ambiguous ?? false;
  }
}

/** The channel answered that it has no such account or payout. */
export class UpstreamNotFoundError extends Error {
  override name = 'UpstreamNotFoundError';
}

/** The channel answered, but refused or failed in a way the adapter cannot translate. */
export class UpstreamProtocolError extends Error {
  override name = 'UpstreamProtocolError';
}

/** A notice that fails verification (`signature`, answered 401) or cannot be read (`malformed`, 400). */
export class NoticeRejectedError extends Error {
  override name = 'NoticeRejectedError';
  constructor(
    readonly reason: 'signature' | 'malformed',
    message: string,
  ) {
    super(message);
  }
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
  /** The channel's reference for the payout, when it gives one. */
  upstreamRef?: string | undefined;
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
  /**
   * What is wrong with a route's `config` for this adapter, as `config.<key>: <problem>`, or undefined when it
   * is usable. Checked when an operator creates or changes a route. `noticeUrl` and `noticeSecretRef`
   * are the router's own settings and checked by it.
   */
  configProblem(config: Record<string, unknown>): string | undefined;
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
  /** `fail` is a synchronous refusal: nothing will be paid. */
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
  /** Throws UpstreamNotFoundError when the channel never accepted a payout with this reference. */
  queryPayout(route: RouteContext, ref: { transferNo: string; upstreamRef: string }): Promise<PayoutState>;
  /** Verifies a notice the channel POSTed to the router and translates it; throws NoticeRejectedError. */
  parseNotice(
    route: RouteContext,
    notice: { headers: Record<string, string | string[] | undefined>; rawBody: string },
  ): UpstreamNotice;
}
