"""The canonical string a signature covers, and RFC 8785 (JCS) JSON, rendered exactly as the platform
(ECMAScript) renders them: numbers in ``String(n)`` form (``5``, never ``5.0``; ``1e-7``, never
``1e-07``), strings as they are at the top level, nested keys in UTF-16 order."""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Any, Mapping

__all__ = ["canonical_string", "jcs", "es_number"]

_MAX_SAFE = 2**53
_ESCAPE = re.compile('["\\\\\x00-\x1f\ud800-\udfff]')
_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def canonical_string(obj: Mapping[str, Any]) -> str:
    """The text a signature covers: every key but ``sign`` whose value is not None or ``""``, sorted by
    code point, rendered as ``key=value`` and joined with ``&``."""
    pairs = sorted(
        ((str(key), value) for key, value in obj.items() if key != "sign" and value is not None and value != ""),
        key=lambda pair: pair[0],  # code point order
    )
    return "&".join(f"{key}={_render(value, key)}" for key, value in pairs)


def jcs(value: Any) -> str:
    """RFC 8785 canonical JSON text of a value (dict, list, tuple, str, int, float, bool, None)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float, Decimal)):
        return es_number(value)
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, Mapping):
        members = sorted(((str(k), v) for k, v in value.items()), key=lambda kv: _utf16(kv[0]))
        return "{" + ",".join(f"{_quote(k)}:{jcs(v)}" for k, v in members) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(jcs(item) for item in value) + "]"
    raise TypeError(f"canonical: a {type(value).__name__} has no JSON form")


def es_number(n: int | float | Decimal) -> str:
    """A number as ECMAScript's ``String(n)`` writes it, which is how the platform reads the JSON number:
    an int beyond 2**53 is the nearest double, as it is once the platform has parsed it."""
    if isinstance(n, bool):
        raise TypeError("canonical: a bool is not a number")
    if isinstance(n, int):
        if -_MAX_SAFE < n < _MAX_SAFE:
            return str(n)
        try:
            n = float(n)
        except OverflowError:
            raise ValueError(f"canonical: {n} is beyond the range of a JSON number") from None
    elif isinstance(n, Decimal):
        n = float(n)
    if not math.isfinite(n):
        raise ValueError(f"canonical: {n} is not a JSON number")
    if n == 0:
        return "0"  # -0 included
    sign = "-" if n < 0 else ""
    # repr is the shortest text that reads back as the same double (and the closest such).
    text = repr(abs(n))
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    point = len(whole) + (int(exponent) if exponent else 0)  # the value is 0.<digits> × 10^point
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    k = len(digits)
    if k <= point <= 21:
        return sign + digits + "0" * (point - k)
    if 0 < point <= 21:
        return sign + digits[:point] + "." + digits[point:]
    if -6 < point <= 0:
        return sign + "0." + "0" * (-point) + digits
    e = point - 1
    fraction_part = "" if k == 1 else "." + digits[1:]
    return f"{sign}{digits[0]}{fraction_part}e{'-' if e < 0 else '+'}{abs(e)}"


def _render(value: Any, key: str) -> str:
    if isinstance(value, str):
        return value
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float, Decimal)):
        return es_number(value)
    if isinstance(value, (Mapping, list, tuple)):
        return jcs(value)
    raise TypeError(f'canonical: "{key}" holds a {type(value).__name__}, not a JSON value')


def _quote(text: str) -> str:
    """A JSON string as ECMAScript's JSON.stringify writes it: only ", \\ and control characters (and lone
    surrogates) escaped, in lower-case hex."""

    def escape(match: re.Match[str]) -> str:
        char = match.group(0)
        return _SHORT_ESCAPES.get(char) or f"\\u{ord(char):04x}"

    return '"' + _ESCAPE.sub(escape, text) + '"'


def _utf16(key: str) -> bytes:
    # RFC 8785 §3.2.3 orders keys by UTF-16 code units; big-endian bytes compare the same way.
    return key.encode("utf-16-be", "surrogatepass")
