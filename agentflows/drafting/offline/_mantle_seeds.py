"""What a case starts with: the channel context `setup.initial_slots` seeds.

Four kinds, all project fields marked `seed: true` (the only ones that reliably reach
memory, reference §2): the caller's phone and language, and the fields a skill's
`precondition` reads, set so that it holds (the runtime routes to no skill whose
precondition is false; `evalcore.definitions._preconditions`), and a categorical channel
field a skill routes on (`project.channel`), set to the value of the path the case is
planned on (or, where the plan leaves it unset, one that routes as the unset field does);
and the signed-in session's own seed fields the case's tools read (`project.resident_id`,
`planning._mantle_session`) or its skills' prose reads by reference, from the person's own
record (`@memory.project.time_zone`). Never a field the scenario asks the
user for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from evalcore.definitions import MemoryField, Project, gate_seeds, opener_of, opening_seeds
from evalcore.definitions.conditions import condition_keys, evaluate
from evalcore.definitions.skill_model import prose_reads, sentences, skill_model
from evalcore.testdata import (
    Caller,
    DataRecords,
    FieldSpec,
    SheetBuilder,
    account_of,
    account_value,
    own_key,
    people_of,
    session_person,
)

from ...planning import Behavior
from ...planning.mantle_offers import (
    channel_fields,
    channel_routing_fields,
    is_caller_phone,
    routing_conditions,
    session_fields,
)
from ._mantle_caller_fit import caller_fit
from ._mantle_facts import spec_of


def seeds_for(project: Project, customer: Caller) -> dict[str, Any]:
    """Channel context the run starts with: the caller's phone and language only."""
    assert project.mantle is not None
    out: dict[str, Any] = {}
    for field_def in channel_fields(project.mantle):
        name = field_def.name.lower()
        if is_caller_phone(field_def):
            out[field_def.qualified] = customer.phone
        elif "language" in name or "locale" in name:
            out[field_def.qualified] = "en"
    return out


def channel_values(project: Project, behavior: Behavior) -> dict[str, Any]:
    """The channel-context values the behaviour's path is planned on (`project.channel:
    phone` where the skill routes on it): the case seeds them."""
    assert project.mantle is not None
    values = behavior.facts.get("values") or {}
    return {
        f.qualified: values[f.qualified]
        for f in channel_fields(project.mantle)
        if f.qualified in values
    }


def unset_channel_values(
    project: Project, behavior: Behavior, linked: Iterable[str] = ()
) -> dict[str, Any]:
    """A value for each channel field a skill of the case routes on (`channel_routing_fields`)
    that the plan leaves unset (an escalation to a hand-off that books a callback `if:
    session.project.channel != "phone"`): the first listed value that takes the same
    branches as no value (`web_chat`). The case then says which channel it plays, rather
    than resting on a field a deployed channel always fills; where no value routes as the
    unset field does, none is seeded. `linked`: the skills the case's path hands over to
    with a block's `link:` step (a failed identity check's hand-off), which the case plays
    as much as its own."""
    assert project.mantle is not None
    defs = project.mantle
    planned = behavior.facts.get("values") or {}
    out: dict[str, Any] = {}
    for skill_id in dict.fromkeys([*_case_skills(behavior), *linked]):
        skill = defs.skills.get(skill_id)
        if skill is None:
            continue
        for field_def in channel_routing_fields(defs, skill):
            if field_def.qualified in planned or field_def.qualified in out:
                continue
            conditions = [
                c for c in routing_conditions(skill) if field_def.qualified in condition_keys(c)
            ]
            unset = [evaluate(c, {}) for c in conditions]
            for value in field_def.enum_values or []:
                if [evaluate(c, {field_def.qualified: value}) for c in conditions] == unset:
                    out[field_def.qualified] = value
                    break
    return out


def _case_skills(behavior: Behavior) -> list[str]:
    """The skills a case talks to: its own, and the one it digresses or escalates to."""
    skills = [behavior.source]
    for kind in ("digression", "escalation"):
        spec = behavior.facts.get(kind)
        if isinstance(spec, dict) and spec.get("skill"):
            skills.append(str(spec["skill"]))
    return skills


def _signed_skills(project: Project, behavior: Behavior) -> list[str]:
    """The case's skills, each after the sign-in skill that opens its precondition
    (`opener_of`): the channel seeds what that sign-in's tool looks the person up by (the
    badge a workspace sign-in knows), or the check has nobody to find."""
    out: list[str] = []
    for skill_id in _case_skills(behavior):
        opener = opener_of(project, skill_id)
        out += [s for s in (opener, skill_id) if s and s not in out]
    return out


def _who_signed_in(project: Project, behavior: Behavior, records: DataRecords) -> list[MemoryField]:
    """The seed fields that say who signed in, for a case whose seeds open a skill's
    precondition (`opening_seeds`: `project.authenticated: true`) though its own tools
    take no id: those a tool of the project looks a person up by (`session_fields` of any
    skill) whose people file's records hold them (`exec_id`). A signed-in session of
    nobody is one no channel makes, and the persona is then no person the project knows."""
    assert project.mantle is not None
    defs = project.mantle
    if not any(opening_seeds(project, s) for s in _case_skills(behavior)):
        return []
    out: list[MemoryField] = []
    for skill_id in defs.skills:
        for field_def in session_fields(project, skill_id):
            people = people_of(records, [field_def.name])
            if field_def in out or people is None or not people.records:
                continue
            if own_key(people.records[0], field_def.name, people.name) is not None:
                out.append(field_def)
    return out


def session_seeds(
    project: Project,
    behavior: Behavior,
    sheet: SheetBuilder,
    *,
    account: str | None = None,
    fixed: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The signed-in session's seed fields the case's tools read (`project.resident_id`),
    from the case's test data (`planning._mantle_session`): all of one person's where the
    project's records hold its people (`evalcore.testdata.session_person`), that one of
    them who agrees with the seeds the case already has (`fixed`: a precondition's
    `project.role`). `account` (`failing`, `negative`): the first id among them is the test
    account's (`R-50150`), for a project that seeds no caller phone the account could go
    in."""
    fields = [
        f
        for skill_id in _signed_skills(project, behavior)
        for f in session_fields(project, skill_id)
    ]
    fields += [f for f in _who_signed_in(project, behavior, sheet.records) if f not in fields]
    fit = caller_fit(project, behavior, sheet.records)
    person = _person(
        sheet,
        [f.name for f in fields],
        fixed or {},
        behavior.source,
        lambda record: fit(Caller(name="", phone="", record=record)),
    )
    out: dict[str, Any] = {}
    ids: list[str] = []  # the free-text ids among them, which may be widened
    for field_def in fields:
        if field_def.qualified in out:
            continue
        value = _own_value(person, field_def) if person is not None else None
        if value is None:
            value = sheet.value(_with_note(spec_of(field_def), field_def))
        if value is not None:
            out[field_def.qualified] = value
            if field_def.type == "text" and not field_def.enum_values:
                ids.append(field_def.qualified)
    if person is not None:  # what the prose reads of the person ("Times are in
        # @memory.project.time_zone"): their record's own value, never an invented one
        for field_def in _read_by_prose(project, behavior, fields):
            value = _own_value(person, field_def)
            if value is not None and field_def.qualified not in out:
                out[field_def.qualified] = value
    if account is None:
        return out
    # an id of the account's shape first; else the first text id, widened (never a choice,
    # nor an id the project's data files hold: the project defines that set)
    tries = [(k, False) for k in out] + [(k, True) for k in ids]
    for key, widen in tries:
        value = out[key]
        if isinstance(value, str) and sheet.records.defines(value):
            continue
        marked = account_value(value, account, widen=widen) if isinstance(value, str) else value
        if isinstance(marked, str) and account_of({marked}) == account:
            out[key] = marked
            break
    return out


def _with_note(spec: FieldSpec, field_def: MemoryField) -> FieldSpec:
    """`spec` described by the comment its memory file writes under the field where it has
    no description (`MemoryField.note`: `# SkyMiles tier of the signed-in app user`): what
    the seeded value is a property of, which the caller's records may say they lack
    (`SheetBuilder.recorded`)."""
    if spec.description or not field_def.note:
        return spec
    return replace(spec, description=field_def.note)


def _read_by_prose(
    project: Project, behavior: Behavior, taken: list[MemoryField]
) -> list[MemoryField]:
    """Seed project fields the case's skills read in their prose by reference
    (`@memory.project.time_zone`, a channel field the channel leaves unset), beside those
    already `taken`: a skill that reads times in the person's zone needs the zone seeded,
    or the offset of every time it sets is undefined."""
    assert project.mantle is not None
    defs = project.mantle
    read = {
        k for s in _case_skills(behavior) if s in defs.skills for k in prose_reads(defs.skills[s])
    }
    return [
        f
        for f in defs.memory.values()
        if f.seed
        and f.namespace == "project"
        and f.type == "text"
        and f not in taken
        and f.qualified in read
    ]


def _person(
    sheet: SheetBuilder,
    names: list[str],
    fixed: dict[str, Any],
    skill: str,
    fits: Callable[[dict[str, Any]], int] | None = None,
) -> tuple[dict[str, Any], str] | None:
    """The case's signed-in person and the file they are in: the record the case already
    holds of the people file the seeded ids name (the caller a phone seeded), else one
    that agrees with the `fixed` project seeds and holds their own records in the files
    `skill`'s tools read (a shift swap's caller has a shift) and whose records fit the
    case's branch best (`fits`), which the case then holds."""
    collection = people_of(sheet.records, names)
    if collection is None:
        return None
    held = sheet.sheet.records.get(collection.name)
    if held is None:
        own = {k.removeprefix("project."): v for k, v in fixed.items() if k.startswith("project.")}
        held = session_person(
            sheet.records, collection, own, sheet.key, sheet.slot, skill, sheet.prefer, fits
        )
        sheet.hold(held)
    return held, collection.name


def _own_value(person: tuple[dict[str, Any], str], field_def: MemoryField) -> Any:
    """The person's own value for a seeded field, or None where their record holds none
    (or none the field allows)."""
    record, collection = person
    key = own_key(record, field_def.name, collection)
    value = record.get(key) if key is not None else None
    if value is None or isinstance(value, list | dict):
        return None
    if field_def.enum_values and value not in field_def.enum_values:
        return None
    return value


def answer_account(
    project: Project,
    behavior: Behavior,
    values: dict[str, Any],
    seeds: dict[str, Any],
    records: DataRecords | None = None,
) -> dict[str, Any]:
    """`values` (the user's answers) with the failing account in the answer for an argument
    of the tool the case fails (`bag_tag: SK550150`), for a case whose `seeds` carry no
    account: the reference backend fails a call whose argument names the failing account.
    Only an answer that has an id's digits (a run of four) carries it; a name or a choice
    never does. An id outside the set the project's data `records` hold is what makes the
    lookup fail: the tools a failure case is planned for read the project's own data
    (a tool that calls an outside service gets none), so that id is the case's failing
    input, not an invented customer."""
    account = "failing"
    carried = account_of({v for v in seeds.values() if isinstance(v, str)})
    if behavior.facts.get("account") != account or carried == account:
        return values
    model = skill_model(project, behavior.source)
    for name in behavior.facts.get(account) or []:
        use = model.tool(str(name))
        for key in use.arguments.values() if use is not None else ():
            value = values.get(key)
            if isinstance(value, str):
                marked = account_value(value, account)
                if marked != value and account_of({marked}) == account:
                    return {**values, key: marked}
    return values


def precondition_seeds(project: Project, behavior: Behavior) -> dict[str, Any]:
    """Channel context that opens the skills the case talks to: the seed fields their
    `precondition` reads, set so it holds (the runtime routes to no other; see
    `evalcore.definitions._preconditions`), and those their tools' `requires` read that
    nothing else writes (`gate_seeds`)."""
    out: dict[str, Any] = {}
    for skill_id in _case_skills(behavior):
        out.update(gate_seeds(project, skill_id))
        out.update(opening_seeds(project, skill_id) or {})
    return out


def idle_seeds(
    project: Project,
    behavior: Behavior,
    seeds: dict[str, Any],
    memory: dict[str, Any],
    events: Iterable[tuple[str, str | None, str | None]],
) -> set[str]:
    """The seeds that open a gate of the case's own skill (`gate_seeds`) and have no effect
    on its path: no tool the path runs `requires` them, and no condition of the skill that
    reads them (an `utter` rule's `when`, an `if:` section, a step's `next`) comes out other
    than it would without them (a change freeze on a staging deploy, which only gates a
    promotion to prod). A case seeds none of them: a reviewer reads a seeded flag as part
    of what the case tests. A precondition's seed, one a detour's skill's gate reads, or
    one the skill's prose reads (`@memory.project.lease_holder`) is kept. `memory`: the
    path's memory at its end; `events`: its (kind, tool, utter) events."""
    defs = project.mantle
    assert defs is not None
    skill = defs.skills[behavior.source]
    kept: set[str] = set()
    for skill_id in _case_skills(behavior):
        kept |= set(opening_seeds(project, skill_id) or {})
        kept |= set(gate_seeds(project, skill_id)) if skill_id != skill.id else set()
    events = list(events)
    ran = {tool for kind, tool, _ in events if kind == "tool" and tool}
    said = {utter for kind, _, utter in events if kind == "utter" and utter}
    for tool, constraint in skill.tool_constraints.items():
        asked = constraint.requires_confirmation  # a gate met and declined counts too
        met = asked is not None and bool(
            {asked.utter_for_confirmation, asked.utter_on_user_denial} & said
        )
        if (tool in ran or met) and constraint.requires:
            kept |= set(condition_keys(constraint.requires))
    conditions = [u.when for u in skill.utter if u.when]
    conditions += [s.condition for s in sentences(skill.body or "") if s.condition]
    conditions += [
        b.condition
        for block in skill.blocks.values()
        for step in block.steps
        if isinstance(step.next, list)
        for b in step.next
    ]
    idle: set[str] = set()
    body = skill.body or ""
    for key in gate_seeds(project, skill.id):
        if key in kept or key not in seeds or f"@memory.{key}" in body:
            continue  # a flag the prose reads ("an occupant not on the lease sees no amounts")
        with_seed = {**memory, key: seeds[key]}
        without = {k: v for k, v in memory.items() if k != key}
        read = [c for c in conditions if c and key in condition_keys(c)]
        if all(_holds(c, with_seed) == _holds(c, without) for c in read):
            idle.add(key)
    return idle


def _holds(condition: str, memory: dict[str, Any]) -> bool | None:
    """The condition's value on `memory` (None: it cannot be read)."""
    try:
        return bool(evaluate(condition, memory))
    except Exception:  # an unreadable condition decides nothing the case can rest on
        return None


__all__ = [
    "answer_account",
    "channel_values",
    "idle_seeds",
    "precondition_seeds",
    "seeds_for",
    "session_seeds",
    "unset_channel_values",
]
