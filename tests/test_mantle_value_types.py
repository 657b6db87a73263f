"""An asserted tool argument or memory value has the type the tool's annotation and the
memory field say: Mantle compares them by equality, so `items: true` where the tool takes a
list of item records, or the text of a JSON object where it takes the object, can never match
and fails every correct agent. Such a value is left free (the argument is not asserted).

Before: the food-safety happy path asserted `items: true` (the `items_pulled` flag's value
passed for `items: list[dict]`) and the weekly count asserted `other_counts` as a string.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import generate_offline

from agentflows.drafting.offline._mantle_exact import fits, holds
from evalcore.definitions import load_project
from evalcore.testdata import FieldSpec
from evalcore.testdata._values import draw_date, typed_value

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


def test_a_phone_has_the_digits_the_description_states_laid_out_as_its_example() -> None:
    spec = FieldSpec(
        "other_pharmacy_phone", "text", "That pharmacy's phone number, ten digits (412-555-0199)."
    )
    for seed in range(5):
        value = typed_value(spec, random.Random(seed))
        assert re.fullmatch(r"\d{3}-555-01\d\d", value), value
    plain = FieldSpec("mobile", "text", "Mobile number, 10 digits.")
    assert re.fullmatch(r"\d{3}55501\d\d", typed_value(plain, random.Random(1)))


def test_a_code_of_letters_followed_by_digits_keeps_its_letters() -> None:
    spec = FieldSpec(
        "error_code", "text", "Error code on the machine screen, E followed by two digits (E21)."
    )
    for seed in range(5):
        assert re.fullmatch(r"E\d\d", typed_value(spec, random.Random(seed)))


def test_a_number_is_drawn_on_its_own_scale() -> None:
    hours = FieldSpec(
        "hours_out_of_temp", "float", "How many hours the unit was above 41°F, if known."
    )
    reading = FieldSpec(
        "fridge_temp_f", "float", "Reading inside a fridge in Fahrenheit, e.g. 44.5."
    )
    for seed in range(8):
        assert 1 <= typed_value(hours, random.Random(seed)) <= 12
        assert 35 <= typed_value(reading, random.Random(seed)) <= 54


def test_a_code_named_in_a_told_symptom_is_the_code_the_case_gives(tmp_path: Path) -> None:
    generate_offline(CORPUS, ["equipment_issue"], tmp_path)
    checked = 0
    for path in sorted((tmp_path / "cases").rglob("*.yml")):
        context = yaml.safe_load(path.read_text())["scenario"]["simulation_context"]
        given = re.search(r"^- error code: (.+)$", context, re.M)
        named = re.findall(r"\bE\d\d\b", context.split("- error code:")[0])
        if given and named:
            checked += 1
            assert given[1].strip() == named[0], (path.name, context)
    assert checked


def test_a_choice_is_one_the_record_the_case_holds_offers(tmp_path: Path) -> None:
    generate_offline(CORPUS, ["recipe_help"], tmp_path)
    rows = (CORPUS / "data" / "recipes.csv").read_text().splitlines()[1:]
    offered = {tuple(row.split(",")[:2]) for row in rows}
    checked = 0
    for path in sorted((tmp_path / "cases").rglob("*.yml")):
        context = yaml.safe_load(path.read_text())["scenario"]["simulation_context"]
        drink = re.search(r"^- drink: (.+)$", context, re.M)
        size = re.search(r"^- size: (.+)$", context, re.M)
        if drink and size:
            checked += 1
            assert (drink[1].strip(), size[1].strip()) in offered, (path.name, context)
    assert checked


def test_a_day_field_draws_its_date_as_before_the_number_scales() -> None:
    spec = FieldSpec("session_day", "text", "Day of the session, MM/DD/YYYY.")
    for seed in range(4):
        assert typed_value(spec, random.Random(seed)) == draw_date(spec, random.Random(seed))
