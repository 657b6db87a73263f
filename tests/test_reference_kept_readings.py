"""The date a free-text tool argument states (`_variants.said_date`, kept per string) is
the one read afresh, for every form and for values that are not dates or not strings; and
the arguments a call passes that hold a date the user said (`said_dates`) are read the same
whether or not a tool result returned that date; a session started again keeps its
account and log unless new slots name another account; where a step's text sets a field
is read the same kept or afresh; the tools a play looks up are the skill's, read only."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from evalcore.agents.reference import ModelBrain, _procedure, _variants
from evalcore.agents.reference._engine import ReferenceEngine
from evalcore.agents.reference._variants import reformatted, said_date
from evalcore.definitions import ToolDef, load_project
from evalcore.definitions.skill_model import set_at
from evalcore.testdata import FAILING_ACCOUNT, NEGATIVE_ACCOUNT

SAID = [
    "8 May 2026",
    "8th May 2026.",
    "May 8, 2026",
    " 2026-05-08 ",
    "31 February 2026",
    "2026-13-01",
    "next Tuesday",
    "",
    "ACC-2026-05-08-X",
]


def test_a_kept_reading_is_the_fresh_one() -> None:
    fresh = [_variants._said_date.__wrapped__(text) for text in SAID]
    assert fresh[:4] == [date(2026, 5, 8)] * 4
    assert fresh[4:] == [None] * 5
    for _ in range(2):  # the second round reads the kept values
        assert [said_date(text) for text in SAID] == fresh
    assert [said_date(v) for v in (None, 20260508, ["8 May 2026"], {"d": 1})] == [None] * 4
    assert reformatted("8 May 2026") == "2026-05-08"
    assert reformatted("2026-05-08") == "8 May 2026"


class _Events:
    """An engine's event log, as `said_dates` reads it."""

    def __init__(self, results: list[Any]) -> None:
        self.events = [{"event": "tool_executed", "result": r} for r in results]
        self.events.insert(0, {"event": "user", "text": "hi"})


def test_a_date_a_tool_returned_is_not_one_the_user_said() -> None:
    arguments = {"day": "8 May 2026", "other": "2026-05-09", "name": "Ann", "n": 3}
    said = ReferenceEngine.said_dates
    assert said(_Events([]), arguments) == ["day", "other"]  # type: ignore[arg-type]
    returned = _Events([{"slots": [{"day": "2026-05-09"}]}])
    assert said(returned, arguments) == ["day"]  # type: ignore[arg-type]
    assert said(returned, {"name": "Ann"}) == []  # type: ignore[arg-type]


def test_a_started_session_started_again_keeps_its_account_and_log() -> None:
    """Every user message starts the session again (`receive`): without slots that reads
    nothing new; with slots naming another account the account follows them."""
    project = load_project(Path(__file__).resolve().parents[1] / "examples" / "bank")
    engine = ReferenceEngine(project, ModelBrain(project))
    engine.start({"phone": FAILING_ACCOUNT})
    assert engine.account == "failing"
    log = list(engine.events)
    engine.start()
    engine.start({})
    assert engine.account == "failing" and engine.events == log
    engine.start({"phone": NEGATIVE_ACCOUNT})
    assert engine.account == "negative" and engine.events == log


def test_where_a_step_sets_a_field_is_read_as_set_at_reads_it() -> None:
    """`_procedure._set_at` (kept per loaded definitions) is `set_at` of the declared field,
    asked again or not, and None for a key nobody declared."""
    project = load_project(Path(__file__).resolve().parents[1] / "examples" / "bank")
    defs = project.mantle
    assert defs is not None
    texts = [
        str(step.target or "")
        for skill in defs.skills.values()
        for block in skill.blocks.values()
        for step in block.steps
    ]
    found = 0
    for key, field in defs.memory_names().items():
        name = key.rsplit(".", 1)[-1]
        said = [*texts, f"Ask which one they want. Set {name} to the option they pick."]
        for text in said:
            for _ in range(2):
                assert _procedure._set_at(defs, key, text) == set_at(field, text), (key, text)
            found += set_at(field, text) is not None
    assert found >= 3
    assert _procedure._set_at(defs, "nobody.declared_this", "Set declared_this.") is None


def test_the_tools_a_play_looks_up_are_the_skills_tools_read_only() -> None:
    """`tools_view` is `tools_for` of the skill without the copy, not to be changed by a
    play, and follows the skill's tools as `tools_for` does."""
    project = load_project(Path(__file__).resolve().parents[1] / "examples" / "bank")
    defs = project.mantle
    assert defs is not None
    for skill_id in defs.skills:
        view = defs.tools_view(skill_id)
        assert dict(view) == defs.tools_for(skill_id)
        with pytest.raises(TypeError):
            view["another"] = None  # type: ignore[index]
        copied = defs.tools_for(skill_id)
        copied["another"] = None  # type: ignore[assignment]
        assert "another" not in defs.tools_view(skill_id)
    skill_id, skill = next(iter(defs.skills.items()))
    skill.tools["added_later"] = ToolDef(name="added_later")
    assert "added_later" in defs.tools_view(skill_id)
    assert dict(defs.tools_view(skill_id)) == defs.tools_for(skill_id)
