// The boundary between the platform and an upstream channel. Each channel gets one adapter; everything
// channel-specific (URLs, codes, vocabularies, signatures, the replies it expects) stays behind it. Nothing an
// adapter returns reaches a merchant untranslated. The conformance suite (adapters/conformance/) is the port's
// real definition: every adapter passes it.

/** A route as an adapter needs it. */
export interface RouteContext {
  id: string;
  /** The route's adapter settings, e.g. { baseUrl, noticeUrl } or { empresa, speiBase, ... }. */
  config: Record<string, unknown>;
  /** Public payee code → this channel's code. */
  codeMap: Record<string, string>;
  /**
   * The route's secrets by the adapter's names (`secretRefs`), each resolved from the environment variable
   * the route names; '' when unset. Never logged.
   */
  credentials: Readonly<Record<string, string>>;
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

/**
 * The route has no CLABE left to assign (every number under its prefix is open or in quarantine). Not an
 * outage: failover moves on without counting it against the route's breaker.
 */
export class ClabePoolExhaustedError extends Error {
  override name = 'ClabePoolExhaustedError';
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
  /** SPEI tracking key of the paying deposit; '' or absent when none. */
  claveRastreo?: string | undefined;
  /** Banxico's CEP page of the paying deposit, when the channel gives one. */
  cepUrl?: string | undefined;
}

export interface PayoutState {
  status: 'progress' | 'success' | 'fail' | 'returned';
  finishedAt?: Date | undefined;
  /** The channel's reference for the payout, when it gives one. */
  upstreamRef?: string | undefined;
  /** SPEI tracking key of the payout, when the channel has one. */
  claveRastreo?: string | undefined;
  /** Banxico's CEP page of the payout, when the channel gives one (STP's urlCEP of a liquidated order). */
  cepUrl?: string | undefined;
  /** The sending bank's 5-digit Banxico code (the route's institution), when the channel has one. */
  senderBank?: string | undefined;
}

/** One movement on a channel's daily statement (CONTRACT.md section 14). */
export interface StatementLine {
  /** The channel's own reference of the movement, unique on its statement. */
  reference: string;
  /** SPEI tracking key, at most 30 characters; '' when the movement has none. */
  claveRastreo: string;
  /**
   * `deposit_returned`: a deposit the platform refused on arrival, which the channel sent straight back to
   * the payer; no money stayed, so reconciliation shows it as returned, never as a discrepancy.
   */
  kind: 'deposit' | 'payout' | 'payout_return' | 'deposit_returned';
  /** Centavos, as the statement shows them. */
  amount: number;
  occurredAt: Date;
  /** deposit: the virtual account's CLABE; payout and payout_return: the payee's account. */
  account: string;
  /** The order number (deposit) or transfer number (payout, return) of the movement; '' when none. */
  platformRef: string;
  /** The channel's reference of the account or payout, as the platform holds it (upstream_ref). */
  upstreamRef: string;
  /** deposit: the payer's account and name; '' otherwise. */
  senderAccount: string;
  senderName: string;
  /** deposit: it paid its account's order; payout and payout_return: true (money moved). */
  applied: boolean;
}

/** A webhook as the router's notice port received it: `POST /notices/:routeId[/:event]`. */
export interface Webhook {
  /** The path segment after the route id (`abono`, `cambio-estado`); '' for `POST /notices/:routeId`. */
  event: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as sent: signatures cover these bytes. */
  rawBody: string;
  /** The caller's address (X-Forwarded-For only through a proxy listed in TRUSTED_PROXIES). */
  remoteAddress: string;
}

/** A deposit a channel reports, in the platform's words. */
export interface IncomingDeposit {
  /** The channel's id of the deposit, unique per route: a repeat gets the first answer and changes nothing. */
  depositId: string;
  /** The account it names. */
  clabe: string;
  amount: number;
  claveRastreo: string;
  paidAt?: Date | undefined;
  senderAccount: string;
  senderName: string;
  /** The payer's RFC or CURP when the channel gives it (STP's rfcCurpOrdenante); screened with the name. */
  senderRfcCurp?: string | undefined;
  /** The sending bank's 5-digit Banxico code, when the channel says; '' or absent. */
  senderBank?: string | undefined;
  /** Banxico's CEP page of the deposit, when the channel gives one. */
  cepUrl?: string | undefined;
  /**
   * true when the channel itself applied the deposit to the account it opened (the sandbox): the router
   * records it and passes it on whatever the account's state, since the money already stayed. false when the
   * router's answer decides (STP).
   */
  appliedByChannel: boolean;
  /** Channels that echo the platform's order number (the sandbox) give it for accounts opened before the router kept its own. */
  orderNoHint?: string | undefined;
}

/** What the router decided about a deposit. */
export type DepositDecision =
  | { decision: 'accepted'; orderNo: string }
  | {
      decision: 'returned';
      /** `blocked_payer`: the payer is a blocked-list hit (docs/compliance.md). */
      reason: 'unknown_account' | 'order_not_open' | 'amount_mismatch' | 'blocked_payer';
    };

/** A change of a payout's state a channel reports. */
export interface PayoutUpdate {
  /** Unique per route and change: a repeat changes nothing. */
  noticeId: string;
  /** How the channel names the payout: the channel's id, or the transfer number it was given. */
  payout: { upstreamRef: string } | { transferNo: string };
  status: 'success' | 'fail' | 'returned';
  finishedAt?: Date | undefined;
  claveRastreo?: string | undefined;
  /** Banxico's CEP page of the payout and the sending bank's code, when the channel gives them. */
  cepUrl?: string | undefined;
  senderBank?: string | undefined;
}

/** How the router answers the adapter's questions while it handles a webhook. */
export interface WebhookCore {
  /**
   * Records the deposit and decides it (atomically with the account's state). A repeat of the same
   * `depositId` gets the first answer, with `repeated` set, and changes nothing.
   */
  deposit(deposit: IncomingDeposit): Promise<DepositDecision & { repeated: boolean }>;
  /** Records the change; `unknown` when the route holds no such payout (yet). */
  payout(update: PayoutUpdate): Promise<'recorded' | 'duplicate' | 'unknown'>;
  /** The route's own record of the payout a notice names, so the adapter can ask the channel about it. */
  heldPayout(
    ref: PayoutUpdate['payout'],
  ): Promise<{ transferNo: string; claveRastreo: string; sentAt: Date } | undefined>;
}

/** The exact HTTP answer the channel expects. */
export interface WebhookReply {
  status: number;
  body: unknown;
  /** Set when the webhook was refused: counted and logged for operators (never a merchant-visible detail). */
  refused?: 'forbidden' | 'signature' | 'malformed' | 'unverified' | 'unknown_target' | undefined;
}

/** Where the router finds its own records while an adapter reads a statement. */
export interface StatementLookups {
  /** Transfer numbers of the route's payouts by their SPEI tracking keys. */
  payoutsByClaveRastreo(
    keys: readonly string[],
  ): Promise<Map<string, { transferNo: string; upstreamRef: string }>>;
  /** The router's answers to the route's deposits by their SPEI tracking keys. */
  depositsByClaveRastreo(
    keys: readonly string[],
  ): Promise<Map<string, { orderNo: string; decision: 'accepted' | 'returned' }>>;
}

/**
 * Virtual accounts: `assigned` where the channel lets the platform number its CLABEs (the router allocates
 * them under the route's prefix, keeps their state and decides each deposit: STP); `opened` where the channel
 * opens, closes and reports them itself (the sandbox).
 */
export type AccountModel =
  | {
      kind: 'assigned';
      /** The route's 10-digit CLABE prefix (bank, plaza and the company's code); 7 digits and the check digit follow. */
      clabePrefix(route: RouteContext): string;
      /** CLABEs under the prefix that are never a pay order's (the company's own account). */
      reserved(route: RouteContext): readonly string[];
      /** What the payer is shown for an account of this route. */
      presentation(route: RouteContext): { bankCode: string; bankName: string; beneficiaryName: string };
    }
  | {
      kind: 'opened';
      open(
        route: RouteContext,
        request: { orderNo: string; amount: number; expiredTime: Date },
      ): Promise<VirtualAccountResult>;
      close(route: RouteContext, ref: { orderNo: string; upstreamRef: string }): Promise<PaymentState>;
      query(route: RouteContext, ref: { orderNo: string; upstreamRef: string }): Promise<PaymentState>;
    };

export interface PayoutRequest {
  transferNo: string;
  amount: number;
  payeeType: string;
  payeeAccount: string;
  payeeName: string;
  upstreamCode: string;
  /** The transfer's title or reason, whichever the merchant gave (a payout concept). */
  reason: string;
}

export interface ChannelAdapter {
  /**
   * The route's secrets this adapter reads: credential name → the config key naming its environment variable
   * (e.g. `{ privateKey: 'privateKeyRef' }`). `credentialsRef` names the route's `credentials_ref` column.
   */
  readonly secretRefs: Readonly<Record<string, string>>;
  /**
   * What is wrong with a route's `config` for this adapter, as `config.<key>: <problem>`, or undefined when it
   * is usable. Checked when an operator creates or changes a route; `credentials` are the secrets it would
   * resolve, so a key that does not load is refused then, not at the first payout.
   */
  configProblem(
    config: Record<string, unknown>,
    credentials: Readonly<Record<string, string>>,
  ): string | undefined;
  readonly accounts: AccountModel;
  inquire(
    route: RouteContext,
    request: { payeeType: string; payeeAccount: string; payeeName: string; upstreamCode: string },
  ): Promise<'valid' | 'invalid' | 'unknown'>;
  /**
   * Sends a payout. `fail` is a refusal of the payee: nothing will be paid. Sending the same transfer again
   * never pays twice (the channel's own idempotency, or a query instead of a second order).
   */
  submitPayout(
    route: RouteContext,
    request: PayoutRequest,
  ): Promise<{
    status: 'progress' | 'fail';
    upstreamRef: string;
    claveRastreo?: string | undefined;
    /** The sending bank's 5-digit Banxico code (the route's institution), when the channel has one. */
    senderBank?: string | undefined;
    /** Why the channel refused the payee, in the channel's words, for the log only. */
    refusal?: string | undefined;
  }>;
  /**
   * Throws UpstreamNotFoundError when the channel never accepted a payout for this transfer. `sentAt` is when
   * the router sent it (absent when it has no record), for channels that look payouts up by day.
   */
  queryPayout(
    route: RouteContext,
    ref: { transferNo: string; upstreamRef: string; sentAt?: Date | undefined },
  ): Promise<PayoutState>;
  /**
   * The channel's statement of one Mexico City day (yyyy-MM-dd), line by line as it arrives. Ends only
   * when the channel said the statement is whole; a cut connection, a malformed line or anything else
   * that leaves it in doubt throws (UpstreamUnavailableError) instead, after the lines already yielded.
   * `signal` stops reading (the caller went away).
   */
  fetchStatement(
    route: RouteContext,
    day: string,
    lookups: StatementLookups,
    signal?: AbortSignal,
  ): AsyncIterable<StatementLine>;
  /**
   * Handles one webhook: checks it really comes from the channel, tells the core what it reports (the core
   * finds the platform's object and decides), and answers exactly what the channel expects. A webhook the
   * channel sends again gets the first answer with no second effect.
   */
  handleWebhook(route: RouteContext, webhook: Webhook, core: WebhookCore): Promise<WebhookReply>;
}
