"""Drafts dedupe would drop are not drafted: with a model drafting on the plan, a behaviour
whose planned case asserts exactly what an earlier planned case asserts is reported as the
duplicate it is before any model call is spent on it (the bank's hand-off skill plans an
unclear answer that asserts what its request case asserts)."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field, SecretStr

from agentflows.drafting.llm import LLMEngine
from agentflows.drafting.offline import OfflineEngine
from agentflows.generate import _planned_twins, build_request, run_generation
from evalcore.llm import ModelConfig

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"


class CountingChat(GenericFakeChatModel):
    """Answers every draft with the plan's words and records which behaviour each draft
    request was for (plan refinement keeps the plan)."""

    drafted: list[str] = Field(default_factory=list)

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        text = "\n".join(str(m.content) for m in messages)
        if "<Behavior>" not in text:
            return _answer({"behaviors": []})
        section = text.split("<Behavior>", 1)[1].split("</Behavior>", 1)[0]
        behavior = json.loads(section[section.index("{") : section.rindex("}") + 1])
        self.drafted.append(behavior["id"])
        return _answer({"name": behavior["title"], "simulation_context": "", "criteria": []})


def _answer(value: dict[str, Any]) -> ChatResult:
    return ChatResult(generations=[ChatGeneration(message=AIMessage(content=json.dumps(value)))])


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("CASEGEN_MODEL", "CASEGEN_JUDGE_MODEL", "CASEGEN_SIMULATOR_MODEL"):
        monkeypatch.delenv(name, raising=False)


def _run(engine: Any) -> dict[str, Any]:
    request = build_request(["human_handoff"], project=BANK, out="out", verify=False)
    return asyncio.run(run_generation(request, engine=engine))


def test_a_planned_twin_is_reported_without_a_draft_request() -> None:
    offline = _run(OfflineEngine())
    twins = [d for d in offline["duplicates"] if str(d.get("reason", "")).startswith("asserts")]
    assert twins, "the bank's hand-off plan has a case asserting what another asserts"
    chat = CountingChat(messages=iter(()))
    config = ModelConfig(model="fake", api_key=SecretStr("k"), max_retries=1)
    report = _run(LLMEngine(config, use_cache=False, chat_model=chat))
    for twin in twins:
        assert twin["behavior"] not in chat.drafted  # no model call spent on it
        assert twin in report["duplicates"]  # reported exactly as the draft's dedupe does
    assert len(chat.drafted) == len(set(chat.drafted))
    assert report["duplicates_dropped"] == offline["duplicates_dropped"]
    assert [r["behavior"] for r in report["cases"]] == [r["behavior"] for r in offline["cases"]]


def test_a_plan_edit_to_the_words_keeps_a_twin_comparable() -> None:
    """An opener, intent or criterion edit changes words only: the twin is still found
    before its draft. A fact or an assertion edit may change what the case asserts: left
    to its draft and the dedupe after it."""
    from agentflows.generate._planned_twins import comparable
    from agentflows.planning import plan_source
    from evalcore.definitions import load_project

    behavior = plan_source(load_project(BANK), "mantle", "human_handoff", None).behaviors[0]
    assert comparable(behavior)
    for op, expected in (
        ("add_criterion", True),
        ("set_opener", True),
        ("set_fact", False),
        ("remove_assertion", False),
    ):
        edited = behavior.model_copy(update={"edits": [{"op": op, "target": behavior.id}]})
        assert comparable(edited) is expected, op


def test_each_planned_behaviour_is_weighed_once_however_many_look_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every behaviour looks back at each one before it for a twin: whether a planned
    behaviour can be compared is read once per run, not once per look-back."""
    weighed: list[str] = []
    real = _planned_twins.comparable
    monkeypatch.setattr(_planned_twins, "comparable", lambda b: weighed.append(b.id) or real(b))
    chat = CountingChat(messages=iter(()))
    config = ModelConfig(model="fake", api_key=SecretStr("k"), max_retries=1)
    report = _run(LLMEngine(config, use_cache=False, chat_model=chat))
    assert report["duplicates"], "the hand-off plan has a twin"
    # once as itself, once as an earlier behaviour: never again for each later one
    assert max(Counter(weighed).values()) <= 2, weighed


def test_a_behaviour_planned_again_is_weighed_again() -> None:
    """The kept answer is the plan's own, set with the plan: the same id planned again with
    an edit that may change what it asserts is read afresh, and back again."""
    from agentflows.planning import plan_source
    from evalcore.definitions import load_project

    behavior = plan_source(load_project(BANK), "mantle", "human_handoff", None).behaviors[0]
    edited = behavior.model_copy(update={"edits": [{"op": "set_fact", "target": behavior.id}]})
    ctx: Any = SimpleNamespace()
    for planned, expected in ((behavior, True), (edited, False), (behavior, True)):
        raws = [planned.model_dump(mode="json")]
        _planned_twins.keep_plan(ctx, [planned], raws)
        assert ctx.planned_order is raws
        assert ctx.planned_comparable == {behavior.id: expected}
