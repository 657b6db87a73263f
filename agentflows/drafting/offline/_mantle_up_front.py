"""The details a user gives up front: one request, said in the first message of the task.

A details-up-front case opens with the values it gives ("Book the flow cytometer. Thursday,
please."). Each phrase of that message must ask for the case's own request: a description
example picked for one value may state another value of a field the case gives ("book the
confocal for Thursday" for a flow-cytometer booking, "I have 24 DNA samples" where the case
has 83), be the example of another job (a cancellation's "cancel my mass spec slot" in a
booking case) or name only a detail of some job's request ("can I have two more hours on
the flow cytometer", an extension, for the instrument of a booking), and the message then
asks for two things or says what the facts deny. Such a
phrase gives way to the value in plain words ("Book, please."). Behind a sign-in, the
request is the first thing said once the sign-in is done, not a closing line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from evalcore.agents.reference import description_phrases, example_mode
from evalcore.definitions import MantleDefinitions, Skill
from evalcore.lexicon.en.simulation_context import GREETING_WORD
from evalcore.lexicon.en.user_line_words import NO_DETAIL_NAME as _NO_NAME

from ._mantle_intent import contradicts, says_value, states_value

_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def case_values(skill: Skill, *sources: dict[str, Any]) -> dict[str, Any]:
    """The skill's own values the case fixes (later sources win), without the walk's
    placeholders for values nobody states (anything but text, a number or a yes/no)."""
    out: dict[str, Any] = {}
    for source in sources:
        for key, value in source.items():
            if key.startswith(skill.id + ".") and isinstance(value, str | int | float | bool):
                out[key] = value
    return out


def asks_one_request(
    defs: MantleDefinitions, skill: Skill, values: dict[str, Any], phrase: str
) -> bool:
    """Whether `phrase` asks for the case's request only: it states no other value (or
    count) of a field the case fixes, and it is no description example of another value
    of a mode field the case fixes (an example of another job)."""
    if contradicts(defs, skill, values, phrase) or _other_count(values, phrase):
        return False
    for qualified, value in values.items():
        mode = example_mode(defs, qualified, phrase)
        if mode is not None and mode != value:
            return False
    return True


def leaves_for_later(defs: MantleDefinitions, later: set[str], phrase: str) -> bool:
    """Whether a happy path's first message (`phrase`) states no value of a field the path
    asks for in a later turn (`later`): an example that says one ("deploy v2.41.0 to
    staging" says the environment) skips that question, and the happy path then plays the
    details-up-front case's story, so the two cases check the same thing."""
    return not any(states_value(defs, q, phrase) for q in later)


def names_the_job(
    defs: MantleDefinitions, skill: Skill, given: dict[str, Any], named: dict[str, Any]
) -> bool:
    """Whether a phrase chosen for the values it names (`named`) names the value of every
    mode field the case gives: the job is the request, and a phrase naming only a detail
    ("can I have two more hours on the flow cytometer" for the instrument) is the request
    of whichever job it was written for."""
    return all(k in named for k in given if _is_mode(defs, skill, k))


def plain_value(words: str) -> str:
    """A value in plain words ("Flow cytometer, please."), naming nothing else."""
    return f"{words[:1].upper()}{words[1:]}, please."


def not_a_greeting(answer: str, field: str) -> str:
    """A bare value that is also a greeting ("Morning, please." after "Can I talk to a
    person?"), named by its field ("Morning for the callback window, please."): alone it
    reads as the user saying good morning. Any other answer stays as it is."""
    bare = answer.removesuffix(_PLEASE) if answer.endswith(_PLEASE) else None
    if not bare or not field or GREETING_WORD.match(bare.strip()) is None:
        return answer
    return f"{bare} for the {field}{_PLEASE}"


def _is_mode(defs: MantleDefinitions, skill: Skill, qualified: str) -> bool:
    """Whether some description example asks for a value of `qualified` (a mode field)."""
    return any(example_mode(defs, qualified, e) is not None for e in description_phrases(skill))


def _other_count(values: dict[str, Any], phrase: str) -> bool:
    """Whether `phrase` counts a thing the case gives another number of ("I have 24 DNA
    samples" where the case has 83 samples): a number followed, within three words, by a
    word of the field's name."""
    words = re.findall(r"[\w.]+", phrase.lower())
    for qualified, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        names = {w.rstrip("s") for w in qualified.split(".", 1)[-1].split("_") if len(w) > 2}
        for i, word in enumerate(words):
            if not _NUMBER.fullmatch(word) or float(word) == float(value):
                continue
            if any(w.rstrip("s") in names for w in words[i + 1 : i + 4]):
                return True
    return False


#: A bare value said as its own sentence ("Fire, please.", "USD, please."): a template, not
#: a person's words, in a first message.
_PLEASE = ", please."
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z$0-9\"'])")


def listed_detail(label: str, value: str) -> tuple[str, str] | None:
    """A fact a first message can name among details ("bag tag", "SK480016"); None for a
    question label, a yes/no answer or a sentence of its own."""
    said = " ".join(value.split())
    first = (label.split() or [""])[0].lower()
    if not said or first in _NO_NAME or " or " in label or said.lower() in ("yes", "no"):
        return None
    if re.search(r"[.!?]\s", said + " ") and not re.fullmatch(r"\$?[\d.,]+", said):
        return None  # "The back door sticks." is a story, not a detail
    if len(said.split()) > 5:
        return None
    return label, said


def in_one_sentence(line: str, details: list[tuple[str, str]], words: Callable[[str], str]) -> str:
    """`line` with its bare values ("Fire, please. Lodging, please.") said as values in one
    plain sentence after the request ("Hi, I need help with an expense: lodging and USD.")
    and the held `details` (label, value) said with them ("..., bag tag SK480016"), else
    in a sentence of their own ("The booking reference is ZN2KWD."). Values that follow
    no request sentence (a question, "It never arrived.") are one sentence of their own
    ("Standard, please."). `words` writes a bare value as a list says it ("fire", "USD")."""
    sentences = _SENTENCE.split(" ".join(line.split()))
    values: list[str] = []
    kept: list[str] = []
    at: int | None = None  # where the values are said
    for sentence in sentences:
        bare = sentence.removesuffix(_PLEASE) if sentence.endswith(_PLEASE) else None
        if bare and kept and len(bare.split()) <= 4 and not set(bare) & set(".!?:"):
            at = len(kept) if at is None else at
            values.append(words(bare.strip()))
        else:
            kept.append(sentence)
    if not kept:
        return line
    said = " ".join(kept).lower()
    details = [(label, value) for label, value in details if value.lower() not in said]
    if at == 1 and kept[0].endswith("."):  # right after the request: one sentence
        listed = _listed([*values, *(f"{label} {value}" for label, value in details)])
        kept[0] = f"{kept[0][:-1]}: {listed}."
        return " ".join(kept)
    if at is not None:
        listed = _listed(values)
        kept.insert(at, f"{listed[:1].upper()}{listed[1:]}{_PLEASE}")
    if details:
        told = _listed([f"the {label} is {value}" for label, value in details])
        kept.append(f"{told[:1].upper()}{told[1:]}.")
    return " ".join(kept)


def not_said_twice(defs: MantleDefinitions, line: str, values: dict[str, Any], plain: str) -> str:
    """`line` without a bare value sentence ("Lockout, please.") whose values (of
    `values`, the choices the case gives) the rest of the line already names, as the
    agent reads them ("I'm locked out" says lockout, "Who deployed it last?" is the
    description's request for the history): said twice, the first message reads as a
    form ("I'm locked out: lockout."). The skill's plain request (`plain`: "Hi, I'd like
    help with rent, balance and payments.") names what the skill covers, not which of
    its jobs the user wants, so it names no value here."""
    sentences = _SENTENCE.split(" ".join(line.split()))
    kept = list(range(len(sentences)))
    for index, sentence in enumerate(sentences):
        if not sentence.endswith(_PLEASE) or len(kept) < 2:
            continue
        rest = " ".join(sentences[i] for i in kept if i != index and sentences[i] != plain)
        named = [(q, v) for q, v in values.items() if says_value(defs, sentence, q, v)]
        if named and all(says_value(defs, rest, q, v) for q, v in named):
            kept.remove(index)
    return " ".join(sentences[i] for i in kept)


def _listed(items: list[str]) -> str:
    """ "a, b and c"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


__all__ = [
    "asks_one_request",
    "case_values",
    "in_one_sentence",
    "leaves_for_later",
    "listed_detail",
    "names_the_job",
    "not_a_greeting",
    "not_said_twice",
    "plain_value",
]
