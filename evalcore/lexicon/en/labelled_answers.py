"""A user's answer that gives several details in one message ("My date of birth is 9 May
1980 and my postcode is 73301."), read part by part so that each detail is taken from its
own part instead of from the whole message."""

from __future__ import annotations

import re

from .. import phrase

#: One labelled part: "my <label> is <value>", up to the next ", my" / "and my".
PART = phrase(
    "en.labelled_answers.part",
    r"(?:^|,\s*|\s+and\s+)my\s+(?P<label>[^,]+?)\s+is\s+(?P<value>.+?)"
    r"(?=,\s*my\s|\s+and\s+my\s|$)",
    re.I,
    matches=("My date of birth is 9 May 1980 and my postcode is 73301", "my name is Ana"),
    misses=("The postcode is 73301", "It is mine"),
)
