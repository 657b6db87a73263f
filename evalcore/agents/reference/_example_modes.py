"""Which mode each of a skill's description examples asks for.

A skill with several jobs ("set mode to one of status, history, deploy, rollback, promote or
diagnose") lists one request per job in its description ("what's running in prod", "deploy
v2.41.0 to staging", "why did my deploy fail"). A case of one mode opens with the request of
that mode, never another's: "why did my deploy fail" names the word `deploy`, but it asks to
diagnose a failed deploy, and a deploy case that opens with it asks for the wrong job.

The mode of an example is read from the prose the mode selects: each value of a mode field
(a categorical field the model sets, compared with its values in the prose's `if:` lines) has
the paragraphs scoped to it. An example's words weigh towards the value whose paragraphs use
them, each word by how few of the values' paragraphs share it (`failed` is the diagnose
section's own; `deploy` three sections share), and its own words (`promote`) count whole.
Each example may pair with the values it weighs most towards (at least one word only that
value's prose uses, or the value's own words); examples and values are then paired one to
one for the largest total weight, since such a description gives one request per job. An
example left over (a second request of one job, or one whose words fit no section well) is
of no mode here, and callers read it as before.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from ...definitions import MantleDefinitions, Skill
from ...definitions.skill_model import paragraphs
from ._mantle_text import spoken, stems

#: A quoted request in a description ("why did my deploy fail").
QUOTED = re.compile(r"[\"“]([^\"”]{3,120})[\"”]")
#: Pairing examples with values searches every one-to-one pairing up to this many values.
_PAIRED = 10
#: The least weight that pairs an example with a value (one word the value's prose alone
#: uses, or its own words).
_CLEAR = 1.0


#: (id of the definitions, skill id) -> the definitions, the skill and its examples' modes,
#: read once per loaded definitions (every message the agent reads asks).
_READ: dict[tuple[int, str], tuple[MantleDefinitions, Skill, dict[str, dict[str, Any]]]] = {}


def description_phrases(skill: Skill) -> list[str]:
    """The quoted customer phrasings of a skill's description, in order."""
    return [" ".join(m.group(1).split()) for m in QUOTED.finditer(skill.description or "")]


def example_modes(defs: MantleDefinitions, skill: Skill) -> dict[str, dict[str, Any]]:
    """Description example (as `description_phrases` writes it) -> {mode field: value} for
    each mode field whose value the example asks for; an example of no clear mode is left
    out. Read once per skill."""
    key = (id(defs), skill.id)
    kept = _READ.get(key)
    if kept is None or kept[0] is not defs or kept[1] is not skill:
        kept = _READ[key] = (defs, skill, _example_modes(defs, skill))
    return kept[2]


def mode_named(defs: MantleDefinitions, qualified: str, phrase: str, named: Any) -> Any:
    """The value of mode field `qualified` that `phrase` asks for, given the value its words
    name (`named`, None for none): where it is (or starts with) a description example of a
    clear mode, that mode ("why did my deploy fail" names `deploy` and asks to diagnose;
    "what's my day look like" names none and asks for the agenda), else `named`."""
    mode = example_mode(defs, qualified, phrase)
    return named if mode is None else mode


def example_mode(defs: MantleDefinitions, qualified: str, phrase: str) -> Any:
    """The value of mode field `qualified` that `phrase` asks for where it is (or starts
    with) one of its skill's description examples of a clear mode; else None."""
    skill = defs.skills.get(qualified.split(".", 1)[0])
    if skill is None:
        return None
    said = _plain(phrase)
    for example, modes in example_modes(defs, skill).items():
        head = _plain(example)
        if qualified in modes and head and (said == head or said.startswith(head + " ")):
            return modes[qualified]
    return None


def _plain(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9']+", text.lower()))


def field_examples(defs: MantleDefinitions, qualified: str) -> dict[str, Any]:
    """Example -> the value of mode field `qualified` it asks for (see `example_modes`)."""
    skill = defs.skills.get(qualified.split(".", 1)[0])
    if skill is None:
        return {}
    found = example_modes(defs, skill).items()
    return {example: modes[qualified] for example, modes in found if qualified in modes}


def every_value_sectioned(defs: MantleDefinitions, qualified: str) -> bool:
    """Whether the prose gives every value of mode field `qualified` its own `if:` section:
    only then does each job's request pair with a job it reads as its own (where two of
    four values have one, a request of a third pairs with the nearest)."""
    skill = defs.skills.get(qualified.split(".", 1)[0])
    field = defs.memory_field(qualified)
    if skill is None or field is None:
        return False
    sections = _mode_sections(skill).get(qualified, {})
    return bool(sections) and all(v in sections for v in field.enum_values or [])


def _example_modes(defs: MantleDefinitions, skill: Skill) -> dict[str, dict[str, Any]]:
    examples = tuple(description_phrases(skill))
    out: dict[str, dict[str, Any]] = {}
    for qualified, sections in _mode_sections(skill).items():
        others = _other_choices(skill, qualified)
        for example, value in _paired(examples, sections, others).items():
            out.setdefault(example, {})[qualified] = value
    return out


def _mode_sections(skill: Skill) -> dict[str, dict[Any, str]]:
    """Mode field -> value -> the prose its `if:` paragraphs hold (with the value's own
    words), for each field the prose branches on with at least two of its values."""
    out: dict[str, dict[Any, str]] = {}
    found = paragraphs(skill.body or "")
    for field in skill.memory.values():
        values = list(field.enum_values or [])
        if field.type != "categorical" or not field.llm_settable or len(values) < 2:
            continue
        sections: dict[Any, str] = {}
        for value in values:
            tested = re.compile(
                rf"\b{re.escape(field.qualified)}\s*==\s*[\"']{re.escape(str(value))}[\"']"
            )
            texts = [p.text for p in found if p.condition and tested.search(p.condition)]
            if texts:
                sections[value] = " ".join(texts)
        if len(sections) >= 2:
            out[field.qualified] = sections
    return out


def _other_choices(skill: Skill, qualified: str) -> dict[str, list[str]]:
    """The skill's other choice fields (name -> their values as words): an example that
    names one of their values ("the handle on my bag is broken": `damage_type` handle)
    asks for the job whose section sets that field."""
    return {
        f.name: [spoken(v) for v in f.enum_values or []]
        for f in skill.memory.values()
        if f.qualified != qualified and f.type == "categorical" and f.enum_values
    }


def _paired(
    examples: tuple[str, ...], sections: dict[Any, str], others: dict[str, list[str]] | None = None
) -> dict[str, Any]:
    """Example -> the value it asks for (see the module)."""
    # a tool or field the prose names is words of its section too ("call move_event" moves)
    stems = {v: set(_stems(f"{spoken(v)} {_worded(text)}")) for v, text in sections.items()}
    shared: dict[str, int] = {}
    for found in stems.values():
        for item in found:
            shared[item] = shared.get(item, 0) + 1
    weights: dict[str, dict[Any, float]] = {}
    for example in examples:
        said = _stems(example)
        setting = [_setting(sections, name) for name in _named_fields(example, others or {})]
        row: dict[Any, float] = {}
        for value, found in stems.items():
            weight = sum(1 / shared[s] for s in said if s in found)
            if re.search(rf"(?<![\w-]){re.escape(spoken(value))}(?![\w-])", example.lower()):
                weight += 1.0  # the value's own words ("Promote staging to prod.")
            elif _verb_of(spoken(value), example):
                weight += 1.0  # its verb ("deliver my bag" for `change_delivery`)
            weight += sum(w.get(value, 0.0) for w in setting)
            row[value] = weight
        top = max(row.values(), default=0.0)
        # only the values it weighs most towards, and clearly: one shared word is no request
        weights[example] = {v: w for v, w in row.items() if w == top and w >= _CLEAR}
    return _last_left(_best_pairing(weights, list(sections)), weights, list(sections))


def _named_fields(example: str, others: dict[str, list[str]]) -> list[str]:
    """The other choice fields a value of which `example` names by its own words."""
    lowered = example.lower()
    return [
        name
        for name, values in others.items()
        if any(re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", lowered) for v in values)
    ]


def _setting(sections: dict[Any, str], name: str) -> dict[Any, float]:
    """Value -> weight of the sections that name field `name` ("set damage_type"), shared
    among them."""
    naming = [v for v, text in sections.items() if re.search(rf"\b{re.escape(name)}\b", text)]
    return {v: 1 / len(naming) for v in naming}


def _verb_of(value: str, example: str) -> bool:
    """Whether a word of `example` is a word of `value` short of its noun ending ("deliver"
    of "delivery", "cancel" of "cancellation"): six letters at least, so no short word."""
    said = re.findall(r"[a-z]{6,}", example.lower())
    return any(
        len(word) > len(verb) and word.startswith(verb)
        for word in re.findall(r"[a-z]+", value)
        for verb in said
    )


def _last_left(
    paired: dict[str, Any], weights: dict[str, dict[Any, float]], values: list[Any]
) -> dict[str, Any]:
    """`paired` with the one example left over given the one value left over, where the
    description gives as many examples as the field has values (one request per job:
    "find 30 minutes with Raj" is the schedule job's once every other job has its own) and
    that example weighs towards no value clearly (it is no second request of a job)."""
    left = [e for e in weights if e not in paired]
    free = [v for v in values if v not in paired.values()]
    if len(weights) != len(values) or len(left) != 1 or len(free) != 1 or weights[left[0]]:
        return paired
    return {**paired, left[0]: free[0]}


def _worded(text: str) -> str:
    """Identifiers in prose as the words they join (`move_event` -> "move event")."""
    return re.sub(r"(?<=[a-z])_(?=[a-z])", " ", text)


def _stems(text: str) -> list[str]:
    """Content stems, a doubled last consonant made single ("running" stems to `runn`,
    "runs" to `run`)."""
    out = []
    for item in stems(text):
        doubled = len(item) >= 4 and item[-1] == item[-2] and item[-1] not in "aeiousl"
        out.append(item[:-1] if doubled else item)
    return out


def _best_pairing(weights: dict[str, dict[Any, float]], values: list[Any]) -> dict[str, Any]:
    """The one-to-one pairing of examples and values with the largest total weight (only
    pairs of some weight), by a search over the values still free; where a skill has too
    many values for that, each value in turn takes its heaviest example still free."""
    examples = [e for e, row in weights.items() if row]
    if len(values) > _PAIRED:
        out: dict[str, Any] = {}
        for value in values:
            free = [e for e in examples if e not in out and value in weights[e]]
            if free:
                out[max(free, key=lambda e: weights[e][value])] = value
        return out

    @cache
    def best(at: int, used: frozenset[int]) -> tuple[float, tuple[tuple[int, int], ...]]:
        if at == len(examples):
            return 0.0, ()
        row = weights[examples[at]]
        found = best(at + 1, used)  # this example pairs with no value
        for index, value in enumerate(values):
            if index in used or value not in row:
                continue
            total, pairs = best(at + 1, used | {index})
            if total + row[value] > found[0]:
                found = (total + row[value], ((at, index), *pairs))
        return found

    return {examples[at]: values[index] for at, index in best(0, frozenset())[1]}


__all__ = [
    "QUOTED",
    "description_phrases",
    "every_value_sectioned",
    "example_mode",
    "example_modes",
    "field_examples",
    "mode_named",
]
