import { type KeyObject, randomBytes } from 'node:crypto';
import {
  AgentpayApiError,
  AgentpayHttpError,
  AgentpayNetworkError,
  AgentpaySignatureError,
} from './errors.js';
import { type KeyInput, loadPrivateKey, loadPublicKey, signParams, verifySignature } from './signing.js';
import { formatApiTime } from './time.js';
import type {
  Balance,
  BalanceRecord,
  BalanceRecordPage,
  BalanceRecordsParams,
  CloseParams,
  Envelope,
  InquiryParams,
  InquiryResult,
  Limits,
  OptionItem,
  Payee,
  PayeeCodesParams,
  PayeePage,
  PayeesParams,
  PayOrder,
  PayOrderRef,
  PayParams,
  PayResult,
  Refund,
  RefundParams,
  RefundRef,
  RefundResult,
  RegisterPayeeParams,
  RequestOptions,
  SuccessEnvelope,
  SyncResult,
  TransferBatch,
  TransferBatchParams,
  TransferBatchRef,
  TransferBatchResult,
  TransferOrder,
  TransferParams,
  TransferRef,
  TransferResult,
} from './types.js';

/** The paths of the endpoints. */
export const Paths = {
  pay: '/gateway/pay',
  payMethods: '/gateway/options/pay-methods',
  payeeTypes: '/gateway/options/payee-types',
  payeeCodes: '/gateway/options/payee-codes',
  close: '/gateway/close',
  inquire: '/gateway/inqury',
  transfer: '/gateway/transfer',
  queryPayOrder: '/gateway/query/payOrder',
  queryTransferOrder: '/gateway/query/transferOrder',
  refund: '/gateway/refund',
  queryRefund: '/gateway/query/refund',
  transferBatch: '/gateway/transfer/batch',
  queryTransferBatch: '/gateway/query/transferBatch',
  syncPayOrder: '/gateway/sync/order/pay',
  balance: '/gateway/query/balance',
  balanceRecords: '/gateway/query/balanceRecords',
  limits: '/gateway/query/limits',
  registerPayee: '/gateway/payee/register',
  payees: '/gateway/query/payees',
  removePayee: '/gateway/payee/remove',
} as const;

export interface AgentpayClientOptions {
  /** Where the merchant API is, e.g. `https://api.agentpay.example` (no `/gateway` suffix). */
  baseUrl: string;
  /** Your merchant number. */
  mchNo: string;
  /** Sent as `appId` on every request unless a request overrides it. */
  appId?: string;
  /** Your RSA private key (PKCS#8 or PKCS#1 PEM, or a KeyObject); its public half is registered with the platform. */
  privateKey: KeyInput;
  /** The platform's public key (PEM or KeyObject): every reply must verify with it. */
  platformPublicKey: KeyInput;
  /** IANA zone of the platform's wall clock, used for `reqTime`; default America/Mexico_City. */
  timeZone?: string;
  /** A fetch implementation; default the global fetch. */
  fetch?: typeof fetch;
  /** Deadline of one call, ms; default 30000. */
  timeoutMs?: number;
}

const DEFAULT_TIME_ZONE = 'America/Mexico_City';
const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A merchant's client of the agentpay API. Each call fills in mchNo, reqTime and nonceStr, signs with the
 * merchant key, POSTs, verifies the reply with the platform key (throwing AgentpaySignatureError when it
 * does not verify) and returns the envelope. Business failures come back as envelopes with a non-zero
 * `code`, not as exceptions; `unwrap(envelope)` turns them into AgentpayApiError when that reads better.
 */
export class AgentpayClient {
  readonly mchNo: string;
  readonly #baseUrl: string;
  readonly #appId: string | undefined;
  readonly #privateKey: KeyObject;
  readonly #platformKey: KeyObject;
  readonly #timeZone: string;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;

  constructor(options: AgentpayClientOptions) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required');
    if (!options.mchNo) throw new TypeError('mchNo is required');
    this.mchNo = options.mchNo;
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#appId = options.appId;
    this.#privateKey = loadPrivateKey(options.privateKey);
    this.#platformKey = loadPublicKey(options.platformPublicKey);
    this.#timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
    // Fails here, not on the first request, when the zone name is wrong.
    formatApiTime(new Date(), this.#timeZone);
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** Creates a virtual-account payment order; `data.payBody` tells the payer where to send the money. */
  pay(params: PayParams, options?: RequestOptions): Promise<Envelope<PayResult>> {
    return this.request(Paths.pay, params, options);
  }

  /** The payment methods open to this merchant. */
  payMethods(options?: RequestOptions): Promise<Envelope<OptionItem[]>> {
    return this.request(Paths.payMethods, {}, options);
  }

  /** The payee types open to this merchant for transfers. */
  payeeTypes(options?: RequestOptions): Promise<Envelope<OptionItem[]>> {
    return this.request(Paths.payeeTypes, {}, options);
  }

  /** The public payee codes (banks, institutions) of a payee type, to use as `payeeCode`. */
  payeeCodes(params: PayeeCodesParams, options?: RequestOptions): Promise<Envelope<OptionItem[]>> {
    return this.request(Paths.payeeCodes, params, options);
  }

  /** Closes (or with `useCancel`, cancels) an unfinished payment order; `data` is null on success. */
  close(params: CloseParams, options?: RequestOptions): Promise<Envelope<null>> {
    return this.request(Paths.close, params, options);
  }

  /** Validates a payee account before a transfer (POST /gateway/inqury). */
  inquire(params: InquiryParams, options?: RequestOptions): Promise<Envelope<InquiryResult>> {
    return this.request(Paths.inquire, params, options);
  }

  /** Creates and submits a transfer (payout). */
  transfer(params: TransferParams, options?: RequestOptions): Promise<Envelope<TransferResult>> {
    return this.request(Paths.transfer, params, options);
  }

  /** A payment order by orderNo or bizOrderNo. */
  queryPayOrder(params: PayOrderRef, options?: RequestOptions): Promise<Envelope<PayOrder>> {
    return this.request(Paths.queryPayOrder, params, options);
  }

  /** Creates a batch payout: 1..1,000 transfers funded as one, each then sent on its own. */
  transferBatch(
    params: TransferBatchParams,
    options?: RequestOptions,
  ): Promise<Envelope<TransferBatchResult>> {
    return this.request(Paths.transferBatch, params, options);
  }

  /** A batch payout by batchNo or bizBatchNo, with one page of its items. */
  queryTransferBatch(params: TransferBatchRef, options?: RequestOptions): Promise<Envelope<TransferBatch>> {
    return this.request(Paths.queryTransferBatch, params, options);
  }

  /** A transfer by transferNo or bizTransferNo. */
  queryTransferOrder(params: TransferRef, options?: RequestOptions): Promise<Envelope<TransferOrder>> {
    return this.request(Paths.queryTransferOrder, params, options);
  }

  /** Refunds a paid order to its payer's account, all that is left or `amount`; idempotent on bizRefundNo. */
  refund(params: RefundParams, options?: RequestOptions): Promise<Envelope<RefundResult>> {
    return this.request(Paths.refund, params, options);
  }

  /** A refund by refundNo or bizRefundNo, with its CEP facts once it succeeded. */
  queryRefund(params: RefundRef, options?: RequestOptions): Promise<Envelope<Refund>> {
    return this.request(Paths.queryRefund, params, options);
  }

  /** Asks the platform to re-read a payment order's status from upstream. */
  syncPayOrder(params: PayOrderRef, options?: RequestOptions): Promise<Envelope<SyncResult>> {
    return this.request(Paths.syncPayOrder, params, options);
  }

  /** The MXN balance now: available, pending and frozen, in pesos. */
  balance(options?: RequestOptions): Promise<Envelope<Balance>> {
    return this.request(Paths.balance, {}, options);
  }

  /** The limits in effect (null: no limit) and today's and this month's payout usage (Mexico City). */
  limits(options?: RequestOptions): Promise<Envelope<Limits>> {
    return this.request(Paths.limits, {}, options);
  }

  /** Registers a payee for registered-payees mode: `cooling` until `usableAt` or a second person's approval. */
  registerPayee(params: RegisterPayeeParams, options?: RequestOptions): Promise<Envelope<Payee>> {
    return this.request(Paths.registerPayee, params, options);
  }

  /** One page of the registered payees, newest first (removed ones left out). */
  payees(params: PayeesParams = {}, options?: RequestOptions): Promise<Envelope<PayeePage>> {
    return this.request(Paths.payees, params, options);
  }

  /** Removes a registered payee at once. */
  removePayee(params: { payeeId: string }, options?: RequestOptions): Promise<Envelope<Payee>> {
    return this.request(Paths.removePayee, params, options);
  }

  /** One page of the statement: records in [startTime, endTime), oldest first. */
  balanceRecords(
    params: BalanceRecordsParams,
    options?: RequestOptions,
  ): Promise<Envelope<BalanceRecordPage>> {
    return this.request(Paths.balanceRecords, params, options);
  }

  /**
   * Every record of the statement, page after page (following nextCursor from `params.cursor` on, or
   * from the start). A page that fails throws AgentpayApiError; each page is a request of its own with a
   * fresh nonce, so `options.nonceStr` is not used.
   */
  async *allBalanceRecords(
    params: BalanceRecordsParams,
    options: RequestOptions = {},
  ): AsyncGenerator<BalanceRecord, void, undefined> {
    const { nonceStr: _unused, ...perPage } = options;
    let cursor = params.cursor;
    do {
      const page = unwrap(await this.balanceRecords({ ...params, ...(cursor ? { cursor } : {}) }, perPage));
      yield* page.records;
      cursor = page.nextCursor;
    } while (cursor);
  }

  /** The signed body the client would send for `params` (for logging or a custom transport). */
  signedBody(params: object, options: RequestOptions = {}): Record<string, unknown> {
    const body: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(params)) {
      if (value === undefined || value === null) continue;
      body[key] = key === 'extraParam' && typeof value === 'object' ? JSON.stringify(value) : value;
    }
    body['mchNo'] = this.mchNo;
    body['reqTime'] = formatApiTime(new Date(), this.#timeZone);
    body['nonceStr'] = options.nonceStr ?? randomBytes(16).toString('hex');
    const appId = options.appId ?? this.#appId;
    if (appId !== undefined) body['appId'] = appId;
    if (options.clientIp !== undefined) body['clientIp'] = options.clientIp;
    delete body['sign'];
    body['sign'] = signParams(body, this.#privateKey);
    return body;
  }

  /** Signs `params`, POSTs them to `path` and returns the verified envelope. */
  async request<T>(path: string, params: object, options: RequestOptions = {}): Promise<Envelope<T>> {
    const body = this.signedBody(params, options);
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (options.traceparent) headers['traceparent'] = options.traceparent;

    let status: number;
    let text: string;
    try {
      const response = await this.#fetch(`${this.#baseUrl}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal,
      });
      status = response.status;
      text = await response.text();
    } catch (cause) {
      const timedOut = timeout.aborted;
      const reason = timedOut ? `no reply within ${this.#timeoutMs} ms` : errorText(cause);
      throw new AgentpayNetworkError(`POST ${path}: ${reason}`, timedOut, { cause });
    }
    return this.#verifiedEnvelope<T>(path, status, text);
  }

  #verifiedEnvelope<T>(path: string, status: number, text: string): Envelope<T> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!isEnvelope(parsed)) {
      throw new AgentpayHttpError(
        `POST ${path}: HTTP ${status} without an API envelope`,
        status,
        text.slice(0, 500),
      );
    }
    if (typeof parsed['sign'] !== 'string' || parsed['sign'] === '') {
      throw new AgentpaySignatureError(`POST ${path}: the reply is not signed`, parsed);
    }
    if (!verifySignature(parsed, parsed['sign'], this.#platformKey)) {
      throw new AgentpaySignatureError(
        `POST ${path}: the reply's signature does not verify with the platform public key`,
        parsed,
      );
    }
    return parsed as unknown as Envelope<T>;
  }
}

/** True when the envelope's code is 0 (then `data` is the payload; null only for close). */
export function isSuccess<T>(envelope: Envelope<T>): envelope is SuccessEnvelope<T> {
  return envelope.code === 0;
}

/** The envelope's `data` when its code is 0; otherwise throws AgentpayApiError with the code and msg. */
export function unwrap<T>(envelope: Envelope<T>): T {
  if (envelope.code !== 0) throw new AgentpayApiError(envelope.code, envelope.msg, envelope.traceId);
  return envelope.data as T;
}

function isEnvelope(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return typeof record['code'] === 'number' && typeof record['msg'] === 'string';
}

function errorText(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as { cause?: unknown }).cause;
    return cause instanceof Error ? `${e.message} (${cause.message})` : e.message;
  }
  return String(e);
}
