"""Prose that calls a tool by what it does, not by its name: "look the permit up"
(`get_permit`), "then verify them" (`verify_license`), "set slot_id and book it"
(`book_inspection`), "Check zoning for the parcel" (`check_zoning`, its name with spaces).

A sentence calls a tool when a verb of the tool (its name's first word, its description's
first word, or a word of the same small family: find/get/list/look up, create/open/file,
cancel/delete, verify/validate, book/schedule) is followed, before the clause's next
preposition or punctuation, by an object word of the tool (the other words of its name, the
object of its description); or when the verb's object is a pronoun ("book it", "verify
them") and the sentence names an object word or one of the tool's parameters (`slot_id`,
"license number"). Words are compared lightly stemmed (verified/verify, booking/book,
slots/slot). A sentence that names a tool outright is read by its name only; one that
matches two tools equally well calls none (the reader records the doubt); one whose object
names more of one tool's words than of another's calls that one ("find the free plots":
`list_free_plots` over `get_plot`). A described call whose object
takes "a"/"an" ("Open a permit application for the work they describe") says what the skill
is for: it is a call site only when the prose calls the tool nowhere else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..._stem import stem
from ...lexicon.en.skill_tool_calls import INDEFINITE as _INDEFINITE
from ...lexicon.en.skill_tool_calls import WISH as _WISH
from ...lexicon.en.tool_verb_words import CONVERSATION_VERBS as _CONVERSATION
from ...lexicon.en.tool_verb_words import GENERIC_OBJECTS, VERB_FAMILIES
from ...lexicon.en.tool_verb_words import OBJECT_DETERMINERS as _ARTICLES
from ...lexicon.en.tool_verb_words import OBJECT_ENDS as _STOP
from ...lexicon.en.tool_verb_words import OBJECT_PRONOUNS as _PRONOUNS
from .._model import ToolDef

_FAMILIES = tuple(frozenset(stem(w) for w in family.split()) for family in VERB_FAMILIES)
#: Verbs whose tool sense needs a particle ("look the permit up", "look up the permit").
_PARTICLE = {"look": "up"}
#: Object words too general to say which tool is meant.
_GENERIC = frozenset(stem(w) for w in GENERIC_OBJECTS)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*")
_WINDOW = 5


@dataclass(frozen=True)
class ToolWords:
    """What a tool's name, description and parameters say it does."""

    name: str
    verbs: frozenset[str]
    objects: frozenset[str]
    parameters: tuple[tuple[str, ...], ...]

    @classmethod
    def of(cls, name: str, tool: ToolDef | None) -> ToolWords:
        words = [w for w in name.lower().split("_") if w]
        verbs = {stem(words[0])} if words else set()
        objects = {stem(w) for w in words[1:]}
        description = (tool.description if tool else None) or ""
        said = [m.group(0) for m in _WORD.finditer(description)]
        if said:
            verbs.add(stem(said[0].lower()))
            rest = said[1:]
            if said[0].lower() in _PARTICLE and rest and rest[0].lower() == _PARTICLE["look"]:
                rest = rest[1:]
            kept = 0
            for word in rest:
                low = word.lower()
                if low in _STOP or kept == 3:
                    break
                if low not in _ARTICLES and len(low) > 1:
                    objects.add(stem(low))
                    kept += 1
        for family in _FAMILIES:
            if verbs & family:
                verbs |= family
        objects -= _GENERIC | verbs
        parameters = tuple(
            tuple(stem(w) for w in p.name.lower().split("_") if w)
            for p in (tool.parameters if tool else [])
            if "ToolContext" not in (p.type or "")
        )
        return cls(name, frozenset(verbs), frozenset(objects), parameters)


#: `@memory.x`, `@block.x` tokens and snake_case names: words a verb is never read in.
_IDENTIFIER = re.compile(r"@[\w.]+|\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b")


def _tokens(text: str) -> list[tuple[int, str, str, bool]]:
    """(position, word as written, stem, may be a verb), punctuation its own token. A verb
    is a base form ("book", not "booked" / "booking" / "books": prose instructs in the
    imperative), outside an identifier and not after an article ("the booking number")."""
    inside = [m.span() for m in _IDENTIFIER.finditer(text)]
    out: list[tuple[int, str, str, bool]] = []
    for match in re.finditer(r"[A-Za-z][A-Za-z0-9]*|[,;:.!?()]", text.replace("_", " ")):
        word, at = match.group(0), match.start()
        if not word[0].isalpha():
            out.append((at, word, word, False))
            continue
        low = word.lower()
        inflected = low.endswith(("ing", "ed")) or (low.endswith("s") and not low.endswith("ss"))
        after_article = bool(out) and out[-1][1].lower() in _ARTICLES
        verb = not (
            inflected
            or after_article
            or low in _CONVERSATION
            or any(a <= at < b for a, b in inside)
        )
        out.append((at, word, stem(low), verb))
    return out


def _named(stems: list[str], tool: ToolWords) -> bool:
    """The sentence names an object word or a parameter of the tool."""
    if any(s in tool.objects for s in stems):
        return True
    for words in tool.parameters:
        n = len(words)
        if not n or (n == 1 and words[0] in _GENERIC):
            continue
        if any(tuple(stems[i : i + n]) == words for i in range(len(stems) - n + 1)):
            return True
    return False


def described_call(
    text: str,
    tool: ToolWords,
    tokens: list[tuple[int, str, str, bool]] | None = None,
    before: Sequence[str] = (),
) -> tuple[int, int] | None:
    """Where `text` calls `tool` by what it does, with how many of its object words the
    verb's object names (a pronoun object: 1); None if it does not. `tokens`: the text's
    `_tokens`, when the caller weighs it for several tools; `before`: the stems of the
    text before it ("Ask which one to cancel and set booking_id. … Then cancel it.": the
    pronoun's antecedent, read where the sentence names none itself)."""
    if tokens is None:
        tokens = _tokens(text)
    stems = [s for _, _, s, _ in tokens]
    best: tuple[int, int] | None = None
    for index, (position, _word, verb, may_be_verb) in enumerate(tokens):
        if not may_be_verb or verb not in tool.verbs or _WISH.search(text[:position]):
            continue
        after = tokens[index + 1 : index + 1 + _WINDOW]
        particle = _PARTICLE.get(verb)
        if particle and not any(w.lower() == particle for _, w, _, _ in after):
            continue
        if after and after[0][1].lower() in _PRONOUNS:
            if best is None and (_named(stems, tool) or (before and _named(before, tool))):
                best = (position, 1)
            continue
        named: set[str] = set()
        for _, said, object_stem, _ in after:
            if said.lower() in _STOP or not said[0].isalpha():
                break
            if object_stem in tool.objects:
                named.add(object_stem)
        if named and (best is None or len(named) > best[1]):
            best = (position, len(named))
    return best


def described_calls(
    text: str, tools: list[ToolWords], before: Sequence[str] = ()
) -> dict[str, int]:
    """Tool name -> the position where `text` calls it by what it does: the tools whose
    object words the sentence names most (two or more tied: each of them, for the caller
    to call ambiguous). `before`: the stems of the text before it (`described_call`)."""
    tokens = _tokens(text)  # read once, weighed for each tool
    found = {
        t.name: hit for t in tools if (hit := described_call(text, t, tokens, before)) is not None
    }
    if not found:
        return {}
    top = max(score for _, score in found.values())
    return {name: at for name, (at, score) in found.items() if score == top}


def stems(text: str) -> list[str]:
    """The stems of `text`'s words, as `described_call` compares them (its `before`)."""
    return [s for _, _, s, _ in _tokens(text)]


def indefinite(text: str, position: int) -> bool:
    """The verb at `position` takes "a"/"an"/"one" ("Open a permit application for the work"):
    the kind of thing the skill is for, not the one a step acts on."""
    return bool(_INDEFINITE.match(text[position:]))


__all__ = ["ToolWords", "described_call", "described_calls", "indefinite", "stem", "stems"]
