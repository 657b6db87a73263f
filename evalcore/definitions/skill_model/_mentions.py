"""How a sentence speaks of a field: names it, asks for it, sets it, or has the agent record it.

A field is named by `@memory.<qualified>`, its name (plain, in backticks or spaced), else by
what its description calls it ("Five-digit ZIP code of …" names `service_zip` "ZIP code").
A sentence that names it asks for it (`ask`, `collect`, `find out` in the clause before the
name), sets it from the user's words (`set`, `record`, … ; from their request when it says
so), or sets it on the agent's own doing: a bool set in a sentence whose asks are other
fields' and that waits for no answer of the user's (`prose_verb` says which).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ...lexicon.en.field_mentions import ASK
from ...lexicon.en.field_mentions import ASKED as _ASKED
from ...lexicon.en.field_mentions import ASKS as _ASKS
from ...lexicon.en.field_mentions import CLAUSE_CUT as _CLAUSE_CUT
from ...lexicon.en.field_mentions import CONDITION_OPEN as _CONDITION_OPEN
from ...lexicon.en.field_mentions import CONDITIONAL as _CONDITIONAL
from ...lexicon.en.field_mentions import FROM_REQUEST as _FROM_REQUEST
from ...lexicon.en.field_mentions import FROM_RESULT as _FROM_RESULT
from ...lexicon.en.field_mentions import HEAD_END as _HEAD_END
from ...lexicon.en.field_mentions import MEASURE as _MEASURE
from ...lexicon.en.field_mentions import SET as _SET
from ...lexicon.en.field_mentions import SET_ANOTHER as _SET_ANOTHER
from ...lexicon.en.field_mentions import USER_GIVES as _USER_GIVES
from ...lexicon.en.field_mentions import USER_REPLY as _USER_REPLY
from ...lexicon.en.skill_prose import ALREADY, KEEP_SAID, RECORD_KEY
from ...lexicon.en.skill_prose_words import ASKED_WHOM as _WHOM
from ...lexicon.en.skill_prose_words import WRITES as _WRITES
from ...lexicon.notation.mantle_references import field_mention
from .._memo import memoized
from .._model import MantleDefinitions, MemoryField, Skill

_END = re.compile(r"[.;:?!]")


def asked_to(text: str) -> str | None:
    """What the prose asks the user to do or tell ("Ask them to say when they are done"
    -> `say when they are done`), a request rather than a question; None where it asks no
    such thing."""
    words = text.split()
    for index, word in enumerate(words[:-2]):
        if word.lower() not in ("ask", "asks"):
            continue
        at = index + 1
        whom = words[at].lower()
        if whom == "the":
            at += 2
        elif whom in _WHOM:
            at += 1
        else:
            continue
        if at < len(words) and words[at].lower() == "to":
            act = _END.split(" ".join(words[at + 1 :]), maxsplit=1)[0].strip()
            return act or None
    return None


#: How the reader writes a memory reference among a skill's tokens (`Skill.tokens`).
_MEMORY_TOKEN = "@memory."


def prose_reads(skill: Skill, namespace: str = "project") -> set[str]:
    """The qualified keys of `namespace`'s memory that `skill`'s prose refers to
    (`@memory.project.home_store_id` -> `project.home_store_id`): whole names, as the
    definitions reader found them (`Skill.tokens`), so a reference to `unit_id` is none to
    `unit`."""
    prefix = f"{_MEMORY_TOKEN}{namespace}."
    return {t.removeprefix(_MEMORY_TOKEN) for t in skill.tokens if t.startswith(prefix)}


def name_pattern(field: MemoryField) -> _NamePattern:
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
    return field_mention(name, qualified)


def prose_verb(field: MemoryField, text: str, *, ask_only: bool = False) -> str | None:
    """`prose` when the sentence asks for or sets the field, `request` when it sets it from
    the user's request; None when it only mentions it (a condition, a read). `ask_only`:
    only an ask counts (a project field the prose sets is the agent's write, not a question)."""
    for match in _mentions(field, text):
        before = text[: match.start()]
        clause = _CLAUSE_CUT.split(before)[-1]
        asks = _ASKS.search(clause)
        sets = None if ask_only else _SET.search(clause)
        if not (asks or sets):
            continue
        if _CONDITION_OPEN.search(clause) and not asks:
            if _USER_GIVES.search(clause):
                return "prose"  # "… use another if they give one (set x)": their answer
            continue
        sentence = re.split(r"[.!?]\s", before)[-1]
        asked = _ASKED.search(sentence.split(",", 1)[-1])
        conditional = _CONDITIONAL.match(sentence)
        if conditional and not asked and not _USER_GIVES.search(sentence):
            continue  # "If someone asks for X, set y": the agent sets it on a condition
        after = text[match.end() : match.end() + 60]
        if not asks and _FROM_RESULT.match(after):
            continue  # the agent sets it from a tool's result: nothing to ask
        if _records_itself(field, text, match.start(), match.end(), asks=asks is not None):
            return "agent"
        return "request" if _FROM_REQUEST.search(text) else "prose"
    return None


def set_from_answer(field: MemoryField, text: str) -> bool:
    """Whether the sentence sets the field from a tool's answer ("Get the status with
    @tool.get_claim_status and set claim_state from its `status` field"): the user is never
    the one to give that value, not even when no walk reached the call."""
    for match in _mentions(field, text):
        # a bracket opens a clause of its own: "Ask how late it is (set delay_minutes
        # from get_flight_status)" sets the field from the tool, whatever the agent asks
        clause = _CLAUSE_CUT.split(text[: match.start()])[-1].rsplit("(", 1)[-1]
        if _ASKS.search(clause):
            continue
        if _SET.search(clause) and _FROM_RESULT.match(text[match.end() : match.end() + 60]):
            return True
    return False


def record_key(name: str, text: str) -> str | None:
    """The key of the record a lookup returned that the text sets field `name` to ("If
    find_coworker returned exactly one match, set coworker_id to its employee_id" ->
    `employee_id`), else None: the agent copies it from the tool's answer, and the user,
    who named the person or thing, never knows it."""
    found = (m for m in RECORD_KEY.finditer(text) if m["field"] == name)
    return next((m["key"] for m in found), None)


def recorded_early(field: MemoryField, text: str) -> bool:
    """Whether the sentence has the agent record the field from what the user already said
    ("If the customer already told you why, record it in @memory.x.reason instead of
    letting the block ask again; do the same for @memory.x.method", "If they already told
    you what happened, keep it and do not ask again"): only then does a
    value given before its block starts skip the block's question; elsewhere when the model
    writes it is the model's to choose."""
    if not ALREADY.search(text) or not (_SET.search(text) or KEEP_SAID.search(text)):
        return False
    return next(_mentions(field, text), None) is not None


def written_by_agent(field: MemoryField, text: str) -> bool:
    """Whether the sentence has the agent write the field itself ("write a two-line summary
    of what happened", "Write request_summary in two or three lines"): a text it composes
    from the conversation, never a value the user is asked for."""
    if field.type != "text":
        return False
    for match in _mentions(field, text):
        clause = _CLAUSE_CUT.split(text[: match.start()])[-1]
        if _ASKS.search(clause):
            continue
        if _WRITES & {w.lower() for w in clause.split()}:
            return True
    return False


def set_at(field: MemoryField, text: str) -> int | None:
    """Where `text` first sets the field from the user's words ("Set new_flight to the
    flight number they pick"), None where it only mentions it or the agent sets it from
    something else (a tool's answer, its own doing)."""
    for part in _SENTENCE.finditer(text):
        if prose_verb(field, part.group()) in ("prose", "request"):
            found = next(_mentions(field, part.group()), None)
            return part.start() + found.start() if found is not None else None
    return None


def kept_set_at(defs: MantleDefinitions, field: MemoryField, text: str) -> int | None:
    """`set_at(field, text)` of a field of the loaded `defs`, read once per field and text
    and kept with the definitions: the drafter asks it of each of a skill's fields for
    every question of every case, and every reference play of a step reads its text again.
    Keyed by the qualified name, which names one field of the loaded definitions."""
    return memoized(defs, ("set_at", field.qualified, text), lambda: set_at(field, text))


#: A sentence of a text with where it starts (read one at a time: a clause of the one
#: before, "… if it is not today.", says nothing of how the next sets its field).
_SENTENCE = re.compile(r"[^.!?]+(?:[.!?]+|$)")


def _records_itself(field: MemoryField, text: str, start: int, end: int, *, asks: bool) -> bool:
    """A flag the sentence has the agent set on its own doing ("Tell them …; set
    balance_told.", "Set paged once the page goes out."): a bool, set, in a sentence whose
    every ask is another field's ("Ask what is wrong (set reason), then page the vet and
    set paged") and that waits for no answer of the user's."""
    if field.type != "bool" or asks:
        return False
    if any(not _SET_ANOTHER.search(text, ask.end(), start) for ask in ASK.finditer(text)):
        return False
    return _USER_REPLY.search(text[end:]) is None


def _mentions(field: MemoryField, text: str) -> Iterator[re.Match[str]]:
    """Where `text` names the field: by its name, else by what its description calls it
    ("Five-digit ZIP code of ..." names `service_zip` "ZIP code")."""
    found = False
    for match in name_pattern(field).finditer(text):
        found = True
        yield match
    alias = _description_name(field.description or "", field.name)
    if not found and alias is not None:
        yield from alias.finditer(text)


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


def asks_before(text: str, name: str) -> bool:
    """Whether a sentence takes the user's yes or no before it names `name` ("Confirm they
    understand settings will be erased, then call factory_reset_router."): the answer
    comes before the named step. A question for a value first ("Ask how many installments
    (set plan_installments), then call request_payment_plan") is not one: its answer never
    declines the step."""
    at = text.find(name)
    return at > 0 and any(_go_ahead(text, m) for m in ASK.finditer(text, 0, at))


#: The words after "ask" that make it a yes or no ("ask whether they want", "ask if").
_YES_NO = frozenset({"whether", "if"})


def _go_ahead(text: str, ask: re.Match[str]) -> bool:
    """Whether the ask takes a yes or no ("Confirm they understand", "ask whether they
    want"), not a value ("Ask how many installments")."""
    verb = ask.group(1).lower()
    after = text[ask.end() :].split(None, 1)
    return verb == "confirm" or (
        verb in ("ask", "asks") and bool(after) and after[0].lower() in _YES_NO
    )


__all__ = ["ASK", "asks_before", "name_pattern", "prose_verb"]
