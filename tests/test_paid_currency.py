"""A case's amounts are said in the currency it pays in.

Found on an executive assistant's expenses skill by a blind reviewer: the correction case
that ends on `currency: GBP` had the user give the total as "$91.80", two currencies at
once, so a correct agent may ask which one or store the dollars. With "£91.80" the next
reviewer found the correction never happens: the sign answers the currency question the
user is to answer wrongly first. A case that corrects the currency says the amount bare.
"""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting.offline._mantle_script import build_script
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.testdata import currency_codes, in_currency, unsigned

CORPUS = Path(__file__).parent / "data" / "corpus"


def test_an_amount_takes_the_sign_or_the_code_of_its_currency() -> None:
    assert in_currency("$91.80", "GBP") == "£91.80"
    assert in_currency("about $1,240.50 in total", "EUR") == "about €1,240.50 in total"
    assert in_currency("$91.80", "CHF") == "91.80 CHF"
    assert in_currency("$91.80", "USD") == "$91.80"
    assert in_currency("$91.80", "gold") == "$91.80"  # not a currency code


def test_an_amount_said_bare_keeps_its_number() -> None:
    assert unsigned("$91.80") == "91.80"
    assert unsigned("about $1,240.50 in total") == "about 1,240.50 in total"


def test_only_a_choice_of_currency_codes_is_a_currency() -> None:
    assert currency_codes(["USD", "GBP", "EUR"])
    assert not currency_codes(["none", "silver", "gold"])
    assert not currency_codes(["ABC", "XYZ"])  # three capitals, but no currency's
    assert not currency_codes([])


def test_an_expense_paid_in_pounds_is_told_in_pounds() -> None:
    project = load_project(CORPUS / "northstar_exec")
    plan = plan_source(project, "mantle", "expenses", None)
    seen: set[str] = set()
    corrected: set[str] = set()
    for slot, behavior in enumerate(plan.behaviors):
        script = build_script(project, behavior, slot=slot)
        paid = script.walk.memory.get("expenses.currency")
        amount = next((f.value for f in script.sheet.facts if f.field == "expenses.amount"), None)
        if not isinstance(paid, str) or amount is None:
            continue
        if script.kind == "correction":  # the user says the currency, never the sign
            assert amount[:1].isdigit(), (behavior.id, paid, amount)
            corrected.add(paid)
            continue
        seen.add(paid)
        sign = {"USD": "$", "GBP": "£", "EUR": "€"}[paid]
        assert amount.startswith(sign), (behavior.id, paid, amount)
    assert "USD" in seen
    assert "GBP" in corrected  # the correction case ends on pounds, with no sign to tell it
