"""Figure 6: is a file valid as Rasa reads it?

A file counts as valid when it parses, passes the Mantle scenario schema casegen ships
(`evalcore/dialects/mantle/schema.json`), and passes this module's own check of the two
places where Rasa's packaged schema and assertion engine are strict (reference §2.1):

- `sequencing` steps: only the skill/block lifecycle checks and `tool_executed` (as maps)
  and `memory_was_set` / `memory_was_cleared` (as a plain string); anything else, such as
  `bot_uttered`, `bot_did_not_utter`, `memory_was_not_set` or `tools_within_one_turn`,
  is an "unsupported sequencing step";
- `goals.expected_tools` items are maps, `{tool_called: NAME, gate?: bool}` or
  `{tool_group: [{tool_called, gate?, ordered?}, ...]}`; a bare string is rejected.

The check is explicit so the figure holds whatever the shipped schema accepts.
"""

from __future__ import annotations

from typing import Any

from evalcore.assertions import (
    SEQUENCING_MAP_STEPS,
    SEQUENCING_NAME_STEPS,
    sequencing_step_problem,
)
from evalcore.dialects import get_dialect

from ._cases import ScoredCase

SEQUENCING_MAPS = frozenset(SEQUENCING_MAP_STEPS)
SEQUENCING_STRINGS = frozenset(SEQUENCING_NAME_STEPS)
_TOOL_CALLED_KEYS = frozenset({"tool_called", "gate"})
_GROUP_ITEM_KEYS = frozenset({"tool_called", "gate", "ordered"})


def rasa_problems(scenario: dict[str, Any]) -> list[str]:
    """Why Rasa would reject the scenario's `sequencing` or `expected_tools` (empty: fine)."""
    goals = scenario.get("goals")
    if not isinstance(goals, dict):
        return []
    problems: list[str] = []
    for i, item in enumerate(goals.get("assertions") or []):
        if isinstance(item, dict) and isinstance(item.get("sequencing"), list):
            for j, step in enumerate(item["sequencing"]):
                where = f"/scenario/goals/assertions/{i}/sequencing/{j}"
                problems += [f"{where}: {p}" for p in _sequencing_step(step)]
    tools = goals.get("expected_tools")
    if tools is not None:
        if not isinstance(tools, list):
            problems.append("/scenario/goals/expected_tools: must be a list of maps")
        else:
            for i, item in enumerate(tools):
                where = f"/scenario/goals/expected_tools/{i}"
                problems += [f"{where}: {p}" for p in _expected_tool(item)]
    return problems


def _sequencing_step(step: Any) -> list[str]:
    if not isinstance(step, dict) or len(step) != 1:
        return ["a sequencing step is a map with one check"]
    ((key, body),) = step.items()
    if key in SEQUENCING_MAPS:
        return [] if isinstance(body, dict) else [f"'{key}' takes a map inside sequencing"]
    if key in SEQUENCING_STRINGS:
        return (
            []
            if isinstance(body, str)
            else [f"'{key}' takes a plain memory name (no value) inside sequencing"]
        )
    return [f"unsupported sequencing step: {sequencing_step_problem(key)}"]


def _expected_tool(item: Any) -> list[str]:
    if not isinstance(item, dict):
        return [f"an expected tool is a map ({{tool_called: NAME}}), not {item!r}"]
    if "tool_group" in item:
        group = item["tool_group"]
        if set(item) != {"tool_group"} or not isinstance(group, list) or not group:
            return ["tool_group is a non-empty list of {tool_called, gate?, ordered?} maps"]
        return [
            "a tool_group item is {tool_called, gate?, ordered?}"
            for entry in group
            if not _called(entry, _GROUP_ITEM_KEYS)
        ][:1]
    return [] if _called(item, _TOOL_CALLED_KEYS) else ["expected {tool_called: NAME, gate?}"]


def _called(entry: Any, allowed: frozenset[str]) -> bool:
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("tool_called"), str)
        and set(entry) <= allowed
        and isinstance(entry.get("gate", False), bool)
        and isinstance(entry.get("ordered", False), bool)
    )


def file_problems(case: ScoredCase) -> list[str]:
    """Parse, shipped-schema and Rasa-compatibility problems of one file."""
    if not case.parsed:
        return [f.message for f in case.doc.findings] or ["the file does not parse"]
    mantle = get_dialect("mantle")
    data, loading = mantle.as_loaded(case.doc)
    schema = loading + mantle.schema_findings(data)
    errors = [f"{f.path or '/'}: {f.message}" for f in schema if f.severity == "error"]
    return errors + rasa_problems(case.scenario)


__all__ = ["SEQUENCING_MAPS", "SEQUENCING_STRINGS", "file_problems", "rasa_problems"]
