"""What a case's caller scoring derives from the project's records is found once per caller.

Every Mantle case scores every caller of the project (`_mantle_caller_fit`), and each score
read the caller's values by scanning every data file (`held_values`) three times, and read
each ruling sentence of the branch's prose again per caller (`ruled_out`): a third of the
time of writing a case on a project with a handful of callers. The values are kept with
the records (`DataRecords.derived`) and the sentences' ruling words by their text; the
answers are the same.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from typing import Any

from evalcore.testdata import (
    Collection,
    DataRecords,
    SheetBuilder,
    _branch_fit,
    _mismatch,
    built_in_phones,
    callers_in,
    expires_short,
    ruled_out,
)
from evalcore.testdata import _callers as callers_module
from evalcore.testdata import _sheet as sheet_module
from evalcore.testdata._branch_fit import _RULED_OUT, held_values, own_records
from evalcore.testdata._records import status_fit, status_key

SAILINGS = Collection(
    "sailings",
    (
        {"ref": "KT4QZ", "lead": "T1", "fare_family": "basic", "cabin_class": "upper",
         "legs": [{"crossing": "FX2041"}],
         "travellers": [{"id": "T1", "first": "Ines", "last": "Marchetti"}]},
        {"ref": "WB7RN", "lead": "T1", "fare_family": "flex", "cabin_class": "economy",
         "legs": [{"crossing": "FX3310"}],
         "travellers": [{"id": "T1", "first": "Oskar", "last": "Lindahl"}]},
    ),
)  # fmt: skip
CROSSINGS = Collection(
    "crossings",
    ({"crossing": "FX2041", "status": "delayed"}, {"crossing": "FX3310", "status": "cancelled"}),
)


def _callers(records: DataRecords) -> dict[str, Any]:
    return {c.name: c for c in callers_in(records)}


def test_a_callers_values_are_found_once_per_caller_and_files(monkeypatch) -> None:
    records = DataRecords([SAILINGS, CROSSINGS])
    callers = _callers(records)
    scans: list[str] = []
    real = _branch_fit._held_values
    monkeypatch.setattr(
        _branch_fit, "_held_values", lambda r, c: scans.append(c.name) or real(r, c)
    )
    first = held_values(records, callers["Ines"])
    assert held_values(records, callers["Ines"]) == first == list(real(records, callers["Ines"]))
    # a copy with another identity (`build_script`'s) reads the same files: kept too
    assert held_values(replace(records, identity={"id": "T1"}), callers["Ines"]) == first
    assert scans == ["Ines"]
    assert {h.value for h in first} >= {"delayed", "basic"}
    held_values(records, callers["Oskar"])
    assert scans == ["Ines", "Oskar"]
    # other files are other values: no answer of the first files is given for them
    alone = DataRecords([SAILINGS])
    assert "delayed" not in {h.value for h in held_values(alone, callers["Ines"])}
    assert scans == ["Ines", "Oskar", "Ines"]


def _ruled_out_by_each_sentence(caller: Any, prose: list[str]) -> str | None:
    """`ruled_out` as it read every sentence for every caller."""
    own = [(k, str(v)) for r in own_records(caller) for k, v in r.items() if isinstance(v, str)]
    for text in prose:
        for match in _RULED_OUT.finditer(" ".join(text.split())):
            words = [w.lower() for w in re.findall(r"[\w-]+", match["what"])]
            for index, word in enumerate(words):
                following = [w.rstrip("s") for w in words[index + 1 :]]
                for key, value in own:
                    key_words = re.split(r"[_\W]+", key.lower())
                    if value.lower() == word and any(f in key_words for f in following):
                        return f"{key} {value}"
    return None


def test_ruled_out_answers_as_reading_each_sentence_for_each_caller() -> None:
    records = DataRecords([SAILINGS, CROSSINGS])
    proses = [
        ["Basic fares cannot be changed.", "Economy cabins may not be upgraded."],
        ["Flex  fares\ncannot be changed after departure."],
        ["Economy class cabins can't be upgraded.", "Basic fares cannot be changed."],
        ["Nothing here is ruled out."],
        [],
    ]
    answers = set()
    for caller in callers_in(records):
        for prose in proses:
            answer = ruled_out(caller, prose)
            assert answer == _ruled_out_by_each_sentence(caller, prose)
            assert ruled_out(caller, prose) == answer  # and again, from the kept words
            answers.add(answer)
    assert {"fare_family basic", "fare_family flex", None} <= answers


def test_a_sentences_months_past_a_day_are_read_once_per_text() -> None:
    sentence = "Check passport_expiry: it must be valid six months past the return date."
    assert _branch_fit._months_past(sentence) is _branch_fit._months_past(sentence)
    assert _branch_fit._months_past("Book the trip.") is None
    records = DataRecords([Collection("people", ({"first_name": "Ada", "phone": "+15550100",
                                                  "passport_expiry": "2027-01-10"},))])  # fmt: skip
    [ada] = callers_in(records)
    today = date(2026, 12, 1)
    assert expires_short(ada, ["Book the trip.", sentence], today) == "passport_expiry 2027-01-10"
    assert expires_short(ada, [sentence.replace("six", "one")], today) is None


def test_the_file_and_key_a_field_draws_from_are_found_once_per_question(monkeypatch) -> None:
    records = DataRecords([SAILINGS, CROSSINGS])
    asked: list[str] = []
    real = DataRecords._match
    monkeypatch.setattr(
        DataRecords, "_match", lambda self, *a: asked.append(a[0]) or real(self, *a)
    )
    found = records.match("crossing_status")
    assert found is not None and (found[0].name, found[1]) == ("crossings", "status")
    assert records.match("crossing_status") == found
    assert records.match("crossing_status", frozenset({"crossings"})) == found
    assert asked == ["crossing_status", "crossing_status"]  # another `drawn`: asked again
    # files only one skill's tools read: another reader list is another answer
    records.readers = {"crossings": frozenset({"status_check"})}
    assert records.match("crossing_status", narrative_of="rebook") == found
    assert records.match("status", narrative_of="rebook") is None
    assert records.match("status", narrative_of="status_check") is not None
    assert len(asked) == 5


def test_a_told_days_form_is_read_once_per_value() -> None:
    assert _mismatch._dated("03/17/1984") is _mismatch._dated("03/17/1984")
    assert _mismatch._dated(" 1984-03-17") == (date(1984, 3, 17), "%Y-%m-%d")
    assert _mismatch._dated("SK1182") is None
    assert _mismatch._one_off("02/03/1978", "1979-02-03")


def test_the_files_own_phones_are_found_once(monkeypatch) -> None:
    records = DataRecords([Collection("people", ({"first_name": "Ada", "phone": "+15550100"},))])
    found: list[int] = []
    real = callers_module.callers_in
    monkeypatch.setattr(callers_module, "callers_in", lambda r: found.append(1) or real(r))
    seeds = {"project.caller_phone": "+15550142", "project.other": "+15550100"}
    for _ in range(3):
        said = built_in_phones(seeds, records)
        assert said == {"project.caller_phone": "+15550142 is the built-in test account"}
    assert built_in_phones({"project.caller_phone": "+15550100"}, records) == {}
    assert found == [1]


def test_the_datas_own_present_is_read_once_per_files(monkeypatch) -> None:
    fills = [{"rx": f"61044{n}", "last_fill": f"2026-09-{n + 1:02d}"} for n in range(6)]
    records = DataRecords([Collection("prescriptions", tuple(fills))])
    read: list[int] = []
    real = sheet_module._present
    monkeypatch.setattr(sheet_module, "_present", lambda r: read.append(1) or real(r))
    for n in range(3):
        sheet = SheetBuilder(f"case{n}", "", records)
        sheet.sheet.records.update(prescriptions=fills[0])
        assert sheet._since() == date(2026, 9, 1)
    assert real(records) == date(2026, 9, 5)
    assert real(DataRecords([Collection("prescriptions", tuple(fills[:4]))])) is None
    assert read == [1]


def test_a_records_statuses_are_read_by_key_words() -> None:
    assert status_key("bag_state") and status_key("Status") and not status_key("stated_at")
    bag = {"tag": "BG1", "bag_state": " Delivered ", "note": "status unknown"}
    assert status_fit(bag, ["report_damaged"]) == 1
    assert status_fit(bag, ["track"]) == -1  # a delivered bag is no bag to track
    assert status_fit({"tag": "BG2"}, ["report_damaged"]) == 0
