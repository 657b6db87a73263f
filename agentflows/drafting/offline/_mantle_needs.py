"""What the calls a case asserts need from the user, beyond what the walk asked.

A Mantle tool runs once its `requires` holds, with arguments the model fills from memory.
Where the prose has the model set a field a call reads without a question the walk
recognises ("Ask why (set justification) and for how long (set duration_hours, 1 to 8)";
a bag tag a filing `requires`), the walk fills it itself, and a case built from its asks
alone gives the user no value: a correct agent asks and the simulated user invents one,
or the call never comes. So each such field gets a value from the case's test data (the
caller's own records first: the bag tag on their booking), the walk is replayed with it,
and the user is told it as a fact.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from evalcore.definitions import MantleDefinitions, MemoryField, Project, memoized
from evalcore.definitions.conditions import condition_keys
from evalcore.definitions.skill_model import (
    code_facts,
    qualify,
    sentences,
    set_from_answer,
    skill_model,
)
from evalcore.lexicon.en.field_name_words import ID_TAILS as _ID_TAILS
from evalcore.lexicon.en.prose_acts import PASSING as _PASSING
from evalcore.testdata import SheetBuilder, by_status, own_key, stated_code

from ._direction import value_words
from ._mantle_facts import field_value, is_internal, spec_of
from ._mantle_script_state import Walk


def read_by_calls(project: Project, walk: Walk) -> frozenset[str]:
    """The memory the walk's tool calls read: their `requires` and the fields their
    arguments are filled from; and the `requires` of a gated call the user is asked to
    confirm (a declined one too: the question comes only once they hold)."""
    assert project.mantle is not None
    defs = project.mantle
    out: set[str] = set()
    for ask in walk.asks:
        skill = defs.skills.get(ask.skill or walk.skill)
        gate = skill.tool_constraints.get(ask.tool) if skill is not None and ask.tool else None
        if ask.kind == "confirm" and gate is not None:
            out |= set(condition_keys(gate.requires))
    for event in walk.events:
        if event.kind != "tool" or not event.tool:
            continue
        skill_id = event.skill or walk.skill
        skill = defs.skills.get(skill_id)
        constraint = skill.tool_constraints.get(event.tool) if skill is not None else None
        if constraint is not None:
            out |= set(condition_keys(constraint.requires))
        model = skill_model(project, skill_id)
        use = model.tool(event.tool) if model is not None else None
        if use is not None:
            out |= set(use.arguments.values())
        out |= named_in_call(project, skill_id, event.tool)
    return frozenset(out)


#: How a sentence names a memory entry it passes (`@memory.project.caller_phone`).
_MEMORY = "@memory."


def named_in_call(project: Project, skill_id: str, tool: str) -> frozenset[str]:
    """The memory a call's own sentence passes to a tool whose parameters nothing declares
    (an MCP tool): "Call trace_bag with the tag" -> `baggage.bag_tag`; "passing the store,
    equipment type, symptom" -> `project.store_id` and the skill's fields."""
    model = skill_model(project, skill_id)
    use = model.tool(tool) if model is not None else None
    if use is None or use.arguments:
        return frozenset()
    return sentence_fields(project, skill_id, tool)


def sentence_fields(project: Project, skill_id: str, tool: str) -> frozenset[str]:
    """The memory the sentences that call `tool` pass it: `@memory.<key>` ("try
    @tool.find_policyholder with @memory.project.caller_phone") and what follows "with" or
    "passing", named by a field's words ("equipment type"), its last one ("tag" for
    `bag_tag`) or, for an id, the thing it names ("the store" for `store_id`). Read once
    per loaded project: every argument of every case's calls asks for it."""
    assert project.mantle is not None
    key = ("sentence_fields", skill_id, tool)
    return memoized(project.mantle, key, lambda: _sentence_fields(project, skill_id, tool))


def _sentence_fields(project: Project, skill_id: str, tool: str) -> frozenset[str]:
    assert project.mantle is not None
    defs = project.mantle
    model = skill_model(project, skill_id)
    use = model.tool(tool) if model is not None else None
    if use is None:
        return frozenset()
    skill = defs.skills.get(skill_id)
    fields = [*(skill.memory.values() if skill is not None else ()), *defs.memory.values()]
    out: set[str] = set()
    for call in use.calls:
        sentence = " ".join((call.sentence or "").split())
        tokens = sentence.split()
        for token in tokens:  # `@memory.project.caller_phone` passes that field
            ref = token.removeprefix(_MEMORY).rstrip(".,;:)")
            field = defs.memory_field(ref) or defs.memory_field(f"{skill_id}.{ref}")
            if token.startswith(_MEMORY) and field is not None:
                out.add(field.qualified)
        plain = " ".join(t for t in tokens if not t.startswith("@"))
        for match in _PASSING.finditer(plain):
            items = match["what"].lower().replace(" and ", ",").split(",")
            for item in (i.split() for i in items):
                for field in fields:
                    if _names(field.name, item):
                        out.add(field.qualified)
                        break
    return frozenset(out)


def _names(name: str, item: list[str]) -> bool:
    """Whether the words `item` of a call's sentence name the field `name`."""
    words = name.lower().split("_")
    if len(words) > 1 and words[-1] == "id":
        words = words[:-1]  # `store_id` is named as "the store"
    if not item:
        return False
    return item[-len(words) :] == words or (len(item) == 1 and item[0] == words[-1])


def _tool_written(project: Project, defs: MantleDefinitions) -> frozenset[str]:
    """Every memory key a tool of the project writes (qualified), read once per project."""

    def build() -> frozenset[str]:
        out: set[str] = set()
        for skill_id in defs.skills:
            for tool in defs.tools_for(skill_id).values():
                out |= {qualify(w.key, skill_id, defs) for w in code_facts(project, tool).writes}
        return frozenset(out)

    return memoized(defs, "needs_tool_written", build)


def _users_to_give(field: MemoryField | None) -> bool:
    """A field the model sets from what the user says: settable, of a skill, not an id
    only a tool's answer holds, nor a yes/no the conversation itself decides."""
    return (
        field is not None
        and field.namespace != "project"
        and bool(field.llm_settable)
        and field.type not in ("bool", "json")
        and not is_internal(field)
    )


#: An example id in a description, in brackets: "(SK482177)", "(BL-0417)".
_EXAMPLE_ID = re.compile(r"\((?:e\.g\.\s*)?([A-Z][A-Z0-9-]*\d[A-Z0-9-]*)\)")


def id_shape(description: str) -> re.Pattern[str] | None:
    """The shape of an id the description spells out ("SK followed by six digits") or
    shows by example ("(BL-0417)": letters and dashes kept, each digit any digit)."""
    stated = stated_code(description)
    if stated is not None:
        return stated
    found = _EXAMPLE_ID.findall(description or "")
    if not found:
        return None
    shape = "".join(r"\d" if c.isdigit() else re.escape(c) for c in found[-1])
    return re.compile(rf"(?<![\w-]){shape}(?![\w-])")


def own_value(field: MemoryField, sheet: SheetBuilder) -> str | None:
    """The value a record the case holds gives the field: one of the field's id shape it
    lists (the bag tag on the caller's booking), else its key of the same thing
    (`home_store` for `store_id`); None where none does: the caller's own, never an
    invented one."""
    shape = id_shape(field.description or "")
    held = [(n, r) for n, r in sheet.sheet.records.items() if "#" not in n]  # not a role's
    listed: list[str] = []
    for _, record in held if shape is not None else ():
        for value in record.values():
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, str) and shape is not None and shape.fullmatch(item.strip()):
                    listed.append(item.strip())
    if listed:  # of a booking's two bags, the one whose status the case's branch names
        return by_status(sheet.records, listed, sheet.prefer)[0]
    for name, record in held:
        value = record.get(own_key(record, field.name, name) or "")
        if isinstance(value, str) and value.strip():
            return value
    head, _, tail = field.name.partition("_")
    # `team_slug` of a record's `team`: of the record the case is about (the service it
    # pages for, whose owner is the team to wake) before the caller's own team
    held.sort(key=lambda item: item[0] == sheet.caller)
    for _, record in held if tail in _ID_TAILS else ():
        value = record.get(head)
        if isinstance(value, str) and value.strip():
            return value
    return None


def _not_the_users(defs: MantleDefinitions, field: MemoryField) -> bool:
    """A field the agent writes itself (a summary in its own words) or takes from a tool's
    answer ("Offer id of the chosen flight from search_flights", "set it from the
    list_refillable result"): the user has no value of their own to tell."""
    if spec_of(field, defs).narrative_of is not None:
        return True
    skill = defs.skills.get(field.namespace)
    tools = set(defs.tools_for(field.namespace)) if skill is not None else set()
    words = set(re.findall(r"\w+", field.description or ""))
    if tools & words:
        return True
    parts = sentences(skill.body or "") if skill is not None else []
    return any(set_from_answer(field, part.text) for part in parts)


def needed_values(
    project: Project, walk: Walk, values: dict[str, Any], sheet: SheetBuilder
) -> dict[str, Any]:
    """A value for each field a call of `walk` reads that the walk set without asking and
    that `values` do not hold (see the module's docstring)."""
    assert project.mantle is not None
    defs = project.mantle
    read = read_by_calls(project, walk)
    asked = {a.field for a in walk.asks if a.field}
    written = _tool_written(project, defs)
    out: dict[str, Any] = {}
    set_keys = [e.key for e in walk.events if e.kind == "memory" and e.key]
    for key in dict.fromkeys([*set_keys, *sorted(read)]):
        if key in out or key in values:
            continue
        if key not in read or key in asked or key in written:
            continue
        field = defs.memory_field(key)
        if field is None or not _users_to_give(field) or _not_the_users(defs, field):
            continue
        shape = id_shape(field.description or "") if field.type == "text" else None
        value = own_value(field, sheet) if field.type == "text" else None
        if value is None and shape is not None and sheet.records.holds_shape(shape):
            continue  # the project's own ids, none the caller's: never another's, nor made up
        if value is None and key not in set_keys:
            continue  # a field the path never sets is told only where the caller's record has it
        if value is None:
            value = field_value(defs, field, sheet, {**values, **out})
        if value is not None:
            out[key] = value
    return out


def gate_inputs(project: Project, walk: Walk) -> frozenset[str]:
    """Text fields a call's `requires` on the path reads that the walk recorded with no
    question and no tool writes, and that are the user's to give (the claim an upload link
    is for): the agent filled the gate itself, but the user still has the value to tell. A
    choice is not one: the agent reads it off the request (`question_type`)."""
    assert project.mantle is not None
    defs = project.mantle
    asked = {a.field for a in walk.asks if a.field}
    gates: set[str] = set()
    for event in walk.events:
        skill = defs.skills.get(event.skill or walk.skill) if event.kind == "tool" else None
        constraint = skill.tool_constraints.get(event.tool or "") if skill is not None else None
        if constraint is not None:
            gates |= set(condition_keys(constraint.requires))
    written = _tool_written(project, defs)
    return frozenset(
        k
        for k in gates - asked - written
        if _users_to_give(defs.memory_field(k))
        and defs.memory_field(k).type == "text"  # type: ignore[union-attr]
        and not _not_the_users(defs, defs.memory_field(k))  # type: ignore[arg-type]
    )


def list_examples(project: Project, walk: Walk) -> dict[str, str]:
    """Label -> value, for each list parameter of a call of `walk` that no memory list
    fills ("log what was discarded, item by item with quantities": `items: list[dict]`)
    and whose docstring gives an example (`[{"item": "sweet cream", "quantity": 2, ...}]`):
    the user says its first item, so a correct agent has something to pass."""
    assert project.mantle is not None
    defs = project.mantle
    out: dict[str, str] = {}
    for event in walk.events:
        if event.kind != "tool" or not event.tool:
            continue
        skill_id = event.skill or walk.skill
        tool = defs.tools_for(skill_id).get(event.tool)
        model = skill_model(project, skill_id)
        use = model.tool(event.tool) if model is not None else None
        sources = dict(use.arguments) if use is not None else {}
        for param in tool.parameters if tool is not None else ():
            if not param.required or not (param.type or "").lower().startswith("list"):
                continue
            source = defs.memory_field(sources.get(param.name, ""))
            if source is not None and source.type == "list":
                continue  # a list field: the user answers its question
            item = _first_example(param.description or "")
            label = f"{value_words(param.name)} ({value_words(event.tool)})"
            if item is not None and label not in out:
                out[label] = item
    return out


def _first_example(description: str) -> str | None:
    """The first item of a list the description writes out as a literal, in words."""
    start, end = description.find("["), description.rfind("]")
    if start < 0 or end < start:
        return None
    text = re.sub(r",\s*(?:\.\.\.|…)\s*(?=\])", "", description[start : end + 1])
    try:
        items = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    if not isinstance(items, list) or not items:
        return None
    first = items[0]
    if isinstance(first, dict):
        parts = [f"{k} {v}" for k, v in first.items() if isinstance(v, str | int | float)]
        return ", ".join(parts) or None
    return str(first) if isinstance(first, str | int | float) else None


def call_seeds(
    project: Project, skill_id: str, sheet: SheetBuilder, seeds: dict[str, Any]
) -> dict[str, Any]:
    """Seed project fields a call of the skill passes (`named_in_call`: "passing the
    store" for `project.store_id`) that have no `initial_value`, that no tool writes and
    that `seeds` lack, each from the caller's record where it holds one (their home
    store): the channel sets them (`seed: true`), and a case without them leaves the call
    nothing to pass."""
    assert project.mantle is not None
    defs = project.mantle
    written = _tool_written(project, defs)
    out: dict[str, Any] = {}
    for tool in defs.tools_for(skill_id):
        for key in sorted(named_in_call(project, skill_id, tool)):
            field = defs.memory_field(key)
            if field is None or field.namespace != "project" or not field.seed:
                continue
            if key in seeds or key in out or key in written or field.initial_value is not None:
                continue
            value = own_value(field, sheet)
            if value is not None:
                out[key] = value
    return out


__all__ = [
    "call_seeds",
    "gate_inputs",
    "list_examples",
    "named_in_call",
    "needed_values",
    "read_by_calls",
    "sentence_fields",
]
