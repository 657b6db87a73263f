"""Known-good test accounts for offline Mantle drafts ("reuse known-good test data", §5).

The customers are test accounts: the in-repo `demo:bank` agent's backend holds exactly these
records (and a staging backend for a real deployment would be seeded with them), so a drafted
scenario that says "my date of birth is 14 March 1986, postcode 94110" verifies against the
caller phone it seeds. Two accounts exist for behaviours that need the backend to answer
differently: on `FAILING` every write tool returns an error, on `NEGATIVE` every check comes
back negative (a card cannot be replaced, a dispute cannot be opened).

They are used when a case seeds a caller phone (the account the phone resolves to gives the
identity details and the persona's first name); everything else about the person and the
values comes from `evalcore.testdata`. Choices are deterministic: a stable hash of the
behaviour id picks the account and the unrelated request.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Customer:
    name: str
    phone: str
    """E.164, seeded as the caller phone."""
    date_of_birth: str
    """As the customer says it."""
    postcode: str
    email: str


CUSTOMERS = (
    Customer("Priya", "+15550142", "14 March 1986", "94110", "priya.n@example.com"),
    Customer("Marcus", "+15550177", "2 July 1979", "60614", "marcus.b@example.com"),
    Customer("Tomás", "+15550123", "30 November 1992", "73301", "tomas.r@example.com"),
    Customer("Grace", "+15550199", "9 September 1968", "02139", "grace.o@example.com"),
    Customer("Amara", "+15550108", "23 April 1995", "98103", "amara.k@example.com"),
)
#: The test account whose write tools fail (order, dispute and transfer calls error).
FAILING = Customer("Jonas", "+15550150", "5 May 1975", "30301", "jonas.w@example.com")
#: The test account whose checks come back negative (not eligible, dispute not opened).
NEGATIVE = Customer("Lena", "+15550161", "17 October 1983", "80202", "lena.m@example.com")

#: Requests no skill of a customer-service agent handles (out-of-scope turns).
UNRELATED = (
    "By the way, can you recommend a good film for tonight?",
    "Quick question: what's the weather going to be like tomorrow?",
    "Can you help me write a birthday poem for my sister?",
    "Do you know a good recipe for lasagne?",
)


def pick(key: str, options: tuple, salt: str = "") -> object:
    """A stable choice from `options` for `key` (sha256, never Python's salted hash)."""
    digest = hashlib.sha256(f"{salt}:{key}".encode()).digest()
    return options[int.from_bytes(digest[:4], "big") % len(options)]


def customer_for(behavior_id: str, account: str | None) -> Customer:
    if account == "failing":
        return FAILING
    if account == "negative":
        return NEGATIVE
    chosen = pick(behavior_id, CUSTOMERS, "customer")
    assert isinstance(chosen, Customer)
    return chosen


def unrelated_for(behavior_id: str) -> str:
    return str(pick(behavior_id, UNRELATED, "unrelated"))


def detail_value(customer: Customer, detail: str) -> str | None:
    """What the customer says for one identity detail the prose asks for."""
    lowered = detail.lower()
    if "birth" in lowered or lowered in ("dob", "birthday"):
        return customer.date_of_birth
    if "post" in lowered or "zip" in lowered:
        return customer.postcode
    if "phone" in lowered or "mobile" in lowered:
        return customer.phone
    if "mail" in lowered:
        return customer.email
    if "name" in lowered:
        return customer.name
    return None


#: Words of an identity detail that say its shape, not what it is ("the four-digit PIN").
_SHAPE_WORDS = re.compile(
    r"^(?:the|a|an|their|your|his|her|its|\w+-digit|digits?|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|\d+)$"
)


def detail_name(detail: str) -> str:
    """The field name an identity detail is ("the four-digit PIN" -> `pin`, "card number"
    -> `card_number`), as the project's records name it."""
    words = re.findall(r"[a-z0-9][a-z0-9-]*", detail.lower())
    kept = [w for w in words if not _SHAPE_WORDS.match(w)] or words
    return "_".join(kept)


__all__ = [
    "CUSTOMERS",
    "FAILING",
    "NEGATIVE",
    "UNRELATED",
    "Customer",
    "customer_for",
    "detail_name",
    "detail_value",
    "pick",
    "unrelated_for",
]
