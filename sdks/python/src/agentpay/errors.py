"""Everything the SDK raises."""

from __future__ import annotations

from typing import Any

__all__ = ["AgentpayError", "SignatureError", "HttpError", "NetworkError", "ApiError"]


class AgentpayError(Exception):
    """Base class of everything the SDK raises."""


class SignatureError(AgentpayError):
    """A reply or callback that is unsigned or whose signature does not verify with the platform public
    key. Never act on its content: it did not come from the platform, or was changed on the way."""

    def __init__(self, message: str, body: Any = None) -> None:
        super().__init__(message)
        self.body = body


class HttpError(AgentpayError):
    """A reply that is not an API envelope at all (a proxy's error page, an empty body)."""

    def __init__(self, message: str, status: int, body_text: str) -> None:
        super().__init__(message)
        self.status = status
        self.body_text = body_text


class NetworkError(AgentpayError):
    """No reply: connection refused or reset, DNS failure, or the timeout passed. For pay, transfer and
    inquire the outcome is then unknown: repeat the call with the same biz number (it is idempotent) or
    query it."""

    def __init__(self, message: str, timed_out: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out


class ApiError(AgentpayError):
    """Raised by ``Envelope.unwrap()`` for a reply whose code is not 0."""

    def __init__(self, code: int, msg: str, trace_id: str) -> None:
        super().__init__(f"agentpay {code}: {msg} (traceId {trace_id})")
        self.code = code
        self.msg = msg
        self.trace_id = trace_id
