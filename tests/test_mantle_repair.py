"""Deterministic repair of Mantle scenarios: each fix is exact and recorded, and anything
that would need a guess stays unchanged and reported."""

from __future__ import annotations

import copy
from typing import Any, Literal

import pytest
from mantle_fixtures import bank_project, case_with, clean_case

from evalcore import pointer as ptr
from evalcore.dialects import get_dialect
from evalcore.dialects.mantle._repair import MANTLE_RULES
from evalcore.repair import RepairAction, repair_data
from evalcore.validation import check_data

MANTLE = get_dialect("mantle")
PROJECT = bank_project()
A = "/scenario/goals/assertions"
SLOTS = "/scenario/setup/initial_slots"
CR = "card_replace"


def typo(
    code: str, path: str, before: str, after: str, op: Literal["replace", "rename"] = "replace"
) -> RepairAction:
    """The generic record for an unknown id with one close real id."""
    return RepairAction(
        code=code,
        path=path,
        before=before,
        after=after,
        op=op,
        reason=f"'{before}' is not defined; '{after}' is the one close match",
    )


def test_dialect_offers_the_mantle_rules_first() -> None:
    assert MANTLE.repair_rules() == MANTLE_RULES


def test_clean_case_needs_no_repair() -> None:
    outcome = repair_data(clean_case(), MANTLE, PROJECT)
    assert outcome.actions == [] and outcome.findings == [] and outcome.valid
    assert outcome.data == clean_case()


# id, case, expected actions, pointer -> expected value after repair
FIXES: list[tuple[str, dict[str, Any], list[RepairAction], dict[str, Any]]] = [
    (
        "tool",
        case_with({"tool_executed": {"tool_name": "place_replacment_order", "source": "local"}}),
        [
            typo(
                "unknown-tool",
                f"{A}/0/tool_executed/tool_name",
                "place_replacment_order",
                "place_replacement_order",
            )
        ],
        {f"{A}/0/tool_executed/tool_name": "place_replacement_order"},
    ),
    (
        "skill",
        case_with({"skill_completed": {"skill_id": "card_replce"}}),
        [typo("unknown-skill", f"{A}/0/skill_completed/skill_id", "card_replce", CR)],
        {f"{A}/0/skill_completed/skill_id": CR},
    ),
    (
        "block",
        case_with({"ordered_block_entered": {"skill_id": CR, "block_id": "pick_crad"}}),
        [typo("unknown-block", f"{A}/0/ordered_block_entered/block_id", "pick_crad", "pick_card")],
        {f"{A}/0/ordered_block_entered/block_id": "pick_card"},
    ),
    (
        "step",
        case_with(
            {
                "ordered_block_completed": {
                    "skill_id": CR,
                    "block_id": "pick_card",
                    "step_id": "confirm_ordr",
                }
            }
        ),
        [
            typo(
                "unknown-step",
                f"{A}/0/ordered_block_completed/step_id",
                "confirm_ordr",
                "confirm_order",
            )
        ],
        {f"{A}/0/ordered_block_completed/step_id": "confirm_order"},
    ),
    (
        "memory-name",
        case_with({"memory_was_not_set": [{"name": "card_replace.fraud_reportd"}]}),
        [
            typo(
                "unknown-memory",
                f"{A}/0/memory_was_not_set/0/name",
                "card_replace.fraud_reportd",
                "card_replace.fraud_reported",
            )
        ],
        {f"{A}/0/memory_was_not_set/0/name": "card_replace.fraud_reported"},
    ),
    (
        "memory-namespace",
        case_with({"memory_was_set": [{"name": "card_replce.shipping", "value": "express"}]}),
        [
            typo(
                "unknown-memory",
                f"{A}/0/memory_was_set/0/name",
                "card_replce.shipping",
                "card_replace.shipping",
            )
        ],
        {f"{A}/0/memory_was_set/0/name": "card_replace.shipping"},
    ),
    (
        "response",
        case_with({"bot_uttered": {"utter_name": "utter_order_placd"}}),
        [
            typo(
                "unknown-response",
                f"{A}/0/bot_uttered/utter_name",
                "utter_order_placd",
                "utter_order_placed",
            )
        ],
        {f"{A}/0/bot_uttered/utter_name": "utter_order_placed"},
    ),
    (
        "argument",
        case_with(
            {
                "tool_executed": {
                    "tool_name": "place_replacement_order",
                    "source": "local",
                    "arguments": {"card_di": "c-1", "shipping": "standard"},
                }
            }
        ),
        [
            typo(
                "unknown-tool-argument",
                f"{A}/0/tool_executed/arguments/card_di",
                "card_di",
                "card_id",
                op="rename",
            )
        ],
        {f"{A}/0/tool_executed/arguments": {"card_id": "c-1", "shipping": "standard"}},
    ),
    (
        "slot-key",
        case_with(slots={"project.caler_phone": "+15550100"}),
        [
            typo(
                "unknown-memory",
                f"{SLOTS}/project.caler_phone",
                "project.caler_phone",
                "project.caller_phone",
                op="rename",
            )
        ],
        {SLOTS: {"project.caller_phone": "+15550100"}},
    ),
    (
        "bool-text",
        case_with({"memory_was_set": [{"name": "card_replace.fraud_reported", "value": "true"}]}),
        [
            RepairAction(
                code="memory-type",
                path=f"{A}/0/memory_was_set/0/value",
                before="true",
                after=True,
                reason="'true' written as text; the field takes a boolean",
            )
        ],
        {f"{A}/0/memory_was_set/0/value": True},
    ),
    (
        "int-text",
        case_with(slots={"card_replace.cards_shown": "2"}),
        [
            RepairAction(
                code="memory-type",
                path=f"{SLOTS}/card_replace.cards_shown",
                before="2",
                after=2,
                reason="'2' written as text; the field takes an integer",
            )
        ],
        {f"{SLOTS}/card_replace.cards_shown": 2},
    ),
    (
        "enum-case",
        case_with(
            {"memory_was_set": [{"name": "card_replace.replacement_reason", "value": "Damaged"}]}
        ),
        [typo("memory-enum", f"{A}/0/memory_was_set/0/value", "Damaged", "damaged")],
        {f"{A}/0/memory_was_set/0/value": "damaged"},
    ),
    (
        "single-map-in-list",
        case_with({"memory_was_set": {"name": "card_replace.shipping", "value": "express"}}),
        [
            RepairAction(
                code="schema",
                path=f"{A}/0/memory_was_set",
                before={"name": "card_replace.shipping", "value": "express"},
                after=[{"name": "card_replace.shipping", "value": "express"}],
                reason="a single item where a list is expected; wrapped in a list",
            )
        ],
        {f"{A}/0/memory_was_set": [{"name": "card_replace.shipping", "value": "express"}]},
    ),
    (
        "assertion-key-typo",
        case_with({"skill_complted": {"skill_id": CR}}),
        [
            RepairAction(
                code="schema",
                path=f"{A}/0/skill_complted",
                before="skill_complted",
                after="skill_completed",
                op="rename",
                reason="unknown key 'skill_complted' is a typo of 'skill_completed'",
            )
        ],
        {f"{A}/0": {"skill_completed": {"skill_id": CR}}},
    ),
    (
        "step-id-on-skill-activated",
        case_with({"skill_activated": {"skill_id": CR, "step_id": "select_card"}}),
        [
            RepairAction(
                code="schema",
                path=f"{A}/0/skill_activated/step_id",
                before="select_card",
                after=None,
                op="remove",
                reason="skill_activated events carry no step; step_id is rejected "
                "and matched nothing",
            )
        ],
        {f"{A}/0/skill_activated": {"skill_id": CR}},
    ),
    (
        "session-prefix-in-name",
        case_with({"memory_was_set": [{"name": "session.card_replace.shipping"}]}),
        [
            RepairAction(
                code="schema",
                path=f"{A}/0/memory_was_set/0/name",
                before="session.card_replace.shipping",
                after="card_replace.shipping",
                reason="memory names never take a session. prefix; "
                "'session.card_replace.shipping' is 'card_replace.shipping'",
            )
        ],
        {f"{A}/0/memory_was_set/0/name": "card_replace.shipping"},
    ),
    (
        "session-prefix-in-sequencing",
        case_with({"sequencing": [{"memory_was_cleared": "session.card_replace.shipping"}]}),
        [
            RepairAction(
                code="schema",
                path=f"{A}/0/sequencing/0/memory_was_cleared",
                before="session.card_replace.shipping",
                after="card_replace.shipping",
                reason="memory names never take a session. prefix; "
                "'session.card_replace.shipping' is 'card_replace.shipping'",
            )
        ],
        {f"{A}/0/sequencing/0/memory_was_cleared": "card_replace.shipping"},
    ),
    (
        "session-prefix-on-slot",
        case_with(slots={"session.project.caller_phone": "+15550100", "preferred_language": "en"}),
        [
            RepairAction(
                code="schema",
                path=f"{SLOTS}/session.project.caller_phone",
                before="session.project.caller_phone",
                after="project.caller_phone",
                op="rename",
                reason="memory names never take a session. prefix; "
                "'session.project.caller_phone' is 'project.caller_phone'",
            )
        ],
        {SLOTS: {"project.caller_phone": "+15550100", "preferred_language": "en"}},
    ),
    (
        "map-form-in-sequencing",
        case_with(
            {
                "sequencing": [
                    {"skill_activated": {"skill_id": CR}},
                    {"memory_was_set": [{"name": "card_replace.shipping"}]},
                ]
            }
        ),
        [
            RepairAction(
                code="schema",
                path=f"{A}/0/sequencing/1/memory_was_set",
                before=[{"name": "card_replace.shipping"}],
                after="card_replace.shipping",
                reason="inside sequencing, memory_was_set takes the plain memory name",
            )
        ],
        {f"{A}/0/sequencing/1/memory_was_set": "card_replace.shipping"},
    ),
    (
        "value-on-cleared",
        case_with({"memory_was_cleared": [{"name": "card_replace.shipping", "value": "express"}]}),
        [
            RepairAction(
                code="schema",
                path=f"{A}/0/memory_was_cleared/0/value",
                before="express",
                after=None,
                op="remove",
                reason="memory_was_cleared checks only that the name was cleared; "
                "value is not allowed",
            )
        ],
        {f"{A}/0/memory_was_cleared/0": {"name": "card_replace.shipping"}},
    ),
]


@pytest.mark.parametrize(
    ("data", "actions", "expected"),
    [case[1:] for case in FIXES],
    ids=[case[0] for case in FIXES],
)
def test_repair_fixes_exactly_this(
    data: dict[str, Any], actions: list[RepairAction], expected: dict[str, Any]
) -> None:
    original = copy.deepcopy(data)
    outcome = repair_data(data, MANTLE, PROJECT)
    assert outcome.actions == actions
    assert outcome.findings == [] and outcome.valid
    assert data == original  # the input is not mutated
    # Nothing else changed: applying the expected values to the input gives the output.
    want = copy.deepcopy(original)
    for path, value in expected.items():
        ptr.replace(want, path, value)
    assert outcome.data == want


def test_several_fixes_in_one_case_are_all_recorded() -> None:
    data = case_with(
        {"skill_activated": {"skill_id": "card_replce", "step_id": "select_card"}},
        {"memory_was_set": {"name": "card_replace.fraud_reported", "value": "false"}},
        slots={"session.project.caller_phone": "+15550100"},
    )
    outcome = repair_data(data, MANTLE, PROJECT)
    assert outcome.valid and outcome.findings == []
    assert [(a.code, a.path, a.op) for a in outcome.actions] == [
        ("schema", f"{SLOTS}/session.project.caller_phone", "rename"),
        ("schema", f"{A}/0/skill_activated/step_id", "remove"),
        ("schema", f"{A}/1/memory_was_set", "replace"),
        ("unknown-skill", f"{A}/0/skill_activated/skill_id", "replace"),
        ("memory-type", f"{A}/1/memory_was_set/0/value", "replace"),
    ]
    assert outcome.data["scenario"]["goals"]["assertions"] == [
        {"skill_activated": {"skill_id": CR}},
        {"memory_was_set": [{"name": "card_replace.fraud_reported", "value": False}]},
    ]


# id, case, codes still reported (path, code)
LEFT: list[tuple[str, dict[str, Any], list[tuple[str, str]]]] = [
    (
        "no-close-id",
        case_with({"memory_was_set": [{"name": "card_replace.colour"}]}),
        [("unknown-memory", f"{A}/0/memory_was_set/0/name")],
    ),
    (
        "two-equally-close-ids",
        case_with({"memory_was_set": [{"name": "card_balance.account_id"}]}),
        [("unknown-memory", f"{A}/0/memory_was_set/0/name")],
    ),
    (
        "shared-namespace-is-not-closeness",
        case_with({"memory_was_set": [{"name": "card_replace.order_id"}]}),
        [("unknown-memory", f"{A}/0/memory_was_set/0/name")],
    ),
    (
        "bare-memory-name-gets-no-namespace",
        case_with({"memory_was_set": [{"name": "fraud_reported"}]}),
        [("unknown-memory", f"{A}/0/memory_was_set/0/name")],
    ),
    (
        "enum-differs-beyond-case",
        case_with(
            {"memory_was_set": [{"name": "card_replace.replacement_reason", "value": "damage"}]}
        ),
        [("memory-enum", f"{A}/0/memory_was_set/0/value")],
    ),
    (
        "enum-unrelated",
        case_with(slots={"card_replace.shipping": "overnight"}),
        [("memory-enum", f"{SLOTS}/card_replace.shipping")],
    ),
    (
        "lossy-bool",
        case_with({"memory_was_set": [{"name": "card_replace.fraud_reported", "value": "yes"}]}),
        [("memory-type", f"{A}/0/memory_was_set/0/value")],
    ),
    (
        "number-for-text",
        case_with({"memory_was_set": [{"name": "card_replace.selected_card_id", "value": 4411}]}),
        [("memory-type", f"{A}/0/memory_was_set/0/value")],
    ),
    (
        "mcp-tool-as-local",
        case_with({"tool_executed": {"tool_name": "lookup_customer", "source": "local"}}),
        [("unknown-tool", f"{A}/0/tool_executed/tool_name")],
    ),
    (
        "valued-memory-in-sequencing",
        case_with(
            {
                "sequencing": [
                    {"memory_was_set": [{"name": "card_replace.shipping", "value": "express"}]}
                ]
            }
        ),
        [("schema", f"{A}/0/sequencing/0/memory_was_set")],
    ),
    (
        "memory-was-not-set-in-sequencing",
        case_with({"sequencing": [{"memory_was_not_set": [{"name": "card_replace.shipping"}]}]}),
        [("schema", f"{A}/0/sequencing/0/memory_was_not_set")],
    ),
    (
        "session-prefix-onto-existing-slot",
        case_with(slots={"session.project.caller_phone": "1", "project.caller_phone": "2"}),
        [("schema", f"{SLOTS}/session.project.caller_phone")],
    ),
    (
        "mcp-without-server",
        case_with({"tool_executed": {"tool_name": "lookup_customer", "source": "mcp"}}),
        [("schema", f"{A}/0/tool_executed/mcp_server")],
    ),
    (
        "one-call-within-one-turn",
        case_with(
            {
                "tools_within_one_turn": {
                    "allow_extra_calls": True,
                    "calls": [
                        {"tool_executed": {"tool_name": "order_replacement", "source": "local"}}
                    ],
                }
            }
        ),
        [("schema", f"{A}/0/tools_within_one_turn/calls")],
    ),
]


@pytest.mark.parametrize(
    ("data", "left"), [case[1:] for case in LEFT], ids=[case[0] for case in LEFT]
)
def test_repair_leaves_guesses_alone(data: dict[str, Any], left: list[tuple[str, str]]) -> None:
    outcome = repair_data(data, MANTLE, PROJECT)
    assert outcome.actions == []
    assert outcome.data == data
    assert [(f.code, f.path) for f in outcome.findings] == left
    assert not outcome.valid


def test_mantle_rules_ignore_findings_they_do_not_own() -> None:
    data = case_with(
        {"skill_completed": {"skill_id": "card_replce"}},
        {"tool_executed": {"tool_name": "lookup_customer", "source": "mcp"}},
    )
    findings = check_data(data, MANTLE, PROJECT)
    assert {f.code for f in findings} == {"unknown-skill", "schema"}
    assert all(rule(data, f, PROJECT) is None for rule in MANTLE_RULES for f in findings)
