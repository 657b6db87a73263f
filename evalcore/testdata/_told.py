"""What a person says for a free-text field that no record, list or format gives: what
happened, where it happened, what is wrong with a thing the case names (`fault_for`: a
loose door handle for a lock repair), whether there is anything to add, the message to post,
and why they ask for what they ask (`reason_for`: a payment plan, a page).

A claim, a report or a complaint asks "what happened and what caused the damage"; a user who
cannot answer leaves the conversation short of its goal. The answer is an everyday incident
of the kind the conversation is about (a dented bumper for a car, a burst pipe for a home),
chosen by the words of the case's fixed values first (the policy the path picked), then the
skill's own text, and drawn by the case's seeded rng. Nothing fits: None, never filler.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass

from ..lexicon.en.field_name_words import MESSAGE_TEXT as _MESSAGE
from ..lexicon.en.field_name_words import MORE_ON_FILE as _MORE
from ..lexicon.en.field_name_words import POSTS as _POSTS
from ..lexicon.en.field_name_words import WHAT_HAPPENED as _WHAT
from ..lexicon.en.field_name_words import WHERE_HAPPENED as _WHERE
from ..lexicon.en.field_name_words import WRONG as _WRONG
from ._values import FieldSpec


@dataclass(frozen=True)
class Incident:
    """Incidents of one kind: the words that say the kind, and what a person tells of one."""

    topic: frozenset[str]
    what: tuple[str, ...]
    where: tuple[str, ...]

    def mentions(self, text: str) -> int:
        """How often `text` names this kind (a word of its topic)."""
        return sum(1 for w in _words(text) if w in self.topic)


INCIDENTS = (
    Incident(
        frozenset(
            [
                "car",
                "cars",
                "auto",
                "automobile",
                "vehicle",
                "vehicles",
                "motor",
                "driver",
                "drivers",
                "driving",
                "bumper",
            ]
        ),
        (
            "Another car backed into mine in a supermarket car park and dented the rear bumper.",
            "A driver ran a red light and hit the front of my car at a junction.",
            "A stone thrown up by a truck cracked my windscreen on the highway.",
        ),
        (
            "the supermarket car park on Mill Lane",
            "the junction of Harbour Road and Kingsway",
            "the highway just past exit 4",
        ),
    ),
    Incident(
        frozenset(
            [
                "bike",
                "bikes",
                "bicycle",
                "bicycles",
                "cycling",
                "cyclist",
                "ebike",
                "ebikes",
                "scooter",
                "scooters",
            ]
        ),
        (
            "A car door opened in front of me and I crashed my bike; the front wheel is bent.",
            "My bike was knocked over in the rack at the station and the derailleur snapped.",
        ),
        ("on Harbour Road near the bakery", "the bike rack at the central station"),
    ),
    Incident(
        frozenset(
            [
                "home",
                "homes",
                "homeowner",
                "homeowners",
                "house",
                "household",
                "property",
                "apartment",
                "flat",
                "roof",
            ]
        ),
        (
            "A pipe burst under the kitchen sink and flooded the kitchen floor.",
            "A storm blew tiles off the roof and rain came through the bedroom ceiling.",
            "Someone broke in through the back door and took a laptop and some jewellery.",
        ),
        ("at home, in the kitchen", "at my house on Oak Avenue", "at home, at the back door"),
    ),
    Incident(
        frozenset(
            ["travel", "trip", "trips", "flight", "flights", "luggage", "baggage", "suitcase"]
        ),
        (
            "My suitcase did not arrive after my flight home and the airline cannot find it.",
            "I fell ill on holiday and had to cut the trip short.",
        ),
        ("at the airport", "on holiday in Lisbon"),
    ),
    Incident(
        frozenset(["pet", "pets", "dog", "dogs", "cat", "cats", "vet", "veterinary"]),
        (
            "My dog ate something in the park and needed treatment at the vet.",
            "My cat hurt her leg jumping off the balcony.",
        ),
        ("in the park near my house", "at home"),
    ),
    Incident(
        frozenset(
            [
                "phone",
                "phones",
                "laptop",
                "laptops",
                "device",
                "devices",
                "screen",
                "screens",
                "gadget",
                "gadgets",
                "tablet",
                "tablets",
            ]
        ),
        (
            "I dropped my phone on the pavement and the screen cracked.",
            "Water got into my laptop and it no longer turns on.",
        ),
        ("on the street outside my office", "at home"),
    ),
    Incident(
        frozenset(
            [
                "parcel",
                "parcels",
                "package",
                "packages",
                "delivery",
                "deliveries",
                "delivered",
                "shipment",
                "shipments",
            ]
        ),
        (
            "The parcel arrived with the box crushed and the item inside broken.",
            "The delivery never arrived although the tracking says it was delivered.",
        ),
        ("at my front door", "at the parcel locker down the road"),
    ),
)


@dataclass(frozen=True)
class Fault:
    """A fault of one household thing, told as a repair request tells it: the words that
    name the thing (a category such as `lock_door`), and what is wrong with it. Each is an
    everyday, non-urgent fault: a door that no longer locks or a leak that spreads is an
    emergency elsewhere, which a routine repair case must not turn into."""

    thing: frozenset[str]
    what: str


#: Everyday faults by the thing that has them (see `Fault`).
FAULTS = (
    Fault(
        frozenset(["lock", "locks", "door", "doors", "key", "keys"]),
        "The back-door handle is loose and the key sticks in the lock, though it still locks.",
    ),
    Fault(
        frozenset(["window", "windows"]),
        "The bedroom window sticks and will not open more than a few inches.",
    ),
    Fault(
        frozenset(["light", "lights", "lighting", "lamp", "bulb"]),
        "The ceiling light in the hallway flickers and sometimes goes off.",
    ),
)


def fault_for(fixed: str) -> Fault | None:
    """The fault of the thing `fixed` (the case's chosen values) names, else None."""
    words = set(_words(fixed))
    return next((f for f in FAULTS if f.thing & words), None)


@dataclass(frozen=True)
class Reason:
    """Why a person asks for a thing of one kind: the words that say the kind, and what a
    person tells as their reason, in a few words."""

    topic: frozenset[str]
    why: tuple[str, ...]


#: Reasons a person gives for a request the agent files for them (a payment plan, a page).
REASONS = (
    Reason(
        frozenset(["rent", "installments", "installment", "instalments"]),
        (
            "My hours were cut this month, so I am short until my next paycheck.",
            "I had an unexpected car repair this month.",
        ),
    ),
    Reason(
        frozenset(["page", "paging", "pager", "responder"]),
        (
            "Error rates on the service have been climbing for the last twenty minutes.",
            "The job queue has been backing up for half an hour and nothing is draining it.",
        ),
    ),
    Reason(
        frozenset(["ea", "assistant", "assistants"]),
        (
            "Please book a car and a hotel for a board member who is visiting our office.",
            "Please get my out-of-policy flight for the investor trip approved.",
        ),
    ),
)


def reason_for(context: str, rng: random.Random) -> str | None:
    """A reason of the kind `context` (the skill's text) names most often, drawn by the
    case's `rng`; None where no kind is named twice (a word in passing is no topic: a bank's
    dispute that mentions a rent payment is no rent request): never filler."""
    counts = [(sum(1 for w in _words(context) if w in r.topic), n) for n, r in enumerate(REASONS)]
    best, at = max(counts, key=lambda c: (c[0], -c[1]))
    return rng.choice(REASONS[at].why) if best >= 2 else None


#: What a person tells of the matter they want a person for, by the words of its kind (the
#: topic a hand-off sets: `refund`, `medical`); one line each, in their own words.
SITUATIONS = (
    Reason(
        frozenset(["refund", "refunds", "money"]),
        ("I can no longer make this trip and I would like my money back for the booking.",),
    ),
    Reason(
        frozenset(["medical", "medicine", "health"]),
        ("I feel faint and short of breath here at the airport and need medical help.",),
    ),
    Reason(
        frozenset(["rebooking", "rebook", "change", "changes"]),
        ("My flight no longer works for me and I would rather a person rebooked me.",),
    ),
    Reason(
        frozenset(["complaint", "complaints", "complain"]),
        ("The crew on my last flight was rude to my family and I want to complain.",),
    ),
    Reason(
        frozenset(["accessibility", "wheelchair", "disability", "assistance"]),
        ("I use a wheelchair and need assistance getting to the gate and boarding.",),
    ),
    Reason(
        frozenset(["baggage", "bag", "bags", "luggage"]),
        ("My suitcase came off the belt with a broken handle and I want to sort it out.",),
    ),
)


def situation_for(kind: str) -> str | None:
    """What a person tells of a matter of `kind` (a hand-off topic value: `refund`), the
    first line of the situation whose words name it; None for a kind none names (`other`)."""
    words = set(_words(kind))
    found = next((s for s in SITUATIONS if s.topic & words), None)
    return found.why[0] if found else None


#: Short notices a person posts to a team channel or notice board.
NOTICES = (
    "Reminder: the team lunch moves to Thursday at 12:30.",
    "The third-floor kitchen is closed for cleaning on Friday afternoon.",
    "Welcome to the two colleagues who joined our team this week!",
)


def _words(text: str) -> list[str]:
    """The lower-case words of `text` (a field name's parts too: `message_text`)."""
    return re.findall(r"[a-z]+", text.lower())


def _pairs(words: list[str]) -> set[tuple[str, str]]:
    return set(itertools.pairwise(words))


def incident_for(context: str, fixed: str = "") -> Incident | None:
    """The kind of incident `fixed` (the case's chosen values) names, else the one `context`
    (the skill's text) names most often; None when neither names one."""
    for text in (fixed, context):
        counts = [(i.mentions(text), n) for n, i in enumerate(INCIDENTS)]
        best, at = max(counts, key=lambda c: (c[0], -c[1]))
        if best:
            return INCIDENTS[at]
    return None


def told_value(
    spec: FieldSpec, rng: random.Random, context: str, fixed: str = "", asked: str = ""
) -> str | None:
    """What the user says for a free-text `spec` (see module doc); None when nothing fits.
    `rng` is seeded per case, not per field, so a case's "what" and "where" tell one story;
    `asked`, the question the path asks it with, says what "anything more" covers."""
    if spec.type != "text" or spec.enum_values:
        return None
    name, words = _words(spec.name), _words(f"{spec.name} {spec.description}")
    if _MESSAGE & set(name) and _POSTS & set(_words(context)):
        return rng.choice(NOTICES)  # the message to post: a notice a colleague would send
    pairs = _pairs(words)
    if _MORE & set(words) or {("anything", "else"), ("other", "notes")} & pairs:
        return _nothing_more(asked or spec.description)
    fault = fault_for(fixed) if _WRONG & set(words) else None
    if fault is not None:  # "what is wrong and where" for a lock: the fault, never a place
        return fault.what
    incident = incident_for(context, fixed)
    if incident is None:
        return None
    at = rng.randrange(len(incident.what))  # the same draw for what and where: one story
    if _WHERE & set(name) or "where" in _words(spec.description):
        return incident.where[at % len(incident.where)]
    described = any(w.startswith("descri") for w in name)
    if _WHAT & set(words) or ("what", "happened") in pairs or described:
        return incident.what[at]
    return None


def place_of_story(story: str, place: str) -> str | None:
    """The place of the incident whose telling `story` echoes most (its long words), where
    `place` is one an incident of the same kind gives: a caller who opens "Someone backed
    into my car" tells of a car park, never the highway a cracked windscreen was drawn on.
    None where `place` is no incident's, or no telling of its kind shares a word with it."""
    told = {w for w in _words(story) if len(w) > 3}
    for incident in INCIDENTS:
        if place not in incident.where:
            continue
        shared = [len(told & {w for w in _words(what) if len(w) > 3}) for what in incident.what]
        best = max(shared)
        if not best or shared.count(best) > 1:
            return None
        return incident.where[shared.index(best) % len(incident.where)]
    return None


def _nothing_more(description: str) -> str:
    """ "Anything to add?" answered as most people do: no witnesses, no report, nothing else
    (each named only where the field asks for it)."""
    parts = []
    words = set(_words(description))
    if words & {"witness", "witnesses"}:
        parts.append("there were no witnesses")
    if "police" in words:
        parts.append("I did not file a police report")
    if not parts:
        return "Nothing else to add."
    said = " and ".join(parts)
    return said[:1].upper() + said[1:] + "."


__all__ = [
    "FAULTS",
    "INCIDENTS",
    "NOTICES",
    "REASONS",
    "SITUATIONS",
    "Fault",
    "Incident",
    "Reason",
    "fault_for",
    "incident_for",
    "place_of_story",
    "reason_for",
    "situation_for",
    "told_value",
]
