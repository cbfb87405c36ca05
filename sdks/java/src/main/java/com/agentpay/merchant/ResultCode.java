package com.agentpay.merchant;

/** Every envelope code of the merchant API by name, for {@code switch (envelope.code())}. */
public final class ResultCode {
  private ResultCode() {}

  public static final int SUCCESS = 0;
  public static final int INVALID_PARAMETER = 10001;
  public static final int INVALID_BODY = 10002;
  public static final int UNSUPPORTED_CONTENT_TYPE = 10003;
  public static final int MERCHANT_NOT_FOUND = 20050;
  public static final int MERCHANT_DISABLED = 20051;
  public static final int SIGNATURE_FAILED = 20052;
  public static final int REQ_TIME_OUT_OF_WINDOW = 20053;
  public static final int NONCE_USED = 20054;
  public static final int APP_NOT_FOUND = 20055;
  public static final int REQUEST_ADDRESS_NOT_ALLOWED = 20056;
  public static final int PAY_METHOD_NOT_AVAILABLE = 30001;
  public static final int DUPLICATE_ORDER = 30002;
  public static final int ORDER_NOT_FOUND = 30003;
  public static final int ORDER_STATUS_FORBIDS = 30004;
  public static final int ORDER_ALREADY_PAID = 30005;
  public static final int PAYIN_LIMIT_EXCEEDED = 30006;
  public static final int REFUND_NOT_POSSIBLE = 30007;
  public static final int DUPLICATE_REFUND = 30008;
  public static final int REFUND_NOT_FOUND = 30009;
  public static final int PAYEE_TYPE_NOT_AVAILABLE = 40001;
  public static final int PAYEE_CODE_NOT_AVAILABLE = 40002;
  public static final int DUPLICATE_TRANSFER = 40003;
  public static final int TRANSFER_NOT_FOUND = 40004;
  public static final int INVALID_PAYEE_ACCOUNT = 40005;
  public static final int INSUFFICIENT_BALANCE = 40006;
  public static final int DUPLICATE_INQUIRY = 40007;
  public static final int PAYOUT_LIMIT_EXCEEDED = 40008;
  public static final int PAYEE_NOT_REGISTERED = 40009;
  public static final int DUPLICATE_BATCH = 40010;
  public static final int TOO_MANY_REQUESTS = 42900;
  public static final int INTERNAL_ERROR = 50000;
  public static final int NO_UPSTREAM_ROUTE = 50001;
  public static final int UPSTREAM_UNAVAILABLE = 50002;
  public static final int SERVICE_UNAVAILABLE = 50003;
}
