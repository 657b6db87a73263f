"""Repairs that converge: a draft the reference agent fails gets up to `repair_rounds` model
rounds, each told what to change in words; one that never passes is reported with its last
finding.

The model is a LangChain fake chat model answering the bank's hand-off escalation with words
whose only fact is labelled so that the simulated user cannot place it (the agent asks what
the customer needs help with; the context calls it a favourite colour).
"""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field, SecretStr

import agentflows.cli._generate_run as flow
from agentflows.drafting import DraftContext, DraftResult
from agentflows.drafting.llm import LLMEngine
from agentflows.drafting.offline import OfflineEngine
from agentflows.generate import build_request, run_generation
from agentflows.generate._verify_mantle import verify_mantle
from agentflows.generate._verify_types import VerifyEnv
from agentflows.generate.context import DEFAULT_REPAIR_ROUNDS
from evalcore.definitions import load_project
from evalcore.dialects import get_dialect
from evalcore.llm import ModelConfig

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"
TARGET = "human_handoff:request"
ESCALATION = REPO / "generated_cases/mantle/human_handoff/human_handoff_request_escalation.yml"

CONTEXT = (
    "You are Priya Nair, a retiree who banks by phone.\n"
    "You want to talk to a person.\n"
    "What you know (share each only when the agent asks):\n"
    "- {label}: cards\n"
    "Stop once the agent has given you the transfer reference of your hand-off.\n"
)
#: Words that keep the planned fact's value but label it so no question of the agent names it.
MISLABELLED = CONTEXT.format(label="your favourite colour")
#: The same words with the fact labelled by what the agent asks for.
LABELLED = CONTEXT.format(label="what you need help with")


class RoundsChat(GenericFakeChatModel):
    """Answers the hand-off request's draft with mislabelled words, and its repair rounds
    with `repairs` in turn (the last one again when they run out); other cases get the
    planned words (an empty context keeps the plan's)."""

    repairs: list[str] = Field(default_factory=list)
    findings: list[str] = Field(default_factory=list)
    """The findings section of each repair request of the hand-off request, in order."""
    criteria: list[str] = Field(default_factory=lambda: ["The agent stays polite"])
    """The criteria every answer gives."""
    shown: list[str] = Field(default_factory=list)
    """The case's current words in each repair request of the hand-off request."""

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        text = "\n".join(str(m.content) for m in messages)
        if "<Behavior>" not in text:  # plan refinement: keep the plan
            return _answer({"behaviors": []})
        section = text.split("<Behavior>", 1)[1].split("</Behavior>", 1)[0]
        behavior = json.loads(section[section.index("{") : section.rindex("}") + 1])
        context = ""
        if behavior["id"] == TARGET:
            context = MISLABELLED
            if "<Findings>" in text:
                self.findings.append(text.split("<Findings>", 1)[1].split("</Findings>")[0])
                self.shown.append(text.split("<Case>", 1)[1].split("</Case>")[0])
                context = self.repairs[min(len(self.findings), len(self.repairs)) - 1]
        return _answer(
            {
                "name": behavior["title"],
                "simulation_context": context,
                "criteria": list(self.criteria),
            }
        )


def _answer(value: dict[str, Any]) -> ChatResult:
    message = AIMessage(content=json.dumps(value))
    return ChatResult(generations=[ChatGeneration(message=message)])


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("CASEGEN_MODEL", "CASEGEN_JUDGE_MODEL", "CASEGEN_SIMULATOR_MODEL"):
        monkeypatch.delenv(name, raising=False)


def _generate(
    repairs: list[str], criteria: list[str] | None = None, **options: Any
) -> tuple[dict[str, Any], RoundsChat]:
    chat = RoundsChat(messages=iter(()), repairs=repairs)
    if criteria is not None:
        chat.criteria = criteria
    config = ModelConfig(model="fake", api_key=SecretStr("k"), max_retries=1)
    engine = LLMEngine(config, use_cache=False, chat_model=chat)
    request = build_request(["human_handoff"], project=BANK, out="out", **options)
    return asyncio.run(run_generation(request, engine=engine)), chat


def test_a_draft_that_fails_round_one_and_passes_round_two_is_written() -> None:
    report, chat = _generate([MISLABELLED, LABELLED])
    row = next(r for r in report["cases"] if r["behavior"] == TARGET)
    assert row["verified"] in ("repaired", "weak")
    fix = next(r for r in row["repairs"] if r["code"] == "verify:model")
    assert "round 2" in fix["reason"]
    assert len(chat.findings) == 2
    written = Path(row["path"]).read_text("utf-8")
    assert "what you need help with: cards" in written
    # each round names the lever in words: the fact the simulated user lacked, the
    # question it could not answer, and which assertion failed on which event
    for findings in chat.findings:
        assert "lacked a fact" in findings
        assert "what you need help with (the handoff queue)?" in findings
        assert "human_handoff.handoff_queue" in findings


def _reason(report: dict[str, Any]) -> str:
    """Why the hand-off request was not verified: a must-cover case is written for review
    with the reason, any other dropped with it."""
    row = next((r for r in report["cases"] if r["behavior"] == TARGET), None)
    if row is not None:
        assert row["verified"] == "needs-review"
        return row["verification"]["reason"]
    return next(d for d in report["dropped"] if d["behavior"] == TARGET)["reason"]


def test_a_draft_that_never_passes_is_reported_with_its_last_finding() -> None:
    report, chat = _generate([MISLABELLED])
    assert len(chat.findings) == DEFAULT_REPAIR_ROUNDS
    reason = _reason(report)
    assert f"after model repair round {DEFAULT_REPAIR_ROUNDS}, the same assertions" in reason
    assert "lacked a fact" in reason


def test_repair_rounds_is_the_request_s_choice() -> None:
    report, chat = _generate([MISLABELLED, LABELLED], repair_rounds=1)
    assert len(chat.findings) == 1
    assert "after model repair round 1" in _reason(report)


class NeverValid(OfflineEngine):
    """Offline drafts of the hand-off request naming a tool the project lacks, and a
    "model" repair that keeps naming it: validation never passes."""

    name = "stub"
    can_repair = True

    def __init__(self) -> None:
        super().__init__()
        self.rounds = 0

    async def draft(self, ctx: DraftContext) -> DraftResult:
        result = await super().draft(ctx)
        if ctx.behavior.id == TARGET and result.data is not None:
            result.data["scenario"]["goals"]["assertions"].append(
                {"tool_executed": {"tool_name": "teleport_card", "source": "local"}}
            )
        return result

    async def repair(
        self, ctx: DraftContext, data: dict[str, Any], findings: list[Any]
    ) -> DraftResult:
        self.rounds += 1
        return DraftResult(data=data)


def test_a_draft_validation_never_passes_fails_with_its_last_finding() -> None:
    engine = NeverValid()
    request = build_request(
        ["human_handoff"], project=BANK, out="out", verify=False, repair_rounds=2
    )
    report = asyncio.run(run_generation(request, engine=engine))
    assert engine.rounds == 2
    failed = next(f for f in report["failed"] if f["behavior"] == TARGET)
    assert "after 2 model repair round(s); the last:" in failed["error"]
    assert "teleport_card" in failed["error"]


def test_the_cli_takes_repair_rounds_and_bounds_it(run_cli, monkeypatch) -> None:
    seen: list[int] = []

    def fake_flow(request: Any, **_: Any) -> dict[str, Any]:
        seen.append(request.repair_rounds)
        return {"cases": [], "failed": [], "dropped": [], "conflicts": [], "halted": None}

    monkeypatch.setattr(flow, "_run_flow", fake_flow)
    monkeypatch.setattr(flow, "exit_code", lambda report: 0)
    args = ["generate", "check_balance", "--project", BANK, "--model", "offline", "--json"]
    assert run_cli(*args, "--repair-rounds", "5")[0] == 0
    assert run_cli(*args)[0] == 0
    assert seen == [5, DEFAULT_REPAIR_ROUNDS]
    assert run_cli(*args, "--repair-rounds", "11")[0] == 2


def test_a_refused_revision_is_a_finding_for_the_next_round() -> None:
    """Round 1's revision fails validation: round 2 is told why, and its revision passes."""
    good = yaml.safe_load(ESCALATION.read_text("utf-8"))
    draft = copy.deepcopy(good)
    draft["scenario"]["goals"]["assertions"].append({"skill_activated": {"skill_id": "dispute"}})
    broken = copy.deepcopy(good)
    broken["scenario"]["type"] = "no_such_type"
    answers = [broken, good]
    told: list[list[Any]] = []

    async def model(data: dict[str, Any], findings: list[Any]) -> dict[str, Any]:
        told.append(findings)
        return copy.deepcopy(answers[len(told) - 1])

    env = VerifyEnv(
        project=load_project(BANK),
        dialect=get_dialect("mantle"),
        path=Path("case.yml"),
        project_label=str(BANK),
        model_repair=model,
        repair_rounds=3,
    )
    verdict = asyncio.run(verify_mantle(draft, env))
    assert verdict.outcome == "repaired" and len(told) == 2
    assert "round 2" in verdict.fixes[0]["reason"]
    refused = [f for f in told[1] if f.code == "repair-refused"]
    assert refused and "was not used" in refused[0].message
    assert any(f.code == "reference-agent-fails" for f in told[1])  # still what failed


def test_a_repair_round_shows_the_models_criteria_as_it_wrote_them() -> None:
    compound = "The agent stays polite, and it never names another customer"
    report, chat = _generate([MISLABELLED, LABELLED], criteria=[compound])
    assert len(chat.shown) == 2
    # round 2 shows round 1's criterion whole, never cut at "and" into two checks
    words = json.loads(chat.shown[1][chat.shown[1].index("{") : chat.shown[1].rindex("}") + 1])
    assert words["criteria"] == [compound]
    row = next(r for r in report["cases"] if r["behavior"] == TARGET)
    assert compound in " ".join(Path(row["path"]).read_text("utf-8").split())
