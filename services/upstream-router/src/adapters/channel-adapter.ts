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

/** One movement on a channel's daily statement (CONTRACT.md section 14). */
export interface StatementLine {
  /** The channel's own reference of the movement, unique on its statement. */
  reference: string;
  /** SPEI tracking key, at most 30 characters; '' when the movement has none. */
  claveRastreo: string;
  kind: 'deposit' | 'payout' | 'payout_return';
  /** Centavos, as the statement shows them. */
  amount: number;
  occurredAt: Date;
  /** deposit: the virtual account's CLABE; payout and payout_return: the payee's account. */
  account: string;
  /** The order number (deposit) or transfer number (payout, return) the channel was given; '' when none. */
  platformRef: string;
  /** The channel's reference of the account or payout, as the platform holds it (upstream_ref). */
  upstreamRef: string;
  /** deposit: the payer's account and name; '' otherwise. */
  senderAccount: string;
  senderName: string;
  /** deposit: the channel applied it to its account's order; payout and payout_return: true (money moved). */
  applied: boolean;
}

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
  /**
   * The channel's statement of one Mexico City day (yyyy-MM-dd), line by line as it arrives. Ends only
   * when the channel said the statement is whole; a cut connection, a malformed line or anything else
   * that leaves it in doubt throws (UpstreamUnavailableError) instead, after the lines already yielded.
   * `signal` stops reading (the caller went away).
   */
  fetchStatement(route: RouteContext, day: string, signal?: AbortSignal): AsyncIterable<StatementLine>;
  /** Verifies a notice the channel POSTed to the router and translates it; throws NoticeRejectedError. */
  parseNotice(
    route: RouteContext,
    notice: { headers: Record<string, string | string[] | undefined>; rawBody: string },
  ): UpstreamNotice;
}
