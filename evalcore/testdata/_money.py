"""Amounts said in the currency the case pays in.

An amount is spoken with a dollar sign (`spoken_value`: `$91.80`); a case whose currency
field says GBP and whose total reads `$91.80` tells the agent two currencies at once, and a
correct agent asks which one, or stores the wrong one. So once the case's currency is known,
its amounts are said in it: with the currency's sign where it has a common one (`£91.80`),
else with its ISO 4217 code after the number (`91.80 CHF`). A case about correcting the
currency says its amounts bare (`unsigned`: `91.80`): a sign would answer the question the
user is to answer wrongly first, and a correct agent would take the currency from it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

#: The signs people write before an amount, by ISO 4217 code (the others take the code).
_SIGNS = {"USD": "$", "GBP": "£", "EUR": "€", "JPY": "¥", "INR": "₹"}
_CODE = re.compile(r"^[A-Z]{3}$")
_DOLLARS = re.compile(r"\$(\d[\d,]*(?:\.\d+)?)")


def currency_codes(values: Iterable[Any]) -> bool:
    """Whether a choice's values are currency codes (`[USD, GBP, EUR]`): every one three
    capital letters and at least one a code with a sign of its own."""
    said = [str(v) for v in values]
    return bool(said) and all(_CODE.match(v) for v in said) and any(v in _SIGNS for v in said)


def in_currency(text: str, code: str) -> str:
    """`text` with each dollar amount said in `code` (`$91.80` -> `£91.80`, `91.80 CHF`)."""
    code = code.strip().upper()
    if code == "USD" or not _CODE.match(code):
        return text
    sign = _SIGNS.get(code)
    return _DOLLARS.sub(lambda m: f"{sign}{m[1]}" if sign else f"{m[1]} {code}", text)


def unsigned(text: str) -> str:
    """`text` with each dollar amount said without its sign (`$91.80` -> `91.80`)."""
    return _DOLLARS.sub(lambda m: m[1], text)


__all__ = ["currency_codes", "in_currency", "unsigned"]
