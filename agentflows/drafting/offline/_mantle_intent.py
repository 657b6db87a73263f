"""What the user wants, as the clause after "You": `want to replace a card`.

Read from the skill's name when it is a verb phrase ("Replace a card", "File Claim" → `want
to file a claim`), else from the description's first sentence in the third person ("Books a
table for …" → `want to book a table for …`), else from its subject (`want help with broken
equipment`, `want to know where an existing claim stands`). Never the id.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Collection
from typing import Any

from evalcore.agents.reference import example_mode, field_words, routed_skill, routing_words
from evalcore.definitions import MantleDefinitions, Skill, is_prerequisite
from evalcore.definitions.skill_model import lacked_in_cue
from evalcore.lexicon.en.request_words import MONTH as _MONTH
from evalcore.lexicon.en.request_words import STATES as _STATES
from evalcore.lexicon.en.user_line_words import ASKING_LEADS, WANTING_LEADS
from evalcore.lexicon.en.user_line_words import CALLER_CLAUSE_ENDS as _CLAUSE_ENDS
from evalcore.lexicon.en.user_line_words import CALLER_TO_GOAL as _YOURS
from evalcore.lexicon.en.user_line_words import RELATIVES as _RELATIVES
from evalcore.simulator import opening_line
from evalcore.testdata import DataRecords, is_tag, names_the_next

from ...planning.mantle_offers import (
    VERBS,
    Request,
    activation_phrase,
    activation_phrases,
    as_sentence,
    cue_line,
    description_phrases,
    distinct_name_intent,
    id_like,
    instruction_request,
    is_neutral,
    name_intent,
    named_value,
    paired_phrase,
    person_phrases,
    plain_opening,
    requests,
    says_label,
    second_person,
    strong_phrases,
    subject,
    value_line,
)
from ._direction import content_stems, value_words


def _third_to_plain(word: str) -> str | None:
    lowered = word.lower()
    for cut, add in (("ies", "y"), ("shes", "sh"), ("ches", "ch"), ("sses", "ss"), ("s", "")):
        if lowered.endswith(cut):
            base = lowered[: len(lowered) - len(cut)] + add
            if base in VERBS:
                return base
    return None


def intent_clause(defs: MantleDefinitions, skill: Skill) -> str:
    """The clause after "You" (see module doc)."""
    if is_prerequisite(defs, skill.id):
        own = prerequisite_intent(skill)
        if own is not None:
            return own
    named = distinct_name_intent(defs, skill)
    if named is not None and not id_like(skill):
        return named
    asked = _request(defs, skill, routed=True)
    if asked is not None and asked.strong:
        return asked.intent
    if named is not None and routes(defs, skill, opening_line(named)):
        return named
    asked = _request(defs, skill, routed=True)
    if asked is not None:
        return asked.intent
    if named is not None:
        return named
    asked = _request(defs, skill)
    if asked is not None:
        return asked.intent
    description = " ".join((skill.description or "").split())
    sentence = re.split(r"(?<=[.!?])\s|[:;]", description, maxsplit=1)[0].rstrip(".")
    first, _, rest = sentence.partition(" ")
    plain = _third_to_plain(first)
    if plain and rest and len(rest.split()) <= 14:
        return f"want to {plain} {second_person(rest)}"
    about = " ".join(subject(skill).replace("_", " ").split())
    about = about[:1].lower() + about[1:]
    if about.split(" ", 1)[0] in ("where", "what", "how", "who", "when", "which", "whether"):
        return f"want to know {second_person(about)}"
    if _STATES.search(about):
        return f"want help because {second_person(about)}"
    return f"want help with {second_person(about)}"


#: How a caller asks the agent to do something, and says what they want to do, word by word.
_ASKING = tuple(tuple(lead.split()) for lead in ASKING_LEADS)
_WANTING = tuple(tuple(lead.split()) for lead in WANTING_LEADS)
#: How a description speaks of a caller who asks for the skill ("a caller who asks to be
#: identified lands here").
_DESCRIBED = ("who asks to ", "who wants to ")


def prerequisite_intent(skill: Skill) -> str | None:
    """The intent of a skill other skills run first (`is_prerequisite`), in a caller's words
    from its description: `want the agent to check it's you on file` from "can you check
    it's me on file", `want to be identified` from "a caller who asks to be identified";
    never its name ("verify the policyholder" is the agent's step, not what a caller says).
    None where the description quotes no request and speaks of no caller who asks."""
    for phrase in person_phrases(skill):
        words = phrase.rstrip("?.! ").split()
        lowered = tuple(w.lower() for w in words)
        for lead in _ASKING:
            if lowered[: len(lead)] == lead and len(words) > len(lead):
                return "want the agent to " + _yours(words[len(lead) :])
        for lead in _WANTING:
            if lowered[: len(lead)] == lead and len(words) > len(lead):
                return "want to " + _yours(words[len(lead) :])
    text = " ".join((skill.description or "").split())
    for lead in _DESCRIBED:
        at = text.lower().find(lead)
        if at < 0:
            continue
        asked: list[str] = []
        for word in text[at + len(lead) :].split():
            if word.lower() in _CLAUSE_ENDS:
                break
            asked.append(word.rstrip(",.;:"))
            if word[-1] in ",.;:":
                break
        if asked:
            return "want to " + _yours(asked)
    return None


def prerequisite_opening(defs: MantleDefinitions, skill: Skill) -> str | None:
    """The first message for a skill other skills run first: the caller's request its
    description quotes ("Can you check it's me on file?"), where it routes to the skill."""
    for phrase in person_phrases(skill):
        lowered = tuple(phrase.lower().split())
        if any(lowered[: len(lead)] == lead for lead in (*_ASKING, *_WANTING)):
            line = as_sentence(phrase)
            if routes(defs, skill, line):
                return line
    return None


def sign_in_openings(defs: MantleDefinitions, skill: Skill) -> list[str]:
    """The openings a sign-in (a skill other skills run first) takes in turn: the phrasings
    its description quotes a person saying ("I need to log in", "Here's my badge number")
    that route to it; its name only where none does. The name says the agent's step from
    the agent's side ("Check the researcher's badge"), which no researcher asks for."""
    phrases = activation_phrases(defs, skill)
    said = {as_sentence(p) for p in person_phrases(skill)}
    return [p for p in phrases if p in said] or phrases


def _yours(words: list[str]) -> str:
    return " ".join(_YOURS.get(w.lower(), w) for w in words)


def routes(defs: MantleDefinitions, skill: Skill, line: str) -> bool:
    """Whether `line`, said as the first message, asks for `skill` (the reference agent's
    router)."""
    return routed_skill(defs, routing_words(defs), line) == skill.id


def _request(defs: MantleDefinitions, skill: Skill, *, routed: bool = False) -> Request | None:
    """Where the skill's name is its id in words, the description's request that routes to
    it (with `routed`, only that; else the first request, else the first quoted phrasing),
    so neither the intent nor the opening speaks the id."""
    if not id_like(skill):
        return None
    found = requests(skill)
    # what the description quotes people saying to activate the skill comes before its own
    # first sentence or topic ("Parental leave processes and policy"); an example of one
    # mode or value ("roll back push-gateway", "the fridge was at 46") only after them
    quoted = [p for p in person_phrases(skill) if is_neutral(defs, skill, p)]
    activating = set(person_phrases(skill, activating=True))
    said = [Request(f'want to ask the agent: "{p}"', _greeted(p)) for p in quoted]
    first = [r for r, p in zip(said, quoted, strict=True) if p in activating and _plain(p)]
    team = instruction_request(skill)
    own = [r for r in found if r.strong and (team is None or r.line != team.line)]
    ordered = [*own, *first, *(r for r in found if r not in own)]
    ordered += [r for r in said if r not in first]
    words = routing_words(defs)
    hit = next((r for r in ordered if routed_skill(defs, words, r.line) == skill.id), None)
    if hit is not None or routed:
        return hit
    return next(iter(ordered), None)


def _plain(phrase: str) -> bool:
    """A phrasing with no number in it (a number is one case's value, "at 46")."""
    return not any(c.isdigit() for c in phrase)


def _greeted(phrase: str) -> str:
    """A quoted question as a first message: greeted like every other opening ("Hi, what
    can you do?"); a statement or a keyword stays as the person types it ("I'm sick.")."""
    line = as_sentence(phrase)
    if not line.endswith("?"):
        return line
    if line.split(" ", 1)[0] not in ("I", "I'm", "I'd"):
        line = line[:1].lower() + line[1:]
    return f"Hi, {line}"


def without_month(phrase: str) -> str:
    """The skill's example phrasing without the month it names ("Send me a receipt for
    November." -> "Send me a receipt."): the month the case is about is its fact's, which
    the test data draws, and the opening must not name another one."""
    return _MONTH.sub("", phrase)


def own_opening(
    defs: MantleDefinitions, skill: Skill, kind: str, facts: dict[str, Any]
) -> str | None:
    """The first message a case needs in place of the plain one, or None: a cue case says
    what the prose's cue waits for; a case whose plain opening ("Hi, I'd like help with
    approve a swap.") states another value of the skill's fields than the case gives it
    opens with the skill's value-neutral phrasing."""
    cue = (facts.get("cue") or {}).get("said")
    lacked = lacked_in_cue(str(cue or ""))
    if kind == "cue" and lacked is not None:  # "they say they do not have an order number"
        return f"{opening_line(intent_clause(defs, skill))} I don't have my {lacked}."
    if kind == "cue" and cue:
        return cue_line(defs, skill, str(cue))
    if is_prerequisite(defs, skill.id):
        said = prerequisite_opening(defs, skill)
        if said is not None:
            return said
    values = facts.get("values") or {}
    named = distinct_name_intent(defs, skill)
    asked = _request(defs, skill, routed=True)
    if named is not None and routes(defs, skill, opening_line(named)):
        # the name's verb phrase routes: `opening_line` of the intent says it, unless a
        # request of the description's own sentences routes too
        asked = asked if asked is not None and asked.strong else None
    elif asked is None and named is None:
        asked = _request(defs, skill)
    if asked is not None and not contradicts(defs, skill, values, asked.line):
        # the name is the id in words: the opening is the request the intent names
        return _one_alternative(defs, skill, values, asked.line)
    if contradicts(defs, skill, values, opening_line(intent_clause(defs, skill))):
        neutral = activation_phrase(defs, skill)
        if not contradicts(defs, skill, values, neutral):
            return neutral
    return None


def _alternatives(line: str) -> tuple[str, list[str], str] | None:
    """ "Hi, I need help with bags that never came or came broken." -> the text up to the
    relative word, the two alternatives, the end mark; None where the line ends otherwise."""
    words = line.split()
    at = next((i for i, w in enumerate(words) if w.lower() in _RELATIVES), None)
    end = line[-1:] if line[-1:] in ".?!" else ""
    if at is None or not end:
        return None
    rest = " ".join(words[at + 1 :])[: -len(end)].split(" or ")
    if len(rest) != 2 or not all(rest) or "," in rest[0] + rest[1]:
        return None
    return " ".join(words[: at + 1]) + " ", rest, end


def _one_alternative(
    defs: MantleDefinitions, skill: Skill, values: dict[str, Any], line: str
) -> str:
    """`line` with one of the two alternatives its last clause lists ("parcels that never
    came or came broken"), the one the case plays: a case of `report_broken` says "that
    came broken" (the alternative's own words, those the other does not share, name the
    value), one of a value no alternative names says neither ("Hi, I need help with
    parcels."): "that never came" would read as the request of the value that claims it
    (a missing-parcel report, not a trace). A line reciting both asks for two things where
    the case plays one.
    Unchanged where the case plays no value of the skill's choice fields or nothing
    decides."""
    found = _alternatives(line)
    if found is None:
        return line
    head, alternatives, end = found
    stems = [set(content_stems(a)) for a in alternatives]
    own = [s - (stems[0] & stems[1]) for s in stems]
    for qualified, value in values.items():
        field = defs.memory_field(qualified)
        if not qualified.startswith(skill.id + ".") or field is None or not field.enum_values:
            continue
        claims = {v: set(content_stems(value_words(v))) for v in field.enum_values}
        claimed = [{v for v, c in claims.items() if c & o} for o in own]
        if not any(claimed):
            continue
        pick = next((a for a, c in zip(alternatives, claimed, strict=True) if value in c), None)
        if pick is not None:
            return f"{head}{pick}{end}"
        if value in claims:  # "trace": either alternative reads as another value's request
            return head.rstrip().rsplit(" ", 1)[0] + end
    return line


def one_request(
    defs: MantleDefinitions,
    skill: Skill,
    line: str,
    memory: dict[str, Any],
    later: Collection[str] = (),
) -> str:
    """The first message `line` kept to the one request the case plays. A description
    example is a request of one branch ("Can my sister get in Saturday" asks for a guest
    PIN, "why did my deploy fail" to diagnose): a case on another branch of the skill's
    choice fields (`memory`: the values its path sets) that opens with it asks for two
    things ("Can my sister get in Saturday? Lockout, please."), or for the wrong one. Such
    an opening starts instead with an example that names the case's branch, else with the
    plain request for the skill ("Hi, I'd like help with building access."), keeping what
    followed the example (the values it states). On a happy path the example states no
    value of a field the path asks for later (`later`): "deploy v2.41.0 to staging" answers
    the environment question before it is asked, which is the details-up-front case's
    story, not the happy path's."""
    # the fields asked later are no part of the request
    branches = {q: b for q, b in _branches(skill, memory).items() if q not in later}
    head = next((e for e in _examples(skill) if line == e or line.startswith(e + " ")), None)

    def early(said: str) -> bool:  # answers a later question in the first message
        return any(states_value(defs, q, said) for q in later)

    if head is None or not branches:
        return line
    if _names_all(defs, head, branches, read="words") and not early(head):
        return line
    if (
        _names_no_other(defs, head, branches)
        and not early(head)
        and (
            _only_skill_words(skill, head)  # "Fun mode.": a request for the skill itself
            or head in {without_month(p) for p, _ in strong_phrases(defs, skill)}
        )
    ):
        # an example chosen for the value it gives ("A tree came down on the roof.")
        return line
    rest = line[len(head) :]
    if rest.strip() and _names_all(defs, rest, branches):
        # what follows states the case's values: an example naming them may open, or the
        # plain line that names no other
        for example in _examples(skill):
            named = _names_all(defs, example, branches, read="words")
            if named and routes(defs, skill, example) and not early(example):
                return example + rest
        stated = True
    else:  # nothing states them: the agent has to ask, so the line names none
        stated = False

    def fits(said: str) -> bool:
        if stated:
            return _names_no_other(defs, said, branches)
        return _names_none(defs, said, branches)

    plain = plain_opening(defs, skill, fits)
    if plain:
        return plain + rest
    # the intent in words ("Hi, I'd like help with changing who works a shift."): where the
    # skill's name names one branch ("Shift swaps and cover" names `swap`)
    intent = opening_line(intent_clause(defs, skill))
    if (
        fits(intent)
        and not _vague(intent)
        and not says_label(skill, intent)
        and routes(defs, skill, intent)
    ):
        return intent + rest
    said = rest.strip()  # "Status, please. The service is push-gateway.": the request alone
    if said and _names_all(defs, said, branches) and routes(defs, skill, said):
        return said
    other_job = not _names_no_other(defs, head, branches)
    if other_job and stated and fits(intent) and routes(defs, skill, intent + rest):
        # the example asks for another job, and nothing else routes: the skill's own
        # request, however general, before the values that name the case's job
        return intent + rest
    return line


def own_records_named(
    defs: MantleDefinitions,
    skill: Skill,
    line: str,
    memory: dict[str, Any],
    records: DataRecords,
) -> str:
    """`line` naming the case's own records only: a description example names one of the
    project's records ("Roll back push-gateway.") where the case is about another (its
    `service` is checkout-api), and says two of them. The case's takes its place, with what
    the example says of the other record at the same place in the case's (its staging
    version for "Deploy v2.41.0 to staging"), and the sentence that stated it after the
    example goes ("Roll back checkout-api."); where the
    line then asks for another skill (the example's record was what routed it), the
    sentences that named the other record go instead ("Status, please. The service is
    ledger-worker.")."""
    said = line
    named: list[re.Pattern[str]] = []
    held = {str(v) for v in memory.values() if isinstance(v, str | int) and str(v).strip()}
    # the tag the case moves its record to (`target_version`): an example's tag says it,
    # never the one the record already runs at that place ("Deploy v1.9.0" where staging
    # runs v1.9.0 is no change)
    ahead = [
        memory[f.qualified]
        for f in skill.memory.values()
        if names_the_next(f.name) and is_tag(memory.get(f.qualified))
    ]
    for field in skill.memory.values():
        value = memory.get(field.qualified)
        found = records.match(field.name) if field.type == "text" else None
        if not isinstance(value, str) or not value.strip() or found is None:
            continue
        collection, key = found
        owns = [r for r in collection.records if str(r.get(key)) == value]
        # one record of that name (a catalog entry, not one of many log lines): the
        # example's other values of the record it names are read at the same place
        mine = _leaves(owns[0]) if len(owns) == 1 else {(key,): value}
        swaps: dict[str, str] = {}
        for record in collection.records:
            if (owns and record is owns[0]) or key not in record:
                continue
            for path, other in _leaves(record).items():
                # the same place in the case's record: its service for the service, its
                # staging version for the staging version ("v2.41.0" of another service; a
                # number, never a word many records share, "prod"); never a value the
                # case's path holds (its own version, read from the line)
                named_by = path == (key,) or any(c.isdigit() for c in other)
                fits = path in mine and mine[path] != other and len(other) >= 4
                if named_by and fits and other not in held:
                    own = ahead[0] if len(ahead) == 1 and is_tag(other) else mine[path]
                    swaps.setdefault(other, own)
        for other in sorted(swaps, key=len, reverse=True):
            pattern = re.compile(rf"(?<![\w.-]){re.escape(other)}(?![\w-]|\.\w)", re.I)
            if pattern.search(said):
                said = pattern.sub(swaps[other], said)
                named.append(pattern)
        stated = f" The {value_words(field.name)} is {value}."
        if named and stated in said and said.replace(stated, "").count(value):
            # said twice now; kept where the request routes only with it
            shorter = said.replace(stated, "")
            said = shorter if routes(defs, skill, shorter) else said
    if not named or routes(defs, skill, said):
        return said
    kept = [s for s in re.split(r"(?<=[.!?])\s+", line) if not any(p.search(s) for p in named)]
    rest = " ".join(kept)
    return rest if rest and routes(defs, skill, rest) else line


def named_once(defs: MantleDefinitions, skill: Skill, line: str) -> str:
    """`line` without a sentence stating a value ("The service is ledger-worker.") that
    another sentence already names ("What's running in prod for ledger-worker?"): a first
    message that says it twice reads as a form. Where the line routes to the skill only
    with the field's word beside the value, the first mention takes it ("for the
    ledger-worker service") instead of a sentence of its own."""
    sentences = re.split(r"(?<=[.!?])\s+", line.strip())
    for index, sentence in enumerate(sentences):
        stated = _stated(sentence)
        if stated is None or len(sentences) < 2:
            continue
        field, value = stated
        pattern = re.compile(rf"(?<![\w.-]){re.escape(value)}(?![\w-])", re.I)
        rest = [s for i, s in enumerate(sentences) if i != index]
        at = next((i for i, s in enumerate(rest) if pattern.search(s)), None)
        if at is None:
            continue
        shorter = " ".join(rest)
        if routes(defs, skill, shorter):
            return named_once(defs, skill, shorter)
        first = pattern.search(rest[at])
        assert first is not None
        rest[at] = (
            f"{rest[at][: first.start()]}the {first.group(0)} {field}{rest[at][first.end() :]}"
        )
        folded = " ".join(rest)
        if routes(defs, skill, folded):
            return named_once(defs, skill, folded)
    return line


def _stated(sentence: str) -> tuple[str, str] | None:
    """(field words, value) of a sentence that states one value by its field ("The service
    is ledger-worker.", `Writer.stated`), else None."""
    if not (sentence.startswith("The ") and sentence.endswith(".")):
        return None
    field, _, value = sentence[len("The ") : -1].partition(" is ")
    words = field.replace(" ", "")
    if not value.strip() or not words.isalpha() or not words.islower() or field[:1] == " ":
        return None
    return field, value


def not_self_named(line: str, caller: str, records: DataRecords) -> str:
    """`line` with the caller's own first name, where a description example names it
    ("Find 30 minutes with Raj this week" said by Raj Patel), given to another person of
    the record list that holds the caller (the colleague the example means): no one asks
    for a meeting with themselves."""
    first = caller.split(" ", 1)[0]
    pattern = re.compile(rf"(?<![\w'-]){re.escape(first)}(?![\w-])")
    if not first or not pattern.search(line):
        return line
    for collection in records.collections:
        for mine in collection.records:
            key = next((k for k, v in mine.items() if v == caller), None)
            if key is None:
                continue
            for record in collection.records:
                other = str(record.get(key) or "").split(" ", 1)[0]
                if other and other != first and other not in line:
                    return pattern.sub(other, line)
    return line


def modes_said(defs: MantleDefinitions, line: str, requested: dict[str, Any]) -> str:
    """`line` saying each choice the skill sets from the request (`requested`): an example
    that asked for it in its own words ("Roll back push-gateway.") may name it no longer
    once the case's record takes the example's place ("Roll back checkout-api."), and
    nobody asks for it later; the value's own words follow then ("Rollback, please.")."""
    said = line
    for qualified, value in requested.items():
        field = defs.memory_field(qualified)
        if field is None or field.type != "categorical" or not isinstance(value, str):
            continue
        if field_words(defs, qualified).stated(said) != value:
            said = f"{said} {value_line(defs, qualified, value)}"
    return said


def job_opening(
    defs: MantleDefinitions, skill: Skill, memory: dict[str, Any], held: frozenset[str]
) -> str | None:
    """The first message of a case whose path sets a job the agent asks for ("Set mode
    from what they need"): the description's request for that job (`paired_phrase`:
    "Where is my suitcase?" is no job's, "The handle on my bag is broken." the damage
    report's), where it routes to the skill, the agent reads the job from it and it states
    no other value than the case's of another field (nor one of a field the case leaves
    unset); None for a request that states a field in `held` (one the case's turn hangs
    on: its question has to be asked)."""
    for field in skill.memory.values():
        value = memory.get(field.qualified)
        if field.qualified in held or not isinstance(value, str):
            continue
        line = paired_phrase(defs, field.qualified, value)
        if line is None or contradicts(defs, skill, memory, line) or _answers(defs, line, held):
            continue  # "The handle on my bag is broken." for a broken wheel
        if _foreign(defs, skill, memory, line):
            continue  # "Is the cryo-EM free next week?" where the path names no instrument
        if field_words(defs, field.qualified).stated(line) == value:
            return line
    return None


def _foreign(defs: MantleDefinitions, skill: Skill, memory: dict[str, Any], line: str) -> bool:
    """Whether `line` states a value of one of the skill's choice fields the case's path
    sets none of: a detail the case does not hold."""
    return any(
        f.type == "categorical"
        and f.qualified not in memory
        and field_words(defs, f.qualified).stated(line) is not None
        for f in skill.memory.values()
    )


def _answers(defs: MantleDefinitions, line: str, held: frozenset[str]) -> bool:
    """Whether `line` states a value of one of the `held` fields (their questions must
    come)."""
    return any(
        defs.memory_field(q) is not None and field_words(defs, q).stated(line) is not None
        for q in held
    )


def says_value(defs: MantleDefinitions, line: str, qualified: str, value: Any) -> bool:
    """Whether the agent reads `value` for choice field `qualified` from `line`."""
    if defs.memory_field(qualified) is None:
        return False
    return field_words(defs, qualified).stated(line) == value


def other_day(line: str, held: set[str], records: DataRecords) -> bool:
    """Whether `line` names a weekday on which no dated record the case holds falls (a
    record with one of the `held` values: "I need someone to cover my Sunday close" for a
    case about a Saturday shift). A request naming a day says the case's day or none."""
    days = {name.lower(): n for n, name in enumerate(calendar.day_name)}
    said = {days[w] for w in re.findall(r"[a-z]+", line.lower()) if w in days}
    if not said:
        return False
    held = {v for v in held if len(v) >= 5}
    found: set[int] = set()
    for collection in records.collections:
        for record in collection.records:
            leaves = set(_leaves(record).values())
            if not held & leaves:
                continue
            for value in leaves:
                iso = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", value)
                if iso:
                    found.add(dt.date(*map(int, iso.groups())).weekday())
    return bool(found) and not said & found


def other_kind(line: str, held: set[str], records: DataRecords) -> bool:
    """Whether `line` names a kind of thing (a one-word value of a record key, by its first
    four letters: "close" of `closing`) that no record the case holds is of, where other
    records of the same file are ("I need someone to cover my Sunday close" for a case
    about a midday bar shift): a request names what the case's record is, or no kind."""
    said = {w[:4] for w in re.findall(r"[a-z]{4,}", line.lower())}
    held = {v for v in held if len(v) >= 5}
    for collection in records.collections:
        mine = [r for r in collection.records if held & set(_leaves(r).values())]
        if not mine or len(mine) == len(collection.records):
            continue
        keys = {k for r in collection.records for k, v in r.items() if isinstance(v, str)}
        for key in sorted(keys):
            kinds = {
                str(r[key]).lower()
                for r in collection.records
                if isinstance(r.get(key), str) and re.fullmatch(r"[a-z]{4,}", str(r[key]).lower())
            }
            named = {k for k in kinds if k[:4] in said}
            if len(kinds) > 1 and named and not any(str(r.get(key)).lower() in named for r in mine):
                return True
    return False


def _leaves(record: dict[str, Any], at: tuple[str, ...] = ()) -> dict[tuple[str, ...], str]:
    """Path -> scalar value (as text) of every leaf of a record's nested mappings."""
    out: dict[tuple[str, ...], str] = {}
    for key, value in record.items():
        if isinstance(value, dict):
            out.update(_leaves(value, (*at, key)))
        elif isinstance(value, str | int | float) and not isinstance(value, bool):
            out[(*at, key)] = str(value)
    return out


def detour_opening(defs: MantleDefinitions, skill: Skill, line: str, memory: dict[str, Any]) -> str:
    """A digression's first message. The detour hangs on a question the opening leaves
    open: an opening that carries a detail besides the request ("Can I swap Saturday with
    Lucía?": a day and a name, which may answer "which shift?" or "who with?", so the agent
    never asks the question the detour waits for) gives way to the plain request for the
    case's branch ("Hi, I'd like help with changing who works a shift. Swap, please.")."""
    if not _carries_detail(skill, line):
        return line
    branches = _branches(skill, memory)
    plain = plain_opening(defs, skill, lambda said: _names_none(defs, said, branches))
    if plain is None:
        intent = opening_line(intent_clause(defs, skill))
        if not _names_none(defs, intent, branches) or _vague(intent):
            return line
        plain = intent
    stated = [_said_plainly(defs, skill, q, value) for q, (value, _) in branches.items()]
    said = " ".join([plain, *stated])
    if _carries_detail(skill, said) or not routes(defs, skill, said):
        return line
    return said


def _said_plainly(defs: MantleDefinitions, skill: Skill, qualified: str, value: str) -> str:
    """A branch value as the user says it, without a detail (the example phrase that names
    the value may carry one: then the value in words, "Swap, please.")."""
    line = value_line(defs, qualified, value)
    if not _carries_detail(skill, line):
        return line
    words = value_words(value)
    return f"{words[:1].upper()}{words[1:]}, please."


def _carries_detail(skill: Skill, line: str) -> bool:
    """Whether a first message names something besides the request: a number, or a word
    written with a capital inside its sentence ("Saturday", "Lucía"); not "I", an acronym
    ("PIN") or a word of the skill's name."""
    own = {w.lower() for w in (skill.name or "").split()}
    for sentence in line.replace("?", ".").replace("!", ".").split(". "):
        words = [w.strip(",.;:()\"'") for w in sentence.split()]
        for index, word in enumerate(words):
            if any(c.isdigit() for c in word):
                return True
            if index == 0 or not word[:1].isupper() or word.isupper():
                continue
            if word.lower() not in own and not word.startswith("I'"):
                return True
    return False


def _vague(line: str) -> bool:
    """A request that names no task ("help with anything about shipping a service")."""
    return bool({"anything", "something", "everything"} & set(line.lower().split()))


def _only_skill_words(skill: Skill, phrase: str) -> bool:
    """Whether most content words of `phrase` are the skill's own ("Fun mode." for
    "Activate fun mode", "Can I speak to the safety officer?" for "Radiation safety
    officer"; not "I need someone to cover my Sunday close" for "Shift swaps and cover"): a
    request for the skill itself, of no branch."""
    words = content_stems(phrase)
    own = [w for w in words if _stem_shared(_skill_words(skill), w)]
    return bool(words) and 2 * len(own) >= len(words)


def _skill_words(skill: Skill) -> str:
    """The content words that name the skill itself: its name and its description's
    subject ("the", "own" name nothing)."""
    return " ".join(content_stems(f"{skill.name or skill.id.replace('_', ' ')} {subject(skill)}"))


def _examples(skill: Skill) -> list[str]:
    """The description's examples as an opening writes them (a sentence, no month)."""
    return [without_month(as_sentence(p)) for p in description_phrases(skill)]


def _branches(skill: Skill, memory: dict[str, Any]) -> dict[str, tuple[str, list[str]]]:
    """The values `memory` gives the skill's choice fields (categorical, set by the model,
    at least two values), each with the field's other values."""
    out: dict[str, tuple[str, list[str]]] = {}
    for field in skill.memory.values():
        values = [str(v) for v in field.enum_values or []]
        value = memory.get(field.qualified)
        if field.type != "categorical" or not field.llm_settable or len(values) < 2:
            continue
        if isinstance(value, str) and value in values:
            out[field.qualified] = (value, [v for v in values if v != value])
    return out


def _names_all(
    defs: MantleDefinitions,
    phrase: str,
    branches: dict[str, tuple[str, list[str]]],
    *,
    read: str = "job",
) -> bool:
    """Whether `phrase` names each branch value (strongly, or by a word that shares its
    stem: "I'm locked out" names `lockout`) and no other value of its field, by `read`:
    `job`, an example's job or else its words (`_read`); `words`, what its words name, read
    as its job where they name another ("why did my deploy fail" names `deploy` and asks
    to diagnose). An example kept or chosen to open a case says the case's branch in so
    many words, not by details that may not be the case's ("cover my Sunday close" for a
    Saturday opening shift)."""
    for qualified, (value, others) in branches.items():
        read_as = _read if read == "job" else named_value
        named = read_as(defs, qualified, phrase)
        if named is not None:  # weakly too: "the milk count" is `daily` "covers milk"
            if named != value:
                return False
            continue
        if not _stem_shared(value, phrase) or any(_stem_shared(o, phrase) for o in others):
            return False
    return True


def _names_no_other(
    defs: MantleDefinitions, phrase: str, branches: dict[str, tuple[str, list[str]]]
) -> bool:
    """Whether the value `phrase` names of each branch field, if any, is the case's."""
    for qualified, (value, _) in branches.items():
        named = _read(defs, qualified, phrase)
        if named is not None and named != value:
            return False
    return True


def _names_none(
    defs: MantleDefinitions, phrase: str, branches: dict[str, tuple[str, list[str]]]
) -> bool:
    """Whether `phrase` names no value of the branch fields (so the agent asks)."""
    return not any(
        _read(defs, q, phrase) is not None or any(_stem_shared(v, phrase) for v in (value, *others))
        for q, (value, others) in branches.items()
    )


def _read(defs: MantleDefinitions, qualified: str, phrase: str) -> Any:
    """The value of a branch field `phrase` asks for: a description example's own job
    ("What's my day look like?" asks for the agenda, "Why did my deploy fail?" to
    diagnose), else the value its words name, if any."""
    mode = example_mode(defs, qualified, phrase)
    return mode if mode is not None else named_value(defs, qualified, phrase)


def _stem_shared(value: str, phrase: str) -> bool:
    """Whether a word of `value` and a word of `phrase` begin alike ("lockout" and "locked":
    four letters; a shorter word of the value whole: "pay" and "Pay my rent")."""
    said = re.findall(r"[a-z]+", phrase.lower())
    for word in re.findall(r"[a-z]{3,}", value.replace("_", " ").lower()):
        if any(w == word or (len(word) >= 4 and w.startswith(word[:4])) for w in said):
            return True
    return False


def states_value(defs: MantleDefinitions, qualified: str, said: str) -> bool:
    """Whether the agent reads some value of field `qualified` from `said`."""
    if defs.memory_field(qualified) is None:
        return False
    return field_words(defs, qualified).stated(said) is not None


def contradicts(defs: MantleDefinitions, skill: Skill, values: dict[str, Any], said: str) -> bool:
    """Whether a first message ("Hi, I'd like help with approve a swap.") states a value of
    one of the skill's fields other than the one the case gives it (`values`): the agent
    would record that value from it."""
    for qualified, value in values.items():
        if qualified.startswith(skill.id + "."):
            stated = field_words(defs, qualified).stated(said)
            if stated is not None and stated != value:
                return True
    return False


__all__ = [
    "VERBS",
    "contradicts",
    "detour_opening",
    "intent_clause",
    "job_opening",
    "modes_said",
    "name_intent",
    "named_once",
    "not_self_named",
    "one_request",
    "other_day",
    "other_kind",
    "own_opening",
    "own_records_named",
    "prerequisite_intent",
    "prerequisite_opening",
    "routes",
    "says_value",
    "sign_in_openings",
    "states_value",
    "without_month",
]
