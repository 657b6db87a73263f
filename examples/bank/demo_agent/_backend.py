"""The `demo:bank` backend: what each Riverbend tool returns for the bank's test customers.

The customers, each with their cards, accounts and recent card payments, are the
project's own staging records (`examples/bank/data/staging/customers.json`, shaped like the
core API's customer records), read the way casegen reads any project's data files
(`evalcore.testdata.load_records`): the offline drafter draws its callers from the same
records, so a drafted scenario that says "my date of birth is 14 March 1986, postcode
94110" verifies against the caller phone it seeds. Results have the shape the real tools
return (`examples/bank/skills/*/tools.py`, `tools/customer.py`), and each tool writes the
memory its real code writes.

Two accounts answer differently on purpose, the test accounts of
`evalcore.testdata.FAILING_ACCOUNT` and `NEGATIVE_ACCOUNT` (caller phones): on the failing
one the card-order and disputes backends return an error, so `place_replacement_order`,
`order_replacement` and `open_dispute` fail; on the negative one every check comes back
negative (no card can be replaced, no dispute opened).

The backend reads a date of birth and a postcode as a person says them ("14 March 1986",
"postcode 94110") as well as normalised, as the real service behind a model would see
either, and `told` is how a model reads a result out (the cards by label, the city on
file, the balance): the reference agent reads results only for what they write.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalcore.agents.reference import ToolResult
from evalcore.lexicon.en.customer_replies import POSTCODE as _POSTCODE
from evalcore.testdata import FAILING_ACCOUNT, NEGATIVE_ACCOUNT, load_records


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
    payments: tuple[Payment, ...] = ()
    """Recent card payments, newest last."""
    failing: frozenset[str] = frozenset()
    """Tools whose backend errors for this customer."""
    negative: bool = False
    """Checks come back negative for this customer."""


#: The tools whose backend errors for the failing test account.
_FAILING_TOOLS = frozenset({"place_replacement_order", "order_replacement", "open_dispute"})
_CUSTOMER_KEYS = ("customer_id", "first_name", "phone", "date_of_birth", "postcode", "city")
_PAYMENT_KEYS = ("transaction_id", "merchant_name", "amount", "booking_date")


class BankDataError(ValueError):
    """A staging record the backend cannot use: the file, the record and what is wrong."""


@dataclass(frozen=True)
class BankRecords:
    """The bank's staging customers, read once per project folder."""

    customers: tuple[Customer, ...]

    @property
    def by_id(self) -> dict[str, Customer]:
        return {c.customer_id: c for c in self.customers}

    @property
    def by_phone(self) -> dict[str, Customer]:
        return {c.phone: c for c in self.customers}


def _need(record: Any, keys: tuple[str, ...], where: str) -> dict[str, Any]:
    if not isinstance(record, dict):
        raise BankDataError(f"{where}: a record must be an object, got {record!r}")
    missing = [k for k in keys if not isinstance(record.get(k), str | int | float)]
    if missing:
        raise BankDataError(f"{where}: missing {', '.join(missing)} (needs {', '.join(keys)})")
    return record


def _read_customer(record: Any, where: str) -> Customer:
    found = _need(record, _CUSTOMER_KEYS, where)
    cards = found.get("cards") or []
    if not isinstance(cards, list) or not all(
        isinstance(c, dict) and {"card_id", "label"} <= c.keys() for c in cards
    ):
        raise BankDataError(f"{where}: cards must be a list of {{card_id, label}} objects")
    accounts = found.get("accounts") or {}
    if not isinstance(accounts, dict) or not all(isinstance(a, dict) for a in accounts.values()):
        raise BankDataError(f"{where}: accounts must map an account type to an object")
    phone = str(found["phone"])
    payments = found.get("card_transactions") or []
    if not isinstance(payments, list):
        raise BankDataError(f"{where}: card_transactions must be a list of objects")
    return Customer(
        customer_id=str(found["customer_id"]),
        first_name=str(found["first_name"]),
        phone=phone,
        date_of_birth=str(found["date_of_birth"]),
        postcode=str(found["postcode"]),
        city=str(found["city"]),
        cards=tuple(Card(str(c["card_id"]), str(c["label"])) for c in cards),
        balances={str(k): dict(v) for k, v in accounts.items()},
        payments=tuple(
            _read_payment(t, f"{where}, card_transactions[{i}]") for i, t in enumerate(payments)
        ),
        failing=_FAILING_TOOLS if phone == FAILING_ACCOUNT else frozenset(),
        negative=phone == NEGATIVE_ACCOUNT,
    )


def _read_payment(record: Any, where: str) -> Payment:
    found = _need(record, _PAYMENT_KEYS, where)
    day = str(found["booking_date"])
    try:
        when = dt.date.fromisoformat(day)
    except ValueError:
        raise BankDataError(f"{where}: booking_date {day!r} is not YYYY-MM-DD") from None
    return Payment(
        str(found["transaction_id"]),
        str(found["merchant_name"]),
        float(found["amount"]),
        f"{when.day} {when.strftime('%B')}",
    )


def load_bank(root: Path) -> BankRecords:
    """The staging customers under `root/data` (a `customers` file, each with its cards,
    accounts and recent card payments); a record the backend cannot use is a
    `BankDataError` naming it, never skipped."""
    records = load_records(root)
    if records.problems:
        raise BankDataError("; ".join(records.problems))
    found = next((c for c in records.collections if c.name == "customers"), None)
    if found is None:
        raise BankDataError(f"{root}/data: no customers.json (the bank's staging records)")
    where = found.where or "customers.json"
    return BankRecords(
        tuple(_read_customer(r, f"{where} record {i}") for i, r in enumerate(found.records))
    )


class Backend:
    """Deterministic results of every tool of examples/bank for one conversation."""

    def __init__(self, records: BankRecords) -> None:
        self.records = records
        self._by_id = records.by_id
        self._by_phone = records.by_phone
        self.orders = 0
        self.disputes = 0
        self.transfers = 0
        self.failed_checks = 0

    def customer(self, memory: dict[str, Any]) -> Customer | None:
        return self._by_id.get(str(memory.get("project.customer_id")))

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
        found = self._by_phone.get(str(args.get("phone")))
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
        target = self._by_id.get(str(args.get("customer_id"))) or customer
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
            for p in (customer.payments if customer else ())
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


__all__ = [
    "Backend",
    "BankDataError",
    "BankRecords",
    "Card",
    "Customer",
    "Payment",
    "load_bank",
]
