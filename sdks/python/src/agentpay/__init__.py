"""Client for the agentpay merchant API: signed requests, verified replies and callbacks."""

from .callback import CALLBACK_SUCCESS, is_pay_order_callback, is_transfer_callback, verify_callback
from .canonical import canonical_string, es_number, jcs
from .client import DEFAULT_TIME_ZONE, Client, Envelope, RequestOptions, Transport, UrllibTransport
from .codes import ResultCode
from .endpoints import ENDPOINTS, Endpoint
from .errors import AgentpayError, ApiError, HttpError, NetworkError, SignatureError
from .money import amount_to_centavos, centavos_to_amount, parse_pay_body
from .signing import load_private_key, load_public_key, sign, verify

__version__ = "0.1.0"

__all__ = [
    "AgentpayError",
    "ApiError",
    "CALLBACK_SUCCESS",
    "Client",
    "DEFAULT_TIME_ZONE",
    "ENDPOINTS",
    "Endpoint",
    "Envelope",
    "HttpError",
    "NetworkError",
    "RequestOptions",
    "ResultCode",
    "SignatureError",
    "Transport",
    "UrllibTransport",
    "amount_to_centavos",
    "canonical_string",
    "centavos_to_amount",
    "es_number",
    "is_pay_order_callback",
    "is_transfer_callback",
    "jcs",
    "load_private_key",
    "load_public_key",
    "parse_pay_body",
    "sign",
    "verify",
    "verify_callback",
]
