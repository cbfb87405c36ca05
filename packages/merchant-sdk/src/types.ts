// Request parameters and reply shapes of the merchant API. Amounts are JSON numbers in pesos (MXN) with
// at most two decimals (100.5 is 100.50 MXN); date-times are `yyyy-MM-dd HH:mm:ss` on the platform's
// wall clock (America/Mexico_City unless the platform says otherwise). A field without a value is left
// out of a reply, never sent as null.

/** A code the API may add to later is typed as its known values plus any other string. */
type Open<T extends string> = T | (string & {});

export type PayMethod = Open<'mex_virtual_account'>;
export type LimitPay = Open<'no_credit'>;
export type PayStatus = Open<'wait' | 'progress' | 'success' | 'close' | 'cancel' | 'fail' | 'timeout'>;
export type SettleStatus = Open<'not_settle' | 'settled'>;
export type SettleType = Open<'REALTIME' | 'D+1' | 'D+2' | 'D+3'>;
export type PayeeType = Open<'spei_transfer' | 'bank_card' | 'user_id' | 'open_id' | 'login_name'>;
export type TransferStatus = Open<'progress' | 'success' | 'close' | 'fail'>;
export type InquiryStatus = Open<'valid' | 'invalid' | 'unknown'>;

/** The signed reply of every call: `code` 0 is success; any other code is a business or request failure. */
export interface Envelope<T> {
  code: number;
  msg: string;
  /** The payload; null on a failure and on a successful close. */
  data: T | null;
  /** Platform signature; the client has verified it before you see the envelope. */
  sign: string;
  resTime: string;
  /** W3C trace id of the request: quote it to support. */
  traceId: string;
}

/** An envelope whose code is 0. */
export type SuccessEnvelope<T> = Envelope<T> & { code: 0; data: T };

/** Common parameters a caller may set per request; mchNo, reqTime, nonceStr and sign are filled in. */
export interface RequestOptions {
  /** Overrides the client's appId for this request. */
  appId?: string;
  /** The paying or requesting end user's IP address (at most 64 characters). */
  clientIp?: string;
  /** Overrides the random nonce (at most 32 characters, unique per merchant within 24 h). */
  nonceStr?: string;
  /** W3C `traceparent` to continue your own trace; the reply's traceId is then your trace id. */
  traceparent?: string;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** Either identifier of a payment order; when both are given they must name the same order. */
export type PayOrderRef = { orderNo: string; bizOrderNo?: string } | { orderNo?: string; bizOrderNo: string };

/** Either identifier of a transfer; when both are given they must name the same transfer. */
export type TransferRef =
  | { transferNo: string; bizTransferNo?: string }
  | { transferNo?: string; bizTransferNo: string };

/** An extension parameter: a JSON object, or its JSON text (at most 2048 characters once serialized). */
export type ExtraParam = string | Record<string, unknown>;

/** POST /gateway/pay */
export interface PayParams {
  /** Your order number, 1..100 characters, unique per merchant: repeating it with the same parameters returns the same order. */
  bizOrderNo: string;
  /** 1..100 characters. */
  title: string;
  /** At most 50 characters. */
  description?: string;
  /** `yyyy-MM-dd HH:mm:ss`, in the future and within 30 days; default 24 h after creation. */
  expiredTime?: string;
  method: PayMethod;
  /** At most 128 characters. */
  limitPay?: LimitPay;
  /** Pesos, 0.01..99,999,999.99, at most 2 decimals. */
  amount: number;
  extraParam?: ExtraParam;
  /** At most 500 characters, returned unchanged in queries and callbacks. */
  attach?: string;
  /** http(s) URL, at most 200 characters. */
  returnUrl?: string;
  /** http(s) URL, at most 200 characters. */
  quitUrl?: string;
  /** http(s) URL, at most 200 characters: where status-change callbacks are POSTed. */
  notifyUrl?: string;
}

/** `data` of pay. */
export interface PayResult {
  bizOrderNo?: string;
  orderNo?: string;
  status?: PayStatus;
  /** JSON text; parse it with parsePayBody. */
  payBody?: string;
}

/** What the payer needs, from PayResult.payBody: send `amount` by SPEI to `clabe`. */
export interface PayBody {
  /** The 18-digit virtual account (CLABE) of this order. */
  clabe: string;
  bankCode?: string;
  bankName?: string;
  beneficiaryName?: string;
  amount: number;
  expiredTime?: string;
  reference?: string;
  /**
   * The platform's hosted payment page for this order (`…/cashier/{orderNo}?t=…`): send the payer there
   * instead of showing the CLABE yourself; it follows the order live and returns them to your returnUrl.
   */
  cashierUrl?: string;
}

/** An item of the options endpoints. */
export interface OptionItem {
  code: string;
  name: string;
}

/** POST /gateway/options/payee-codes */
export interface PayeeCodesParams {
  payeeType: PayeeType;
}

/** POST /gateway/close */
export type CloseParams = PayOrderRef & {
  /** Close by cancel mode (status `cancel` instead of `close`). */
  useCancel?: boolean;
};

/** POST /gateway/inqury */
export interface InquiryParams {
  /** Your inquiry number, 1..100 characters, unique per merchant. */
  bizInquryNo: string;
  payeeType: PayeeType;
  /** 1..100 characters: an 18-digit CLABE for spei_transfer, a 16-digit debit card for bank_card. */
  payeeAccount: string;
  /** At most 50 characters. */
  payeeName?: string;
  /** A public code from payeeCodes (Banxico institution code for SPEI), at most 64 characters. */
  payeeCode?: string;
  extraParam?: ExtraParam;
  attach?: string;
}

/** `data` of inquire. */
export interface InquiryResult {
  bizInquryNo?: string;
  inquryNo?: string;
  status?: InquiryStatus;
  accountValid?: boolean;
  uploadPayeeName?: string;
}

/** POST /gateway/transfer */
export interface TransferParams {
  /** Your transfer number, 1..100 characters, unique per merchant. */
  bizTransferNo: string;
  /** Pesos, 0.01..99,999,999.99, at most 2 decimals. */
  amount: number;
  /** At most 100 characters. */
  title?: string;
  /** At most 50 characters. */
  reason?: string;
  payeeType: PayeeType;
  /** 1..100 characters. */
  payeeAccount: string;
  /** At most 50 characters. */
  payeeName?: string;
  /** At most 64 characters; required for bank_card, derived from the CLABE for spei_transfer when absent. */
  payeeCode?: string;
  extraParam?: ExtraParam;
  attach?: string;
  /** http(s) URL, at most 200 characters. */
  notifyUrl?: string;
}

/** POST /gateway/refund: one of orderNo, bizOrderNo names the paid order. */
export type RefundParams = (
  | { orderNo: string; bizOrderNo?: string }
  | { orderNo?: string; bizOrderNo: string }
) & {
  /** Your refund number, 1..100 characters, unique per merchant. */
  bizRefundNo: string;
  /** Pesos, 0.01..99,999,999.99; absent: all the order has left to refund. */
  amount?: number;
  /** At most 50 characters. */
  reason?: string;
  /** http(s) URL, at most 200 characters: the refund's callbacks. */
  notifyUrl?: string;
};

/** Either identifier of a refund; when both are given they must name the same refund. */
export type RefundRef =
  | { refundNo: string; bizRefundNo?: string }
  | { refundNo?: string; bizRefundNo: string };

export type RefundStatus = Open<'progress' | 'success' | 'fail'>;

/** `data` of refund. */
export interface RefundResult {
  refundNo?: string;
  bizRefundNo?: string;
  orderNo?: string;
  amount?: number;
  status?: RefundStatus;
}

/**
 * The six facts Banxico's CEP page (https://www.banxico.org.mx/cep/) looks a SPEI payment up by: the
 * operation day dd-MM-yyyy, the tracking key, the sending and receiving banks' 5-digit codes, the receiving
 * account and the amount with two decimals.
 */
export interface Cep {
  fecha: string;
  claveRastreo: string;
  emisor: string;
  receptor: string;
  cuenta: string;
  monto: string;
}

/** A refund as queryRefund returns it and as a refund callback carries it. */
export interface Refund {
  refundNo?: string;
  bizRefundNo?: string;
  orderNo?: string;
  bizOrderNo?: string;
  amount?: number;
  fee?: number;
  reason?: string;
  payeeType?: PayeeType;
  payeeAccount?: string;
  payeeName?: string;
  payeeCode?: string;
  status?: RefundStatus;
  finishTime?: string;
  claveRastreo?: string;
  /** Once the refund succeeded. */
  cep?: Cep;
  /** Banxico's CEP page, when the channel gives one. */
  cepUrl?: string;
}

/** `data` of transfer. */
export interface TransferResult {
  bizTransferNo?: string;
  transferNo?: string;
  status?: TransferStatus;
}

/** One item of POST /gateway/transfer/batch: a transfer without its own notifyUrl or extraParam. */
export type TransferBatchItem = Omit<TransferParams, 'notifyUrl' | 'extraParam'>;

/** POST /gateway/transfer/batch */
export interface TransferBatchParams {
  /** Your batch number, 1..100 characters, unique per merchant. */
  bizBatchNo: string;
  /** Where every item's transfer callback goes; http(s) URL, at most 200 characters. */
  notifyUrl?: string;
  /** 1..1,000 items, each bizTransferNo unused by any of your transfers. */
  items: TransferBatchItem[];
}

/** `data` of transferBatch. */
export interface TransferBatchResult {
  batchNo?: string;
  bizBatchNo?: string;
  status?: Open<'progress' | 'done'>;
  count?: number;
  amount?: number;
  fee?: number;
}

/** POST /gateway/query/transferBatch */
export type TransferBatchRef = (
  | { batchNo: string; bizBatchNo?: string }
  | { batchNo?: string; bizBatchNo: string }
) & { cursor?: string; limit?: number };

/** `data` of queryTransferBatch: the batch, its counts per status and one page of items. */
export interface TransferBatch extends TransferBatchResult {
  createTime?: string;
  /** Absent once the batch is done. */
  progressCount?: number;
  successCount?: number;
  failCount?: number;
  closeCount?: number;
  items?: TransferOrder[];
  /** Present while more items follow. */
  nextCursor?: string;
}

/** A payment order as queryPayOrder returns it and as a payment callback carries it. */
export interface PayOrder {
  bizOrderNo?: string;
  orderNo?: string;
  title?: string;
  description?: string;
  method?: PayMethod;
  limitPay?: LimitPay;
  amount?: number;
  fee?: number;
  realAmount?: number;
  status?: PayStatus;
  settleStatus?: SettleStatus;
  settleType?: SettleType;
  settleTime?: string;
  payTime?: string;
  closeTime?: string;
  expiredTime?: string;
  attach?: string;
  /** SPEI tracking key (clave de rastreo) of the deposit that paid the order; absent until paid. */
  claveRastreo?: string;
  /** The paying deposit's CEP facts, once paid. */
  cep?: Cep;
  /** Banxico's CEP page, when the channel gives one. */
  cepUrl?: string;
}

/** A transfer as queryTransferOrder returns it and as a transfer callback carries it. */
export interface TransferOrder {
  bizTransferNo?: string;
  transferNo?: string;
  amount?: number;
  fee?: number;
  title?: string;
  reason?: string;
  payeeType?: PayeeType;
  payeeAccount?: string;
  payeeName?: string;
  payeeCode?: string;
  status?: TransferStatus;
  finishTime?: string;
  attach?: string;
  /** SPEI tracking key (clave de rastreo) of the payout; absent until the channel assigned one. */
  claveRastreo?: string;
  /** The payout's CEP facts, once it succeeded. */
  cep?: Cep;
  /** Banxico's CEP page, when the channel gives one. */
  cepUrl?: string;
}

/** `data` of syncPayOrder. */
export interface SyncResult {
  /** The order's status after synchronization. */
  orderStatus?: PayStatus;
  /** True when the platform changed the local order to match upstream. */
  adjust?: boolean;
}

/** The body the platform POSTs to a notifyUrl when an order's status changes. */
export interface CallbackBase<T> {
  code: number;
  msg: string;
  noticeType: Open<'order_status_changed'>;
  mchNo: string;
  appId?: string;
  data: T;
  sign: string;
  resTime: string;
  traceId: string;
}

export type PayOrderCallback = CallbackBase<PayOrder & { orderNo: string }>;
export type TransferCallback = CallbackBase<TransferOrder & { transferNo: string }>;
export type RefundCallback = CallbackBase<Refund & { refundNo: string }>;
export type Callback = PayOrderCallback | TransferCallback | RefundCallback;

export type BalanceRecordType = Open<
  | 'pay_in'
  | 'settle'
  | 'transfer_freeze'
  | 'transfer_unfreeze'
  | 'transfer_out'
  | 'transfer_return'
  | 'adjust'
>;

/** `data` of balance: the MXN balance in three parts, in pesos; none is ever below zero. */
export interface Balance {
  currency: Open<'MXN'>;
  /** May be paid out: a transfer needs amount + fee of it (40006 otherwise). */
  available: number;
  /** Paid in, not settled yet (moves to available on the order's settlement day). */
  pending: number;
  /** Held for transfers still in progress. */
  frozen: number;
}

/** POST /gateway/query/balanceRecords */
export interface BalanceRecordsParams {
  /** `yyyy-MM-dd HH:mm:ss`, included. */
  startTime: string;
  /** `yyyy-MM-dd HH:mm:ss`, excluded; after startTime and at most 31 days after it. */
  endTime: string;
  /** Records per page, 1..500; default 100. */
  limit?: number;
  /** The previous page's nextCursor. */
  cursor?: string;
}

/**
 * One movement of the balance. The three balances are the ones right after this record, so each
 * record's balances equal the previous record's plus its own changes.
 */
export interface BalanceRecord {
  recordNo: string;
  type: BalanceRecordType;
  orderNo?: string;
  bizOrderNo?: string;
  transferNo?: string;
  bizTransferNo?: string;
  /** The order's or transfer's amount; for `adjust` the adjustment itself (negative for a debit). */
  amount: number;
  fee: number;
  availableChange: number;
  pendingChange: number;
  frozenChange: number;
  availableBalance: number;
  pendingBalance: number;
  frozenBalance: number;
  /** The operator's reason, for `adjust`. */
  remark?: string;
  createTime: string;
}

/** `data` of balanceRecords: one page, oldest first. */
export interface BalanceRecordPage {
  records: BalanceRecord[];
  /** Present while another page follows: pass it as `cursor`. */
  nextCursor?: string;
}

/** `data` of limits: the limits in effect, in pesos (a count for dailyCount); null is no limit. */
export interface Limits {
  limits: {
    payout: {
      perTransfer: number | null;
      daily: number | null;
      dailyCount: number | null;
      monthly: number | null;
    };
    payin: { perOrder: number | null };
  };
  /** What the payout limits are checked against: transfer amounts without fees, Mexico City day and month. */
  usage: { day: string; payoutAmount: number; payoutCount: number; month: string; monthAmount: number };
}

/** POST /gateway/payee/register */
export interface RegisterPayeeParams {
  payeeType: string;
  payeeAccount: string;
  payeeName: string;
  payeeCode?: string;
}

/** A registered payee. */
export interface Payee {
  payeeId: string;
  payeeType: string;
  payeeAccount: string;
  payeeName: string;
  payeeCode?: string;
  status: Open<'cooling' | 'usable' | 'removed'>;
  /** `yyyy-MM-dd HH:mm:ss`: when a cooling payee becomes usable without an approval. */
  usableAt: string;
  createTime: string;
  removeTime?: string;
}

/** POST /gateway/query/payees */
export interface PayeesParams {
  /** 1..200, default 50. */
  limit?: number;
  cursor?: string;
}

/** `data` of payees. */
export interface PayeePage {
  payees: Payee[];
  /** Pass it as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}
