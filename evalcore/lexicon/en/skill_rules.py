"""The sentences of a skill's prose that forbid the agent something or leave it a choice:
a prohibition of saying something ("Never read out the full card number", "Do not promise a
refund date"), a rule every correct agent keeps in every conversation, as opposed to how it
works (a tool to call, a confirmation in its own words); the act a rule forbids ("never
transfer the call"); a question the prose leaves to the agent ("you may ask for a rating")."""

from __future__ import annotations

import re

from .. import phrase

#: A prohibition: never, do not, must not, under no circumstances, not allowed.
RULE = phrase(
    "en.skill_rules.prohibition",
    r"\b(never|do\s+not|don't|must\s+not|under\s+no\s+circumstances|not\s+allowed)\b",
    re.I,
    matches=("Never read out the full card number.", "You must not promise a date."),
    misses=("Read the total back to them.", "Confirm the address."),
)
#: A prohibition of saying or promising something (a verb of telling within three words).
DISCLOSE = phrase(
    "en.skill_rules.disclose",
    r"\b(?:never|not|under\s+no\s+circumstances)\s+(?:\w+\s+){0,3}?"
    r"(disclose|reveal|share|read\s+out|say|tell|give|show|expose|mention|repeat|spell|"
    r"confirm\s+which|promise|guarantee|invent|make\s+up|advise|recommend|diagnos)\w*",
    re.I,
    matches=("Never read out the full card number.", "Do not promise a refund date."),
    misses=("Never call the refund tool twice.", "Tell them the total."),
)
#: How the agent works rather than what it may say: a tool, a confirmation in its own
#: words, an order taken again.
MECHANICS = phrase(
    "en.skill_rules.mechanics",
    r"@tool\.|\bconfirm(ation)?\b.*\bown\s+words\b|\border\s+again\b",
    re.I,
    matches=(
        "Never repeat the summary; confirm it in your own words.",
        "Never call @tool.refund twice.",
        "Do not read the order again.",
    ),
    misses=("Never read out the full card number.", "Do not promise a refund date."),
)

#: A prohibition and the act it forbids (`rule`), up to the clause's end; a colon that
#: gives a reason (": that is the adjuster's call") ends it, one inside a value does not.
NEVER_RULE = phrase(
    "en.skill_rules.never_rule",
    r"\b(?:never|do\s+not|don't|must\s+not|under\s+no\s+circumstances)\s+"
    r"(?P<rule>(?:[^.;:]|:(?!\s))+)",
    re.I,
    matches=("Never read out the internal card id.", "Do not promise a payout: wait."),
    misses=("Always read the card id back.", "Notes are not shown."),
)
#: A rule about giving something away (disclosing, reading out, a secret).
GIVING_AWAY = phrase(
    "en.skill_rules.giving_away",
    r"\b(disclose|reveal|read\s+out|share|give\s+out|leak|expose|pin|password|secret)\b",
    re.I,
    matches=("never read out the card id", "do not reveal the PIN"),
    misses=("never promise a refund", "do not spin the story"),
)
#: Telling, promising or showing something to other people ("tell anyone they may start").
TELL_ANYONE = phrase(
    "en.skill_rules.tell_anyone",
    r"\b(?P<verb>tell|promise|give|show|send|offer|quote)\s+(?:anyone|anybody|everyone|"
    r"someone|callers?|customers?|the\s+(?:caller|customer|user|patient|member)|them)\b",
    re.I,
    matches=("never tell anyone the result", "do not promise the customer a refund"),
    misses=("never tell a lie", "do not send the form twice"),
)
#: A question the prose leaves to the agent ("you may ask for a quick rating").
OPTIONAL_ASK = phrase(
    "en.skill_rules.optional_ask",
    r"\b(?:you|agent|they)\s+(?:may|might|could)\b|\boptional(?:ly)?\b|\bif you like\b",
    re.I,
    matches=("You may ask for a quick rating.", "Optionally ask for a phone number."),
    misses=("Ask for the claim number.", "They must confirm the address."),
)
#: "Never <act>", not a passive ("secret values are never shown") nor a quote after a verb
#: ("say "requested", never "done"").
NEVER_ACT = phrase(
    "en.skill_rules.never_act",
    r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )(?<!\bbe )(?<!\bbeen )"
    r"\bnever\s+(?![\"“'])([^.;]+)",
    re.I,
    matches=("Never read out the internal card id.",),
    misses=("Secret values are never shown here.", 'Say "requested", never "done".'),
)
#: A word that makes the prose before a step a condition on it ("only if", "unless").
CONDITION_WORD = phrase(
    "en.skill_rules.condition_word",
    r"\b(if|unless|when|once|only)\b",
    re.I,
    matches=("Only ask for the PIN if the card is lost.", "Unless they refuse, book it."),
    misses=("Ask for the date.", "Confirm the iffy address."),
)
