"""Verification never flips or hides a case.

Found on projects other people wrote: a "tool fails" sad path that no real run can produce
was "repaired" into `is_error: false` (the case then asserted the opposite of its title and
still passed), and the happy paths of an agent's main job were dropped at verification
without a trace in the suite. A failure case whose failure cannot be played is dropped with
the reason; a case the suite must have (a skill's goal, a gate's refusal) that the verifier
fails is written as drafted and marked `needs-review`, in the table, `--json` and the PR
description.
"""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from agentflows.cli._generate_table import print_cases
from agentflows.drafting import DraftContext, DraftResult
from agentflows.drafting.offline import OfflineEngine
from agentflows.generate import build_request, run_generation
from agentflows.generate._verify_fix import fix_assertions
from agentflows.generate._verify_mantle import verify_mantle
from agentflows.generate._verify_types import VerifyEnv
from agentflows.pr._verification import verification_lines
from evalcore.definitions import load_project
from evalcore.dialects import get_dialect

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"
HAPPY = REPO / "generated_cases/mantle/check_balance/check_balance_checking_happy_path.yml"


def _failing_tool(data: dict[str, Any], tool: str) -> dict[str, Any]:
    """`data` as a sad path that asserts `tool` fails."""
    out = copy.deepcopy(data)
    out["scenario"]["type"] = "sad_path"
    for item in out["scenario"]["goals"]["assertions"]:
        spec = item.get("tool_executed")
        if isinstance(spec, dict) and spec.get("tool_name") == tool:
            spec["is_error"] = True
    return out


def test_no_fix_turns_a_failure_into_a_success() -> None:
    wanted = {"tool_executed": {"tool_name": "get_balance", "source": "local", "is_error": True}}
    data = {"scenario": {"goals": {"assertions": [wanted]}}}
    events = [
        {"event": "tool_executed", "tool_name": "get_balance", "source": "local", "is_error": False}
    ]
    fixed, fixes = fix_assertions(data, events, [{"index": 0, "detail": "is_error false"}])
    assert [f["after"] for f in fixes] == [None]
    assert "assertions" not in fixed["scenario"]["goals"]


def test_a_failure_the_reference_agent_cannot_play_is_dropped_not_rewritten() -> None:
    data = _failing_tool(yaml.safe_load(HAPPY.read_text("utf-8")), "get_balance")
    env = VerifyEnv(
        project=load_project(BANK),
        dialect=get_dialect("mantle"),
        path=Path("case.yml"),
        project_label="examples/bank",
    )
    verdict = asyncio.run(verify_mantle(data, env))
    assert verdict.outcome == "dropped", verdict.fixes
    assert "the case must still assert that get_balance fails" in (verdict.reason or "")
    assert verdict.data == data


class _WrongRequest(OfflineEngine):
    """Offline drafts, with the hand-off request's assertions wrong for every agent."""

    async def draft(self, ctx: DraftContext) -> DraftResult:
        result = await super().draft(ctx)
        if ctx.behavior.case == "request" and result.data is not None:
            result.data["scenario"]["goals"]["assertions"] = [
                {"skill_activated": {"skill_id": "check_balance"}},
                {"tool_executed": {"tool_name": "get_balance", "source": "local"}},
                {"skill_completed": {"skill_id": "check_balance"}},
            ]
        return result


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("flips")
    request = build_request(["human_handoff"], project=BANK, out=str(out / "cases"))
    return asyncio.run(
        run_generation(request, engine=_WrongRequest(), checkpoints=out / "checkpoints.sqlite")
    )


def test_a_must_cover_case_the_verifier_fails_is_written_for_review(report, capsys) -> None:
    row = next(r for r in report["cases"] if r["behavior"] == "human_handoff:request")
    assert row["verified"] == "needs-review"
    assert "reference agent fails it" in row["needs_review"]
    assert Path(row["path"]).is_file()
    assert "human_handoff:request" not in {d["behavior"] for d in report["dropped"]}
    assert report["verification"]["needs_review"] == 1
    others = [r for r in report["cases"] if r["behavior"] != "human_handoff:request"]
    assert others and all(r["needs_review"] is None for r in others)
    text = "\n".join(verification_lines(report, [r["path"] for r in report["cases"]]))
    assert "1 needs-review" in text and "| needs-review |" in text
    print_cases(report)
    assert "needs-review" in capsys.readouterr().out
