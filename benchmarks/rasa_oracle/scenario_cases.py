"""The generated scenarios that check (b) runs through Rasa's `load_scenario` and casegen.

Valid scenarios that use every key and every assertion kind Rasa's scenario schema knows (the
Mantle ones and the CALM ones a Mantle run cannot satisfy), each mutated one node at a time
(removed, null, empty, of another type, with an unknown key beside it), and YAML corners
written as text: YAML 1.1 and 1.2 scalars, repeated keys, `${VAR}` set and unset, anchors,
tags, several documents. Every case is generated: nothing here is a verdict, only inputs.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import yaml

#: Environment variables the cases refer to, set on both sides; `${ORACLE_UNSET}` is unset.
ENVIRON = {
    "ORACLE_SET": "hello",
    "ORACLE_TYPE": "happy_path",
    "ORACLE_EMPTY": "",
    "ORACLE_NUMBER": "7",
}
UNSET = ("ORACLE_UNSET",)

#: The rule tag of cases whose only assertion is a CALM one (flows, slots, actions,
#: generative responses): Rasa's schema accepts them, a Mantle run never produces their events.
CALM = "calm-assertion-on-mantle"
#: The rule tag of cases with a value Rasa's round-trip reader keeps as a tagged object
#: (ruamel's TaggedScalar) instead of text: a plain `=` or `<<` value, an explicit `!!str`.
TAGGED = "yaml-tagged-scalar"
_TAGGED_SCALARS = {"=", "<<", "!!str x", "!!str 1"}
#: The rule tag of cases naming memory `session.<skill>.<key>`: `session.` is the namespace of
#: conditions in skill prose; memory events name `<skill>.<key>`, so such a check never matches.
SESSION = "memory-session-prefix"


@dataclass(frozen=True)
class Case:
    """One scenario file: its text, what it probes and, for CALM keys, the rule it falls under."""

    id: str
    text: str
    probe: str
    rule: str = ""


SKILL = {"skill_id": "billing"}
SKILL_STEP = {"skill_id": "billing", "step_id": "ask_amount"}
BLOCK = {"skill_id": "billing", "block_id": "collect"}
BLOCK_STEP = {"skill_id": "billing", "block_id": "collect", "step_id": "ask_amount"}
LOCAL_TOOL = {
    "tool_name": "lookup",
    "source": "local",
    "skill_id": "billing",
    "arguments": {"account": "A-1", "limit": 3},
    "is_error": False,
}
MCP_TOOL = {"tool_name": "search", "source": "mcp", "mcp_server": "docs"}
PLAIN_TOOL = {"tool_name": "pay", "source": "local"}
BOT = {
    "utter_name": "utter_greet",
    "text_matches": "hello.*",
    "buttons": [{"title": "Yes", "payload": "/affirm"}],
}

#: One valid body per assertion kind of Rasa's scenario schema (kind, body, CALM?).
ASSERTIONS: list[tuple[str, Any, bool]] = [
    ("skill_activated", SKILL, False),
    ("skill_completed", SKILL, False),
    ("skill_cancelled", SKILL_STEP, False),
    ("skill_interrupted", SKILL_STEP, False),
    ("skill_resumed", SKILL_STEP, False),
    ("ordered_block_entered", BLOCK, False),
    ("ordered_block_completed", BLOCK_STEP, False),
    ("ordered_block_cancelled", BLOCK_STEP, False),
    ("ordered_block_interrupted", BLOCK_STEP, False),
    ("ordered_block_resumed", BLOCK_STEP, False),
    ("memory_was_set", [{"name": "billing.amount", "value": 20}], False),
    ("memory_was_not_set", [{"name": "billing.amount", "value": "x"}], False),
    ("memory_was_cleared", [{"name": "billing.amount"}], False),
    ("tool_executed", LOCAL_TOOL, False),
    ("tool_executed", MCP_TOOL, False),
    (
        "tools_within_one_turn",
        {
            "calls": [{"tool_executed": PLAIN_TOOL}, {"tool_executed": MCP_TOOL}],
            "allow_extra_calls": False,
            "ordered": True,
        },
        False,
    ),
    ("bot_uttered", BOT, False),
    ("bot_did_not_utter", BOT, False),
    ("flow_started", "transfer_money", True),
    ("flow_started", {"operator": "any", "flow_ids": ["a", "b"]}, True),
    ("flow_completed", {"flow_id": "transfer_money", "flow_step_id": "done"}, True),
    ("flow_cancelled", {"flow_id": "transfer_money", "flow_step_id": "ask"}, True),
    ("pattern_clarification_contains", ["a", "b"], True),
    ("pattern_clarification_contains", {"operator": "all", "flow_ids": ["a"]}, True),
    ("action_executed", "utter_greet", True),
    ("slot_was_set", [{"name": "amount", "value": 3}], True),
    ("slot_was_not_set", [{"name": "amount"}], True),
    (
        "generative_response_is_relevant",
        {"threshold": 0.8, "utter_name": "utter_x", "utter_source": "llm"},
        True,
    ),
    (
        "generative_response_is_grounded",
        {"threshold": 0.8, "utter_name": "utter_x", "ground_truth": "yes", "utter_source": "s"},
        True,
    ),
]

#: One valid payload per sequencing step kind (kind, payload, CALM?).
SEQUENCING_STEPS: list[tuple[str, Any, bool]] = [
    ("skill_activated", SKILL, False),
    ("skill_completed", SKILL, False),
    ("skill_cancelled", SKILL_STEP, False),
    ("skill_interrupted", SKILL_STEP, False),
    ("skill_resumed", SKILL_STEP, False),
    ("ordered_block_entered", BLOCK, False),
    ("ordered_block_completed", BLOCK_STEP, False),
    ("ordered_block_cancelled", BLOCK_STEP, False),
    ("ordered_block_interrupted", BLOCK_STEP, False),
    ("ordered_block_resumed", BLOCK_STEP, False),
    ("memory_was_set", "billing.amount", False),
    ("memory_was_cleared", "billing.amount", False),
    ("tool_executed", {**PLAIN_TOOL, "is_error": True}, False),
    ("tool_executed", MCP_TOOL, False),
    ("action_executed", "utter_greet", True),
    ("slot_was_set", "amount", True),
    ("flow_started", "transfer_money", True),
    ("flow_completed", "transfer_money", True),
    ("flow_cancelled", "transfer_money", True),
    ("flow_interrupted", "transfer_money", True),
]

#: Everything a scenario may hold, each key once.
FULL_SCENARIO: dict[str, Any] = {
    "scenario": {
        "name": "Pay a bill",
        "type": "happy_path",
        "simulation_context": "You want to pay your bill.",
        "setup": {"initial_slots": {"billing.amount": 20, "project.tier": "gold"}},
        "goals": {
            "criteria": ["The bot confirms the payment."],
            "assertions": [{"skill_completed": SKILL}],
            "expected_tools": [
                {"tool_called": "lookup", "gate": True},
                {
                    "tool_group": [
                        {"tool_called": {"tool_name": "pay", "arguments": {"amount": 20}}},
                        {"ordered": True},
                        {"gate": False},
                    ]
                },
            ],
        },
    }
}

#: What a node is replaced with: nothing, empty values, each JSON type.
REPLACEMENTS: list[tuple[str, Any]] = [
    ("null", None),
    ("empty string", ""),
    ("blank string", "  "),
    ("int", 1),
    ("bool", True),
    ("string", "text"),
    ("empty list", []),
    ("empty map", {}),
]


def minimal(assertions: list[Any]) -> dict[str, Any]:
    return {
        "scenario": {
            "name": "n",
            "simulation_context": "c",
            "goals": {"assertions": assertions},
        }
    }


def dump(data: Any) -> str:
    """YAML as a writer of scenarios would write it (block style, quoted where 1.1 needs it)."""
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000)


def _nodes(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _nodes(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _nodes(value, (*path, index))


def _with(data: Any, path: tuple[Any, ...], action: str, value: Any = None) -> Any:
    copied = copy.deepcopy(data)
    parent = copied
    for part in path[:-1]:
        parent = parent[part]
    if action == "set":
        parent[path[-1]] = copy.deepcopy(value)
    elif action == "delete":
        del parent[path[-1]]
    elif action == "unknown":
        parent[path[-1]]["unknown_key"] = 1
    return copied


def mutations(data: Any, under: tuple[Any, ...]) -> Iterator[tuple[str, Any]]:
    """`data` changed at one node at or below `under`: every way a node can be wrong."""
    for path, value in _nodes(data):
        if path[: len(under)] != under or len(path) < len(under):
            continue
        where = "/".join(str(p) for p in path[len(under) - 1 :])
        if path and isinstance(path[-1], str):
            yield f"{where} removed", _with(data, path, "delete")
        if path and isinstance(path[-1], int) and len(path) > len(under):
            yield f"{where} removed", _with(data, path, "delete")
        if isinstance(value, dict):
            yield f"{where} with an unknown key", _with(data, path, "unknown")
        for label, replacement in REPLACEMENTS:
            if replacement == value and type(replacement) is type(value):
                continue
            if label == "blank string" and not isinstance(value, str):
                continue
            yield f"{where} {label}", _with(data, path, "set", replacement)
        if isinstance(value, list) and value:
            yield f"{where} twice", _with(data, path, "set", value + value[-1:])


def structured_cases() -> Iterator[Case]:
    """Every assertion kind and sequencing step, valid and mutated; the full scenario mutated."""
    under = ("scenario", "goals", "assertions", 0)
    for kind, body, calm in ASSERTIONS:
        base = minimal([{kind: body}])
        rule = CALM if calm else ""
        yield Case("", dump(base), f"{kind}: valid", rule)
        for label, mutated in mutations(base, under):
            yield Case("", dump(mutated), f"{kind}: {label}", rule)
    seq_under = (*under, "sequencing", 0)
    for kind, payload, calm in SEQUENCING_STEPS:
        base = minimal([{"sequencing": [{kind: payload}]}])
        rule = CALM if calm else ""
        yield Case("", dump(base), f"sequencing {kind}: valid", rule)
        for label, mutated in mutations(base, seq_under):
            yield Case("", dump(mutated), f"sequencing {kind}: {label}", rule)
    base = minimal([{"sequencing": [{"skill_activated": SKILL}]}])
    for label, mutated in mutations(base, under):
        yield Case("", dump(mutated), f"sequencing: {label}")
    for kind, body, calm in ASSERTIONS:
        if kind in {"tools_within_one_turn", "sequencing"}:
            continue
        yield Case(
            "",
            dump(minimal([{"sequencing": [{kind: body}]}])),
            f"sequencing holds {kind} as an assertion body",
            CALM if calm else "",
        )
    full = copy.deepcopy(FULL_SCENARIO)
    full["scenario"]["goals"]["assertions"] = [{"skill_completed": SKILL}]
    yield Case("", dump(full), "full scenario: valid")
    for label, mutated in mutations(full, ("scenario",)):
        if "/assertions/0/" in label + "/":
            continue
        yield Case("", dump(mutated), f"scenario: {label}")


_HEAD = "scenario:\n  name: {name}\n  simulation_context: {context}\n"
_ONE = _HEAD + "  goals:\n    assertions:\n      - {assertion}\n"

#: YAML corners written as text: (probe, text).
TEXT_CASES: list[tuple[str, str]] = [
    ("empty file", ""),
    ("comment only", "# nothing here\n"),
    ("top-level list", "- scenario: {}\n"),
    ("top-level scalar", "scenario\n"),
    ("two documents", "scenario: {name: a, simulation_context: b}\n---\nscenario: {}\n"),
    ("document markers", "---\nscenario: {name: a, simulation_context: b}\n...\n"),
    ("explicit %YAML 1.1", "%YAML 1.1\n---\nscenario: {name: a, simulation_context: b}\n"),
    ("flow style", "{scenario: {name: a, simulation_context: b, type: edge_case}}\n"),
    ("repeated top key", "scenario: {name: a, simulation_context: b}\nscenario: {name: a}\n"),
    ("repeated scenario key", _HEAD.format(name="a", context="b") + "  name: c\n"),
    (
        "repeated key in an assertion",
        _ONE.format(name="a", context="b", assertion="{skill_id: x, skill_id: y}").replace(
            "- {", "- skill_completed: {"
        ),
    ),
    (
        "repeated key in initial_slots",
        _HEAD.format(name="a", context="b") + "  setup:\n    initial_slots: {x: 1, x: 2}\n",
    ),
    ("tab indentation", "scenario:\n\tname: a\n"),
    ("bad indentation", "scenario:\n  name: a\n simulation_context: b\n"),
    ("unclosed quote", _HEAD.format(name='"a', context="b")),
    ("unknown tag", _HEAD.format(name="!custom a", context="b")),
    ("python tag", _HEAD.format(name="!!python/name:os.system", context="b")),
    ("str tag on int", _HEAD.format(name="!!str 1", context="b")),
    ("str tag on text", _HEAD.format(name="!!str x", context="b")),
    (
        "str tag on a slot value",
        _HEAD.format(name="a", context="b") + "  setup:\n    initial_slots:\n      x: !!str x\n",
    ),
    ("int tag on str", _HEAD.format(name='!!int "3"', context="b")),
    ("binary tag", _HEAD.format(name="!!binary aGVsbG8=", context="b")),
    ("set tag", _HEAD.format(name="a", context="b") + "  goals: !!set {a, b}\n"),
    ("block literal", _HEAD.format(name="a", context="|\n    line one\n    line two")),
    ("folded empty", _HEAD.format(name="a", context=">\n")),
    ("quoted empty", _HEAD.format(name="''", context="b")),
    ("complex key", _HEAD.format(name="a", context="b") + "  ? [x, y]\n  : z\n"),
    ("non-string key", _HEAD.format(name="a", context="b") + "  1: z\n"),
    ("null key", _HEAD.format(name="a", context="b") + "  ~: z\n"),
    (
        "anchor and alias",
        "scenario:\n  name: &n a\n  simulation_context: *n\n"
        "  goals:\n    assertions:\n      - skill_completed: &s {skill_id: x}\n"
        "      - skill_activated: *s\n",
    ),
    (
        "merge key",
        "scenario:\n  name: a\n  simulation_context: b\n  goals:\n    assertions:\n"
        "      - ordered_block_entered:\n          <<: {skill_id: x}\n          block_id: y\n",
    ),
    ("undefined alias", _HEAD.format(name="*nothing", context="b")),
    ("BOM", "\ufeff" + _HEAD.format(name="a", context="b")),
    ("control character", _HEAD.format(name='"a\x07"', context="b")),
    ("windows line ends", _HEAD.format(name="a", context="b").replace("\n", "\r\n")),
]

#: Plain scalars that YAML 1.1 and 1.2 (and ruamel and PyYAML) read differently.
SCALARS = [
    "yes",
    "No",
    "on",
    "OFF",
    "y",
    "true",
    "False",
    "TRUE",
    "~",
    "null",
    "Null",
    "1_000",
    "0o17",
    "017",
    "0x1F",
    "0b101",
    "1e3",
    "1.5e-3",
    ".5",
    ".inf",
    "-.inf",
    ".NaN",
    "1:30",
    "2026-10-14",
    "2026-10-14T10:00:00Z",
    "+1",
    "12345678901234567890",
    "=",
    "<<",
    "!!str x",
]

#: Where a scalar goes: (probe, template with {v}).
SCALAR_PLACES = [
    ("name", _HEAD.format(name="{v}", context="b")),
    ("type", _HEAD.format(name="a", context="b") + "  type: {v}\n"),
    (
        "initial slot value",
        _HEAD.format(name="a", context="b") + "  setup:\n    initial_slots:\n      x: {v}\n",
    ),
    (
        "memory value",
        _ONE.format(name="a", context="b", assertion="memory_was_set: [{{name: m, value: {v}}}]"),
    ),
    (
        "is_error",
        _ONE.format(
            name="a",
            context="b",
            assertion="tool_executed: {{tool_name: t, source: local, is_error: {v}}}",
        ),
    ),
    (
        "allow_extra_calls",
        _ONE.format(
            name="a",
            context="b",
            assertion="tools_within_one_turn: {{allow_extra_calls: {v}, calls: "
            "[{{tool_executed: {{tool_name: t, source: local}}}}, "
            "{{tool_executed: {{tool_name: u, source: local}}}}]}}",
        ),
    ),
    (
        "gate",
        _HEAD.format(name="a", context="b")
        + "  goals:\n    expected_tools:\n      - {{tool_called: t, gate: {v}}}\n",
    ),
    (
        "button title",
        _ONE.format(
            name="a",
            context="b",
            assertion="bot_uttered: {{buttons: [{{title: {v}, payload: p}}]}}",
        ),
    ),
    (
        "threshold",
        _ONE.format(
            name="a", context="b", assertion="generative_response_is_relevant: {{threshold: {v}}}"
        ),
    ),
]

#: `${VAR}` forms: (probe, value as written).
ENV_VALUES = [
    ("set", "${ORACLE_SET}"),
    ("unset", "${ORACLE_UNSET}"),
    ("empty", "${ORACLE_EMPTY}"),
    ("unset, quoted", '"${ORACLE_UNSET}"'),
    ("unset, single-quoted", "'${ORACLE_UNSET}'"),
    ("unset, inside text", "pay ${ORACLE_UNSET} now"),
    ("set, inside text", "pay ${ORACLE_SET} now"),
    ("set and unset", "${ORACLE_SET}-${ORACLE_UNSET}"),
    ("unset without braces", "$ORACLE_UNSET"),
    ("set without braces", "$ORACLE_SET"),
    ("empty braces", "${}"),
    ("unclosed brace", "${ORACLE_UNSET"),
    ("unset, block scalar", "|\n    ${ORACLE_UNSET}"),
    ("type variable", "${ORACLE_TYPE}"),
    ("number variable", "${ORACLE_NUMBER}"),
]

ENV_PLACES = [
    ("name", _HEAD.format(name="{v}", context="b")),
    ("simulation_context", _HEAD.format(name="a", context="{v}")),
    ("type", _HEAD.format(name="a", context="b") + "  type: {v}\n"),
    (
        "initial slot",
        _HEAD.format(name="a", context="b") + "  setup:\n    initial_slots:\n      x: {v}\n",
    ),
    (
        "initial slot client_id",
        _HEAD.format(name="a", context="b")
        + "  setup:\n    initial_slots:\n      client_id: {v}\n",
    ),
    (
        "initial slot api_key",
        _HEAD.format(name="a", context="b") + "  setup:\n    initial_slots:\n      api_key: {v}\n",
    ),
    (
        "initial slot name",
        _HEAD.format(name="a", context="b") + "  setup:\n    initial_slots:\n      {v}: 1\n",
    ),
    ("criterion", _HEAD.format(name="a", context="b") + "  goals:\n    criteria:\n      - {v}\n"),
    (
        "tool argument",
        _ONE.format(
            name="a",
            context="b",
            assertion="tool_executed: {{tool_name: t, source: local, arguments: {{q: {v}}}}}",
        ),
    ),
    ("comment", _HEAD.format(name="a", context="b") + "  # {v}\n"),
]


def session_cases() -> Iterator[Case]:
    """Memory named with the `session.` prefix of conditions, wherever a memory name goes."""
    name = "session.billing.amount"
    for kind in ("memory_was_set", "memory_was_not_set", "memory_was_cleared"):
        yield Case("", dump(minimal([{kind: [{"name": name}]}])), f"{kind} session. name", SESSION)
    for kind in ("memory_was_set", "memory_was_cleared"):
        text = dump(minimal([{"sequencing": [{kind: name}]}]))
        yield Case("", text, f"sequencing {kind} session. name", SESSION)
    scenario = minimal([])
    scenario["scenario"]["setup"] = {"initial_slots": {name: 1}}
    yield Case("", dump(scenario), "initial slot session. name", SESSION)


def text_cases() -> Iterator[Case]:
    for probe, text in TEXT_CASES:
        yield Case("", text, f"yaml: {probe}", TAGGED if "str tag" in probe else "")
    for place, template in SCALAR_PLACES:
        for scalar in SCALARS:
            rule = CALM if place == "threshold" else TAGGED if scalar in _TAGGED_SCALARS else ""
            yield Case("", template.format(v=scalar), f"scalar {scalar} as {place}", rule)
    for place, template in ENV_PLACES:
        for probe, value in ENV_VALUES:
            if value.startswith("|") and place not in {"name", "simulation_context"}:
                continue
            yield Case("", template.format(v=value), f"${{VAR}} {probe} as {place}")


def generate() -> list[Case]:
    """Every case once (by text), each with a stable id: its probe's slug and a text hash."""
    seen: set[str] = set()
    cases: list[Case] = []
    for case in (*structured_cases(), *session_cases(), *text_cases()):
        if case.text in seen:
            continue
        seen.add(case.text)
        digest = hashlib.sha256(case.text.encode("utf-8")).hexdigest()[:10]
        cases.append(Case(f"c{len(cases):04d}-{digest}", case.text, case.probe, case.rule))
    return cases


def fingerprint(cases: list[Case]) -> str:
    """One hash of every case's text, so a recording can tell it matches the generator."""
    joined = json.dumps([c.text for c in cases], ensure_ascii=False)
    return hashlib.sha256(joined.encode("utf-8")).hexdigest()
