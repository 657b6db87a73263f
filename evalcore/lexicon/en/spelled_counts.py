"""How a description spells a count (`evalcore.testdata._values`,
`evalcore.testdata._branch_fit`): "X followed by five digits", "tok_ followed by 12
characters", "a four-digit PIN", "at most 7 days after", "valid three months past the
end date". The count is a numeral or one of `NUMBER_WORDS`; the drafted value or day
takes exactly that many digits, characters, days or months."""

from __future__ import annotations

import re

from .. import phrase

#: The counts written as words, each with its number.
NUMBER_WORDS: dict[str, int] = {
    w: n
    for n, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        ]
    )
}
_WORDS = "|".join(NUMBER_WORDS)

#: A code a description spells as letters and a count of digits ("X followed by four
#: digits", "TK- then 6 digits").
FOLLOWED_BY_DIGITS = phrase(
    "en.spelled_counts.followed_by_digits",
    r"\b(?P<prefix>[A-Z]{1,5}-?)\s*(?:followed by|then|and)\s+(?P<count>\d{1,2}|"
    + _WORDS
    + r")\s+digits",
    re.I,
    matches=("X followed by four digits", "The ticket, TK- then 6 digits"),
    misses=("Two digits", "X followed by letters"),
)
#: A token id a description spells as a prefix and a length of letters and digits ("tok_
#: followed by 12 characters", "key_ and 10 characters"): what a service hands out.
TOKEN_SHAPE = phrase(
    "en.spelled_counts.token_shape",
    r"(?<![\w-])(?P<prefix>[A-Za-z]{1,6}[-_])\s*(?:followed by|then|and)\s+(?P<count>\d{1,2}|"
    + _WORDS
    + r")\s+(?:alphanumeric\s+)?characters\b",
    re.I,
    matches=("tok_ followed by 12 characters", "key_ and ten alphanumeric characters"),
    misses=("tok followed by 12 characters", "12 characters at most"),
)
#: "four-digit PIN", "6-digit code": a secret the user types as that many digits.
N_DIGITS = phrase(
    "en.spelled_counts.n_digits",
    r"\b(?P<count>\d{1,2}|" + _WORDS + r")[- ]digits?\b",
    re.I,
    matches=("a four-digit PIN", "the 6 digit code", "Six digits"),
    misses=("a digit or two", "twenty-digit"),
)
#: The longest a span may run, as the end's description states it ("at most 7 days after
#: the start", "no more than 14 days").
LONGEST_SPAN = phrase(
    "en.spelled_counts.longest_span",
    r"\b(?:at most|up to|no more than|not more than|within|maximum of|max(?:imum)?)\s+"
    r"(?P<count>\d{1,3}|" + _WORDS + r")\s+days?\b",
    re.I,
    matches=("At most 7 days after the start", "no more than 14 days", "within ten days"),
    misses=("7 days after the start", "up to 3 weeks"),
)
#: "must be valid three months past the end date": the months a date must reach beyond
#: another.
MONTHS_PAST = phrase(
    "en.spelled_counts.months_past",
    r"\b(?:must|has\s+to|needs?\s+to|should)\s+be\s+valid\s+(?:for\s+)?(?:at\s+least\s+)?"
    r"(?P<n>\d+|" + _WORDS + r")\s+months?\s+"
    r"(?:past|after|beyond)\b",
    re.I,
    matches=(
        "The card must be valid three months past the end date.",
        "It needs to be valid for at least 2 months after renewal",
    ),
    misses=("The card must be valid.", "valid three months past the date"),
)
