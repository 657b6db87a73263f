"""How a Playbook's body makes an action wait for a record's state ("Never arrange delivery
of an order that is not ready", "Refund only when the parcel is returned"): a status desk
that can then act must find the record in the state the rule names before it acts, so a
case that expects the action stubs that state, and one whose state forbids it expects the
action not to happen. Also how a tool's parameter description shows the format of an id
("The ticket number printed on the receipt, e.g. A-2291"), which the person's ids follow."""

from __future__ import annotations

import re

from .. import phrase

#: A sentence that lets an action happen only in one state of a record.
STATE_GATE = phrase(
    "en.gated_actions.state_gate",
    r"\b(?:never|do not|don't|must not)\b[^.]*\b(?:is|are|has|have)\s+not\b"
    r"|\bonly\s+(?:when|if|once|after)\b",
    re.I,
    matches=(
        "Never arrange delivery of an order that is not ready.",
        "Refund a parcel only once it is returned.",
        "Do not ship a watch that has not been serviced.",
    ),
    misses=("Never quote a price.", "When the order is ready, offer delivery."),
)
#: The example value a parameter's description shows: "e.g. A-2291", "for example 7-0042".
SHOWN_VALUE = phrase(
    "en.gated_actions.shown_value",
    r"\b(?:e\.g\.|eg\.|for example|such as|like)\s*[:,]?\s*"
    r"(?P<value>[A-Z0-9][A-Za-z0-9]*(?:[-/][A-Za-z0-9]+)+|[A-Z]{1,3}\d{2,}|\d{3,})",
    re.I,
    matches=("The ticket number printed on the receipt, e.g. A-2291.", "for example BK-204"),
    misses=("The ticket number printed on the receipt.", "e.g. the blue one"),
)
#: A status tool's description saying it returns the day of a state: "with the day it is or
#: will be ready" (`state`: the state whose day it is).
RETURNS_DAY = phrase(
    "en.gated_actions.returns_day",
    r"\bwith the (?:day|date)\b[^.;()]*?\b(?:is|be|was)\s+(?!or\b)(?P<state>[a-z]+)\b",
    re.I,
    matches=("with the day it is or will be ready", "with the date it will be done"),
    misses=("Returns the slots, each with an id.", "with the day"),
)
