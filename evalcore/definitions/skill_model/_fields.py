"""The fields a skill asks for: collect steps, instructions that complete on a field, prose asks.

Each field gets the question the agent asks (the collect `utterance`'s response text, else the
instruction or prose sentence that asks), its type and enum values, the explanation of each
value found in the description, step or prose (`damaged (also a cracked chip)`, `car: ...`),
a format the description states (`MM/DD/YYYY`) and quoted example values.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ...lexicon.en.field_mentions import EXAMPLE as _EXAMPLE
from ...lexicon.en.field_mentions import FORMAT_WORDS as _FORMAT_WORDS
from ...lexicon.en.field_mentions import VALUE_GLOSS as _VALUE_GLOSS
from ...lexicon.en.prose_values import SET_LITERAL
from ...lexicon.notation.date_masks import FORMAT_MASK as _FORMAT
from .._memo import memoized
from .._model import MantleDefinitions, MemoryField, Response, Skill, Step
from ..conditions import condition_keys
from ._branches import branched_keys
from ._mentions import ASK, asked_to, name_pattern, prose_verb, set_from_answer
from ._text import Sentence, paragraphs, sentences
from ._types import FieldSpec, Where


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
            rf"[`\"'“]?\b(?:{word}|{spaced})\b[`\"'”]?\s*" + _VALUE_GLOSS.pattern,
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


def _ask_sentence(
    text: str, field: MemoryField | None = None, condition: str | None = None
) -> str | None:
    """The sentence of `text` that asks (for `field`, when it names it), from a paragraph of
    the field's own `if:` scope (an `if:` scopes only the paragraph after it)."""
    found = [
        s.text for s in sentences(text) if ASK.search(s.text) and s.condition in (None, condition)
    ]
    if field is not None:
        pattern = name_pattern(field)
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
        pattern = name_pattern(field)
        named = [p for p in scoped if pattern.search(p)]
        if named:
            return named[0]
    return "\n\n".join(scoped) if scoped else text


def asking_sentence(
    text: str, field: MemoryField | None, holds: Callable[[str], bool]
) -> str | None:
    """The sentence in scope of an instructions step that asks the user for `field` by name
    ("Ask where it happened and set incident_location"), None where the agent sets it."""
    if field is None:
        return None
    pattern = name_pattern(field)
    for para in paragraphs(text):
        if para.condition is not None and not holds(para.condition):
            continue
        for sentence in sentences(para.text):
            if ASK.search(sentence.text) and pattern.search(sentence.text):
                return sentence.text
    return None


def asked_in_paragraph(text: str, field: MemoryField | None) -> bool:
    """Whether a prose paragraph that names the field asks the user something ("Ask for a
    quick rating. Set `rating` to up or down."): a field only set from what the user
    describes ("Set the type from what they describe") may be settled by their opening and
    never asked."""
    if field is None:
        return False
    pattern = name_pattern(field)
    return any(ASK.search(p.text) and pattern.search(p.text) for p in paragraphs(text))


def asks_for(text: str, field: MemoryField | None, holds: Callable[[str], bool]) -> bool:
    """Whether a sentence in scope asks the user for `field` by name (`asking_sentence`)."""
    return asking_sentence(text, field, holds) is not None


def instruction_fields(
    skill: Skill, step: Step, memory: dict[str, MemoryField]
) -> list[tuple[MemoryField, str | None]]:
    """Fields an instructions step waits for (`complete_when`) or names, with their `if:`;
    never one a paragraph only sets from a tool's answer ("Set fare_difference_usd from
    search_alternatives for the flight they pick"): nobody asks the user for it."""
    text = str(step.target or "")
    out: dict[str, tuple[MemoryField, str | None]] = {}
    for key in condition_keys(str(step.fields.get("complete_when") or "")):
        if key in memory:
            out[key] = (memory[key], None)
    own = [f for f in skill.memory.values()]
    for para in paragraphs(text):
        if not ASK.search(para.text) and para.condition is None:
            continue
        for field in own:
            if field.qualified in out and para.condition is None:
                continue
            if name_pattern(field).search(para.text) and not set_from_answer(field, para.text):
                current = out.get(field.qualified)
                if current is None or (current[1] is not None and para.condition is None):
                    out[field.qualified] = (field, para.condition)
    return list(out.values())


def literal_sets(text: str) -> list[tuple[str, str, str | None]]:
    """(field name, value, `if:` condition) for each paragraph of an instructions step that
    sets a field to a quoted value ("if: severity == sev3 … Do not ask about impact. Set
    customer_impact to "none reported""): on that branch the model writes the value itself
    and asks nobody for it."""
    return [
        (match["name"], match["value"], para.condition)
        for para in paragraphs(text)
        for match in SET_LITERAL.finditer(para.text)
    ]


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
    shared = [f for f in defs.memory_in("project") if not f.seed]
    forks = branched_keys(skill)
    said = sentences(skill.body, prose_first_line)
    for index, sentence in enumerate(said):
        for field in [*skill.memory.values(), *shared]:
            how = prose_verb(field, sentence.text, ask_only=field.namespace == "project")
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
                question=_with_request(said, index),
                source="prose",
                where=Where(file=file, line=sentence.line, part="prose"),
                extra_texts=prose_texts,
                condition=sentence.condition,
            ).model_copy(update={"sentences": [sentence.text]})
    return list(out.values())


def _with_request(said: list[Sentence], index: int) -> str:
    """The sentence at `index`, after the request the sentence before it in its paragraph
    makes of the user ("Ask them to say when they are done. Set `reboot_done` to true when
    they confirm success"): that request is what the agent asks the value with."""
    sentence = said[index]
    before = said[index - 1] if index else None
    if before is None or before.paragraph != sentence.paragraph or asked_to(sentence.text):
        return sentence.text
    if asked_to(before.text) is None:
        return sentence.text
    return f"{before.text} {sentence.text}"


__all__ = [
    "asking_sentence",
    "asks_for",
    "examples",
    "explained_values",
    "field_format",
    "instruction_fields",
    "instruction_prompt",
    "literal_sets",
    "response_text",
    "skill_fields",
]
