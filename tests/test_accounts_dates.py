"""A seeded value that is a date is no account id (`_accounts.is_date`): the answer is the
same as trying every numeric date form with `strptime`, and a value that cannot be a date
(an id, a phone) is answered without a parse, once per value."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalcore.testdata import _accounts
from evalcore.testdata._accounts import account_of, is_date

FORMS = ("%m/%d/%Y", "%d/%m/%Y", "%Y-%m-%d", "%m-%d-%Y", "%d.%m.%Y", "%Y/%m/%d")


def _parses(value: str) -> bool:
    for form in FORMS:
        try:
            datetime.strptime(value.strip(), form)
        except ValueError:
            continue
        return True
    return False


@given(st.text(alphabet="0123456789 /.-\t٣R+", max_size=14))
def test_is_date_answers_as_every_form_tried(value: str) -> None:
    assert is_date(value) is _parses(value)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        *[("03/25/2026", True), (" 2026-03-25 ", True), ("1/ 2/2026", True), ("25.03.2026", True)],
        *[("R-30418", False), ("+15550150", False), ("15550150", False), ("2026-13-45", False)],
    ],
)
def test_dates_and_ids(value: str, expected: bool) -> None:
    assert is_date(value) is expected


class _Counting:
    """`datetime` with its `strptime` calls counted."""

    def __init__(self) -> None:
        self.calls = 0

    def strptime(self, value: str, form: str) -> datetime:
        self.calls += 1
        return datetime.strptime(value, form)


def test_ids_and_phones_are_not_parsed_and_a_value_is_judged_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counting = _Counting()
    monkeypatch.setattr(_accounts, "datetime", counting)
    forget = getattr(is_date, "cache_clear", lambda: None)
    forget()
    values = {"R-30418", "+15550150", "NS-0150", "mchen0161", "Jordan Lee"}
    for _ in range(50):  # the reference agent asks again on every tool call of a session
        assert account_of(values) == "failing"
    assert counting.calls == 0
    for _ in range(3):
        assert is_date("12/31/2026")
    assert counting.calls == 1
    forget()
