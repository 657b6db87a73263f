"""The base44 conventions prompt tells the drafting model what the runner does: every check
type it names is one the runner evaluates with the fields it gives, and what it says about a
check's behaviour is what the runner does (the runner is the truth)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from evalcore.agents import FinalRecord
from evalcore.dialects.base44._check_keys import CHECK_KEYS, COMMON_KEYS
from evalcore.dialects.base44._model import Check
from evalcore.runner.checks._base44 import check_types, evaluate_one
from evalcore.runner.checks._base44_files import ProjectFiles

PROMPT = Path(__file__).parents[1] / "prompts" / "generate" / "conventions_base44.md"

#: A plausible value for each field, to build the check the prompt describes.
SAMPLE: dict[str, object] = {
    "filePath": "out.json",
    "pattern": "x",
    "value": "x",
    "flags": "i",
    "strict": True,
    "command": "true",
    "timeout": 5,
    "schema": {"type": "object"},
    "target": "file",
    "expectedValid": True,
}


def _segments() -> dict[str, str]:
    """check type → the prompt's text about it: from its name to the next type named in
    the check list. Types joined by `/` (`a` / `b` with ...) share the text that follows."""
    text = PROMPT.read_text("utf-8")
    listing = text[text.index("Check types and fields:") :]
    listing = listing[: listing.index("\n- ", 1)] if "\n- " in listing[1:] else listing
    types = set(check_types())
    named = [m for m in re.finditer(r"`([a-z-]+)`", listing) if m.group(1) in types]
    out: dict[str, str] = {}
    pending: list[str] = []
    for i, match in enumerate(named):
        end = named[i + 1].start() if i + 1 < len(named) else len(listing)
        segment = listing[match.end() : end]
        if segment.strip() == "/":
            pending.append(match.group(1))
            continue
        for kind in (*pending, match.group(1)):
            out[kind] = out.get(kind, "") + segment
        pending = []
    return out


def _fields(segment: str) -> list[str]:
    """The field names a segment gives (backticked identifiers, `target: "file"` too)."""
    known = {key for keys in CHECK_KEYS.values() for key in keys}
    found = (m.group(1) for m in re.finditer(r"`([A-Za-z]\w*)(?::[^`]*)?`", segment))
    return [name for name in dict.fromkeys(found) if name in known]


def test_every_named_check_type_is_the_runners_with_the_fields_the_prompt_gives(
    tmp_path: Path,
) -> None:
    segments = _segments()
    assert segments, "the prompt lists no check types"
    final = FinalRecord(output="", workdir=str(tmp_path))
    for kind, segment in segments.items():
        fields = _fields(segment)
        accepted = set(COMMON_KEYS) | set(CHECK_KEYS[kind])
        assert set(fields) <= accepted, f"{kind}: prompt gives {fields}, runner reads {accepted}"
        check = {"type": kind, "description": "d", **{f: SAMPLE[f] for f in fields}}
        result = evaluate_one(0, check, final, ProjectFiles(final))
        assert "cannot check" not in result.detail, (kind, fields, result.detail)


def _run(check: dict, root: Path, output: str = "") -> tuple[bool, str]:
    final = FinalRecord(output=output, workdir=str(root))
    result = evaluate_one(0, {"description": "d", **check}, final, ProjectFiles(final))
    return result.passed, result.detail


def test_command_passes_runs_through_a_shell_as_the_prompt_says(tmp_path: Path) -> None:
    passed, detail = _run(
        {"type": "command-passes", "command": "echo 'a b' | grep -q 'a b' && test -d ."}, tmp_path
    )
    assert passed, detail
    said = _segments()["command-passes"]
    assert "/bin/sh -c" in said and "without a shell" not in said


def test_json_schema_reads_file_path_as_the_prompt_says(tmp_path: Path) -> None:
    (tmp_path / "out.json").write_text(json.dumps({"n": 1}), "utf-8")
    check = {"type": "json-schema", "schema": {"required": ["m"]}, "filePath": "out.json"}
    passed, detail = _run(check, tmp_path, output='```json\n{"m": 1}\n```')
    assert not passed and "out.json" in detail  # the file, not the answer, was validated
    said = _segments()["json-schema"]
    assert "`filePath`" in said and "ignored" not in said


def test_an_excluded_pattern_in_a_missing_file_passes_as_the_prompt_says(tmp_path: Path) -> None:
    check = {"type": "file-content-excluded", "filePath": "gone.js", "pattern": "x"}
    passed, detail = _run(check, tmp_path)
    assert passed, detail
    said = _segments()["file-content-excluded"]
    assert "missing file passes" in said and "makes it fail" not in said


def test_the_answer_schema_describes_the_same_behaviour() -> None:
    """The field descriptions of the eval model are what the drafting model reads too."""
    fields = Check.model_json_schema()["properties"]
    assert "/bin/sh -c" in fields["command"]["description"]
    assert "filePath" in fields["schema"]["description"]
