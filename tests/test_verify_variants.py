"""Allowed variants in verification: a case every correct agent passes passes them all.

Found by reviewers of suites written for projects other people wrote: a lookup the prose
runs only "if username is missing" asserted in a happy path (the field has an
`initial_value`), a rating the prose only permits ("you may ask") asserted as written, the
order of two fields one `set_fields` step writes asserted in a sequencing, an exact date
string asserted as a tool argument. Each is a freedom Mantle leaves to the model; the
reference agent takes it one way, its variants the other, and verification loosens what a
variant fails without turning the case into another one.
"""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from variant_fixtures import write_desk

from agentflows.generate._verify_mantle import verify_mantle
from agentflows.generate._verify_report import row_fields
from agentflows.generate._verify_types import VerifyEnv
from agentflows.pr._verification import verification_lines
from evalcore.agents.reference import variants
from evalcore.definitions import load_project
from evalcore.dialects import get_dialect


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_desk(tmp_path_factory.mktemp("desk"))


def _env(root: Path) -> VerifyEnv:
    return VerifyEnv(
        project=load_project(root),
        dialect=get_dialect("mantle"),
        path=root / "case.yml",
        project_label="desk",
    )


def _case(want: str, facts: dict[str, str], assertions: list[Any]) -> dict[str, Any]:
    known = "".join(f"    - {label}: {value}\n" for label, value in facts.items())
    context = (
        "You are Dana Ortiz, a teacher who calls from home.\n"
        f"You want {want}.\n"
        + ("What you know (share each only when the agent asks):\n" + known if facts else "")
        + "When the agent asks whether there is anything else, say no.\n"
        "Stop once the agent has told you the outcome and asks nothing more.\n"
    ).replace("    - ", "- ")
    return {
        "scenario": {
            "name": f"Dana: {want}",
            "type": "happy_path",
            "simulation_context": context,
            "goals": {"criteria": ["The agent is polite"], "assertions": assertions},
        }
    }


def _verify(root: Path, data: dict[str, Any]) -> Any:
    return asyncio.run(verify_mantle(copy.deepcopy(data), _env(root)))


def _variant_fixes(verdict: Any) -> list[dict[str, Any]]:
    return [f for f in verdict.fixes if f["code"].startswith("variant:")]


def test_variants_exist_only_where_a_skill_has_the_freedom(desk: Path) -> None:
    found = {v.id for v in variants(load_project(desk))}
    assert "skip_optional:check_bill.load_profile" in found  # username has an initial_value
    assert "skip_optional:goodbye.feedback_rating" in found  # "you may ask"
    assert "reformat_argument:book_slot" in found  # visit_date states no format
    assert "reorder_writes:leave" in found
    # an instructed tool call and an unconditional ask are no freedom
    assert not any(v.startswith("skip_optional:check_bill.get_bill") for v in found)
    assert not any(v.startswith("skip_optional:book_visit") for v in found)


BILL = [
    {"skill_activated": {"skill_id": "check_bill"}},
    {"tool_executed": {"tool_name": "get_bill", "source": "local", "is_error": False}},
]
LOOKUP = {"tool_executed": {"tool_name": "load_profile", "source": "local", "is_error": False}}


def test_a_conditional_lookup_asserted_in_a_happy_path_is_dropped(desk: Path) -> None:
    """The reference agent itself skips the lookup the `initial_value` answers (as Rasa
    seeds project memory), so the case is repaired before any variant plays."""
    verdict = _verify(desk, _case("to check your bill", {}, [*BILL, LOOKUP]))
    assert verdict.outcome == "repaired", verdict.reason
    assert verdict.data["scenario"]["goals"]["assertions"] == BILL
    assert not _variant_fixes(verdict)
    assert verdict.variants_passed == verdict.variants_played


def test_a_sound_case_passes_every_variant_unchanged(desk: Path) -> None:
    data = _case("to check your bill", {}, BILL)
    verdict = _verify(desk, data)
    assert verdict.outcome == "yes"
    assert verdict.data == data
    assert verdict.variants_played and verdict.variants_passed == verdict.variants_played


def test_an_optional_question_asserted_as_written_is_dropped(desk: Path) -> None:
    rating = {"memory_was_set": [{"name": "goodbye.feedback_rating", "value": "thumbs_up"}]}
    data = _case(
        "to say goodbye, that is all",
        {"feedback rating": "thumbs up"},
        [{"skill_activated": {"skill_id": "goodbye"}}, rating],
    )
    verdict = _verify(desk, data)
    fixes = _variant_fixes(verdict)
    assert [f["before"] for f in fixes] == [rating]
    assert "skip_optional:goodbye.feedback_rating" in fixes[0]["reason"]
    assert rating not in verdict.data["scenario"]["goals"]["assertions"]


def test_a_case_that_would_lose_its_point_is_kept_for_review_not_flipped(desk: Path) -> None:
    rating = {"memory_was_set": [{"name": "goodbye.feedback_rating", "value": "thumbs_up"}]}
    data = _case("to say goodbye, that is all", {"feedback rating": "thumbs up"}, [rating])
    verdict = _verify(desk, data)
    assert verdict.outcome == "needs-review"
    assert verdict.data == data  # as drafted: a person decides
    assert "over-specified" in (verdict.reason or "")
    assert "skip_optional:goodbye.feedback_rating" in (verdict.reason or "")
    assert len(verdict.variants_passed) < len(verdict.variants_played)


def test_a_date_in_one_format_is_loosened_to_the_call(desk: Path) -> None:
    call = {
        "tool_executed": {
            "tool_name": "book_slot",
            "source": "local",
            "arguments": {"visit_date": "8 May 2026"},
            "is_error": False,
        }
    }
    data = _case(
        "to book a technician visit",
        {"visit date": "8 May 2026"},
        [{"skill_activated": {"skill_id": "book_visit"}}, call],
    )
    verdict = _verify(desk, data)
    fixes = _variant_fixes(verdict)
    assert [f["code"] for f in fixes] == ["variant:tool_executed"]
    assert "reformat_argument:book_slot" in fixes[0]["reason"]
    loosened = verdict.data["scenario"]["goals"]["assertions"][1]["tool_executed"]
    assert loosened["tool_name"] == "book_slot" and "arguments" not in loosened


def test_the_order_of_fields_one_step_sets_is_loosened(desk: Path) -> None:
    order = {
        "sequencing": [
            {"skill_activated": {"skill_id": "leave"}},
            {"memory_was_set": "leave.country"},
            {"memory_was_set": "leave.confirmed"},
            {"tool_executed": {"tool_name": "get_guidance", "source": "local"}},
        ]
    }
    data = _case(
        "help with parental leave",
        {"which country you work in": "Germany"},
        [{"skill_activated": {"skill_id": "leave"}}, order],
    )
    verdict = _verify(desk, data)
    fixes = _variant_fixes(verdict)
    assert [f["code"] for f in fixes] == ["variant:sequencing"]
    assert "reorder_writes:leave" in fixes[0]["reason"]
    steps = verdict.data["scenario"]["goals"]["assertions"][1]["sequencing"]
    assert len(steps) == 3 and order["sequencing"][0] in steps


def test_the_report_shows_variants_passed_of_played(desk: Path) -> None:
    verdict = _verify(desk, _case("to check your bill", {}, [*BILL, LOOKUP]))
    row = {"verification": verdict.to_json()}
    fields = row_fields(row, True)
    assert fields["variants_played"] == len(verdict.variants_played) > 0
    assert fields["variants_passed"] == fields["variants_played"]
    report = {
        "verification": {
            "enabled": True,
            "yes": 0,
            "repaired": 1,
            "weak": 0,
            "dropped": 0,
            "skipped": 0,
            "against": ["mantle:desk"],
            "mutants_played": fields["mutants_played"],
            "mutants_killed": fields["mutants_killed"],
            "variants_played": fields["variants_played"],
            "variants_passed": fields["variants_passed"],
        },
        "cases": [{"path": "c.yml", **fields}],
    }
    table = "\n".join(verification_lines(report, ["c.yml"]))
    n = fields["variants_played"]
    assert f"| {n}/{n} |" in table
    assert f"allowed variants passed {n}/{n}" in table


REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"
CASES = REPO / "generated_cases" / "mantle"


def _bank(relative: str) -> dict[str, Any]:
    return yaml.safe_load((CASES / relative).read_text("utf-8"))


def test_a_reply_the_model_words_itself_becomes_a_criterion() -> None:
    data = _bank("card_replace/card_replace_unrelated_request_out_of_scope.yml")
    data["scenario"]["goals"]["assertions"].append(
        {"bot_uttered": {"utter_name": "utter_cannot_help"}}
    )
    verdict = asyncio.run(verify_mantle(data, _env(BANK)))
    fixes = _variant_fixes(verdict)
    assert [f["code"] for f in fixes] == ["variant:bot_uttered"]
    assert "paraphrase:utter_cannot_help" in fixes[0]["reason"]
    goals = verdict.data["scenario"]["goals"]
    assert {"bot_uttered": {"utter_name": "utter_cannot_help"}} not in goals["assertions"]
    assert goals["criteria"][-1] == fixes[0]["criterion"]
    assert "not something I can help with" in fixes[0]["criterion"]


def test_a_field_the_model_may_record_late_is_not_ordered_before_the_next_answer() -> None:
    data = _bank("dispute_charge/dispute_charge_duplicate_happy_path.yml")
    steps = next(
        a["sequencing"] for a in data["scenario"]["goals"]["assertions"] if "sequencing" in a
    )
    at = steps.index({"memory_was_set": "dispute_charge.transaction_id"})
    steps.insert(at + 1, {"memory_was_set": "dispute_charge.dispute_reason"})
    verdict = asyncio.run(verify_mantle(data, _env(BANK)))
    fixes = _variant_fixes(verdict)
    assert [f["code"] for f in fixes] == ["variant:sequencing"]
    assert "set_late:dispute_charge.transaction_id" in fixes[0]["reason"]
    assert verdict.outcome == "repaired"
