"""base44 checks: `command-passes` ends on time and off the event loop; the keys the runner
reads, lint accepts and docs/checks.md lists are one table."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path

import pytest

from evalcore.agents import FinalRecord, parse_target
from evalcore.dialects import get_dialect
from evalcore.dialects.base44._check_keys import CHECK_KEYS, COMMON_KEYS
from evalcore.runner import RunOptions, collect_cases, load_run_cases, run_cases
from evalcore.runner.checks._base44 import check_types, evaluate_base44

DOCS = Path(__file__).parents[1] / "docs" / "checks.md"


def _passes(check: dict, root: Path) -> tuple[bool, str]:
    final = FinalRecord(output="", workdir=str(root))
    result = evaluate_base44({"checks": [check], "expectedSkills": []}, final)[0]
    return result.passed, result.detail


def test_a_background_child_cannot_stretch_the_timeout(tmp_path: Path) -> None:
    started = time.monotonic()
    passed, detail = _passes(
        {"type": "command-passes", "command": "setsid sleep 25 & true", "timeout": 2}, tmp_path
    )
    elapsed = time.monotonic() - started
    assert elapsed < 4, f"took {elapsed:.1f}s"
    assert passed, detail  # `true` exited 0; the child it left is killed, not waited for


def test_a_timed_out_command_and_its_setsid_child_are_stopped(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    command = f"setsid sh -c 'echo $$ > {pidfile}; exec sleep 60' & sleep 30"
    started = time.monotonic()
    passed, detail = _passes({"type": "command-passes", "command": command, "timeout": 1}, tmp_path)
    assert time.monotonic() - started < 4
    assert not passed and "longer than 1s" in detail
    pid = int(pidfile.read_text())
    time.sleep(0.2)
    stat = Path(f"/proc/{pid}/stat")
    assert not stat.exists() or ") Z" in stat.read_text(), "the setsid child outlived the check"


def test_huge_output_is_not_held_in_memory_and_the_tail_is_reported(tmp_path: Path) -> None:
    command = "head -c 50000000 /dev/zero | tr '\\0' x; echo; echo the-end >&2; exit 3"
    passed, detail = _passes({"type": "command-passes", "command": command}, tmp_path)
    assert not passed and detail.endswith("exited 3: the-end")


def test_the_check_does_not_see_model_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-check-should-not-see-1234567890")
    passed, detail = _passes(
        {"type": "command-passes", "command": "env | grep -q OPENAI_API_KEY"}, tmp_path
    )
    assert not passed and "exited 1" in detail


async def test_a_slow_check_does_not_block_other_runs(tmp_path: Path) -> None:
    fixture = tmp_path / "fixture"
    (fixture / "project").mkdir(parents=True)
    check = {"type": "command-passes", "description": "slow", "command": "sleep 1.5"}
    (fixture / "eval.json").write_text(
        json.dumps({"name": "t", "description": "d", "prompt": "p", "checks": [check]}), "utf-8"
    )
    cases = collect_cases([fixture / "eval.json"])
    gaps: list[float] = []

    async def ticker() -> None:
        last = time.monotonic()
        while True:
            await asyncio.sleep(0.05)
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    ticking = asyncio.create_task(ticker())
    report = await run_cases(cases, parse_target("command:echo {prompt}"), RunOptions())
    ticking.cancel()
    assert [r.status for r in report.records] == ["passed"], report.records[0].error
    assert max(gaps) < 0.5, f"the event loop was blocked for {max(gaps):.2f}s"


DOCUMENTED = {
    "command-passes": {"timeout": 2},
    "file-content": {"filePath": "a.txt", "pattern": "x", "flags": "m"},
    "valid-json": {"filePath": "a.json", "strict": True},
}


@pytest.mark.parametrize("kind", sorted(DOCUMENTED))
def test_documented_keys_lint_clean_and_run(tmp_path: Path, kind: str) -> None:
    check = {"type": kind, "description": "d", **DOCUMENTED[kind]}
    if kind == "command-passes":
        check["command"] = "true"
    data = {"name": "t", "description": "d", "prompt": "p", "checks": [check]}
    findings = get_dialect("base44").schema_findings(data)
    assert not [f for f in findings if f.context.get("rule") == "unknown-key"], findings
    path = tmp_path / "eval.json"
    path.write_text(json.dumps(data), "utf-8")
    [case] = load_run_cases(path)  # `run` refused these before
    assert case.checks["checks"][0] == check


def test_a_key_of_another_check_type_is_flagged_with_the_right_keys() -> None:
    check = {"type": "file-exists", "description": "d", "filePath": "a", "timeout": 3}
    data = {"name": "t", "description": "d", "prompt": "p", "checks": [check]}
    [finding] = [
        f
        for f in get_dialect("base44").schema_findings(data)
        if f.context.get("rule") == "unknown-key"
    ]
    assert finding.path == "/checks/0/timeout" and "file-exists check" in finding.message
    assert finding.context["allowed"] == ["type", "description", "filePath"]


def test_the_key_table_covers_every_check_type_and_matches_the_docs() -> None:
    assert sorted(CHECK_KEYS) == sorted(check_types())
    text = DOCS.read_text("utf-8")
    section = text[text.index("## 2. base44") :]
    for kind, keys in CHECK_KEYS.items():
        row = next(line for line in section.splitlines() if line.startswith(f"| `{kind}` |"))
        fields = row.split("|")[2]
        if fields.strip() == "same":
            fields = next(
                line for line in section.splitlines() if line.startswith("| `entity-config` |")
            ).split("|")[2]
        named = set(re.findall(r"`(\w+)`", fields))
        assert named == set(keys), f"docs list {sorted(named)} for {kind}, the runner reads {keys}"
    assert COMMON_KEYS == ("type", "description")
