"""Prompt economy: every model call kind fits an 8k local model's context, uncut.

The budget of a kind is the context less its answer limit, the schema as the `tools` method
states it and the fitting's margin, counted as the fitting counts (`evalcore.llm._fit`): a
prompt over it would lose part of its definition to the cut. Measured on the bank example's
largest skills (`python -m benchmarks llm-prompts` prints the same figures).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from stub_openai import StubOpenAI, ok, stub_fixture

from agentflows.drafting.llm import LLMEngine
from agentflows.planning import plan_source
from benchmarks.llm_prompts import DIRECTION, KindSizes, prompt_kinds
from evalcore.definitions import Project, load_project
from evalcore.llm import ModelConfig

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"
#: Kinds that must fit: every one, since `revise` answers with edits to the case instead of
#: the case under its whole schema (docs/benchmarks.md, "Prompt size per call kind").
FITTING = ("plan", "plan_directed", "draft", "repair", "critique", "revise")

openai_stub = stub_fixture()


@pytest.fixture(scope="module")
def bank() -> Project:
    return load_project(BANK)


@pytest.fixture(scope="module")
def kinds(bank: Project) -> dict[str, KindSizes]:
    return prompt_kinds(bank)


@pytest.mark.parametrize("kind", FITTING)
def test_each_call_kind_fits_an_8k_context_uncut(kinds: dict[str, KindSizes], kind: str) -> None:
    sizes = kinds[kind]
    config = ModelConfig(model="m", base_url="http://127.0.0.1:1/v1", api_key="k")
    assert sizes.sizes, f"no {kind} prompt rendered"
    assert sizes.worst_tokens <= sizes.budget_tokens(config), sizes.summary(config)


def test_the_plan_prompt_carries_wording_not_covers(bank: Project) -> None:
    engine = LLMEngine(
        ModelConfig(model="m", base_url="http://127.0.0.1:1/v1", api_key="k"),
        use_cache=False,
        chat_model=object(),
    )
    behaviors = plan_source(bank, "mantle", "card_replace", None).behaviors
    plain = "\n".join(
        text
        for _, text in engine.plan_prompt(bank, "mantle", "card_replace", behaviors, None).messages
    )
    directed = "\n".join(
        text
        for _, text in engine.plan_prompt(
            bank, "mantle", "card_replace", behaviors, DIRECTION
        ).messages
    )
    for behavior in behaviors:
        assert behavior.id in plain and behavior.description in plain
    # the covers are not re-typed per behaviour; with no direction nothing is added, so
    # neither the ids nor the elements a new behaviour would need are sent
    assert "step:card_replace.pick_card.ask_reason" not in plain
    assert '"enum_values"' not in plain
    # a direction may add behaviours: the elements they may cover (once each) and the ids
    assert directed.count("step:card_replace.pick_card.ask_reason") == 1
    assert '"enum_values"' in directed


async def test_plan_refinement_takes_edits_without_the_plan_retyped(
    openai_stub: StubOpenAI, tmp_path: Path, bank: Project
) -> None:
    planned = plan_source(bank, "mantle", "card_replace", None).behaviors
    lost = planned[0]
    # the model answers one edit: an id with new words, nothing of the plan re-typed
    openai_stub.script(ok({"behaviors": [{"id": lost.id, "title": "Lost card, new one by post"}]}))
    config = ModelConfig(
        model="stub-model",
        base_url=openai_stub.base_url,
        api_key="stub-key",
        timeout_s=1.0,
        max_retries=0,
        retry_base_delay_s=0.001,
        cache_dir=tmp_path / "cache",
        refine_plan=True,
    )
    engine = LLMEngine(config, use_cache=False)
    refined, usage = await engine.refine_plan(bank, "mantle", "card_replace", planned, None)
    assert usage.calls == 1
    assert refined[0] == lost.model_copy(update={"title": "Lost card, new one by post"})
    assert refined[1:] == planned[1:]  # left out: kept as planned
    sent = openai_stub.requests[0].text
    assert len(sent) < 16_000 and "tool:place_replacement_order" not in sent
    # what the benchmark measures is what went over the wire (the schema may be appended)
    for _, text in engine.plan_prompt(bank, "mantle", "card_replace", planned, None).messages:
        assert text in sent
