"""A case's checks are judged once per project and content: generation asks the same
case up to four times (review, its rules, the written comments, the report)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalcore.definitions import load_project
from evalcore.dialects import get_dialect
from evalcore.dialects.mantle import _justify
from evalcore.yamlio import load_yaml

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"


def test_the_same_case_is_judged_once_and_each_caller_gets_its_own_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    judged: list[str] = []
    real = _justify.MantleJustifier.judge

    def counting(self: _justify.MantleJustifier, data: object) -> object:
        judged.append(str(data)[:40])
        return real(self, data)

    monkeypatch.setattr(_justify.MantleJustifier, "judge", counting)
    project = load_project(BANK)
    mantle = get_dialect("mantle")
    case = load_yaml(next((BANK / "eval" / "scenarios").glob("*.yml")).read_text("utf-8"))
    first = mantle.justify(case, project)
    assert first and len(judged) == 1
    first.clear()  # a caller's list is its own
    again = mantle.justify(dict(case), project)  # equal content, another object
    assert again and len(judged) == 1
    changed = {**case, "scenario": {**case["scenario"], "name": "another name"}}
    assert [j.to_json() for j in mantle.justify(changed, project)] == [j.to_json() for j in again]
    assert len(judged) == 2  # other content is judged
    assert mantle.justify(case, load_project(BANK)) == again  # a project read again: judged
    assert len(judged) == 3
