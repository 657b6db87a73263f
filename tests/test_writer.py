"""The canonical writer: stable order, round-trip, atomic and conflict-safe writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from evalcore.dialects import get_dialect
from evalcore.writer import (
    anychat_case_key,
    canonical_text,
    mantle_case_filename,
    order_keys,
    slugify,
    write_case_file,
)
from evalcore.yamlio import dump_yaml, load_yaml

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "type": {"type": "string"},
        "goals": {
            "type": "object",
            "properties": {"criteria": {"type": "array"}, "assertions": {"$ref": "#/$defs/a"}},
        },
    },
    "$defs": {
        "a": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"tool_name": {}, "source": {}, "arguments": {}},
            },
        }
    },
}


def test_order_keys_follows_schema_and_keeps_unknown_keys_last() -> None:
    data = {
        "extra": 1,
        "goals": {
            "assertions": [{"arguments": {"b": 1, "a": 2}, "source": "local", "tool_name": "t"}],
            "criteria": ["c"],
        },
        "type": "happy_path",
        "name": "n",
    }
    ordered = order_keys(data, SCHEMA, SCHEMA)
    assert list(ordered) == ["name", "type", "goals", "extra"]
    assert list(ordered["goals"]) == ["criteria", "assertions"]
    assert list(ordered["goals"]["assertions"][0]) == ["tool_name", "source", "arguments"]
    # Free-form maps keep the author's order (arguments are not schema-ordered).
    assert list(ordered["goals"]["assertions"][0]["arguments"]) == ["b", "a"]
    assert data["extra"] == 1 and next(iter(data)) == "extra"  # input untouched


def test_anychat_json_is_schema_ordered_two_space_lf() -> None:
    dialect = get_dialect("anychat")
    case = {
        "turns": ["hi"],
        "expect": {"checks": {"finalReplyNonEmpty": True}},
        "title": "T",
        "key": "k",
    }
    text = canonical_text(case, dialect)
    assert text.endswith("}\n") and "\r" not in text
    assert list(json.loads(text)) == ["key", "title", "turns", "expect"]
    assert text.splitlines()[1].startswith('  "key"')


def test_yaml_block_scalars_for_long_and_multiline_text() -> None:
    long_line = ("word " * 30).strip()
    text = dump_yaml({"simulation_context": long_line, "notes": "a\nb\n", "short": "x"})
    assert "simulation_context: >" in text
    assert "notes: |" in text
    assert "short: x" in text
    assert load_yaml(text) == {"simulation_context": long_line, "notes": "a\nb\n", "short": "x"}


def test_yaml_quotes_strings_that_other_readers_take_for_bools_or_dates() -> None:
    data = {"a": "on", "b": "yes", "c": "2026-10-14", "d": "null", "e": "010"}
    text = dump_yaml(data)
    assert load_yaml(text) == data
    import yaml

    assert yaml.safe_load(text) == data  # a YAML 1.1 reader agrees


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=120),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(min_size=1, max_size=12), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_yaml_round_trip(value: Any) -> None:
    assert load_yaml(dump_yaml(value)) == value


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=10), json_values, max_size=5))
def test_canonical_json_round_trip_and_idempotent(value: dict[str, Any]) -> None:
    dialect = get_dialect("anychat")
    text = canonical_text(value, dialect)
    assert json.loads(text) == value
    assert canonical_text(json.loads(text), dialect) == text


def test_write_case_file_created_unchanged_conflict_forced(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "case.yml"
    assert write_case_file(path, "a: 1\n").status == "created"
    mtime = path.stat().st_mtime_ns
    assert write_case_file(path, "a: 1\n").status == "unchanged"
    assert path.stat().st_mtime_ns == mtime
    path.write_text("a: 1  # edited by a person\n")
    result = write_case_file(path, "a: 2\n")
    assert result.status == "conflict" and not result.written
    assert path.read_text() == "a: 1  # edited by a person\n"
    assert write_case_file(path, "a: 2\n", force=True).status == "overwritten"
    assert path.read_text() == "a: 2\n"
    assert [p.name for p in path.parent.iterdir()] == ["case.yml"]  # no temp files left


def test_names_are_deterministic_and_follow_conventions() -> None:
    assert slugify("Customer replaces a damaged card!") == "customer_replaces_damaged_card"
    assert mantle_case_filename("card_replace", "damaged", "happy_path") == (
        "card_replace_damaged_happy_path.yml"
    )
    assert (
        mantle_case_filename("card_replace", "card_replace refused confirmation", "sad_path")
        == "card_replace_refused_confirmation_sad_path.yml"
    )
    key = anychat_case_key("book", "Inbound booking, new patient", "happy_path")
    assert key == "book-inbound-booking-new-patient-happy-path"


def test_every_committed_case_is_its_canonical_text_with_the_kept_schema_parts() -> None:
    """The schema nodes `order_keys` keeps (resolved `$ref`s, properties, merged branches)
    order keys as reading the schema afresh does: cold, warm and after the memo is
    cleared, each committed case file comes back byte for byte."""
    from evalcore.writer import _canonical

    root = Path(__file__).resolve().parents[1] / "generated_cases"
    files = [p for p in sorted(root.rglob("*")) if p.suffix in (".yml", ".json")]
    files = [p for p in files if p.name != "manifest.json"]
    assert len(files) > 20
    for rounds in range(2):
        _canonical._KEPT.clear()
        for file in files if rounds else reversed(files):
            dialect = get_dialect(file.relative_to(root).parts[0])
            text = file.read_text(encoding="utf-8")
            data = load_yaml(text) if file.suffix == ".yml" else json.loads(text)
            if dialect.justifies:  # its checks' justification comments aside
                text = "".join(
                    line for line in text.splitlines(keepends=True) if not _comment(line)
                )
            assert _canonical.canonical_text(data, dialect) == text, file
            assert _canonical.canonical_text(data, dialect) == text, file


def _comment(line: str) -> bool:
    return line.lstrip().startswith("#")


def test_committed_mantle_cases_carry_the_justification_of_each_check() -> None:
    """Each committed Mantle case is exactly what the writer gives for its data: canonical
    text with one justification comment above each check, against the bank project."""
    from evalcore.definitions import load_project

    root = Path(__file__).resolve().parents[1]
    project = load_project(root / "examples/bank")
    dialect = get_dialect("mantle")
    files = sorted((root / "generated_cases/mantle").rglob("*.yml"))
    assert files
    for file in files:
        text = file.read_text(encoding="utf-8")
        assert dialect.dump_justified(load_yaml(text), project) == text, file
        assert "# enforced: " in text, file
