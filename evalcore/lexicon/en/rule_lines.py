"""What a skill's prose forbids or leaves to the agent: "Never read out the card id", "do
not promise a refund", "tell anyone the result", "you may ask for a rating"."""

from __future__ import annotations

import re

from .. import phrase

#: A prohibition and the act it forbids (`rule`), up to the clause's end; a colon that
#: gives a reason (": that is the adjuster's call") ends it, one inside a value does not.
NEVER_RULE = phrase(
    "en.rule_lines.never_rule",
    r"\b(?:never|do\s+not|don't|must\s+not|under\s+no\s+circumstances)\s+"
    r"(?P<rule>(?:[^.;:]|:(?!\s))+)",
    re.I,
    matches=("Never read out the internal card id.", "Do not promise a payout: wait."),
    misses=("Always read the card id back.", "Notes are not shown."),
)
#: A rule about giving something away (disclosing, reading out, a secret).
GIVING_AWAY = phrase(
    "en.rule_lines.giving_away",
    r"\b(disclose|reveal|read\s+out|share|give\s+out|leak|expose|pin|password|secret)\b",
    re.I,
    matches=("never read out the card id", "do not reveal the PIN"),
    misses=("never promise a refund", "do not spin the story"),
)
#: Telling, promising or showing something to other people ("tell anyone they may start").
TELL_ANYONE = phrase(
    "en.rule_lines.tell_anyone",
    r"\b(?P<verb>tell|promise|give|show|send|offer|quote)\s+(?:anyone|anybody|everyone|"
    r"someone|callers?|customers?|the\s+(?:caller|customer|user|patient|member)|them)\b",
    re.I,
    matches=("never tell anyone the result", "do not promise the customer a refund"),
    misses=("never tell a lie", "do not send the form twice"),
)
#: A question the prose leaves to the agent ("you may ask for a quick rating").
OPTIONAL_ASK = phrase(
    "en.rule_lines.optional_ask",
    r"\b(?:you|agent|they)\s+(?:may|might|could)\b|\boptional(?:ly)?\b|\bif you like\b",
    re.I,
    matches=("You may ask for a quick rating.", "Optionally ask for a phone number."),
    misses=("Ask for the claim number.", "They must confirm the address."),
)
#: "Never <act>", not a passive ("secret values are never shown") nor a quote after a verb
#: ("say "requested", never "done"").
NEVER_ACT = phrase(
    "en.rule_lines.never_act",
    r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )(?<!\bbe )(?<!\bbeen )"
    r"\bnever\s+(?![\"“'])([^.;]+)",
    re.I,
    matches=("Never read out the internal card id.",),
    misses=("Secret values are never shown here.", 'Say "requested", never "done".'),
)
#: A word that makes the prose before a step a condition on it ("only if", "unless").
CONDITION_WORD = phrase(
    "en.rule_lines.condition_word",
    r"\b(if|unless|when|once|only)\b",
    re.I,
    matches=("Only ask for the PIN if the card is lost.", "Unless they refuse, book it."),
    misses=("Ask for the date.", "Confirm the iffy address."),
)
