"""The generation flow as a graph: dedupe, failures, resume, conflicts, determinism.

The LLM paths use `LLMEngine` with a LangChain fake chat model (scripted per behaviour);
resume uses a counting engine so "re-drafts nothing that finished" is observable.
"""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field, SecretStr

from agentflows.drafting import DraftContext, DraftResult
from agentflows.drafting.llm import LLMEngine
from agentflows.drafting.offline import OfflineEngine
from agentflows.generate import build_request, run_generation
from evalcore.llm import ModelConfig

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"


class BehaviourChat(GenericFakeChatModel):
    """Answers each draft request with `answer(behaviour_id)`: a dict (the case), a string
    (raw content) or an exception to raise."""

    answer: Any = None
    repair: Any = None
    """Answers repair requests (a whole case); None: `answer` does."""
    calls: list[str] = Field(default_factory=list)

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        text = "\n".join(str(m.content) for m in messages)
        if "<Behavior>" not in text:  # the plan refinement: keep the plan as it is
            content = json.dumps({"behaviors": []})
            return ChatResult(generations=[ChatGeneration(message=AIMessage(content=content))])
        section = text.split("<Behavior>", 1)[1].split("</Behavior>", 1)[0]
        behavior = json.loads(section[section.index("{") : section.rindex("}") + 1])
        self.calls.append(behavior["id"])
        repairing = "<Findings>" in text and self.repair is not None
        value = (self.repair if repairing else self.answer)(behavior)
        if isinstance(value, BaseException):
            raise value
        content = value if isinstance(value, str) else json.dumps(value)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=content))])


def llm_engine(answer: Any) -> tuple[LLMEngine, BehaviourChat]:
    chat = BehaviourChat(messages=iter(()), answer=answer, calls=[])
    config = ModelConfig(
        model="fake", api_key=SecretStr("k"), max_retries=1, retry_base_delay_s=0.0
    )
    return LLMEngine(config, use_cache=False, chat_model=chat), chat


def words(behavior: dict[str, Any]) -> dict[str, Any]:
    """What a model answers for a Mantle draft: the words (the plan keeps the assertions)."""
    return {
        "name": behavior["title"],
        "simulation_context": f'You are a customer. 1. Say: "I need a new card ({behavior["id"]})"',
        "criteria": ["The agent does not read out the internal card id"],
    }


def scenario(behavior: dict[str, Any], *, marker: str | None = None) -> dict[str, Any]:
    """A whole valid case (what a model answers to a repair request)."""
    marker = marker or behavior["id"]
    return {
        "scenario": {
            "name": behavior["title"],
            "type": behavior["type"],
            "simulation_context": f'You are a customer. 1. Say: "I need a new card ({marker})"',
            "goals": {
                "criteria": ["The agent stays polite"],
                "assertions": [
                    {"skill_activated": {"skill_id": "card_replace"}},
                    {"bot_did_not_utter": {"text_matches": marker}},
                ],
            },
        }
    }


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # checkpoints and default output stay in the temp folder
    for name in ("CASEGEN_MODEL", "CASEGEN_JUDGE_MODEL", "CASEGEN_SIMULATOR_MODEL"):
        monkeypatch.delenv(name, raising=False)


def generate(engine: Any = None, **options: Any) -> dict[str, Any]:
    options.setdefault("out", "out")
    # These tests are about drafting, repair, dedupe and resume; the verify step (which
    # drops drafts the reference agent fails) has its own tests in test_generate_verify.py.
    options.setdefault("verify", False)
    request = build_request(["card_replace"], project=BANK, **options)
    return asyncio.run(run_generation(request, engine=engine))


class CopyingEngine(OfflineEngine):
    """Offline drafting that writes the first happy path's words (its name and context) for
    every happy path; each keeps its own assertions (two that assert the same are one test,
    `test_user_goals`)."""

    def __init__(self) -> None:
        self.first: dict[str, Any] | None = None
        self.happy: list[str] = []

    async def draft(self, ctx: DraftContext) -> DraftResult:
        result = await super().draft(ctx)
        if ctx.behavior.type != "happy_path":
            return result
        self.happy.append(ctx.behavior.id)
        if self.first is None:
            self.first = result.data
        assert result.data is not None and self.first is not None
        data = copy.deepcopy(result.data)
        for key in ("name", "simulation_context"):
            data["scenario"][key] = self.first["scenario"][key]
        return DraftResult(data=data)


def test_distinct_branches_drafted_alike_are_all_kept() -> None:
    """Dedupe goes by path identity: happy paths of different branches are never dropped as
    duplicates of each other, however alike the drafts read."""
    engine = CopyingEngine()
    report = generate(engine, concurrency=1)
    happy = [c for c in report["cases"] if c["type"] == "happy_path"]
    assert len(engine.happy) >= 2 and len(happy) == len(engine.happy)
    # A draft dropped here only asserts exactly what another draft asserts (once its
    # unjustified assertions went), never by likeness, and never a happy path.
    assert all(d["duplicate_of"].startswith("draft:") for d in report["duplicates"])
    assert not any(":happy" in d["behavior"] for d in report["duplicates"])
    assert not report["failed"]
    written = {Path(c["path"]).name for c in report["cases"]}
    assert written == {p.name for p in Path("out").glob("*.yml")}


def test_a_draft_that_repeats_a_committed_case_is_dropped_and_still_counts_as_covered() -> None:
    from agentflows.planning import plan_source
    from evalcore.definitions import load_project

    plan = plan_source(load_project(BANK), "mantle", "card_replace", None)
    twin = next(b for b in plan.behaviors if b.facts["kind"] == "refusal")
    first = generate(llm_engine(words)[0], out="first")
    twin_file = next(c["path"] for c in first["cases"] if c["behavior"] == twin.id)
    Path("out").mkdir()
    Path("out/an_older_copy.yml").write_bytes(Path(twin_file).read_bytes())
    report = generate(llm_engine(words)[0])
    dropped = {d["behavior"]: d for d in report["duplicates"]}
    assert twin.id in dropped
    assert all(d["duplicate_of"].startswith("draft:") for k, d in dropped.items() if k != twin.id)
    assert dropped[twin.id]["similarity"] >= 0.85
    assert dropped[twin.id]["duplicate_of"].endswith("an_older_copy.yml")
    assert twin.id not in {c["behavior"] for c in report["cases"]}
    assert f"deny:{twin.facts['tool']}" not in report["coverage"]["card_replace"]["uncovered"]
    assert not report["failed"]


def test_a_model_that_keeps_failing_fails_one_case_and_the_others_are_written() -> None:
    doomed: list[str] = []

    def answer(behavior: dict[str, Any]) -> Any:
        if behavior["type"] == "edge_case" and (not doomed or doomed[0] == behavior["id"]):
            doomed.append(behavior["id"])
            return TimeoutError("model timed out")
        return words(behavior)

    engine, chat = llm_engine(answer)
    report = generate(engine)
    assert [f["behavior"] for f in report["failed"]] == [doomed[0]]
    assert chat.calls.count(doomed[0]) == 2  # the first try and one retry (max_retries=1)
    assert "did not answer after 2 attempts" in report["failed"][0]["error"]
    # Requests that never got an answer cost nothing: no answered call, no tokens.
    assert report["failed"][0]["usage"] == {
        "calls": 0,
        "input_tokens": 0,
        "output_tokens": 0,
        "cost_usd": 0.0,
        "cache_hits": 0,
    }
    # a behaviour the plan keeps only to report it (no sound case exists) is no case either
    unwritten = [d for d in report["dropped"] if d["reason"].startswith("not written:")]
    assert len(report["cases"]) == (
        report["planned"] - 1 - report["duplicates_dropped"] - len(unwritten)
    )
    assert all(Path(c["path"]).is_file() for c in report["cases"])


class BrokenEscalation(LLMEngine):
    """Drafts an escalation whose merged case names a tool that does not exist."""

    async def draft(self, ctx: DraftContext) -> DraftResult:
        result = await super().draft(ctx)
        if ctx.behavior.type == "escalation" and result.data is not None:
            result.data["scenario"]["goals"]["assertions"].append(
                {"tool_executed": {"tool_name": "teleport_card", "source": "local"}}
            )
        return result


def test_invalid_output_is_repaired_by_a_model_round_and_the_plan_kept() -> None:
    _, chat = llm_engine(words)
    chat.repair = words  # a Mantle repair asks for the words again; the plan keeps the ids
    config = ModelConfig(
        model="fake", api_key=SecretStr("k"), max_retries=1, retry_base_delay_s=0.0
    )
    engine = BrokenEscalation(config, use_cache=False, chat_model=chat)
    report = generate(engine)
    escalation = next(c for c in report["cases"] if c["type"] == "escalation")
    assert [r["by"] for r in escalation["repairs"] if r["by"] != "review"] == ["model"]
    assert escalation["attempts"] == 2
    assert not report["failed"]
    written = Path(escalation["path"]).read_text("utf-8")
    assert "teleport_card" not in written and "skill_activated" in written
    assert "bot_did_not_utter" not in written  # the model's own assertions were not kept


class GatedEngine(OfflineEngine):
    """Offline drafting that counts calls and can hold one behaviour until cancelled."""

    def __init__(self, hold: str | None = None) -> None:
        self.hold = hold
        self.drafted: list[str] = []
        self.finished: list[str] = []

    async def draft(self, ctx: DraftContext) -> DraftResult:
        self.drafted.append(ctx.behavior.id)
        if ctx.behavior.id == self.hold:
            await asyncio.Event().wait()  # never returns: the run is interrupted here
        result = await super().draft(ctx)
        self.finished.append(ctx.behavior.id)
        return result


def test_resume_finishes_an_interrupted_run_without_redrafting() -> None:
    request = build_request(["card_replace"], project=BANK, out="out", concurrency=64, verify=False)
    planned_ids: list[str] = []

    async def interrupted() -> str:
        probe = GatedEngine()
        run_ids: list[str] = []
        first_pass = asyncio.create_task(
            run_generation(request, engine=probe, on_start=run_ids.append)
        )
        await first_pass
        planned_ids.extend(probe.drafted)
        hold = planned_ids[-1]
        gated = GatedEngine(hold=hold)
        task = asyncio.create_task(run_generation(request, engine=gated, on_start=run_ids.append))
        while len(gated.finished) < len(planned_ids) - 1:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)  # let the finished drafts' writes reach the checkpoint
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return run_ids[-1]

    run_id = asyncio.run(interrupted())
    finisher = GatedEngine()
    report = asyncio.run(run_generation(None, resume=run_id, engine=finisher))
    assert finisher.drafted == [planned_ids[-1]]  # only the unfinished draft
    assert report["run_id"] == run_id
    assert len(report["cases"]) == len(planned_ids) - report["duplicates_dropped"]


def test_offline_drafts_are_one_task_per_source_and_resume_redrafts_only_the_open_one() -> None:
    """With `--model offline` each source's cases are drafted by one task, in plan order:
    an interrupted run keeps every source that finished, and `--resume` drafts only the
    cases of the source that was still open."""
    request = build_request(
        ["all"], project=BANK, model="offline", out="out", concurrency=64, verify=False
    )
    planned: list[dict[str, Any]] = []

    async def interrupted() -> str:
        probe = GatedEngine()
        await run_generation(request, engine=probe)
        first = json.loads(json.dumps(probe.drafted))
        planned.extend({"id": b, "source": b.split(":")[0]} for b in first)
        held = planned[-1]
        gated = GatedEngine(hold=held["id"])
        run_ids: list[str] = []
        task = asyncio.create_task(run_generation(request, engine=gated, on_start=run_ids.append))
        others = [b for b in planned if b["source"] != held["source"]]
        while not set(b["id"] for b in others) <= set(gated.finished):
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)  # let the finished sources' writes reach the checkpoint
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return run_ids[-1]

    run_id = asyncio.run(interrupted())
    finisher = GatedEngine()
    report = asyncio.run(run_generation(None, resume=run_id, engine=finisher))
    open_source = [b["id"] for b in planned if b["source"] == planned[-1]["source"]]
    assert finisher.drafted == open_source  # that source again, in plan order; no other
    assert len({b["source"] for b in planned}) > 1
    assert len(report["cases"]) + len(report["duplicates"]) == len(planned)


def test_unknown_target_is_a_usage_error_listing_real_ones(run_cli) -> None:
    code, _, err = run_cli("generate", "card_replac", "--project", BANK)
    assert code == 2
    assert "did you mean 'card_replace'" in err and "check_balance" in err


def test_unknown_type_is_a_usage_error(run_cli) -> None:
    code, _, err = run_cli("generate", "card_replace", "--project", BANK, "--types", "happy")
    assert code == 2 and "happy_path" in err


def test_types_and_count_select_cases(run_cli_json) -> None:
    code, report = run_cli_json(
        "generate",
        "card_replace",
        "--project",
        BANK,
        "--types",
        "happy_path,sad_path",
        "--count",
        "3",
        "--out",
        "out",
    )
    assert code == 0
    assert len(report["cases"]) == 3
    assert {c["type"] for c in report["cases"]} <= {"happy_path", "sad_path"}
    assert report["engine"] == "offline" and report["llm"]["calls"] == 0


def test_offline_generation_of_all_is_deterministic_valid_and_lint_clean(run_cli_json) -> None:
    outputs = []
    for folder in ("a", "b"):
        code, report = run_cli_json("generate", "all", "--project", BANK, "--out", folder)
        assert code == 0 and not report["failed"]
        files = Path(folder).rglob("*.yml")
        outputs.append({str(p.relative_to(folder)): p.read_bytes() for p in files})
    assert outputs[0] == outputs[1] and len(outputs[0]) == len(report["cases"])
    # one folder per target, as without --out, and one manifest for them all
    assert all(Path(c["path"]).parent.name == c["source"] for c in report["cases"])
    assert [p.parent.name for p in Path("b").rglob("manifest.json")] == ["b"]
    code, validation = run_cli_json("validate", "a", "--project", BANK)
    assert code == 0
    assert all(not f["errors"] and not f["warnings"] for f in validation["files"])


def test_rerun_is_unchanged_and_a_human_edit_is_never_overwritten(run_cli_json) -> None:
    args = ("generate", "card_replace", "--project", BANK, "--count", "2", "--out", "out")
    code, first = run_cli_json(*args)
    assert code == 0 and {c["status"] for c in first["cases"]} == {"created"}
    code, again = run_cli_json(*args)
    assert code == 0 and {c["status"] for c in again["cases"]} == {"unchanged"}
    edited = Path(first["cases"][0]["path"])
    edited.write_text(edited.read_text() + "# reviewed by a person\n")
    code, third = run_cli_json(*args)
    assert code == 1 and third["conflicts"] == [str(edited)]
    assert edited.read_text().endswith("# reviewed by a person\n")
    code, forced = run_cli_json(*args, "--force")
    assert forced["cases"][0]["status"] == "overwritten"
    assert code == 0 and not edited.read_text().endswith("# reviewed by a person\n")


def test_direction_shapes_the_offline_cases(run_cli_json) -> None:
    code, report = run_cli_json(
        "generate",
        "card_replace",
        "--project",
        BANK,
        "--count",
        "1",
        "--out",
        "out",
        "--direction",
        "an impatient customer with a cracked chip; assert card_replace completes",
    )
    assert code == 0
    text = Path(report["cases"][0]["path"]).read_text()
    assert "impatient" in text
    assert "skill_completed" in text
    assert report["direction"].startswith("an impatient customer")


def test_json_output_is_exactly_one_document(run_cli) -> None:
    code, out, _ = run_cli(
        "generate", "card_replace", "--project", BANK, "--count", "1", "--out", "out", "--json"
    )
    assert code == 0
    payload = json.loads(out)
    assert set(payload) >= {
        "run_id",
        "engine",
        "cases",
        "failed",
        "duplicates_dropped",
        "coverage",
        "llm",
    }
    case = payload["cases"][0]
    assert set(case) >= {
        "path",
        "dialect",
        "source",
        "type",
        "behavior",
        "covers",
        "valid",
        "repairs",
        "attempts",
        "usage",
    }
    assert set(payload["coverage"]["card_replace"]) == {
        "elements",
        "covered",
        "uncovered",
        "touched",
    }
    assert set(payload["llm"]) == {
        "calls",
        "input_tokens",
        "output_tokens",
        "cost_usd",
        "cache_hits",
    }


def test_the_working_folder_ignores_itself(run_cli_json) -> None:
    code, _ = run_cli_json("generate", "card_replace", "--project", BANK, "--count", "1")
    assert code == 0
    assert Path(".casegen/.gitignore").read_text() == "*\n"
    assert Path(".casegen/checkpoints.sqlite").is_file()
