"""How a Playbook's activation hint, written about the person in the third person ("The
customer wants to bring their bike in"), becomes what that person writes in the first person
("I'd like to bring my bike in"); and which action of a hint with alternatives ("to renew a
book or to reserve one") the person asks for.

The subject may be any noun the author uses for the person (customer, member, owner, caller),
so a hint reads the same whatever the business calls its people."""

from __future__ import annotations

import re

from .. import phrase

#: A hint about what the person wants, whatever noun names them (group 1: the thing wanted).
SUBJECT_WANTS = phrase(
    "en.playbook_voice.subject_wants",
    r"^(?:the|a|an) (?:[a-z-]+ ){1,2}?(?:wants|would like|needs|is looking) (?:for )?(.+)$",
    re.I,
    matches=(
        "The customer wants to bring their bike in",
        "The car owner needs an oil change",
        "The member would like to renew a book",
    ),
    misses=("The shop is open on Mondays", "Wants to move it", "Questions about fines"),
)
#: A hint about what the person asks (group 1: how the question opens, group 2: the rest).
SUBJECT_ASKS = phrase(
    "en.playbook_voice.subject_asks",
    r"^(?:the|a|an) (?:[a-z-]+ ){1,2}?(?:asks|wonders|wants to know) "
    r"(whether|if|how|when|what|where|why|which|about) (.+)$",
    re.I,
    matches=(
        "The customer asks whether their bike is ready",
        "A member asks about late fines",
    ),
    misses=("The customer wants a tune-up", "Asks whether it is ready"),
)
#: A third-person pronoun of the person, said by the person themselves (group 1).
THIRD_PERSON = phrase(
    "en.playbook_voice.third_person",
    r"\b(themselves|theirs|their|they're|they've|they|them)\b",
    re.I,
    matches=("bring their bike in", "a book they have on loan", "tell them"),
    misses=("bring my bike in", "the theme of the day", "then call us"),
)
#: The first-person word for each third-person pronoun above.
FIRST_PERSON = {
    "themselves": "myself",
    "theirs": "mine",
    "their": "my",
    "they're": "I'm",
    "they've": "I've",
    "they": "I",
    "them": "me",
}
#: Where a wanted thing splits into alternative actions ("to renew a book or to reserve one").
ALTERNATIVE_ACTIONS = phrase(
    "en.playbook_voice.alternative_actions",
    r",? (?:or|and/or) (?=to )",
    re.I,
    matches=("to renew a book or to reserve one", "to pay, or to dispute a bill"),
    misses=("to renew a book or a magazine", "to book a tune-up"),
)
#: A tool's words that put it on the calendar: it books, moves or cancels a time.
CALENDAR_WORD = phrase(
    "en.playbook_voice.calendar_word",
    r"\b(?:appointments?|slots?|visits?|calendar|bookings?|reservations?|sessions?)\b",
    re.I,
    matches=("Book an offered slot for the person.", "cancel appointment", "booking id"),
    misses=("Renew one loan for another three weeks.", "Place a hold on a title."),
)
#: A body sentence that asks the person for something.
ASKS_FOR = phrase(
    "en.playbook_voice.asks_for",
    r"\bask(?:s|ing)? (?:for |them |the person |what |which |whether )",
    re.I,
    matches=("Ask for their card number.", "Ask what kind of bike it is."),
    misses=("Tell them the due date.", "If they ask, answer briefly."),
)
#: A condition on what the body asks ("if there is no record", "when they are new").
ASK_CONDITION = phrase(
    "en.playbook_voice.ask_condition",
    r"\b(?:if|unless|when|in case)\b",
    re.I,
    matches=("If there is no record, ask for their name.", "Ask for it unless on file."),
    misses=("Ask for their card number first.", "Ask what kind of bike it is."),
)
#: A condition that holds whenever the agent lacks the value ("if you do not have it").
LACKS_IT = phrase(
    "en.playbook_voice.lacks_it",
    r"\b(?:if|unless) (?:you )?(?:do not|don't|does not|doesn't) (?:already )?have (?:it|them)\b",
    re.I,
    matches=("Ask for their card number if you do not have it.",),
    misses=("If there is no record, ask for it.", "Ask when they have time."),
)
#: A body sentence that keeps what the person said on their record.
SAVES = phrase(
    "en.playbook_voice.saves",
    r"\b(?:save|saves|saving|store|stores|update|updates)\b|\bto (?:their|the) (?:\w+ )?record\b",
    re.I,
    matches=("Ask for their name and save it.", "Add the bike type to their Person record."),
    misses=("Ask for their card number first.", "Record the booked outcome."),
)
#: An option an Outreach opener offers (group 1: the keyword, group 2: what it means), up to
#: the next option: "Reply C to confirm", "Reply S for the details", "OK if you will come".
OPENER_OPTION = phrase(
    "en.playbook_voice.opener_option",
    r"\breply (\w{1,12}) (?:to|for|if) ([^.;]+?)(?= or reply | or \w{1,12} (?:to|for|if) |[.;]|$)",
    re.I,
    matches=("Reply C to confirm or R to pick another time.", "Reply S for the details."),
    misses=("Reply now.", "We will reply to you soon"),
)
#: A further option after the first ("or R to pick another time", "or OK if you will come").
OPENER_OR_OPTION = phrase(
    "en.playbook_voice.opener_or_option",
    r"\bor (\w{1,12}) (?:to|for|if) ([^.;]+?)(?=[.;]|$)",
    re.I,
    matches=("or R to pick another time.", "or OK if you will bring it back"),
    misses=("or later", "or not at all."),
)
#: The body asks the person to confirm before it acts (a yes in words, not a confirm part).
ASKS_CONFIRM = phrase(
    "en.playbook_voice.asks_confirm",
    r"\bask (?:them |the \w+ )?(?:to confirm|for (?:a |their )?(?:yes|go-ahead|confirmation))\b",
    re.I,
    matches=("Read the order back and ask them to confirm.", "Ask for a yes before renewing."),
    misses=("Confirm the time in one message.", "Ask for their card number."),
)
