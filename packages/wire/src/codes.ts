/** Every envelope code of docs/merchant-api.md "Codes" by symbolic name; `msg` is the text a merchant sees. */
export const Codes = {
  SUCCESS: { code: 0, msg: 'success' },
  INVALID_PARAMETER: { code: 10001, msg: 'invalid parameter' },
  INVALID_BODY: { code: 10002, msg: 'invalid body' },
  UNSUPPORTED_CONTENT_TYPE: { code: 10003, msg: 'unsupported content type' },
  MERCHANT_NOT_FOUND: { code: 20050, msg: 'merchant not found' },
  MERCHANT_DISABLED: { code: 20051, msg: 'merchant disabled' },
  SIGNATURE_FAILED: { code: 20052, msg: 'signature verification failed' },
  REQ_TIME_OUT_OF_WINDOW: { code: 20053, msg: 'request time out of window' },
  NONCE_USED: { code: 20054, msg: 'nonce already used' },
  APP_NOT_FOUND: { code: 20055, msg: 'app not found' },
  ADDRESS_NOT_ALLOWED: { code: 20056, msg: 'request address not allowed' },
  PAY_METHOD_NOT_AVAILABLE: { code: 30001, msg: 'payment method not available' },
  DUPLICATE_ORDER: { code: 30002, msg: 'duplicate order' },
  ORDER_NOT_FOUND: { code: 30003, msg: 'order not found' },
  ORDER_STATUS_FORBIDS: { code: 30004, msg: 'order status does not allow this operation' },
  ORDER_ALREADY_PAID: { code: 30005, msg: 'order already paid' },
  PAYIN_LIMIT_EXCEEDED: { code: 30006, msg: 'limit exceeded' },
  REFUND_NOT_POSSIBLE: { code: 30007, msg: 'refund not possible' },
  DUPLICATE_REFUND: { code: 30008, msg: 'duplicate refund' },
  REFUND_NOT_FOUND: { code: 30009, msg: 'refund not found' },
  PAYEE_TYPE_NOT_AVAILABLE: { code: 40001, msg: 'payee type not available' },
  PAYEE_CODE_NOT_AVAILABLE: { code: 40002, msg: 'payee code not available' },
  DUPLICATE_TRANSFER: { code: 40003, msg: 'duplicate transfer' },
  TRANSFER_NOT_FOUND: { code: 40004, msg: 'transfer not found' },
  INVALID_PAYEE_ACCOUNT: { code: 40005, msg: 'invalid payee account' },
  INSUFFICIENT_BALANCE: { code: 40006, msg: 'insufficient balance' },
  DUPLICATE_INQUIRY: { code: 40007, msg: 'duplicate inquiry' },
  PAYOUT_LIMIT_EXCEEDED: { code: 40008, msg: 'limit exceeded' },
  PAYEE_NOT_REGISTERED: { code: 40009, msg: 'payee not registered' },
  DUPLICATE_BATCH: { code: 40010, msg: 'duplicate batch' },
  TOO_MANY_REQUESTS: { code: 42900, msg: 'too many requests' },
  INTERNAL_ERROR: { code: 50000, msg: 'internal error' },
  NO_UPSTREAM_ROUTE: { code: 50001, msg: 'no upstream route available' },
  UPSTREAM_UNAVAILABLE: { code: 50002, msg: 'upstream unavailable' },
  SERVICE_UNAVAILABLE: { code: 50003, msg: 'service unavailable' },
} as const satisfies Record<string, { readonly code: number; readonly msg: string }>;

/** Symbolic name of an envelope code. */
export type CodeName = keyof typeof Codes;

/** Numeric envelope code. */
export type Code = (typeof Codes)[CodeName]['code'];

const nameByCode = new Map<number, CodeName>(
  (Object.keys(Codes) as CodeName[]).map((name) => [Codes[name].code, name]),
);

/** A domain error carrying an envelope code; `detail` (e.g. the field name for 10001) reaches the merchant. */
export class AppError extends Error {
  override name = 'AppError';
  readonly codeName: CodeName;
  readonly detail?: string;

  constructor(codeName: CodeName, detail?: string, options?: ErrorOptions) {
    const { msg } = Codes[codeName];
    super(detail ? `${msg}: ${detail}` : msg, options);
    this.codeName = codeName;
    if (detail) this.detail = detail;
  }

  /** Numeric envelope code. */
  get code(): Code {
    return Codes[this.codeName].code;
  }

  /** The table's message, without the detail. */
  get msg(): string {
    return Codes[this.codeName].msg;
  }
}

/** The symbolic name of a numeric envelope code, or undefined when the contract has no such code. */
export function codeNameOf(code: number): CodeName | undefined {
  return nameByCode.get(code);
}

/** Narrows an unknown thrown value to AppError. */
export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
