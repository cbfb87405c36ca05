"""The merchant's client of the agentpay API."""

from __future__ import annotations

import json
import random
import secrets
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from http.client import HTTPException
from typing import Any, Callable, Dict, Iterator, Mapping, Optional, Protocol, Sequence, Tuple, Union

from .codes import ResultCode
from .endpoints import ENDPOINTS
from .errors import ApiError, HttpError, NetworkError, SignatureError
from .signing import KeyInput, load_private_key, load_public_key, sign, verify

try:
    from zoneinfo import ZoneInfo
except ImportError:  # pragma: no cover - Python 3.8 is not supported; kept for a clear message
    raise ImportError("agentpay needs Python 3.9 or later (zoneinfo)") from None

__all__ = ["Client", "Envelope", "RequestOptions", "Transport", "UrllibTransport", "DEFAULT_TIME_ZONE"]

DEFAULT_TIME_ZONE = "America/Mexico_City"
_RETRY_STATUSES = (429, 502, 503, 504)
_MAX_BACKOFF_SECONDS = 5.0

Amount = Union[int, float, Decimal]
ExtraParam = Union[str, Mapping[str, Any], None]


@dataclass(frozen=True)
class RequestOptions:
    """Common parameters a caller may set per request; mchNo, reqTime, nonceStr and sign are filled in."""

    #: Overrides the client's app_id for this request.
    app_id: Optional[str] = None
    #: The paying or requesting end user's IP address (at most 64 characters).
    client_ip: Optional[str] = None
    #: Your own nonce (at most 32 characters, unique within 24 h); it turns retries off for the call.
    nonce_str: Optional[str] = None
    #: W3C traceparent to continue your own trace: the reply's traceId is then your trace id.
    traceparent: Optional[str] = None


@dataclass(frozen=True)
class Envelope:
    """The signed reply of every call, verified with the platform key before you see it. ``code`` 0 is
    success; any other code is a business or request failure (see ResultCode), with ``data`` None."""

    code: int
    msg: str
    #: The payload (dict or list, with the API's field names); None on a failure and on a successful close.
    data: Any
    sign: str
    res_time: str
    #: W3C trace id of the request: quote it to support.
    trace_id: str
    #: The whole reply as received, sign included.
    raw: Dict[str, Any] = field(repr=False)

    @property
    def is_success(self) -> bool:
        return self.code == ResultCode.SUCCESS

    def unwrap(self) -> Any:
        """The payload when the code is 0; otherwise raises ApiError with the code and msg."""
        if self.code != ResultCode.SUCCESS:
            raise ApiError(self.code, self.msg, self.trace_id)
        return self.data


class Transport(Protocol):
    """Sends one POST; returns (status, body text, headers with lower-case names). Raises NetworkError when
    no reply came. The default is UrllibTransport; pass your own for a proxy or for tests."""

    def post(
        self, url: str, body: bytes, headers: Mapping[str, str], timeout: float
    ) -> Tuple[int, str, Dict[str, str]]: ...


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a redirect is answered as what it is, not followed as a GET


class UrllibTransport:
    """POSTs with the standard library's urllib."""

    def __init__(self) -> None:
        self._opener = urllib.request.build_opener(_NoRedirect())

    def post(self, url: str, body: bytes, headers: Mapping[str, str], timeout: float) -> Tuple[int, str, Dict[str, str]]:
        request = urllib.request.Request(url, data=body, headers=dict(headers), method="POST")
        try:
            with self._opener.open(request, timeout=timeout) as response:
                return response.status, _text(response.read()), _headers(response.headers)
        except urllib.error.HTTPError as e:
            return e.code, _text(e.read()), _headers(e.headers)
        except (urllib.error.URLError, OSError, HTTPException) as e:
            reason = getattr(e, "reason", e)
            timed_out = isinstance(reason, (socket.timeout, TimeoutError))
            raise NetworkError(f"POST {url}: {reason}", timed_out) from e


class Client:
    """A merchant's client of the agentpay API. Each call fills in mchNo, reqTime and nonceStr, signs with
    the merchant key, POSTs, verifies the reply with the platform key (raising SignatureError when it does
    not verify) and returns the Envelope. Business failures come back as envelopes with a non-zero code,
    not as exceptions; ``envelope.unwrap()`` turns them into ApiError where that reads better.

    ``base_url`` is where the merchant API is (no /gateway suffix); ``private_key`` your RSA private key
    and ``platform_public_key`` the platform's public key, as PEM text; ``app_id`` is sent on every request
    unless RequestOptions overrides it; ``time_zone`` is the platform's wall clock, for reqTime;
    ``max_retries`` retries of a call that is safe to repeat (sdks/README.md "Retries"; 0 turns them off).
    """

    def __init__(
        self,
        base_url: str,
        mch_no: str,
        private_key: KeyInput,
        platform_public_key: KeyInput,
        *,
        app_id: Optional[str] = None,
        time_zone: str = DEFAULT_TIME_ZONE,
        timeout: float = 30.0,
        max_retries: int = 2,
        retry_base_delay: float = 0.2,
        transport: Optional[Transport] = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not base_url:
            raise ValueError("base_url is required")
        if not mch_no:
            raise ValueError("mch_no is required")
        self.mch_no = mch_no
        self._base_url = base_url.rstrip("/")
        self._private_key = load_private_key(private_key)
        self._platform_key = load_public_key(platform_public_key)
        self._app_id = app_id
        self._zone = ZoneInfo(time_zone)  # fails here, not on the first request
        self._timeout = timeout
        self._max_retries = max_retries
        self._retry_base_delay = retry_base_delay
        self._transport: Transport = transport or UrllibTransport()
        self._sleep = sleep

    # --- Payment orders ------------------------------------------------------------------------------

    def pay(
        self,
        *,
        biz_order_no: str,
        title: str,
        method: str,
        amount: Amount,
        description: Optional[str] = None,
        expired_time: Optional[str] = None,
        limit_pay: Optional[str] = None,
        extra_param: ExtraParam = None,
        attach: Optional[str] = None,
        return_url: Optional[str] = None,
        quit_url: Optional[str] = None,
        notify_url: Optional[str] = None,
        options: Optional[RequestOptions] = None,
    ) -> Envelope:
        """Creates a virtual-account payment order; ``data["payBody"]`` (parse_pay_body) tells the payer
        where to send the money. ``biz_order_no`` is the idempotency key. ``amount`` is pesos, at most 2
        decimals (centavos_to_amount); ``extra_param`` a dict (serialized for you) or its JSON text."""
        return self._call("pay", locals())

    def close(
        self,
        *,
        order_no: Optional[str] = None,
        biz_order_no: Optional[str] = None,
        use_cancel: Optional[bool] = None,
        options: Optional[RequestOptions] = None,
    ) -> Envelope:
        """Closes (with use_cancel, cancels) an unfinished payment order; data is None."""
        _require_one(order_no=order_no, biz_order_no=biz_order_no)
        return self._call("close", locals())

    def query_pay_order(
        self, *, order_no: Optional[str] = None, biz_order_no: Optional[str] = None, options: Optional[RequestOptions] = None
    ) -> Envelope:
        """A payment order by order_no or biz_order_no."""
        _require_one(order_no=order_no, biz_order_no=biz_order_no)
        return self._call("queryPayOrder", locals())

    def sync_pay_order(
        self, *, order_no: Optional[str] = None, biz_order_no: Optional[str] = None, options: Optional[RequestOptions] = None
    ) -> Envelope:
        """Asks the platform to re-read a payment order's status from upstream: data is {orderStatus, adjust}."""
        _require_one(order_no=order_no, biz_order_no=biz_order_no)
        return self._call("syncPayOrder", locals())

    # --- Options -------------------------------------------------------------------------------------

    def pay_methods(self, *, options: Optional[RequestOptions] = None) -> Envelope:
        """The payment methods open to this merchant: data is a list of {code, name}."""
        return self._call("payMethods", locals())

    def payee_types(self, *, options: Optional[RequestOptions] = None) -> Envelope:
        """The payee types open to this merchant for transfers: data is a list of {code, name}."""
        return self._call("payeeTypes", locals())

    def payee_codes(self, *, payee_type: str, options: Optional[RequestOptions] = None) -> Envelope:
        """The public payee codes (Banxico institution codes for SPEI) of a payee type, to use as payeeCode."""
        return self._call("payeeCodes", locals())

    # --- Transfers -----------------------------------------------------------------------------------

    def inquire(
        self,
        *,
        biz_inqury_no: str,
        payee_type: str,
        payee_account: str,
        payee_name: Optional[str] = None,
        payee_code: Optional[str] = None,
        extra_param: ExtraParam = None,
        attach: Optional[str] = None,
        options: Optional[RequestOptions] = None,
    ) -> Envelope:
        """Validates a payee account before a transfer (POST /gateway/inqury)."""
        return self._call("inquire", locals())

    def transfer(
        self,
        *,
        biz_transfer_no: str,
        amount: Amount,
        payee_type: str,
        payee_account: str,
        title: Optional[str] = None,
        reason: Optional[str] = None,
        payee_name: Optional[str] = None,
        payee_code: Optional[str] = None,
        extra_param: ExtraParam = None,
        attach: Optional[str] = None,
        notify_url: Optional[str] = None,
        options: Optional[RequestOptions] = None,
    ) -> Envelope:
        """Creates and submits a transfer (payout); ``biz_transfer_no`` is the idempotency key."""
        return self._call("transfer", locals())

    def query_transfer_order(
        self,
        *,
        transfer_no: Optional[str] = None,
        biz_transfer_no: Optional[str] = None,
        options: Optional[RequestOptions] = None,
    ) -> Envelope:
        """A transfer by transfer_no or biz_transfer_no."""
        _require_one(transfer_no=transfer_no, biz_transfer_no=biz_transfer_no)
        return self._call("queryTransferOrder", locals())

    # --- Refunds -------------------------------------------------------------------------------------

    def refund(
        self,
        *,
        biz_refund_no: str,
        order_no: Optional[str] = None,
        biz_order_no: Optional[str] = None,
        amount: Optional[Amount] = None,
        reason: Optional[str] = None,
        notify_url: Optional[str] = None,
        options: Optional[RequestOptions] = None,
    ) -> Envelope:
        """Refunds a paid order to its payer's account: all that is left, or ``amount``; idempotent on biz_refund_no."""
        _require_one(order_no=order_no, biz_order_no=biz_order_no)
        return self._call("refund", locals())

    def query_refund(
        self,
        *,
        refund_no: Optional[str] = None,
        biz_refund_no: Optional[str] = None,
        options: Optional[RequestOptions] = None,
    ) -> Envelope:
        """A refund by refund_no or biz_refund_no, with its CEP facts once it succeeded."""
        _require_one(refund_no=refund_no, biz_refund_no=biz_refund_no)
        return self._call("queryRefund", locals())

    # --- Balance -------------------------------------------------------------------------------------

    def balance(self, *, options: Optional[RequestOptions] = None) -> Envelope:
        """The MXN balance now: data is {currency, available, pending, frozen}, in pesos."""
        return self._call("balance", locals())

    def balance_records(
        self,
        *,
        start_time: str,
        end_time: str,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        options: Optional[RequestOptions] = None,
    ) -> Envelope:
        """One page of the statement: records in [start_time, end_time) (``yyyy-MM-dd HH:mm:ss``, at most
        31 days apart), oldest first; data is {records, nextCursor?}."""
        return self._call("balanceRecords", locals())

    def all_balance_records(
        self, *, start_time: str, end_time: str, limit: Optional[int] = None, cursor: Optional[str] = None
    ) -> Iterator[Dict[str, Any]]:
        """Every record of the statement, page after page; a page answered with a non-zero code raises ApiError."""
        while True:
            page = self.balance_records(start_time=start_time, end_time=end_time, limit=limit, cursor=cursor).unwrap()
            yield from page["records"]
            cursor = page.get("nextCursor")
            if not cursor:
                return

    # --- Controls on where money goes -------------------------------------------------------------

    def query_limits(self, *, options: Optional[RequestOptions] = None) -> Envelope:
        """The payout and pay-in limits in effect and today's and this month's usage (Mexico City days)."""
        return self._call("queryLimits", locals())

    def register_payee(
        self,
        *,
        payee_type: str,
        payee_account: str,
        payee_name: str,
        payee_code: Optional[str] = None,
        options: Optional[RequestOptions] = None,
    ) -> Envelope:
        """Registers a payee: data is {payeeId, status (cooling|usable), usableAt, ...}; the same account
        registered again answers its registration."""
        return self._call("registerPayee", locals())

    def query_payees(
        self, *, limit: Optional[int] = None, cursor: Optional[str] = None, options: Optional[RequestOptions] = None
    ) -> Envelope:
        """One page of the registered payees, newest first; data is {payees, nextCursor?}."""
        return self._call("queryPayees", locals())

    def remove_payee(self, *, payee_id: str, options: Optional[RequestOptions] = None) -> Envelope:
        """Removes a registered payee at once; transfers to it are refused from now (40009)."""
        return self._call("removePayee", locals())

    def transfer_batch(
        self,
        *,
        biz_batch_no: str,
        items: Sequence[Mapping[str, Any]],
        notify_url: Optional[str] = None,
        options: Optional[RequestOptions] = None,
    ) -> Envelope:
        """Creates a batch payout of 1..1,000 items (each a transfer's fields with the API's names:
        bizTransferNo, amount, payeeType, payeeAccount, ...), funded as one; data is {batchNo, bizBatchNo,
        status, count, amount, fee}."""
        return self._call("transferBatch", locals())

    def query_transfer_batch(
        self,
        *,
        batch_no: Optional[str] = None,
        biz_batch_no: Optional[str] = None,
        cursor: Optional[str] = None,
        limit: Optional[int] = None,
        options: Optional[RequestOptions] = None,
    ) -> Envelope:
        """A batch payout by batchNo or bizBatchNo and one page of its items; follow nextCursor."""
        return self._call("queryTransferBatch", locals())

    # --- Any path ------------------------------------------------------------------------------------

    def request(
        self, path: str, params: Mapping[str, Any], options: Optional[RequestOptions] = None, *, retry_safe: bool = False
    ) -> Envelope:
        """Signs ``params`` (API field names), POSTs them to ``path`` and returns the verified envelope: for
        a path this SDK does not know yet. Retried only when you say repeating it is safe."""
        return self._send(path, params, options, retry_safe)

    def signed_body(self, params: Mapping[str, Any], options: Optional[RequestOptions] = None) -> Dict[str, Any]:
        """The signed body the client would send for ``params`` (for logging or your own transport)."""
        body: Dict[str, Any] = {}
        for key, value in params.items():
            if value is None or key == "sign":
                continue
            if key == "extraParam" and isinstance(value, Mapping):
                value = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
            elif isinstance(value, Decimal):
                value = float(value)  # the wire has JSON numbers, read by the platform as doubles
            body[key] = value
        body["mchNo"] = self.mch_no
        body["reqTime"] = datetime.now(self._zone).strftime("%Y-%m-%d %H:%M:%S")
        body["nonceStr"] = (options.nonce_str if options else None) or secrets.token_hex(16)
        app_id = (options.app_id if options else None) or self._app_id
        if app_id is not None:
            body["appId"] = app_id
        if options and options.client_ip is not None:
            body["clientIp"] = options.client_ip
        body["sign"] = sign(body, self._private_key)
        return body

    # --- Internals -----------------------------------------------------------------------------------

    def _call(self, operation: str, arguments: Dict[str, Any]) -> Envelope:
        endpoint = ENDPOINTS[operation]
        options = arguments.get("options")
        params = {_camel(name): value for name, value in arguments.items() if name not in ("self", "options")}
        return self._send(endpoint.path, params, options, endpoint.retry)

    def _send(self, path: str, params: Mapping[str, Any], options: Optional[RequestOptions], retry_safe: bool) -> Envelope:
        # A caller's own nonce cannot be sent twice (20054), so it turns retries off.
        retries = self._max_retries if retry_safe and not (options and options.nonce_str) else 0
        headers = {"content-type": "application/json", "accept": "application/json"}
        if options and options.traceparent:
            headers["traceparent"] = options.traceparent
        attempt = 0
        while True:
            # Signed afresh on every attempt: a new reqTime and nonceStr.
            body = json.dumps(
                self.signed_body(params, options), ensure_ascii=False, separators=(",", ":"), allow_nan=False
            ).encode("utf-8")
            try:
                status, text, reply_headers = self._transport.post(self._base_url + path, body, headers, self._timeout)
            except NetworkError:
                if attempt < retries:
                    self._sleep(self._backoff(attempt, None))
                    attempt += 1
                    continue
                raise
            if attempt < retries and status in _RETRY_STATUSES:
                self._sleep(self._backoff(attempt, reply_headers.get("retry-after")))
                attempt += 1
                continue
            return self._verified(path, status, text)

    def _backoff(self, attempt: int, retry_after: Optional[str]) -> float:
        if retry_after is not None:
            try:
                return min(float(retry_after), _MAX_BACKOFF_SECONDS)
            except ValueError:
                pass  # an HTTP date: use the usual backoff
        delay = min(self._retry_base_delay * (2**attempt), _MAX_BACKOFF_SECONDS)
        return delay * (0.5 + random.random() / 2)

    def _verified(self, path: str, status: int, text: str) -> Envelope:
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = None
        if (
            not isinstance(parsed, dict)
            or not isinstance(parsed.get("code"), int)
            or isinstance(parsed.get("code"), bool)
            or not isinstance(parsed.get("msg"), str)
        ):
            raise HttpError(f"POST {path}: HTTP {status} without an API envelope", status, text[:500])
        signature = parsed.get("sign")
        if not isinstance(signature, str) or signature == "":
            raise SignatureError(f"POST {path}: the reply is not signed", parsed)
        if not verify(parsed, signature, self._platform_key):
            raise SignatureError(f"POST {path}: the reply's signature does not verify with the platform public key", parsed)
        return Envelope(
            code=parsed["code"],
            msg=parsed["msg"],
            data=parsed.get("data"),
            sign=signature,
            res_time=str(parsed.get("resTime", "")),
            trace_id=str(parsed.get("traceId", "")),
            raw=parsed,
        )


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _require_one(**refs: Optional[str]) -> None:
    if not any(refs.values()):
        raise ValueError("give " + " or ".join(refs))


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _headers(headers: Any) -> Dict[str, str]:
    return {k.lower(): v for k, v in headers.items()} if headers is not None else {}
