"""What a failed assertion is about, and what the project's definitions say about it.

Two questions the rules ask of a Mantle project:

- *Which memory keys let the agent skip this?* A collect step is skipped when its key is
  already set, and skill prose like "If @memory.project.customer_id is empty, find the
  customer with @tool.lookup_customer" skips the tool when the key is set. When a case
  pre-fills such a key in `setup.initial_slots`, the agent was right to skip the step and
  the case (Scenario) is what broke.
- *What comes right before it?* The previous steps of its ordered block, so the turn where
  a missing step should have happened can be found from the step before it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from evalcore.definitions import Project, Skill, Step
from evalcore.lexicon.en.run_findings import DETAIL
from evalcore.lexicon.en.skill_rules import CONDITION_WORD
from evalcore.lexicon.notation.mantle_references import MEMORY_PATH

_CONDITION_WORD = CONDITION_WORD
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n\s*\n")


@dataclass(frozen=True)
class Subject:
    """The thing a check is about: a tool, response, memory key, skill, block or step."""

    kind: str
    name: str
    skill: str | None = None


_KIND_OF = {
    "tool_executed": "tool",
    "bot_uttered": "utter",
    "bot_did_not_utter": "utter",
    "memory_was_set": "memory",
    "memory_was_cleared": "memory",
    "memory_was_not_set": "memory",
}


def subjects_of(kind: str, spec: Any) -> list[Subject]:
    """Subjects of one assertion item's spec (`kind` is its key)."""
    if kind == "sequencing" and isinstance(spec, list):
        out: list[Subject] = []
        for step in spec:
            if isinstance(step, Mapping) and len(step) == 1:
                ((inner, inner_spec),) = step.items()
                out += subjects_of(str(inner), inner_spec)
        return out
    if kind == "tools_within_one_turn" and isinstance(spec, Mapping):
        calls = spec.get("calls") if isinstance(spec.get("calls"), list) else []
        return [
            s
            for call in calls
            for s in subjects_of("tool_executed", _unwrap(call, "tool_executed"))
        ]
    if kind.startswith("skill_") and isinstance(spec, Mapping):
        return [Subject("skill", str(spec.get("skill_id")), str(spec.get("skill_id")))]
    if kind.startswith("ordered_block_") and isinstance(spec, Mapping):
        skill = str(spec.get("skill_id"))
        return [Subject("block", f"{skill}/{spec.get('block_id')}", skill)]
    what = _KIND_OF.get(kind)
    if what == "tool" and isinstance(spec, Mapping) and spec.get("tool_name"):
        skill = spec.get("skill_id")
        return [Subject("tool", str(spec["tool_name"]), str(skill) if skill else None)]
    if what == "utter":
        name = spec.get("utter_name") if isinstance(spec, Mapping) else None
        return [Subject("utter", str(name))] if name else []
    if what == "memory":
        items = spec if isinstance(spec, list) else [spec]
        out = []
        for item in items:
            name = item.get("name") if isinstance(item, Mapping) else item
            if isinstance(name, str):
                out.append(Subject("memory", name, name.partition(".")[0]))
        return out
    return []


def _unwrap(item: Any, key: str) -> Any:
    if isinstance(item, Mapping) and set(item) == {key}:
        return item[key]
    return item


_DETAIL = DETAIL


def subjects_from_detail(detail: str) -> list[Subject]:
    """Fallback when the spec is unknown: the subject named in an engine detail."""
    out = []
    for kind, name in _DETAIL.findall(detail):
        if kind == "tool_executed":
            out.append(Subject("tool", name))
        elif kind == "bot message":
            out.append(Subject("utter", name))
        elif kind.startswith("memory_"):
            out.append(Subject("memory", name, name.partition(".")[0]))
        elif kind.startswith("skill_"):
            out.append(Subject("skill", name, name))
        else:
            out.append(Subject("block", name, name.partition("/")[0]))
    return out


def _qualified(skill: Skill, key: Any) -> str | None:
    if not isinstance(key, str):
        return None
    return key if "." in key else f"{skill.id}.{key}"


def steps_for(project: Project | None, subject: Subject) -> list[tuple[Skill, str, int, Step]]:
    """`(skill, block id, position, step)` of every block step that does the subject."""
    mantle = project.mantle if project is not None else None
    if mantle is None:
        return []
    out = []
    for skill in mantle.skills.values():
        if (
            subject.skill
            and subject.kind in ("tool", "memory")
            and subject.skill != skill.id
            and subject.skill != "project"
        ):
            continue
        for block in skill.blocks.values():
            for position, step in enumerate(block.steps):
                if _step_does(skill, step, subject):
                    out.append((skill, block.id, position, step))
    return out


def _step_does(skill: Skill, step: Step, subject: Subject) -> bool:
    if subject.kind == "tool":
        return step.kind == "execute_tool" and step.target == subject.name
    if subject.kind == "utter":
        return (step.kind == "action" and step.target == subject.name) or (
            step.kind == "collect" and step.fields.get("utterance") == subject.name
        )
    if subject.kind == "memory":
        if step.kind == "collect":
            return _qualified(skill, step.target) == subject.name
        if step.kind == "set_memory" and isinstance(step.target, Mapping):
            return any(_qualified(skill, k) == subject.name for k in step.target)
    return False


def gating_keys(
    project: Project | None, subject: Subject, prefer: Sequence[str] = ()
) -> dict[str, str]:
    """Memory keys whose value, when already set, makes the agent skip the subject.

    Returns `{key: why}`; `why` quotes the definition that says so, from the skills in
    `prefer` (the ones the case is about) first.
    """
    gates: dict[str, str] = {}
    if subject.kind == "memory":
        gates[subject.name] = f"{subject.name} is what the check expects the agent to set"
    for skill, block, _, step in steps_for(project, subject):
        if step.kind == "collect":
            key = _qualified(skill, step.target)
            if key:
                gates[key] = (
                    f"step {step.id} of {skill.id}/{block} collects {key} and is skipped "
                    "when it is already set"
                )
    mantle = project.mantle if project is not None else None
    if mantle is None or subject.kind != "tool":
        return gates
    token = f"@tool.{subject.name}"
    skills = sorted(
        mantle.skills.values(),
        key=lambda sk: prefer.index(sk.id) if sk.id in prefer else len(prefer),
    )
    for skill in skills:
        for sentence in _SENTENCE.split(skill.body):
            at = sentence.find(token)
            if at < 0:
                continue
            before = sentence[:at]
            if not _CONDITION_WORD.search(before):
                continue
            for token_key in MEMORY_PATH.findall(before):
                key = token_key.rstrip(".")
                gates.setdefault(key, f"skills/{skill.id}/skill.md: “{' '.join(sentence.split())}”")
    return gates


def previous_steps(project: Project | None, subject: Subject) -> list[Subject]:
    """Subjects of the steps before the subject's step in its block, nearest first."""
    out: list[Subject] = []
    for skill, block_id, position, _ in steps_for(project, subject):
        block = skill.blocks[block_id]
        for step in reversed(block.steps[:position]):
            if step.kind == "execute_tool" and isinstance(step.target, str):
                out.append(Subject("tool", step.target, skill.id))
            elif step.kind == "action" and isinstance(step.target, str):
                out.append(Subject("utter", step.target, skill.id))
            elif step.kind == "collect":
                key = _qualified(skill, step.target)
                if key:
                    out.append(Subject("memory", key, skill.id))
                utterance = step.fields.get("utterance")
                if isinstance(utterance, str):
                    out.append(Subject("utter", utterance, skill.id))
    return out


def definition_file(project: Project | None, subject: Subject) -> str | None:
    """Where the subject is defined, for fixes that name a file (`tools.py:111`)."""
    mantle = project.mantle if project is not None else None
    if mantle is None:
        return None
    if subject.kind == "tool":
        for skill in mantle.skills.values():
            tool = mantle.tools_for(skill.id).get(subject.name)
            if tool is not None and tool.source is not None:
                line = f":{tool.source.line}" if tool.source.line else ""
                return f"{tool.source.file}{line}"
            if tool is not None and tool.mcp_server:
                return f"MCP server {tool.mcp_server}"
    if subject.kind == "utter":
        response = mantle.all_responses().get(subject.name)
        if response is not None and response.source is not None:
            return response.source.file
    skill_id = subject.skill if subject.kind in ("skill", "block") else None
    if skill_id and skill_id in mantle.skills:
        return f"skills/{skill_id}/skill.md"
    return None


def skill_linked(project: Project | None, from_skill: str, to_skill: str) -> bool:
    """True when `from_skill`'s definition hands over to `to_skill` itself (`@skill.x`,
    a link/call step): the switch is instructed, not a routing decision."""
    mantle = project.mantle if project is not None else None
    if mantle is None or from_skill not in mantle.skills:
        return False
    skill = mantle.skills[from_skill]
    if f"@skill.{to_skill}" in skill.tokens:
        return True
    return any(
        step.kind in ("link", "call") and step.target == to_skill
        for block in skill.blocks.values()
        for step in block.steps
    )


__all__ = [
    "Subject",
    "definition_file",
    "gating_keys",
    "previous_steps",
    "skill_linked",
    "steps_for",
    "subjects_from_detail",
    "subjects_of",
]
