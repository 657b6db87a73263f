"""The circumstances the prose branches on, in the persona's facts, fitting the case's path.

"If it is below freezing or they are not safe, go to @skill.emergency_line." A lockout
case that stays with the office-hours answer needs a user who is safe and not freezing;
without it the simulator invents either, and a correct agent may leave the path the case
asserts. "Do not ask any other questions until they say they are out." A fire case needs a
user who is out once told to leave, or the conversation stalls before the page. So, for
the sentences the path reads (unconditional, or under an `if:` its memory meets), in the
body and in the blocks' instruction steps (a plumbing step's "if it is spreading, go to
@skill.emergency_line"), each `if` clause of a sentence on its own:

- "If <circumstance>[ or <circumstance>], go to @skill.x" with `x` not taken: each
  circumstance does not hold ("whether it is below freezing: no"; a "not" in it turned
  round: "whether you are safe: yes");
- "until they say <something>": it holds ("whether you are out: yes").

A clause about what the user says or wants ("if they need a person") is their request,
not a circumstance (`cues.user_cue`), and is left to the case's own kind; one about a
record or a tool's answer ("if no alternative reaches the destination") is the service's
to know, and left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from evalcore.definitions import Skill
from evalcore.definitions.conditions import evaluate
from evalcore.definitions.skill_model import Sentence, sentences
from evalcore.definitions.skill_model.cues import user_cue
from evalcore.lexicon.en.instruction_words import BE_FORMS as _BE
from evalcore.lexicon.en.instruction_words import CUE_SAYING as _SAYING
from evalcore.lexicon.en.instruction_words import DO_FORMS as _DO
from evalcore.lexicon.en.word_classes import THIRD_PERSON_SUBJECTS

_JOINS = frozenset({"and", "but"})
#: What a user perceives: themselves and the weather or time ("it is below freezing");
#: a clause about a record or a tool's answer ("no alternative reaches the destination")
#: is the service's to know, not the user's.
_PERCEIVED = THIRD_PERSON_SUBJECTS | {"it", "you"}


def _turned(clause: str, holds: bool) -> tuple[str, bool]:
    """(`they are safe`, True) for `they are not safe` that does not hold; `they do not know
    …` turns to `they know …`."""
    words = clause.split()
    lowered = [w.lower() for w in words]
    if "not" not in lowered:
        return clause, holds
    at = lowered.index("not")
    drop = {at, at - 1} if at and lowered[at - 1] in _DO else {at}
    return " ".join(w for k, w in enumerate(words) if k not in drop), not holds


def _until_said(text: str) -> list[str]:
    """`they are out` from "… until they say they are out."."""
    words = text.rstrip(".!").split()
    out: list[str] = []
    for at, word in enumerate(words[:-3]):
        if (
            word.lower() == "until"
            and words[at + 1].lower() in THIRD_PERSON_SUBJECTS
            and words[at + 2].lower() in _SAYING
        ):
            said = words[at + 3 :]
            if said and said[0].lower() == "that":
                said = said[1:]
            if said:
                out.append(" ".join(said))
    return out


def _unmet(text: str, taken: set[str]) -> list[str]:
    """The circumstances of "If <a> or <b>, go to @skill.x." where `x` is not taken, for
    each `if` clause of the sentence."""
    return [c for clause in _if_clauses(text) for c in _unmet_clause(clause, taken)]


def _if_clauses(text: str) -> list[str]:
    """The sentence cut before each `if` that follows a comma or a semicolon ("…, and if it
    is spreading, go to …"): "If it is, ask them to close the valve, and if it is spreading,
    go to @skill.x." reads as two clauses, each with its own consequence."""
    words = text.split()
    cuts, ends = [0], []
    for at, word in enumerate(words[1:], 1):
        before = words[at - 1]
        joined = before.lower() in _JOINS and at > 1 and words[at - 2][-1:] in ",;"
        if word.lower() == "if" and (before[-1:] in ",;" or joined):
            ends.append(at - 1 if joined else at)  # "…the valve," without its "and"
            cuts.append(at)
    ends.append(len(words))
    return [" ".join(words[a:b]).rstrip(",;") for a, b in zip(cuts, ends, strict=True)]


def _unmet_clause(text: str, taken: set[str]) -> list[str]:
    if not text.lower().startswith("if ") or "," not in text:
        return []
    head, rest = text[3:].split(",", 1)
    targets = [
        w.split(".", 1)[1].strip(".,;:()`'\"") for w in rest.split() if w.startswith("@skill.")
    ]
    if not targets or any(t in taken for t in targets) or "@" in head:
        return []
    parts = [p.strip() for p in head.replace(" or ", "|").split("|") if p.strip()]
    # a subject, a verb and what about them ("they are safe"); "If they have, offer …"
    # answers the question before it and names nothing
    return [
        p
        for p in parts
        if len(p.split()) >= 3 and p.split()[0].lower() in _PERCEIVED and user_cue(p) is None
    ]


def _asked_about(sentence: Sentence) -> str | None:
    """`water` of "Ask whether water is actively leaking right now.": what the `it` of the
    next sentence ("if it is spreading") stands for."""
    words = sentence.text.split()
    if [w.lower() for w in words[:2]] != ["ask", "whether"]:
        return None
    verb = next((k for k, w in enumerate(words) if k > 2 and w.lower() in _BE), None)
    return " ".join(words[2:verb]) if verb is not None else None


def _named(clause: str, asked: str | None) -> str:
    """ "water is spreading" for "it is spreading" after a question about water: the fact
    says what is spreading, not a bare `it`."""
    words = clause.split()
    if asked is None or not words or words[0].lower() != "it":
        return clause
    return " ".join([asked, *words[1:]])


def _prose_texts(skill: Skill) -> list[str]:
    """The body, then the blocks' instruction steps ("if: @memory.x.category == "plumbing"
    … if it is spreading, go to @skill.emergency_line"): a step's prose branches the same."""
    return [
        skill.body,
        *(
            step.target
            for block in skill.blocks.values()
            for step in block.steps
            if step.kind == "instructions" and isinstance(step.target, str)
        ),
    ]


def circumstance_facts(
    skill: Skill, memory: Mapping[str, Any], taken: Iterable[str]
) -> list[tuple[str, bool]]:
    """(circumstance as the prose words it, whether it holds) for each the path's sentences
    branch on: `("it is below freezing", False)`, `("they are safe", True)`."""
    taken = set(taken)
    out: list[tuple[str, bool]] = []
    for text in _prose_texts(skill):
        before: Sentence | None = None
        for sentence in sentences(text):
            same = before is not None and before.paragraph == sentence.paragraph
            asked = _asked_about(before) if before is not None and same else None
            before = sentence
            if sentence.condition is not None and not evaluate(sentence.condition, memory):
                continue
            unmet = [_named(c, asked) for c in _unmet(sentence.text, taken)]
            out += [_turned(c, holds=False) for c in unmet]
            out += [_turned(c, holds=True) for c in _until_said(sentence.text)]
    return list(dict.fromkeys(out))


def said_unasked(skill: Skill, memory: Mapping[str, Any]) -> list[str]:
    """What the prose has the agent wait for the user to say on the path ("Do not ask any
    other questions until they say they are out": `they are out`): no question asks it, so
    a user who is told what to do says it themselves."""
    out: list[str] = []
    for text in _prose_texts(skill):
        for sentence in sentences(text):
            if sentence.condition is None or evaluate(sentence.condition, memory):
                out += _until_said(sentence.text)
    return list(dict.fromkeys(out))


__all__ = ["circumstance_facts", "said_unasked"]
