"""What a memory field's name and description say it holds: money, a phone number, the
channel a call came in on, an example value ("for example "ACME-1042"")."""

from __future__ import annotations

import re

from .. import phrase

#: A field about money (its name or description), so a number reads as an amount.
MONEY = phrase(
    "en.field_words.money",
    r"amount|price|cost|fee|charge|pay",
    re.I,
    matches=("refund_amount", "The delivery fee in dollars"),
    misses=("party_size", "Number of nights"),
)
#: An example value the description quotes ("for example "ACME-1042"").
EXAMPLE = phrase(
    "en.field_words.example",
    r"(?:for\s+example|e\.g\.|such\s+as)\s*,?\s*[\"“]([^\"”]+)[\"”]",
    re.I,
    matches=('The order number, for example "ACME-1042".', "A city, e.g. “Lisbon”."),
    misses=("The order number on the receipt.", "For example, a city."),
)
#: The suffix of an id-like field name (`order_id`, `plan_code`), cut to find its siblings.
ID_SUFFIX = phrase(
    "en.field_words.id_suffix",
    r"_(?:id|label|name|ref|reference|code)$",
    matches=("order_id", "plan_code"),
    misses=("order_status", "identity"),
)
#: A field the channel knows before the conversation (the caller's phone, language, region).
CHANNEL = phrase(
    "en.field_words.channel",
    r"phone|language|locale|channel|country|time_?zone|region|market",
    re.I,
    matches=("caller_phone", "preferred_language", "timezone"),
    misses=("order_id", "delivery_address"),
)
#: A field named as the caller's phone number (`caller_phone`, `mobile`, `ani`).
PHONE_NAME = phrase(
    "en.field_words.phone_name",
    r"phone|mobile|msisdn|^(?:caller_?(?:number|id)|ani)$",
    matches=("caller_phone", "mobile", "ani"),
    misses=("animal", "order_number"),
)
#: A description that says the field holds a phone number.
PHONE_WORDS = phrase(
    "en.field_words.phone_words",
    r"\bE\.164\b|\bphone number\b|\bnumber the call(?:er)? came from\b",
    re.I,
    matches=("The caller's number in E.164 form.", "The number the call came from."),
    misses=("The order number.", "A phone model."),
)
#: A value named by its own words, not negated ("swap", "swap's"; not "not swap", "no
#: swap"); `own_words` puts the value's words where `{words}` is.
_OWN_WORDS = r"(?<![\w'])(?<!not )(?<!no ){words}(?!\w)"
phrase(
    "en.field_words.own_words",
    _OWN_WORDS.format(words=r"swap"),
    re.I,
    matches=("I'd like to swap my shift.", "The swap's date moved.", "Swap, please."),
    misses=("I do not swap shifts.", "No swap this week.", "swapping", "reswap"),
)


def own_words(words: str) -> re.Pattern[str]:
    """The pattern for a value whose words are `words` (a regex: the words escaped and
    joined), matched case-blind and never after "not"/"no" (see `en.field_words.own_words`)."""
    return re.compile(_OWN_WORDS.format(words=words), re.I)
