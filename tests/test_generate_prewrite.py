"""Review before writing: what `casegen review` would flag is fixed or the draft is dropped."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from agentflows.drafting import DraftContext, DraftResult
from agentflows.drafting.offline import OfflineEngine
from agentflows.generate import build_request, run_generation
from agentflows.generate._prewrite import prewrite, review_findings
from agentflows.review import review_paths
from evalcore.definitions import load_project

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"
MINI = REPO / "tests" / "fixtures" / "definitions" / "mini_mantle"


@pytest.fixture(scope="module")
def bank():
    return load_project(BANK)


def happy(**scenario: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": "Customer replaces a lost card",
        "type": "happy_path",
        "simulation_context": 'You are Priya. 1. To start, say: "I lost my card."',
        "goals": {
            "criteria": ["The agent does not read out the internal card id"],
            "assertions": [
                {"skill_activated": {"skill_id": "card_replace"}},
                {"skill_completed": {"skill_id": "card_replace"}},
            ],
        },
    }
    return {"scenario": body | scenario}


def test_a_clean_draft_is_left_alone(bank) -> None:
    outcome = prewrite(happy(), "mantle", bank)
    assert outcome.data == happy() and not outcome.fixes and not outcome.errors


def test_a_slot_that_skips_the_tested_step_is_removed(bank) -> None:
    data = happy(setup={"initial_slots": {"card_replace.replacement_reason": "lost"}})
    assert any(f.code == "slot-skips-step" for f in review_findings(data, "mantle", bank))
    outcome = prewrite(data, "mantle", bank)
    assert "setup" not in outcome.data["scenario"]  # emptied containers go too
    assert [f["code"] for f in outcome.fixes] == ["review:slot-skips-step"]
    assert outcome.fixes[0]["by"] == "review" and not outcome.errors


def test_internals_in_the_context_become_plain_words(bank) -> None:
    data = happy(simulation_context="You want utter_order_placed once @tool.block_card ran.")
    outcome = prewrite(data, "mantle", bank)
    text = outcome.data["scenario"]["simulation_context"]
    assert "utter_" not in text and "@tool" not in text and "order placed" in text
    assert not outcome.errors
    assert not [f for f in review_findings(outcome.data, "mantle", bank) if f.severity == "error"]


def test_compound_criteria_are_split_and_unjudgeable_ones_dropped(bank) -> None:
    """The offline plan's criteria are casegen's own sentences of whole clauses: split."""
    data = happy()
    data["scenario"]["goals"]["criteria"] = [
        "The agent responds appropriately",
        "The agent does not read out the card id and it never asks for the PIN",
        "The agent calls block_card",
    ]
    outcome = prewrite(data, "mantle", bank)
    assert outcome.data["scenario"]["goals"]["criteria"] == [
        "The agent does not read out the card id",
        "It never asks for the PIN",
    ]
    codes = sorted(f["code"] for f in outcome.fixes)
    assert codes == [
        "review:compound-criterion",
        "review:criterion-is-deterministic",
        "review:vague-criterion",
    ]


def test_a_models_compound_criterion_is_kept_whole_with_the_warning(bank) -> None:
    """A model's compound criterion is never cut at "and"/";" by rule (its pieces lose their
    subject or condition): it stays as written, with the warning in the case's record."""
    compound = (
        "The agent never moves the claim to the home policy and it never promises a payout date"
    )
    data = happy()
    data["scenario"]["goals"]["criteria"] = ["The agent responds appropriately", compound]
    outcome = prewrite(data, "mantle", bank, model_criteria=True)
    assert outcome.data["scenario"]["goals"]["criteria"] == [compound]
    kept = [f for f in outcome.fixes if f["code"] == "review:compound-criterion"]
    assert len(kept) == 1 and kept[0]["before"] == kept[0]["after"] == compound
    assert kept[0]["path"] == "/scenario/goals/criteria/0"  # where it stands once written
    assert "kept whole" in kept[0]["reason"] and "payout" not in kept[0]["reason"]
    assert [f.code for f in outcome.errors] == []


def test_what_needs_judgement_is_left_as_an_error(bank) -> None:
    data = happy()
    data["scenario"]["goals"]["assertions"] = [{"skill_activated": {"skill_id": "card_replace"}}]
    outcome = prewrite(data, "mantle", bank)
    assert [f.code for f in outcome.errors] == ["no-decisive-assertion"]
    assert outcome.data == data  # nothing invented


class UndecidedHappyPath(OfflineEngine):
    """Offline drafting, except that happy paths lose every assertion but the activation."""

    async def draft(self, ctx: DraftContext) -> DraftResult:
        result = await super().draft(ctx)
        if ctx.behavior.type == "happy_path" and result.data is not None:
            goals = result.data["scenario"]["goals"]
            goals["assertions"] = goals["assertions"][:1]
        return result


def test_the_flow_drops_a_draft_review_rejects_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    request = build_request(["card_replace"], project=BANK, out="out", verify=False)
    report = asyncio.run(run_generation(request, engine=UndecidedHappyPath()))
    assert not report["failed"]  # a dropped draft is reported, not a failed run
    dropped = {d["behavior"]: d for d in report["dropped"]}
    # not the behaviours planned only to be reported (no sound case exists for them)
    dropped = {b: d for b, d in dropped.items() if not d["reason"].startswith("not written:")}
    assert dropped and all(":" in b for b in dropped)
    for item in dropped.values():
        assert item["reason"].startswith("no-decisive-assertion at /scenario/goals/assertions: ")
        assert item["errors"][0]["code"] == "no-decisive-assertion"
    assert not any(c["type"] == "happy_path" for c in report["cases"])
    assert report["cases"]  # the other behaviours are written


@pytest.mark.parametrize("project", [BANK, MINI], ids=["bank", "mini_mantle"])
def test_a_fresh_offline_suite_passes_its_own_review(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    request = build_request(["all"], project=project, out="out")
    report = asyncio.run(run_generation(request))
    assert not report["failed"]
    review = asyncio.run(review_paths([tmp_path / "out"], project=project))
    errors = [(f.path, c.code, c.message) for f in review.files for c in f.errors]
    assert errors == []
