"""The fields a skill asks for: collect steps, instructions that complete on a field, prose asks.

Each field gets the question the agent asks (the collect `utterance`'s response text, else the
instruction or prose sentence that asks), its type and enum values, the explanation of each
value found in the description, step or prose (`damaged (also a cracked chip)`, `car: ...`),
a format the description states (`MM/DD/YYYY`) and quoted example values.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

from .._memo import memoized
from .._model import MantleDefinitions, MemoryField, Response, Skill, Step
from ..conditions import condition_keys
from ._branches import branched_keys
from ._text import paragraphs, sentences
from ._types import FieldSpec, Where

_FORMAT = re.compile(
    r"\b(?:MM|DD|YYYY|YY|HH)(?:[/.\-: ](?:MM|DD|YYYY|YY|HH|mm|ss)){1,4}\b"
    r"|\bE\.164\b|\bISO[ -]?8601\b"
)
_FORMAT_WORDS = re.compile(
    r"\bformat(?:ted)?\s+(?:as|like|is)?\s*[\"“`']([^\"”`']{2,30})[\"”`']", re.I
)
_EXAMPLE = re.compile(
    r"(?:for\s+example|e\.g\.|such\s+as|like)\s*,?\s*[\"“`']([^\"”`']{1,60})[\"”`']", re.I
)
_ASK = re.compile(r"\b(ask|asks|request|collect|confirm|find out|get)\b", re.I)


def response_text(defs: MantleDefinitions, name: str | None) -> str | None:
    """The default (or first) variant's text of a response."""
    response: Response | None = defs.response(name or "")
    if response is None or not response.variants:
        return None
    default = next((v for v in response.variants if v.condition is None), response.variants[0])
    return default.text


def field_format(*texts: str | None) -> str | None:
    for text in texts:
        if not text:
            continue
        match = _FORMAT.search(text) or _FORMAT_WORDS.search(text)
        if match:
            return match.group(1) if match.groups() else match.group(0)
    return None


def examples(*texts: str | None) -> list[str]:
    out: list[str] = []
    for text in texts:
        out += [m.group(1).strip() for m in _EXAMPLE.finditer(text or "")]
    return list(dict.fromkeys(out))


def explained_values(values: list[Any], *texts: str | None) -> dict[str, str]:
    """Value -> explanation: `value (why)`, `value: why`, `value - why`, `value means why`."""
    out: dict[str, str] = {}
    for value in values:
        word = re.escape(str(value))
        spaced = re.escape(str(value).replace("_", " "))
        pattern = re.compile(
            rf"[`\"'“]?\b(?:{word}|{spaced})\b[`\"'”]?\s*"
            rf"(?:\((?P<paren>[^)]+)\)|(?::|—|–| - |\bmeans\b|=)\s*(?P<tail>[^;.\n]+))",
            re.I,
        )
        for text in texts:
            match = pattern.search(text or "")
            if match:
                explanation = " ".join((match["paren"] or match["tail"] or "").split())
                explanation = explanation.rstrip(",")
                if explanation:
                    out[str(value)] = explanation
                    break
    return out


def _name_pattern(field: MemoryField) -> _NamePattern:
    return _kept_name_pattern(field.name, field.qualified)


class _NamePattern:
    """Where a text names a field (`@memory.<qualified>`, the name, the spaced name), with
    the regular expression compiled only once a text may hold the name: a project has a
    pattern per field, most fields are looked for only in texts that never name them, and
    compiling is most of what a search would cost. An ASCII text without the name (in any
    case) cannot match; any other text goes to the regular expression."""

    __slots__ = ("_compiled", "_needles", "_qualified", "name")

    def __init__(self, name: str, qualified: str) -> None:
        self.name = name
        self._qualified = qualified
        self._needles = (
            (name.lower(), name.replace("_", " ").lower()) if name.isascii() and name else None
        )
        self._compiled: re.Pattern[str] | None = None

    def _may_match(self, text: str) -> bool:
        if self._needles is None or not text.isascii():
            return True
        low = text.lower()
        return any(needle in low for needle in self._needles)

    def _pattern(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = _compiled_name_pattern(self.name, self._qualified)
        return self._compiled

    def search(self, text: str) -> re.Match[str] | None:
        return self._pattern().search(text) if self._may_match(text) else None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self._pattern().finditer(text) if self._may_match(text) else iter(())


@lru_cache(maxsize=4096)
def _kept_name_pattern(name: str, qualified: str) -> _NamePattern:
    return _NamePattern(name, qualified)


@lru_cache(maxsize=4096)
def _compiled_name_pattern(name: str, qualified: str) -> re.Pattern[str]:
    """Compiled once per field: a many-skill project has more of these than `re` caches."""
    spaced = re.escape(name.replace("_", " "))
    return re.compile(
        rf"@memory\.{re.escape(qualified)}\b|(?<![\w.])`?{re.escape(name)}`?\b"
        rf"|\b{spaced}\b",
        re.I,
    )


def _spec(
    defs: MantleDefinitions,
    field: MemoryField,
    *,
    asked_by: str,
    question: str | None,
    source: str | None,
    where: Where,
    extra_texts: list[str],
    utterance: str | None = None,
    block: str | None = None,
    step: str | None = None,
    condition: str | None = None,
    step_description: str | None = None,
) -> FieldSpec:
    texts = [field.description, step_description, *extra_texts]
    values = list(field.enum_values or [])
    return FieldSpec(
        qualified=field.qualified,
        name=field.name,
        namespace=field.namespace,
        type=field.type,
        question=question,
        question_source=source,  # type: ignore[arg-type]
        utterance=utterance,
        asked_by=asked_by,  # type: ignore[arg-type]
        block=block,
        step=step,
        condition=condition,
        enum_values=values,
        explained=explained_values(values, *texts),
        format=field_format(field.description, step_description, *extra_texts),
        description=field.description or step_description,
        examples=examples(field.description, step_description),
        where=where,
    )


_SET = re.compile(r"\b(set|sets|record|records|store|stores|save|saves|note|capture|fill)\b", re.I)
_FROM_REQUEST = re.compile(
    r"\bfrom\s+(?:the|their|the\s+customer's|the\s+user's)\s+(?:first\s+)?"
    r"(?:request|message|question|words)\b|\bfrom\s+what\s+(?:they|the\s+\w+)\s+(?:say|said|ask)",
    re.I,
)


_FROM_RESULT = re.compile(
    r"`?\s+(?:from|with|using|to)\s+(?:its|the|that|their|this)\s+(?:\w+\s+)?"
    r"(?:result|response|output|lookup|answer\s+of\s+the\s+tool)\b|`?\s+from\s+@tool\.",
    re.I,
)


def _prose_verb(field: MemoryField, text: str, *, ask_only: bool = False) -> str | None:
    """`prose` when the sentence asks for or sets the field, `request` when it sets it from
    the user's request; None when it only mentions it (a condition, a read). `ask_only`:
    only an ask counts (a project field the prose sets is the agent's write, not a question)."""
    for match in _mentions(field, text):
        before = text[: match.start()]
        clause = re.split(r"[,;:]\s|\bthen\b", before)[-1]
        asks = re.search(r"\b(ask|asks|find\s+out|request|collect)\b", clause, re.I)
        sets = None if ask_only else _SET.search(clause)
        if not (asks or sets):
            continue
        if re.search(r"\b(if|unless|when|whether)\b[^,]*$", clause, re.I) and not asks:
            continue
        sentence = re.split(r"[.!?]\s", before)[-1]
        asked = re.search(r"\b(?:ask|find\s+out|collect)\b", sentence.split(",", 1)[-1], re.I)
        conditional = re.match(r"\s*(?:if|when|whenever|unless|once)\b", sentence, re.I)
        if conditional and not asked:
            continue  # "If someone asks for X, set y": the agent sets it on a condition
        after = text[match.end() : match.end() + 60]
        if not asks and _FROM_RESULT.match(after):
            continue  # the agent sets it from a tool's result: nothing to ask
        if _records_itself(field, text, match.end(), asks=asks is not None):
            return "agent"
        return "request" if _FROM_REQUEST.search(text) else "prose"
    return None


#: "… when they agree", "once the caller has": the value is the user's answer.
_USER_REPLY = re.compile(
    r"\b(?:when|once|after|if|as\s+soon\s+as)\s+(?:they|he|she|you|the\s+(?:user|caller|"
    r"customer|member|client|patient|rider|driver|owner|person)s?)\b"
    r"|\b(?:they|the\s+(?:user|caller|customer))\s+(?:agree|confirm|say|accept|answer)",
    re.I,
)


def _records_itself(field: MemoryField, text: str, end: int, *, asks: bool) -> bool:
    """A flag the sentence has the agent set on its own doing ("Tell them …; set
    balance_told.", "Set paged once the page goes out."): a bool, set, in a sentence that
    asks nothing and waits for no answer of the user's."""
    if field.type != "bool" or asks or _ASK.search(text):
        return False
    return _USER_REPLY.search(text[end:]) is None


def _mentions(field: MemoryField, text: str) -> Iterator[re.Match[str]]:
    """Where `text` names the field: by its name, else by what its description calls it
    ("Five-digit ZIP code of ..." names `service_zip` "ZIP code")."""
    found = False
    for match in _name_pattern(field).finditer(text):
        found = True
        yield match
    alias = _description_name(field.description or "", field.name)
    if not found and alias is not None:
        yield from alias.finditer(text)


_HEAD_END = re.compile(
    r"[,.;:(]|\s(?:of|for|on|in|at|from|that|which|who|when|where|to|the)\s", re.I
)
_MEASURE = re.compile(r"\d|^(?:one|two|three|four|five|six|seven|eight|nine|ten)-", re.I)


@lru_cache(maxsize=4096)
def _description_name(description: str, name: str) -> re.Pattern[str] | None:
    """What a field's description calls it, as a pattern: its leading noun phrase of two or
    three words, measures dropped ("Five-digit ZIP code of the address" -> "ZIP code", or
    one of the name's own words: "postcode"); None when the description does not open with
    a short noun phrase or the name says it."""
    cut = _HEAD_END.search(description)
    head = description[: cut.start()] if cut else description
    words = [w for w in head.split() if not _MEASURE.search(w)]
    if words and words[0].lower() in {"a", "an", "the"}:
        words = words[1:]
    # one word only when the name has it ("postcode" for `home_postcode`): a lone common
    # word ("Date", "Amount") would name too much
    short = len(words) == 1 and words[0].lower() in name.lower().split("_")
    if not (short or 2 <= len(words) <= 3):
        return None
    if " ".join(words).lower() == name.replace("_", " ").lower():
        return None
    return re.compile(r"\b" + r"\s+".join(re.escape(w) for w in words) + r"\b", re.I)


def _ask_sentence(
    text: str, field: MemoryField | None = None, condition: str | None = None
) -> str | None:
    """The sentence of `text` that asks (for `field`, when it names it), from a paragraph of
    the field's own `if:` scope (an `if:` scopes only the paragraph after it)."""
    found = [
        s.text for s in sentences(text) if _ASK.search(s.text) and s.condition in (None, condition)
    ]
    if field is not None:
        pattern = _name_pattern(field)
        named = [s for s in found if pattern.search(s)]
        if named:
            return named[0]
    return found[0] if found else None


def instruction_prompt(text: str, field: MemoryField | None, holds: Callable[[str], bool]) -> str:
    """What an instructions step says when it asks for `field`: the paragraph in scope that
    names it, else every paragraph in scope (unconditional, or its `if:` holds). A paragraph
    of another mode never words the question (an `if:` scopes only the next paragraph)."""
    scoped = [p.text for p in paragraphs(text) if p.condition is None or holds(p.condition)]
    if field is not None:
        pattern = _name_pattern(field)
        named = [p for p in scoped if pattern.search(p)]
        if named:
            return named[0]
    return "\n\n".join(scoped) if scoped else text


def instruction_fields(
    skill: Skill, step: Step, memory: dict[str, MemoryField]
) -> list[tuple[MemoryField, str | None]]:
    """Fields an instructions step waits for (`complete_when`) or names, with their `if:`."""
    text = str(step.target or "")
    out: dict[str, tuple[MemoryField, str | None]] = {}
    for key in condition_keys(str(step.fields.get("complete_when") or "")):
        if key in memory:
            out[key] = (memory[key], None)
    own = [f for f in skill.memory.values()]
    for para in paragraphs(text):
        if not _ASK.search(para.text) and para.condition is None:
            continue
        for field in own:
            if field.qualified in out and para.condition is None:
                continue
            if _name_pattern(field).search(para.text):
                current = out.get(field.qualified)
                if current is None or (current[1] is not None and para.condition is None):
                    out[field.qualified] = (field, para.condition)
    return list(out.values())


def skill_fields(
    defs: MantleDefinitions, skill: Skill, file: str, prose_first_line: int
) -> list[FieldSpec]:
    """Every field the skill asks for, in definition order (blocks first, then prose).

    Read once per (definitions, skill), placed once per file and first line: planning asks
    for every skill's fields again for each behaviour it weighs, and the model and the
    planner's question fields read the skill at two places (only `where` differs)."""
    key = ("skill_fields", skill.id, id(skill), file, prose_first_line)
    return list(memoized(defs, key, lambda: _placed(defs, skill, file, prose_first_line)))


def _placed(defs: MantleDefinitions, skill: Skill, file: str, first: int) -> list[FieldSpec]:
    read = ("skill_fields_read", skill.id, id(skill))
    specs = memoized(defs, read, lambda: _skill_fields(defs, skill, "", 1))
    out = []
    for spec in specs:
        where = spec.where
        assert where is not None  # every spec is read at a step or a prose sentence
        line = where.line  # a step's line is the file's; a sentence's counts from the body
        if where.part == "prose" and line is not None:
            line += first - 1
        out.append(spec.model_copy(update={"where": Where(file=file, line=line, part=where.part)}))
    return out


def _skill_fields(
    defs: MantleDefinitions, skill: Skill, file: str, prose_first_line: int
) -> list[FieldSpec]:
    memory = defs.memory_names()
    out: dict[str, FieldSpec] = {}
    prose_texts = [p.text for p in paragraphs(skill.body)]
    for block in skill.blocks.values():
        for step in block.steps:
            where = Where(file=file, line=step.line, part=f"block {block.id} step {step.id}")
            if step.kind == "collect":
                key = str(step.target)
                qualified = key if key.startswith("project.") else f"{skill.id}.{key}"
                field = memory.get(qualified) or MemoryField(name=key, namespace=skill.id)
                utterance = step.fields.get("utterance")
                text = response_text(defs, str(utterance) if utterance else None)
                description = step.fields.get("description")
                out.setdefault(
                    qualified,
                    _spec(
                        defs,
                        field,
                        asked_by="collect",
                        question=text or (str(description) if description else None),
                        source="utterance" if text else ("description" if description else None),
                        where=where,
                        extra_texts=prose_texts,
                        utterance=str(utterance) if utterance else None,
                        block=block.id,
                        step=step.id,
                        step_description=str(description) if description else None,
                    ),
                )
            elif step.kind == "instructions":
                text = str(step.target or "")
                for field, condition in instruction_fields(skill, step, memory):
                    out.setdefault(
                        field.qualified,
                        _spec(
                            defs,
                            field,
                            asked_by="instructions",
                            question=_ask_sentence(text, field, condition),
                            source="instruction",
                            where=where,
                            extra_texts=[text, *prose_texts],
                            block=block.id,
                            step=step.id,
                            condition=condition,
                        ),
                    )
    shared = [f for f in memory.values() if f.namespace == "project" and not f.seed]
    forks = branched_keys(skill)
    for sentence in sentences(skill.body, prose_first_line):
        for field in [*skill.memory.values(), *shared]:
            how = _prose_verb(field, sentence.text, ask_only=field.namespace == "project")
            if how == "agent" and field.qualified not in forks:
                continue  # the agent's own record (`_records.py`), not a question
            if how is None:
                continue
            how = "prose" if how == "agent" else how  # a path forks on it: a walk needs both
            current = out.get(field.qualified)
            if current is not None:
                if current.asked_by in ("prose", "request"):
                    out[field.qualified] = current.model_copy(
                        update={"sentences": [*current.sentences, sentence.text]}
                    )
                continue
            out[field.qualified] = _spec(
                defs,
                field,
                asked_by=how,
                question=sentence.text,
                source="prose",
                where=Where(file=file, line=sentence.line, part="prose"),
                extra_texts=prose_texts,
                condition=sentence.condition,
            ).model_copy(update={"sentences": [sentence.text]})
    return list(out.values())


__all__ = [
    "examples",
    "explained_values",
    "field_format",
    "instruction_fields",
    "instruction_prompt",
    "response_text",
    "skill_fields",
]
