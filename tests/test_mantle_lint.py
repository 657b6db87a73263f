"""Mantle reference lint: each code fires on the case made for it, and only that code."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mantle_fixtures import bank_project, case_with, clean_case

from evalcore.dialects import get_dialect
from evalcore.dialects.mantle._lint import lint_mantle
from evalcore.findings import FINDING_CODES, Finding
from evalcore.validation import check_data, validate_paths

PROJECT = bank_project()
MANTLE = get_dialect("mantle")
A = "/scenario/goals/assertions"
SLOTS = "/scenario/setup/initial_slots"
CR = "card_replace"


def findings_for(data: Any) -> list[Finding]:
    """Schema + lint findings; the schema part must be empty so lint alone is tested."""
    schema = MANTLE.schema_findings(data)
    assert schema == [], schema
    return check_data(data, MANTLE, PROJECT)


def test_clean_case_has_no_findings() -> None:
    assert findings_for(clean_case()) == []


def test_lint_goes_through_the_dialect() -> None:
    data = case_with({"skill_completed": {"skill_id": "card_replce"}})
    assert MANTLE.lint(data, PROJECT) == lint_mantle(data, PROJECT)
    assert len(lint_mantle(data, PROJECT)) == 1


def expected_tools(*items: dict[str, Any]) -> dict[str, Any]:
    """A minimal valid scenario whose goals hold just `expected_tools`."""
    data = case_with({"skill_activated": {"skill_id": CR}})
    data["scenario"]["goals"]["expected_tools"] = list(items)
    return data


# id, case, code, path, value, words in the suggestion (None: no suggestion is checked)
CASES: list[tuple[str, dict[str, Any], str, str, Any, str | None]] = [
    (
        "skill",
        case_with({"skill_completed": {"skill_id": "card_replce"}}),
        "unknown-skill",
        f"{A}/0/skill_completed/skill_id",
        "card_replce",
        "did you mean 'card_replace'",
    ),
    (
        "skill-in-tool-executed",
        case_with(
            {
                "tool_executed": {
                    "tool_name": "order_replacement",
                    "source": "local",
                    "skill_id": "card_replacement",
                }
            }
        ),
        "unknown-skill",
        f"{A}/0/tool_executed/skill_id",
        "card_replacement",
        "did you mean 'card_replace'",
    ),
    (
        "skill-in-sequencing",
        case_with({"sequencing": [{"skill_activated": {"skill_id": "check_balanse"}}]}),
        "unknown-skill",
        f"{A}/0/sequencing/0/skill_activated/skill_id",
        "check_balanse",
        "did you mean 'check_balance'",
    ),
    (
        "skill-in-tools-within-one-turn",
        case_with(
            {
                "tools_within_one_turn": {
                    "allow_extra_calls": False,
                    "calls": [
                        {"tool_executed": {"tool_name": "order_replacement", "source": "local"}},
                        {
                            "tool_executed": {
                                "tool_name": "get_balance",
                                "source": "local",
                                "skill_id": "balance",
                            }
                        },
                    ],
                }
            }
        ),
        "unknown-skill",
        f"{A}/0/tools_within_one_turn/calls/1/tool_executed/skill_id",
        "balance",
        None,
    ),
    (
        "block",
        case_with({"ordered_block_entered": {"skill_id": CR, "block_id": "pick_cards"}}),
        "unknown-block",
        f"{A}/0/ordered_block_entered/block_id",
        "pick_cards",
        "did you mean 'pick_card'",
    ),
    (
        "block-of-another-skill",
        case_with(
            {"ordered_block_completed": {"skill_id": "check_balance", "block_id": "pick_card"}}
        ),
        "unknown-block",
        f"{A}/0/ordered_block_completed/block_id",
        "pick_card",
        "no blocks are defined",
    ),
    (
        "step-of-skill",
        case_with({"skill_interrupted": {"skill_id": CR, "step_id": "select_crd"}}),
        "unknown-step",
        f"{A}/0/skill_interrupted/step_id",
        "select_crd",
        "did you mean 'select_card'",
    ),
    (
        "step-of-block",
        case_with(
            {
                "ordered_block_interrupted": {
                    "skill_id": CR,
                    "block_id": "pick_card",
                    "step_id": "confirm_ordr",
                }
            }
        ),
        "unknown-step",
        f"{A}/0/ordered_block_interrupted/step_id",
        "confirm_ordr",
        "did you mean 'confirm_order'",
    ),
    (
        "autonomous-is-not-a-block-step",
        case_with(
            {
                "ordered_block_cancelled": {
                    "skill_id": CR,
                    "block_id": "pick_card",
                    "step_id": "autonomous",
                }
            }
        ),
        "unknown-step",
        f"{A}/0/ordered_block_cancelled/step_id",
        "autonomous",
        None,
    ),
    (
        "memory-name",
        case_with({"memory_was_set": [{"name": "card_replace.replacment_reason"}]}),
        "unknown-memory",
        f"{A}/0/memory_was_set/0/name",
        "card_replace.replacment_reason",
        "did you mean 'card_replace.replacement_reason'",
    ),
    (
        "memory-key-no-close-match",
        case_with({"memory_was_set": [{"name": "card_replace.order_id"}]}),
        "unknown-memory",
        f"{A}/0/memory_was_set/0/name",
        "card_replace.order_id",
        "'card_replace' declares: account_id, cards_shown",
    ),
    (
        "memory-namespace-typo",
        case_with({"memory_was_set": [{"name": "card_replce.shipping"}]}),
        "unknown-memory",
        f"{A}/0/memory_was_set/0/name",
        "card_replce.shipping",
        "did you mean 'card_replace.shipping'",
    ),
    (
        "memory-unknown-namespace",
        case_with({"memory_was_set": [{"name": "billing.shipping"}]}),
        "unknown-memory",
        f"{A}/0/memory_was_set/0/name",
        "billing.shipping",
        "known namespaces: card_replace, check_balance, project, system",
    ),
    (
        "bare-memory-name",
        case_with({"memory_was_not_set": [{"name": "fraud_reported"}]}),
        "unknown-memory",
        f"{A}/0/memory_was_not_set/0/name",
        "fraud_reported",
        None,
    ),
    (
        "undeclared-project-memory",
        case_with({"memory_was_cleared": [{"name": "project.caller_phon"}]}),
        "unknown-memory",
        f"{A}/0/memory_was_cleared/0/name",
        "project.caller_phon",
        "did you mean 'project.caller_phone'",
    ),
    (
        "memory-in-sequencing",
        case_with({"sequencing": [{"memory_was_set": "card_replace.shiping"}]}),
        "unknown-memory",
        f"{A}/0/sequencing/0/memory_was_set",
        "card_replace.shiping",
        "did you mean 'card_replace.shipping'",
    ),
    (
        "slot-key",
        case_with(slots={"project.caler_phone": "+15550100"}),
        "unknown-memory",
        f"{SLOTS}/project.caler_phone",
        "project.caler_phone",
        "did you mean 'project.caller_phone'",
    ),
    (
        "bare-slot-key",
        case_with(slots={"prefered_language": "en"}),
        "unknown-memory",
        f"{SLOTS}/prefered_language",
        "prefered_language",
        "did you mean 'preferred_language'",
    ),
    (
        "bare-slot-key-of-a-skill-field",
        case_with(slots={"replacement_reason": "lost"}),
        "unknown-memory",
        f"{SLOTS}/replacement_reason",
        "replacement_reason",
        "card_replace.replacement_reason",
    ),
    (
        "skill-slot-key",
        case_with(slots={"card_replace.shiping": "express"}),
        "unknown-memory",
        f"{SLOTS}/card_replace.shiping",
        "card_replace.shiping",
        "did you mean 'card_replace.shipping'",
    ),
    (
        "bool-value",
        case_with({"memory_was_set": [{"name": "card_replace.fraud_reported", "value": "true"}]}),
        "memory-type",
        f"{A}/0/memory_was_set/0/value",
        "true",
        "without quotes",
    ),
    (
        "int-value-is-not-bool",
        case_with({"memory_was_not_set": [{"name": "card_replace.cards_shown", "value": True}]}),
        "memory-type",
        f"{A}/0/memory_was_not_set/0/value",
        True,
        None,
    ),
    (
        "text-value",
        case_with({"memory_was_set": [{"name": "card_replace.selected_card_id", "value": 4411}]}),
        "memory-type",
        f"{A}/0/memory_was_set/0/value",
        4411,
        None,
    ),
    (
        "slot-value",
        case_with(slots={"card_replace.cards_shown": "2"}),
        "memory-type",
        f"{SLOTS}/card_replace.cards_shown",
        "2",
        None,
    ),
    (
        "enum-case",
        case_with(
            {"memory_was_set": [{"name": "card_replace.replacement_reason", "value": "Damaged"}]}
        ),
        "memory-enum",
        f"{A}/0/memory_was_set/0/value",
        "Damaged",
        "did you mean 'damaged'",
    ),
    (
        "enum-value",
        case_with(
            {"memory_was_not_set": [{"name": "card_replace.replacement_reason", "value": "broken"}]}
        ),
        "memory-enum",
        f"{A}/0/memory_was_not_set/0/value",
        "broken",
        "valid values: damaged, lost, not_received, stolen",
    ),
    (
        "slot-enum",
        case_with(slots={"card_replace.shipping": "overnight"}),
        "memory-enum",
        f"{SLOTS}/card_replace.shipping",
        "overnight",
        None,
    ),
    (
        "local-tool",
        case_with({"tool_executed": {"tool_name": "place_replacment_order", "source": "local"}}),
        "unknown-tool",
        f"{A}/0/tool_executed/tool_name",
        "place_replacment_order",
        "did you mean 'place_replacement_order'",
    ),
    (
        "tool-of-another-skill",
        case_with(
            {"tool_executed": {"tool_name": "get_balance", "source": "local", "skill_id": CR}}
        ),
        "unknown-tool",
        f"{A}/0/tool_executed/tool_name",
        "get_balance",
        None,
    ),
    (
        "mcp-tool-as-local",
        case_with({"tool_executed": {"tool_name": "lookup_customer", "source": "local"}}),
        "unknown-tool",
        f"{A}/0/tool_executed/tool_name",
        "lookup_customer",
        "source: mcp with mcp_server: crm",
    ),
    (
        "mcp-tool",
        case_with(
            {"tool_executed": {"tool_name": "lookup_custmer", "source": "mcp", "mcp_server": "crm"}}
        ),
        "unknown-tool",
        f"{A}/0/tool_executed/tool_name",
        "lookup_custmer",
        "did you mean 'lookup_customer'",
    ),
    (
        "mcp-server",
        case_with(
            {
                "tool_executed": {
                    "tool_name": "lookup_customer",
                    "source": "mcp",
                    "mcp_server": "crn",
                }
            }
        ),
        "unknown-tool",
        f"{A}/0/tool_executed/mcp_server",
        "crn",
        "did you mean 'crm'",
    ),
    (
        "mcp-tool-not-imported-by-that-skill",
        case_with(
            {
                "tool_executed": {
                    "tool_name": "lookup_customer",
                    "source": "mcp",
                    "mcp_server": "crm",
                    "skill_id": "check_balance",
                }
            }
        ),
        "unknown-tool",
        f"{A}/0/tool_executed/tool_name",
        "lookup_customer",
        None,
    ),
    (
        "tool-in-sequencing",
        case_with(
            {
                "sequencing": [
                    {"tool_executed": {"tool_name": "order_replacment", "source": "local"}}
                ]
            }
        ),
        "unknown-tool",
        f"{A}/0/sequencing/0/tool_executed/tool_name",
        "order_replacment",
        "did you mean 'order_replacement'",
    ),
    (
        "tool-argument",
        case_with(
            {
                "tool_executed": {
                    "tool_name": "place_replacement_order",
                    "source": "local",
                    "arguments": {"shiping": "standard"},
                }
            }
        ),
        "unknown-tool-argument",
        f"{A}/0/tool_executed/arguments/shiping",
        "shiping",
        "did you mean 'shipping'",
    ),
    (
        "tool-context-is-not-an-argument",
        case_with(
            {
                "tool_executed": {
                    "tool_name": "card_replace_eligibility",
                    "source": "local",
                    "arguments": {"context": {}},
                }
            }
        ),
        "unknown-tool-argument",
        f"{A}/0/tool_executed/arguments/context",
        "context",
        None,
    ),
    (
        "response",
        case_with({"bot_uttered": {"utter_name": "utter_order_placd"}}),
        "unknown-response",
        f"{A}/0/bot_uttered/utter_name",
        "utter_order_placd",
        "did you mean 'utter_order_placed'",
    ),
    (
        "tool-in-sequencing",
        case_with(
            {
                "sequencing": [
                    {"tool_executed": {"tool_name": "place_replacment_order", "source": "local"}}
                ]
            }
        ),
        "unknown-tool",
        f"{A}/0/sequencing/0/tool_executed/tool_name",
        "place_replacment_order",
        "did you mean 'place_replacement_order'",
    ),
    (
        "expected-tool",
        expected_tools({"tool_called": "place_replacment_order", "gate": True}),
        "unknown-tool",
        "/scenario/goals/expected_tools/0/tool_called",
        "place_replacment_order",
        "did you mean 'place_replacement_order'",
    ),
    (
        "expected-tool-in-group",
        expected_tools(
            {"tool_group": [{"tool_called": "place_replacement_order"}, {"tool_called": "ordr"}]}
        ),
        "unknown-tool",
        "/scenario/goals/expected_tools/0/tool_group/1/tool_called",
        "ordr",
        None,
    ),
    (
        "expected-tool-as-map",
        expected_tools({"tool_called": {"tool_name": "lookup_custmer"}}),
        "unknown-tool",
        "/scenario/goals/expected_tools/0/tool_called/tool_name",
        "lookup_custmer",
        "did you mean 'lookup_customer'",
    ),
    (
        "regex",
        case_with({"bot_did_not_utter": {"text_matches": "fraud (review"}}),
        "bad-regex",
        f"{A}/0/bot_did_not_utter/text_matches",
        "fraud (review",
        "escape",
    ),
    (
        "not-seed-slot",
        case_with(slots={"authenticated": True}),
        "not-seed-slot",
        f"{SLOTS}/authenticated",
        "authenticated",
        "seed: true",
    ),
    (
        "not-seed-slot-with-prefix",
        case_with(slots={"project.authenticated": True}),
        "not-seed-slot",
        f"{SLOTS}/project.authenticated",
        "project.authenticated",
        None,
    ),
]


@pytest.mark.parametrize(
    ("data", "code", "path", "value", "suggestion"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_code_fires_alone(
    data: dict[str, Any], code: str, path: str, value: Any, suggestion: str | None
) -> None:
    findings = findings_for(data)
    assert [(f.code, f.path) for f in findings] == [(code, path)], findings
    (finding,) = findings
    assert finding.value == value
    assert finding.message
    if suggestion is not None:
        assert finding.suggestion is not None and suggestion in finding.suggestion, finding


def test_every_mantle_code_is_covered() -> None:
    mantle_codes = {
        "unknown-skill",
        "unknown-block",
        "unknown-step",
        "unknown-memory",
        "memory-type",
        "memory-enum",
        "unknown-tool",
        "unknown-tool-argument",
        "unknown-response",
        "bad-regex",
        "not-seed-slot",
    }
    assert mantle_codes <= set(FINDING_CODES)
    assert {case[2] for case in CASES} == mantle_codes


def test_severities() -> None:
    by_code = {case[2]: findings_for(case[1])[0] for case in CASES}
    assert by_code["not-seed-slot"].severity == "warning"
    assert {f.severity for c, f in by_code.items() if c != "not-seed-slot"} == {"error"}


def test_repair_context_is_attached() -> None:
    def first(case_id: str) -> Finding:
        case = next(c for c in CASES if c[0] == case_id)
        return findings_for(case[1])[0]

    assert "card_replace" in first("skill").context["candidates"]
    assert first("slot-key").context.get("key") is True
    assert first("tool-argument").context.get("key") is True
    assert first("bool-value").context == {"coerce_to": "bool"}
    assert first("slot-value").context == {"coerce_to": "int"}
    assert first("text-value").context == {}
    enum = first("enum-case").context
    assert enum["match"] == "case" and "damaged" in enum["candidates"]
    assert first("mcp-tool-as-local").context["candidates"] == []
    assert "context" not in first("tool-context-is-not-an-argument").context["candidates"]


@pytest.mark.parametrize(
    "assertion",
    [
        {"skill_cancelled": {"skill_id": CR, "step_id": "autonomous"}},
        {"skill_resumed": {"skill_id": CR, "step_id": "choose_shipping"}},
        {"memory_was_set": [{"name": "system.anything.at_all"}]},
        {"memory_was_set": [{"name": "card_replace.eligibility_checked", "value": True}]},
        {"memory_was_set": [{"name": "project.authenticated", "value": False}]},
        {"tool_executed": {"tool_name": "cancel", "source": "local", "skill_id": CR}},
        {
            "tool_executed": {
                "tool_name": "search_knowledge",
                "source": "local",
                "arguments": {"query": "fees"},
            }
        },
        {
            "tool_executed": {
                "tool_name": "get_balance",
                "source": "local",
                "arguments": {"account_type": "savings"},
            }
        },
        {
            "tool_executed": {
                "tool_name": "lookup_customer",
                "source": "mcp",
                "mcp_server": "crm",
                "skill_id": CR,
                "arguments": {"anything": 1},
            }
        },
        {"bot_uttered": {"utter_name": "utter_balance"}},
        {"bot_uttered": {"text_matches": r"order \w+ placed"}},
    ],
)
def test_valid_references_are_accepted(assertion: dict[str, Any]) -> None:
    assert findings_for(case_with(assertion)) == []


@pytest.mark.parametrize(
    "slots",
    [
        {"caller_phone": "+15550100"},
        {"project.preferred_language": "en"},
        {"card_replace.replacement_reason": "lost", "card_replace.cards_shown": 3},
        {"system.channel": "voice"},
    ],
)
def test_valid_initial_slots_are_accepted(slots: dict[str, Any]) -> None:
    assert findings_for(case_with(slots=slots)) == []


def test_float_field_accepts_int_but_not_bool() -> None:
    project = bank_project()
    skill = project.mantle.skills[CR]
    skill.memory["fee"] = skill.memory["cards_shown"].model_copy(
        update={"name": "fee", "type": "float"}
    )
    ok = case_with({"memory_was_set": [{"name": "card_replace.fee", "value": 5}]})
    bad = case_with({"memory_was_set": [{"name": "card_replace.fee", "value": False}]})
    assert lint_mantle(ok, project) == []
    (finding,) = lint_mantle(bad, project)
    assert (finding.code, finding.context) == ("memory-type", {"coerce_to": "float"})


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "scenario",
        3,
        {"scenario": None},
        {"scenario": []},
        {"scenario": {"goals": []}},
        {"scenario": {"goals": {"assertions": "x"}}},
        {"scenario": {"goals": {"assertions": [None, 1, "skill_activated", [], {}]}}},
        {"scenario": {"setup": {"initial_slots": [1, 2]}}},
        {"scenario": {"setup": {"initial_slots": {1: 2, "": 3, None: None}}}},
        case_with(
            {"skill_activated": None},
            {"skill_cancelled": {"skill_id": 3}},
            {"ordered_block_completed": {"skill_id": CR, "block_id": ["x"]}},
            {"memory_was_set": [None, {"name": None}, {"name": {"a": 1}}, "x"]},
            {"memory_was_cleared": {"name": "x"}},
            {"tool_executed": {"tool_name": None, "source": "local"}},
            {"tool_executed": {"tool_name": "x", "source": "mcp", "mcp_server": []}},
            {
                "tool_executed": {
                    "tool_name": "order_replacement",
                    "source": "local",
                    "arguments": [1],
                }
            },
            {"tools_within_one_turn": {"calls": [None, {"tool_executed": 5}]}},
            {"bot_uttered": {"utter_name": 5, "text_matches": 7}},
            {"sequencing": {"a": 1}},
            {"sequencing": [{"sequencing": [{"skill_activated": {"skill_id": "x"}}]}]},
        ),
    ],
)
def test_lint_never_raises_on_malformed_data(data: Any) -> None:
    assert isinstance(lint_mantle(data, PROJECT), list)


def test_lint_without_mantle_definitions_is_empty() -> None:
    project = bank_project().model_copy(update={"mantle": None})
    assert lint_mantle(case_with({"skill_activated": {"skill_id": "nope"}}), project) == []


BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"


@pytest.mark.skipif(not (BANK / "eval" / "scenarios").is_dir(), reason="no bank example")
def test_bank_example_scenarios_validate_clean() -> None:
    reports = validate_paths([BANK / "eval" / "scenarios"])
    assert reports
    for report in reports:
        assert report.dialect == "mantle"
        assert report.findings == [], report.to_json()
