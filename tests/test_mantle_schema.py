"""Mantle scenario schema, model and dialect: valid documents pass clean, each invalid one is
reported once, at the exact key, with a readable message and line."""

from __future__ import annotations

import copy
import textwrap
from pathlib import Path
from typing import Any

import pydantic
import pytest
from mantle_fixtures import bank_project, clean_case

from evalcore.dialects import detect_dialect, get_dialect
from evalcore.dialects.mantle import MantleCase
from evalcore.documents import parse_text
from evalcore.validation import validate_document

MANTLE = get_dialect("mantle")
PROJECT = bank_project()

# --- valid documents (the seed page and the reference) ----------------------------------

SEED_BASIC = """\
scenario:
  name: Customer replaces a damaged card
  simulation_context: >
    You are a calm customer whose card has a cracked chip. Ask to replace it.
  goals:
    criteria:
      - The agent confirms the replacement only after the order is submitted
    assertions:
      - skill_completed:
          skill_id: card_replace
"""

SEED_FULL = """\
scenario:
  name: Customer replaces a damaged card

  simulation_context: >
    You are a calm customer whose card has a cracked chip. Ask to replace the
    card. When the agent asks what happened, say it is damaged. Confirm when
    the order summary is read back. Do not bring up anything else.

  setup:
    initial_slots:
      project.preferred_language: en

  goals:
    criteria:
      - The agent does not claim the order is placed until it has submitted it
      - The agent does not ask for the replacement reason twice
    assertions:
      - skill_completed:
          skill_id: card_replace
      - memory_was_set:
          - name: card_replace.replacement_reason
            value: damaged
      - tool_executed:
          tool_name: order_replacement
          source: local
"""

SEED_SEQUENCING = """\
scenario:
  name: Order after reason
  simulation_context: You are a customer with a damaged card.
  goals:
    assertions:
      - sequencing:
          - memory_was_set: card_replace.replacement_reason
          - tool_executed:
              tool_name: order_replacement
              source: local
      - bot_did_not_utter:
          utter_name: utter_cannot_help
"""

REFERENCE_EXAMPLE = """\
scenario:
  name: Customer replaces a damaged card and completes the order
  type: happy_path
  simulation_context: >
    You are a calm, logged-in customer whose Riverbend Everyday card has a cracked
    chip. Ask to replace it; when asked why, say it is damaged. Pick that card,
    choose standard shipping, confirm the summary, then stop.
  setup:
    initial_slots:
      project.caller_phone: "+15550100"
  goals:
    criteria:
      - The agent does not claim the order is placed until it has actually submitted it
      - The agent treats the reason as damaged and does not run a fraud review
    assertions:
      - skill_activated: {skill_id: card_replace}
      - skill_completed: {skill_id: card_replace}
      - ordered_block_completed: {skill_id: card_replace, block_id: pick_card}
      - memory_was_set: [{name: card_replace.replacement_reason, value: damaged}]
      - memory_was_not_set: [{name: card_replace.fraud_reported}]
      - tool_executed: {tool_name: place_replacement_order, source: local, is_error: false,
                        arguments: {shipping: standard}}
      - bot_uttered: {utter_name: utter_order_placed}
      - bot_did_not_utter: {text_matches: "fraud"}
      - sequencing:
          - skill_activated: {skill_id: card_replace}
          - memory_was_set: card_replace.replacement_reason
          - tool_executed: {tool_name: place_replacement_order, source: local}
          - skill_completed: {skill_id: card_replace}
"""

#: What Rasa's loader accepts and its run does not fail on, casegen accepts too
#: (tests/test_rasa_recorded_scenarios.py holds the whole comparison).
RASA_ALLOWS = """\
scenario:
  name: ''
  type: null
  simulation_context: ''
  setup:
    initial_slots:
      project.caller_phone:
  goals:
    criteria: ['']
    expected_tools:
    assertions:
      - skill_cancelled: {skill_id: card_replace, step_id: null}
      - bot_uttered: {buttons: [{payload: /affirm}]}
      - bot_did_not_utter: {buttons: []}
      - tool_executed: {tool_name: t, source: mcp, mcp_server: '', is_error: null}
      - sequencing: []
"""

VALID = {
    "seed-basic": SEED_BASIC,
    "seed-full": SEED_FULL,
    "seed-sequencing": SEED_SEQUENCING,
    "reference": REFERENCE_EXAMPLE,
}


def check(text: str) -> list[Any]:
    doc = parse_text(text, "yaml", path=Path("eval/scenarios/case.yml"))
    return validate_document(doc, MANTLE, PROJECT)


@pytest.mark.parametrize("text", VALID.values(), ids=VALID.keys())
def test_reference_documents_validate_clean(text: str) -> None:
    assert check(text) == []


def test_what_rasa_allows_passes_the_schema_and_the_model() -> None:
    doc = parse_text(RASA_ALLOWS, "yaml", path=Path("eval/scenarios/case.yml"))
    assert [f for f in validate_document(doc, MANTLE, None) if f.severity == "error"] == []
    MANTLE.validate_model(doc.data)


def test_clean_fixture_case_validates_clean() -> None:
    assert check(MANTLE.dump(clean_case())) == []


# --- invalid documents ------------------------------------------------------------------

HEAD = """\
scenario:
  name: A case
  simulation_context: You are a customer.
  goals:
    assertions:
"""  # assertion lines start at line 6

A = "/scenario/goals/assertions"


def with_assertions(lines: str) -> str:
    return HEAD + textwrap.indent(textwrap.dedent(lines), "      ")


# id, text, code, path, line, words expected in the message, words in the suggestion
INVALID: list[tuple[str, str, str, str, int, str, str | None]] = [
    (
        "step-id-on-skill-activated",
        with_assertions("- skill_activated: {skill_id: card_replace, step_id: select_card}\n"),
        "schema",
        f"{A}/0/skill_activated/step_id",
        6,
        "step_id is not allowed",
        None,
    ),
    (
        "mcp-server-with-local",
        with_assertions(
            "- tool_executed:\n"
            "    tool_name: place_replacement_order\n"
            "    source: local\n"
            "    mcp_server: crm\n"
        ),
        "schema",
        f"{A}/0/tool_executed/mcp_server",
        9,
        "only allowed with source: mcp",
        None,
    ),
    (
        "mcp-without-server",
        with_assertions("- tool_executed: {tool_name: lookup_customer, source: mcp}\n"),
        "schema",
        f"{A}/0/tool_executed/mcp_server",
        6,
        "source: mcp needs mcp_server",
        "add 'mcp_server'",
    ),
    (
        "one-call-within-one-turn",
        with_assertions(
            "- tools_within_one_turn:\n"
            "    calls:\n"
            "      - tool_executed: {tool_name: lookup_customer, source: mcp, mcp_server: crm}\n"
            "    allow_extra_calls: false\n"
        ),
        "schema",
        f"{A}/0/tools_within_one_turn/calls",
        7,
        "at least two calls",
        None,
    ),
    (
        "missing-allow-extra-calls",
        with_assertions(
            "- tools_within_one_turn:\n"
            "    calls:\n"
            "      - tool_executed: {tool_name: lookup_customer, source: mcp, mcp_server: crm}\n"
            "      - tool_executed: {tool_name: order_replacement, source: local}\n"
        ),
        "schema",
        f"{A}/0/tools_within_one_turn/allow_extra_calls",
        6,
        "missing required key 'allow_extra_calls'",
        "add 'allow_extra_calls'",
    ),
    (
        "memory-was-cleared-with-value",
        with_assertions(
            "- memory_was_cleared:\n    - name: card_replace.shipping\n      value: express\n"
        ),
        "schema",
        f"{A}/0/memory_was_cleared/0/value",
        8,
        "value is not allowed",
        None,
    ),
    (
        "value-null",
        with_assertions(
            "- memory_was_set:\n    - name: card_replace.replacement_reason\n      value: null\n"
        ),
        "schema",
        f"{A}/0/memory_was_set/0/value",
        8,
        "null is not allowed",
        None,
    ),
    (
        "memory-was-not-set-in-sequencing",
        with_assertions(
            "- sequencing:\n"
            "    - skill_activated: {skill_id: card_replace}\n"
            "    - memory_was_not_set: [{name: card_replace.fraud_reported}]\n"
        ),
        "schema",
        f"{A}/0/sequencing/1/memory_was_not_set",
        8,
        "not allowed inside sequencing",
        None,
    ),
    (
        "tools-within-one-turn-in-sequencing",
        with_assertions(
            "- sequencing:\n"
            "    - tools_within_one_turn:\n"
            "        calls:\n"
            "          - tool_executed: {tool_name: lookup_customer, source: mcp, "
            "mcp_server: crm}\n"
            "          - tool_executed: {tool_name: order_replacement, source: local}\n"
            "        allow_extra_calls: true\n"
        ),
        "schema",
        f"{A}/0/sequencing/0/tools_within_one_turn",
        7,
        "not allowed inside sequencing",
        None,
    ),
    (
        "map-form-memory-was-set-in-sequencing",
        with_assertions(
            "- sequencing:\n    - memory_was_set: [{name: card_replace.replacement_reason}]\n"
        ),
        "schema",
        f"{A}/0/sequencing/0/memory_was_set",
        7,
        "plain memory name",
        None,
    ),
    (
        "nested-sequencing",
        with_assertions(
            "- sequencing:\n"
            "    - sequencing:\n"
            "        - skill_activated: {skill_id: card_replace}\n"
        ),
        "schema",
        f"{A}/0/sequencing/0/sequencing",
        7,
        "list the checks in one sequencing",
        None,
    ),
    (
        "two-checks-in-one-item",
        with_assertions(
            "- skill_activated: {skill_id: card_replace}\n"
            "  skill_completed: {skill_id: card_replace}\n"
        ),
        "schema",
        f"{A}/0",
        6,
        "exactly one check",
        None,
    ),
    (
        "unknown-assertion-type",
        with_assertions("- skill_complete: {skill_id: card_replace}\n"),
        "schema",
        f"{A}/0/skill_complete",
        6,
        "unknown key 'skill_complete'",
        "did you mean 'skill_completed'",
    ),
    (
        "calm-assertion-on-mantle",
        with_assertions("- slot_was_set: [{name: card_replace.shipping}]\n"),
        "schema",
        f"{A}/0/slot_was_set",
        6,
        "unknown key 'slot_was_set'",
        None,
    ),
    (
        "unknown-top-level-key",
        "metadata: {owner: qa}\n" + HEAD + "      - skill_completed: {skill_id: card_replace}\n",
        "schema",
        "/metadata",
        1,
        "unknown key 'metadata'",
        "scenario",
    ),
    (
        "bad-scenario-type",
        "scenario:\n  name: A case\n  type: happy\n  simulation_context: You are a customer.\n",
        "schema",
        "/scenario/type",
        3,
        "'happy' is not one of the allowed values",
        "did you mean 'happy_path'",
    ),
    (
        "missing-simulation-context",
        "scenario:\n  name: A case\n  type: sad_path\n",
        "schema",
        "/scenario/simulation_context",
        1,
        "missing required key",
        None,
    ),
    (
        "name-read-as-a-number",  # YAML 1.2 as Rasa reads it: 1_000 is an int
        "scenario:\n  name: 1_000\n  simulation_context: You are a customer.\n",
        "schema",
        "/scenario/name",
        2,
        "expected string, got integer",
        None,
    ),
    (
        "bot-uttered-without-keys",
        with_assertions("- bot_uttered: {}\n"),
        "schema",
        f"{A}/0/bot_uttered",
        6,
        "at least one of utter_name",
        None,
    ),
    (
        "empty-memory-was-set",
        with_assertions("- memory_was_set: []\n"),
        "schema",
        f"{A}/0/memory_was_set",
        6,
        "",
        None,
    ),
    (
        "session-prefix",
        with_assertions("- memory_was_set: [{name: session.card_replace.shipping}]\n"),
        "schema",
        f"{A}/0/memory_was_set/0/name",
        6,
        "never take a session. prefix",
        None,
    ),
    (
        "bad-source",
        with_assertions("- tool_executed: {tool_name: order_replacement, source: remote}\n"),
        "schema",
        f"{A}/0/tool_executed/source",
        6,
        "'remote' is not one of",
        None,
    ),
    (
        "is-error-as-text",
        with_assertions(
            "- tool_executed: {tool_name: order_replacement, source: local, is_error: 'no'}\n"
        ),
        "schema",
        f"{A}/0/tool_executed/is_error",
        6,
        "expected boolean or null, got string",
        None,
    ),
    (
        "empty-initial-slot-name",
        "scenario:\n  name: A case\n  simulation_context: You are a customer.\n"
        "  setup:\n    initial_slots:\n      '': 1\n",
        "schema",
        "/scenario/setup/initial_slots/",
        6,
        "should be non-empty",
        None,
    ),
    (
        "duplicate-yaml-key",
        "scenario:\n  name: A case\n  name: Another name\n  simulation_context: Customer.\n",
        "parse",
        "/scenario/name",
        3,
        "duplicate key 'name' (first at line 2)",
        None,
    ),
    (
        "yaml-syntax-error",
        "scenario:\n  name: A case\n  simulation_context: [unclosed\n  goals: {}\n",
        "parse",
        "",
        4,
        "invalid YAML",
        None,
    ),
]


@pytest.mark.parametrize(
    ("text", "code", "path", "line", "message", "suggestion"),
    [case[1:] for case in INVALID],
    ids=[case[0] for case in INVALID],
)
def test_invalid_document_is_reported_once_at_the_key(
    text: str, code: str, path: str, line: int, message: str, suggestion: str | None
) -> None:
    errors = [f for f in check(text) if f.severity == "error"]
    assert [(f.code, f.path) for f in errors] == [(code, path)], errors
    (finding,) = errors
    assert finding.line == line
    assert message in finding.message
    if suggestion is not None:
        assert finding.suggestion is not None and suggestion in finding.suggestion


def test_enough_distinct_invalid_documents() -> None:
    assert len({case[0] for case in INVALID}) >= 15


def test_schema_declares_the_canonical_key_order() -> None:
    scenario = MANTLE.schema["properties"]["scenario"]["properties"]
    assert list(scenario) == ["name", "type", "simulation_context", "setup", "goals"]
    assert list(scenario["goals"]["properties"]) == ["criteria", "assertions", "expected_tools"]
    tool = MANTLE.schema["$defs"]["tool_executed"]["properties"]
    assert list(tool) == ["tool_name", "source", "mcp_server", "skill_id", "arguments", "is_error"]


def test_dump_orders_keys_by_schema() -> None:
    scrambled = {
        "scenario": {
            "goals": {
                "assertions": [
                    {
                        "tool_executed": {
                            "is_error": False,
                            "source": "mcp",
                            "tool_name": "lookup_customer",
                            "mcp_server": "crm",
                        }
                    }
                ],
                "criteria": ["x"],
            },
            "simulation_context": "You are a customer.",
            "name": "A case",
        }
    }
    assert MANTLE.dump(scrambled) == textwrap.dedent("""\
        scenario:
          name: A case
          simulation_context: You are a customer.
          goals:
            criteria:
              - x
            assertions:
              - tool_executed:
                  tool_name: lookup_customer
                  source: mcp
                  mcp_server: crm
                  is_error: false
        """)


# --- the pydantic model -----------------------------------------------------------------


def _load(text: str) -> Any:
    return parse_text(text, "yaml").data


ROUND_TRIP = {**{k: _load(v) for k, v in VALID.items()}, "fixture": clean_case()}


@pytest.mark.parametrize("data", ROUND_TRIP.values(), ids=ROUND_TRIP.keys())
def test_model_round_trips_valid_documents(data: Any) -> None:
    case = MantleCase.model_validate(copy.deepcopy(data))
    assert case.model_dump(exclude_none=True, by_alias=True) == data
    assert MANTLE.validate_model(data) == case


def test_model_keeps_value_types() -> None:
    data = clean_case()
    dumped = MantleCase.model_validate(data).model_dump(exclude_none=True)
    values = [
        e.get("value") for e in dumped["scenario"]["goals"]["assertions"][5]["memory_was_set"]
    ]
    assert values[:3] == ["damaged", False, 2]
    assert type(values[2]) is int


@pytest.mark.parametrize(
    "assertion",
    [
        {"tool_executed": {"tool_name": "lookup_customer", "source": "mcp"}},
        {"tool_executed": {"tool_name": "x", "source": "local", "mcp_server": "crm"}},
        {"skill_activated": {"skill_id": "card_replace", "step_id": "select_card"}},
        {"skill_activated": {"skill_id": "a"}, "skill_completed": {"skill_id": "a"}},
        {"bot_uttered": {}},
        {"sequencing": [{"memory_was_not_set": [{"name": "card_replace.shipping"}]}]},
        {"sequencing": [{"memory_was_set": [{"name": "card_replace.shipping"}]}]},
        {
            "tools_within_one_turn": {
                "calls": [{"tool_executed": {"tool_name": "x", "source": "local"}}],
                "allow_extra_calls": True,
            }
        },
        {"memory_was_cleared": [{"name": "card_replace.shipping", "value": "x"}]},
        {"flow_started": {"flow_ids": ["x"]}},
    ],
)
def test_model_rejects_what_the_schema_rejects(assertion: dict[str, Any]) -> None:
    data = {
        "scenario": {"name": "n", "simulation_context": "c", "goals": {"assertions": [assertion]}}
    }
    with pytest.raises(pydantic.ValidationError):
        MantleCase.model_validate(data)


def test_model_json_schema_is_available_for_structured_output() -> None:
    schema = MantleCase.model_json_schema()
    assert schema["required"] == ["scenario"]
    assert "Scenario" in schema["$defs"]


# --- the dialect ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "path", "expected"),
    [
        ({"scenario": {}}, "anywhere/case.yml", True),
        (None, "bank/eval/scenarios/broken.yml", True),
        (None, "eval/scenarios/happy_path/broken.yaml", True),
        (None, "generated_cases/mantle/x.yml", True),
        ({"name": "x"}, "bank/eval/scenarios/x.yml", True),
        (None, "bank/scenarios/x.yml", False),
        (None, "mantle/x.yml", False),
        ({"name": "x"}, "config/x.yml", False),
        ([1, 2], "notes/x.yml", False),
    ],
)
def test_sniff(data: Any, path: str, expected: bool) -> None:
    assert MANTLE.sniff(data, Path(path)) is expected


def test_detect_dialect_picks_mantle() -> None:
    assert detect_dialect({"scenario": {"name": "x"}}, Path("x.yml")) is MANTLE


def test_case_title() -> None:
    assert MANTLE.case_title(clean_case()) == "Customer replaces a damaged card"
    assert MANTLE.case_title({"scenario": {"name": 3}}) is None
    assert MANTLE.case_title(None) is None


def test_bot_did_not_utter_has_no_place_in_a_sequence() -> None:
    """The assertion engine cannot place an absence in order, so the schema says so first."""
    data = {
        "scenario": {
            "name": "n",
            "simulation_context": "c",
            "goals": {
                "assertions": [
                    {"sequencing": [{"bot_did_not_utter": {"utter_name": "utter_order_placed"}}]}
                ]
            },
        }
    }
    [finding] = get_dialect("mantle").schema_findings(data)
    assert finding.path == "/scenario/goals/assertions/0/sequencing/0/bot_did_not_utter"
    assert "make it its own assertion" in finding.message
