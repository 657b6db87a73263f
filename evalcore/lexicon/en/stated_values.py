"""A value the user states by its field's name in a message ("The service is checkout-api."),
read for a field set "from the request" that the opening message names outright."""

from __future__ import annotations

import re

from .. import phrase


def _named_value_source(words: str) -> str:
    return rf"\bthe {re.escape(words)} is ([^\s,;]+?)\.?(?:\s|$)"


phrase(
    "en.stated_values.named",
    _named_value_source("service"),
    re.I,
    matches=("The service is checkout-api.", "Hi, the service is search and it is down"),
    misses=("The service was checkout-api.", "the services is x", "Which service is it?"),
)


def named_value(words: str) -> re.Pattern[str]:
    """`the <words> is <value>`, the value (one token) as group 1, case-blind
    (`en.stated_values.named`); `words` as they are written, escaped here."""
    return re.compile(_named_value_source(words), re.I)
