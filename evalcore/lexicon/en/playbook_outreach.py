"""What an Anychat playbook and its outreach say in words: a hand-off to another
playbook, the replies an opener offers ("Reply C to confirm or R to pick another time"),
an opt-out outcome, and a greeting that names the person."""

from __future__ import annotations

import re

from .. import phrase

#: A hand-off the prose names ("hand off to the billing playbook"): the name after it.
HANDOFF = phrase(
    "en.playbook_outreach.handoff",
    r"\bhand(?:s|ing)?[ -]?off to (?:the )?([a-z0-9_-]+)",
    re.IGNORECASE,
    matches=("Hand off to the billing playbook.", "handing-off to support"),
    misses=("Hand the form to the customer.", "handoff complete"),
)
#: The first reply an opener offers ("Reply C to confirm"): the key and what it does.
REPLY_OPTION = phrase(
    "en.playbook_outreach.reply_option",
    r"\breply (\w{1,12}) to ([^.;]+?)(?= or reply | or \w{1,12} to |[.;]|$)",
    re.IGNORECASE,
    matches=("Reply C to confirm or R to pick another time.", "Reply YES to keep it."),
    misses=("We will reply to you soon.", "Replying to this message."),
)
#: Another reply after the first ("or R to pick another time").
OR_OPTION = phrase(
    "en.playbook_outreach.or_option",
    r"\bor (\w{1,12}) to ([^.;]+?)(?=[.;]|$)",
    re.IGNORECASE,
    matches=("or R to pick another time.",),
    misses=("or later", "Reply C to confirm."),
)
#: An outcome that records the person opting out (`opted_out`, `opt-out`).
OPT_OUT = phrase(
    "en.playbook_outreach.opt_out",
    r"opt(?:ed)?[_-]?out",
    re.IGNORECASE,
    matches=("opted_out", "OPT-OUT"),
    misses=("option_chosen", "opened"),
)
#: A greeting that names the person ("Hi Maria", "Thanks, Jo"): the name.
GREETING = phrase(
    "en.playbook_outreach.greeting",
    r"\b(?:Hi|Hello|Hey|Thanks|Thank you),? ([A-Z][a-z]+)\b",
    matches=("Hi Maria, your visit is tomorrow.", "Thanks, Jo!"),
    misses=("Hi there, your visit is tomorrow.", "hi maria"),
)
#: A playbook that asks the person when (which day, what time) before it books.
ASKS_WHEN = phrase(
    "en.playbook_outreach.asks_when",
    r"\bask (?:them )?(?:when|which day|what day|what time)\b",
    re.IGNORECASE,
    matches=("Ask them which day suits.", "Ask what time works best."),
    misses=("Ask for their name.", "Tell them when it is."),
)
#: What a playbook offers to do instead ("offer once to move it instead"): the verb.
OFFERS_INSTEAD = phrase(
    "en.playbook_outreach.offers_instead",
    r"\boffer (?:once )?to (\w+) it instead",
    re.IGNORECASE,
    matches=("Offer once to move it instead of cancelling.",),
    misses=("Offer to move it.", "Move it instead."),
)
