"""An asserted tool argument or memory value has the type the tool's annotation and the
memory field say: Mantle compares them by equality, so `items: true` where the tool takes a
list of item records, or the text of a JSON object where it takes the object, can never match
and fails every correct agent. Such a value is left free (the argument is not asserted).

Before: the food-safety happy path asserted `items: true` (the `items_pulled` flag's value
passed for `items: list[dict]`) and the weekly count asserted `other_counts` as a string.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import generate_offline

from agentflows.drafting.offline._mantle_exact import fits, holds
from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus" / "brewline_shifts"


@pytest.mark.parametrize(
    ("annotation", "value", "expected"),
    [
        ("list[dict]", True, False),
        ("list[dict]", [{"item": "milk", "quantity": 2}], True),
        ("dict | None", '{"SYR-VAN-750": 6}', False),
        ("dict | None", {"SYR-VAN-750": 6}, True),
        ("Optional[int]", "3", False),
        ("int", True, False),
        ("float", 3, True),
        ("Literal['single', 'double']", "small", False),
        ("Literal['single', 'double']", "single", True),
        ("StoreId", 5, True),
        (None, 5, True),
    ],
)
def test_a_value_fits_its_annotation(annotation: str, value: Any, expected: bool) -> None:
    assert fits(annotation, value) is expected


def test_a_memory_field_holds_only_its_own_type() -> None:
    assert not holds("json", '{"a": 1}')
    assert holds("json", {"a": 1})
    assert not holds("int", True)
    assert not holds("categorical", "small", ["single", "double"])
    assert holds("float", 2)


def _tool_checks(case: dict[str, Any]) -> list[dict[str, Any]]:
    goals = case["scenario"]["goals"]
    out = []
    for check in goals.get("assertions") or []:
        out += [s for s in check.get("sequencing") or [] if "tool_executed" in s]
        if "tool_executed" in check:
            out.append(check)
    return [c["tool_executed"] for c in out]


def test_no_asserted_argument_is_of_another_type_than_the_tool_takes(tmp_path: Path) -> None:
    report = generate_offline(CORPUS, ["food_safety_hold", "inventory_count"], tmp_path)
    assert report
    defs = load_project(CORPUS).mantle
    assert defs is not None
    seen = 0
    for path in sorted((tmp_path / "cases").rglob("*.yml")):
        case = yaml.safe_load(path.read_text())
        for body in _tool_checks(case):
            tool = defs.tools_for(str(body.get("skill_id") or path.parent.name)).get(
                body["tool_name"]
            )
            for name, value in (body.get("arguments") or {}).items():
                seen += 1
                param = tool.parameter(name) if tool is not None else None
                assert param is None or fits(param.type, value), (path.name, name, value)
    assert seen
