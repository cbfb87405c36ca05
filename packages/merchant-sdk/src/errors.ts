/** Every envelope code of the merchant API by name, for `switch (envelope.code)`. */
export const ResultCode = {
  SUCCESS: 0,
  INVALID_PARAMETER: 10001,
  INVALID_BODY: 10002,
  UNSUPPORTED_CONTENT_TYPE: 10003,
  MERCHANT_NOT_FOUND: 20050,
  MERCHANT_DISABLED: 20051,
  SIGNATURE_FAILED: 20052,
  REQ_TIME_OUT_OF_WINDOW: 20053,
  NONCE_USED: 20054,
  APP_NOT_FOUND: 20055,
  ADDRESS_NOT_ALLOWED: 20056,
  PAY_METHOD_NOT_AVAILABLE: 30001,
  DUPLICATE_ORDER: 30002,
  ORDER_NOT_FOUND: 30003,
  ORDER_STATUS_FORBIDS: 30004,
  ORDER_ALREADY_PAID: 30005,
  PAYIN_LIMIT_EXCEEDED: 30006,
  REFUND_NOT_POSSIBLE: 30007,
  DUPLICATE_REFUND: 30008,
  REFUND_NOT_FOUND: 30009,
  PAYEE_TYPE_NOT_AVAILABLE: 40001,
  PAYEE_CODE_NOT_AVAILABLE: 40002,
  DUPLICATE_TRANSFER: 40003,
  TRANSFER_NOT_FOUND: 40004,
  INVALID_PAYEE_ACCOUNT: 40005,
  INSUFFICIENT_BALANCE: 40006,
  DUPLICATE_INQUIRY: 40007,
  PAYOUT_LIMIT_EXCEEDED: 40008,
  PAYEE_NOT_REGISTERED: 40009,
  DUPLICATE_BATCH: 40010,
  TOO_MANY_REQUESTS: 42900,
  INTERNAL_ERROR: 50000,
  NO_UPSTREAM_ROUTE: 50001,
  UPSTREAM_UNAVAILABLE: 50002,
  SERVICE_UNAVAILABLE: 50003,
} as const;

export type ResultCodeName = keyof typeof ResultCode;

/** Base class of everything the SDK throws. */
export class AgentpayError extends Error {
  override name = 'AgentpayError';
}

/**
 * A reply or callback that is unsigned or whose signature does not verify with the platform public key.
 * Never act on its content: it did not come from the platform, or was changed on the way.
 */
export class AgentpaySignatureError extends AgentpayError {
  override name = 'AgentpaySignatureError';
  constructor(
    message: string,
    /** What was received, for logging. */
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** A reply that is not an API envelope at all (a proxy's error page, an empty body). */
export class AgentpayHttpError extends AgentpayError {
  override name = 'AgentpayHttpError';
  constructor(
    message: string,
    readonly status: number,
    /** The first 500 characters of the body. */
    readonly bodyText: string,
  ) {
    super(message);
  }
}

/**
 * No reply: connection refused or reset, DNS failure, or `timeoutMs` passed. For pay, transfer and
 * inquire the outcome is then unknown: repeat the call with the same biz number (it is idempotent) or query.
 */
export class AgentpayNetworkError extends AgentpayError {
  override name = 'AgentpayNetworkError';
  constructor(
    message: string,
    readonly timedOut: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Thrown by `unwrap` for an envelope whose code is not 0. */
export class AgentpayApiError extends AgentpayError {
  override name = 'AgentpayApiError';
  constructor(
    readonly code: number,
    readonly msg: string,
    readonly traceId: string,
  ) {
    super(`agentpay ${code}: ${msg} (traceId ${traceId})`);
  }
}
