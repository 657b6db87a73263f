"""Loading: syntax errors and repeated keys become `parse` findings with lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalcore.documents import load_document, parse_text


def test_yaml_lines_point_at_keys_and_items() -> None:
    doc = parse_text(
        "scenario:\n"
        "  name: x\n"
        "  goals:\n"
        "    assertions:\n"
        "      - skill_completed:\n"
        "          skill_id: a\n",
        "yaml",
    )
    assert doc.findings == []
    assert doc.lines["/scenario/name"] == 2
    assert doc.lines["/scenario/goals/assertions/0"] == 5
    assert doc.line_of("/scenario/goals/assertions/0/skill_completed/skill_id") == 6
    # A pointer that does not exist falls back to its nearest existing ancestor.
    assert doc.line_of("/scenario/goals/assertions/0/skill_completed/missing") == 5


def test_yaml_duplicate_key_is_a_parse_error_with_both_lines() -> None:
    doc = parse_text("scenario:\n  name: first\n  name: second\n", "yaml")
    [finding] = doc.findings
    assert finding.code == "parse"
    assert finding.path == "/scenario/name"
    assert finding.line == 3
    assert "first at line 2" in finding.message
    # Data is still available (the last value), so other checks can run.
    assert doc.data == {"scenario": {"name": "second"}}
    assert doc.parsed


def test_yaml_syntax_error_has_line_and_no_data() -> None:
    doc = parse_text("scenario:\n  name: [unclosed\n  type: x\n", "yaml")
    assert not doc.parsed
    assert doc.data is None
    [finding] = doc.findings
    assert finding.code == "parse" and finding.line == 3


def test_yaml_reads_12_core_schema() -> None:
    doc = parse_text("a: on\nb: yes\nc: 2026-10-14\nd: true\ne: 010\n", "yaml")
    assert doc.data == {"a": "on", "b": "yes", "c": "2026-10-14", "d": True, "e": 10}


def test_json_duplicate_keys_found_at_any_depth_with_lines() -> None:
    doc = parse_text('{\n "a": 1,\n "b": [{"c": 1,\n   "c": 2}],\n "a": 3\n}\n', "json")
    found = {(f.path, f.line) for f in doc.findings}
    assert found == {("/b/0/c", 4), ("/a", 5)}
    assert all(f.code == "parse" for f in doc.findings)


def test_json_syntax_error_line() -> None:
    doc = parse_text('{\n  "title": "x",\n  "turns": [\n}\n', "json")
    assert not doc.parsed
    assert doc.findings[0].line == 4


def test_json_lines_for_strings_with_escapes() -> None:
    doc = parse_text('{"a": "x\\"}", \n"b": {"c": [1,\n 2]}}', "json")
    assert doc.findings == []
    assert doc.lines["/b/c/1"] == 3


def test_non_utf8_file_is_a_parse_error(tmp_path: Path) -> None:
    path = tmp_path / "case.yml"
    path.write_bytes(b"scenario:\n  name: \xff\xfe\n")
    doc = load_document(path)
    assert not doc.parsed
    assert doc.findings[0].code == "parse"


@pytest.mark.parametrize("text", ["", "# only a comment\n"])
def test_empty_yaml_is_none(text: str) -> None:
    doc = parse_text(text, "yaml")
    assert doc.data is None and doc.findings == []
