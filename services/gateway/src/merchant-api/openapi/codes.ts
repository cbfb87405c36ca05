import { type CodeName, Codes } from '@agentpay/wire';

/** What a merchant reads about one envelope code: when it happens, and the HTTP statuses it comes with. */
export interface CodeDoc {
  when: string;
  /** HTTP statuses the code is sent with; the first is the usual one. */
  http: readonly number[];
  /** Why the status differs, when it can. */
  httpNote?: string;
}

// Keyed by CodeName so that a code added to the wire table fails to compile until it is documented.
export const CODE_DOCS: Record<CodeName, CodeDoc> = {
  SUCCESS: { when: 'The call succeeded; `data` holds the result (null for close).', http: [200] },
  INVALID_PARAMETER: {
    when: 'A field is missing, of the wrong type, too long or out of range; `msg` names it, e.g. `invalid parameter: amount (must have at most 2 decimal places)`.',
    http: [200, 404, 405],
    httpNote: '404 for an unknown path, 405 for a method other than POST.',
  },
  INVALID_BODY: {
    when: 'The body is not a JSON object.',
    http: [200, 400, 413],
    httpNote: '400 when the body is not parseable JSON or empty, 413 when it is larger than 64 KiB.',
  },
  UNSUPPORTED_CONTENT_TYPE: { when: 'The content type is not `application/json`.', http: [415] },
  MERCHANT_NOT_FOUND: { when: 'No merchant has this `mchNo`.', http: [200] },
  MERCHANT_DISABLED: { when: 'The merchant is disabled.', http: [200] },
  SIGNATURE_FAILED: {
    when: '`sign` does not verify with any of the merchant’s active public keys. Nothing about the business request is checked before the signature.',
    http: [200],
  },
  REQ_TIME_OUT_OF_WINDOW: { when: '`reqTime` is more than 300 s from the platform clock.', http: [200] },
  NONCE_USED: { when: '`nonceStr` was already used by this merchant in the last 24 h.', http: [200] },
  APP_NOT_FOUND: { when: '`appId` is not one of the merchant’s apps.', http: [200] },
  ADDRESS_NOT_ALLOWED: {
    when: 'The request is signed correctly but comes from an address outside the merchant’s `allowedIps`. Checked after the signature, so an unsigned probe learns nothing.',
    http: [200],
  },
  PAY_METHOD_NOT_AVAILABLE: { when: 'The payment method is not enabled for this merchant.', http: [200] },
  DUPLICATE_ORDER: { when: 'Same `bizOrderNo` as an existing order, different parameters.', http: [200] },
  ORDER_NOT_FOUND: {
    when: 'No such payment order for this merchant (also another merchant’s order).',
    http: [200],
  },
  ORDER_STATUS_FORBIDS: {
    when: 'The order’s status does not allow this operation (close of a finished order).',
    http: [200],
  },
  PAYIN_LIMIT_EXCEEDED: {
    when: 'The pay order’s amount is above the merchant’s `payin.perOrder` limit; `msg` names it (`limit exceeded: payin.perOrder`). Nothing is created.',
    http: [200],
  },
  REFUND_NOT_POSSIBLE: {
    when: 'The refund cannot be made; `msg` says which reason: `order not paid` (the order is not `success`), `no payer account known` (the paying deposit named no usable account), or `amount exceeds what is left` (refunds of an order never add up to more than it paid). Nothing is created.',
    http: [200],
  },
  DUPLICATE_REFUND: { when: 'Same `bizRefundNo` as an existing refund, different parameters.', http: [200] },
  REFUND_NOT_FOUND: { when: 'No such refund for this merchant.', http: [200] },
  ORDER_ALREADY_PAID: {
    when: 'Close refused because upstream reports the order paid; the order is now `success`.',
    http: [200],
  },
  PAYEE_TYPE_NOT_AVAILABLE: { when: 'The payee type is not open to this merchant.', http: [200] },
  PAYEE_CODE_NOT_AVAILABLE: {
    when: 'Unknown public payee code, or a raw upstream code instead of a public one.',
    http: [200],
  },
  DUPLICATE_TRANSFER: {
    when: 'Same `bizTransferNo` as an existing transfer, different parameters.',
    http: [200],
  },
  TRANSFER_NOT_FOUND: {
    when: 'No such transfer for this merchant (also another merchant’s transfer).',
    http: [200],
  },
  INVALID_PAYEE_ACCOUNT: {
    when: 'The payee account fails the format or check digit of its payee type, or `payeeCode` does not match the CLABE’s bank.',
    http: [200],
  },
  INSUFFICIENT_BALANCE: {
    when: 'The merchant’s available balance does not cover the transfer.',
    http: [200],
  },
  PAYOUT_LIMIT_EXCEEDED: {
    when: 'The transfer would pass one of the merchant’s payout limits; `msg` names it (`limit exceeded: payout.daily`; also `payout.perTransfer`, `payout.dailyCount`, `payout.monthly`). Nothing is created or frozen; the same `bizTransferNo` may be sent again later.',
    http: [200],
  },
  PAYEE_NOT_REGISTERED: {
    when: 'The merchant sends only to registered payees and this payee is not registered, was removed, or is still cooling off. Nothing is created.',
    http: [200],
  },
  DUPLICATE_BATCH: {
    when: 'Same `bizBatchNo` as an existing batch, different items or `notifyUrl`. Nothing is created.',
    http: [200],
  },
  DUPLICATE_INQUIRY: {
    when: 'Same `bizInquryNo` as an existing inquiry, different parameters.',
    http: [200],
  },
  TOO_MANY_REQUESTS: { when: 'The merchant’s request rate limit is exceeded; retry later.', http: [429] },
  INTERNAL_ERROR: { when: 'An unexpected error; quote the `traceId` to support.', http: [500] },
  NO_UPSTREAM_ROUTE: {
    when: 'No enabled upstream route serves this merchant and method or payee type.',
    http: [200],
  },
  UPSTREAM_UNAVAILABLE: {
    when: 'The upstream channel is unavailable; nothing was created upstream. Try again later.',
    http: [200],
  },
  SERVICE_UNAVAILABLE: { when: 'A platform service is down; try again later.', http: [503] },
};

/** Every code of the wire table with its documentation, in numeric order. */
export function documentedCodes(): { name: CodeName; code: number; msg: string; doc: CodeDoc }[] {
  return (Object.keys(Codes) as CodeName[])
    .map((name) => ({ name, code: Codes[name].code, msg: Codes[name].msg, doc: CODE_DOCS[name] }))
    .sort((a, b) => a.code - b.code);
}
