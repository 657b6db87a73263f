"""Deterministic repair of the assertions the reference agent proves wrong.

The reference agent is what a correct agent does, as far as the definitions say. When it
fails an assertion, its own run says how the assertion is wrong, and the fix needs no
judgement where the run recorded the same thing with other details:

- `memory_was_set`: an item whose key was written with another value gets the recorded
  value; an item whose key was never written is removed (the assertion goes with its last
  item). Not when the item's value is one the user's facts state and the run kept another
  one the facts never give (a correction the agent ignored): that fix is marked
  `contradicts`, and verification drops the case instead;
- `tool_executed`: when the tool ran, the arguments, `source` and `skill_id` that differ
  are set to what the run recorded; when it never ran, or ran with the other `is_error`,
  the assertion goes. `is_error` is what the case is about (a failure case asserts the
  failure), so no fix turns a failure into a success or back; verification then sees that
  the case lost its point (`_verify_mantle`);
- `sequencing`: the steps that keep the order true are kept (the longest run of steps that
  still matches in order, first to last); fewer than two left and the assertion goes;
- any other type: the assertion goes (it names an event a correct agent does not produce).

Each change is a `{code: "verify:<type>", path, before, after, reason, by: "verify"}` record,
as the other repairs are, so the report and the PR description show what was changed.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from evalcore.assertions import evaluate_mantle, parse_events
from evalcore.simulator import is_fact_context, parse_fact_context


def fix_assertions(
    data: dict[str, Any], events: Sequence[dict[str, Any]], failing: Sequence[dict[str, Any]]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """`data` with every failing assertion corrected or removed, and the changes made."""
    fixed = copy.deepcopy(data)
    stated = _stated_values(fixed)
    goals = fixed["scenario"]["goals"]
    assertions: list[Any] = goals["assertions"]
    parsed = parse_events(list(events))
    fixes: list[dict[str, Any]] = []
    for result in sorted(failing, key=lambda r: r["index"], reverse=True):
        index = result["index"]
        if index >= len(assertions):
            continue
        item = assertions[index]
        path = f"/scenario/goals/assertions/{index}"
        kind = next(iter(item)) if isinstance(item, dict) and len(item) == 1 else "invalid"
        spec = item.get(kind) if kind != "invalid" else None
        if kind == "memory_was_set" and _contradicts(spec, events, stated):
            # the run kept another value than the one the user states: the agent did not
            # take what the user said (a correction it ignored), which no fix may assert
            fixes.append(
                {
                    "code": "verify:memory_was_set",
                    "path": path,
                    "before": item,
                    "after": item,
                    "reason": "the reference agent records another value than the user states",
                    "by": "verify",
                    "contradicts": True,
                }
            )
            continue
        after = _corrected(kind, spec, parsed, events)
        reason = f"the reference agent fails it: {result.get('detail', '')}".strip()
        if after is not None and {kind: after} in assertions[:index] + assertions[index + 1 :]:
            after = None  # corrected, it says what another assertion already says
        if after is None:
            del assertions[index]
        else:
            assertions[index] = {kind: after}
        fixes.append(
            {
                "code": f"verify:{kind}",
                "path": path,
                "before": item,
                "after": None if after is None else {kind: after},
                "reason": reason,
                "by": "verify",
            }
        )
    if not assertions:
        del goals["assertions"]
    return fixed, fixes


def _stated_values(data: dict[str, Any]) -> set[str]:
    """The values the user's facts give (`- item: scrub trousers`), lower case."""
    context = str((data.get("scenario") or {}).get("simulation_context") or "")
    if not is_fact_context(context):
        return set()
    return {f.value.strip().lower() for f in parse_fact_context(context).facts}


def _contradicts(spec: Any, events: Sequence[dict[str, Any]], stated: set[str]) -> bool:
    """A `memory_was_set` item whose value the user states, where the run last wrote
    another value for that key."""
    if not isinstance(spec, list) or not stated:
        return False
    last = {str(e.get("key")): e.get("value") for e in events if e.get("event") == "memory_set"}
    for item in spec:
        if not isinstance(item, dict) or "value" not in item or item.get("name") not in last:
            continue
        wanted, kept = item["value"], last[item["name"]]
        if kept != wanted and _said(wanted) in stated and _said(kept) not in stated:
            return True
    return False


def _said(value: Any) -> str:
    return str(value).replace("_", " ").strip().lower()


def _passes(kind: str, spec: Any, parsed: Any) -> bool:
    return evaluate_mantle([{kind: spec}], parsed)[0].passed


def _corrected(kind: str, spec: Any, parsed: Any, events: Sequence[dict[str, Any]]) -> Any | None:
    """The spec made true by the run's own record, or None (remove the assertion)."""
    if kind == "memory_was_set" and isinstance(spec, list):
        written = {
            str(e.get("key")): e.get("value") for e in events if e.get("event") == "memory_set"
        }
        kept: list[Any] = []
        for item in spec:
            if _passes(kind, [item], parsed):
                kept.append(item)
            elif isinstance(item, dict) and item.get("name") in written and "value" in item:
                value = written[item["name"]]
                if value is not None:
                    kept.append({**item, "value": value})
        return kept if kept and _passes(kind, kept, parsed) else None
    if kind == "tool_executed" and isinstance(spec, dict):
        for event in reversed(events):
            if event.get("event") != "tool_executed" or event.get("tool_name") != spec.get(
                "tool_name"
            ):
                continue
            candidate = _like(spec, event)
            if _passes(kind, candidate, parsed):
                return candidate
        return None
    if kind == "sequencing" and isinstance(spec, list):
        kept = []
        for step in spec:
            if _passes(kind, [*kept, step], parsed):
                kept.append(step)
        return kept if len(kept) >= 2 else None
    return None


def _like(spec: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
    """`spec` with each detail it states set to the recorded run's."""
    out = dict(spec)
    recorded_args = event.get("arguments") or {}
    if isinstance(spec.get("arguments"), dict):
        out["arguments"] = {
            key: recorded_args[key] for key in spec["arguments"] if key in recorded_args
        }
        if not out["arguments"]:
            del out["arguments"]
    if "source" in spec and event.get("source") in ("local", "mcp"):
        out["source"] = event["source"]
        if out["source"] == "local":
            out.pop("mcp_server", None)
    skill = (event.get("metadata") or {}).get("skill_id")
    if "skill_id" in spec:
        if skill:
            out["skill_id"] = skill
        else:
            del out["skill_id"]
    return out


__all__ = ["fix_assertions"]
