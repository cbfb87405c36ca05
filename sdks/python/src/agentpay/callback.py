"""The callbacks the platform POSTs to a notifyUrl on every status change of an order or transfer. Verify
the raw body, store the change idempotently (the same change can arrive more than once), then answer HTTP
200 with the body ``SUCCESS``; anything else is retried (16 times over about 24 hours)."""

from __future__ import annotations

import json
from typing import Any, Dict, Mapping, Union

from .errors import SignatureError
from .signing import KeyInput, load_public_key, verify

__all__ = ["CALLBACK_SUCCESS", "verify_callback", "is_pay_order_callback", "is_transfer_callback"]

#: The reply body that acknowledges a callback.
CALLBACK_SUCCESS = "SUCCESS"


def verify_callback(body: Union[str, bytes, Mapping[str, Any]], platform_public_key: KeyInput) -> Dict[str, Any]:
    """Verifies a callback body (the raw request body, best, or the dict parsed from it) with the platform
    public key, over every field but ``sign`` (``noticeType`` and ``mchNo`` included), and returns it.

    Raises SignatureError when the body is not JSON, unsigned, changed, or signed by another key: never act
    on such a body."""
    key = load_public_key(platform_public_key)
    if isinstance(body, (str, bytes)):
        try:
            parsed = json.loads(body)
        except ValueError:
            raise SignatureError("callback body is not JSON", body[:500]) from None
    else:
        parsed = dict(body)
    if not isinstance(parsed, dict):
        raise SignatureError("callback body is not a JSON object", parsed)
    signature = parsed.get("sign")
    if not isinstance(signature, str) or signature == "":
        raise SignatureError("callback is not signed", parsed)
    if not verify(parsed, signature, key):
        raise SignatureError("callback signature does not verify with the platform public key", parsed)
    if not isinstance(parsed.get("data"), dict):
        # Signed by the platform but not a shape this SDK knows: refuse rather than guess.
        raise SignatureError("callback has no order in data", parsed)
    return parsed


def is_pay_order_callback(callback: Mapping[str, Any]) -> bool:
    """True for a payment order's callback (its data carries orderNo)."""
    return isinstance(callback.get("data", {}).get("orderNo"), str)


def is_transfer_callback(callback: Mapping[str, Any]) -> bool:
    """True for a transfer's callback (its data carries transferNo)."""
    return isinstance(callback.get("data", {}).get("transferNo"), str)
