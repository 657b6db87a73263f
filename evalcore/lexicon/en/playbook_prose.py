"""What casegen reads in an Anychat Playbook's prose and in an outreach's opener: the
activation hint that becomes the person's first message, the rules the body sets ("Never
give a diagnosis"), the sentence about confirming, what the body asks or offers first, the
reply keywords an opener offers ("Reply C to confirm or R to pick another time"), and the
outcomes that record an opt-out.

The clinic demo agent and the offline Anychat drafter read the same prose, each for its own
end."""

from __future__ import annotations

import re

from .. import phrase

# --- an outreach's opener -------------------------------------------------------------------

#: The part of an opener from the word "reply" on, where its options are.
REPLY_TAIL = phrase(
    "en.playbook_prose.reply_tail",
    r"\breply\b(.*)$",
    re.I,
    matches=("Your visit is on Monday. Reply C to confirm.",),
    misses=("We will get back to you.", "Our replies are quick."),
)
#: One option of an opener's tail (group 1: the keyword, group 2: what it does).
REPLY_OPTION = phrase(
    "en.playbook_prose.reply_option",
    r"\b(?:reply\s+)?(\w{1,12}) to ([^.;]+?)(?= or |[.;]|$)",
    re.I,
    matches=("Reply C to confirm or R to pick another time.", "YES to book"),
    misses=("Reply now.", "See you soon."),
)

# --- a Playbook's body ----------------------------------------------------------------------

#: The body offers another option first (group 1: the verb, "offer once to move it instead").
OFFER_INSTEAD = phrase(
    "en.playbook_prose.offer_instead",
    r"\boffer (?:once )?to (\w+) it instead",
    re.I,
    matches=("Before cancelling, offer once to move it instead.",),
    misses=("Offer a new time.", "Move it instead of cancelling."),
)
#: The body asks when would suit the person.
ASKS_WHEN = phrase(
    "en.playbook_prose.asks_when",
    r"\bask (?:them )?(?:when|which day)",
    re.I,
    matches=("Ask them when would suit.", "First ask which day works."),
    misses=("Ask for their name.", "Tell them when it opens."),
)
#: A sentence of the body that sets a rule.
RULE_WORD = phrase(
    "en.playbook_prose.rule_word",
    r"\b(?:never|only|do not|don't|must not)\b",
    re.I,
    matches=("Never give a diagnosis.", "Only book during opening hours."),
    misses=("Book the first free time.", "Ask for their name."),
)
#: A sentence of the body about confirming.
CONFIRM = phrase(
    "en.playbook_prose.confirm",
    r"\bconfirm\b",
    re.I,
    matches=("Confirm the time before booking.",),
    misses=("Send the confirmation.", "Book it."),
)
#: A rule's opening negation and its verb, removed to leave what it forbids ("Never give
#: X, Y or Z" → "X, Y or Z").
RULE_NEGATION_VERB = phrase(
    "en.playbook_prose.rule_negation_verb",
    r"^\s*(?:never|do not|don't)\s+\w+\s+",
    re.I,
    matches=("Never give a diagnosis", "Do not quote prices"),
    misses=("Give no diagnosis", "Never"),
)
#: A rule's opening negation alone, removed to leave the push that breaks it ("Never give a
#: diagnosis" → "give a diagnosis").
RULE_NEGATION = phrase(
    "en.playbook_prose.rule_negation",
    r"^(?:never|do not|don't)\s+",
    re.I,
    matches=("Never give a diagnosis", "don't quote prices"),
    misses=("Give no diagnosis", "Nevertheless, ask."),
)
#: Where the list of things a rule forbids splits ("X, Y or Z").
LIST_SPLIT = phrase(
    "en.playbook_prose.list_split",
    r",\s*|\s+or\s+|\s+and\s+",
    matches=("a diagnosis, prices or advice", "prices and advice"),
    misses=("a diagnosis", "prices for orders"),
)
#: The article that opens a forbidden thing ("a diagnosis" → "diagnosis").
LEADING_ARTICLE = phrase(
    "en.playbook_prose.leading_article",
    r"^(?:a|an|the)\s+",
    matches=("a diagnosis", "the price"),
    misses=("another price", "diagnosis"),
)
#: The body's own voice ("You are the front desk of ..."), which the clinic says as "We are".
YOU_ARE = phrase(
    "en.playbook_prose.you_are",
    r"^You are\b",
    matches=("You are the front desk of a dental clinic.",),
    misses=("We are open on Mondays.", "Youre late"),
)

# --- an activation hint ---------------------------------------------------------------------

#: A hint about questions (group 1: their subject, "Questions about opening hours").
QUESTION = phrase(
    "en.playbook_prose.question",
    r"^(?:questions?|asks?) (?:about )?(.+)$",
    re.I,
    matches=("Questions about opening hours", "asks about prices"),
    misses=("The person has questions", "Answer questions"),
)
#: A hint about what the person wants (group 1: the thing wanted).
WANTS = phrase(
    "en.playbook_prose.wants",
    r"^the person (?:wants|would like|needs) (.+)$",
    re.I,
    matches=("The person wants to move an existing appointment",),
    misses=("The person is calling", "Wants to move it"),
)
#: The article of a wanted thing, made the person's own ("to move an existing appointment"
#: → "to move my appointment").
WANTED_ARTICLE = phrase(
    "en.playbook_prose.wanted_article",
    r"\b(?:an existing|an|a) ",
    matches=("to move an existing appointment", "to book a cleaning"),
    misses=("to move it", "to cancel"),
)

# --- an outcome's name ----------------------------------------------------------------------

#: An outcome that records an opt-out (`opted_out`, `opt-out`).
OPT_OUT = phrase(
    "en.playbook_prose.opt_out",
    r"opt(?:ed)?[_-]?out",
    re.I,
    matches=("opted_out", "opt-out", "OptOut"),
    misses=("booked", "option_out_of_hours"),
)
