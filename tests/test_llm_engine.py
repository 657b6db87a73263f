"""The LLM drafting engine end to end through the real ChatOpenAI HTTP path (stub server)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from stub_openai import (
    RecordedRequest,
    Reply,
    StubOpenAI,
    invalid_json,
    ok,
    rate_limited,
    server_error,
    slow,
    stub_fixture,
)

from agentflows.drafting import DraftContext, make_engine
from agentflows.drafting.llm import DraftingError, LLMEngine
from agentflows.drafting.llm._mantle import estimate_tokens
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import Behavior, plan_source
from evalcore.definitions import load_project
from evalcore.errors import ConfigError
from evalcore.findings import Finding
from evalcore.llm import ModelConfig

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"
CLINIC = REPO / "examples" / "clinic"
SKILLS = REPO / "examples" / "skills"

openai_stub = stub_fixture()


@pytest.fixture(scope="module")
def bank():
    return load_project(BANK)


def stolen_case() -> dict[str, Any]:
    text = (BANK / "eval" / "scenarios" / "card_replace_stolen.yml").read_text("utf-8")
    return yaml.safe_load(text)


def behavior(**overrides: Any) -> Behavior:
    values: dict[str, Any] = {
        "id": "card_replace:stolen",
        "source": "card_replace",
        "dialect": "mantle",
        "type": "edge_case",
        "case": "stolen",
        "title": "Customer reports a stolen card and orders a new one",
        "description": "The card is blocked and reported before a new card is ordered.",
        "covers": ["value:card_replace.replacement_reason=stolen", "tool:block_card"],
        "facts": {"replacement_reason": "stolen", "shipping": "express"},
    }
    return Behavior(**(values | overrides))


def engine_for(stub: StubOpenAI, tmp_path: Path, **overrides: Any) -> LLMEngine:
    values: dict[str, Any] = {
        "model": "stub-model",
        "base_url": stub.base_url,
        "api_key": "stub-key",
        "timeout_s": 1.0,
        "max_retries": 2,
        "retry_base_delay_s": 0.001,
        "cache_dir": tmp_path / "cache",
    }
    return LLMEngine(ModelConfig(**(values | overrides)), use_cache=False)


def planned_behavior(case: str = "stolen") -> Behavior:
    """A behaviour of the real card_replace plan (its facts drive the planned case)."""
    plan = plan_source(load_project(BANK), "mantle", "card_replace", None)
    chosen = next(b for b in plan.behaviors if b.case == case)
    return chosen.model_copy(
        update={"title": "Customer reports a stolen card and orders a new one"}
    )


def context(project, **overrides: Any) -> DraftContext:
    values: dict[str, Any] = {
        "project": project,
        "dialect": "mantle",
        "behavior": planned_behavior(),
        "direction": "customers who are in a hurry",
        "siblings": ("Customer replaces a damaged card",),
    }
    return DraftContext(**(values | overrides))


def words(**overrides: Any) -> dict[str, Any]:
    """What a model answers for a Mantle draft: words only."""
    values: dict[str, Any] = {
        "name": "A hurried customer's wallet was stolen",
        "simulation_context": (
            "You are Priya, in a hurry; your wallet was stolen this morning.\n"
            '1. To start, say: "My card was stolen, I need a new one."'
        ),
        "criteria": [
            "The agent tells the customer the card can no longer be used",
            "The agent does not read out the internal card id",
        ],
    }
    return values | overrides


def planned(project, ctx: DraftContext | None = None) -> dict[str, Any]:
    return draft_mantle(ctx or context(project))


# --- drafting -----------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["json_schema", "function_calling"])
async def test_draft_merges_the_models_words_into_the_planned_case(
    openai_stub: StubOpenAI, tmp_path: Path, bank, method: str
) -> None:
    openai_stub.script(ok(words(), input_tokens=1200, output_tokens=300))
    engine = engine_for(openai_stub, tmp_path, structured_output=method)
    result = await engine.draft(context(bank))
    assert result.usage.calls == 1 and result.usage.input_tokens == 1200
    plan = planned(bank)["scenario"]
    scenario = result.data["scenario"]
    # the words are the model's; type, setup and every assertion are the plan's
    assert scenario["name"] == "A hurried customer's wallet was stolen"
    assert scenario["simulation_context"].startswith("You are Priya, in a hurry")
    assert scenario["goals"]["criteria"] == words()["criteria"]
    assert scenario["goals"]["assertions"] == plan["goals"]["assertions"]
    assert (scenario["type"], scenario["setup"]) == (plan["type"], plan["setup"])

    request = openai_stub.requests[0]
    assert request.mode == ("tools" if method == "function_calling" else "json_schema")
    assert request.schema_name == "MantleWords"
    # the words, and corrections to the plan as small justified edits: never the case whole
    assert set(request.schema["properties"]) == {"name", "simulation_context", "criteria", "edits"}
    assert [m["role"] for m in request.messages] == ["system", "user"]
    prompt = request.text
    # the path in order, the facts, the assertions to keep, the behaviour, direction, siblings
    path = _section_text(request, "Path")
    assert path.index("which one needs replacing") < path.index("What happened to the card")
    assert plan["simulation_context"].split(".")[0] in _section_text(request, "Facts")
    # the order itself waits on the card service blocking the card: an "If ... succeeds" criterion
    assert '"tool_name":"block_card"' in _section_text(request, "Assertions")
    assert "The agent does not read out the internal card id" in _section_text(request, "Rules")
    assert "Customer reports a stolen card" in prompt
    assert "customers who are in a hurry" in prompt
    assert "Customer replaces a damaged card" in prompt
    assert "{{" not in prompt
    assert "Help the customer replace a card" not in prompt  # no whole skill.md: compact
    # (the schema carries the plan-edit model since issue 32: 2,500 before it)
    assert estimate_tokens(prompt + json.dumps(request.schema)) <= 2800


async def test_bad_words_are_repaired_and_the_planned_assertions_kept(
    openai_stub: StubOpenAI, tmp_path: Path, bank
) -> None:
    bad = words(name="  ", simulation_context="   ", criteria=["ok", 7, "x" * 400])
    openai_stub.script(ok(bad))
    result = await engine_for(openai_stub, tmp_path).draft(context(bank))
    plan = planned(bank)["scenario"]
    scenario = result.data["scenario"]
    assert scenario["goals"]["assertions"] == plan["goals"]["assertions"]
    # blank words fall back to the planned ones, unusable criteria to the planned criteria
    assert scenario["name"] == plan["name"]
    assert scenario["simulation_context"] == plan["simulation_context"]
    assert scenario["goals"]["criteria"] == plan["goals"]["criteria"]


async def test_draft_survives_transient_faults(
    openai_stub: StubOpenAI, tmp_path: Path, bank
) -> None:
    openai_stub.script(
        rate_limited(retry_after=0), server_error(502), slow(3, words()), ok(words())
    )
    engine = engine_for(openai_stub, tmp_path, timeout_s=0.3, max_retries=3)
    result = await engine.draft(context(bank))
    assert result.data["scenario"]["name"] == words()["name"]
    assert len(openai_stub.requests) == 4


async def test_draft_retries_invalid_json(openai_stub: StubOpenAI, tmp_path: Path, bank) -> None:
    openai_stub.script(invalid_json(), ok({"name": "no context"}), ok(words()))
    result = await engine_for(openai_stub, tmp_path).draft(context(bank))
    assert result.data["scenario"]["name"] == words()["name"]
    assert result.usage.calls == 3


async def test_persistent_invalid_output_is_reported(
    openai_stub: StubOpenAI, tmp_path: Path, bank
) -> None:
    openai_stub.handler = lambda request: invalid_json()
    with pytest.raises(DraftingError) as caught:
        await engine_for(openai_stub, tmp_path, max_retries=2).draft(context(bank))
    message = str(caught.value)
    assert message.startswith("case card_replace:stolen:")
    assert "invalid MantleWords output 3 times" in message and "not valid JSON" in message
    assert caught.value.usage.calls == 3


async def test_timeouts_beyond_the_budget_are_reported(
    openai_stub: StubOpenAI, tmp_path: Path, bank
) -> None:
    openai_stub.handler = lambda request: slow(2, words())
    engine = engine_for(openai_stub, tmp_path, timeout_s=0.2, max_retries=1)
    with pytest.raises(DraftingError, match=r"did not answer after 2 attempts.*within 0.2s"):
        await engine.draft(context(bank))


async def test_drafts_are_cached(openai_stub: StubOpenAI, tmp_path: Path, bank) -> None:
    config = engine_for(openai_stub, tmp_path).config
    openai_stub.script(ok(words()))
    first = await LLMEngine(config).draft(context(bank))
    second = await LLMEngine(config).draft(context(bank))
    assert first.data == second.data
    assert second.usage.cache_hits == 1 and second.usage.calls == 0
    assert len(openai_stub.requests) == 1


# --- repair -------------------------------------------------------------------------------


async def test_repair_asks_for_the_words_with_the_findings(
    openai_stub: StubOpenAI, tmp_path: Path, bank
) -> None:
    """On the plan only the words can be wrong: the repair asks for MantleWords (a small
    schema) with the current words and the findings, and the plan's ids stay."""
    broken = stolen_case()
    broken["scenario"]["name"] = "x" * 300
    assertion = broken["scenario"]["goals"]["assertions"][4]["tool_executed"]
    assertion["tool_name"] = "block_the_card"
    finding = Finding(
        code="name-too-long",
        path="/scenario/name",
        message="the name is 300 characters long",
        value="x" * 20,
    )
    warning = Finding(code="schema", severity="warning", message="a warning to leave alone")
    openai_stub.script(ok(words(name="A stolen card, replaced in a hurry")))
    result = await engine_for(openai_stub, tmp_path).repair(
        context(bank), broken, [finding, warning]
    )
    plan = planned(bank)["scenario"]
    scenario = result.data["scenario"]
    assert scenario["name"] == "A stolen card, replaced in a hurry"
    assert scenario["goals"]["assertions"] == plan["goals"]["assertions"]  # block_card again
    assert scenario["type"] == plan["type"]

    request = openai_stub.requests[0]
    assert request.schema_name == "MantleWords"
    assert "You fix the words" in request.text
    assert _json_section(request, "Case")["name"] == "x" * 300
    findings = _json_section(request, "Findings")
    assert findings == [
        {
            "code": "name-too-long",
            "path": "/scenario/name",
            "message": "the name is 300 characters long",
            "value": "x" * 20,
        }
    ]


async def test_a_repair_is_checked_against_the_plan_not_the_previous_draft(
    openai_stub: StubOpenAI, tmp_path: Path, bank
) -> None:
    """The previous draft's own words are not the plan: a repaired context that drops a
    line the model added before (and keeps every value the plan fixes) is the one used."""
    plan = planned(bank)["scenario"]
    context_planned = plan["simulation_context"]
    previous = json.loads(json.dumps(planned(bank)))
    previous["scenario"]["simulation_context"] = context_planned.replace(
        "- postcode:", "- bus you lost it on: route 38\n- postcode:"
    )
    repaired = context_planned.replace("slightly anxious", "calm but in a hurry")
    openai_stub.script(ok(words(simulation_context=repaired)))
    finding = Finding(code="x", path="/scenario/simulation_context", message="a slip")
    result = await engine_for(openai_stub, tmp_path).repair(context(bank), previous, [finding])
    assert result.data["scenario"]["simulation_context"] == repaired.strip() + "\n"


def _section_text(request: RecordedRequest, tag: str) -> str:
    return request.text.split(f"<{tag}>", 1)[1].split(f"</{tag}>", 1)[0]


def _json_section(request: RecordedRequest, tag: str) -> Any:
    text = request.text.split(f"<{tag}>", 1)[1].split(f"</{tag}>", 1)[0]
    return json.loads(text[text.index("\n\n") + 2 if text.lstrip()[0] not in "[{" else 0 :])


# --- plan refinement ----------------------------------------------------------------------


async def test_refine_plan_keeps_ids_and_covers(
    openai_stub: StubOpenAI, tmp_path: Path, bank
) -> None:
    planned = [
        behavior(),
        behavior(
            id="card_replace:damaged",
            case="damaged",
            type="happy_path",
            title="Damaged card",
            covers=["value:card_replace.replacement_reason=damaged"],
            priority=10,
        ),
    ]
    openai_stub.script(
        ok(
            {
                "behaviors": [
                    {
                        "id": "card_replace:stolen",
                        "type": "happy_path",
                        "case": "renamed",
                        "title": "A hurried customer's wallet was stolen",
                        "description": "Fast and calm.",
                        "covers": ["tool:invented"],
                        "facts": {},
                    },
                    {
                        "id": None,
                        "type": "edge_case",
                        "case": "In a Hurry!",
                        "title": "Customer in a rush gives everything at once",
                        "description": "All at once.",
                        "covers": ["tool:block_card"],
                        "facts": {"shipping": "express"},
                    },
                    {
                        "id": None,
                        "type": "edge_case",
                        "case": "made_up",
                        "title": "Covers an element that does not exist",
                        "description": "x",
                        "covers": ["tool:teleport_card"],
                    },
                    {
                        "id": None,
                        "type": "weird_type",
                        "case": "weird",
                        "title": "x",
                        "description": "x",
                    },
                ]
            }
        )
    )
    refined, usage = await engine_for(openai_stub, tmp_path, refine_plan=True).refine_plan(
        bank, "mantle", "card_replace", planned, "customers in a hurry"
    )
    assert usage.calls == 1
    assert [b.id for b in refined] == [
        "card_replace:stolen",
        "card_replace:damaged",
        "card_replace:in_a_hurry",
    ]
    stolen, damaged, added = refined
    assert stolen.title == "A hurried customer's wallet was stolen"
    assert (stolen.type, stolen.case, stolen.covers, stolen.facts) == (
        "edge_case",
        "stolen",
        behavior().covers,
        behavior().facts,
    )
    assert damaged == planned[1]  # left out by the model: kept as planned
    assert added.source == "card_replace" and added.dialect == "mantle"
    assert added.covers == ["tool:block_card"] and added.facts == {"shipping": "express"}

    request = openai_stub.requests[0]
    assert request.schema_name == "RefinedPlan"
    assert "customers in a hurry" in request.text and "card_replace:damaged" in request.text


async def test_refine_plan_keeps_the_plan_when_the_model_cannot_answer(
    openai_stub: StubOpenAI, tmp_path: Path, bank
) -> None:
    openai_stub.handler = lambda request: invalid_json()
    planned = [behavior()]
    refined, usage = await engine_for(
        openai_stub, tmp_path, max_retries=1, refine_plan=True
    ).refine_plan(bank, "mantle", "card_replace", planned, None)
    assert refined == planned and usage.calls == 2


async def test_refine_plan_stops_the_run_on_a_rejected_request(
    openai_stub: StubOpenAI, tmp_path: Path, bank
) -> None:
    openai_stub.handler = lambda request: Reply(status=401, error="bad key")
    with pytest.raises(ConfigError, match="HTTP 401"):
        await engine_for(openai_stub, tmp_path, refine_plan=True).refine_plan(
            bank, "mantle", "card_replace", [behavior()], None
        )
    assert len(openai_stub.requests) == 1


async def test_refine_plan_without_behaviours_calls_nothing(
    openai_stub: StubOpenAI, tmp_path: Path, bank
) -> None:
    refined, usage = await engine_for(openai_stub, tmp_path, refine_plan=True).refine_plan(
        bank, "mantle", "card_replace", [], None
    )
    assert refined == [] and usage.calls == 0 and not openai_stub.requests


# --- other dialects -----------------------------------------------------------------------


async def test_anychat_draft_round_trips_a_null_persona(
    openai_stub: StubOpenAI, tmp_path: Path
) -> None:
    project = load_project(CLINIC)
    case = json.loads((CLINIC / "cases" / "book-cleaning-new-patient.json").read_text("utf-8"))
    case["scenario"]["persona"] = None
    case["notes"] = None  # structured output's "absent"
    openai_stub.script(ok(case))
    ctx = DraftContext(
        project,
        "anychat",
        behavior(
            id="book:new_patient",
            source="book",
            dialect="anychat",
            case="new_patient",
            covers=["tool:book_appointment"],
            facts={},
        ),
    )
    result = await engine_for(openai_stub, tmp_path).draft(ctx)
    expected = {k: v for k, v in case.items() if k != "notes"}
    assert result.data == expected and result.data["scenario"]["persona"] is None
    assert openai_stub.requests[0].schema_name == "AnychatCase"
    assert "check_availability" in openai_stub.requests[0].text


async def test_base44_draft(openai_stub: StubOpenAI, tmp_path: Path) -> None:
    project = load_project(SKILLS)
    evaluation = json.loads((SKILLS / "evals" / "todo-entities" / "eval.json").read_text("utf-8"))
    openai_stub.script(ok(evaluation))
    ctx = DraftContext(
        project,
        "base44",
        behavior(
            id="base44-cli:entities",
            source="base44-cli",
            dialect="base44",
            case="entities",
            covers=[],
            facts={},
        ),
    )
    result = await engine_for(openai_stub, tmp_path).draft(ctx)
    assert result.data == evaluation
    assert openai_stub.requests[0].schema_name == "Base44Eval"


# --- make_engine --------------------------------------------------------------------------


def test_make_engine_picks_the_llm_engine_when_a_model_is_configured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("CASEGEN_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "casegen.toml").write_text(
        'model = "local-model"\nbase_url = "http://127.0.0.1:9/v1"\n', encoding="utf-8"
    )
    engine = make_engine(None, start=str(tmp_path))
    assert isinstance(engine, LLMEngine)
    assert (engine.name, engine.model, engine.can_repair) == (
        "llm:local-model",
        "local-model",
        True,
    )
    assert make_engine("offline", start=str(tmp_path)).name == "offline"
    assert make_engine(None, no_cache=True, start=str(tmp_path)).cache is None
