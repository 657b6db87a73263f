"""Rasa-exact `sequencing` and `expected_tools`: what Rasa's packaged schema and assertion
engine accept is accepted (schema, model, engine), what they reject is rejected with a message
that says what is allowed and how to rewrite, and repair fixes what it can fix losslessly."""

from __future__ import annotations

import copy
from typing import Any

import pydantic
import pytest
from mantle_fixtures import bank_project, case_with

from evalcore.assertions import SEQUENCING_STEPS, evaluate_mantle, sequencing_step_problem
from evalcore.dialects import get_dialect
from evalcore.dialects.mantle import MantleCase
from evalcore.repair import repair_data
from evalcore.validation import check_data

MANTLE = get_dialect("mantle")
PROJECT = bank_project()
A = "/scenario/goals/assertions"
CR = {"skill_id": "card_replace"}
PICK = {"skill_id": "card_replace", "block_id": "pick_card"}
PLACE = {"tool_name": "place_replacement_order", "source": "local"}
CALLS = [
    {"tool_executed": {"tool_name": "card_replace_eligibility", "source": "local"}},
    {"tool_executed": PLACE},
]

#: One example of every step Rasa allows inside sequencing.
ALLOWED: dict[str, Any] = {
    "skill_activated": CR,
    "skill_completed": CR,
    "skill_cancelled": {**CR, "step_id": "autonomous"},
    "skill_interrupted": CR,
    "skill_resumed": {**CR, "step_id": "select_card"},
    "ordered_block_entered": PICK,
    "ordered_block_completed": {**PICK, "step_id": "confirm_order"},
    "ordered_block_cancelled": PICK,
    "ordered_block_interrupted": PICK,
    "ordered_block_resumed": PICK,
    "tool_executed": PLACE,
    "memory_was_set": "card_replace.replacement_reason",
    "memory_was_cleared": "card_replace.shipping",
}

#: Every step Rasa rejects inside sequencing, with a body that is valid on its own.
FORBIDDEN: dict[str, Any] = {
    "bot_uttered": {"utter_name": "utter_order_placed"},
    "bot_did_not_utter": {"utter_name": "utter_order_placed"},
    "memory_was_not_set": [{"name": "card_replace.fraud_reported"}],
    "tools_within_one_turn": {"calls": CALLS, "allow_extra_calls": True},
    "sequencing": [{"skill_activated": CR}],
}


def sequence(*steps: dict[str, Any]) -> dict[str, Any]:
    return case_with({"sequencing": list(steps)})


def with_expected(*items: Any) -> dict[str, Any]:
    data = case_with({"skill_activated": CR})
    data["scenario"]["goals"]["expected_tools"] = list(items)
    return data


def errors(data: Any) -> list[Any]:
    return [f for f in check_data(data, MANTLE, PROJECT) if f.severity == "error"]


# --- sequencing ---------------------------------------------------------------------------


def test_the_allowed_list_is_rasas() -> None:
    assert set(SEQUENCING_STEPS) == set(ALLOWED)
    schema = MANTLE.schema["$defs"]["sequencing_check"]["properties"]
    accepted = {key for key, rule in schema.items() if rule.get("not") != {}}
    assert accepted == set(SEQUENCING_STEPS)


def test_every_allowed_step_is_accepted_everywhere() -> None:
    data = sequence(*({kind: body} for kind, body in ALLOWED.items()))
    assert errors(data) == []
    MantleCase.model_validate(copy.deepcopy(data))
    # Steps are read as they are reached (as Rasa reads them): each one alone is reached.
    for kind, body in ALLOWED.items():
        (result,) = evaluate_mantle([{"sequencing": [{kind: body}]}], [])
        assert not result.invalid, result.detail


@pytest.mark.parametrize("kind", list(FORBIDDEN))
def test_forbidden_step_is_rejected_with_its_message(kind: str) -> None:
    data = sequence({"skill_activated": CR}, {kind: FORBIDDEN[kind]})
    expected = sequencing_step_problem(kind)
    assert expected is not None and "Rasa allows only" in expected
    [finding] = errors(data)
    assert finding.path == f"{A}/0/sequencing/1/{kind}"
    assert finding.message == expected
    with pytest.raises(pydantic.ValidationError):
        MantleCase.model_validate(copy.deepcopy(data))
    # Rasa reads a step when the steps before it matched: step 1 matches here.
    activated = [{"event": "skill_activated", **CR}]
    (result,) = evaluate_mantle(data["scenario"]["goals"]["assertions"], activated)
    assert not result.passed and result.invalid
    assert result.detail == f"invalid sequencing assertion: sequencing step 2: {expected}"


def test_bot_uttered_message_says_how_to_rewrite() -> None:
    message = sequencing_step_problem("bot_uttered")
    assert message is not None
    assert message.endswith("assert bot_uttered on its own and order the events around it")
    for kind in ("skill_activated", "ordered_block_resumed", "tool_executed", "memory_was_set"):
        assert kind.split("_")[0] in message
    assert sequencing_step_problem("memory_was_cleared") is None


def test_forbidden_steps_are_each_their_own_assertion_at_top_level() -> None:
    data = case_with(*({kind: body} for kind, body in FORBIDDEN.items() if kind != "sequencing"))
    assert errors(data) == []


def test_memory_step_takes_a_plain_name_in_the_engine_too() -> None:
    events = [{"event": "memory_set", "key": "card_replace.replacement_reason", "value": "lost"}]
    steps = [{"memory_was_set": [{"name": "card_replace.replacement_reason"}]}]
    (result,) = evaluate_mantle([{"sequencing": steps}], events)
    assert not result.passed and "plain memory name" in result.detail
    (result,) = evaluate_mantle(
        [{"sequencing": [{"memory_was_set": "card_replace.replacement_reason"}]}], events
    )
    assert result.passed, result.detail


def test_calm_step_is_unknown_with_a_hint() -> None:
    (result,) = evaluate_mantle([{"sequencing": [{"skill_activate": CR}]}], [])
    assert "unknown check 'skill_activate'" in result.detail
    assert "skill_activated" in result.detail


# --- expected_tools -----------------------------------------------------------------------

VALID_EXPECTED: dict[str, list[Any]] = {
    "tool": [{"tool_called": "place_replacement_order"}],
    "gated-tool": [{"tool_called": "place_replacement_order", "gate": True}],
    "tool-with-arguments": [
        {"tool_called": {"tool_name": "place_replacement_order", "arguments": {"shipping": "x"}}}
    ],
    "group": [
        {
            "tool_group": [
                {"tool_called": "card_replace_eligibility"},
                {"tool_called": "place_replacement_order"},
                {"ordered": True},
                {"gate": False},
            ]
        }
    ],
    "both": [
        {"tool_called": "order_replacement"},
        {"tool_group": [{"tool_called": "order_replacement"}]},
    ],
}


@pytest.mark.parametrize("items", VALID_EXPECTED.values(), ids=VALID_EXPECTED.keys())
def test_expected_tools_map_forms_are_accepted(items: list[Any]) -> None:
    data = with_expected(*items)
    assert errors(data) == []
    case = MantleCase.model_validate(copy.deepcopy(data))
    assert case.model_dump(exclude_none=True, by_alias=True) == data


E = "/scenario/goals/expected_tools"
INVALID_EXPECTED: dict[str, tuple[list[Any], str, str]] = {
    "bare-name": (["place_replacement_order"], f"{E}/0", "Rasa rejects a bare tool name"),
    "bare-name-in-group": (
        [{"tool_group": ["place_replacement_order"]}],
        f"{E}/0/tool_group/0",
        "expected object",
    ),
    "ordered-on-a-single-tool": (
        [{"tool_called": "order_replacement", "ordered": True}],
        f"{E}/0/ordered",
        "unknown key 'ordered'",
    ),
    "two-keys-in-a-group-item": (
        [{"tool_group": [{"tool_called": "order_replacement", "gate": True}]}],
        f"{E}/0/tool_group/0",
        "each tool_group item holds one key",
    ),
    "group-without-a-tool": (
        [{"tool_group": [{"ordered": True}]}],
        f"{E}/0/tool_group",
        "at least one {tool_called: NAME}",
    ),
    "empty-item": ([{}], f"{E}/0", "an expected_tools item is a map"),
    "gate-as-text": (
        [{"tool_called": "order_replacement", "gate": "yes"}],
        f"{E}/0/gate",
        "expected boolean",
    ),
}


@pytest.mark.parametrize(
    ("items", "path", "message"), INVALID_EXPECTED.values(), ids=INVALID_EXPECTED.keys()
)
def test_expected_tools_bad_forms_are_rejected(items: list[Any], path: str, message: str) -> None:
    data = with_expected(*items)
    found = errors(data)
    assert {f.code for f in found} == {"schema"}, found
    assert any(f.path == path and message in f.message for f in found), found
    with pytest.raises(pydantic.ValidationError):
        MantleCase.model_validate(copy.deepcopy(data))


# --- repair -------------------------------------------------------------------------------


def test_repair_turns_bare_names_into_maps() -> None:
    data = with_expected("place_replacement_order", {"tool_group": ["order_replacement"]})
    outcome = repair_data(data, MANTLE, PROJECT)
    assert outcome.valid, outcome.findings
    assert outcome.data["scenario"]["goals"]["expected_tools"] == [
        {"tool_called": "place_replacement_order"},
        {"tool_group": [{"tool_called": "order_replacement"}]},
    ]
    assert [(a.path, a.before, a.after) for a in outcome.actions] == [
        (f"{E}/0", "place_replacement_order", {"tool_called": "place_replacement_order"}),
        (f"{E}/1/tool_group/0", "order_replacement", {"tool_called": "order_replacement"}),
    ]


def test_repair_then_lint_reports_an_unknown_bare_name() -> None:
    outcome = repair_data(with_expected("place_replacment_order"), MANTLE, PROJECT)
    assert outcome.data["scenario"]["goals"]["expected_tools"] == [
        {"tool_called": "place_replacement_order"}
    ]
    assert [a.code for a in outcome.actions] == ["schema", "unknown-tool"]


def test_repair_moves_bot_uttered_out_of_sequencing() -> None:
    placed = {"bot_uttered": {"utter_name": "utter_order_placed"}}
    confirm = {"bot_uttered": {"utter_name": "utter_greet"}}
    data = case_with(
        {"skill_activated": CR},
        {"sequencing": [{"skill_activated": CR}, confirm, {"tool_executed": PLACE}, placed]},
        {"skill_completed": CR},
    )
    outcome = repair_data(data, MANTLE, PROJECT)
    assert outcome.valid, outcome.findings
    assert outcome.data["scenario"]["goals"]["assertions"] == [
        {"skill_activated": CR},
        {"sequencing": [{"skill_activated": CR}, {"tool_executed": PLACE}]},
        confirm,
        placed,
        {"skill_completed": CR},
    ]
    [action] = outcome.actions
    assert action.path == A and action.before == data["scenario"]["goals"]["assertions"]
    assert "Rasa rejects bot_uttered inside sequencing" in action.reason


def test_repair_drops_a_sequence_left_empty_and_keeps_no_duplicate() -> None:
    placed = {"bot_uttered": {"utter_name": "utter_order_placed"}}
    within = {"tools_within_one_turn": {"calls": CALLS, "allow_extra_calls": False}}
    data = case_with(placed, {"sequencing": [placed, within]})
    outcome = repair_data(data, MANTLE, PROJECT)
    assert outcome.valid, outcome.findings
    assert outcome.data["scenario"]["goals"]["assertions"] == [placed, within]


def test_repair_leaves_an_absence_in_sequencing_to_a_person() -> None:
    """Out of the sequence an absence would be stricter, so it is not moved."""
    data = sequence({"skill_activated": CR}, {"bot_did_not_utter": FORBIDDEN["bot_did_not_utter"]})
    outcome = repair_data(data, MANTLE, PROJECT)
    assert outcome.actions == [] and not outcome.valid
    assert outcome.data == data
