"""What counts as a skill's success, read from its definitions (never from case names).

A skill succeeds when one of its tools runs without error, when it completes, or when it
sends a success response. Its *success tools* are the tools whose run is the point of the
skill (or of one of its modes): a tool with an `on_success`, one that writes a field of the
skill's `complete_when`, the last tool each `if:` paragraph names, a tool that ends an
ordered block, and, when no `on_success` or `complete_when` names one, the last tool the
prose names. Each comes with its evidence: the memory
keys it writes and the responses that follow it (its `on_success`, an `utter_*` the prose
names after it, a block's `action:` after it). A happy path that says a success tool's
evidence did not happen, and asserts no other success tool's run, contradicts itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from evalcore.definitions import Block, Confirmation, Project, Skill, Step
from evalcore.definitions.conditions import condition_keys
from evalcore.definitions.skill_model import (
    UNKNOWN,
    answer_writers,
    outside_effect,
    reported_fields,
    runtime_reads,
    skill_model,
    tool_keys,
)
from evalcore.lexicon.notation.mantle_blocks import WHOLE_BLOCK
from evalcore.lexicon.notation.mantle_conditions import NEGATED
from evalcore.lexicon.notation.mantle_references import block_reference
from evalcore.lexicon.notation.response_names import RESPONSE_WORD

#: A quoted passage long enough to be a sentence of the definitions.
_QUOTED = re.compile(r'"([^"]{20,})"')


@dataclass(frozen=True)
class Gate:
    """A tool whose call waits for the user's confirmation."""

    tool: str
    denial: str | None
    """`utter_on_user_denial`, when the gate defines one."""
    on_success: str | None
    writes: frozenset[str]
    """Qualified memory keys the tool writes."""


@dataclass
class Evidence:
    """What shows that a success tool ran: the keys it writes, the responses after it."""

    writes: dict[str, Any] = field(default_factory=dict)
    """Qualified key -> literal value (or UNKNOWN)."""
    responses: set[str] = field(default_factory=set)

    def denied_by(self, name: str, has_value: bool, value: Any) -> bool:
        """Whether `memory_was_not_set: {name[, value]}` says this tool did not run."""
        if name not in self.writes:
            return False
        written = self.writes[name]
        return not has_value or (written is not UNKNOWN and written == value)


@dataclass
class SkillSignals:
    skill_id: str
    tools: frozenset[str] = frozenset()
    """Every tool the skill can run (`tools_for`: local, imported shared, MCP; plus the
    tools of its `tool_constraints` and `execute_tool` steps)."""
    success: dict[str, Evidence] = field(default_factory=dict)
    """Success tool -> its evidence."""
    success_fields: frozenset[str] = frozenset()
    """Memory keys the skill-level `complete_when` condition reads."""
    gates: list[Gate] = field(default_factory=list)
    requires: dict[str, str] = field(default_factory=dict)
    """Tool -> its `tool_constraints` `requires` (the condition it runs under)."""
    answers: tuple[str, ...] = ()
    """Conditions of the `if:` paragraphs that name no tool (a mode whose task is the answer)
    of a skill without `complete_when`, and `""` (always) for a skill that `answers_only`:
    the definitions give such a path no event to assert as its success, so routing to it
    (its activation) is all a happy path can show."""
    answer_texts: dict[str, str] = field(default_factory=dict)
    """Condition of each answer mode in `answers` -> its paragraph, whitespace folded: a
    criterion that quotes it shows which mode a case plays where the routing field is one
    no line tells the agent to set (nothing else can)."""

    def quoted_by(self, criteria: Iterable[str]) -> bool:
        """Whether a criterion quotes a passage of an answer mode's paragraph
        (`answer_texts`, whitespace folded): the case plays that mode."""
        for criterion in criteria:
            for found in _QUOTED.finditer(" ".join(criterion.split())):
                if any(found.group(1) in text for text in self.answer_texts.values()):
                    return True
        return False

    @property
    def success_responses(self) -> frozenset[str]:
        return frozenset(r for e in self.success.values() for r in e.responses)


def skill_signals(project: Project, skill_id: str) -> SkillSignals:
    """The success tools, their evidence and the confirmation gates of one skill."""
    defs = project.mantle
    assert defs is not None
    skill = defs.skills[skill_id]
    tools = defs.tools_for(skill_id)
    names = set(tools) | set(skill.tool_constraints) | _block_tools(skill)
    per_tool = {name: tool_keys(project, tool, skill_id) for name, tool in tools.items()}
    condition = (skill.complete_when or {}).get("condition")
    fields = frozenset(condition_keys(condition if isinstance(condition, str) else None))
    known = set(defs.all_responses())

    found: dict[str, set[str]] = {}
    for name, constraint in skill.tool_constraints.items():
        if constraint.on_success:
            found.setdefault(name, set()).add(constraint.on_success)
    for name, keys in per_tool.items():
        if fields & set(keys):
            found.setdefault(name, set())
    prose = WHOLE_BLOCK.sub("", skill.body)
    # The prose's last tool is a guess, used when no lever names the success; the last
    # tool of an `if:` paragraph is the success of that branch or mode.
    texts = [c.paragraph for c in skill.prose_conditions] + ([] if found else [prose])
    # a call that waits for the request its paragraph is about (`they ask about board
    # packs`) is that request's, not the skill's success on every path
    topical = {u.name for u in skill_model(project, skill_id).tools if _topical(u.calls)}
    for text in texts:
        for name, responses in _last_in(text, names - topical, known).items():
            found.setdefault(name, set()).update(responses)
    for name, responses in _block_success(skill, names).items():
        found.setdefault(name, set()).update(responses)
    for name in _reporting(project, skill):
        found.setdefault(name, set())
    for name in _rested_on(project, skill, list(found)):
        found.setdefault(name, set())
    if not found:
        found = {name: set() for name in names}
    success = {n: Evidence(dict(per_tool.get(n, {})), r) for n, r in found.items()}
    gates = [
        Gate(
            name, _denial(c.requires_confirmation), c.on_success, frozenset(per_tool.get(name, {}))
        )
        for name, c in skill.tool_constraints.items()
        if c.requires_confirmation is not None and c.requires_confirmation.enabled
    ]
    requires = {n: c.requires for n, c in skill.tool_constraints.items() if c.requires}
    modes = [
        c
        for c in skill.prose_conditions
        if not condition and not _last_in(c.paragraph, names, known)
    ]
    answers = tuple(c.condition for c in modes) + (("",) if answers_only(skill, names) else ())
    texts_of = {c.condition: " ".join(c.paragraph.split()) for c in modes}
    return SkillSignals(
        skill_id, frozenset(names), success, fields, gates, requires, answers, texts_of
    )


def _topical(calls: Iterable[Any]) -> bool:
    """Whether every prose call of a tool waits for a paragraph's topic cue."""
    prose = [c for c in calls if c.kind == "prose"]
    return bool(prose) and all(c.topic for c in prose)


def _rested_on(project: Project, skill: Skill, tools: list[str]) -> list[str]:
    """The tools that change something outside whose answer a success tool rests on (its
    `requires` or its block step's parameters read what they write from the service's
    answer, `answer_writers`): no case can assert the success tool's run, which waits on
    that answer, so the call it rests on is the success a case shows."""
    writers = answer_writers(project)
    out: list[str] = []
    for tool in tools:
        for key in sorted(runtime_reads(project, skill.id, tool)):
            if key in writers and writers[key] not in out + tools:
                out.append(writers[key])
    return out


def _reporting(project: Project, skill: Skill) -> list[str]:
    """The skill's tools on a service outside the agent (MCP, or code that calls one) where
    its `if:` paragraphs branch on a field that service reports (`reported_fields`): what
    the skill answers is the service's, so asking it is the success a case can show."""
    reported = reported_fields(project, skill.id)
    read = {
        k.removeprefix("session.")
        for c in skill.prose_conditions
        for k in condition_keys(c.condition)
    }
    if not reported & read:
        return []
    defs = project.mantle
    assert defs is not None
    return [
        name
        for name, tool in defs.tools_for(skill.id).items()
        if tool.scope == "mcp" or outside_effect(project, tool) is not None
    ]


def answers_only(skill: Skill, tools: Iterable[str]) -> bool:
    """A skill whose whole task is an answer: no tool, no ordered block, no `complete_when`
    (an FAQ, a greeting). Mantle leaves its completion to the model, so nothing but its
    activation (and what a judge reads) can show a happy path did its job."""
    return not tools and not skill.blocks and not (skill.complete_when or {}).get("condition")


def _last_in(text: str, tools: set[str], known: set[str]) -> dict[str, set[str]]:
    """The tool `text` names last, with the defined `utter_*` responses it names after it."""
    positions = {n: _last_tool_mention(text, {n}) for n in tools}
    last = max(positions.values(), default=-1)
    if last < 0:
        return {}
    said = {m.group(1) for m in RESPONSE_WORD.finditer(text, last) if m.group(1) in known}
    return {n: set(said) for n, at in positions.items() if at == last}


def _denial(confirmation: Confirmation | None) -> str | None:
    return confirmation.utter_on_user_denial if confirmation else None


def _block_tools(skill: Skill) -> set[str]:
    return {
        str(s.target)
        for b in skill.blocks.values()
        for s in b.steps
        if s.kind == "execute_tool" and s.target
    }


def _last_tool_mention(prose: str, tools: set[str]) -> int:
    last = -1
    for name in tools:
        pattern = rf"(?:(?<=@tool\.)|(?<![A-Za-z0-9_.])){re.escape(name)}(?![A-Za-z0-9_])"
        for match in re.finditer(pattern, prose):
            last = max(last, match.end())
    return last


def _block_success(skill: Skill, tools: set[str]) -> dict[str, set[str]]:
    """Tools that end an ordered block, with the `action:` responses sent after them, for
    blocks the prose does not follow with another tool call (then the prose's is last)."""
    prose = WHOLE_BLOCK.sub("", skill.body)
    last_tool = _last_tool_mention(prose, tools)
    out: dict[str, set[str]] = {}
    for block in skill.blocks.values():
        mentions = [m.end() for m in block_reference(block.id).finditer(prose)]
        if mentions and last_tool > max(mentions):
            continue
        for step, responses in _terminal_tools(block):
            out.setdefault(str(step.target), set()).update(responses)
    return out


def _terminal_tools(block: Block) -> list[tuple[Step, set[str]]]:
    """`execute_tool` steps from which a straight path reaches the block's end without
    asking or running anything else (only `action:`, `noop` and `set_memory` steps), with
    the responses on that path. The path may leave the tool by a positive `if:` branch
    (never the `else:`, nor a condition with `not`, `!=` or `== false`)."""
    steps = block.steps
    out: list[tuple[Step, set[str]]] = []
    for index, step in enumerate(steps):
        if step.kind != "execute_tool":
            continue
        for start in _ways_on(steps, index):
            said = _straight_to_end(steps, start)
            if said is not None:
                out.append((step, said))
    return out


def _ways_on(steps: list[Step], index: int) -> list[int | None]:
    step = steps[index]
    if not isinstance(step.next, list):
        return [_following(steps, index)]
    return [
        _index(steps, b.target)
        for b in step.next
        if b.condition is not None and not NEGATED.search(b.condition)
    ]


def _straight_to_end(steps: list[Step], current: int | None) -> set[str] | None:
    """Responses on the path from `current` to END; None when the path asks or runs more."""
    said: set[str] = set()
    seen: set[int] = set()
    while current is not None and steps[current].id != "END":
        if current in seen:
            return None
        seen.add(current)
        step = steps[current]
        if isinstance(step.next, list) and len(step.next) != 1:
            return None
        if step.kind == "action" and isinstance(step.target, str):
            said.add(step.target)
        elif step.kind not in ("noop", "set_memory"):
            return None
        current = _following(steps, current)
    return said


def _following(steps: list[Step], index: int) -> int | None:
    """The index of the step after `index` (its single `next`, or the one below); None at
    the end, and for a branch list (more than one way on)."""
    step = steps[index]
    if isinstance(step.next, list):
        return None if len(step.next) != 1 else _index(steps, step.next[0].target)
    if isinstance(step.next, str):
        return _index(steps, step.next)
    return index + 1 if index + 1 < len(steps) else None


def _index(steps: list[Step], step_id: str) -> int | None:
    return next((i for i, s in enumerate(steps) if s.id == step_id), None)


__all__ = ["Gate", "SkillSignals", "skill_signals"]
