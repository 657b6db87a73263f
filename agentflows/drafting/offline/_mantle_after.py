"""What a block does on its own after a check comes back negative: the runtime's steps.

A negative path goes on at the branch its check's `next` names, and the steps that need no
model there (`execute_tool`, `set_memory`, `action`, `link`) are run by the framework
exactly as written (reference §3, "deterministic-first"), so any agent that follows the
definitions does them: the tools the branch runs (no error), the literals it sets, the
responses it utters and the skill it links to. Those are what a case about the branch can
assert without guessing a value a backend chooses (a tool-computed value is asserted as
set, never as a value).
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import MantleDefinitions, Skill
from evalcore.definitions.conditions import condition_keys, evaluate
from evalcore.definitions.skill_model import qualify

from ...planning.mantle_offers import SET, Walk
from ._mantle_checks import Check, skill_check, tool_check


def _literal_keys(skill: Skill) -> set[str]:
    """Keys the skill's `set_memory` steps write (their values are literals)."""
    keys: set[str] = set()
    for block in skill.blocks.values():
        for step in block.steps:
            if step.kind == "set_memory" and isinstance(step.target, dict):
                keys |= {qualify(str(k), skill.id) for k in step.target}
    return keys


def after_negative(skill: Skill, walk: Walk, tool: str) -> list[Check]:
    """Checks for what the walk's own block steps do after `tool` first comes back."""
    runs = [i for i, e in enumerate(walk.events) if e.kind == "tool" and e.tool == tool]
    if not runs:
        return []
    after = walk.events[runs[0] + 1 :]
    literals = _literal_keys(skill)
    out: list[Check] = []
    values: dict[str, object] = {}
    responses = {
        str(s.target) for b in skill.blocks.values() for s in b.steps if s.kind == "action"
    }
    computed: list[str] = []
    writing = False  # the memory events right after a tool run are its writes
    for event in after:
        if event.kind == "tool" and event.skill == skill.id and not event.error:
            writing = event.tool != tool
            if writing:
                out.append(tool_check(event, skill=skill.id, is_error=False))
            continue
        if event.kind == "memory" and event.key in literals and event.value is not SET:
            values[str(event.key)] = event.value
        elif event.kind == "memory" and writing and event.key:
            if event.key.startswith(skill.id + ".") and event.key not in computed:
                computed.append(event.key)  # set, to a value only the tool knows
            continue
        elif event.kind == "utter" and event.utter in responses:
            out.append({"bot_uttered": {"utter_name": event.utter}})
        elif event.kind == "link" and event.key:
            out.append(skill_check("skill_activated", event.key))
        writing = False
    items = [{"name": k, "value": v} for k, v in values.items()]
    items += [{"name": k} for k in computed if k not in values]
    if items:
        out.append({"memory_was_set": items})
    unique: list[Check] = []
    for check in out:
        if check not in unique:
            unique.append(check)
    return unique


def branch_responses(
    defs: MantleDefinitions, skill: Skill, key: str, memory: dict[str, Any]
) -> list[str]:
    """The responses the skill's blocks utter on their own once they branch on `key` with
    `memory`: from each step whose `next` reads `key`, the branch `memory` takes, then the
    steps that need no model (`noop`, `set_memory`, `action`, plain `next`) up to the first
    that waits, runs a tool or ends. What a correction case's wrong value would have said."""
    out: list[str] = []
    for block in skill.blocks.values():
        ids = [s.id for s in block.steps]
        for step in block.steps:
            branches = step.next if isinstance(step.next, list) else []
            read = {k for b in branches for k in condition_keys(b.condition)}
            if not {key, f"session.{key}"} & read:
                continue
            seen = dict(memory)
            target = next(
                (b.target for b in branches if b.condition is None or evaluate(b.condition, seen)),
                None,
            )
            visited: set[str] = set()
            while target in ids and target not in visited:  # a loop of steps ends it
                visited.add(str(target))
                here = block.steps[ids.index(target)]
                if here.kind == "set_memory" and isinstance(here.target, dict):
                    seen |= {qualify(str(k), skill.id, defs): v for k, v in here.target.items()}
                elif here.kind == "action":
                    out.append(str(here.target))
                elif here.kind != "noop":
                    break
                if isinstance(here.next, list):
                    target = next(
                        (
                            b.target
                            for b in here.next
                            if b.condition is None or evaluate(b.condition, seen)
                        ),
                        None,
                    )
                elif isinstance(here.next, str):
                    target = here.next
                else:
                    index = ids.index(here.id) + 1
                    target = ids[index] if index < len(ids) else None
    return list(dict.fromkeys(out))


__all__ = ["after_negative", "branch_responses"]
