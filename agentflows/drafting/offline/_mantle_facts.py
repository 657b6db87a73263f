"""The case's test data for a Mantle walk: values for the fields the user answers, and the
fact each ask turns into (`label: value`, as the fact-sheet context lists it).

Values are fixed before the walk (`fill_values`) so that the assertions read from the walk
and the facts the simulated user gives agree. A categorical field keeps the value the path
chose; a number, date, id or e-mail comes from `evalcore.testdata` (a record of the project's
`data/*.json` when one matches, else a value typed by the field); an internal id the user
cannot know ("exactly as list_cards returned it") is answered with its label sibling's example.
A field nothing fits is left to the walk and named by its example, never by filler.
"""

from __future__ import annotations

import re
from typing import Any

from evalcore.agents.reference import reads_back
from evalcore.definitions import MantleDefinitions, MemoryField, Project, Skill, memoized
from evalcore.definitions.conditions import evaluate
from evalcore.definitions.skill_model import sentences, skill_model
from evalcore.definitions.skill_model.prose_patterns import QUESTION
from evalcore.lexicon.en.instruction_words import BOOKING_WORDS as _BOOKS
from evalcore.lexicon.en.instruction_words import BY_TOOL as _BY_TOOL
from evalcore.lexicon.en.instruction_words import OFFER_ENDS as _OFFER_END
from evalcore.lexicon.en.instruction_words import OUTCOME_WORDS as _OUTCOME_WORDS
from evalcore.lexicon.en.prose_values import ROUNDED_TO
from evalcore.lexicon.en.user_facts import AFTER_ASKED as _AFTER_ASKED
from evalcore.lexicon.en.user_facts import ASK_CLAUSE as _ASK_CLAUSE
from evalcore.lexicon.en.user_facts import COMPARED as _COMPARED
from evalcore.lexicon.en.user_facts import CONFIRMS as _CONFIRMS
from evalcore.lexicon.en.user_facts import FIRST_PERSON as _FIRST_PERSON
from evalcore.lexicon.en.user_facts import FOR_LEAD as _FOR_LEAD
from evalcore.lexicon.en.user_facts import GATE_QUESTION as _GATE_QUESTION
from evalcore.lexicon.en.user_facts import IF_ANSWER as _IF_ANSWER
from evalcore.lexicon.en.user_facts import INTERNAL as _INTERNAL
from evalcore.lexicon.en.user_facts import LEADING_THE as _LEADING_THE
from evalcore.lexicon.en.user_facts import LEAVES as _LEAVES
from evalcore.lexicon.en.user_facts import NARRATIVE as _NARRATIVE
from evalcore.lexicon.en.user_facts import OFFER as _OFFER
from evalcore.lexicon.en.user_facts import OPEN_PART as _OPEN_PART
from evalcore.lexicon.en.user_facts import QUESTION_LEAD as _QUESTION_LEAD
from evalcore.lexicon.en.user_facts import SET_NOTE as _SET_NOTE
from evalcore.lexicon.en.user_line_words import COUNTING as _COUNTING
from evalcore.lexicon.en.user_line_words import QUESTION_LEAD_INS as _LEAD_IN
from evalcore.lexicon.en.user_line_words import VALUE_QUESTION_OPENERS as QUESTION_WORDS
from evalcore.simulator import stems
from evalcore.testdata import (
    SHARE_OF,
    FieldSpec,
    SheetBuilder,
    case_rng,
    currency_codes,
    degree_of,
    described_shape,
    examples_of,
    kind_fit,
    kind_of,
    listed_values,
    merchant_for,
    names_an_id,
    other_than,
    record_limits,
    spoken_value,
    stated_code,
    told_value,
    within,
)

from ...planning.mantle_offers import (
    SET,
    Ask,
    Walk,
    description_phrases,
    example_value,
    field_choices,
    second_person,
    step_arguments,
    written_form,
)
from ._direction import content_stems, value_words
from ._mantle_branch_phrases import own_names, scoped_text, told_phrases
from ._mantle_list_values import list_value, listed_items
from ._mantle_on_record import note_invented
from ._mantle_picked import picked_from_offer
from ._mantle_reading_words import fits_the_reading


def spec_of(field: MemoryField, defs: MantleDefinitions | None = None) -> FieldSpec:
    """What a value is drawn for; with `defs`, the tool parameters the field fills under
    another name too (a record is matched by them: see `FieldSpec.aliases`)."""
    aliases = fed_parameters(defs).get(field.qualified, ()) if defs is not None else ()
    listed = _listed(defs, field) if defs is not None else ()
    return FieldSpec(
        field.name,
        field.type,
        field.description or "",
        tuple(field.enum_values or ()),
        aliases,
        narrative_of=field.namespace
        if field.namespace != "project" and _narrative(field)
        else None,
        listed=listed,
        ahead=defs is not None and _booked_for(defs, field),
    )


def _booked_for(defs: MantleDefinitions, field: MemoryField) -> bool:
    """Whether a tool of the field's skill that books or schedules something takes it by
    name (`reserve_instrument(session_date)`): a day it holds lies ahead of the run."""
    if field.namespace not in defs.skills:
        return False
    for tool in defs.tools_for(field.namespace).values():
        words = set(tool.name.lower().split("_"))
        if words & _BOOKS and tool.parameter(field.name) is not None:
            return True
    return False


def _listed(defs: MantleDefinitions, field: MemoryField) -> tuple[str, ...]:
    """The ids the project lists for the field, in its skill's prose (every skill's for a
    project field) or its description; read once per field."""

    def build() -> tuple[str, ...]:
        owner = defs.skills.get(field.namespace)
        skills = [owner] if owner is not None else list(defs.skills.values())
        prose = "\n\n".join(s.body for s in skills)
        return listed_values(prose, field.name, field.description or "")

    return memoized(defs, ("listed_values", field.qualified), build)


def _narrative(field: MemoryField) -> bool:
    """A free-text field that says what happened or why (not an id, a name or a choice)."""
    return field.type == "text" and not field.enum_values and tells_what_happened(field)


def tells_what_happened(field: MemoryField) -> bool:
    """Whether the field's name or description asks what happened or why."""
    return bool(_NARRATIVE.search(f"{field.name} {field.description or ''}"))


def fed_parameters(defs: MantleDefinitions) -> dict[str, tuple[str, ...]]:
    """Per qualified field, the `execute_tool` parameters of another name it fills."""

    def build() -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {}
        for skill in defs.skills.values():
            for block in skill.blocks.values():
                for step in block.steps:
                    if step.kind != "execute_tool":
                        continue
                    for param, key in step_arguments(step).items():
                        names = out.setdefault(key, [])
                        if param != key.rsplit(".", 1)[-1] and param not in names:
                            names.append(param)
        return {k: tuple(v) for k, v in out.items() if v}

    return memoized(defs, "fed_parameters", build)


def is_internal(field: MemoryField) -> bool:
    return bool(_INTERNAL.search(field.description or ""))


def field_value(
    defs: MantleDefinitions,
    field: MemoryField,
    sheet: SheetBuilder,
    fixed: dict[str, Any],
    asked: str = "",
    told_so_far: dict[str, Any] | None = None,
) -> Any:
    """The case's value for a field the user answers (None: leave it to the walk);
    `asked`: the question the path asks it with; `told_so_far`: the values the case gave
    before it, where a code of the field's stated shape already named ("The machine is
    showing E21") is the field's value too, never a second, different one."""
    if field.type == "categorical":
        given = {**fixed, **(told_so_far or {})}
        return of_the_kind(defs, field, sheet, given) or sheet.held_value(spec_of(field, defs))
    if field.type in ("bool", "list"):
        return list_value(defs, field, sheet, fixed)  # a list of listed or everyday items
    code = stated_code(field.description or "") if field.type == "text" else None
    for said in (told_so_far or {}).values() if code is not None else ():
        found = code.search(said) if isinstance(said, str) and " " in said.strip() else None
        if found is not None:
            return found.group()
    if field.type == "text" and is_internal(field):
        return sheet.from_records(spec_of(field, defs)) or example_value(defs, field)
    lister = listing_tool(defs, field.namespace, field) if field.namespace in defs.skills else None
    if field.type == "text" and lister and from_the_agents_list(field, sheet):
        return None  # the user picks one of those the agent reads out
    fitted = fits_the_kind(defs, field, sheet, fixed) if field.type == "text" else None
    value = fitted if fitted is not None else sheet.value(spec_of(field, defs))
    if field.type in ("int", "float") and isinstance(value, int | float):
        said = [*fixed.values(), *(told_so_far or {}).values()]
        value = in_the_records_limits(field, sheet, value, said)
        value = in_whole_blocks(defs, field, sheet, value, {**fixed, **(told_so_far or {})}, said)
        return on_the_path(defs, field, value)
    if value is None and field.type == "text":
        value = (
            example_value(defs, field)
            or paid_to(defs, field, sheet, fixed)  # a hotel for a lodging expense
            # what the case told before counts too: a reason never names another scope
            or in_own_words(defs, field, sheet, {**fixed, **(told_so_far or {})})
            or told(defs, field, sheet, fixed, asked)
        )
    if isinstance(value, str) and field.type == "text":  # the case's own records, by name
        given = {**fixed, **(told_so_far or {})}
        value = of_the_degree(defs, field, sheet, value, given)
        value = fits_the_reading(defs, field, value, given)
        near = [v for k, v in given.items() if k.split(".")[0] == field.namespace]
        value = own_names(sheet.records, value, near + list(given.values()))
    note_invented(field, sheet, value)  # a report id the caller's bag row says is none
    return value


#: A share of requests or users ("5xx at 12%", "~30% of checkouts fail"): an observation.
_SHARE = re.compile(r"\d+(?:\.\d+)?\s*%")


def of_the_degree(
    defs: MantleDefinitions,
    field: MemoryField,
    sheet: SheetBuilder,
    value: str,
    given: dict[str, Any],
) -> str:
    """`value`, an observed share ("5xx at 12% on checkout-api since 09:40 UTC"), or the
    observation of the degree a choice of the case names in its own words (`sev3: minor,
    has workaround`: rising latency, retries succeed), about the thing the case names
    (`evalcore.testdata.degree_of`); a field that says who is affected gets the degree's
    reach instead ("all users, every region and platform" for an outage)."""
    if not _SHARE.search(value):
        return value
    skill = field.namespace
    own = {k: v for k, v in given.items() if k.startswith(f"{skill}.")}
    degree = None
    for key, chosen in own.items():
        said = [p for c in field_choices(defs, key) if c.value == chosen for p in c.phrases]
        degree = degree_of(said) if said else None
        if degree is not None:
            break
    names = [
        v
        for k, v in own.items()
        if isinstance(v, str)
        and (other := defs.memory_field(k)) is not None
        and other.type == "text"
        and sheet.records.defines(v)
    ]
    if degree is None:
        value = _of_its_own(sheet, value, names[0]) if names else value
        return _one_share(value, [v for k, v in own.items() if k != field.qualified])
    if {"impact", "affected"} & set(re.findall(r"[a-z]+", f"{field.name} {field.description}")):
        return degree.affected
    return degree.observed.format(name=names[0]) if names else value


def _one_share(value: str, told: list[Any]) -> str:
    """`value` ("~30% of requests fail") with the share another line of the case already
    told of the same thing ("5xx at 12% on push-gateway"): "~12% of requests fail". Two
    examples of a field each draw their own number, and a story whose error rate is 12%
    while 30% of its requests fail contradicts itself; a value that counts no requests
    (`SHARE_OF`) is left."""
    if not re.search(rf"\b{SHARE_OF}\b", value) or len(_SHARE.findall(value)) != 1:
        return value
    shares = [m for t in told if isinstance(t, str) for m in _SHARE.findall(t)]
    if len(set(shares)) != 1:
        return value
    number = re.match(r"\d+(?:\.\d+)?", shares[0])
    assert number is not None
    return _SHARE.sub(lambda m: number.group() + m.group()[-1], value, count=1)


def _of_its_own(sheet: SheetBuilder, value: str, name: str) -> str:
    """`value` ("~30% of checkouts fail") where a word of it is the head of another
    record's name (`checkout` of `checkout-api`) than the case's own (`push-gateway`): the
    share of the case's own thing instead ("~30% of requests fail"); a word inside a name
    (`checkout-api`, which `own_names` swaps) is left."""
    heads = {
        str(v).split("-", 1)[0].lower()
        for c in sheet.records.collections
        for r in c.records
        for v in r.values()
        if isinstance(v, str) and "-" in v and " " not in v and v != name
    }
    heads -= {name.split("-", 1)[0].lower()}
    for token in value.split():
        word = token.strip(".,;:()")
        if word.isalpha() and word.lower().removesuffix("s") in heads:
            return re.sub(rf"(?<![\w-]){word}(?![\w-])", SHARE_OF, value, count=1)
    return value


def paid_to(
    defs: MantleDefinitions, field: MemoryField, sheet: SheetBuilder, fixed: dict[str, Any]
) -> str | None:
    """A merchant that fits the kind of expense the case chose (`evalcore.testdata.
    merchant_for`); None where the field names no payee or nothing chosen says the kind."""
    fields = defs.memory_names()
    kinds = [
        value
        for key, value in fixed.items()
        if isinstance(value, str) and key in fields and fields[key].type == "categorical"
    ]
    # the currency the case pays in: a merchant of that country (a skill may assume
    # dollars for a US merchant, and a pound receipt comes from a UK one)
    paid = next(
        (
            v
            for k, v in fixed.items()
            if isinstance(v, str) and k in fields and currency_codes(fields[k].enum_values or [])
        ),
        None,
    )
    return merchant_for(field.name, kinds, case_rng(sheet.key, field.qualified), paid)


def fits_the_kind(
    defs: MantleDefinitions, field: MemoryField, sheet: SheetBuilder, fixed: dict[str, Any]
) -> str | None:
    """The example of `field` that fits a kind the case fixes of another field ("domestic
    for US cities" beside a destination city), placed by the project's records
    (`evalcore.testdata.kind_fit`); None where no such kind is fixed or nothing decides."""
    examples = examples_of(field.description or "")
    if len(examples) < 2:
        return None
    fields = defs.memory_names()
    kinds = [
        (value, fields[key].description or "")
        for key, value in fixed.items()
        if isinstance(value, str) and key in fields and fields[key].type == "categorical"
    ]
    own = [r for name, r in sheet.sheet.records.items() if "#" not in name]
    return kind_fit(field.name, examples, kinds, sheet.records, own)


def of_the_kind(
    defs: MantleDefinitions, field: MemoryField, sheet: SheetBuilder, given: dict[str, Any]
) -> str | None:
    """The value of categorical `field` that fits a place the case already gave (a city
    the trip goes to: "domestic for US cities"), see `fits_the_kind`; None where nothing
    decides."""
    fields = defs.memory_names()
    own = [r for name, r in sheet.sheet.records.items() if "#" not in name]
    for key, place in given.items():
        other = fields.get(key)
        if other is None or other.type != "text" or not isinstance(place, str):
            continue
        kind = kind_of(
            other.name, place, field.enum_values or (), field.description or "", sheet.records, own
        )
        if kind is not None:
            return kind
    return None


def read_from_a_tool(defs: MantleDefinitions, field: MemoryField) -> str | None:
    """The tool whose answer the skill's prose sets the number field from ("set
    delay_minutes from get_flight_status"), else None: once that tool has answered, it
    knows the number, and one the user makes up would contradict the data it reads."""
    skill = defs.skills.get(field.namespace)
    if skill is None or field.type not in ("int", "float"):
        return None
    tools = defs.tools_for(skill.id)
    words = [w.strip("`.,;:()") for w in (skill.body or "").split()]
    for at, word in enumerate(words[1:-2], start=1):
        if word != field.name or words[at - 1].lower() != "set" or words[at + 1] != "from":
            continue
        after = [w.removeprefix("@tool.") for w in words[at + 2 : at + 4] if w != "the"]
        if after and after[0] in tools:
            return after[0]
    return None


def in_the_records_limits(
    field: MemoryField, sheet: SheetBuilder, value: float, said: list[Any]
) -> float:
    """`value` within the `min_`/`max_` columns the data gives the field in a record the
    case names (`said`: its values so far; 8 hours at most on the instrument it books)."""
    low, high = record_limits(sheet.records, field.name, said)
    kept = within(value, low, high)
    if kept == value:
        return value
    return round(kept) if field.type == "int" else round(kept, 1)


def in_whole_blocks(
    defs: MantleDefinitions,
    field: MemoryField,
    sheet: SheetBuilder,
    value: float,
    given: dict[str, Any],
    said: list[Any],
) -> float:
    """`value`, or the nearest of the numbers the prose of the case's own branch rounds the
    field to ("if: instrument == cryo_em … round the hours up to 24 or 48"), within the
    records' limits: the user asks for a whole block (24 hours), never a number (28) a
    correct agent books as another (48)."""
    skill = defs.skills.get(field.namespace)
    if skill is None:
        return value
    words = {w for w in field.name.lower().split("_") if len(w) > 2}
    texts = [
        scoped_text(skill, key, chosen)
        for key, chosen in given.items()
        if isinstance(chosen, str) and key.startswith(f"{skill.id}.")
    ]
    for text in (t for t in texts if t):
        for match in ROUNDED_TO.finditer(text):
            if not words & set(re.findall(r"[a-z]+", match["what"].lower())):
                continue
            numbers = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", match["numbers"])]
            low, high = record_limits(sheet.records, field.name, said)
            kept = [n for n in numbers if (low is None or n >= low) and (high is None or n <= high)]
            best = min(kept or numbers, key=lambda n: (abs(n - value), n))
            return round(best) if field.type == "int" else best
    return value


def from_the_agents_list(field: MemoryField, sheet: SheetBuilder) -> bool:
    """Whether the field is an id of a shape its description writes out (`OPN-#####`) that
    no record of the project's data files has, in a project that has data files: its
    values come from a tool's answer (the open shifts a service lists), so the user picks
    one the agent reads out, and a case never names one of another file or an invented
    one."""
    shape = described_shape(field.description or "") if names_an_id(field.name) else None
    records = sheet.records
    return shape is not None and bool(records.collections) and not records.holds_shape(shape)


def listing_tool(defs: MantleDefinitions, skill_id: str, field: MemoryField) -> str | None:
    """The skill's tool that lists the things the field names one of (`list_open_shifts`
    for `open_shift_id`: its name holds the things' plural), else None."""
    thing = field.name.lower().rsplit("_", 1)[0]
    plural = thing[:-1] + "ies" if thing.endswith("y") else thing + "s"
    return next((t for t in defs.tools_for(skill_id) if plural in t.lower()), None)


def leaving_sides(defs: MantleDefinitions, field: MemoryField) -> list[tuple[bool, float]]:
    """(below, number) for each line the skill's text draws for a number field where the
    sentence leaves the skill on that side ("Ask what the thermostat reads inside (set
    indoor_temp_f). Under 55°F is an emergency: go to @skill.emergency_line."): the
    sentences right after the text names the field, and its description."""
    skill = defs.skills.get(field.namespace)
    body = skill.body or "" if skill is not None else ""
    windows = [field.description or ""]
    for match in re.finditer(rf"\b{re.escape(field.name)}\b", body):
        windows.append(re.split(r"\n\s*\n", body[match.end() : match.end() + 300])[0])
    out: list[tuple[bool, float]] = []
    for window in windows:
        for sentence in re.split(r"(?<=[.!?])\s+", " ".join(window.split()))[:3]:
            if not _LEAVES.search(sentence):
                continue
            for compared in _COMPARED.finditer(sentence):
                side = (compared["low"] is not None, float(compared["n"]))
                if side not in out:
                    out.append(side)
    return out


def on_the_path(defs: MantleDefinitions, field: MemoryField, value: float) -> float:
    """`value`, or one on the other side of a line the prose leaves the skill across (an
    indoor reading of 4 where "under 55°F is an emergency: go to @skill.emergency_line"
    becomes 57.8): a case that stays in its skill gives a number that keeps it there, near
    the line (a warm fridge reads 39 where food is at risk above 41, never 31); a case that
    leaves is planned with its value fixed."""
    for below, number in leaving_sides(defs, field):
        step = max(1.0, abs(number) / 20)
        if below and value < number:
            value = number + step
        elif not below and value > number:
            value = max(0.0, number - step)
        else:
            continue
        value = round(value) if field.type == "int" else round(value, 1)
    return value


def told(
    defs: MantleDefinitions,
    field: MemoryField,
    sheet: SheetBuilder,
    fixed: dict[str, Any],
    asked: str = "",
) -> str | None:
    """What the user tells for a free-text field nothing else fills (what happened, where,
    anything to add), of the kind the case's fixed values and the skill's text are about."""
    skill = defs.skills.get(field.namespace)
    context = f"{skill.description or ''}\n{skill.body or ''}" if skill is not None else ""
    chosen = " ".join(str(v) for v in fixed.values() if isinstance(v, str))
    rng = case_rng(sheet.key, "told")  # one draw per case: its story holds together
    return told_value(spec_of(field, defs), rng, context, chosen, asked)


def _value_stems(defs: MantleDefinitions, body: str, key: str, value: Any) -> set[str]:
    """Words that go with one enum value: its own, its explanations, and "<value> for a …"
    in the skill's prose ("auto for a car policy")."""
    stems = set(content_stems(value_words(value)))
    for choice in field_choices(defs, key):
        if choice.value == value:
            stems |= set(content_stems(" ".join(choice.phrases)))
    if isinstance(value, str):
        pattern = rf"\b{re.escape(value)}\s+(?:for|means|is|=)\s+(?:an?\s+|the\s+)?([^,;.)]+)"
        for match in re.finditer(pattern, body):
            stems |= set(content_stems(match.group(1)))
    return stems


def in_own_words(
    defs: MantleDefinitions, field: MemoryField, sheet: SheetBuilder, fixed: dict[str, Any]
) -> str | None:
    """A narrative field ("what happened, in the caller's words") answered with one of the
    skill description's own first-person phrasings, the one that fits the case's fixed
    values best ("someone backed into my car" for an auto claim)."""
    if not tells_what_happened(field):
        return None
    skill = defs.skills.get(field.namespace)
    if skill is None:
        return None
    wanted: set[str] = set()
    unwanted: set[str] = set()
    scoped: set[str] = set()  # the prose of the case's own values: never a sign of another's
    named_others: list[str] = []  # other listed values ("db:read"), said by a phrase as "DB read"
    own_items: list[str] = []  # the case's own listed values (`logs:read`)
    for key, value in fixed.items():
        field_def = defs.memory_field(key)
        if field_def is not None and field_def.type == "list" and isinstance(value, list):
            own = {str(v) for v in value}
            for item in listed_items(field_def.description or ""):
                stems = set(content_stems(value_words(item)))
                if item in own:
                    wanted |= stems
                    own_items.append(item)
                else:
                    unwanted |= stems
                    named_others.append(item)
            continue
        for other in (field_def.enum_values or []) if field_def else [value]:
            stems = _value_stems(defs, skill.body or "", key, other)
            prose = set(content_stems(scoped_text(skill, key, other)))
            if other == value:
                wanted |= stems
                scoped |= prose
            else:
                unwanted |= stems | prose
    unwanted -= wanted | scoped

    def fit(phrase: str) -> int:
        said = set(content_stems(as_own(phrase)))
        return len(wanted & said) - len(unwanted & said)

    def as_own(phrase: str) -> str:
        """ "I need prod DB read access" beside `scopes: [logs:read]` says logs:read: a
        phrase that names another listed value whole names the case's own instead."""
        for item in named_others if own_items else ():
            words = [re.escape(w) for w in re.findall(r"[a-z0-9]+", item.lower())]
            found = re.compile(r"\b" + r"[\s:_-]*".join(words) + r"\b", re.I)
            phrase = found.sub(" and ".join(own_items), phrase)
        return phrase

    said = [p for p in description_phrases(skill) if "?" not in p]
    pool = [p for p in said if _FIRST_PERSON.search(p)] or said
    rng = case_rng(sheet.key, f"words:{field.name}")
    order = rng.sample(pool, len(pool))
    order += [p for p in rng.sample(said, len(said)) if p not in order]
    # never a phrase of another branch, nor one that names another of the case's choices
    # (the oven, for a blender): it tells another story than the case's
    fitting = {p for p in told_phrases(defs, skill, said, fixed) if fit(p) >= 0}
    order = [p for p in order if p in fitting]
    if not order:
        return _in_the_leads_words(defs, skill, fixed)
    best = as_own(max(order, key=fit))
    return best[:1].upper() + best[1:] + ("" if best[-1:] in ".!" else ".")


def _in_the_leads_words(defs: MantleDefinitions, skill: Skill, fixed: dict[str, Any]) -> str | None:
    """The case's own thing in the state the description's lead gives ("The blender stopped
    working."), where none of its phrasings is about that thing: the user still says what
    it is doing rather than leaving the simulator to make something up. None without such
    a lead or without one choice of the skill the case holds."""
    lead = " ".join((skill.description or "").split())
    for stop in (":", ";", ",", ".", '"', " or "):  # "Equipment that stopped working or …"
        lead = lead.split(stop, 1)[0]
    subject, that, state = lead.partition(" that ")
    things = [
        value
        for key, value in fixed.items()
        if key.startswith(f"{skill.id}.")
        and isinstance(value, str)
        and (field := defs.memory_field(key)) is not None
        and field.enum_values
    ]
    if not that or not state or len(subject.split()) > 2 or len(things) != 1:
        return None
    return f"The {value_words(things[0])} {state.strip()}."


def set_fields_asks(defs: MantleDefinitions, skill: Skill) -> list[tuple[str, str, str]]:
    """(label, field name, sentence) for each field the prose has the agent set from the
    user's answer with Mantle's `set_fields` ("Ask which month they want to review. When
    they answer, set `bill_month` via `set_fields` to a full month name such as February")
    that no memory declares: the model does not read it as a question, but a real agent
    asks it, so the user must know the answer."""
    declared = defs.memory_names()
    out = []
    for para in re.split(r"\n\s*\n", skill.body or ""):
        text = " ".join(para.split())
        for sentence in (s.strip() for s in text.split(". ")):
            words = sentence.split()
            kept = [w.strip("`,") for w in words]
            if "set_fields" not in kept or "set" not in (w.lower() for w in kept):
                continue
            at = [w.lower() for w in kept].index("set")
            named = words[at + 1] if at + 1 < len(words) else ""
            name = named.strip("`,")
            if not (named.startswith("`") and name.isidentifier()):
                continue  # "set `bill_month` via `set_fields`": a field, in backticks
            if f"{skill.id}.{name}" in declared or f"project.{name}" in declared:
                continue
            clause = asked_clause(text[: text.index(sentence)])
            if clause is not None:
                out.append((second_person(clause), name, sentence))
    return out


def fill_values(
    defs: MantleDefinitions, walk: Walk, values: dict[str, Any], sheet: SheetBuilder
) -> dict[str, Any]:
    """`values` plus a test-data value for every field an ask of `walk` fills and the
    behaviour did not fix."""
    out = dict(values)
    fields = defs.memory_names()
    chosen = {a.field: a.value for a in walk.asks if a.field and isinstance(a.value, str | bool)}
    chosen.update(values)
    for ask in walk.asks:
        key = ask.field
        if not key or key in out or key not in fields:
            continue
        if picked_from_offer(defs, fields[key], walk.memory):
            continue  # the user picks one of the options a tool's answer lists
        value = field_value(defs, fields[key], sheet, chosen, ask.prompt or "", out)
        if value is not None:
            out[key] = value
    return out


def request_values(
    project: Project, skill_id: str, walk: Walk, values: dict[str, Any], sheet: SheetBuilder
) -> dict[str, Any]:
    """A value for each text field the skill reads from the user's first message that the
    walk records without knowing it ("from the first message, work out the service"):
    nobody asks for it later, so the opening has to say it, or a correct agent is left
    with a user who cannot tell it (and a tool argument nobody can assert)."""
    assert project.mantle is not None
    defs = project.mantle
    model = skill_model(project, skill_id)
    names = defs.memory_names()
    out: dict[str, Any] = {}
    for spec in model.fields if model is not None else []:
        key = spec.qualified
        field_def = names.get(key)
        if spec.asked_by != "request" or key in values or field_def is None:
            continue
        if field_def.type != "text" or walk.memory.get(key) is not SET:
            continue
        value = field_value(defs, field_def, sheet, dict(values))
        if isinstance(value, str):
            out[key] = value
    return out


def asked_clause(text: str) -> str | None:
    """`... and ask which one needs replacing.` -> `which one needs replacing`."""
    text = " ".join(text.split())
    # "Do not ask for a time or a place; ... ask only the date": a question it must not ask
    # names nothing the user is asked for
    match = next((m for m in _ASK_CLAUSE.finditer(text) if not _negated(text[: m.start()])), None)
    if match is None:
        return None
    clause = match["clause"].strip().rstrip(",")
    # what the agent then does with the answer is no part of what the user knows:
    # "where the water is coming from and set leak location", "the ZIP code, then call x"
    # nor when the agent asks it ("which service is affected if it is not clear")
    clause = _AFTER_ASKED.sub("", clause)
    if len(clause.split(" and ")) > 1 and len(clause.split()) > 6:
        return None  # "the environment (staging or prod) and the version tag": two things
    return _FOR_LEAD.sub("", clause)


def _negated(before: str) -> bool:
    """Whether the words before an "ask" forbid it ("do not", "never", "don't")."""
    words = before.lower().split()[-2:]
    return bool(words) and (words[-1] in ("not", "never") or words[-1].endswith("n't"))


def confirms_by_read_back(defs: MantleDefinitions, ask: Ask) -> bool:
    """A yes/no field the agent fills by reading the details back: it asks it as a
    confirmation ("Is that all correct?"), as the reference agent words it."""
    field = defs.memory_field(ask.field) if ask.field else None
    return field is not None and field.type == "bool" and reads_back(ask.prompt)


_PLACEHOLDER = re.compile(r"\{[^}]*\}")


def gate_words(ask: Ask) -> str | None:
    """The gated action of a `confirm` ask in words, for `When the agent asks whether to
    <act>`: the confirmation question's own (`connect you to a human specialist now`, a
    value filled in at the end read as `it`), else the tool's name (`submit the claim`)."""
    prompt = " ".join((ask.prompt or "").split())
    match = _GATE_QUESTION.match(prompt)
    if match:
        act = next(g for g in (match["act"], match["act2"], match["act3"]) if g)
        act = re.sub(r"\s*\{[^}]*\}\s*$", " it", act).strip()
        if not _PLACEHOLDER.search(act):
            return act
    if not ask.tool:
        return None
    words = value_words(ask.tool).split()
    return " ".join([words[0], "the", *words[1:]]) if len(words) > 1 else words[0]


def gate_question(ask: Ask) -> str | None:
    """The runtime's own confirmation question of a `confirm` ask, its slots as `…`
    ("Move '…' to …? Attendees get an updated invite."): the one question a refusal
    declines, told apart from the agent's own proposal or read-back before it."""
    prompt = " ".join((ask.prompt or "").split())
    if ask.kind != "confirm" or not prompt:
        return None
    return _PLACEHOLDER.sub("…", prompt)


def label_for(ask: Ask) -> str:
    """What the fact of `ask` is, in plain words (the agent's question, else the field); a
    question too short to recognise ("Where to?") is named by its field."""
    label = _things(_plain_label(_label(ask)))
    if ask.field and not stems(label):
        return value_words(ask.field.split(".", 1)[-1])
    return label


def _things(label: str) -> str:
    """`file a claim on one of you` -> `… one of them`: the prose's "them" after a counting
    word is the things it listed, which the second person must not turn into the user."""
    words = label.split(" ")
    for i in range(2, len(words)):
        said = words[i].rstrip(",;?")
        if said == "you" and words[i - 1] == "of" and words[i - 2].lower() in _COUNTING:
            words[i] = "them" + words[i][len(said) :]
    return " ".join(words)


def value_label(label: str, field: MemoryField | None) -> str:
    """A yes/no question's label on a field that holds a value, not a yes or no ("whether
    that is correct for your employment country" for `parental_country: uk`), named by what
    the value is (`employment country`): the user gives the value, and with nothing detected
    the agent asks for it outright. A yes/no field keeps its question."""
    if field is not None and one_choice_asked(label, field):
        return value_words(field.name)
    if field is None or field.type == "bool" or not label.startswith("whether "):
        return label
    words = label.split()
    if "your" in words[1:]:
        at = len(words) - 1 - words[::-1].index("your")
        named = " ".join(words[at + 1 :])
        if 0 < len(named.split()) <= 4:
            return named
    return value_words(field.name)


def one_choice_asked(label: str, field: MemoryField) -> bool:
    """A question that offers one choice of a field of several ("paid in dollars" for
    `currency: [USD, GBP, EUR]`): a yes or no is no value of the field, so the user's
    answer (`GBP`) is named by what the field holds (`currency`), not by that question."""
    values = {str(v).lower() for v in field.enum_values or []}
    words = label.lower().split()
    return (
        field.type == "categorical"
        and len(values) > 2
        and not values & {"yes", "no", "true", "false"}
        and bool(words)
        and first_word(label) not in QUESTION_WORDS
        and "or" not in words
        and not any(w.strip(",") in values for w in words)
    )


def _plain_label(label: str) -> str:
    """A label the user may read and the context grammar can hold: no `@` tokens (and no
    parenthesis that carried one), nothing after a colon (`- label: value` splits there)."""
    label = re.sub(r"\s*\([^)]*@[^)]*(?:\)|$)", "", label)
    label = _SET_NOTE.sub("", label)  # "(set x)"
    label = re.sub(r"@[\w.]+", "", label).split(":", 1)[0]
    return " ".join(label.split()).strip(" ,;-(")


def _label(ask: Ask) -> str:
    prompt = " ".join((ask.prompt or "").split())
    if ask.kind == "question" and ask.details:
        return f"whether {second_person(ask.details[0])}"
    if ask.kind == "collect" and prompt and "{" not in prompt:
        questions = [q for q in re.split(r"(?<=[.!?])\s+", prompt) if q.endswith("?")]
        if len(questions) == 1 and len(questions[0].split()) <= 12:
            question = questions[0].rstrip("?")
            head, _, tail = question.rpartition(", ")
            wh = first_word(tail) in QUESTION_WORDS
            if head and len(tail.split()) >= 2 and (wh or _leads_in(head)):
                question = tail
            question = _QUESTION_LEAD.sub("", question)
            question = _LEADING_THE.sub("", question)
            return _lower_first(question)
    clause = asked_clause(prompt)
    if clause and len(clause.split()) <= 12:
        return second_person(clause)
    return value_words((ask.field or "details").split(".", 1)[-1])


def first_word(text: str) -> str:
    """The first word of `text`, in lower case ("What's" -> "what")."""
    match = re.match(r"\w+", text)
    return match.group(0).lower() if match else ""


def _leads_in(text: str) -> bool:
    """Whether `text` is a lead-in ("And", "One more thing") before the question proper."""
    first = first_word(text)
    return first in _LEAD_IN or (first == "one" and first_word(text[3:].lstrip()) == "more")


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def confirms(defs: MantleDefinitions, ask: Ask) -> bool:
    """A yes/no ask that reads the details back ("read back …, ask whether that is all
    correct"): answered by the context's confirmation line, not by a fact."""
    field = defs.memory_field(ask.field or "")
    text = f"{ask.prompt or ''} {' '.join(ask.details)}"
    boolean = ask.kind == "question" or (field is not None and field.type == "bool")
    return boolean and bool(_CONFIRMS.search(text))


def spoken(defs: MantleDefinitions, qualified: str | None, value: Any) -> str | None:
    """A walk value as the user says it; None for a value the walk does not know."""
    if value is None or value is SET:
        return None
    if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
        return ", ".join(str(v) for v in value)  # the items, as said
    field = defs.memory_field(qualified or "")
    spec = spec_of(field) if field is not None else None
    if isinstance(value, str) and spec is not None and spec.enum_values:
        real = other_than(spec.name, value, spec.enum_values)  # "other": a country of none
        return real or written_form(defs, value) or value_words(value)
    return spoken_value(value, spec)


def audience_text(defs: MantleDefinitions, skill: Skill) -> str:
    """The words that say who uses the agent: agent.yml and the skill descriptions (the
    planned skill's twice, so it weighs most). Kept per loaded definitions and skill: it
    holds every skill's description, so building it for each case grew with the skills."""
    return memoized(defs, ("audience_text", skill.id), lambda: _audience_text(defs, skill))


def _audience_text(defs: MantleDefinitions, skill: Skill) -> str:
    own = skill.description or ""
    return f"{audience_shared(defs)} {own} {own}"


def audience_shared(defs: MantleDefinitions) -> str:
    """The start every skill's audience text has: agent.yml's words and every skill's
    description (`roles_for` keeps its scans of it)."""
    return memoized(defs, "audience_shared", lambda: _audience_shared(defs))


def _audience_shared(defs: MantleDefinitions) -> str:
    agent = defs.agent or {}
    parts = [str(agent.get(k) or "") for k in ("name", "description", "persona")]
    parts += [s.description or "" for s in defs.skills.values()]
    return " ".join(parts)


DECLINED = "no, thanks"
ACCEPTED = "yes, please"
DONE = "Yes, I've done it and it worked."
NOT_DONE = "I've done it, but it still doesn't work."


def question_answer(skill: Skill, sentence: str | None) -> str:
    """The answer to the prose's yes/no question in `sentence` that keeps the case on the
    skill's own path: "yes" where the sentence after it leaves on a "no" ("Ask if that
    answered their question. If not, offer to connect them to a human."), else "no" (the
    hand-off or the extra step is on the "yes": "If they need a person, …")."""
    said = " ".join((sentence or "").split())
    parts = sentences(skill.body or "")
    for index, part in enumerate(parts):
        if not said or said not in part.text:
            continue
        for branch in parts[index + 1 : index + 3]:
            if branch.paragraph != part.paragraph:
                break
            match = _IF_ANSWER.match(branch.text)
            if match is not None:
                return "yes" if match["no"] and _LEAVES.search(branch.text) else "no"
        break
    return "no"


def offers(skill: Skill, memory: dict[str, Any]) -> list[str]:
    """What the skill offers on the case's path (a sentence whose `if:` holds in `memory`,
    or one without a condition), as facts' labels (`whether you want help to schedule an
    inspection`), for the user to decline: the case is about its own request. An offer of a
    person is the escalation's, not a fact's."""
    out: list[str] = []
    parts = sentences(skill.body or "")
    for part in parts:
        if part.condition and not holds(part.condition, memory):
            continue
        label = _offer_label(part.text)
        if label is None or label in out or _aside(part, parts):
            continue
        if not _requested(skill, memory, label):
            out.append(label)
    return out


def _requested(skill: Skill, memory: dict[str, Any], label: str) -> bool:
    """Whether the offer `label` names the request the case's path already holds (a
    "guest PIN instead" where the skill's `request` is `guest_pin`): the user asked for
    it, so a "no, thanks" to it would contradict their own request."""
    offered = set(re.findall(r"[a-z0-9]+", label.lower()))
    for field in skill.memory.values():
        value = memory.get(field.qualified)
        if field.type != "categorical" or not isinstance(value, str):
            continue
        words = [w for w in re.split(r"[_\W]+", value.lower()) if w]
        if words and set(words) <= offered:
            return True
    return False


def offers_passed(skill: Skill, memory: dict[str, Any]) -> list[str]:
    """The offers (as `offers` labels them) the case's path passes by: one a sentence makes
    only under its own condition ("if the bag is already on its way, say so and offer
    delivery") whose next sentence is the other side ("If not, ask for a delivery address
    (set delivery_address)") and sets a field the path holds: the agent never makes it,
    and a "no, thanks" to it beside the address reads as refusing what the path arranges."""
    parts = sentences(skill.body or "")
    out: list[str] = []
    for index, part in enumerate(parts):
        if part.condition and not holds(part.condition, memory):
            continue
        label = _offer_label(part.text)
        found = _OFFER.search(part.text)
        if label is None or found is None or " if " not in f" {part.text[: found.start()]}":
            continue
        after = parts[index + 1] if index + 1 < len(parts) else None
        if after is None or after.paragraph != part.paragraph:
            continue
        other = after.text.lower()
        if not other.startswith(("if not", "otherwise", "else")):
            continue
        if any(f"set {f.name}" in other and f.qualified in memory for f in skill.memory.values()):
            out.append(label)
    return out


def _aside(part: Any, parts: list[Any]) -> bool:
    """Whether `part` only suggests something ("refuse and suggest People Ops instead",
    "Suggest Wi-Fi tips") in a paragraph that calls no tool: not a question the user
    answers. A suggestion beside a call ("… then page with @tool.page_responder. For
    anything that can wait, suggest posting in the team channel instead, but page if they
    insist") is the alternative a user who wants the call turns down."""
    found = _OFFER.search(part.text)
    if found is None or not found["verb"].lower().startswith("suggest"):
        return False
    return not any("@tool." in p.text for p in parts if p.paragraph == part.paragraph)


def open_outcomes(skill: Skill, memory: dict[str, Any], tools: set[str]) -> list[str]:
    """What the prose waits to hear from the user before a call of `tools` on the case's
    path ("if fix_attempted is true and it still doesn't work, open a ticket with
    @tool.create_work_order" -> `it still doesn't work`; "they want a copy" -> `you want
    a copy`, said to the user): no field holds it, so a case that
    asserts the call has the user say it, or a correct agent that hears the step helped
    makes no call and fails the case."""
    names = [f.name for f in skill.memory.values()]
    out: list[str] = []
    for part in sentences(skill.body or ""):
        if part.condition and not holds(part.condition, memory):
            continue
        for name in sorted(tools):
            at = part.text.find(f"@tool.{name}")
            found = _OPEN_PART.search(part.text[:at]) if at >= 0 else None
            if found is None or not any(n in found["known"] for n in names):
                continue
            clause = " ".join(found["open"].split())
            if clause.lower().startswith("they "):  # said to the user: their own answer
                clause = f"you {clause[5:]}"
            if not any(n in clause for n in names) and clause not in out:
                out.append(clause)
    return out


def offers_into(skill: Skill, memory: dict[str, Any], target: str) -> list[str]:
    """The offers on the path (as `offers` labels them) whose paragraph goes on into skill
    `target` ("Offer to help schedule an inspection. If they agree, invoke
    `@skill.schedule_inspection`"): a yes to one starts `target` from this skill."""
    parts = sentences(skill.body or "")
    into = {p.paragraph for p in parts if f"@skill.{target}" in p.text}
    out: list[str] = []
    for part in parts:
        if part.paragraph not in into or (part.condition and not holds(part.condition, memory)):
            continue
        label = _offer_label(part.text)
        if label is not None and label not in out:
            out.append(label)
    return out


def offers_taken(skill: Skill, memory: dict[str, Any], tools: set[str]) -> list[str]:
    """The offers on the path (as `offers` labels them) whose paragraph goes on to call one
    of `tools` ("Offer a callback. Ask which window suits them … then call
    @tool.schedule_callback"): the case asserts that call, so its user takes the offer; a
    "no" to it would leave a correct agent without the call the case expects."""
    parts = sentences(skill.body or "")
    out: list[str] = []
    for index, part in enumerate(parts):
        if part.condition and not holds(part.condition, memory):
            continue
        label = _offer_label(part.text)
        after = [p.text for p in parts[index:] if p.paragraph == part.paragraph]
        called = any(f"@tool.{name}" in text for text in after for name in tools)
        if label is not None and called and label not in out:
            out.append(label)
    return out


def _offer_label(text: str) -> str | None:
    """The offer `text` makes, as a fact's label, or None (no offer, a negated one, or an
    offer of a person)."""
    match = _OFFER.search(text)
    before = text[: match.start()].lower().split() if match else []
    if match is None or {"not", "never", "don't", "without"} & set(before[-3:]):
        return None
    what = " ".join(match["what"].split())
    # "offer a replacement with @tool.order_replacement_fob": the call that makes the offer
    # good is how it is done, not what is offered
    words = what[: what.find("@tool")].split() if "@tool" in what else what.split()
    while "@tool" in what and words and words[-1].lower() in _BY_TOOL:
        words.pop()
    what = " ".join(words)
    if "@" in what or not what:  # "offer @skill.human_handoff": a hand-off, the escalation's
        return None
    for end in _OFFER_END:
        what = what.split(end, 1)[0]
    what = second_person(what.strip())
    if match["to"] and what.lower().startswith("help ") and what.split()[1:2] != ["to"]:
        what = "help to " + what[5:]  # "offer to help schedule an inspection"
    elif match["to"]:
        what = "to " + what  # "offer to continue with …": a thing to do, not to have
    elif match["verb"].lower().startswith("suggest") and what.split()[0].endswith("ing"):
        what = "to try " + what  # "suggest posting in the team channel": a thing to do
    return f"whether you want {what}" if what and not _LEAVES.search(what) else None


def declined_only(skill: Skill, calls: list[Any], memory: dict[str, Any]) -> bool:
    """Whether every one of a tool's `calls` waits for the user's yes to the offer or yes/no
    question right before it in its paragraph ("Offer to run diagnostics again. If they
    agree, call run_speed_test"; "Ask whether they want a breakdown. If yes, … call
    list_bill_charges"), and the case's user says no to each (`offers` are declined, a
    question gets `question_answer`): no correct agent runs the tool in this case."""
    parts = sentences(skill.body or "")
    declined = set(offers(skill, memory))
    for call in calls:
        answer = _IF_ANSWER.match(call.trigger or "")
        if call.kind != "prose" or not call.optional or answer is None or not answer["yes"]:
            return False
        said = " ".join((call.sentence or "").split())
        index = next((i for i, p in enumerate(parts) if said and said in p.text), 0)
        before = parts[index - 1] if index > 0 else None
        if before is None or before.paragraph != parts[index].paragraph:
            return False
        offered = _offer_label(before.text)
        asked = QUESTION.search(before.text) is not None  # "Ask whether they want …"
        if offered is not None and offered in declined:
            continue
        if offered is None and asked and question_answer(skill, before.text) == "no":
            continue
        return False
    return bool(calls)


def holds(condition: str, memory: dict[str, Any]) -> bool:
    """Whether `condition` holds on a walk's memory (a value the walk only knows is set
    counts as unknown)."""
    return bool(evaluate(condition, {k: v for k, v in memory.items() if v is not SET}))


def reported(field: MemoryField | None, prompt: str | None) -> bool:
    """A yes/no field the user fills by reporting how a step they did themselves went ("Set
    `reboot_done` to true when they confirm success, or false if they report a problem"):
    the agent waits for the report, it reads nothing back."""
    if field is None or field.type != "bool":
        return False
    text = " ".join((prompt or "").lower().split())
    return "when they" in text and any(w in text for w in _OUTCOME_WORDS)


def named_instead(skill: Skill, field: MemoryField | None, value: Any) -> tuple[str, str] | None:
    """(label, words) for a `<thing>_id` the user names by its name, not its id: the skill
    speaks of the things' names ("Call list_slack_channels when they are unsure of channel
    names") and the id example spells one ("C_GENERAL": `channel`, `general`); the agent
    finds the id. None where the id spells no name or the skill never speaks of names."""
    if field is None or not field.name.endswith("_id") or not isinstance(value, str):
        return None
    thing = value_words(field.name.removesuffix("_id"))
    body = " ".join((skill.body or "").lower().split())
    if not thing or f"{thing} name" not in body:
        return None
    prefix, _, rest = value.partition("_")
    words = rest.replace("_", " ").strip()
    if not (prefix.isupper() and len(prefix) <= 2 and words.replace(" ", "").isalpha()):
        return None
    return thing, words.lower()


def reported_label(field: MemoryField) -> str | None:
    """What the agent waits to hear, from the field's description: "Whether the customer
    confirmed they finished rebooting the router." -> `whether you finished rebooting the
    router`; None when the description says no "whether"."""
    words = " ".join((field.description or "").split()).rstrip(".").split()
    if not words or words[0].lower() != "whether":
        return None
    rest = words[1:]
    for verb in ("confirmed", "said", "reported"):  # "the customer confirmed (that) they …"
        if verb in rest[:4]:
            rest = rest[rest.index(verb) + 1 :]
            rest = rest[1:] if rest[:1] == ["that"] else rest
            break
    return f"whether {second_person(' '.join(rest))}" if rest else None


def reported_value(value: Any) -> str:
    """The report: done and it worked (True), done but it did not (False)."""
    return DONE if value is True else NOT_DONE


__all__ = [
    "ACCEPTED",
    "DECLINED",
    "QUESTION_WORDS",
    "asked_clause",
    "audience_shared",
    "audience_text",
    "confirms",
    "confirms_by_read_back",
    "field_value",
    "fill_values",
    "first_word",
    "fits_the_kind",
    "from_the_agents_list",
    "gate_question",
    "gate_words",
    "holds",
    "in_own_words",
    "in_whole_blocks",
    "is_internal",
    "label_for",
    "listing_tool",
    "named_instead",
    "of_the_degree",
    "offers",
    "offers_into",
    "offers_passed",
    "offers_taken",
    "on_the_path",
    "one_choice_asked",
    "open_outcomes",
    "paid_to",
    "question_answer",
    "reported",
    "reported_label",
    "reported_value",
    "request_values",
    "set_fields_asks",
    "spec_of",
    "spoken",
    "tells_what_happened",
    "told",
    "value_label",
]
