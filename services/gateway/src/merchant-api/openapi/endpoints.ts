import type { CodeName } from '@agentpay/wire';

/** What the document says about one merchant route beyond its request schema. */
export interface EndpointDoc {
  operationId: string;
  /** The @agentpay/merchant-sdk method that calls it. */
  sdkMethod: string;
  tag: 'Payments' | 'Transfers' | 'Options' | 'Balance' | 'Controls';
  summary: string;
  description: string;
  /** Schema name of `data` on success; `array:` prefix for a list; null when data is null. */
  data: string | null;
  /** Business codes this endpoint can answer beyond the ones every endpoint can. */
  codes: readonly CodeName[];
}

/** Codes every endpoint can answer: success, request checks (docs/merchant-api.md "Requests"), platform failures. */
export const COMMON_CODES: readonly CodeName[] = [
  'SUCCESS',
  'INVALID_PARAMETER',
  'INVALID_BODY',
  'UNSUPPORTED_CONTENT_TYPE',
  'MERCHANT_NOT_FOUND',
  'MERCHANT_DISABLED',
  'SIGNATURE_FAILED',
  'REQ_TIME_OUT_OF_WINDOW',
  'NONCE_USED',
  'APP_NOT_FOUND',
  // Any signed request from outside the merchant's allowedIps (CONTRACT section 19).
  'ADDRESS_NOT_ALLOWED',
  'TOO_MANY_REQUESTS',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
];

// Keyed by the gateway's route path; buildOpenApiDocument refuses a registered route missing here.
export const ENDPOINT_DOCS: Record<string, EndpointDoc> = {
  '/gateway/pay': {
    operationId: 'pay',
    sdkMethod: 'pay',
    tag: 'Payments',
    summary: 'Create a payment order',
    description:
      'Creates a virtual-account payment order after the merchant created its own order. `data.payBody` (JSON text) holds the CLABE the payer sends SPEI to. Idempotent on `bizOrderNo`: the same parameters again return the existing order with code 0 (no second order, upstream call or callback); different parameters answer 30002.',
    data: 'PayResult',
    codes: [
      'PAY_METHOD_NOT_AVAILABLE',
      'DUPLICATE_ORDER',
      'PAYIN_LIMIT_EXCEEDED',
      'NO_UPSTREAM_ROUTE',
      'UPSTREAM_UNAVAILABLE',
    ],
  },
  '/gateway/options/pay-methods': {
    operationId: 'payMethods',
    sdkMethod: 'payMethods',
    tag: 'Options',
    summary: 'List payment methods',
    description: 'The public payment method codes open to the merchant. No business parameters.',
    data: 'array:OptionItem',
    codes: [],
  },
  '/gateway/options/payee-types': {
    operationId: 'payeeTypes',
    sdkMethod: 'payeeTypes',
    tag: 'Options',
    summary: 'List payee types',
    description: 'The payee types open to the merchant for transfers. No business parameters.',
    data: 'array:OptionItem',
    codes: [],
  },
  '/gateway/options/payee-codes': {
    operationId: 'payeeCodes',
    sdkMethod: 'payeeCodes',
    tag: 'Options',
    summary: 'List payee codes of a payee type',
    description:
      'Public payee codes (Banxico institution codes for SPEI types, e.g. `40012` BBVA MEXICO) to use as `payeeCode` in inquiry and transfer. Raw upstream codes are never accepted.',
    data: 'array:OptionItem',
    codes: ['PAYEE_TYPE_NOT_AVAILABLE'],
  },
  '/gateway/close': {
    operationId: 'close',
    sdkMethod: 'close',
    tag: 'Payments',
    summary: 'Close or cancel an unfinished payment order',
    description:
      'Acts only on `wait`/`progress` orders (30004 otherwise); `useCancel: true` makes the order `cancel`, else `close`. Closing an order already closed the same way answers 0. If upstream reports the order paid, the answer is 30005 and the order becomes `success`. One of `orderNo`, `bizOrderNo` is required. `data` is null on success.',
    data: null,
    codes: ['ORDER_NOT_FOUND', 'ORDER_STATUS_FORBIDS', 'ORDER_ALREADY_PAID', 'UPSTREAM_UNAVAILABLE'],
  },
  '/gateway/inqury': {
    operationId: 'inquire',
    sdkMethod: 'inquire',
    tag: 'Transfers',
    summary: 'Validate a payee account (inquiry)',
    description:
      'Checks a payee account before a transfer (the path spelling is `inqury`). An account that fails its local format or check digit answers `status: invalid` without reaching upstream; otherwise upstream answers `valid`, `invalid` or `unknown`. Idempotent on `bizInquryNo` (40007 on different parameters).',
    data: 'InquiryResult',
    codes: [
      'PAYEE_TYPE_NOT_AVAILABLE',
      'PAYEE_CODE_NOT_AVAILABLE',
      'DUPLICATE_INQUIRY',
      'NO_UPSTREAM_ROUTE',
      'UPSTREAM_UNAVAILABLE',
    ],
  },
  '/gateway/transfer': {
    operationId: 'transfer',
    sdkMethod: 'transfer',
    tag: 'Transfers',
    summary: 'Create and submit a transfer',
    description:
      'Creates a payout. The transfer starts `progress` and ends `success`, `fail` or (after a return by the receiving bank) `close`; one rejected synchronously upstream is created as `fail`. Idempotent on `bizTransferNo` (40003 on different parameters). An inquiry first is recommended, not required.',
    data: 'TransferResult',
    codes: [
      'PAYEE_TYPE_NOT_AVAILABLE',
      'PAYEE_CODE_NOT_AVAILABLE',
      'DUPLICATE_TRANSFER',
      'INVALID_PAYEE_ACCOUNT',
      'INSUFFICIENT_BALANCE',
      'PAYOUT_LIMIT_EXCEEDED',
      'PAYEE_NOT_REGISTERED',
      'NO_UPSTREAM_ROUTE',
      'UPSTREAM_UNAVAILABLE',
    ],
  },
  '/gateway/refund': {
    operationId: 'refund',
    sdkMethod: 'refund',
    tag: 'Payments',
    summary: 'Refund a paid order to its payer',
    description:
      'Returns money of a `success` order to the account that paid it (the paying deposit’s account and bank): all that is left when `amount` is absent, or part. The refunds of an order never add up to more than it paid, however many are sent at once. It is a payout over a SPEI route with its own claveRastreo and a conceptoPago naming the original deposit, funded from `available` (amount + the transfer fee; 40006 when not enough) and within the payout limits (40008). The refund starts `progress` and ends `success` or `fail` (a payout refused by the channel or returned by the payer’s bank; its amount can then be refunded again). Idempotent on `bizRefundNo` (30008 on different parameters). One of `orderNo`, `bizOrderNo` is required.',
    data: 'RefundResult',
    codes: [
      'ORDER_NOT_FOUND',
      'REFUND_NOT_POSSIBLE',
      'DUPLICATE_REFUND',
      'INSUFFICIENT_BALANCE',
      'PAYOUT_LIMIT_EXCEEDED',
      'NO_UPSTREAM_ROUTE',
      'UPSTREAM_UNAVAILABLE',
    ],
  },
  '/gateway/query/refund': {
    operationId: 'queryRefund',
    sdkMethod: 'queryRefund',
    tag: 'Payments',
    summary: 'Query a refund',
    description:
      'The refund by `refundNo` or `bizRefundNo` (one is required), with its CEP facts once it succeeded. Another merchant’s refund answers 30009.',
    data: 'Refund',
    codes: ['REFUND_NOT_FOUND'],
  },
  '/gateway/transfer/batch': {
    operationId: 'transferBatch',
    sdkMethod: 'transferBatch',
    tag: 'Transfers',
    summary: 'Create a batch payout (dispersión)',
    description:
      'Up to 1,000 transfers in one signed request (the body may be up to 1 MiB on this path). Every item is validated as a transfer is: one bad item refuses the whole batch with 10001 naming `items[i].field`, 40005 for a bad account, 40003 for an item whose `bizTransferNo` the merchant used already. The batch is funded as one: the sum of amounts and fees must be available (40006) and within the payout limits (40008); otherwise nothing is created or frozen. Accepted, each item is an ordinary transfer with its own `transferNo`, status, callback (to the batch’s `notifyUrl`) and claveRastreo, sent without waiting for the others. Idempotent on `bizBatchNo`: the same items answer the same batch, other items 40010.',
    data: 'TransferBatchResult',
    codes: [
      'PAYEE_TYPE_NOT_AVAILABLE',
      'PAYEE_CODE_NOT_AVAILABLE',
      'DUPLICATE_BATCH',
      'DUPLICATE_TRANSFER',
      'INVALID_PAYEE_ACCOUNT',
      'INSUFFICIENT_BALANCE',
      'PAYOUT_LIMIT_EXCEEDED',
      'PAYEE_NOT_REGISTERED',
    ],
  },
  '/gateway/query/transferBatch': {
    operationId: 'queryTransferBatch',
    sdkMethod: 'queryTransferBatch',
    tag: 'Transfers',
    summary: 'Query a batch payout and page its items',
    description:
      'The batch by `batchNo` or `bizBatchNo` (one is required): `progress` until every item ended, then `done`, with counts per status, and its items in item order, at most `limit` (default 100) per page. While `data.nextCursor` is present, call again with it as `cursor`. An unknown batch (or another merchant’s) answers 40004.',
    data: 'TransferBatch',
    codes: ['TRANSFER_NOT_FOUND'],
  },
  '/gateway/query/payOrder': {
    operationId: 'queryPayOrder',
    sdkMethod: 'queryPayOrder',
    tag: 'Payments',
    summary: 'Query a payment order',
    description:
      'The order by `orderNo` or `bizOrderNo` (one is required; both must name the same order). Another merchant’s order answers 30003. Use it when a callback is late or for reconciliation.',
    data: 'PayOrder',
    codes: ['ORDER_NOT_FOUND'],
  },
  '/gateway/query/transferOrder': {
    operationId: 'queryTransferOrder',
    sdkMethod: 'queryTransferOrder',
    tag: 'Transfers',
    summary: 'Query a transfer',
    description:
      'The transfer by `transferNo` or `bizTransferNo` (one is required). Another merchant’s transfer answers 40004.',
    data: 'TransferOrder',
    codes: ['TRANSFER_NOT_FOUND'],
  },
  '/gateway/sync/order/pay': {
    operationId: 'syncPayOrder',
    sdkMethod: 'syncPayOrder',
    tag: 'Payments',
    summary: 'Synchronize a payment order from upstream',
    description:
      'Asks upstream for the order’s status; when it differs, the local order moves to it (even out of `close`, `timeout` or `fail` into `success`: money that arrived is the truth) and `adjust` is true. A change emits a callback as usual. One of `orderNo`, `bizOrderNo` is required.',
    data: 'SyncResult',
    codes: ['ORDER_NOT_FOUND', 'UPSTREAM_UNAVAILABLE'],
  },
  '/gateway/query/balance': {
    operationId: 'balance',
    sdkMethod: 'balance',
    tag: 'Balance',
    summary: 'Query the balance',
    description:
      'The merchant’s MXN balance now: `available` (may be paid out; a transfer needs amount + fee of it, else 40006), `pending` (paid in, not settled yet) and `frozen` (held for transfers in progress). No business parameters.',
    data: 'Balance',
    codes: [],
  },
  '/gateway/query/balanceRecords': {
    operationId: 'balanceRecords',
    sdkMethod: 'balanceRecords',
    tag: 'Balance',
    summary: 'List balance records (the statement)',
    description:
      'The merchant’s ledger records whose `createTime` lies in [`startTime`, `endTime`), oldest first, at most `limit` per page. `endTime` must be after `startTime` and at most 31 days after it (10001 naming `endTime` otherwise). While `data.nextCursor` is present, call again with it as `cursor` and the same times. Each record carries its changes and the three balances right after it: a record’s balances equal the previous record’s plus its own changes, which proves the statement. SDK: `client.allBalanceRecords()` iterates every page.',
    data: 'BalanceRecordPage',
    codes: [],
  },
  '/gateway/query/limits': {
    operationId: 'queryLimits',
    sdkMethod: 'limits',
    tag: 'Controls',
    summary: 'Query the limits in effect and their usage',
    description:
      'The merchant’s limits in effect (its own, or the platform default where it has none; `null` is no limit) and its payout usage today and this month (Mexico City calendar days and months). Usage counts a transfer’s amount without its fee from its acceptance; a transfer that ends `fail` or `close` before leaving gives it back, one that left and was returned does not. No business parameters.',
    data: 'Limits',
    codes: [],
  },
  '/gateway/payee/register': {
    operationId: 'registerPayee',
    sdkMethod: 'registerPayee',
    tag: 'Controls',
    summary: 'Register a payee',
    description:
      'Registers a payee for registered-payees mode. It is `cooling` until `usableAt` (PAYEE_COOLING_MINUTES after registration, 60 by default) or until a second owner or admin of the merchant approves it on the dashboard; then `usable`. Registering an account registered already answers that registration.',
    data: 'Payee',
    codes: ['INVALID_PAYEE_ACCOUNT', 'PAYEE_TYPE_NOT_AVAILABLE'],
  },
  '/gateway/query/payees': {
    operationId: 'queryPayees',
    sdkMethod: 'payees',
    tag: 'Controls',
    summary: 'List registered payees',
    description:
      'The merchant’s registered payees, newest first, at most `limit` (default 50) per page; removed ones are left out. While `data.nextCursor` is present, call again with it as `cursor`.',
    data: 'PayeePage',
    codes: [],
  },
  '/gateway/payee/remove': {
    operationId: 'removePayee',
    sdkMethod: 'removePayee',
    tag: 'Controls',
    summary: 'Remove a registered payee',
    description:
      'Removes a payee at once: transfers to it answer 40009 from now (in registered-payees mode). Removing a removed payee answers it as it is.',
    data: 'Payee',
    codes: ['PAYEE_NOT_REGISTERED'],
  },
};
