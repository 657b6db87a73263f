"""The offline drafter's test accounts, which the reference agent's backend knows: a
seeded value names the failing account (whose tools with a documented error fail) or the
negative one (whose checks come back false).

The account is a caller phone, or, where a project seeds no phone, an id of the signed-in
session whose last run of digits ends the account number (`R-50150`, `TU5550150`; an id
with fewer than four digits gets four, `NS-004` → `NS-0150`, and one with none gets them
appended, `mchen` → `mchen0150`). Where nothing is seeded that could carry it, the user's
answer for an argument of the failing tool that has an id's digits does (`SK550150` for a
bag tag): the backend fails a call whose argument names the failing account.
"""

from __future__ import annotations

import functools
import re
from datetime import datetime

#: The test accounts' caller phones.
FAILING_ACCOUNT = "+15550150"
NEGATIVE_ACCOUNT = "+15550161"
_ACCOUNTS = {"failing": FAILING_ACCOUNT, "negative": NEGATIVE_ACCOUNT}
_DIGITS = re.compile(r"\d+")
_SHORTEST = 4
#: Numeric date forms: a date is no account id (a date parser takes any well-formed one, so
#: `02/04/0150` is still a date no real tool rejects).
_DATES = ("%m/%d/%Y", "%d/%m/%Y", "%Y-%m-%d", "%m-%d-%Y", "%d.%m.%Y", "%Y/%m/%d")
"""An account id's last run of digits has four at least (fewer read as a count)."""
#: What any of `_DATES` can match at all: digits, separators and %d's leading space, 6 to 10
#: characters (`1/1/2026` … `2026-03-25`). Ids and phones fail it without a parse: the
#: six forms outnumber `_strptime`'s cache of five patterns, so each parse compiled its
#: pattern again (2 s of a bank run's 16 s of CPU, profiled).
_DATE_SHAPE = re.compile(r"[\d /.\-]{6,10}")


def account_value(value: str, account: str, *, widen: bool = False) -> str:
    """`value` (a seeded id such as `R-30418`) as the test account's id: its last run of
    digits (four at least) replaced by the account number's last digits (`R-50150`).
    `widen` (an id of the session, which only the test data chose): a shorter run becomes
    four digits and an id without digits gets four appended; otherwise such a value is
    returned unchanged (no id of the account's shape: it goes elsewhere)."""
    if is_date(value):
        return value
    runs = list(_DIGITS.finditer(value))
    digits = _ACCOUNTS[account].lstrip("+")
    if not runs or len(runs[-1].group()) < _SHORTEST:
        if not widen:
            return value
        if not runs:
            return value + digits[-_SHORTEST:]
    run = runs[-1]
    width = max(_SHORTEST, len(run.group()))
    return value[: run.start()] + digits[-width:] + value[run.end() :]


@functools.lru_cache(maxsize=4096)
def is_date(value: str) -> bool:
    """Whether `value` is a date in a numeric form (`03/25/2026`, `2026-03-25`). Kept per
    value: the reference agent asks it of a session's seeded values on every tool call."""
    text = value.strip()
    if _DATE_SHAPE.fullmatch(text) is None:
        return False
    for form in _DATES:
        try:
            datetime.strptime(text, form)
        except ValueError:
            continue
        return True
    return False


def account_of(values: set[str]) -> str | None:
    """The test account a session's seeded values name: the account phone itself, or an
    id whose last run of digits (four at least) ends the account number."""
    for account, phone in _ACCOUNTS.items():
        digits = phone.lstrip("+")
        for value in values:
            if value == phone:
                return account
            runs = [] if is_date(value) else _DIGITS.findall(value)
            if runs and len(runs[-1]) >= _SHORTEST and digits.endswith(runs[-1]):
                return account
    return None


__all__ = ["FAILING_ACCOUNT", "NEGATIVE_ACCOUNT", "account_of", "account_value", "is_date"]
