"""What a person asks a Mantle skill for, read from its description: never its id.

A skill's `name` is often its id in words ("Check Claim Status" for `check_claim_status`,
`leave_check` itself): a user who says "I'd like to check Claim Status" speaks the team's
label, and on a project with a skill named `help` such a line routes there. So where the
name is the id in words (`id_like`), what the user says comes from the description:

- an activation sentence: "Activate when the customer asks about claim status, ..." →
  `want to ask about claim status`; "... wants to start a claim, report damage, ..." →
  `want to start a claim`; "... they ask what policies they have, ..." → `want to know what
  policies you have`; "Activate for slow internet, buffering, ..." → `want help with slow
  internet`;
- the first sentence, when it is an instruction to the agent ("Look up the status of an
  existing claim by claim number." → `want to look up the status of an existing claim`;
  "Connect the customer to a human agent." → `want the agent to connect you to a human
  agent`);
- else its first clause as a topic ("How to plan or book vacation, ..." → `want to know how
  to plan or book vacation`).

Each is an intent clause in the second person, as `You <clause>.` reads in a case's context
(`opening_line` turns it into the first message): the description's third person turned to
the user's (`second_person`; `first_person` for the user's own line).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from evalcore.definitions import Skill
from evalcore.lexicon.en.description_words import AGENT_PART as _AGENT_PART
from evalcore.lexicon.en.description_words import JOB_NOUNS as _JOB_NOUNS
from evalcore.lexicon.en.description_words import LIST_LEADS as _LIST_LEADS
from evalcore.lexicon.en.description_words import OBJECT_HEADS as _OBJECT_HEADS
from evalcore.lexicon.en.description_words import PLAIN_FORMS as _IRREGULAR
from evalcore.lexicon.en.description_words import POLICY_WORDS as _POLICY_WORDS
from evalcore.lexicon.en.description_words import SAY_VERBS as _SAY_VERBS
from evalcore.lexicon.en.description_words import SPEAKERS as _SPEAKERS
from evalcore.lexicon.en.description_words import TEAM_HOW, TEAM_WHO
from evalcore.lexicon.en.description_words import WISH_VERBS as _WANTS
from evalcore.lexicon.en.skill_requests import (
    ACTIVATE,
    ANY_OBJECT,
    ANY_POSSESSIVE,
    CUSTOMER_OBJECT,
    CUSTOMER_POSSESSIVE,
    CUT,
    INFLECTED,
    LIKE_LEAD,
    OR_CONDITION,
    OTHERS,
    SUBJECT_VERB,
    WHO,
)
from evalcore.lexicon.en.word_classes import ARTICLES, WH_WORDS


class Request(NamedTuple):
    """One way to ask: the intent clause (`want to start a claim`, second person) and the
    first message that says it (`Hi, I want to start a claim.`)."""

    intent: str
    line: str
    strong: bool = False
    """Said by an activation sentence or the first sentence (not a keyword list or topic):
    preferred even to a name that is a verb phrase."""


_WORDS = re.compile(r"[a-z0-9]+")
#: "Activate when ...", not "Do NOT activate for ..." (a skill it is not for).
_ACTIVATE = ACTIVATE
_WHO = WHO
#: Where a first sentence's request ends ("... by claim number", ", compare it ...").
_CUT = CUT
_OTHERS = OTHERS


def id_like(skill: Skill) -> bool:
    """True when the skill's name is its id in words: every word of the name is a word of
    the id ("Check Claim Status", "leave_check"), or it has no name."""
    name = _WORDS.findall((skill.name or "").lower())
    return not name or set(name) <= set(_WORDS.findall(skill.id.lower()))


_SUBJECT_VERB = SUBJECT_VERB


def _plain_verb(verb: str, *, first: bool) -> str:
    lowered = verb.lower()
    if lowered in _IRREGULAR:
        plain = _IRREGULAR[lowered]
        return (
            {"are": "am", "were": "was", "aren't": "am not", "weren't": "wasn't"}.get(plain, plain)
            if first
            else plain
        )
    if lowered.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        return verb[:-2]
    if lowered.endswith("s") and not lowered.endswith("ss") and len(lowered) > 3:
        return verb[:-1]
    return verb


def _person(text: str, *, first: bool) -> str:
    me, my, mine = ("I", "my", "me") if first else ("you", "your", "you")

    def subject_verb(match: re.Match[str]) -> str:
        return f"{me} {_plain_verb(match['verb'], first=first)}"

    text = CUSTOMER_POSSESSIVE.sub(my, text)
    text = _SUBJECT_VERB.sub(subject_verb, text)
    text = CUSTOMER_OBJECT.sub(mine, text)
    return text


def first_person(text: str) -> str:
    """`payments the customer disagrees with` -> `payments I disagree with`."""
    return _person(text, first=True)


def second_person(text: str) -> str:
    """`they have seen payments they don't recognise` -> `you have seen payments you don't
    recognise`."""
    return _person(text, first=False)


def _first_item(text: str) -> str:
    """The first of a listed series ("claim status, claim progress, or an open claim")."""
    head = re.split(r",\s*|\s+\(", text.strip(), maxsplit=1)[0]
    # "leave feedback or after goodbye": an `or` that starts another condition ends it
    head = OR_CONDITION.split(head)[0]
    return " ".join(head.split()).rstrip(".")


def _others(text: str) -> str:
    """ "customers", "a customer's": the one user, as `the customer` reads."""
    return _OTHERS.sub(lambda m: "the customer's" if "'" in m[0] else "the customer", text)


def _you(text: str) -> str:
    return second_person(_others(text))


def _said(text: str) -> str:
    """The customer as the speaker, subject or object ("what policies they have" → "what
    policies I have")."""
    return first_person(_others(text))


def _me(text: str) -> str:
    """The customer as the speaker: an object here ("connect the customer to" → "connect
    me to"), a subject only after the subject was taken off."""
    text = ANY_POSSESSIVE.sub("my", _others(text))
    return ANY_OBJECT.sub("me", text)


#: Words of the team's wording that a person never says of their own message or request
#: ("post a user-provided message" -> "post a message").
_TEAM_WORDS = frozenset(f"{who}-{how}" for who in TEAM_WHO for how in TEAM_HOW)


def _articles_fit(words: list[str]) -> list[str]:
    """ "an" before a vowel and "a" before a consonant, once a word between them is gone."""
    out = list(words)
    for at in range(len(out) - 1):
        if out[at].lower() in ("a", "an"):
            vowel = out[at + 1][:1].lower() in "aeiou"
            article = "an" if vowel else "a"
            out[at] = article.capitalize() if out[at][:1].isupper() else article
    return out


def plain_words(clause: str) -> str:
    """A description's request as a person words it: one verb of "book or propose", one
    name of "payslip/paycheck", none of the team's words ("user-provided") nor of its rules
    ("an allowed channel")."""
    kept = [w for w in clause.split() if w.lower() not in _TEAM_WORDS]
    words = [w for w in kept if w.lower() not in _POLICY_WORDS]
    if len(words) < len(kept):
        words = _articles_fit(words) if words else kept
    if len(words) > 3 and words[1].lower() == "or" and words[0].isalpha():
        words = [words[0], *words[3:]]  # "find or download a payslip" -> "find a payslip"
    out = []
    for word in words:
        head, slash, _ = word.partition("/")
        out.append(head if slash and head.isalpha() and not word.startswith("/") else word)
    return " ".join(out)


def _until_agent_part(clause: str) -> str:
    """The request without what the agent does after it ("guide the customer through
    power-cycling their router and confirm when they are done" -> "guide the customer
    through power-cycling their router"): cut at an " and " that follows the object (a
    determiner or a clause word after the verb) and goes on with what the agent does; not
    at "look up and explain" nor "with premium and coverage limit"."""
    words = clause.split()
    seen_object = False
    for at, word in enumerate(words):
        if at > 0 and word.lower() in _OBJECT_HEADS - {"or", "and", "up", "out", "through"}:
            seen_object = True
        following = words[at + 1].lower() if at + 1 < len(words) else ""
        if word.lower() == "and" and seen_object and following in _AGENT_PART:
            return " ".join(words[:at])
    return clause


def _thing_checked(item: str, skill: Skill) -> Request | None:
    """ "balance lookups" as a person asks it: "Can you check my leave balance?", the
    thing named as the skill's own text names it (a word of the skill's id before it:
    "Leave balances" of `leave_check`)."""
    words = item.split()
    if len(words) < 2 or words[-1].lower() not in _JOB_NOUNS:
        return None
    thing = " ".join(words[:-1]).lower()
    own = set(_WORDS.findall(skill.id.lower())) - set(_WORDS.findall(thing))
    text = " ".join((skill.description or "").split())
    for found in re.finditer(rf"\b([A-Za-z]+)\s+{re.escape(thing)}s?\b", text, re.I):
        if found[1].lower() in own:
            thing = f"{found[1].lower()} {thing}"
            break
    return Request(f"want the agent to check your {thing}", f"Hi, can you check my {thing}?")


def _activation(skill: Skill) -> tuple[list[Request], list[Request]]:
    """Requests from "Activate when ..." sentences, and from "Activate for ..." lists."""
    when: list[Request] = []
    listed: list[Request] = []
    for match in _ACTIVATE.finditer(skill.description or ""):
        rest = match["rest"].strip()
        if match["how"].lower() == "for":
            if rest[:1] in "\"“'":
                continue  # a quoted phrasing: the description's own words, read elsewhere
            item = _first_item(LIKE_LEAD.sub("", rest))
            if item[:1] in "\"“'":
                continue
            asked = _thing_checked(item, skill)
            if asked is not None:
                listed.append(asked)
            elif len(item.split()) >= 1 and item:
                listed.append(
                    Request(f"want help with {_you(item)}", f"Hi, I need help with {_me(item)}.")
                )
            continue
        rest = _WHO.sub("", rest)
        verb, _, tail = rest.partition(" ")
        verb, lead = verb.lower(), tail.split(" ", 1)[0].lower()
        if verb in ("asks", "ask") and lead == "about":
            what = _first_item(tail.partition(" ")[2])
            when.append(
                Request(
                    f"want to ask about {_you(what)}", f"Hi, I have a question about {_me(what)}."
                )
            )
        elif verb in ("asks", "ask") and lead == "for":
            what = _first_item(tail.partition(" ")[2])
            when.append(Request(f"want to ask for {_you(what)}", f"Hi, could I get {_me(what)}?"))
        elif verb in ("asks", "ask") and lead in WH_WORDS:
            what = _first_item(tail)
            when.append(
                Request(f"want to know {_you(what)}", f"Hi, I'd like to know {_said(what)}.")
            )
        elif verb in ("wants", "want", "needs", "need", "asks", "ask") and lead == "to":
            what = plain_words(_first_item(tail.partition(" ")[2]))
            when.append(Request(f"want to {_you(what)}", f"Hi, I want to {_me(what)}."))
    return when, listed


def _items(text: str) -> list[str]:
    """The items of a listed series ("bill questions, invoice amounts, or why a bill looks
    high"), each without its `or`/`and`."""
    out = []
    for part in text.strip().rstrip(".").replace(" or ", ", ").split(","):
        words = part.split()
        if words and words[0].lower() in ("or", "and"):
            words = words[1:]
        if words:
            out.append(" ".join(words))
    return out


def _clauses(text: str) -> list[str]:
    """`text` cut at its sentence and clause ends (`.` and `;`)."""
    return [c for c in text.replace(";", ".").split(".") if c.strip()]


def _owned(item: str, whose: str) -> str:
    """`item` with its first article as `whose` ("why a bill looks high" -> "why my bill
    looks high")."""
    words = item.split()
    for at, word in enumerate(words):
        if word.lower() in ARTICLES:
            return " ".join([*words[:at], whose, *words[at + 1 :]])
    return item


def _said_words(text: str) -> list[str]:
    """The series after "when the customer says" ("goodbye, thanks that's all, or ...")."""
    out = []
    for clause in _clauses(text):
        words = clause.split()
        for at in range(1, len(words) - 1):
            speaks = words[at].lower() in _SAY_VERBS and words[at - 1].lower() in _SPEAKERS
            if speaks and "when" in (w.lower() for w in words[max(0, at - 3) : at - 1]):
                return _items(" ".join(words[at + 1 :]))
    return out


def _requested(text: str) -> list[str]:
    """The series after "requests to" ("write poems, stories, ...")."""
    for clause in _clauses(text):
        words = clause.split()
        for at in range(len(words) - 2):
            if words[at].lower() in ("request", "requests") and words[at + 1].lower() == "to":
                return _items(" ".join(words[at + 2 :]))
    return []


def _person_words(skill: Skill) -> list[Request]:
    """What a person says, where the description lists it: a question among the items it
    activates for ("why a bill looks high" -> "I'd like to know why my bill looks high"),
    the words it says the customer uses ("says goodbye" -> "Goodbye."), or the requests it
    handles ("requests to write poems" -> "could you write poems for me?"). Preferred to
    the description's own first sentence, which is the team's wording, not a caller's."""
    text = " ".join((skill.description or "").split())
    out: list[Request] = []
    for match in _ACTIVATE.finditer(text):
        if match["how"].lower() != "for":
            continue
        for item in _items(match["rest"]):
            if item.split(" ", 1)[0].lower() in WH_WORDS and len(item.split()) >= 3:
                mine, yours = _owned(item, "my"), _owned(item, "your")
                out.append(
                    Request(f"want to know {_you(yours)}", f"Hi, I'd like to know {_said(mine)}.")
                )
    own = skill.id.replace("_", " ").lower()
    # words, not a verb phrase ("wants to hang up"), and not the skill's id ("goodbye")
    said = [i for i in _said_words(text) if i.split()[0].lower() not in _WANTS]
    said = [i for i in said if own not in i.lower()] or said
    if said and said[0][:1] not in "\"“'":
        words = said[0]
        out.append(Request(f"want to say {words}", words[:1].upper() + words[1:] + "."))
    asked = _requested(text)
    if asked and len(asked[0].split()) >= 2:
        out.append(
            Request(f"want the agent to {_you(asked[0])}", f"Hi, could you {_me(asked[0])} for me?")
        )
    return [r._replace(strong=True) for r in out]


def activation_items(skill: Skill) -> list[str]:
    """The items of the description's "Activate for ..." lists, in order ("factory reset",
    "full wipe"; no quoted phrasing): the words the team expects a person to use."""
    text = " ".join((skill.description or "").split())
    out: list[str] = []
    for match in _ACTIVATE.finditer(text):
        if match["how"].lower() == "for" and match["rest"].strip()[:1] not in "\"“'":
            out += [item for item in _items(match["rest"]) if item[:1] not in "\"“'"]
    return out


def _sentences(skill: Skill) -> list[str]:
    text = " ".join((skill.description or "").split())
    return [s for s in re.split(r"(?<=[.!?])\s+", text) if s]


def instruction_request(skill: Skill) -> Request | None:
    """The first sentence as what the user asks the agent to do, when it is an instruction
    ("Look up the status of ...", "Connect the customer to ...")."""
    sentences = _sentences(skill)
    if not sentences or sentences[0].lower().startswith("activate"):
        return None
    words = sentences[0].split()
    if len(words) < 3 or words[1].lower().strip(",") not in _OBJECT_HEADS:
        return None
    if words[0].lower() in WH_WORDS:
        return None  # "Where an existing claim stands": a topic, not an instruction
    if INFLECTED.search(words[0].lower()):
        return None  # "Reporting a loss", "Books a table": a description, not an instruction
    clause = _CUT.split(sentences[0].rstrip("."), maxsplit=1)[0].strip()
    clause = plain_words(_until_agent_part(clause[:1].lower() + clause[1:]))
    about = _questions_about(clause)
    if about is not None:
        return Request(
            f"want to ask about {_you(about)}", f"Hi, I have a question about {_me(about)}."
        )
    return Request(f"want the agent to {_you(clause)}", f"Hi, can you {_me(clause)}?")


def _questions_about(clause: str) -> str | None:
    """What "answer common ... questions about speed tests" asks about: the user has a
    question about speed tests, they do not ask the agent to answer the team's FAQ."""
    words = clause.split()
    if not words or words[0].lower() != "answer":
        return None
    lowered = [w.lower() for w in words]
    for at in range(1, len(words) - 1):
        if lowered[at] in ("questions", "question") and lowered[at + 1] == "about":
            return _first_item(" ".join(words[at + 2 :])) or None
    return None


def _without_listed(clause: str, rest: str) -> str:
    """`clause` without the first item of a list the comma after it goes on with
    ("Submitting samples to the sequencing, proteomics or metabolomics core" ->
    "Submitting samples"): cut at the comma, the item names one of the choices the skill
    asks about, and a request that names it already answers that question."""
    listed = rest.lstrip(",").split(":", 1)[0].split()
    if not rest.startswith(",") or not {"or", "and"} & set(listed[:4]):
        return clause
    words = clause.split()
    if len(words) > 3 and words[-2].lower() in ("the", "a", "an"):
        words = [*words[:-2], words[-1]]  # "to the sequencing" -> "to sequencing"
    if len(words) > 2 and words[-2].lower() in _LIST_LEADS:
        return " ".join(words[:-2])
    return clause


def _topic(skill: Skill) -> Request | None:
    """The description's first clause as the subject of the request."""
    sentences = _sentences(skill)
    if not sentences:
        return None
    clause = re.split(r",|\s+-\s+|\s+–\s+|:|\s+\(", sentences[0].rstrip("."), maxsplit=1)[0]
    clause = _without_listed(clause, sentences[0][len(clause) :])
    clause = " ".join(clause.split())
    if len(clause.split()) < 2:
        return None
    clause = plain_words(clause[:1].lower() + clause[1:])
    words = clause.split()
    if len(words) > 2 and words[0] in WH_WORDS and words[1] == "to":
        # "where to find or download a payslip by country" -> "Where can I find my payslip?"
        rest = plain_words(" ".join(words[2:]).split(" by ", 1)[0])
        return Request(
            f"want to know {words[0]} you can {_you(_owned(rest, 'your'))}",
            f"Hi, {words[0]} can I {_me(_owned(rest, 'my'))}?",
        )
    if words[0] in WH_WORDS:
        return Request(f"want to know {_you(clause)}", f"Hi, I'd like to know {_said(clause)}.")
    return Request(f"want help with {_you(clause)}", f"Hi, I need help with {_me(clause)}.")


def requests(skill: Skill) -> list[Request]:
    """What the user wants, from the description (see module doc), best first: activation
    sentences, a person's own words the description lists (`_person_words`), the first
    sentence as an instruction, activation lists, else the topic."""
    when, listed = _activation(skill)
    instruction = instruction_request(skill)
    strong = [
        r._replace(strong=True)
        for r in [*when, *_person_words(skill), *([instruction] if instruction else [])]
    ]
    found = [*strong, *listed]
    if not found:
        topic = _topic(skill)
        found = [topic] if topic else []
    return list(dict.fromkeys(found))


__all__ = [
    "Request",
    "activation_items",
    "first_person",
    "id_like",
    "instruction_request",
    "plain_words",
    "requests",
    "second_person",
]
