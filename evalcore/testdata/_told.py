"""What a person says for a free-text field that no record, list or format gives: what
happened, where it happened, whether there is anything to add, and the message to post.

A claim, a report or a complaint asks "what happened and what caused the damage"; a user who
cannot answer leaves the conversation short of its goal. The answer is an everyday incident
of the kind the conversation is about (a dented bumper for a car, a burst pipe for a home),
chosen by the words of the case's fixed values first (the policy the path picked), then the
skill's own text, and drawn by the case's seeded rng. Nothing fits: None, never filler.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from ._values import FieldSpec


@dataclass(frozen=True)
class Incident:
    """Incidents of one kind: the words that say the kind, and what a person tells of one."""

    topic: re.Pattern[str]
    what: tuple[str, ...]
    where: tuple[str, ...]


INCIDENTS = (
    Incident(
        re.compile(r"\b(?:car|cars|auto|automobile|vehicles?|motor|driv\w*|bumper)\b", re.I),
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
        re.compile(r"\b(?:bikes?|bicycles?|cycl\w*|e-?bikes?|scooters?)\b", re.I),
        (
            "A car door opened in front of me and I crashed my bike; the front wheel is bent.",
            "My bike was knocked over in the rack at the station and the derailleur snapped.",
        ),
        ("on Harbour Road near the bakery", "the bike rack at the central station"),
    ),
    Incident(
        re.compile(
            r"\b(?:home|homes|homeowners?|house|household|property|apartment|flat|roof)\b", re.I
        ),
        (
            "A pipe burst under the kitchen sink and flooded the kitchen floor.",
            "A storm blew tiles off the roof and rain came through the bedroom ceiling.",
            "Someone broke in through the back door and took a laptop and some jewellery.",
        ),
        ("at home, in the kitchen", "at my house on Oak Avenue", "at home, at the back door"),
    ),
    Incident(
        re.compile(r"\b(?:travel|trips?|flights?|luggage|baggage|suitcase)\b", re.I),
        (
            "My suitcase did not arrive after my flight home and the airline cannot find it.",
            "I fell ill on holiday and had to cut the trip short.",
        ),
        ("at the airport", "on holiday in Lisbon"),
    ),
    Incident(
        re.compile(r"\b(?:pets?|dogs?|cats?|vet|veterinary)\b", re.I),
        (
            "My dog ate something in the park and needed treatment at the vet.",
            "My cat hurt her leg jumping off the balcony.",
        ),
        ("in the park near my house", "at home"),
    ),
    Incident(
        re.compile(r"\b(?:phones?|laptops?|devices?|screens?|gadgets?|tablets?)\b", re.I),
        (
            "I dropped my phone on the pavement and the screen cracked.",
            "Water got into my laptop and it no longer turns on.",
        ),
        ("on the street outside my office", "at home"),
    ),
    Incident(
        re.compile(r"\b(?:parcels?|packages?|deliver\w*|shipments?)\b", re.I),
        (
            "The parcel arrived with the box crushed and the item inside broken.",
            "The delivery never arrived although the tracking says it was delivered.",
        ),
        ("at my front door", "at the parcel locker down the road"),
    ),
)

#: Short notices a person posts to a team channel or notice board.
NOTICES = (
    "Reminder: the team lunch moves to Thursday at 12:30.",
    "The third-floor kitchen is closed for cleaning on Friday afternoon.",
    "Welcome to the two colleagues who joined our team this week!",
)
#: A skill that posts or announces a message the user gives (a channel, a board).
_POSTS = re.compile(r"\b(?:post|posts|posting|announce\w*|broadcast\w*|channels?)\b", re.I)
#: A field that is the text of a message (`message_text`, `announcement`).
_MESSAGE = re.compile(r"(?:^|_)(?:message|announcement|notice|post)(?:_text)?(?:_|$)", re.I)

#: A field that asks what happened (not why someone calls, nor a note).
_WHAT = re.compile(r"what happened|\bincident\b|\bdamage\b|\baccident\b|\bloss\b|\bcaused?\b", re.I)
#: A field that asks where something happened.
_WHERE = re.compile(r"(?:^|_|\b)(?:location|place|where)(?:_|\b|$)", re.I)
#: A field for anything more the person wants on file.
_MORE = re.compile(
    r"\badditional\b|\bextra\b|\bfurther\b|\bother notes\b|\banything else\b|\bwitness", re.I
)


def incident_for(context: str, fixed: str = "") -> Incident | None:
    """The kind of incident `fixed` (the case's chosen values) names, else the one `context`
    (the skill's text) names most often; None when neither names one."""
    for text in (fixed, context):
        counts = [(len(i.topic.findall(text)), n) for n, i in enumerate(INCIDENTS)]
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
    words = f"{spec.name.replace('_', ' ')} {spec.description}"
    if _MESSAGE.search(spec.name) and _POSTS.search(context):
        return rng.choice(NOTICES)  # the message to post: a notice a colleague would send
    if _MORE.search(words):
        return _nothing_more(asked or spec.description)
    incident = incident_for(context, fixed)
    if incident is None:
        return None
    at = rng.randrange(len(incident.what))  # the same draw for what and where: one story
    if _WHERE.search(spec.name) or re.search(r"\bwhere\b", spec.description, re.I):
        return incident.where[at % len(incident.where)]
    if _WHAT.search(words) or re.search(r"descri", spec.name, re.I):
        return incident.what[at]
    return None


def _nothing_more(description: str) -> str:
    """ "Anything to add?" answered as most people do: no witnesses, no report, nothing else
    (each named only where the field asks for it)."""
    parts = []
    if re.search(r"witness", description, re.I):
        parts.append("there were no witnesses")
    if re.search(r"police", description, re.I):
        parts.append("I did not file a police report")
    if not parts:
        return "Nothing else to add."
    said = " and ".join(parts)
    return said[:1].upper() + said[1:] + "."


__all__ = ["INCIDENTS", "NOTICES", "Incident", "incident_for", "told_value"]
