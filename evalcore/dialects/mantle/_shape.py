"""What the engine reads off a Mantle scenario without interpreting it: the facts that tell
one case from another, how many assertions and criteria it makes, the skills it names."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ... import pointer as ptr
from ...dedupe import canon
from ...lint import as_dict, as_list
from .._base import CaseProse

if TYPE_CHECKING:
    from ...definitions import Project


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def fingerprint_facts(data: dict[str, Any]) -> tuple[set[str], str]:
    """Its type, each assertion, each seeded slot; its simulation context as text."""
    scenario = _dict(data.get("scenario"))
    facts = {"type:" + str(scenario.get("type"))}
    for item in _dict(scenario.get("goals")).get("assertions") or []:
        facts.add("assert:" + canon(item))
    for key, value in (_dict(scenario.get("setup")).get("initial_slots") or {}).items():
        facts.add(f"slot:{key}={canon(value)}")
    return facts, str(scenario.get("simulation_context", ""))


def goals(data: dict[str, Any]) -> dict[str, Any]:
    return (data.get("scenario") or {}).get("goals") or {}


def assertion_items(items: Any) -> list[dict[str, Any]]:
    """Top-level assertions plus the checks inside `sequencing`, as single-key mappings."""
    out: list[dict[str, Any]] = []
    for item in as_list(items):
        item = as_dict(item)
        out.append(item)
        for inner in as_list(item.get("sequencing")):
            if isinstance(inner, dict):
                out.append(inner)
    return out


def named_skills(data: dict[str, Any]) -> list[str]:
    """The `skill_id` of each skill and ordered-block assertion, in order."""
    goals = as_dict(as_dict(data.get("scenario")).get("goals"))
    out: list[str] = []
    for item in assertion_items(goals.get("assertions")):
        for key, body in item.items():
            if key.startswith(("skill_", "ordered_block_")):
                skill = as_dict(body).get("skill_id")
                if isinstance(skill, str):
                    out.append(skill)
    return out


def expected_skills(data: dict[str, Any], project: Project | None) -> list[str]:
    """The skills the case's assertions name, in the order they first do: a `skill_id`
    anywhere in an assertion, a memory key's skill namespace, the skill that owns a local
    tool the case expects to run."""
    mantle = project.mantle if project is not None else None
    known = set(mantle.skills) if mantle is not None else set()
    found: list[str] = []
    for item in as_list(as_dict(as_dict(data.get("scenario")).get("goals")).get("assertions")):
        for key, value in _walk(item):
            if not isinstance(value, str):
                continue
            if key == "skill_id":
                found.append(value)
            elif key in ("name", "memory_was_set", "memory_was_cleared"):
                namespace = value.partition(".")[0]
                if namespace in known:
                    found.append(namespace)
            elif key == "tool_name" and mantle is not None:
                found += [s.id for s in mantle.skills.values() if value in s.tools]
    return list(dict.fromkeys(found))


def _walk(value: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key), item
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


def case_prose(data: dict[str, Any]) -> CaseProse:
    """The scenario's name, type, criteria and simulation context."""
    scenario = as_dict(data.get("scenario"))
    goals = as_dict(scenario.get("goals"))
    criteria = tuple(
        (ptr.join("/scenario/goals/criteria", i), text)
        for i, text in enumerate(as_list(goals.get("criteria")))
        if isinstance(text, str)
    )
    context = scenario.get("simulation_context")
    kind = scenario.get("type")
    return CaseProse(
        base="",
        data=data,
        title=str(scenario.get("name") or ""),
        title_path="/scenario/name" if "name" in scenario else "",
        type=kind if isinstance(kind, str) else None,
        criteria=criteria,
        contexts=(("/scenario/simulation_context", context),) if isinstance(context, str) else (),
    )
