"""The `demo:bank` backend: test customers and what each Riverbend tool returns for them.

The customers are the test accounts the scenarios use (the hand-written ones in
examples/bank/eval/scenarios and the offline drafter's test data): caller phone, customer
number, date of birth, postcode, cards, accounts and recent card payments. Results have the
shape the real tools return (`examples/bank/skills/*/tools.py`, `tools/customer.py`), and
each tool writes the memory its real code writes.

Two accounts answer differently on purpose: on Jonas's (`+15550150`) the card-order backend
and disputes backends return an error, so `place_replacement_order`, `order_replacement` and
`open_dispute` fail; on Lena's
(`+15550161`) every check comes back negative (no card can be replaced, no dispute opened).

The backend reads a date of birth and a postcode as a person says them ("14 March 1986",
"postcode 94110") as well as normalised, as the real service behind a model would see
either, and `told` is how a model reads a result out (the cards by label, the city on
file, the balance): the reference agent reads results only for what they write.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ._mantle_engine import ToolResult


@dataclass(frozen=True)
class Card:
    card_id: str
    label: str


@dataclass(frozen=True)
class Payment:
    id: str
    merchant: str
    amount: float
    date: str
    """As read back ("2 May")."""

    @property
    def label(self) -> str:
        return f"{self.merchant}, ${self.amount:.2f} on {self.date}"


@dataclass(frozen=True)
class Customer:
    customer_id: str
    first_name: str
    phone: str
    date_of_birth: str
    """YYYY-MM-DD."""
    postcode: str
    city: str
    cards: tuple[Card, ...]
    balances: dict[str, dict[str, Any]] = field(default_factory=dict)
    failing: frozenset[str] = frozenset()
    """Tools whose backend errors for this customer."""
    negative: bool = False
    """Checks come back negative for this customer."""


_PAYMENTS = (
    Payment("tx-1001", "Acme Hardware", 82.40, "2 May"),
    Payment("tx-1002", "Acme Hardware", 82.40, "2 May"),
    Payment("tx-1003", "Corner Grocery", 23.15, "4 May"),
    Payment("tx-1004", "Streamline Music", 9.99, "6 May"),
)


def _customer(
    customer_id: str,
    name: str,
    phone: str,
    dob: str,
    postcode: str,
    city: str,
    credit_last4: str,
    **extra: Any,
) -> Customer:
    suffix = customer_id[-4:]
    return Customer(
        customer_id=customer_id,
        first_name=name,
        phone=phone,
        date_of_birth=dob,
        postcode=postcode,
        city=city,
        cards=(
            Card(f"crd_{suffix}_d1", "Everyday Debit ending 4821"),
            Card(f"crd_{suffix}_c1", f"Platinum Credit ending {credit_last4}"),
        ),
        balances={
            "checking": {
                "name": "Everyday Checking",
                "number": f"0000{suffix}1204",
                "available_balance": 1842.17,
                "ledger_balance": 1903.52,
                "currency": "USD",
            },
            "savings": {
                "name": "Riverbend Saver",
                "number": f"0000{suffix}7730",
                "available_balance": 12450.00,
                "ledger_balance": 12450.00,
                "currency": "USD",
            },
            "credit_card": {
                "name": "Platinum Credit",
                "statement_balance": 634.80,
                "minimum_payment": 25.00,
                "payment_due_date": "2026-01-18",
                "currency": "USD",
            },
        },
        **extra,
    )


CUSTOMERS = (
    _customer("C-20481734", "Priya", "+15550142", "1986-03-14", "94110", "San Francisco", "3307"),
    _customer("C-20533910", "Marcus", "+15550177", "1979-07-02", "60614", "Chicago", "9140"),
    _customer("C-20199007", "Tomás", "+15550123", "1992-11-30", "73301", "Austin", "5526"),
    _customer("C-20377415", "Grace", "+15550199", "1968-09-09", "02139", "Cambridge", "6081"),
    _customer("C-20611342", "Amara", "+15550108", "1995-04-23", "98103", "Seattle", "2915"),
    _customer(
        "C-20700050",
        "Jonas",
        "+15550150",
        "1975-05-05",
        "30301",
        "Atlanta",
        "4470",
        failing=frozenset({"place_replacement_order", "order_replacement", "open_dispute"}),
    ),
    _customer(
        "C-20700061", "Lena", "+15550161", "1983-10-17", "80202", "Denver", "1852", negative=True
    ),
)
BY_ID = {c.customer_id: c for c in CUSTOMERS}
BY_PHONE = {c.phone: c for c in CUSTOMERS}


class Backend:
    """Deterministic results of every tool of examples/bank for one conversation."""

    def __init__(self) -> None:
        self.orders = 0
        self.disputes = 0
        self.transfers = 0
        self.failed_checks = 0

    def customer(self, memory: dict[str, Any]) -> Customer | None:
        return BY_ID.get(str(memory.get("project.customer_id")))

    def call(
        self, skill_id: str, name: str, arguments: dict[str, Any], memory: dict[str, Any]
    ) -> ToolResult:
        """The result of `name` called from `skill_id` (every skill shares the backend)."""
        handler = getattr(self, f"_{name}", None)
        if handler is None:
            return ToolResult(error=f"{name} is not available in the demo backend")
        customer = self.customer(memory)
        if customer is not None and name in customer.failing:
            return ToolResult(error="503 Service Unavailable from cards-api")
        return handler(arguments, customer, memory)

    def record_choice(self, answers: dict[str, Any], choices: list[Any]) -> Any:
        """No choice is set from a record here: the bank's tools return every value."""
        return None

    def told(self, name: str, outcome: ToolResult) -> str | None:
        """What a model says of a result, where the skill has it read out; None: nothing."""
        result = outcome.result if outcome.error is None else None
        if not isinstance(result, dict):
            return None
        if name == "list_cards" and result.get("cards"):
            labels = ", ".join(c["label"] for c in result["cards"])
            return f"I can see these cards: {labels}."
        if name == "get_mailing_address" and result.get("city"):
            return f"The new card will go to your address on file in {result['city']}."
        if name == "get_balance":
            return _balance(result)
        return None

    # tools/customer.py
    def _lookup_customer(
        self, args: dict[str, Any], _: Customer | None, memory: dict[str, Any]
    ) -> ToolResult:
        found = BY_PHONE.get(str(args.get("phone")))
        if found is None:
            return ToolResult({"found": False})
        writes = (
            {} if memory.get("project.customer_id") else {"project.customer_id": found.customer_id}
        )
        return ToolResult(
            {"found": True, "first_name": found.first_name, "has_cards": True}, writes=writes
        )

    def _verify_identity(
        self, args: dict[str, Any], customer: Customer | None, _: dict[str, Any]
    ) -> ToolResult:
        target = BY_ID.get(str(args.get("customer_id"))) or customer
        ok = (
            target is not None
            and _iso_date(str(args.get("date_of_birth", ""))) == target.date_of_birth
            and _postcode(str(args.get("postcode", ""))) == target.postcode
        )
        if ok:
            return ToolResult({"verified": True}, writes={"project.authenticated": True})
        self.failed_checks += 1
        return ToolResult(
            {
                "verified": False,
                "attempts_left": max(3 - self.failed_checks, 0),
                "hint": "Don't say which detail was wrong. Offer a human agent at zero "
                "attempts left.",
            }
        )

    # skills/card_replace/tools.py
    def _list_cards(
        self, _: dict[str, Any], customer: Customer | None, __: dict[str, Any]
    ) -> ToolResult:
        cards = (
            []
            if customer is None
            else [
                {"card_id": c.card_id, "label": c.label, "status": "active"} for c in customer.cards
            ]
        )
        return ToolResult({"cards": cards})

    def _check_replacement_eligibility(
        self, args: dict[str, Any], customer: Customer | None, _: dict[str, Any]
    ) -> ToolResult:
        card = _card(customer, args.get("card_id"))
        label = card.label if card else "card"
        eligible = customer is not None and not customer.negative and card is not None
        writes = {
            "eligibility_checked": True,
            "replacement_eligible": eligible,
            "selected_card_label": label,
        }
        if not eligible:
            return ToolResult(
                {"eligible": False, "reason": "replacement_in_transit"}, writes=writes
            )
        return ToolResult({"eligible": True, "card": label}, writes=writes)

    def _block_card(
        self, args: dict[str, Any], customer: Customer | None, _: dict[str, Any]
    ) -> ToolResult:
        fraud = "FR-88213" if args.get("reason") == "stolen" else None
        return ToolResult({"blocked": True, "fraud_case_id": fraud}, writes={"card_blocked": True})

    def _place_replacement_order(
        self, args: dict[str, Any], customer: Customer | None, _: dict[str, Any]
    ) -> ToolResult:
        self.orders += 1
        shipping = str(args.get("shipping", "standard"))
        order = f"R-{40210 + self.orders}"
        return ToolResult(
            {
                "ordered": True,
                "order_id": order,
                "arrives_in": _DAYS.get(shipping, ""),
                "fee_usd": 15 if shipping == "express" else 0,
            },
            writes={"order_id": order},
        )

    def _order_replacement(
        self, args: dict[str, Any], customer: Customer | None, _: dict[str, Any]
    ) -> ToolResult:
        self.orders += 1
        shipping = str(args.get("shipping", "standard"))
        order = f"R-{40210 + self.orders}"
        return ToolResult(
            {
                "ordered": True,
                "order_id": order,
                "arrives_in": _DAYS.get(shipping, ""),
                "old_card_works_until_activation": True,
            },
            writes={"order_id": order},
        )

    def _get_mailing_address(
        self, _: dict[str, Any], customer: Customer | None, __: dict[str, Any]
    ) -> ToolResult:
        city = customer.city if customer else "your city"
        return ToolResult({"city": city, "country": "US"})

    # skills/check_balance/tools.py
    def _get_balance(
        self, args: dict[str, Any], customer: Customer | None, _: dict[str, Any]
    ) -> ToolResult:
        kind = str(args.get("account_type"))
        account = customer.balances.get(kind) if customer else None
        if account is None:
            return ToolResult({"found": False, "account_type": kind})
        if kind == "credit_card":
            return ToolResult(
                {
                    "found": True,
                    "cards": [
                        {
                            "name": account["name"],
                            "amount_owed": account["statement_balance"],
                            "minimum_payment": account["minimum_payment"],
                            "due_date": account["payment_due_date"],
                            "currency": account["currency"],
                        }
                    ],
                },
                writes={"balance_reported": True},
            )
        return ToolResult(
            {
                "found": True,
                "accounts": [
                    {
                        "name": account["name"],
                        "last4": account["number"][-4:],
                        "available": account["available_balance"],
                        "current": account["ledger_balance"],
                        "currency": account["currency"],
                    }
                ],
            },
            writes={"balance_reported": True},
        )

    # skills/dispute_charge/tools.py
    def _list_recent_transactions(
        self, _: dict[str, Any], customer: Customer | None, __: dict[str, Any]
    ) -> ToolResult:
        transactions = [
            {
                "id": p.id,
                "merchant": p.merchant,
                "amount": p.amount,
                "currency": "USD",
                "date": p.date,
                "pending": False,
                "card_last4": "4821",
            }
            for p in _PAYMENTS
        ]
        return ToolResult(
            {"since": "60 days ago", "transactions": transactions},
            writes={"transactions_loaded": True},
        )

    def _open_dispute(
        self, args: dict[str, Any], customer: Customer | None, _: dict[str, Any]
    ) -> ToolResult:
        reason = args.get("reason")
        if reason == "unrecognised":
            return ToolResult(
                {"opened": False, "error": "unrecognised payments go to the fraud team"}
            )
        if reason == "wrong_amount" and args.get("expected_amount") is None:
            return ToolResult({"opened": False, "error": "expected_amount is missing"})
        if customer is None or customer.negative:
            return ToolResult({"opened": False, "error": "dispute_window_closed"})
        self.disputes += 1
        case = f"D-{77120 + self.disputes}"
        return ToolResult(
            {"opened": True, "case_id": case, "provisional_credit": 82.40}, writes={"case_id": case}
        )

    # skills/human_handoff/tools.py
    def _transfer_to_agent(
        self, args: dict[str, Any], customer: Customer | None, _: dict[str, Any]
    ) -> ToolResult:
        self.transfers += 1
        reference = f"T-{5150 + self.transfers}"
        return ToolResult(
            {"transferred": True, "estimated_wait_minutes": 4, "outside_opening_hours": False},
            writes={"transfer_reference": reference},
        )


_DAYS = {"standard": "5-7 business days", "express": "1-2 business days"}

_MONTHS = [
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
]
_MONTH = "|".join(_MONTHS)
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH})\w*,?\s+(\d{{4}})\b", re.I)
_MONTH_DAY = re.compile(rf"\b({_MONTH})\w*\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I)
_ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_POSTCODE = re.compile(r"\b(?:post\s?code|zip(?:\s?code)?)\W*([A-Z0-9]{3,8})\b", re.I)
_FIVE_DIGITS = re.compile(r"(?<![\d$.,])\b(\d{5})\b(?![.,]\d)")


def _iso_date(text: str) -> str | None:
    """A date of birth as YYYY-MM-DD, however it was said ("14 March 1986", "March 14,
    1986", "1986-03-14")."""
    if match := _DAY_MONTH.search(text):
        day, month, year = match[1], match[2], match[3]
    elif match := _MONTH_DAY.search(text):
        month, day, year = match[1], match[2], match[3]
    else:
        match = _ISO.search(text)
        return match[0] if match else None
    return f"{int(year):04d}-{_MONTHS.index(month.lower()) + 1:02d}-{int(day):02d}"


def _postcode(text: str) -> str:
    """The postcode in what was passed ("94110", "postcode 94110", "my zip is 94110")."""
    match = _POSTCODE.search(text) or _FIVE_DIGITS.search(text)
    return match[1].upper() if match else text.strip().upper()


def _balance(result: dict[str, Any]) -> str:
    """A balance read out: available first, current only when it differs; for a credit card
    the amount owed, the minimum payment and its due date."""
    if result.get("cards"):
        card = result["cards"][0]
        return (
            f"On your {card['name']} you owe ${card['amount_owed']:.2f}; the minimum "
            f"payment is ${card['minimum_payment']:.2f}, due {card['due_date']}."
        )
    if result.get("accounts"):
        found = result["accounts"][0]
        text = f"Your {found['name']} has ${found['available']:.2f} available"
        if found["current"] != found["available"]:
            text += f" (current balance ${found['current']:.2f})"
        return text + "."
    return "I couldn't find that account."


def _card(customer: Customer | None, card_id: Any) -> Card | None:
    if customer is None:
        return None
    return next((c for c in customer.cards if c.card_id == card_id), None)


def payments() -> tuple[Payment, ...]:
    return _PAYMENTS


__all__ = ["BY_ID", "BY_PHONE", "CUSTOMERS", "Backend", "Card", "Customer", "Payment", "payments"]
