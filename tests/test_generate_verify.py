"""Verification in `casegen generate`: each draft played before it is written.

A Mantle draft against the project's reference agent (repaired or dropped when it fails, weak
when it kills none of the mutants on its path); Anychat against `demo:clinic` for
examples/clinic, else a static check; base44 a static check; `--no-verify` skips it.
"""

from __future__ import annotations

import asyncio
import copy
import shutil
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
from agentflows.generate._verify_other import verify_other
from agentflows.generate._verify_types import VerifyEnv
from agentflows.pr._verification import verification_lines
from evalcore.definitions import load_project
from evalcore.dialects import get_dialect

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"
CLINIC = REPO / "examples" / "clinic"
SKILLS = REPO / "examples" / "skills"

WRONG_EVERYWHERE = [
    {"skill_activated": {"skill_id": "check_balance"}},
    {"tool_executed": {"tool_name": "get_balance", "source": "local"}},
    {"skill_completed": {"skill_id": "check_balance"}},
]


class Tampered(OfflineEngine):
    """Offline drafts, with some behaviours' assertions made wrong on purpose."""

    def __init__(self, edits: dict[str, Any]) -> None:
        super().__init__()
        self.edits = edits

    async def draft(self, ctx: DraftContext) -> DraftResult:
        result = await super().draft(ctx)
        edit = self.edits.get(ctx.behavior.case)
        if edit is not None and result.data is not None:
            edit(result.data["scenario"]["goals"])
        return result


def _wrong_queue(goals: dict[str, Any]) -> None:
    """The queue the customer asked for is `cards`; say `general` instead."""
    for item in goals["assertions"]:
        for memory in item.get("memory_was_set") or []:
            if memory["name"] == "human_handoff.handoff_queue":
                memory["value"] = "general"


def _everything_wrong(goals: dict[str, Any]) -> None:
    goals["assertions"] = copy.deepcopy(WRONG_EVERYWHERE)


@pytest.fixture(scope="module")
def tampered_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("verify")
    # check_balance brings a case nobody tampered with (the hand-off's clarification case
    # asserts what its request case asserts, so it is not written beside it)
    request = build_request(
        ["human_handoff", "check_balance"], project=BANK, out=str(out / "cases")
    )
    engine = Tampered({"request": _wrong_queue, "details_up_front": _everything_wrong})
    return asyncio.run(
        run_generation(request, engine=engine, checkpoints=out / "checkpoints.sqlite")
    )


def _row(report: dict[str, Any], case: str) -> dict[str, Any]:
    return next(r for r in report["cases"] if r["behavior"] == f"human_handoff:{case}")


def _good(report: dict[str, Any]) -> dict[str, Any]:
    return next(r for r in report["cases"] if r["behavior"] == "check_balance:checking")


def test_a_wrong_value_the_reference_agent_disproves_is_corrected(tampered_run) -> None:
    row = _row(tampered_run, "request")
    assert row["verified"] == "repaired"
    assert row["verified_against"] == f"mantle:{BANK}"
    fix = next(r for r in row["repairs"] if r["by"] == "verify")
    assert fix["code"] == "verify:memory_was_set"
    assert "general" in str(fix["before"]) and "cards" in str(fix["after"])
    written = yaml.safe_load(Path(row["path"]).read_text("utf-8"))
    memory = [
        m for a in written["scenario"]["goals"]["assertions"] for m in a.get("memory_was_set") or []
    ]
    assert {"name": "human_handoff.handoff_queue", "value": "cards"} in memory


def test_a_case_no_correct_agent_passes_is_dropped_and_the_others_kept(tampered_run) -> None:
    dropped = {d["behavior"]: d for d in tampered_run["dropped"]}
    drop = dropped["human_handoff:details_up_front"]
    assert drop["stage"] == "verify"
    assert drop["against"] == f"mantle:{BANK}"
    assert "reference agent fails it" in drop["reason"]
    assert "check_balance" in drop["reason"]
    assert "human_handoff:details_up_front" not in {r["behavior"] for r in tampered_run["cases"]}
    good = _good(tampered_run)
    assert good["verified"] == "yes" and good["mutants_killed"] >= 1
    assert tampered_run["verification"]["dropped"] == 1
    assert not tampered_run["failed"]


def test_only_the_mutants_on_the_case_path_are_played(tampered_run) -> None:
    row = _good(tampered_run)
    played = row["verification"]["mutants_played"]
    assert played and row["mutants_played"] == len(played)
    assert not any("card_replace" in m or "dispute" in m for m in played), played
    assert set(row["verification"]["mutants_killed"]) <= set(played)


def _env(project: Path, dialect: str = "mantle") -> VerifyEnv:
    return VerifyEnv(
        project=load_project(project),
        dialect=get_dialect(dialect),
        path=Path("case.yml"),
        project_label=str(project),
    )


def _escalation() -> dict[str, Any]:
    path = REPO / "generated_cases/mantle/human_handoff/human_handoff_request_escalation.yml"
    return yaml.safe_load(path.read_text("utf-8"))


def test_a_case_that_kills_no_mutant_is_weak() -> None:
    data = _escalation()
    # True of a correct agent, and of every broken one too: it asserts nothing to get wrong.
    data["scenario"]["goals"]["assertions"] = [
        {"bot_did_not_utter": {"utter_name": "utter_card_blocked"}}
    ]
    verdict = asyncio.run(verify_mantle(data, _env(BANK)))
    assert verdict.outcome == "yes" and verdict.weak and verdict.label == "weak"
    assert verdict.played and not verdict.killed
    assert f"kills none of the {len(verdict.played)} mutants played" in (verdict.reason or "")
    assert verdict.on_path >= len(verdict.played)
    assert verdict.to_json()["verified"] == "weak"


def test_the_unchanged_case_is_verified_and_kills_mutants() -> None:
    verdict = asyncio.run(verify_mantle(_escalation(), _env(BANK)))
    assert verdict.label == "yes" and not verdict.fixes
    assert verdict.killed and set(verdict.killed) <= set(verdict.played)
    assert "wrong_enum:human_handoff.handoff_queue" in verdict.killed


def test_a_model_repair_is_used_when_a_model_is_configured() -> None:
    data = _escalation()
    data["scenario"]["goals"]["assertions"].append(copy.deepcopy(WRONG_EVERYWHERE[0]))
    seen: list[str] = []

    async def model(draft: dict[str, Any], findings: list[Any]) -> dict[str, Any]:
        seen.extend(f.message for f in findings)
        return _escalation()  # the model removes what the reference agent disproved

    env = _env(BANK)
    env.model_repair = model
    verdict = asyncio.run(verify_mantle(data, env))
    assert verdict.outcome == "repaired"
    assert [f["by"] for f in verdict.fixes] == ["model"]
    told = "\n".join(seen)
    assert "check_balance" in told and "user:" in told  # the assertion, and the transcript


def test_fix_assertions_keeps_the_steps_that_stay_in_order() -> None:
    events = [
        {"event": "skill_activated", "skill_id": "a"},
        {"event": "tool_executed", "tool_name": "t", "source": "local", "arguments": {"x": 2}},
        {"event": "skill_completed", "skill_id": "a"},
    ]
    data = {
        "scenario": {
            "goals": {
                "assertions": [
                    {
                        "sequencing": [
                            {"skill_activated": {"skill_id": "a"}},
                            {"skill_activated": {"skill_id": "b"}},
                            {"skill_completed": {"skill_id": "a"}},
                        ]
                    },
                    {"tool_executed": {"tool_name": "t", "source": "local", "arguments": {"x": 1}}},
                    {"skill_completed": {"skill_id": "zzz"}},
                ]
            }
        }
    }
    failing = [{"index": i, "detail": "…"} for i in range(3)]
    fixed, fixes = fix_assertions(data, events, failing)
    assertions = fixed["scenario"]["goals"]["assertions"]
    assert assertions == [
        {
            "sequencing": [
                {"skill_activated": {"skill_id": "a"}},
                {"skill_completed": {"skill_id": "a"}},
            ]
        },
        {"tool_executed": {"tool_name": "t", "source": "local", "arguments": {"x": 2}}},
    ]
    assert [f["code"] for f in fixes] == [
        "verify:skill_completed",
        "verify:tool_executed",
        "verify:sequencing",
    ]
    assert fixes[0]["after"] is None


def test_a_corrected_assertion_that_repeats_another_is_removed() -> None:
    events = [{"event": "tool_executed", "tool_name": "t", "source": "local", "arguments": {}}]
    plain = {"tool_executed": {"tool_name": "t", "source": "local"}}
    data = {
        "scenario": {
            "goals": {
                "assertions": [
                    {"tool_executed": {"tool_name": "t", "source": "local", "arguments": {"x": 1}}},
                    plain,
                ]
            }
        }
    }
    fixed, fixes = fix_assertions(data, events, [{"index": 0, "detail": "no x"}])
    assert fixed["scenario"]["goals"]["assertions"] == [plain]
    assert fixes[0]["after"] is None


# --- the CLI: --no-verify and the JSON fields ---------------------------------------------


def test_json_report_carries_the_verification_of_every_case(run_cli_json, tmp_path) -> None:
    code, report = run_cli_json(
        "generate", "human_handoff", "--project", BANK, "--model", "offline",
        "--count", "1", "--out", tmp_path / "cases",
    )  # fmt: skip
    assert code == 0
    (row,) = report["cases"]
    assert row["verified"] in ("yes", "repaired", "weak")
    assert row["verified_against"] == f"mantle:{BANK}"
    assert row["mutants_played"] == len(row["verification"]["mutants_played"]) > 0
    assert row["mutants_killed"] == len(row["verification"]["mutants_killed"])
    assert set(row["verification"]) >= {"against", "method", "reason", "repairs", "notes"}
    summary = report["verification"]
    assert summary["enabled"] is True and summary["against"] == [f"mantle:{BANK}"]
    assert summary["mutants_played"] == row["mutants_played"]


def test_no_verify_plays_nothing_and_says_so(run_cli, run_cli_json, tmp_path) -> None:
    args = ("generate", "human_handoff", "--project", BANK, "--model", "offline", "--count", "1")
    code, report = run_cli_json(*args, "--out", tmp_path / "a", "--no-verify")
    assert code == 0
    (row,) = report["cases"]
    assert row["verified"] == "skipped" and row["mutants_played"] == 0
    assert row["verification"]["reason"] == "--no-verify"
    assert report["verification"]["enabled"] is False
    code, out, _ = run_cli(*args, "--out", tmp_path / "b", "--no-verify")
    assert code == 0 and "verification skipped (--no-verify)" in out


# --- Anychat and base44 -------------------------------------------------------------------


def test_anychat_cases_of_the_clinic_are_played_against_demo_clinic(run_cli_json, tmp_path):
    code, report = run_cli_json(
        "generate", "book", "--project", CLINIC, "--model", "offline", "--count", "2",
        "--out", tmp_path / "cases",
    )  # fmt: skip
    assert code == 0 and report["cases"]
    for row in report["cases"]:
        assert row["verified"] == "yes", row["verification"]
        assert row["verified_against"] == "demo:clinic"
        assert row["verification"]["method"] == "demo"


def test_another_anychat_project_gets_the_static_check(run_cli_json, tmp_path) -> None:
    project = tmp_path / "clinic_copy"
    shutil.copytree(CLINIC, project, ignore=shutil.ignore_patterns("cases"))
    code, report = run_cli_json(
        "generate", "book", "--project", project, "--model", "offline", "--count", "1",
        "--out", tmp_path / "cases",
    )  # fmt: skip
    assert code == 0
    (row,) = report["cases"]
    assert (row["verified"], row["verified_against"]) == ("yes", "static")


def test_static_checks_drop_what_no_agent_can_satisfy(tmp_path) -> None:
    project = tmp_path / "clinic_copy"
    shutil.copytree(CLINIC, project, ignore=shutil.ignore_patterns("cases"))
    case = {"expect": {"checks": {"toolsCalled": {"book_appointment": 1}}}}
    case["expect"]["checks"]["toolsNotCalled"] = ["book_appointment"]
    verdict = asyncio.run(verify_other(case, _env(project, "anychat")))
    assert verdict.outcome == "dropped" and verdict.against == "static"
    assert "book_appointment is both called and not called" in (verdict.reason or "")
    prompt = {
        "name": "p",
        "prompt": "do it",
        "expectedSkills": ["no-such-skill"],
        "checks": [
            {"type": "file-content", "filePath": "a.txt", "pattern": "x"},
            {"type": "file-content-excluded", "filePath": "a.txt", "pattern": "x"},
        ],
    }
    verdict = asyncio.run(verify_other({"prompts": [prompt]}, _env(SKILLS, "base44")))
    assert verdict.outcome == "dropped"
    assert "no-such-skill" in (verdict.reason or "") and "must both match" in verdict.reason


def test_base44_cases_get_the_static_check(run_cli_json, tmp_path) -> None:
    code, report = run_cli_json(
        "generate", "base44-cli", "--project", SKILLS, "--model", "offline", "--count", "2",
        "--out", tmp_path / "cases",
    )  # fmt: skip
    assert code == 0 and report["cases"]
    assert {(r["verified"], r["verified_against"]) for r in report["cases"]} == {("yes", "static")}


# --- what people read: the table and the PR description -----------------------------------


def _report() -> dict[str, Any]:
    def row(source: str, name: str, verified: str, killed: int, played: int) -> dict[str, Any]:
        return {
            "path": f"out/{source}/{name}.yml",
            "status": "created",
            "source": source,
            "type": "happy_path",
            "behavior": f"{source}:{name}",
            "title": name.replace("_", " "),
            "assertions": 3,
            "criteria": 1,
            "repairs": [],
            "verified": verified,
            "verified_against": "mantle:examples/bank",
            "mutants_killed": killed,
            "mutants_played": played,
            "verification": {
                "reason": "kills none of the 4 mutants on its path" if verified == "weak" else None,
                "repairs": [],
            },
        }

    rows = [row("card_replace", f"case_{i}", "yes", 3, 5) for i in range(6)]
    rows += [row("check_balance", "weak_one", "weak", 0, 4)]
    return {
        "engine": "offline",
        "cases": rows,
        "dropped": [
            {"behavior": "check_balance:gone", "reason": "verification: no", "stage": "verify"}
        ],
        "failed": [],
        "verification": {
            "enabled": True,
            "yes": 6,
            "repaired": 0,
            "weak": 1,
            "skipped": 0,
            "dropped": 1,
            "against": ["mantle:examples/bank"],
            "mutants_played": 34,
            "mutants_killed": 18,
        },
    }


def test_several_targets_get_a_row_per_skill_and_details_only_where_needed(capsys) -> None:
    print_cases(_report())
    out = capsys.readouterr().out
    assert "7 cases in 2 targets" in out
    assert "18/30" in out and "0/4" in out  # killed/played per skill
    assert "1 to look at" in out
    assert "weak one" in out and "case 3" not in out  # only the weak case is listed
    assert "weak check_balance:weak_one: kills none of the 4 mutants" in out


def test_the_pr_description_carries_the_verification() -> None:
    report = _report()
    text = "\n".join(verification_lines(report, [r["path"] for r in report["cases"]]))
    assert "## Verification" in text and "`mantle:examples/bank`" in text
    assert "| `out/check_balance/weak_one.yml` | weak |" in text and "| 0/4 |" in text
    assert "`check_balance:gone`: verification: no" in text
    report["verification"]["enabled"] = False
    assert "--no-verify" in "\n".join(verification_lines(report, []))


def test_no_fix_asserts_a_value_the_user_took_back() -> None:
    """The user states 6 and corrected 3 to it; the run kept 3: the agent ignored the
    correction, and the fix is marked as contradicting what the user says."""
    events = [{"event": "memory_set", "key": "plan.installments", "value": "3"}]
    context = (
        "You are Hugo Petrov, an account holder.\nYou want a payment plan.\n"
        "What you know (share each only when the agent asks):\n- installments: 6\n"
        'When the agent asks for the installments, say instead: "Three, please."\n'
    )
    wanted = {"memory_was_set": [{"name": "plan.installments", "value": "6"}]}
    data = {"scenario": {"simulation_context": context, "goals": {"assertions": [wanted]}}}
    fixed, fixes = fix_assertions(data, events, [{"index": 0, "detail": "value is 3"}])
    assert [f.get("contradicts") for f in fixes] == [True]
    assert fixed["scenario"]["goals"]["assertions"] == [wanted]
    # a value the facts never state is corrected as before
    data["scenario"]["simulation_context"] = context.replace("- installments: 6", "- zip: 19940")
    fixed, fixes = fix_assertions(data, events, [{"index": 0, "detail": "value is 3"}])
    assert fixed["scenario"]["goals"]["assertions"] == [
        {"memory_was_set": [{"name": "plan.installments", "value": "3"}]}
    ]
