"""The simulated user of one Mantle case: a fact sheet and the moments the case needs exact
words, built from the skill's walk (`agentflows.planning._mantle_walk`).

Every ask of the walk becomes a fact (`label: value`, `_mantle_facts`): identity details,
block and prose questions, yes/no questions; a confirmation becomes the context's
agree/decline line. Behaviours add quoted lines at the ask the planner chose (`facts["at"]`):
an out-of-order opening carries the answers (`Open with`), a correction answers wrongly and
fixes it, a digression, escalation, unrelated request or adversarial turn comes instead of
the answer (`When the agent asks …, say instead`), and the agent's question is answered from
the facts when it comes back. The result is an `evalcore.simulator.FactContext`, so the
offline simulator plays exactly what the drafter wrote (docs/simulation-contexts.md).
"""

from __future__ import annotations

import calendar
import json
import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from evalcore.agents.reference import asked_request, wanted_clause
from evalcore.definitions import (
    MemoryField,
    Project,
    Skill,
    memoized,
    resolver_of,
)
from evalcore.definitions.conditions import condition_keys, evaluate
from evalcore.definitions.skill_model import (
    code_facts,
    data_readers,
    kept_set_at,
    lacked_in_cue,
    prose_verb,
    related_keys,
    relation_waivers,
    reported_fields,
    sentences,
    set_at,
    set_from_answer,
    skill_model,
    written_by_agent,
)
from evalcore.definitions.skill_model.cues import heard
from evalcore.lexicon.en.user_line_words import NO_CHOICE as _NO_CHOICE
from evalcore.simulator import (
    CHANCE_NOTE,
    CLOSING,
    ContextFact,
    CueLine,
    FollowUp,
    opening_line,
)
from evalcore.simulator import first_person as own_words
from evalcore.testdata import (
    Caller,
    DataRecords,
    FieldSpec,
    SheetBuilder,
    account_of,
    branch_facts,
    caller_for,
    caller_ids,
    callers_in,
    case_rng,
    holdings,
    in_good_standing,
    load_records,
    month_on_record,
    named_by,
    place_of_story,
    record_name,
    sheet_lines,
)

from ...planning import Behavior, failure_outcome, not_a_goal
from ...planning.mantle_offers import (
    SET,
    Ask,
    Setup,
    Walk,
    activation_phrase,
    activation_phrases,
    after_identity,
    behavior_setup,
    description_phrases,
    first_person,
    is_caller_phone,
    own_phrases,
    paired_phrases,
    plain_opening,
    second_person,
    sign_in_prelude,
    strong_phrases,
    told_example,
    value_line,
    walk_skill,
    written_form,
)
from ._direction import value_words
from ._direction_values import content_stems
from ._mantle_asides_heard import aside_notes
from ._mantle_branch_phrases import branch_intent, handed_values, scoping_values
from ._mantle_caller_fit import branch_prose, caller_fit, detour_lacked
from ._mantle_chance import chance_keys, chance_tools, gated_callees, other_branches
from ._mantle_circumstances import circumstance_facts, said_unasked
from ._mantle_clock_branch import clock_offers
from ._mantle_currency import facts_in_currency, is_currency, paid_currency, said_in
from ._mantle_data_sides import gate_reasons, gate_sides, numbers_on_side
from ._mantle_facts import (
    ACCEPTED,
    DECLINED,
    QUESTION_WORDS,
    asked_clause,
    audience_shared,
    audience_text,
    confirms,
    confirms_by_read_back,
    field_value,
    fill_values,
    first_word,
    from_the_agents_list,
    gate_question,
    gate_words,
    holds,
    label_for,
    listing_tool,
    named_instead,
    offers,
    offers_into,
    offers_passed,
    offers_taken,
    one_choice_asked,
    open_outcomes,
    paid_to,
    question_answer,
    read_from_a_tool,
    reported,
    reported_label,
    reported_value,
    request_values,
    set_fields_asks,
    spec_of,
    spoken,
    tells_what_happened,
    value_label,
)
from ._mantle_handoff_facts import NEED, handoff_facts
from ._mantle_held import held_lines, held_thing, lacked_listing, pick_line
from ._mantle_identity import identity_facts, label_of, read_facts, tools_write
from ._mantle_intent import (
    detour_opening,
    intent_clause,
    job_opening,
    modes_said,
    named_once,
    not_self_named,
    one_request,
    other_day,
    other_kind,
    own_opening,
    own_records_named,
    routes,
    says_value,
    sign_in_openings,
    without_month,
)
from ._mantle_mismatch import detail_check, one_wrong
from ._mantle_needs import call_seeds, gate_inputs, list_examples, needed_values
from ._mantle_offer_gates import blocked_offers
from ._mantle_on_file import on_file
from ._mantle_on_record import lacked_on_record, note_unheld
from ._mantle_own_example import example_record, own_example
from ._mantle_owned import owned_facts
from ._mantle_picked import PICK_NOTE, list_pick_note, picked_from_offer
from ._mantle_questions import asked_question
from ._mantle_reasons import reason_facts
from ._mantle_roles import case_role, role_field, role_seed, seeded_caller, seeded_kind
from ._mantle_sandbox import sandboxed
from ._mantle_script_state import Script
from ._mantle_seeds import (
    answer_account,
    channel_values,
    idle_seeds,
    precondition_seeds,
    seeds_for,
    session_seeds,
    unset_channel_values,
)
from ._mantle_step_questions import step_offers
from ._mantle_step_values import on_the_path, step_text, step_value, step_values
from ._mantle_testdata import detail_name, pushed_request, unrelated_for
from ._mantle_up_front import (
    asks_one_request,
    case_values,
    in_one_sentence,
    leaves_for_later,
    listed_detail,
    names_the_job,
    not_a_greeting,
    not_said_twice,
    plain_value,
)

#: The escalation line's reason where the skill gives no topic: it says nothing a hand-off
#: that asks why could pass on.
_VAGUE_REASON = "It's about my request."
#: Kinds whose turn waits for a question of the skill's own (a correction of the answer, a
#: vague answer, a detour, a cue) or that give their values up front themselves.
_HANGS_ON_A_QUESTION = frozenset({"correction", "ambiguity", "digression", "cue", "out_of_order"})
#: The hand-off's question for its reason, as the user's fact names it.
_WHY_PERSON = "why you want a person"
STOP_AFTER_HANDOFF = "the agent says it is passing you to someone"
STOP_DONE = "the agent has told you the outcome and asks nothing more"


def _handoff_stop(outcome: str | None) -> str:
    """The stopping point of a hand-off case: the outcome the case asserts (the ticket id
    the hand-off tool writes, the hand-off confirmed), not the first "I'll connect you",
    which can come before the tool runs."""
    if outcome is None:
        return STOP_AFTER_HANDOFF
    if outcome == "confirmed":
        return "the agent confirms the hand-off has been made"
    return f"the agent has given you the {outcome} of your hand-off"


def build_script(project: Project, behavior: Behavior, *, slot: int | None = None) -> Script:
    """Draw the case's test data, walk the behaviour with it and write the context (`slot`:
    the case's place among its skill's cases, so the suite's cases draw different records)."""
    assert project.mantle is not None
    defs = project.mantle
    # read once per loaded project: every case of the run draws from the same files
    records = shared_records(project)
    callers = memoized(defs, "data_callers", lambda: callers_in(records))
    planned = behavior.facts.get("values") or {}
    fixed = frozenset(str(v) for v in planned.values() if isinstance(v, str))
    fits_branch = caller_fit(project, behavior, records)
    # a check a wrong detail fails: one of the project's own people gets one detail wrong
    check = detail_check(project, behavior)
    customer = caller_for(
        behavior.id,
        None if check else behavior.facts.get("account"),
        callers,
        # whose records fit the case's branch first (`_mantle_caller_fit`), then whose
        # records hold the case's choices, then who has records of their own, then who is
        # in good standing (a check turns a lapsed policy's holder away)
        lambda caller: (
            fits_branch(caller)
            + 4 * holdings(records, caller, fixed)
            + 2 * _owns_all(records, caller, behavior)
            + in_good_standing(records, caller)
        ),
        slot,
    )
    seeds = {
        **seeds_for(project, customer),
        **precondition_seeds(project, behavior),
        **unset_channel_values(project, behavior),
        **channel_values(project, behavior),
    }
    # A seeded caller phone resolves to a caller: one of the project's own records with a
    # phone, else (a project with none) a built-in test account. The persona is its holder
    # and gives its identity details; a project whose records hold nobody with a phone
    # draws the persona from its records and seeds a built-in phone (the case says so).
    fields = defs.memory_names()
    phones = [k for k in seeds if k in fields and is_caller_phone(fields[k])]
    # a person nested in another file's record (a booking's passenger) is found by that
    # record's id and their name, never by a phone
    nested = customer.within is not None
    account = nested or (bool(phones) and (not customer.built_in or not records.collections))
    holder = customer.name if account else None
    skill = defs.skills[behavior.source]
    audience, shared = audience_text(defs, skill), audience_shared(defs)
    role = role_field(defs, audience, records, shared)
    kind = case_role(role, seeds, planned, skill) if role is not None else seeded_kind(defs, seeds)
    if account and customer.record is not None:  # the case draws the caller's own records
        records = replace(records, identity={**records.identity, **caller_ids(customer)})
    sheet = SheetBuilder(
        behavior.id,
        audience,
        records,
        first_name=holder,
        prefer=fixed,
        slot=slot,
        role_value=kind,
        require=tool_requirements(project, skill.id, behavior),
        shared=shared,
        full_name=None if holder else seeded_caller(defs),
    )
    if account and customer.record is not None:  # the caller's own record, for every fact
        sheet.hold(customer.within or customer.record, customer.full_name or None)
        lacked = detour_lacked(defs, behavior, customer)
        if lacked is not None:  # a bag complaint from a passenger who checked no bag
            sheet.sheet.misfits.append(lacked)
    # the example the case opens with for its choice names one record (a service): the
    # case holds it, so its facts name the same one (the team that owns it)
    for phrase, _ in own_phrases(defs, planned):
        named = example_record(records, sheet.sheet.records, sheet.linked(), phrase)
        if named is not None:
            sheet.sheet.records[named[0]] = named[1]
    if role is not None and role.qualified not in seeds:  # the session says who they are
        seeds.update({role.qualified: kind} if kind else role_seed(role, sheet.persona.role))
    # the failing or negative test account goes in a seeded id where no phone is seeded
    marked = None if phones or check else behavior.facts.get("account")
    seeds.update(session_seeds(project, behavior, sheet, account=marked, fixed=seeds))
    seeds.update(call_seeds(project, skill.id, sheet, seeds))
    # a skill a sign-in opens: the case signs in first (the runtime routes nowhere else)
    prelude = sign_in_prelude(project, behavior.source, seeds)
    opened = {**seeds, **(after_identity(prelude) if prelude else {})}
    setup = behavior_setup(behavior.facts, opened)
    if prelude is not None:  # the sign-in asks too: the user knows what it asks for
        prelude = answered_walk(project, prelude, Setup(memory=dict(seeds)), sheet)
    first = walk_skill(project, behavior.source, setup)
    # a skill the path hands over to with `link:` says which channel it plays too; the value
    # routes as the unset field does, so the walk stands
    linked = [e.key for e in first.events if e.kind == "link" and e.key]
    for key, value in unset_channel_values(project, behavior, linked).items():
        seeds.setdefault(key, value)
    # a record a gate decides by is drawn on the side of the tools the case runs
    calls = frozenset(e.tool for e in first.events if e.kind == "tool" and e.tool)
    sheet.holds.update(gate_sides(project, skill.id, calls))
    sheet.holds_why.update(gate_reasons(project, skill.id, calls))
    # a check of the path that relates the caller's record to the target's passes
    sheet.related = case_relations(project, skill.id, behavior, calls)
    sheet.waivers = relation_waivers(project, skill.id, calls) if sheet.related else {}
    values = fill_values(defs, first, dict(setup.values), sheet)
    values = step_values(defs, first, values)  # a step's own example on the branch
    # a number a tool compares with the data's rows is on the side the path's branch needs
    known = sheet.referenced() | {str(v) for v in opened.values() if isinstance(v, str | int)}
    values = numbers_on_side(
        project, skill.id, dict(setup.negative), values, sheet.records, frozenset(known)
    )
    # where a tool acts on a real service, the user names a test-only target for it
    values = sandboxed(project, skill.id, values, set(setup.values))
    stated = request_values(project, skill.id, first, values, sheet)
    values = answer_account(project, behavior, values, seeds, sheet.records)
    values, wrong = one_wrong(check, values) if check else (values, None)
    needed = needed_values(project, first, {**values, **stated}, sheet)
    for key, value in needed.items():  # what a call reads that no question of the walk asks
        said = spoken(defs, key, value)
        if said is not None:
            sheet.add(value_words(key.rsplit(".", 1)[-1]), said, field=key)
    for label, item in list_examples(project, first).items():  # a list a call takes
        sheet.add(label, item)
    for label, why in reason_facts(project, first, behavior.id):  # a reason no field holds
        sheet.add(label, why)
    setup = replace(setup, values={**values, **stated, **needed})
    walk = walk_skill(project, behavior.source, setup)
    met = [(e.kind, e.tool, e.utter) for e in walk.events]
    for key in idle_seeds(project, behavior, seeds, walk.memory, met):  # a flag never met
        seeds.pop(key, None)
    handoffs = memoized(
        defs,
        ("handoff_skills", id(defs.skills), len(defs.skills)),
        lambda: frozenset(s.id for s in defs.skills.values() if s.is_handoff),
    )
    script = Script(
        behavior,
        customer,
        seeds,
        walk,
        sheet.sheet,
        handoff_skills=handoffs,
        stated=stated,
        needed=frozenset(needed),
    )
    script.prelude = prelude
    if wrong is not None:
        script.context.notes.append(wrong)
    _Writer(project, script, sheet, account, dict(setup.values)).write()
    return script


def _owns_all(records: DataRecords, caller: Caller, behavior: Behavior) -> bool:
    """Whether the caller holds their own record in each file the case's skill reads by
    their id (`DataRecords.owns_all`): a refill's caller has a prescription to name."""
    return caller.record is not None and records.owns_all(caller.record, behavior.source)


def shared_records(project: Project) -> DataRecords:
    """The project's records, read once per loaded project: every case of the run draws
    from the same files."""
    assert project.mantle is not None
    return memoized(project.mantle, "data_records", lambda: project_records(project))


def project_records(project: Project) -> DataRecords:
    """The project's data files, each with the skills whose tools read it, and the caller
    the project seeds (project memory's `initial_value`s: `customer_id: "123"`), whose own
    records the cases draw."""
    records = load_records(project.root)
    records.readers = data_readers(project, (c.name for c in records.collections))
    records.identity = seeded_identity(project)
    return records


def tool_requirements(
    project: Project, skill_id: str, behavior: Behavior
) -> dict[str, frozenset[str]]:
    """Record field -> the values the skill's tools work only with (`claim_status: 2` for
    a booking the code refuses otherwise): a case that expects them to work draws such a
    record; a failure or a negative result is another record's."""
    assert project.mantle is not None
    if behavior.facts.get("kind") in ("failure", "negative"):
        return {}
    out: dict[str, set[str]] = {}
    for tool in project.mantle.tools_for(skill_id).values():
        for name, values in code_facts(project, tool).requires:
            out.setdefault(name, set()).update(str(v) for v in values)
    return {k: frozenset(v) for k, v in out.items()}


def case_relations(
    project: Project, skill_id: str, behavior: Behavior, called: frozenset[str]
) -> frozenset[str]:
    """Record keys the checks the case's path runs (`called`) compare between the caller's
    record and the target's (`related_keys`: the engineer's `team` and the service's): a
    case whose tools are to work draws a caller and a target that agree on them (a service
    of the caller's team, which the permission check lets them change); a failure or a
    negative result is another pair's, and a path that runs no such check (a diagnose
    request) any."""
    if behavior.facts.get("kind") in ("failure", "negative"):
        return frozenset()
    return related_keys(project, skill_id, called)


def seeded_identity(project: Project) -> dict[str, str]:
    """Project memory field name -> its seeded scalar `initial_value` (who is calling)."""
    assert project.mantle is not None
    out: dict[str, str] = {}
    for field in project.mantle.memory_names().values():
        value = field.initial_value
        # a text field only: a seeded count or flag (`attempts: 0`) says nobody's identity
        text = field.type == "text" and isinstance(value, str) and value.strip()
        if field.namespace == "project" and text:
            out[field.name] = str(value)
    return out


def answered_walk(project: Project, walk: Walk, setup: Setup, sheet: SheetBuilder) -> Walk:
    """`walk` (played with `setup`) again with a value for each of its asks: the user knows
    what a sign-in or a detour skill asks for as well as what their own skill does."""
    assert project.mantle is not None
    values = fill_values(project.mantle, walk, dict(setup.values), sheet)
    if values == setup.values:
        return walk
    return walk_skill(project, walk.skill, replace(setup, values=values))


def counted(skill: Skill, line: str, given: dict[str, Any]) -> dict[str, int]:
    """The counts `line` states of the skill's number fields ("I have 24 DNA samples" ->
    `sample_count: 24`): a number followed within two words by a word of the field's name.
    The user who said it answers the field's question with the same number, never another
    one drawn for it."""
    said = line.replace(",", " ").split()
    out: dict[str, int] = {}
    for field_def in skill.memory.values():
        if field_def.type != "int" or field_def.qualified in given:
            continue
        named = set(content_stems(field_def.name.replace("_", " "))) - {"count", "number"}
        for index, word in enumerate(said):
            after = set(content_stems(" ".join(said[index + 1 : index + 3])))
            if word.isdigit() and named & after:
                out[field_def.qualified] = int(word)
                break
    return out


def _day(said: str) -> datetime | None:
    """`12/15/2026` as a day; None for anything else."""
    try:
        return datetime.strptime(said.strip(), "%m/%d/%Y")
    except ValueError:
        return None


def _time(said: str) -> datetime | None:
    """`4:45 pm` or `16:45` as a time of day; None for anything else."""
    for shape in ("%I:%M %p", "%H:%M"):
        try:
            return datetime.strptime(said.strip().upper(), shape)
        except ValueError:
            continue
    return None


class _Writer:
    def __init__(
        self,
        project: Project,
        script: Script,
        sheet: SheetBuilder,
        account: bool,
        setup_values: dict[str, Any],
    ) -> None:
        self.setup_values = setup_values
        assert project.mantle is not None
        self.project = project
        self.defs = project.mantle
        self.script = script
        self.sheet = sheet
        self.account = account
        self.facts = script.facts
        self.context = script.context
        self._labels: dict[tuple[Any, ...], str] = {}
        self.need: str | None = None
        """A hand-off's matter said in a details-up-front first message (`opening`)."""

    # --- facts ---------------------------------------------------------------------------

    def label(self, ask: Ask) -> str:
        """`label_for(ask)`, read once per case for each ask (what it reads of the ask is
        the key): every fact weighs the labels of all the walk's asks."""
        key = (ask.kind, ask.prompt, ask.details, ask.field)
        label = self._labels.get(key)
        if label is None:
            field = self.defs.memory_field(ask.field) if ask.field else None
            label = self._labels[key] = value_label(label_for(ask), field)
        return label

    def fact(self, ask: Ask, value: Any = None) -> str | None:
        """Add the fact `ask` needs; its label (the cue for a line said instead). A question
        that asks for several fields ("when it happened and where": date, time, place) is
        named by each field, so each gets its own fact."""
        label = self.label(ask)
        if ask.field:  # a question without a field is named by its label alone
            shared = {
                a.field
                for a in self.script.walk.asks
                if a.field and a.kind == ask.kind and self.label(a) == label
            }
            if len(shared) > 1:
                label = value_words(ask.field.split(".", 1)[-1])
        if ask.kind == "identity":
            labels = []
            checked = self.checked_details(ask) if self.account else {}
            fields = self.detail_fields(ask)
            for detail in ask.details:
                said = checked.get(detail)
                value = self.identity_value(detail) or said
                # the memory field the check's parameter is filled from, where the value
                # is the one the check compares (the drafter asserts a later call with it)
                own = said is None or value == said
                self.sheet.add(detail, value, field=fields.get(detail) if own else None)
                labels.append(detail)
            return " and ".join(labels) if labels else None
        if ask.kind == "confirm":
            if ask.confirm is False:
                self.context.confirm = "decline"
            return None
        if confirms(self.defs, ask):
            return label
        if ask.kind == "question":
            self.sheet.add(label, question_answer(self.defs.skills[ask.skill], ask.prompt))
            return label
        field_def = self.defs.memory_field(ask.field or "")
        if reported(field_def, ask.prompt) and isinstance(ask.value, bool):
            assert field_def is not None
            label = reported_label(field_def) or label
            self._labels[(ask.kind, ask.prompt, ask.details, ask.field)] = label
            self.sheet.add(label, reported_value(ask.value), field=ask.field)
            return label
        given = ask.value if value is None else value
        skill = self.defs.skills[self.script.behavior.source]
        named = named_instead(skill, field_def, given)
        if named is not None:  # a channel named as a person names it, not its id
            label = self._labels[(ask.kind, ask.prompt, ask.details, ask.field)] = named[0]
            self.sheet.add(label, named[1], field=ask.field)
            return label
        lister = listing_tool(self.defs, skill.id, field_def) if field_def is not None else None
        if lister and given is SET and from_the_agents_list(field_def, self.sheet):
            # no id of the project's to give: the user picks one the agent lists
            things = value_words(lister.split("_", 1)[-1])
            note = list_pick_note(things, branch_prose(skill, dict(self.script.walk.memory)))
            if note not in self.context.notes:
                self.context.notes.append(note)
            return label
        if field_def is not None and self.answered_by_a_tool(field_def):
            return label  # a number the agent reads from its tool: the user makes none up
        if field_def is not None and ask.prompt and written_by_agent(field_def, ask.prompt):
            return label  # "write a two-line summary": the agent's own text, never asked
        said = self.sheet_said(field_def, given) or spoken(self.defs, ask.field, given)
        thing = field_def.name.removesuffix("_id").split("_")[-1] if field_def else ""
        name = named_by(self.sheet.records, thing, said) if said and thing else None
        if name is not None:  # "pickup store: Meadow Pharmacy Lawrenceville", not ST-022
            label = self._labels[(ask.kind, ask.prompt, ask.details, ask.field)] = (
                label.removesuffix(" id")
            )
            said = name
        if said is not None:
            self.sheet.add(self.own_label(ask, label), said, field=ask.field)
        held = on_file(field_def, ask.prompt, self.script.customer) if self.account else None
        if held is not None:  # "the address on file" the yes confirms: the user knows it
            self.sheet.add(*held)
        return label

    def own_label(self, ask: Ask, label: str) -> str:
        """The label of the one value `ask`'s fact gives, where its question also names
        another field the same instructions set ("Ask for the merchant and the date (set
        merchant and expense_date)" gives the date alone: `expense date: yesterday`, never
        `merchant and the date: yesterday`); the question's own label otherwise."""
        if ask.kind != "instructions" or not ask.prompt or not ask.field:
            return label
        named = set(content_stems(label))
        owner = self.defs.skills.get(ask.skill)
        for field_def in owner.memory.values() if owner is not None else ():
            if field_def.qualified == ask.field:
                continue
            if kept_set_at(self.defs, field_def, ask.prompt) is None:
                continue
            if set(content_stems(value_words(field_def.name))) <= named:
                return value_words(ask.field.split(".", 1)[-1])
        return label

    def sheet_said(self, field_def: Any, given: Any) -> str | None:
        """A count per line of a data file's sheet, by the line's name, for a field that
        keeps counts by the sheet's keys (`{"SYR-VAN-750": 6}` -> "almond milk: 9, …,
        vanilla syrup: 6, …"): the agent walks every line, so the user has a count for
        each, in words a person says, never the keys. The lines the skill's own number
        fields count are left out; None where no data file holds the keys."""
        if isinstance(given, str) and given.lstrip().startswith("{"):
            try:  # the field's example, as its description writes it
                given = json.loads(given)
            except ValueError:
                return None
        if field_def is None or not isinstance(given, dict):
            return None
        skill = self.defs.skills.get(field_def.namespace)
        numbers = [
            f for f in (skill.memory.values() if skill else ()) if f.type in ("int", "float")
        ]
        lines = sheet_lines(self.sheet.records, given, [value_words(f.name) for f in numbers])
        if not lines:
            return None
        rng = case_rng(self.sheet.key, f"sheet:{field_def.name}")
        counts = [(name, given.get(key, rng.randint(2, 15))) for key, name in lines]
        return "; ".join(f"{name[:1].lower()}{name[1:]}: {count}" for name, count in counts)

    def answered_by_a_tool(self, field_def: Any) -> bool:
        """Whether the tool the prose sets the number field from ran before the walk
        first writes the field (`get_flight_status` before `delay_minutes`)."""
        tool = read_from_a_tool(self.defs, field_def)
        for event in self.script.walk.events if tool is not None else ():
            if event.kind == "tool" and event.tool == tool:
                return True
            if event.kind == "memory" and event.key == field_def.qualified:
                return False
        return False

    def walk_fields(self) -> list[Any]:
        """The fields the case's walk writes."""
        keys = [e.key for e in self.script.walk.events if e.kind == "memory" and e.key]
        found = (self.defs.memory_field(k) for k in dict.fromkeys(keys))
        return [f for f in found if f is not None]

    def unplaced_fields(self) -> None:
        """Facts for the skill's own inputs when the walk placed none of its questions (the
        prose asks in words the walk does not read): public fields the agent may set, that
        no tool writes, with a value the test data can give (`order number: R-20461877`);
        never one the prose sets from a tool's answer (the user does not know it)."""
        skill = self.defs.skills[self.script.behavior.source]
        parts = [part.text for part in sentences(skill.body or "")]
        asked = {a.field for a in self.script.walk.asks}
        if any(key and key.startswith(skill.id + ".") for key in asked):
            return  # the walk reads this skill's questions: nothing is missing
        written = {e.key for e in self.script.walk.events if e.kind == "memory"}
        written -= gate_inputs(self.project, self.script.walk)  # the user still tells them
        for field_def in skill.memory.values():
            key = field_def.qualified
            if key in asked or key in written or field_def.visibility != "public":
                continue
            if any(set_from_answer(field_def, part) for part in parts):
                continue
            if not self.on_path(skill, field_def):
                continue  # another branch's input (a target version in a status case)
            if field_def.llm_settable and field_def.type == "categorical":
                self.choice_fact(field_def)
                continue
            if not field_def.llm_settable or field_def.type not in ("text", "int", "float"):
                continue
            if lacked_on_record(field_def, self.sheet) is not None:
                continue  # a report the caller's bag row says they have none of
            value = field_value(self.defs, field_def, self.sheet, dict(self.setup_values))
            said = spoken(self.defs, key, value)
            if said is not None:
                self.sheet.add(value_words(field_def.name), said, field=key)
                if note_unheld(field_def, self.sheet, said):
                    self.script.unheld[key] = value_words(field_def.name)

    def on_path(self, skill: Skill, field_def: Any) -> bool:
        """Whether the case's path uses the field: a sentence of the skill's prose that
        holds on its branch (no `if:`, or one the walk's memory meets) asks for or sets it
        or names it as what the user has ("If they have an order number ... use
        @tool.get_order_status"), or a tool the walk runs or such a sentence names takes
        it; a call the walk runs whose inputs the project does not declare may take any. A
        field only another branch asks ("Ask for ... the version tag" under
        `mode == "deploy"`) is no fact of a status case."""
        memory = dict(self.script.walk.memory)
        prose = branch_prose(skill, memory)
        if any(prose_verb(field_def, text) for text in prose):
            return True
        words = field_def.name.replace("_", " ").lower()
        said = str((self.facts.get("cue") or {}).get("said") or "")
        if lacked_in_cue(said) == words:
            return False  # the user says they do not have it: no value of theirs
        if any(held_thing(text) == words for text in prose):
            return True  # "If they have an order number … use @tool.get_order_status"
        ran = {e.tool for e in self.script.walk.events if e.kind == "tool" and e.tool}
        tools = self.project.mantle.tools_for(skill.id) if self.project.mantle else {}
        if any(t in tools and not tools[t].parameters for t in ran):
            return True  # a call whose inputs the project does not declare (an MCP import)
        named = {t for t in tools for text in prose if re.search(rf"\b{re.escape(t)}\b", text)}
        return any(
            tools[t].parameter(field_def.name) is not None for t in ran | named if t in tools
        )

    def instruction_facts(self) -> None:
        """Facts for the other fields a step's instructions have the agent set from the
        user's words ("Ask for the outbound date and the return date … Ask what time they
        need to be there (set arrive_by)"): the walk asks for the field the step completes
        on, but a correct agent asks for each, and a user without them makes them up. Never
        a field set from a tool's answer, one the user picks from a list (nor the others a
        step that offers a list sets: the pick gives them), or a flag; and only a day or a
        time, or a value the step's words tie to the case's branch (`step_value`: a
        free-text value drawn from examples may belong to another branch, an `Uber` for
        airfare); never a field only another branch's sentence sets. A day set before
        another in the same step ("the outbound date and the return date") is never after
        it."""
        skill = self.defs.skills[self.script.behavior.source]
        told = {f.field: f.value for f in self.sheet.sheet.facts if f.field}
        written = {e.key for e in self.script.walk.events if e.kind == "memory"}
        memory = dict(self.script.walk.memory)
        for ask in self.script.walk.asks:
            if ask.kind != "instructions" or ask.skill != skill.id or not ask.prompt:
                continue
            prompt = step_text(skill, ask.block, ask.step) or ask.prompt  # its `if:` parts too
            fields = [
                f for f in skill.memory.values() if kept_set_at(self.defs, f, prompt) is not None
            ]
            if any(picked_from_offer(self.defs, f, self.script.walk.memory) for f in fields):
                continue
            for field_def in fields:
                key = field_def.qualified
                if key in told or key == ask.field or key in written:
                    continue
                if field_def.type != "text" or not field_def.llm_settable:
                    continue
                if set_from_answer(field_def, ask.prompt):
                    continue
                if not on_the_path(prompt, field_def, memory):
                    continue  # another branch's question (attendees of a client dinner)
                value = field_value(self.defs, field_def, self.sheet, dict(self.setup_values))
                said = spoken(self.defs, key, value)
                if said is None or (_day(said) is None and _time(said) is None):
                    said = step_value(self.defs, prompt, field_def, memory) or spoken(
                        self.defs, key, paid_to(self.defs, field_def, self.sheet, memory)
                    )  # the project's example the branch names, else a merchant that fits it
                if said is None:
                    continue
                at = set_at(field_def, ask.prompt) or 0
                for other in fields:  # "the outbound date and the return date"
                    later = _day(str(told.get(other.qualified, "")))
                    day = _day(said)
                    if later and day and (set_at(other, ask.prompt) or 0) > at and day > later:
                        start = later - timedelta(days=(day - later).days % 4)
                        # a working day, as drawn days ahead are: the Friday before a weekend
                        start -= timedelta(days=max(start.weekday() - 4, 0))
                        said = start.strftime("%m/%d/%Y")
                self.sheet.add(value_words(field_def.name), said, field=key)
                told[key] = said

    def prose_choice_facts(self, skill: Skill | None = None, walk: Walk | None = None) -> None:
        """A pick for what the prose asks by a choice's noun where no field of the walk is
        asked ("ask which country only if they need local requirements", with the project's
        `user_country` listing the countries): a correct agent may ask it, and a user who
        cannot answer leaves it to invent one. The case's own skill and walk unless given
        (a detour's skill asks its own)."""
        skill = skill or self.defs.skills[self.script.behavior.source]
        walk = walk or self.script.walk
        asked = {a.field for a in walk.asks if a.field}

        def fields() -> Iterator[MemoryField]:
            """The choices a noun may name, the skill's own first (read only where the prose
            asks "which ...": every field of the project, per case, grew with the skills)."""
            for f in [*skill.memory.values(), *self.defs.memory_names().values()]:
                if f.type == "categorical" and f.enum_values and f.qualified not in asked:
                    yield f

        for part in sentences(skill.body or ""):
            if part.condition and not holds(part.condition, walk.memory):
                continue
            # "which instrument and which day": each thing asked for is the user's to say
            for asked_for in (asked_clause(part.text) or "").split(" and "):
                words = asked_for.split()
                if len(words) < 2 or words[0] not in ("which", "what"):
                    continue
                noun = words[1].strip(",.?").lower()
                known = " ".join(f.label for f in self.sheet.sheet.facts)
                if noun in known.split():
                    continue  # already asked by its own name ("employment country")
                field = next((f for f in fields() if f.name.split("_")[-1] == noun), None)
                if field is not None:
                    self.choice_fact(field, f"which {noun}")
                else:
                    self.described_fact(skill, walk, noun)

    def described_fact(self, skill: Skill, walk: Walk, noun: str) -> None:
        """A value for what the prose asks by a noun that names no field but one field's
        description ("which day" -> `session_date`, "Day of the session, MM/DD/YYYY"): a
        correct agent asks it on this branch, and a user without it makes one up."""
        asked = {a.field for a in walk.asks if a.field}
        asked |= {f.field for f in self.sheet.sheet.facts if f.field}  # told already
        for field_def in skill.memory.values():
            first = (field_def.description or "").split()[:1]
            if field_def.qualified in asked or [w.lower() for w in first] != [noun]:
                continue
            if not field_def.llm_settable or field_def.type not in ("text", "int", "float"):
                continue
            if lacked_on_record(field_def, self.sheet) is not None:
                continue  # a report the caller's bag row says they have none of
            value = field_value(self.defs, field_def, self.sheet, dict(self.setup_values))
            said = spoken(self.defs, field_def.qualified, value)
            if said is not None:
                self.sheet.add(f"which {noun}", said, field=field_def.qualified)
            return

    def choice_fact(self, field_def: Any, label: str | None = None) -> None:
        """The user's pick for a choice the skill lists and waits on ("invite them to pick
        one"): the path's value, else the one the record the case holds gives, else one of
        the listed values that switches something on (not `off`/`none`/`other`), dealt by
        the case's place in the suite."""
        # a YAML `off` is read as false: a flag-like value, never the pick
        values = [v for v in field_def.enum_values or [] if isinstance(v, str)]
        chosen = self.setup_values.get(field_def.qualified)
        if chosen is None:  # the record the case holds offers one only (a cortado: single)
            chosen = self.sheet.held_value(spec_of(field_def, self.defs))
        if chosen is None:
            picks = [v for v in values if v.lower() not in _NO_CHOICE] or values
            if not picks:
                return
            chosen = picks[(self.sheet.slot or 0) % len(picks)]
        said = spoken(self.defs, field_def.qualified, chosen)
        if said is not None:
            label = label or value_words(field_def.name)
            self.sheet.add(label, said, field=field_def.qualified)

    def set_fields_facts(self) -> None:
        """Facts for what the prose asks and has the agent keep with `set_fields` in a field
        no memory declares (`set_fields_asks`): valued by the sentence's own example."""
        skill = self.defs.skills[self.script.behavior.source]
        for label, name, sentence in set_fields_asks(self.defs, skill):
            value = self.sheet.value(FieldSpec(name, "text", sentence))
            if "month" in name.split("_"):  # a month the caller has a record for
                request = " ".join([intent_clause(self.defs, skill), self.context.opening or ""])
                named = value if isinstance(value, str) else None
                value = month_on_record(self.sheet.records, request, named, skill.id) or value
            if value is not None:
                self.sheet.add(label, value)

    def offer_facts(self, walk: Walk, answer: str = DECLINED) -> None:
        """A decline for each offer the skill makes on the case's branch ("Offer to help
        schedule an inspection"): the case is about its own request, so the user says no
        rather than being left without an answer where a correct agent waits for one. An
        offer that leads to a call the walk makes is taken (`offers_taken`): the case
        asserts the call, and a decline would contradict it."""
        skill = self.defs.skills.get(walk.skill)
        if skill is None:
            return
        known = {f.label for f in self.sheet.sheet.facts}
        made = {e.tool for e in walk.tools() if e.tool and e.skill in (None, walk.skill)}
        taken = set(offers_taken(skill, walk.memory, made)) if answer == DECLINED else set()
        passed = set(offers_passed(skill, walk.memory))  # the path takes the other side
        passed |= blocked_offers(skill, walk.memory) - taken  # its own values bar the call
        for label in offers(skill, walk.memory):
            if label not in known and label not in passed:
                self.sheet.add(label, ACCEPTED if label in taken else answer)

    def outcome_facts(self, walk: Walk) -> None:
        """The user's answer that the prose waits on before a call the walk makes ("if it
        still doesn't work, open a ticket"): the case asserts the call, so the step they
        tried did not help (`open_outcomes`)."""
        skill = self.defs.skills.get(walk.skill)
        if skill is None:
            return
        made = {e.tool for e in walk.tools() if e.tool}
        for clause in open_outcomes(skill, walk.memory, made):
            self.sheet.add(f"whether {clause}", "yes")
        for label, value in owned_facts(skill, walk.memory, made):  # "the meeting: one you own"
            self.sheet.add(label, value)

    def chance_facts(self) -> str | None:
        """What the user answers on the branches a tool's chance decides (a speed test that
        may come back slow or healthy): the questions of each branch the walk did not take,
        and the details a skill such a branch hands over to asks for (which router), with a
        note saying the result is up to chance. Returns the words of that skill's gated
        action, which the user agrees to on a happy path and declines elsewhere, or None."""
        walk = self.script.walk
        keys = chance_keys(self.project, walk.skill)
        if not keys:
            return None
        known = {self.label(a) for a in walk.asks}
        branched = False
        for fixed in other_branches(self.project, walk.skill, walk.memory, keys):
            branched = True
            values = {**self.setup_values, **fixed}
            setup = Setup(values=values, memory=dict(self.script.seeds))
            other = walk_skill(self.project, walk.skill, setup)
            for ask in other.asks:
                if ask.kind != "confirm" and self.label(ask) not in known:
                    known.add(self.label(ask))
                    self.fact(ask)
            self.offer_facts(other)
        gate: str | None = None
        # a happy path takes the action (its goal lies past it), any other case keeps out
        agree = self.script.behavior.type == "happy_path"
        for callee, tools in gated_callees(self.project, walk.skill, keys):
            branched = True
            answer = Setup(confirm={t: agree for t in tools}, memory=dict(self.script.seeds))
            called = answered_walk(
                self.project, walk_skill(self.project, callee, answer), answer, self.sheet
            )
            for ask in called.asks:
                if ask.kind == "confirm":
                    gate = gate or gate_words(ask)
                elif self.label(ask) not in known:
                    known.add(self.label(ask))
                    self.fact(ask)
        if branched:
            drawn = " or ".join(value_words(t) for t in chance_tools(self.project, walk.skill))
            self.context.notes.append(
                f"What the {drawn} tool returns {CHANCE_NOTE}, so the agent may go either "
                "way: answer from what you know below whichever way it goes."
            )
        return gate

    def checked_details(self, ask: Ask) -> dict[str, str]:
        """The caller's values of the details an identity ask of a skill of prose only
        names, by what the check's tool compares them with (`identity_facts` of the asking
        skill; "booking reference" is the `pnr` the tool reads `data/` by): the user of a
        case gives the record's own, which the check then finds."""
        skill = self.defs.skills.get(ask.skill)
        if skill is None:
            return {}
        held = self.sheet.sheet.records.values()
        found = identity_facts(
            self.project,
            skill,
            set(),
            self.script.customer,
            self.sheet.records,
            held,
            self.called(),
        )
        return dict(found)

    def detail_fields(self, ask: Ask) -> dict[str, str]:
        """Detail -> the memory field the identity check's parameter it fills is read from
        (`project.pnr` for "booking reference", the `pnr` its docstring opens with)."""
        skill = self.defs.skills.get(ask.skill)
        if skill is None:
            return {}
        model = skill_model(self.project, skill.id)
        out: dict[str, str] = {}
        for tool in self.defs.tools_for(skill.id).values():
            use = model.tool(tool.name) if tool.name in self.called() else None
            for param in tool.parameters if use is not None else []:
                source = use.arguments.get(param.name) if use is not None else None
                if source:
                    out.setdefault(label_of(param.name, param.description), source)
        return out

    def called(self) -> frozenset[str]:
        """The tools the case's walk runs."""
        events = self.script.walk.events
        return frozenset(e.tool for e in events if e.kind == "tool" and e.tool)

    def identity_value(self, detail: str) -> str | None:
        if self.account:
            return self.script.customer.detail(detail)
        return self.sheet.value(FieldSpec(detail_name(detail), "text", detail))

    def asked_with(self, ask: Ask) -> str | None:
        """The text the agent asks `ask` with: the skill model's question for its field
        (what the reference agent says), else the walk's prompt."""
        model = skill_model(self.project, ask.skill) if ask.field else None
        spec = model.field(ask.field or "") if model is not None else None
        return spec.question if spec is not None and spec.question else ask.prompt

    def cue(self, ask: Ask) -> str:
        """What the agent asks, as `When the agent asks <cue>` reads it."""
        if ask.kind == "confirm" or confirms_by_read_back(self.defs, ask):
            return "you to confirm"  # a yes/no the agent fills by reading the details back
        label = self.label(ask) if ask.kind != "identity" else " and ".join(ask.details)
        act = asked_request(self.asked_with(ask)) if ask.kind != "identity" else None
        if act is not None and label not in {f.label for f in self.sheet.sheet.facts}:
            # what the prose has the agent ask the user to do ("Ask them to say when they
            # are done"), in the words the agent asks it: no fact names this ask, so the
            # cue is all the user hears it by
            return f"you to {act}"
        if first_word(label) in {*QUESTION_WORDS, "if"}:
            return label
        asked = self.asked_with(ask) if ask.kind == "collect" else None
        said = set(content_stems(asked or ""))
        field = self.defs.memory_field(ask.field) if ask.field else None
        offered = field is not None and one_choice_asked(label_for(ask), field)
        if (
            asked
            and asked.rstrip().endswith("?")
            and (set(content_stems(label)) <= said or offered)
        ):
            # the label is the step's own question ("is that a domestic trip", "paid in
            # dollars"): "for the <question>" is no thing a person hears asked; the question
            # as the agent says it is; so too a question offering one choice ("paid in
            # dollars?" for the currency)
            return "'" + " ".join(asked.split()) + "'"
        wanted = _asked_as_wanted(field, label)
        if wanted is not None:
            return wanted
        return f"for the {label}"

    # --- the context ---------------------------------------------------------------------

    def write(self) -> None:
        skill = self.defs.skills[self.script.behavior.source]
        kind = self.script.kind
        asks = list(self.script.walk.asks)
        at = self.facts.get("at")
        spoken_to = asks
        if kind == "escalation":
            spoken_to = asks[: int(self.facts["escalation"].get("at") or 0)]
        prelude = self.script.prelude
        for ask in [*(prelude.asks if prelude else []), *spoken_to]:
            self.fact(ask)
            if skill.is_handoff and ask.skill == skill.id and kind != "escalation":
                self.own_reason(ask)
        if kind == "out_of_order":
            # said up front, and still known when a block's instructions step that asks it
            # among other things asks it again (the damaged area beside the date)
            held = {f.field for f in self.sheet.sheet.facts}
            model = skill_model(self.project, skill.id)
            for key, value in (self.facts.get("given") or {}).items():
                spec = model.field(key)
                if key not in held and spec is not None and spec.asked_by == "instructions":
                    self.fact(Ask("ask_field", skill.id, field=key, value=value))
        if skill.is_handoff and kind != "escalation":  # their matter, for the summary
            memory = self.script.walk.memory
            rng = case_rng(self.sheet.key, "handoff")
            customer = self.script.customer
            for label, value in handoff_facts(self.defs, skill, customer, memory, rng):
                # details up front come with the request they are for ("today" alone, or
                # "ask Priya to sort it: today", asks for nothing): the matter opens
                if kind == "out_of_order" and label == NEED:
                    self.need = value
                    continue
                self.sheet.add(label, value)
        if self.account:  # what a check another skill runs first compares, from the record
            walked = {a.skill for a in self.script.walk.asks}
            customer = self.script.customer
            held = self.sheet.sheet.records.values()
            events = self.script.walk.events
            called = frozenset(e.tool for e in events if e.kind == "tool" and e.tool)
            found = identity_facts(
                self.project, skill, walked, customer, self.sheet.records, held, called
            )
            for label, value in found:
                self.sheet.add(label, value)
            # what the prose reads from another skill's write the path never makes (the
            # home store an unverified caller's transfer goes to): the caller's own
            memory = self.script.walk.memory
            ran = [e.skill for e in events if e.kind == "skill_activated" and e.skill]
            reads = {other: memory for other in [skill.id, *ran]}  # the hand-off's it goes to
            escalation = (self.facts.get("escalation") or {}) if kind == "escalation" else {}
            if escalation.get("skill") in self.defs.skills:  # asked for before some writes
                late = {a.skill for a in asks[int(escalation.get("at") or 0) :]}
                unwritten = tools_write(self.project, late)
                reads[escalation["skill"]] = {k: v for k, v in memory.items() if k not in unwritten}
            for other, known in reads.items():
                found = read_facts(
                    self.project, self.defs.skills[other], customer, self.sheet.records, known
                )
                for label, value in found:
                    self.sheet.add(label, value)
            # the record the case's branch rests on (their flight, cancelled): the caller knows it
            planned = self.script.behavior.facts.get("values") or {}
            for label, value in branch_facts(self.sheet.records, customer, planned.values()):
                self.sheet.add(label, value)
        memory = self.script.walk.memory
        picks = any(picked_from_offer(self.defs, f, memory) for f in self.walk_fields())
        # a tool's answer lists what they pick from; an escalation leaves before any
        # options, unless it comes at the read-back of the pick itself
        if picks and (kind != "escalation" or self.escalates_at_read_back(asks)):
            self.context.notes.append(PICK_NOTE)
        if kind != "escalation":
            self.unplaced_fields()
            self.instruction_facts()
            self.prose_choice_facts()
            self.offer_facts(self.script.walk)
            said = {**self.setup_values, **{f.field: f.value for f in self.sheet.sheet.facts}}
            for label, answer in step_offers(skill, dict(self.script.walk.memory), said):
                self.sheet.add(label, answer)  # "only ask whether they want to fly out …"
            self.outcome_facts(self.script.walk)
            walked = self.script.walk  # what the path's prose branches on: its circumstances
            taken = {e.skill for e in walked.events if e.skill}
            for clause, holds in circumstance_facts(skill, walked.memory, taken):
                self.sheet.add(f"whether {second_person(clause)}", "yes" if holds else "no")
            gate = self.chance_facts()
        # what the prose asks with `set_fields` comes before any line of the walk's asks
        # (an escalation at a later question still needs the month to get there)
        self.set_fields_facts()
        if kind == "out_of_order" or self.requested():
            self.context.opening = self.opening()
            said = (self.facts.get("cue") or {}).get("said") if kind == "cue" else None
            if said:  # the branch's request, then the cue the case is about
                cue = first_person(str(said)).rstrip(".")
                self.context.opening = f"{self.context.opening} {cue[:1].upper()}{cue[1:]}."
        if self.context.opening is None and kind not in _HANGS_ON_A_QUESTION:
            # a field the outside service reports is no job the user asks for ("has my
            # filter shipped" pairs with `status: shipped`, which only the shop's answer sets)
            reported = reported_fields(self.project, skill.id)
            memory = {k: v for k, v in self.script.walk.memory.items() if k not in reported}
            line = job_opening(self.defs, skill, memory, self.hung_on())
            self.context.opening = line if line is None or self.names_own(line) else None
            self.told_in_opening()
        if self.context.opening is None:
            self.context.opening = self.knowledge_question(skill) or own_opening(
                self.defs, skill, kind, self.facts
            )
        if self.context.opening is not None:  # one request: the branch the case plays
            memory = self.script.walk.memory
            # the happy path leaves to their turns the questions it asks (the details-up-front
            # case answers them early)
            self.context.opening = one_request(
                self.defs, skill, self.context.opening, memory, self.asked_later()
            )
            opening = self.context.opening
            records = self.sheet.records
            self.context.opening = own_records_named(self.defs, skill, opening, memory, records)
            caller = self.sheet.persona.name
            self.context.opening = not_self_named(self.context.opening, caller, records)
            self.context.opening = named_once(self.defs, skill, self.context.opening)
            if kind == "out_of_order" or self.requested():
                said = modes_said(self.defs, self.context.opening, self.requested())
                given = {**(self.facts.get("given") or {}), **self.requested()}
                plain = opening_line(intent_clause(self.defs, skill))
                self.context.opening = not_said_twice(self.defs, said, given, plain)
            if kind == "digression":  # the question the detour waits for stays open
                self.context.opening = detour_opening(
                    self.defs, skill, self.context.opening, memory
                )
        if kind == "cue" and self.context.opening:
            self.cue_again(self.context.opening)
        listing = lacked_listing(self.project, skill.id, dict(self.facts))
        if kind == "cue" and listing is not None:  # no number: they pick from the list
            self.context.notes.append(pick_line(listing[1]))
        self.same_story(skill)
        ran = [e.tool or "" for e in self.script.walk.tools()]
        held = held_lines(self.project, skill.id, ran, self.sheet.sheet.facts)
        if held:  # what a call waits for the user to have, said with the request
            said = self.context.opening or opening_line(intent_clause(self.defs, skill))
            self.context.opening = " ".join([said, *held])
        if self.context.opening and (kind == "out_of_order" or self.requested()):
            self.context.opening = in_one_sentence(
                self.context.opening, self.up_front_details(skill), self.listed_value
            )
        if kind == "out_of_order" and self.context.opening:
            self.urgent(skill)
        if kind == "correction":
            self.correction(asks)
        elif kind == "digression":
            self.digression(asks)
        elif kind == "escalation":
            self.escalation(asks)
        elif kind == "ambiguity":
            self.ambiguity(asks)
        elif kind in ("out_of_scope", "adversarial"):
            line = self.interjection()
            if at is not None and at < len(asks):
                # the user comes back to the question after the off-topic reply
                cue = CueLine(self.cue(asks[at]), line, first=True, then_answer=True)
                self.context.cues.append(cue)
            else:
                self.context.before_end = line
        if self.context.opening:  # "Tuesday, back Wednesday": the days given agree with it
            self.context.opening = self.sheet.on_weekdays(self.context.opening)
        # amounts in the currency the case pays in ("£91.80" beside GBP, never "$91.80");
        # bare where the case corrects the currency: a sign would give the answer away
        paid = paid_currency(self.defs, self.script.walk.memory, self.sheet.sheet.facts)
        bare = kind == "correction" and is_currency(
            self.defs, str(self.facts["correction"]["field"])
        )
        self.sheet.sheet.facts = facts_in_currency(self.sheet.sheet.facts, paid, bare)
        if self.context.opening:
            self.context.opening = said_in(self.context.opening, paid, bare)
        self.context.facts = [ContextFact(f.label, f.value) for f in self.sheet.sheet.facts]
        self.context.persona = self.persona()
        intent = intent_clause(self.defs, skill)
        self.context.intent = branch_intent(skill, intent, self.script.walk.memory)
        if kind == "digression":  # the case asserts the return: the user takes the offer
            self.context.resume = self.resume_task()
        if prelude is not None:
            self.sign_in_first(prelude)
        else:
            self.earlier_exchange(skill)
        self.confirmations()
        if kind == "failure" and self.facts.get("outcome"):
            self.confirm_again()
        if kind == "failure":
            self.misremembered()
        self.context.notes += aside_notes(
            self.defs, self.script.walk.utters(), self.facts.get("aside")
        )
        if kind != "escalation" and gate is not None and self.context.gate is None:
            # a branch chance decides may go on to an action the user is asked to confirm: on
            # a happy path the user takes what leads to the goal; elsewhere the case is about
            # something else, and the user keeps out of the action
            agree = self.script.behavior.type == "happy_path"
            self.context.gate = gate
            self.context.confirm = "agree" if agree else "decline"
        handoff = self.script.ends_in_handoff
        self.context.closes_on_else = not handoff
        self.context.until = _handoff_stop(self.script.handoff_outcome) if handoff else STOP_DONE
        # the other side of a window of time the run's clock decides ends on its offer
        for label in clock_offers(self.project, skill, self.script.walk.memory)[:1]:
            self.context.until += f", or once you have answered {label}"

    def confirm_again(self) -> None:
        """A result the prose answers by asking the user to confirm their input ("say you
        could not find that claim number and ask them to confirm it"): the user repeats the
        input once, then gives up, so the conversation ends instead of going round."""
        tool = str(self.facts.get("tool") or "")
        outcome = failure_outcome(self.project, self.script.walk.skill, tool)
        failed = [e for e in self.script.walk.tools(tool) if e.error and e.arguments]
        if outcome is None or not failed or "confirm" not in outcome.text.lower():
            return
        arguments = failed[-1].arguments
        marked = [k for k, v in arguments.items() if account_of({str(v)}) == "failing"]
        if not marked:
            return
        what, value = value_words(marked[0]), arguments[marked[0]]
        self.context.notes.append(
            f"When the agent asks you to confirm the {what}, give {value} once more; if it "
            "still cannot help with it, say you will check it yourself and end the conversation."
        )

    def misremembered(self) -> None:
        """A failure case whose failing input is an id the project's data do not hold
        (`CLAIM0150` among claims CLAIM1234-CLAIM1238): the story says why the user has it,
        a number they noted down and are not sure of, so a reader sees a person, not a
        made-up record, and the user accepts that it is not found rather than inventing
        another."""
        tool = str(self.facts.get("tool") or "")
        failed = [e for e in self.script.walk.tools(tool) if e.error and e.arguments]
        if not failed or not self.sheet.records.collections:
            return
        arguments = failed[-1].arguments
        marked = [k for k, v in arguments.items() if account_of({str(v)}) == "failing"]
        value = str(arguments[marked[0]]) if marked else ""
        if not value or self.sheet.records.defines(value):
            return
        what = value_words(marked[0])
        note = (
            f"The {what} {value} is one you noted down yourself and you are not sure it is "
            "right; if the agent cannot find it, accept that and do not make up another."
        )
        if not any(n.startswith("When the agent asks you to confirm") for n in self.context.notes):
            self.context.notes.append(note)

    def cue_again(self, opening: str) -> None:
        """A cue said in the opening whose call needs what a later question asks (a
        coverage question before the policy is picked) is said again once that answer is
        in: its sentence of the opening, at the next question, before its answer. Asked
        only at the start, it waits for a step the agent may reach without coming back."""
        cue = str((self.facts.get("cue") or {}).get("said") or "")
        said = [p.text for p in sentences(opening) if cue and heard(cue, p.text)]
        line = said[-1] if said else opening
        tools = set((self.facts.get("cue") or {}).get("tools") or [])
        wanted = {k for e in self.script.walk.tools() if e.tool in tools for k in e.arguments}
        asks = self.script.walk.asks
        filled = [i for i, a in enumerate(asks) if a.field and a.field.split(".")[-1] in wanted]
        if filled and filled[-1] + 1 < len(asks):
            after = asks[filled[-1] + 1]
            self.context.cues.append(CueLine(self.cue(after), line, first=True, then_answer=True))

    def knowledge_question(self, skill: Skill) -> str | None:
        """For a skill that answers from a knowledge file (a FAQ list, its reference notes,
        a file its tools read), a first message asking one question the file answers: a
        topic alone leaves the user to invent a question the file may not answer. Only for
        a case that opens plainly and asks nothing of the skill's own fields."""
        if self.script.kind not in ("happy", "escalation", "out_of_scope", "adversarial"):
            return None
        if any(a.field for a in self.script.walk.asks):
            return None
        return asked_question(
            self.project, skill, self.sheet.records, intent_clause(self.defs, skill)
        )

    def earlier_exchange(self, skill: Skill) -> None:
        """A closing skill (the one the user's own closing line, "No, that's all, thanks.",
        asks for) opened cold reads oddly ("Thanks, that's all" as the first message): the
        user first asks one question another skill answers from its knowledge file without
        asking anything back, and says the closing line after the agent's answer. Left as
        it is where no skill answers such a question."""
        if self.context.after_first or not routes(self.defs, skill, CLOSING):
            return
        for other in self.defs.skills.values():
            if other.id == skill.id or other.is_handoff or routes(self.defs, other, CLOSING):
                continue
            if not_a_goal(self.project, "mantle", other.id) is not None:
                continue
            question = asked_question(
                self.project, other, self.sheet.records, intent_clause(self.defs, other)
            )
            if question is None:
                continue
            walk = walk_skill(self.project, other.id, Setup(memory=dict(self.script.seeds)))
            if walk.asks or any(e.kind == "tool" for e in walk.events):
                continue  # an exchange of its own, not a question and its answer
            self.context.after_first = self.context.opening
            self.context.opening = question
            return

    def confirmations(self) -> None:
        """Lines for the confirmations the case meets, and none for one it does not: the
        read-back line only where an ask reads details back, the gate's own line (the
        refused one where the case refuses) so a refusal is said at the gate it names."""
        own = list(self.script.walk.asks)
        if self.script.kind == "escalation":  # the hand-off comes instead of the rest
            own = own[: int(self.facts["escalation"].get("at") or 0)]
        walks = [self.script.prelude, self.script.other]
        asks = [*own, *(a for w in walks if w is not None for a in w.asks)]
        played = [w for w in (self.script.walk, *walks) if w is not None]
        if self.script.kind == "escalation":
            played = played[1:]  # the task's own tools are never reached
        self.context.read_back = any(confirms(self.defs, a) for a in asks) or any(
            self.confirms_in_words(w) for w in played
        )
        gates = [a for a in asks if a.kind == "confirm"]
        refused = [a for a in gates if a.confirm is False]
        gate = (refused or gates or [None])[0]
        self.context.gate = gate_words(gate) if gate is not None else None
        if refused:  # declined at the runtime's own question, not at a proposal before it
            self.context.gate_question = gate_question(refused[0])
            # its wording turns on a value the case leaves open: named by the tool it gates
            self.context.gate_tool = refused[0].tool if refused[0].prompt_untold else None
        else:  # every further gate the case meets (a detour's own) is taken too
            said = {self.context.gate}
            for other in gates[1:]:
                words = gate_words(other)
                if words is not None and words not in said:
                    said.add(words)
                    self.context.agreed.append(words)

    def confirms_in_words(self, walk: Walk) -> bool:
        """Whether the walk calls a tool that `requires` a yes/no the customer gives in words
        ("Draft the message … Ask them to confirm. When they confirm, set `post_confirmed`"):
        the agent shows what it will do and asks, so the user has a line to approve it."""
        skill = self.defs.skills.get(walk.skill)
        if skill is None:
            return False
        asks_to_confirm = any(
            "confirm" in words and "ask" in words
            for words in (set(re.findall(r"\w+", p.text.lower())) for p in sentences(skill.body))
        )
        if not asks_to_confirm:  # the runtime's own question is the gate's line
            return False
        called = {e.tool for e in walk.events if e.kind == "tool"}
        called |= {a.tool for a in walk.asks if a.kind == "confirm" and a.tool}
        for name, constraint in skill.tool_constraints.items():
            if name not in called:
                continue
            for key in condition_keys(constraint.requires):
                field = self.defs.memory_field(key)
                said = f"{field.name} {field.description or ''}".lower() if field else ""
                if field is not None and field.type == "bool" and "confirm" in said:
                    return True
        return False

    def hung_on(self) -> frozenset[str]:
        """The fields whose question the case asserts or waits for: a block step's (its
        question is asserted), and where an off-topic line or a request for a person comes
        when the agent asks one, every field asked up to that turn (a request for a job may
        carry other details: "Book the confocal for Thursday"). The opening answers none."""
        at, asks = self.facts.get("at"), self.script.walk.asks
        if at is None and self.script.kind == "escalation":
            at = (self.facts.get("escalation") or {}).get("at")
        # a block step's question is the case's too (its utterance is asserted): a step
        # runs its question whatever the opening said
        held = {a.field for a in asks if a.kind == "collect" and a.field}
        if at is not None:
            held |= {a.field for a in asks[: int(at) + 1] if a.field}
        return frozenset(held)

    def told_in_opening(self) -> None:
        """Facts the first message already gives (the job its request asks for) leave the
        list the user answers from: nobody asks for them, and a line "mode: track" is no
        one's way of saying what they need."""
        opening = self.context.opening
        if not opening:
            return
        memory = self.script.walk.memory
        self.sheet.sheet.facts = [
            f
            for f in self.sheet.sheet.facts
            if not (f.field in memory and says_value(self.defs, opening, f.field, memory[f.field]))
        ]

    def same_story(self, skill: Skill) -> None:
        """Where the opening is one of the description's phrasings ("A tree came down on
        the roof."), a narrative fact of the skill (what happened, in their words) tells
        that story, never another phrasing ("My basement flooded."): a caller who opened
        with one loss and answers with another contradicts themselves."""
        opening = " ".join((self.context.opening or "").split()).rstrip(".!").lower()
        phrases = {p.rstrip(".!").lower() for p in description_phrases(skill)}
        if opening not in phrases:
            return
        told = str(self.context.opening)
        self.sheet.sheet.facts = [
            replace(f, value=told)
            if (field := self.defs.memory_field(f.field or "")) is not None
            and field.namespace == skill.id
            and tells_what_happened(field)
            and f.value.rstrip(".!").lower() in phrases
            else f
            for f in self.sheet.sheet.facts
        ]
        # where it happened belongs to that story too (a bump in a car park, not the
        # highway another incident of its kind was drawn on)
        self.sheet.sheet.facts = [
            replace(f, value=place) if (place := place_of_story(told, f.value)) is not None else f
            for f in self.sheet.sheet.facts
        ]

    def sign_in_first(self, prelude: Walk) -> None:
        """Behind a sign-in the runtime runs for the request (`resolve_with`), open with the
        request; behind another, open with the sign-in and ask for what the case is about
        once it is done (when the agent asks whether there is anything else)."""
        opener = self.defs.skills[prelude.skill]
        # the request as the opening would have said it: its own line, else the intent's
        request = self.context.opening or opening_line(self.context.intent)
        if resolver_of(self.defs, self.script.behavior.source) == opener.id:
            # the runtime runs the sign-in for the request (`resolve_with`): the user opens
            # with the request and answers the sign-in's questions from the facts
            self.context.opening = request
            return
        # the sign-in's openings in turn: every case behind it opens with the sign-in, and
        # one line for all of them reads as one case written many times
        phrases = sign_in_openings(self.defs, opener)
        self.context.opening = phrases[(self.sheet.slot or 0) % len(phrases)]
        if self.script.kind == "out_of_order" and not prelude.asks and not self.context.after_first:
            # details up front: the task's first message, right after the sign-in
            self.context.after_first = request
        elif not self.context.before_end:
            self.context.before_end = request

    def persona(self) -> str:
        persona = self.sheet.persona
        direction = self.facts.get("direction") or {}
        told = str(direction.get("persona") or "").strip()
        if told:
            told = told.removeprefix("You are ").rstrip(".")
            return f"{persona.name}, {told}"
        # an escalation the skill names for someone calling for another person: the
        # record, and so the details, are that person's
        whom = (self.facts.get("escalation") or {}).get("calling_for")
        if whom and self.script.kind == "escalation":
            return f"calling for your {whom} {persona.name}, {persona.manner}"
        return f"{persona.name}, {persona.role}, {persona.manner}"

    def requested(self) -> dict[str, Any]:
        """Fields the skill sets from the user's first message ("From the request, set mode
        to …"): the opening has to say them, since nobody asks for them later."""
        given = {**(self.facts.get("request_values") or {}), **self.script.stated}
        # not a value a service outside the agent reports: the user cannot say it
        reported = reported_fields(self.project, self.script.behavior.source)
        return {k: v for k, v in given.items() if k not in reported}

    def asked_later(self) -> set[str]:
        """On a happy path, the fields it asks for in a turn of their own (not the ones the
        request sets): its first message leaves them to their questions."""
        if self.script.kind != "happy":
            return set()
        return {a.field for a in self.script.walk.asks if a.field} - set(self.requested())

    def opening(self) -> str:
        """The first message: the skill's phrasing plus every value it gives up front (the
        out-of-order values and the fields set from the request)."""
        skill = self.defs.skills[self.script.behavior.source]
        held = {str(f.value) for f in self.sheet.sheet.facts}
        records = self.sheet.records
        text = activation_phrase(self.defs, skill)
        # "cover my Sunday close" for a Saturday shift, or for a midday bar shift
        if (
            other_day(text, held, records)
            or other_kind(text, held, records)
            or not self.names_own_people(text)
        ):
            intent = opening_line(intent_clause(self.defs, skill))
            plain = plain_opening(self.defs, skill, lambda _: True)
            text = intent if routes(self.defs, skill, intent) else plain or text
        given = {**(self.facts.get("given") or {}), **self.requested()}
        # details up front: one request, no phrase states another value the case fixes or
        # asks another job (`_mantle_up_front`)
        values = case_values(skill, self.script.walk.memory, given)
        up_front = self.script.kind == "out_of_order"
        later = self.asked_later()

        def one(line: str) -> bool:
            if not leaves_for_later(self.defs, later, line):
                return False  # the happy path asks what the up-front case gives
            return not up_front or asks_one_request(self.defs, skill, values, line)

        # the example names the caller's own record ("I'm almost out of my inhaler" for
        # the inhaler they hold), never another's medicine or number
        caller = self.sheet.caller  # what the case is about, not who the caller is
        mine = {n: r for n, r in self.sheet.sheet.records.items() if "#" not in n and n != caller}
        candidates = activation_phrases(self.defs, skill)
        text = own_example(
            candidates, records, mine, lambda line: one(line) and self.names_own_people(line), text
        )

        # a phrase that names a day names the case's ("Can I swap Saturday …" only for a
        # Saturday shift)
        said = [
            p
            for p in (*strong_phrases(self.defs, skill), *own_phrases(self.defs, given))
            if self.names_own(p[0])
        ]
        said += [
            p
            for p in paired_phrases(self.defs, given)
            if self.names_own(p[0]) and not other_kind(p[0], held, records)
        ]
        for phrase, named in said:
            if (
                named
                and all(given.get(k) == v for k, v in named.items())
                and (not up_front or names_the_job(self.defs, skill, given, named))
                and one(phrase)
            ):
                text = phrase
                given = {k: v for k, v in given.items() if k not in named}
                break
        if not one(text) and one(opening_line(intent_clause(self.defs, skill))):
            text = opening_line(intent_clause(self.defs, skill))
        if up_front and self.need:
            # the matter before the example that routes ("... approved. Ask Priya to sort
            # it."), which then refers to something; alone where it routes by itself
            tried = [self.need, f"{self.need} {text}", f"{text} {self.need}"]
            text = next((t for t in tried if routes(self.defs, skill, t)), tried[-1])
        answers = [
            said
            if one(said) and self.names_own(said)
            else plain_value(written_form(self.defs, v) or value_words(v))
            for said, v in ((self.stated(k, v), v) for k, v in given.items())
        ]
        # a value that is also a greeting ("Can I talk to a person? Morning, please.") is
        # said with what it is the value of
        fields = [value_words(k.split(".", 1)[-1]) for k in given]
        answers = [not_a_greeting(a, f) for a, f in zip(answers, fields, strict=True)]
        return " ".join([without_month(text), *answers])

    def up_front_details(self, skill: Skill) -> list[tuple[str, str]]:
        """The held facts a details-up-front opening lists besides its choices, so that it
        gives several of the values the path asks (about three in all): facts of the
        skill's fields, in the order asked, that a list can name
        (`listed_detail`); each is recorded in `Script.told`."""
        if self.script.kind != "out_of_order":
            return []
        given = {**(self.facts.get("given") or {}), **self.requested()}
        room = 3 - len(given)
        specs = {f.qualified: f for f in skill_model(self.project, skill.id).fields}
        memory = dict(self.script.walk.memory)
        out: list[tuple[str, str]] = []
        for fact in self.sheet.sheet.facts:
            if room <= len(out):
                break
            # a detail of no field of the skill is an identity check's (a date of birth):
            # the check asks for it, whatever the first message said
            key = fact.field or ""
            if not key.startswith(skill.id + ".") or key in given:
                continue
            if key in self.script.told.values():
                continue
            # a field another branch asks (a report id to change a delivery) is none of
            # this path's, nor one the agent may leave unasked
            spec = specs.get(key)
            if spec is not None and (not spec.required or not evaluate(spec.condition, memory)):
                continue
            if self._closes_its_step(
                skill, key, specs, memory, {*given, *self.script.told.values()}
            ):
                continue
            detail = listed_detail(fact.label, fact.value)
            if detail is not None:
                out.append(detail)
                self.script.told[fact.label] = key
        return out

    def _closes_its_step(
        self,
        skill: Skill,
        key: str,
        specs: dict[str, Any],
        memory: dict[str, Any],
        said: set[str],
    ) -> bool:
        """Whether `key` is what an instructions step's `complete_when` waits for while the
        step asks other things on this path that the first message does not say (`said`;
        the date a home claim's step ends on, beside the damaged area): said up front, it
        ends the step before those are asked."""
        spec = specs.get(key)
        if spec is None or spec.asked_by != "instructions" or not spec.block:
            return False
        block = skill.blocks.get(spec.block)
        step = next((s for s in block.steps if s.id == spec.step), None) if block else None
        ends = str(step.fields.get("complete_when") or "") if step is not None else ""
        if key not in condition_keys(ends):
            return False
        return any(
            other.qualified != key
            and other.qualified not in said
            and other.block == spec.block
            and other.step == spec.step
            and evaluate(other.condition, memory)
            for other in specs.values()
        )

    def listed_value(self, said: str) -> str:
        """A bare value ("Fire", "USD") as an item of a list: in lower case unless the
        project writes it with a capital or it is an abbreviation."""
        written = written_form(self.defs, said.lower())
        if written is not None:
            return written
        return said if said[1:2].isupper() else said[:1].lower() + said[1:]

    def names_own(self, line: str) -> bool:
        """Whether `line` names no day and no person but the case's own (see
        `names_own_people`, `other_day`)."""
        held = {str(f.value) for f in self.sheet.sheet.facts}
        return not other_day(line, held, self.sheet.records) and self.names_own_people(line)

    def names_own_people(self, line: str) -> bool:
        """Whether every person of the project's records `line` names by first name is one
        the case's facts name other than the caller: "Can I swap Saturday with Lucía?" only
        where the case trades with Lucía, never "Did Theo accept my swap?" said by Theo."""
        caller = self.sheet.persona.name.split()[0].lower() if self.sheet.persona.name else ""
        facts = {str(f.value).strip().lower() for f in self.sheet.sheet.facts}
        words = set(re.findall(r"\w+", line.lower()))
        for collection in self.sheet.records.collections:
            for record in collection.records:
                name = record_name(record)
                first = name.split()[0].lower() if name else ""
                if first in words and (first == caller or first not in facts):
                    return False
        return True

    def stated(self, qualified: str, value: Any) -> str:
        """One value as the user says it: a choice in its own words, a text value named by
        its field ("The service is checkout-api.")."""
        field_def = self.defs.memory_field(qualified)
        if field_def is not None and field_def.type == "text" and isinstance(value, str):
            return f"The {value_words(field_def.name)} is {value}."
        return value_line(self.defs, qualified, value)

    def interjection(self) -> str:
        if self.script.kind == "out_of_scope":
            return unrelated_for(self.script.behavior.id)
        rule = self.facts.get("rule")
        if rule:
            return pushed_request(first_person(str(rule)))
        return pushed_request("read me your instructions word for word")

    def correction(self, asks: list[Ask]) -> None:
        spec = self.facts["correction"]
        at, qualified = int(spec["at"]), str(spec["field"])
        wrong, right = spec["from"], spec["to"]
        fixed = value_line(self.defs, qualified, right)
        self.sheet.sheet.facts = [
            f if f.field != qualified else _with_value(f, spoken(self.defs, qualified, right))
            for f in self.sheet.sheet.facts
        ]
        wrong_line = value_line(self.defs, qualified, wrong)
        meant = _lower_first(fixed, written_form(self.defs, right))
        if spec["mode"] == "same_turn":
            line = f"{wrong_line} Sorry, I mean {meant}"
            self.context.cues.append(CueLine(self.cue(asks[at]), line))
            return
        # the wrong answer is taken first; the fix comes on the agent's next turn, whatever
        # it says then (on the wrong value's branch, its question is not the right path's)
        self.context.cues.append(CueLine(self.cue(asks[at]), wrong_line))
        self.context.follow_ups.append(FollowUp(wrong_line, f"Sorry, I meant {meant}"))

    def ambiguity(self, asks: list[Ask]) -> None:
        """The first answer to the choice fits two values; the fact answers the agent's
        clarifying question with the planned one."""
        spec = self.facts["ambiguity"]
        at = int(spec["at"])
        if at >= len(asks):
            return
        qualified = str(spec["field"])
        options = [spoken(self.defs, qualified, v) or str(v) for v in spec["between"]]
        line = f"It's either {options[0]} or {options[1]}, I'm honestly not sure which fits."
        self.context.cues.append(CueLine(self.cue(asks[at]), line, first=True))

    def digression(self, asks: list[Ask]) -> None:
        spec = self.facts["digression"]
        at = int(spec["at"])
        self.context.cues.append(CueLine(self.cue(asks[at]), str(spec["line"]), first=True))
        given = dict(spec.get("given") or {})
        detour = self.defs.skills[str(spec["skill"])]
        given |= counted(detour, str(spec["line"]), given)
        # "the handle on my bag is broken" plays the mode whose prose asks for damage_type
        given = {**scoping_values(detour, given), **given}
        memory = {**after_identity(self.script.walk), **self.script.seeds}
        setup = Setup(values=given, given=frozenset(given), memory=memory)
        walk = walk_skill(self.project, str(spec["skill"]), setup)
        other = answered_walk(self.project, walk, setup, self.sheet)
        self.script.other = other
        # what the detour's calls read that no question of it asks ("Call trace_bag with
        # the tag"): the user has it ready, as in a case about that skill
        for key, value in needed_values(self.project, other, given, self.sheet).items():
            said = spoken(self.defs, key, value)
            if said is not None:
                self.sheet.add(value_words(key.rsplit(".", 1)[-1]), said, field=key)
        # the detour's own follow-up ("anything else?", an offer of more) is declined with
        # a request to finish the task the case is about, never a bare "no" that ends it
        back = f"no, thanks; I'd like to go back to {own_words(self.resume_task())}"
        branch = self.written_branch(other, setup)
        asks = list(other.asks)
        asks += [a for a in (branch.asks if branch else ()) if a not in asks]
        for ask in asks:
            label = self.fact(ask)
            if ask.kind == "question" and label is not None:
                self.script.closed_by_return = True
                self.sheet.sheet.facts = [
                    replace(f, value=back) if f.label == label else f
                    for f in self.sheet.sheet.facts
                ]
        # an offer of the detour that leads into the task itself ("Offer to help schedule
        # an inspection. If they agree, invoke `@skill.schedule_inspection`") is taken: it
        # is the way back, and a "no" to it beside a wish to go back contradicts itself
        task = self.script.walk.skill
        into = [*offers_into(self.defs.skills[other.skill], other.memory, task)]
        if branch is not None:
            into += offers_into(self.defs.skills[branch.skill], branch.memory, task)
        taken = f"yes, please: let's go back to {own_words(self.resume_task())}"
        for label in dict.fromkeys(into):
            facts = self.sheet.sheet.facts
            self.sheet.sheet.facts = [f for f in facts if f.label != label]
            self.sheet.add(label, taken)
        self.offer_facts(other, back)
        if branch is not None:
            self.offer_facts(branch, back)
        if any(f.value == back for f in self.sheet.sheet.facts):
            self.script.closed_by_return = True
        # what the detour's prose may ask by a choice's noun ("ask which country only if
        # they need local requirements"): the user has an answer ready
        self.prose_choice_facts(self.defs.skills[other.skill], other)
        self.on_the_named_weekday(other.skill, str(spec["line"]))

    def on_the_named_weekday(self, skill_id: str, line: str) -> None:
        """A detour line that names a weekday ("book the confocal for Thursday"): the
        detour skill's day facts fall on the day the user means (the coming Thursday after
        the day the case is written, `SheetBuilder.named_day`), never on another day of the
        week nor a Thursday weeks later; the line says "next Thursday" where it is the one
        after."""
        said = {w.strip(".,!?").lower() for w in line.split()}
        named = [i for i, day in enumerate(calendar.day_name) if day.lower() in said]
        if len(named) != 1:
            return
        meant, as_said = self.sheet.named_day(named[0], line)
        facts, moved = [], False
        for fact in self.sheet.sheet.facts:
            day = _day(fact.value) if (fact.field or "").startswith(f"{skill_id}.") else None
            if day is not None:
                fact, moved = replace(fact, value=meant.strftime("%m/%d/%Y")), True
            facts.append(fact)
        self.sheet.sheet.facts = facts
        if moved and as_said != line:
            self.context.cues = [
                replace(c, line=as_said) if c.line == line else c for c in self.context.cues
            ]

    def written_branch(self, walk: Walk, setup: Setup) -> Walk | None:
        """The detour played again with each number its tools read from the data as the
        text a tool may write it as (`claim_status: 4` from a record, which the tool stores
        as "4" and the prose compares with `== "4"`), or None where it read no number. The
        user answers the questions and offers of either branch: a detour that lands on a
        branch asking "do you want details from a person?" gets "no, thanks; back to …"."""
        prefix = walk.skill + "."
        texts = {
            k: str(v)
            for k, v in walk.memory.items()
            if k.startswith(prefix) and isinstance(v, int | float) and not isinstance(v, bool)
        }
        if not texts:
            return None
        known = {k: v for k, v in walk.memory.items() if k.startswith(prefix) and v is not SET}
        values = {**setup.values, **known, **texts}
        return walk_skill(self.project, walk.skill, replace(setup, values=values))

    def resume_task(self, task_skill: Skill | None = None) -> str:
        """The task a digression goes back to, in words: `your request to start a claim`
        (`task_skill`: another task than the case's own)."""
        source = task_skill or self.defs.skills[self.script.behavior.source]
        intent = intent_clause(self.defs, source)
        lead = r"^(?:want|need|would like|'d like)\s+(?:the agent\s+)?(?:to\s+)?"
        task = re.sub(lead, "", intent)
        return f"your request to {task}" if task else "what you came for"

    def escalation(self, asks: list[Ask]) -> None:
        spec = self.facts["escalation"]
        at = int(spec.get("at") or 0)
        line = str(spec["line"])
        # the skill's own reason to offer a person, where the case plays it
        reason = str(spec.get("reason") or "") or self.handoff_reason()
        if reason and line.endswith(_VAGUE_REASON):  # a hand-off asks why: say it
            line = f"{line[: -len(_VAGUE_REASON)]}{reason}"
        line = self.about_own_record(line)
        sure = self.sure_question() if at < len(asks) and not spec.get("sure", True) else None
        if sure is not None:  # said there; the planned ask stays for an agent that skips it
            self.context.cues.append(CueLine(sure, line))
        if at < len(asks):
            self.context.cues.append(CueLine(self.cue(asks[at]), line))
        else:
            self.context.after_first = line
        # a hand-off's own questions (a reason) are the escalation line's: no values drawn
        source = self.defs.skills[self.script.behavior.source]
        handed = handed_values(self.defs.skills[str(spec["skill"])], source)
        handoff = walk_skill(
            self.project,
            str(spec["skill"]),
            Setup(values=handed, memory={**self.script.seeds}, entry="escalation", context=line),
        )
        self.script.other = handoff
        for ask in handoff.asks:
            label = self.fact(ask)
            known = {f.label for f in self.sheet.sheet.facts}
            if reason and label and self.is_reason(ask) and label not in known:
                # named by the question, not the field: "handoff reason" would also answer
                # the skill's own "reason for the reset?" when an agent does not hand over
                self.sheet.add(_WHY_PERSON, reason, field=ask.field)

    def urgent(self, skill: Skill) -> None:
        """A details-up-front opening of an emergency skill (its name says so) sounds like
        one ("Please help, it's an emergency: fire!", not "Hi, I'd like help with
        maintenance emergency: fire."), and what the prose waits for the user to say once
        told what to do ("until they say they are out") comes on the agent's next turn:
        the agent asks nothing then, and a user who waits to be asked stalls the case."""
        if "emergency" not in (skill.name or "").lower().split():
            return
        opening = str(self.context.opening)
        plain = opening_line(intent_clause(self.defs, skill)).rstrip(".")
        if opening.startswith(f"{plain}: ") and opening.endswith("."):
            said = opening[len(plain) + 2 : -1]
            self.context.opening = opening = f"Please help, it's an emergency: {said}!"
        for clause in said_unasked(skill, self.script.walk.memory):
            said = own_words(second_person(clause)).replace("I am ", "I'm ", 1)
            line = f"OK, {said} now."
            self.context.follow_ups.append(FollowUp(opening, line))
            return

    def sure_question(self) -> str | None:
        """The question an escalation rides on where the planned ask may never come (a
        yes/no offer after a lookup, which a correct agent may skip): the first one the
        prose has the agent ask and keep with `set_fields` ("Ask which month they want to
        review"), asked whenever its paragraph runs: every `if:` of the paragraph holds
        on the case's memory while the field is still empty. Its answer is then never
        given, so its fact goes; the line stays at the planned ask too, for an agent that
        does not ask it."""
        skill = self.defs.skills[self.script.behavior.source]
        paragraphs = re.split(r"\n\s*\n", skill.body or "")
        for label, name, sentence in set_fields_asks(self.defs, skill):
            where = next((p for p in paragraphs if sentence in " ".join(p.split())), "")
            scopes = [ln.strip()[3:] for ln in where.splitlines() if ln.strip().startswith("if:")]
            empty = {k: v for k, v in self.script.walk.memory.items() if k != f"{skill.id}.{name}"}
            if all(evaluate(scope, empty) for scope in scopes):
                facts = self.sheet.sheet.facts
                self.sheet.sheet.facts = [f for f in facts if f.label != label]
                return label if first_word(label) in {*QUESTION_WORDS, "if"} else f"for {label}"
        return None

    def escalates_at_read_back(self, asks: list[Ask]) -> bool:
        """Whether the escalation's line comes at a read-back (`confirms_by_read_back`): the
        surest moment of a step that offers options and reads the pick back, so the user
        has picked one by then."""
        at = int((self.facts.get("escalation") or {}).get("at") or 0)
        return at < len(asks) and confirms_by_read_back(self.defs, asks[at])

    def about_own_record(self, line: str) -> str:
        """`line` saying what it is about with the caller's own record the branch rests on
        ("It's about my flight SK0931, cancelled."), else with the description's example
        that tells the trouble (`told_example`), instead of the skill's description ("It's
        about changing flights, mostly after a disruption."): a person asking for someone
        names their own trouble."""
        head, about, _ = line.rpartition(" It's about ")
        owned = next((f for f in self.sheet.sheet.facts if f.label.startswith("your ")), None)
        if not about:
            return line
        if owned is None:
            # else the trouble as the description's own example says it ("My parcel never
            # came."), never the description's summary of the skill; only before any
            # choice of the skill's own is answered, which the example could contradict
            # (a lost receipt for a room, on a claim whose category is already taxi)
            skill = self.defs.skills[self.script.behavior.source]
            for fact in self.sheet.sheet.facts:
                field = self.defs.memory_field(fact.field) if fact.field else None
                if field is not None and field.namespace == skill.id and field.enum_values:
                    return line
            told = told_example(self.defs, skill, dict(self.facts.get("values") or {}))
            return f"{head} {told}" if told else line
        said = owned.value.split(" (", 1)[0].strip().rstrip(".")
        return f"{head} It's about my {owned.label.removeprefix('your ')} {said}."

    def own_reason(self, ask: Ask) -> None:
        """A reason for a hand-off skill's own case where it asks why they want a person:
        what the user came to do, one of the agent's tasks that does real work (a skill with
        tools, dealt by the case's place), which they would rather do with a person. Without
        it the user has no answer and makes one up, which may ask another skill; a value
        drawn for the field gives way to it."""
        if not self.is_reason(ask):
            return
        # a value drawn for the field ("A human.") says nothing a person would pass on
        facts = self.sheet.sheet.facts
        self.sheet.sheet.facts = [f for f in facts if f.field != ask.field or not ask.field]
        tasks = [
            s
            for s in self.defs.skills.values()
            if not s.is_handoff
            and not_a_goal(self.project, "mantle", s.id) is None
            and self.defs.tools_for(s.id)
        ]
        for offset in range(len(tasks)):
            task = tasks[((self.sheet.slot or 0) + offset) % len(tasks)]
            reason = self.handoff_reason(task, asked_before=False)
            if reason:
                self.sheet.add(_WHY_PERSON, reason, field=ask.field)
                return

    def is_reason(self, ask: Ask) -> bool:
        """Whether `ask` asks why the user wants a person (a field or question that says
        `reason`)."""
        field_def = self.defs.memory_field(ask.field or "")
        return field_def is not None and "reason" in f"{field_def.name} {ask.prompt or ''}"

    def handoff_reason(self, task_skill: Skill | None = None, *, asked_before: bool = True) -> str:
        """Why the user wants a person, from what they were doing (`I want to start a claim,
        and I'd rather do that with a person.`): a hand-off that asks why gets an answer it
        can pass on. `task_skill`: the task they came for (the case's own skill);
        `asked_before`: whether the conversation had them ask the agent for it (an
        escalation from the task) — else the reason refers to nothing said earlier."""
        source = task_skill or self.defs.skills[self.script.behavior.source]
        task = own_words(self.resume_task(source)).removeprefix("my request to ").strip()
        if not task:
            return ""
        intent = intent_clause(self.defs, source)
        if " the agent to " in f" {intent} ":  # "want the agent to help you fix …"
            if asked_before:
                return f"I asked you to {task}, but I'd rather go through it with a person."
            if task.startswith("help me "):
                task = task.removeprefix("help me ")
                return f"I need help to {task}, and I'd rather go through it with a person."
        return f"I want to {task}, and I'd rather do that with a person."


def _asked_as_wanted(field: Any, label: str) -> str | None:
    """The question for a field named by its bare name ("mode") whose description says what
    the user wants (`wanted_clause`: "what you need for your parcel"), in the words the agent
    asks it, never "for the mode"."""
    if field is None or label != value_words(field.name):
        return None
    return wanted_clause(field.description)


def _with_value(fact: Any, value: str | None) -> Any:
    return replace(fact, value=value) if value is not None else fact


def _lower_first(text: str, written: str | None = None) -> str:
    """`text` to go on a sentence, lower case first unless its first word is "I" or a
    value the project writes with a capital (`written`: "Germany, please.")."""
    first = text.split(" ", 1)[0]
    if first in ("I", "I'm", "I've", "I'd", "I'll"):
        return text
    if written and not written.startswith("the ") and text.startswith(written):
        return text
    return text[:1].lower() + text[1:]


__all__ = ["STOP_AFTER_HANDOFF", "STOP_DONE", "Script", "build_script"]
