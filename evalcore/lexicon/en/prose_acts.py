"""What a skill's prose says the agent does with a value: sets a field itself or to what
the user picks, passes something to a call, presents what it read, leaves something out of
a hand-off summary, declines what the user does not own. The drafter reads them to know
which values a case may assert and which it must leave open."""

from __future__ import annotations

import re

from .. import phrase


def _sets_field_source(name: str) -> str:
    return rf"\bset\b[^.!?]*\b{re.escape(name)}\b"


phrase(
    "en.prose_acts.sets_field",
    _sets_field_source("device_label"),
    re.I,
    matches=("Set selected_device_id to the full id and device_label to the model name",),
    misses=("Read the device_label aloud", "Set the device_id"),
)


def sets_field(name: str) -> re.Pattern[str]:
    """A sentence in which the model sets the field `name` itself ("Set x to …",
    `en.prose_acts.sets_field`)."""
    return re.compile(_sets_field_source(name), re.I)


#: "… they pick", "… the caller chooses": the user's own choice among offered options.
_PICKS = (
    r"(?:they|the\s+(?:user|caller|customer|passenger|patient|resident))"
    r"\s+(?:pick|choose|select)s?\b"
)


def _set_to_pick_source(name: str) -> str:
    return rf"\bset\s+(?:@memory\.\w+\.)?{re.escape(name)}\s+(?:to|from)\s+[^.;]*?{_PICKS}"


phrase(
    "en.prose_acts.set_to_pick",
    _set_to_pick_source("new_flight"),
    re.I,
    matches=(
        "set new_flight to the flight number they pick",
        "Set @memory.rebook.new_flight from the slot the caller chooses",
    ),
    misses=("set new_flight to the first flight", "set new_flight. They pick a seat"),
)


def set_to_pick(name: str) -> re.Pattern[str]:
    """ "set <name> to/from … they pick": the field holds the user's choice
    (`en.prose_acts.set_to_pick`)."""
    return re.compile(_set_to_pick_source(name), re.I)


#: What a hand-off summary must leave out ("… without card numbers or dates of birth.").
SUMMARY_WITHOUT = phrase(
    "en.prose_acts.summary_without",
    r"\bwithout ((?:card numbers|dates of birth|[\w ,]+?)(?: or [\w ]+?)?)[.)]",
    matches=("Write a summary without card numbers.", "(without any account details)"),
    misses=("Write a summary with the order number.", "without delay"),
)
#: A skill text that speaks of a summary.
SUMMARY = phrase(
    "en.prose_acts.summary",
    r"summary",
    re.I,
    matches=("Write a short Summary for the person",),
    misses=("Sum it up for the person",),
)
#: What a call's sentence passes: "call trace_bag with the tag", "passing the store, …".
PASSING = phrase(
    "en.prose_acts.passing",
    r"\b(?:with|passing)\s+(?:the\s+|their\s+|its\s+)?(?P<what>[^.;:(]+)",
    re.I,
    matches=("call trace_bag with the tag", "passing the store name"),
    misses=("call trace_bag now.", "without a tag"),
)
#: "For meetings the executive does not own, decline instead: call respond_to_invite".
NOT_OWNED = phrase(
    "en.prose_acts.not_owned",
    r"\b(?:for|with)\s+(?P<things>[a-z][a-z ]{2,40}?)\s+(?:that\s+)?(?:the\s+[a-z]+|they|you)\s+"
    r"(?:does|do)\s+not\s+(?P<verb>own|organi[sz]e|manage|run|lead)\b[^,.;]*,\s*(?P<other>[^.]*)",
    re.IGNORECASE,
    matches=("For meetings the executive does not own, decline instead: call respond_to_invite",),
    misses=("For meetings the executive owns, accept them.",),
)
#: A paragraph that tells the agent to say what it read.
PRESENTS = phrase(
    "en.prose_acts.presents",
    r"\b(?:present|list|read\s+(?:out|back)|tell|give|say|mention|explain|summari[sz]e)\b",
    re.IGNORECASE,
    matches=("Read out the balance.", "Summarize the open orders."),
    misses=("Look up the balance.", "Check the listed orders."),
)
