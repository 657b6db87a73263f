"""Values a skill's prose fixes for a memory field in so many words: a field set to a quoted
value on a branch ("Set customer_impact to "none reported""), a number rounded to whole
blocks ("round the hours up to 24 or 48")."""

from __future__ import annotations

import re

from .. import phrase

#: A field (`name`) set to a quoted value (`value`).
SET_LITERAL = phrase(
    "en.prose.set_literal",
    r"\bset\s+`?(?P<name>[a-z][a-z0-9_]*)`?\s+to\s+[\"\u201c](?P<value>[^\"\u201d]+)[\"\u201d]",
    re.I,
    matches=(
        'Do not ask about impact. Set customer_impact to "none reported" and move on.',
        "Set `queue` to \u201cbilling\u201d.",
    ),
    misses=("Set customer_impact from their answer.", "Set fix_attempted to true."),
)

#: What is rounded (`what`) and the numbers it is rounded to (`numbers`).
ROUNDED_TO = phrase(
    "en.prose.rounded_to",
    r"\bround(?:s|ed|ing)?\b(?P<what>[^.:;]{0,40}?)\bto\s+(?:a\s+)?(?:whole\s+)?"
    r"(?P<numbers>\d+(?:\.\d+)?(?:\s*(?:,|or|and)\s*\d+(?:\.\d+)?)*)",
    re.I,
    matches=(
        "Cryo-EM runs in 24-hour blocks: round the hours up to 24 or 48 and say so.",
        "Round the amount to 5, 10 or 20.",
    ),
    misses=("Cryo-EM runs in 24-hour blocks.", "Go round to the back door."),
)

#: A person saying a thing runs warm ("the reach-in fridge feels warm", "it's running
#: hot"): a temperature on the high side, whatever the reading.
RUNS_WARM = phrase(
    "en.prose.runs_warm",
    r"\b(?:feels?|is|seems?|gets?|runs?|running)\s+(?:too\s+|a\s+bit\s+|very\s+|really\s+)?"
    r"(?:warm|hot)(?:er)?\b",
    re.I,
    matches=("The reach-in fridge feels warm.", "The freezer is running hot."),
    misses=("The oven won't heat.", "Keep it warm until service."),
)

#: A person saying a thing runs cold ("the oven feels cold", "the walk-in is freezing").
RUNS_COLD = phrase(
    "en.prose.runs_cold",
    r"\b(?:feels?|is|seems?|gets?|runs?|running)\s+(?:too\s+|a\s+bit\s+|very\s+|really\s+)?"
    r"(?:cold|cool|freezing)(?:er)?\b",
    re.I,
    matches=("The oven feels cold.", "The hot well is running cool."),
    misses=("The fridge feels warm.", "Serve it cold."),
)

#: What a person says of a machine instead, where the reading the case gives is in range:
#: a fault no reading explains, so the reading and the story agree.
UNEXPLAINED_FAULT = "is making a loud rattling noise"
