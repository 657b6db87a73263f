"""Plain records (`evalcore/_record.py`) behave as the pydantic models they replaced did.

Findings print the same JSON, copies and read-backs work as pydantic's did, containers are
not shared with the code that built a record, and a settings table's limits are read the
way pydantic's lax mode read them.
"""

from __future__ import annotations

import datetime
import math
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field

from evalcore.definitions import Block, Project, Skill, Step
from evalcore.findings import FileReport, Finding
from evalcore.limits import InputLimits


class _PydanticFinding(BaseModel):
    """The finding model as it was (the reference for its JSON)."""

    model_config = ConfigDict(frozen=True)

    code: str
    severity: str = "error"
    path: str = ""
    line: int | None = None
    message: str
    value: Any = None
    suggestion: str | None = None
    context: dict[str, Any] = Field(default_factory=dict, exclude=True, repr=False)


VALUES: list[Any] = [
    None,
    "text",
    "lone \ud800 surrogate",
    3,
    True,
    2.5,
    math.inf,
    math.nan,
    (1, "a"),
    [1, [2, (3,)]],
    {"k": {"nested": datetime.date(2024, 1, 2)}},
    {1: "int key", None: "none key"},
    datetime.datetime(2024, 1, 2, 3, 4, 5),
    datetime.time(1, 2),
    b"bytes",
    Path("a/b"),
    {3, 4},
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_a_finding_dumps_the_json_the_pydantic_model_dumped(value: Any) -> None:
    fields = {"code": "schema", "message": "m", "value": value, "context": {"x": 1}}
    assert Finding(**fields).model_dump(mode="json") == _PydanticFinding(**fields).model_dump(
        mode="json"
    )


def test_a_surrogate_in_a_key_raises_as_pydantic_did_and_to_json_escapes_it() -> None:
    fields = {"code": "schema", "message": "m", "value": {"\ud800": 1}}
    with pytest.raises(UnicodeEncodeError):
        _PydanticFinding(**fields).model_dump(mode="json")
    with pytest.raises(UnicodeEncodeError):
        Finding(**fields).model_dump(mode="json")
    assert Finding(**fields).to_json()["value"] == {"\\ud800": 1}


def test_copies_read_backs_and_reports() -> None:
    finding = Finding(code="parse", message="bad", line=None, context={"a": 1})
    moved = finding.located(7)
    assert (moved.line, finding.line, moved.context) == (7, None, {"a": 1})
    with pytest.raises(AttributeError):
        finding.line = 3  # type: ignore[misc]
    back = Finding.model_validate({**moved.to_json(), "ignored": True})
    assert back == moved.model_copy(update={"context": {}})
    report = FileReport(path="x.yml", dialect="mantle", findings=(finding,))  # type: ignore[arg-type]
    assert report.findings == [finding] and not report.valid
    warning = finding.model_copy(update={"severity": "warning"})
    assert FileReport(path="x", dialect=None, findings=[warning]).to_json()["valid"] is True


def test_definitions_take_names_copy_containers_and_accept_a_str_root() -> None:
    steps = [Step(id="a", kind="noop")]
    block = Block(id="b", steps=steps)
    steps.append(Step(id="c", kind="end"))
    assert [s.id for s in block.steps] == ["a"]
    with pytest.raises(TypeError):
        Block("b")  # type: ignore[misc]
    skill = Skill(id="s", path="skills/s", blocks={"b": block})
    project = Project(root="examples/bank", kind="mantle")  # type: ignore[arg-type]
    assert project.root == Path("examples/bank") and skill.step_ids == {"a"}
    assert skill.model_copy(update={"name": "n"}).name == "n" and skill.name is None
    assert set(Block.model_fields) >= {"id", "steps", "tools", "complete_when"}


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ({}, InputLimits()),
        ({"max_file_mb": 3}, InputLimits(max_file_mb=3.0)),
        ({"max_depth": 8.0}, InputLimits(max_depth=8)),
        ({"max_depth": True}, InputLimits(max_depth=1)),
        ({"max_file_mb": "2"}, InputLimits(max_file_mb=2.0)),
        ({"max_depth": "7"}, InputLimits(max_depth=7)),
        ({"max_depth": 0}, None),
        ({"max_depth": 10_001}, None),
        ({"max_depth": 8.5}, None),
        ({"max_file_mb": 0}, None),
        ({"max_alias_nodes": -1}, None),
        ({"other": 1}, None),
    ],
    ids=repr,
)
def test_limits_tables_read_as_pydantic_s_lax_mode_read_them(
    table: dict[str, Any], expected: InputLimits | None
) -> None:
    """Expected values are what the pydantic model (`gt=0`, `ge=1, le=10_000`, `ge=0`,
    extra keys forbidden) gave for each table."""
    assert InputLimits.from_table(table) == expected
