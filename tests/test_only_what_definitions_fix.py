"""A case asserts only what the definitions fix: where they leave a point to the model (when
an llm-settable value is written, which question clarifies, which step a block-level
completion ends on), a correct agent may do either, so the case asserts neither."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import plan_mantle
from evalcore.definitions import Project, load_project

ROOT = Path(__file__).parent
CORPUS = ROOT / "data" / "corpus"


@cache
def _project(path: Path) -> Project:
    return load_project(path)


@cache
def _goals(project: str, skill: str, case: str) -> dict[str, Any]:
    where = ROOT.parent / "examples" / "bank" if project == "bank" else CORPUS / project
    loaded = _project(where)
    plan = {b.case: b for b in plan_mantle(loaded, skill, None).behaviors}
    return draft_mantle(DraftContext(loaded, "mantle", plan[case]))["scenario"]["goals"]


def _checks(goals: dict[str, Any], kind: str) -> list[Any]:
    return [a[kind] for a in goals["assertions"] if kind in a]


def _criteria(goals: dict[str, Any]) -> str:
    return "\n".join(goals["criteria"])


def test_a_block_with_its_own_completion_condition_names_no_step() -> None:
    """The incident block completes by `complete_when: incident_id`: which step its
    completion event names the definitions do not fix. A block without one keeps its step."""
    done = _checks(_goals("forge_platform", "incidents", "sev3"), "ordered_block_completed")
    assert done == [{"skill_id": "incidents", "block_id": "declare"}]
    # the claim block ends by `details_verified`, which its last step waits for: it ends there
    kept = _checks(_goals("harbor_mutual", "file_claim", "auto"), "ordered_block_completed")
    assert kept == [{"skill_id": "file_claim", "block_id": "loss_details", "step_id": "read_back"}]


def test_a_value_given_up_front_leaves_the_blocks_question_unasserted() -> None:
    """The instrument named in the opening comes before the booking block starts: whether
    the model records it then or the block asks is the model's, so no `bot_did_not_utter`;
    the criterion stays. The bank's card_replace tells the agent to record what the customer
    already said, so its question stays asserted unasked."""
    goals = _goals("tidewater_core", "instrument_time", "details_up_front")
    assert not _checks(goals, "bot_did_not_utter"), goals["assertions"]
    assert "does not ask for the instrument" in _criteria(goals)
    bank = _goals("bank", "card_replace", "details_up_front")
    unsaid = [b["utter_name"] for b in _checks(bank, "bot_did_not_utter")]
    assert "utter_ask_replacement_reason" in unsaid, unsaid


def test_a_detail_that_ends_its_step_early_is_not_said_up_front() -> None:
    """The pickup store ends the logistics step, which also asks for a pickup day: said in
    the opening, the step is done before the day is asked, so the opening leaves it out
    (and the sequencing then orders its write where the step records it)."""
    plan = {
        b.case: b
        for b in plan_mantle(
            _project(CORPUS / "meadow_pharmacy"), "refill_prescription", None
        ).behaviors
    }
    loaded = _project(CORPUS / "meadow_pharmacy")
    data = draft_mantle(DraftContext(loaded, "mantle", plan["details_up_front"]))
    context = data["scenario"]["simulation_context"]
    opening = next(line for line in context.splitlines() if line.startswith("Open with"))
    assert "store is" not in opening, opening


def test_an_interruption_never_rides_on_a_question_a_lookup_may_answer() -> None:
    """The flight status runs before the rebooking block: the model may take the disruption
    type (and the delay) from it and never ask, so the detour waits for the read-back of
    the new flight, a step every run reaches. It is cued as a confirmation, which an agent
    may ask before that step (a fare difference to accept), so no step is pinned."""
    goals = _goals("skyway_air", "rebook_flight", "digression")
    stopped = _checks(goals, "skill_interrupted")
    assert stopped == [{"skill_id": "rebook_flight"}], stopped
    # the disruption type the status may have given is not said to be the passenger's words
    assert "from its lookup" in _criteria(goals), _criteria(goals)


def test_a_refusal_does_not_name_a_tool_run_its_assertions_cover() -> None:
    """A tool run is no part of the transcript a judge reads; the success response and the
    tool's writes asserted absent already say it never ran."""
    goals = _goals("harbor_mutual", "file_claim", "refused_submit_claim")
    assert "never runs" not in _criteria(goals), goals["criteria"]


def test_a_lookup_on_an_outside_service_is_not_held_to_a_local_file() -> None:
    """trace_bag answers from the bagtrace server, not from the project's snapshot: no
    criterion holds its answer to data/bag_tags.json, and the skill's Chicago example is no
    expected answer for this bag. A local lookup keeps its record criterion."""
    track = _criteria(_goals("skyway_air", "baggage", "track"))
    assert "data/" not in track and "Chicago" not in track, track
    assert "says the last scan in plain words" in track, track
    recipe = _criteria(_goals("brewline_shifts", "recipe_help", "happy"))
    assert "data/" in recipe, recipe


def test_an_unclear_answer_may_be_clarified_by_asking_what_is_wrong() -> None:
    """An agent may clear up "plumbing or electrical" by asking what is going on: the
    description then comes first and its step never asks, so that question is not asserted,
    and the criterion does not demand one way of clarifying."""
    goals = _goals("oakline_residents", "maintenance_request", "unclear_answer")
    said = [b["utter_name"] for b in _checks(goals, "bot_uttered")]
    assert "utter_ask_problem" not in said, said
    assert "utter_ask_category" in said, said
    text = _criteria(goals)
    assert "has not stated or confirmed" in text, text
    assert "asks which one they mean instead" not in text, text


def test_no_fee_is_demanded_on_the_branch_that_has_none() -> None:
    """Paying by ACH is free: "say the fee before they confirm" is no criterion there."""
    goals = _goals("oakline_residents", "rent_account", "pay")
    assert "says the fee" not in _criteria(goals), goals["criteria"]


def test_does_not_ask_again_says_what_is_not_asked_again() -> None:
    """ "The tool … asks for the go-ahead itself; do not ask again in your own words" becomes
    a criterion about the go-ahead, not a ban on asking anything twice."""
    text = _criteria(_goals("harbor_mutual", "file_claim", "refused_submit_claim"))
    assert "does not ask for the go-ahead again in its own words" in text, text


def test_the_generic_no_repeat_criterion_needs_a_step_the_runtime_skips() -> None:
    """A happy path whose values each come at the step that asks for them gets no "does not
    ask again": whether a correct agent asks one twice the definitions leave to the model."""
    for case in ("grinder", "espresso_machine"):
        text = _criteria(_goals("brewline_shifts", "equipment_issue", case))
        assert "ask again" not in text, text


def test_a_block_with_an_end_step_of_its_own_names_no_step() -> None:
    """The identity block writes out `- id: END`: whether its completion event names
    `verified` or that step the definitions do not say, so no `step_id`."""
    done = _checks(
        _goals("harbor_mutual", "verify_policyholder", "happy"), "ordered_block_completed"
    )
    assert done == [{"skill_id": "verify_policyholder", "block_id": "identity_check"}]


def test_an_escalation_from_a_check_others_wait_for_may_finish_it_first() -> None:
    """Other skills run the identity check first (they read `project.authenticated`, which
    its tool writes): finishing it before handing over is as correct as handing over, so no
    "without first insisting on finishing". A baggage request nobody waits for keeps it."""
    verify = _criteria(_goals("harbor_mutual", "verify_policyholder", "escalation"))
    assert "insisting on finishing" not in verify, verify
    baggage = _criteria(_goals("skyway_air", "baggage", "escalation"))
    assert "insisting on finishing" in baggage, baggage


def test_an_escalation_allows_one_line_on_self_service() -> None:
    """The agent's persona may have it say what it can do first: the criterion against
    talking the customer out of a person lets one line of that pass."""
    text = _criteria(_goals("skyway_air", "rebook_flight", "escalation"))
    talk = [c for c in text.splitlines() if "talk the" in c]
    assert talk and all("one line on what it could do instead is fine" in c for c in talk), text


def test_a_write_the_prose_asks_for_before_the_mode_is_not_ordered_against_it() -> None:
    """The bag tag is introduced in the general prose, before the `if: mode == ...`
    paragraphs, and none of them names it: the agent may record the tag or the mode first,
    so the sequence keeps tag before report but not mode before tag."""
    goals = _goals("skyway_air", "baggage", "report_missing")
    (steps,) = _checks(goals, "sequencing")
    written = [s["memory_was_set"] for s in steps if "memory_was_set" in s]
    assert "baggage.mode" not in written, steps
    assert written.index("baggage.bag_tag") < written.index("baggage.report_id"), steps


def test_a_correction_does_not_rerun_the_block_tool_with_the_corrected_value() -> None:
    """The training check runs right after the instrument is collected, so with the wrong
    one; nothing says the correction sends the block back to it, so its check names no
    instrument. The booking the corrected value feeds keeps it."""
    goals = _goals("tidewater_core", "instrument_time", "correction")
    runs = {t["tool_name"]: t for t in _checks(goals, "tool_executed")}
    assert "instrument" not in runs["check_training"].get("arguments", {}), runs
    assert runs["check_training"]["arguments"]["badge_id"], runs
    assert runs["reserve_instrument"]["arguments"]["instrument"] == "confocal", runs


def test_a_value_given_up_front_that_the_prose_asks_for_is_not_asked_afresh() -> None:
    """ "Ask which window suits them … and set callback_window", with the window in the
    first message: what the details-up-front case checks beyond the happy path is that the
    agent does not make the customer choose it again (confirming it is fine)."""
    handoff = _criteria(_goals("harbor_mutual", "adjuster_handoff", "details_up_front"))
    assert "callback window again from scratch" in handoff, handoff
    assert "confirming the one already given is fine" in handoff, handoff
    deploy = _criteria(_goals("forge_platform", "deployments", "details_up_front"))
    assert "again" in deploy, deploy


def test_a_value_another_skills_block_collects_is_not_claimed_unasked() -> None:
    """The identity check collects its own `policy_number`: its step asks whatever the
    first message said, so "does not ask again" never names it. The claim's prose keeps
    what happened once told ("keep it and do not ask again"): the check is about that, and
    a detail no definition keeps (a police report number) is left to the model."""
    text = _criteria(_goals("harbor_mutual", "file_claim", "details_up_front"))
    again = [c for c in text.split("\n") if "what the first message gave" in c]
    assert again and "what happened" in again[0], text
    assert "policy number" not in again[0], again
    assert "police report number" not in again[0], again


def test_a_lookup_another_tools_answer_covers_is_not_asserted() -> None:
    """The flight search answers with `in_policy`: an agent may keep to the policy from
    that and never run the policy lookup, so the case does not assert it; the search and
    the booking stay."""
    goals = _goals("northstar_exec", "travel", "details_up_front")
    ran = {t["tool_name"] for t in _checks(goals, "tool_executed")}
    assert "get_travel_policy" not in ran, ran
    assert {"search_flights", "book_trip"} <= ran, ran


def test_an_ambiguity_criterion_takes_the_article_its_field_needs() -> None:
    """ "does not record an instrument", not "a instrument"."""
    text = _criteria(_goals("tidewater_core", "instrument_time", "unclear_answer"))
    assert "does not record an instrument the researcher" in text, text


def test_a_branch_of_alternatives_asks_for_the_one_that_applies() -> None:
    """The lockout paragraph gives one way in for office hours and another after hours;
    the case does not fix the time, so the criterion asks for whichever applies, in its
    own words, not "does what the skill says" over the pasted paragraph."""
    text = _criteria(_goals("oakline_residents", "door_access", "lockout"))
    assert "whichever applies" in text, text
    assert "does what the skill says" not in text, text
    # one criterion: the alternatives are not split into two checks
    assert len([c for c in text.split("\n") if "after hours" in c]) == 1, text
    assert "after hours" in next(c for c in text.split("\n") if "whichever applies" in c), text
