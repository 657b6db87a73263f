"""Reading a bank customer's answers: identity details, a card, a payment.

Deterministic stand-ins for what a model reads from free text: "14 March 1986, postcode
94110", "The Everyday Debit one", "It's Acme Hardware, $82.40 on 2 May".
"""

from __future__ import annotations

import re
from typing import Any

from ._mantle_engine import parse_amount, stems

_MONTHS = {
    name: number
    for number, name in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ],
        start=1,
    )
}
_MONTH = "|".join(_MONTHS)


def parse_date(text: str) -> str | None:
    """A date of birth as YYYY-MM-DD ("14 March 1986", "March 14, 1986", "1986-03-14")."""
    match = re.search(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH})\w*,?\s+(\d{{4}})\b", text, re.I)
    if match:
        return f"{int(match[3]):04d}-{_MONTHS[match[2].lower()]:02d}-{int(match[1]):02d}"
    match = re.search(rf"\b({_MONTH})\w*\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", text, re.I)
    if match:
        return f"{int(match[3]):04d}-{_MONTHS[match[1].lower()]:02d}-{int(match[2]):02d}"
    match = re.search(r"\b(\d{4})-(\d{2})-(\d{2})\b", text)
    if match:
        return match.group(0)
    match = re.search(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b", text)
    if match:
        return f"{int(match[3]):04d}-{int(match[2]):02d}-{int(match[1]):02d}"
    return None


def parse_postcode(text: str) -> str | None:
    match = re.search(r"\b(?:post\s?code|zip(?:\s?code)?)\W*([A-Z0-9]{3,8})\b", text, re.I)
    if match:
        return match[1].upper()
    match = re.search(r"(?<![\d$.,])\b(\d{5})\b(?![.,]\d)", text)
    return match[1] if match else None


def parse_identity(text: str) -> tuple[str, str] | None:
    """(date of birth, postcode) when the text gives both."""
    date_of_birth, postcode = parse_date(text), parse_postcode(text)
    if date_of_birth is None or postcode is None:
        return None
    return date_of_birth, postcode


def _digits(text: str) -> set[str]:
    return set(re.findall(r"\b\d{4}\b", text))


def match_card(cards: list[dict[str, Any]], text: str) -> dict[str, Any] | None:
    """The card whose label the text names best (product words, last four digits)."""
    said = set(stems(text))
    best: tuple[int, dict[str, Any]] | None = None
    for card in cards:
        label = str(card.get("label", ""))
        score = len(said & set(stems(label))) + 3 * len(_digits(text) & _digits(label))
        if score and (best is None or score > best[0]):
            best = (score, card)
    return best[1] if best else None


def match_payment(payments: list[dict[str, Any]], text: str) -> dict[str, Any] | None:
    """The payment the text names (merchant words, amount, date); of equal ones the later."""
    said = set(stems(text))
    amount = parse_amount(re.sub(r"\b\d{1,2}\s+[A-Z][a-z]+\b", "", text))
    best: tuple[int, dict[str, Any]] | None = None
    for payment in payments:
        score = len(said & set(stems(str(payment.get("merchant", "")))))
        if amount is not None and abs(float(payment.get("amount", 0)) - amount) < 0.005:
            score += 2
        if str(payment.get("date", "")).lower() in text.lower():
            score += 1
        if score and (best is None or score >= best[0]):
            best = (score, payment)
    return best[1] if best else None


__all__ = ["match_card", "match_payment", "parse_date", "parse_identity", "parse_postcode"]
