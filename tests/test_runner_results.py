"""The results folder: run files, summary.json/txt/md, JUnit, accumulation."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from evalcore.agents import AgentReply, UserTurn
from evalcore.runner import (
    Criterion,
    ResultsWriter,
    RunCase,
    RunOptions,
    SimulationSpec,
    run_cases,
)
from evalcore.runner._results import TIMESTAMP_FORMAT
from evalcore.runner.testing import FunctionTarget, mantle_echo

STAMP = "2026-03-09_14-05-11"


def case(
    slug: str,
    checks: list[Any],
    *,
    context: str = '1. Say "hello"\n2. Say "thanks"',
    criteria: tuple[str, ...] = (),
) -> RunCase:
    return RunCase(
        slug=slug,
        name=f"Scenario {slug}",
        dialect="mantle",
        path=f"{slug}.yml",
        simulate=SimulationSpec(context=context),
        checks=checks,
        criteria=[Criterion(id=str(i), text=t) for i, t in enumerate(criteria, 1)],
    )


PASSING = case(
    "passing", [{"skill_activated": {"skill_id": "support"}}], criteria=("The agent greets",)
)
FAILING = case("failing", [{"skill_completed": {"skill_id": "support"}}])
ERRORING = case("erroring", [], context="No quoted lines here.")


@pytest.fixture
async def results(tmp_path: Path) -> tuple[ResultsWriter, Any]:
    writer = ResultsWriter(tmp_path / "results", timestamp=STAMP, junit=tmp_path / "junit.xml")
    report = await run_cases(
        [PASSING, FAILING, ERRORING],
        FunctionTarget(mantle_echo),
        RunOptions(runs=2),
        results=writer,
    )
    return writer, report


async def test_layout(results: tuple[ResultsWriter, Any]) -> None:
    writer, report = results
    assert writer.dir.name == STAMP and re.fullmatch(r"\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d", STAMP)
    files = sorted(
        p.relative_to(writer.dir).as_posix() for p in writer.dir.rglob("*") if p.is_file()
    )
    assert files == sorted(
        [
            f"{slug}/run_{n}.{ext}"
            for slug in ("passing", "failing", "erroring")
            for n in (1, 2)
            for ext in ("json", "txt")
        ]
        + ["summary.json", "summary.txt", "summary.md"]
    )
    assert report.results_dir == str(writer.dir)


async def test_run_json_fields(results: tuple[ResultsWriter, Any]) -> None:
    writer, _ = results
    data = json.loads((writer.dir / "passing" / "run_2.json").read_text("utf-8"))
    for key in (
        "scenario_slug",
        "run_index",
        "timestamp",
        "conversation_id",
        "latency",
        "task_completion",
        "eval_passed",
        "criteria",
        "criteria_summary",
        "assertions",
        "assertions_summary",
        "scale_metrics",
        "transcript",
        "events",
        "simulator",
        "judge",
        "status",
        "judged",
        "error",
        "duration_s",
    ):
        assert key in data, key
    assert data["scenario_slug"] == "passing" and data["run_index"] == 2
    assert data["eval_passed"] is True and data["status"] == "passed"
    assert data["judged"] is False
    assert data["criteria"][0] | {} == {
        "index": 1,
        "id": "1",
        "criterion": "The agent greets",
        "verdict": "unjudged",
        "reason": "no judge model configured: this run covers assertions only",
        "votes": {},
        "disagreement": False,
        "passed": False,
    }
    assert data["criteria_summary"] == {"passed": 0, "total": 1, "all_passed": False}
    assert data["assertions_summary"] == {"passed": 1, "total": 1, "all_passed": True}
    assert set(data["latency"]) == {"per_turn", "avg_ttft_ms", "avg_turn_latency_ms", "avg_gap_ms"}
    assert data["latency"]["per_turn"][1]["turn"] == 1
    assert data["simulator"]["engine"] == "offline"
    assert data["simulator"]["usage"] == {
        "calls": 0,
        "input_tokens": 0,
        "output_tokens": 0,
        "cost_usd": 0.0,
        "cache_hits": 0,
    }
    assert data["transcript"][1] == {"turn": 1, "role": "user", "text": "hello"}
    assert data["events"][1] == {
        "event": "user",
        "text": "hello",
        "timestamp": pytest.approx(data["events"][1]["timestamp"]),
    }


async def test_run_json_reads_back(results: tuple[ResultsWriter, Any]) -> None:
    from evalcore.runner import RunRecord

    writer, report = results
    data = json.loads((writer.dir / "failing" / "run_1.json").read_text("utf-8"))
    assert RunRecord.from_json(data) == report.records[2]


async def test_run_txt_sections(results: tuple[ResultsWriter, Any]) -> None:
    writer, _ = results
    text = (writer.dir / "passing" / "run_1.txt").read_text("utf-8")
    assert text.startswith("scenario: Scenario passing\n")
    for line in (
        "run: 1",
        "overall_result: PASS (assertions only)",
        "error: none",
        "simulator: offline",
        "judge: none (no judge model configured",
        "Quality Criteria Results",
        "  [UNJUDGED] The agent greets",
        "    rationale: no judge model configured",
        "Quality Metrics",
        "Assertion Results",
        "  [PASS] skill_activated — ",
        "Raw Transcript",
        "  2. [T1] user: hello",
        "Latency (not gating)",
        "Event Ledger",
        "[T1] skill_activated support",
    ):
        assert line in text, line
    sections = [
        s
        for s in (
            "Quality Criteria Results",
            "Quality Metrics",
            "Assertion Results",
            "Raw Transcript",
            "Latency",
        )
        if s in text
    ]
    assert sorted(sections, key=text.index) == sections
    failed = (writer.dir / "failing" / "run_1.txt").read_text("utf-8")
    assert "overall_result: FAIL" in failed and "[FAIL] skill_completed — expected" in failed
    errored = (writer.dir / "erroring" / "run_1.txt").read_text("utf-8")
    assert "overall_result: ERROR" in errored
    assert "error: simulator: offline simulator needs quoted user lines" in errored


async def test_summary_json(results: tuple[ResultsWriter, Any]) -> None:
    writer, _ = results
    data = json.loads((writer.dir / "summary.json").read_text("utf-8"))
    assert data["wall_clock_s"] > 0 and data["timestamp"] == STAMP
    entries = {e["scenario_slug"]: e for e in data["entries"]}
    assert list(entries) == ["passing", "failing", "erroring"]
    for entry in entries.values():
        assert {
            "scenario_name",
            "scenario_slug",
            "runs_passed",
            "runs_total",
            "runs_errored",
            "duration_s",
        } <= set(entry)
    assert (entries["passing"]["runs_passed"], entries["passing"]["runs_total"]) == (2, 2)
    assert entries["passing"]["runs_assertions_only"] == 2
    assert (entries["failing"]["runs_passed"], entries["failing"]["runs_failed"]) == (0, 2)
    assert entries["erroring"]["runs_errored"] == 2
    assert data["totals"] == {
        "passed": 2,
        "failed": 2,
        "errored": 2,
        "total": 6,
        "assertions_only": 2,
    }


async def test_summary_txt(results: tuple[ResultsWriter, Any]) -> None:
    writer, _ = results
    text = (writer.dir / "summary.txt").read_text("utf-8")
    assert text.startswith("EXPERIMENT SUMMARY\n")
    assert re.search(r"^\[PASS\] Scenario passing  2/2  \d+\.\ds  passing/$", text, re.M)
    assert re.search(r"^\[FAIL\] Scenario failing  0/2  \d+\.\ds  failing/$", text, re.M)
    assert "Total: 2/6 passed" in text and re.search(r"^Time: \d+\.\ds$", text, re.M)
    attention = text.split("Scenarios requiring attention", 1)[1]
    assert "failing (Scenario failing): 2 failed, 0 errored of 2" in attention
    assert "run 1 ERROR: simulator: offline simulator needs quoted user lines" in attention
    assert "passing" not in attention
    assert "Assertions only: 2 passing runs" in text


async def test_summary_md(results: tuple[ResultsWriter, Any]) -> None:
    writer, _ = results
    text = (writer.dir / "summary.md").read_text("utf-8")
    assert text.startswith("### ❌ casegen run: 2/6 runs passed")
    assert "| ✅ | Scenario passing (`passing`) | 2/2 | 100% | 0 |" in text
    assert "| ⚠️ | Scenario erroring (`erroring`) | 0/2 | 0% | 2 |" in text
    assert "**assertions only**" in text and "<details>" in text


async def test_junit(results: tuple[ResultsWriter, Any], tmp_path: Path) -> None:
    root = ET.fromstring((tmp_path / "junit.xml").read_text("utf-8"))
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("6", "2", "2")
    cases = root.findall(".//testcase")
    assert len(cases) == 6
    by_name = {c.get("name"): c for c in cases}
    assert by_name["Scenario failing [run 1]"].find("failure") is not None
    assert by_name["Scenario failing [run 1]"].find("error") is None
    error = by_name["Scenario erroring [run 2]"].find("error")
    assert error is not None and "offline simulator" in error.get("message", "")
    passing = by_name["Scenario passing [run 1]"]
    assert passing.find("failure") is None and passing.find("error") is None
    props = {p.get("name"): p.get("value") for p in passing.iter("property")}
    assert props["judged"] == "false"


async def test_summary_accumulates_for_a_shared_timestamp(tmp_path: Path) -> None:
    def target() -> FunctionTarget:
        return FunctionTarget(mantle_echo)

    first = ResultsWriter(tmp_path, timestamp=STAMP)
    await run_cases([PASSING], target(), results=first)
    second = ResultsWriter(tmp_path, timestamp=STAMP)
    await run_cases([PASSING, FAILING], target(), results=second)
    assert sorted(p.name for p in (second.dir / "passing").glob("*.json")) == [
        "run_1.json",
        "run_2.json",
    ]
    data = json.loads((second.dir / "summary.json").read_text("utf-8"))
    entries = {e["scenario_slug"]: e for e in data["entries"]}
    assert entries["passing"]["runs_total"] == 2 and entries["failing"]["runs_total"] == 1
    run2 = json.loads((second.dir / "passing" / "run_2.json").read_text("utf-8"))
    assert run2["run_index"] == 2


def test_default_timestamp_format(tmp_path: Path) -> None:
    from datetime import datetime

    writer = ResultsWriter(tmp_path)
    datetime.strptime(writer.timestamp, TIMESTAMP_FORMAT)


async def test_a_run_file_is_written_as_soon_as_the_run_finishes(tmp_path: Path) -> None:
    writer = ResultsWriter(tmp_path, timestamp=STAMP)
    seen: list[bool] = []

    def respond(turn: UserTurn, state: dict[str, Any]) -> AgentReply:
        seen.append((writer.dir / "first" / "run_1.json").is_file())
        return mantle_echo(turn, state)

    await run_cases(
        [case("first", []), case("second", [])],
        FunctionTarget(respond),
        RunOptions(parallel=1),
        results=writer,
    )
    assert seen[:3] == [False, False, False] and seen[-1] is True
