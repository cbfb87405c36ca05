"""Amounts are JSON numbers in pesos with at most 2 decimals (100.5 is 100.50 MXN). Keep money as integer
centavos in your own code and convert at the edge."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any, Dict, Union

from .canonical import es_number

__all__ = ["centavos_to_amount", "amount_to_centavos", "parse_pay_body"]

_AMOUNT = re.compile(r"^(\d+)(?:\.(\d{1,2}))?$")


def centavos_to_amount(centavos: int) -> Union[int, float]:
    """Integer centavos as the API's amount: 10050 → 100.5 (one correctly rounded division)."""
    if isinstance(centavos, bool) or not isinstance(centavos, int):
        raise TypeError("centavos must be an int")
    return centavos // 100 if centavos % 100 == 0 else centavos / 100


def amount_to_centavos(amount: Union[int, float, Decimal]) -> int:
    """An API amount as integer centavos: 100.5 → 10050. Read from the number's shortest decimal text, so a
    float artefact such as 0.1 + 0.2 is refused rather than rounded."""
    match = _AMOUNT.match(es_number(amount))
    if not match:
        raise ValueError(f"{amount!r} is not a non-negative amount with at most 2 decimals")
    return int(match.group(1) + (match.group(2) or "").ljust(2, "0"))


def parse_pay_body(pay_body: str) -> Dict[str, Any]:
    """The ``payBody`` JSON text of a pay reply: clabe, amount, bankCode, bankName, beneficiaryName,
    expiredTime, reference, cashierUrl."""
    parsed = json.loads(pay_body)
    if not isinstance(parsed, dict) or not isinstance(parsed.get("clabe"), str):
        raise ValueError("payBody is not a JSON object with a clabe")
    return parsed
