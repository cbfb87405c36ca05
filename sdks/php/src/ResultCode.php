<?php

declare(strict_types=1);

namespace Agentpay;

/** The `code` values of the API (docs/merchant-api.md "Codes"). */
final class ResultCode
{
    public const SUCCESS = 0;
    public const INVALID_PARAMETER = 10001;
    public const INVALID_BODY = 10002;
    public const UNSUPPORTED_CONTENT_TYPE = 10003;
    public const MERCHANT_NOT_FOUND = 20050;
    public const MERCHANT_DISABLED = 20051;
    public const SIGNATURE_FAILED = 20052;
    public const REQ_TIME_OUT_OF_WINDOW = 20053;
    public const NONCE_USED = 20054;
    public const APP_NOT_FOUND = 20055;
    public const ADDRESS_NOT_ALLOWED = 20056;
    public const PAY_METHOD_NOT_AVAILABLE = 30001;
    public const DUPLICATE_ORDER = 30002;
    public const ORDER_NOT_FOUND = 30003;
    public const ORDER_STATUS_FORBIDS = 30004;
    public const ORDER_ALREADY_PAID = 30005;
    public const PAYIN_LIMIT_EXCEEDED = 30006;
    public const REFUND_NOT_POSSIBLE = 30007;
    public const DUPLICATE_REFUND = 30008;
    public const REFUND_NOT_FOUND = 30009;
    public const PAYEE_TYPE_NOT_AVAILABLE = 40001;
    public const PAYEE_CODE_NOT_AVAILABLE = 40002;
    public const DUPLICATE_TRANSFER = 40003;
    public const TRANSFER_NOT_FOUND = 40004;
    public const INVALID_PAYEE_ACCOUNT = 40005;
    public const INSUFFICIENT_BALANCE = 40006;
    public const DUPLICATE_INQUIRY = 40007;
    public const PAYOUT_LIMIT_EXCEEDED = 40008;
    public const PAYEE_NOT_REGISTERED = 40009;
    public const TOO_MANY_REQUESTS = 42900;
    public const INTERNAL_ERROR = 50000;
    public const NO_UPSTREAM_ROUTE = 50001;
    public const UPSTREAM_UNAVAILABLE = 50002;
    public const SERVICE_UNAVAILABLE = 50003;
}
