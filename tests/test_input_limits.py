"""Bounded input: alias bombs, recursive aliases, deep nesting and huge files are findings."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from conftest import EXAMPLES

from evalcore.documents import load_document, parse_text
from evalcore.limits import InputLimits, limits_for

BOMB = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi", strict=True)
)


def _parse_message(doc) -> str:
    [finding] = doc.findings
    assert finding.code == "parse" and finding.severity == "error"
    assert doc.data is None
    return finding.message


def test_alias_bomb_is_refused_fast() -> None:
    assert len(BOMB) < 400
    started = time.monotonic()
    message = _parse_message(parse_text(BOMB, "yaml"))
    assert time.monotonic() - started < 2
    assert "aliases expand to" in message and "max_alias_nodes" in message


def test_modest_alias_use_still_loads() -> None:
    doc = parse_text("base: &b {x: 1, y: [1, 2]}\none: *b\ntwo: {<<: *b, z: 3}\n", "yaml")
    assert doc.findings == []
    assert doc.data["two"] == {"x": 1, "y": [1, 2], "z": 3}


def test_recursive_alias_is_a_finding() -> None:
    assert "recursive alias" in _parse_message(parse_text("a: &a [*a]\n", "yaml"))
    assert "recursive alias" in _parse_message(parse_text("a: &a {b: *a}\n", "yaml"))


@pytest.mark.parametrize("fmt", ["yaml", "json"])
@pytest.mark.parametrize("depth", [150, 50_000])
def test_deep_nesting_is_a_finding(fmt: str, depth: int) -> None:
    text = "[" * depth + "]" * depth
    assert "nested more than 100 levels" in _parse_message(parse_text(text, fmt))


def test_nesting_within_the_limit_loads() -> None:
    doc = parse_text("[" * 90 + "]" * 90, "json")
    assert doc.findings == [] and doc.parsed


def test_huge_file_is_refused_before_reading(tmp_path: Path, monkeypatch) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as handle:  # sparse: 75 MB on paper, nothing on disk
        handle.truncate(75 * 1024 * 1024)
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("file was read"))
    message = _parse_message(load_document(big))
    assert message.startswith("file is 75 MB; the limit is 8 MB")


def test_limits_come_from_the_settings_file(tmp_path: Path) -> None:
    (tmp_path / "casegen.toml").write_text("[limits]\nmax_file_mb = 0.001\nmax_depth = 5\n")
    case = tmp_path / "sub" / "case.json"
    case.parent.mkdir()
    case.write_text(json.dumps({"text": "x" * 2000}))
    assert limits_for(case) == InputLimits(max_file_mb=0.001, max_depth=5)
    assert "the limit is" in _parse_message(load_document(case))
    case.write_text("[[[[[[[]]]]]]]")
    assert "nested more than 5 levels" in _parse_message(load_document(case))


def test_one_bad_file_does_not_empty_the_report(tmp_path: Path, run_cli) -> None:
    good = tmp_path / "good.yml"
    good.write_text((EXAMPLES / "bank/eval/scenarios/card_replace_stolen.yml").read_text())
    (tmp_path / "bomb.yml").write_text(BOMB)
    (tmp_path / "loop.yml").write_text("a: &a [*a]\n")
    (tmp_path / "deep.yml").write_text("[" * 50_000)
    (tmp_path / "deep.json").write_text("[" * 50_000)
    files = [tmp_path / n for n in ("bomb.yml", "loop.yml", "deep.yml", "deep.json", "good.yml")]
    code, out, err = run_cli("validate", *files, "--project", EXAMPLES / "bank", "--json")
    assert code == 1 and "Traceback" not in err
    reports = {Path(r["path"]).name: r for r in json.loads(out)["files"]}
    assert reports["good.yml"]["valid"] is True
    for name in ("bomb.yml", "loop.yml", "deep.yml", "deep.json"):
        assert [e["code"] for e in reports[name]["errors"]] == ["parse"], name


def test_deep_json_events_and_results_are_clean_errors(tmp_path: Path, run_cli) -> None:
    events = tmp_path / "events.json"
    events.write_text("[" * 50_000)
    scenario = EXAMPLES / "bank/eval/scenarios/card_replace_stolen.yml"
    code, out, err = run_cli("assert", scenario, "--events", events, "--json")
    assert code == 2 and "Traceback" not in err
    assert "nested" in json.loads(out)["error"]
    run_dir = tmp_path / "results" / "2026-01-01_00-00-00" / "case"
    run_dir.mkdir(parents=True)
    (run_dir / "run_1.json").write_text("[" * 50_000)
    code, out, err = run_cli("triage", tmp_path / "results", "--json")
    assert code in (0, 2) and "Traceback" not in err
    json.loads(out)
