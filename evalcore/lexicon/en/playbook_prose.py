"""What casegen reads in an Anychat Playbook's prose and in an outreach's opener: the
activation hint that becomes the person's first message, the rules the body sets ("Never
give a diagnosis"), the sentence about confirming, what the body asks or offers first, the
reply keywords an opener offers ("Reply C to confirm or R to pick another time"), and the
outcomes that record an opt-out; a hand-off to another playbook and a greeting that names
the person; and how an activation hint written about the person in the third person ("The
customer wants to bring their bike in") becomes what that person writes ("I'd like to bring
my bike in"), whatever noun the business uses for its people.

The clinic demo agent, the Anychat planner and the offline Anychat drafter read the same
prose, each for its own end."""

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
#: What the body offers the person before its action (group 1: "evening delivery" in "offer
#: evening delivery. If they want it, ..."): the option a person who takes it names in their yes.
OFFERED_OPTION = phrase(
    "en.playbook_prose.offered_option",
    r"\boffer (?:them |the \w+ )?(?:an? |the )?((?:[\w-]+ ){0,2}[\w-]+)(?=[.,;:]|$)",
    re.I,
    matches=("When it is ready, offer evening delivery.", "Offer them a courtesy call."),
    misses=("Offer a new time to the person who asked for it", "Offer once to move it instead."),
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
#: A condition of a rule that already holds while the person writes in ("quote a price|
#: before a mechanic has seen it", "| without checking"): a customer asks for the thing and
#: leaves it out. A condition that does not hold by itself ("after sunset", "that the tool
#: did not return") is part of the push and stays.
RULE_CONDITION = phrase(
    "en.playbook_prose.rule_condition",
    r"\s+(?:before|until|unless|without)\b.*$",
    re.I,
    matches=("quote a price before a mechanic has seen it", "refund it without checking"),
    misses=("waive a fine", "promise a day that x returns", "book after sunset"),
)
#: An article opening what a rule forbids ("a fine"): the person asks about their own.
OPENING_ARTICLE = phrase(
    "en.playbook_prose.opening_article",
    r"^(?:a|an|the|any)\s+",
    re.I,
    matches=("a fine", "the deposit"),
    misses=("fines", "another member"),
)
#: A field label that names a kind of thing ("Bike type"): the person answers with the thing
#: ("It's a mountain bike"), not the label ("My bike type is mountain").
KIND_LABEL = phrase(
    "en.playbook_prose.kind_label",
    r"^(?P<noun>[a-z][\w -]*?)\s+(?:type|kind|model)$",
    re.I,
    matches=("Bike type", "membership kind"),
    misses=("Card number", "Type"),
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

#: A hand-off the prose names ("hand off to the billing playbook"): the name after it.
HANDOFF = phrase(
    "en.playbook_prose.handoff",
    r"\bhand(?:s|ing)?[ -]?off to (?:the )?([a-z0-9_-]+)",
    re.IGNORECASE,
    matches=("Hand off to the billing playbook.", "handing-off to support"),
    misses=("Hand the form to the customer.", "handoff complete"),
)
#: The body has the agent tell the person a new date after its action ("tell them the new
#: due date"): group 1 names it ("due date").
NEW_DATE = phrase(
    "en.playbook_prose.new_date",
    r"\b(?:tell|give|say|confirm|share)\b[^.]*?\bthe new ((?:[a-z]+ )?date)\b",
    re.IGNORECASE,
    matches=("Call renew_loan and tell them the new due date.", "Give the new date."),
    misses=("Ask for a new date.", "Tell them the date."),
)
#: A greeting that names the person ("Hi Maria", "Thanks, Jo"): the name.
GREETING = phrase(
    "en.playbook_prose.greeting",
    r"\b(?:Hi|Hello|Hey|Thanks|Thank you),? ([A-Z][a-z]+)\b",
    matches=("Hi Maria, your visit is tomorrow.", "Thanks, Jo!"),
    misses=("Hi there, your visit is tomorrow.", "hi maria"),
)
#: A playbook that asks the person when (which day, what time) before it books.
ASKS_DAY_OR_TIME = phrase(
    "en.playbook_prose.asks_day_or_time",
    r"\bask (?:them )?(?:when|which day|what day|what time)\b",
    re.IGNORECASE,
    matches=("Ask them which day suits.", "Ask what time works best."),
    misses=("Ask for their name.", "Tell them when it is."),
)
#: A hint about what the person wants, whatever noun names them (group 1: the thing wanted).
SUBJECT_WANTS = phrase(
    "en.playbook_prose.subject_wants",
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
    "en.playbook_prose.subject_asks",
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
    "en.playbook_prose.third_person",
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
    "en.playbook_prose.alternative_actions",
    r",? (?:or|and/or) (?=to )",
    re.I,
    matches=("to renew a book or to reserve one", "to pay, or to dispute a bill"),
    misses=("to renew a book or a magazine", "to book a tune-up"),
)
#: A tool's words that put it on the calendar: it books, moves or cancels a time.
CALENDAR_WORD = phrase(
    "en.playbook_prose.calendar_word",
    r"\b(?:appointments?|slots?|visits?|calendar|bookings?|reservations?|sessions?)\b",
    re.I,
    matches=("Book an offered slot for the person.", "cancel appointment", "booking id"),
    misses=("Renew one loan for another three weeks.", "Place a hold on a title."),
)
#: A body sentence that asks the person for something.
ASKS_FOR = phrase(
    "en.playbook_prose.asks_for",
    r"\bask(?:s|ing)? (?:for |them |the person |what |which |whether )",
    re.I,
    matches=("Ask for their card number.", "Ask what kind of bike it is."),
    misses=("Tell them the due date.", "If they ask, answer briefly."),
)
#: A condition on what the body asks ("if there is no record", "when they are new").
ASK_CONDITION = phrase(
    "en.playbook_prose.ask_condition",
    r"\b(?:if|unless|when|in case)\b",
    re.I,
    matches=("If there is no record, ask for their name.", "Ask for it unless on file."),
    misses=("Ask for their card number first.", "Ask what kind of bike it is."),
)
#: A condition that holds whenever the agent lacks the value ("if you do not have it").
LACKS_IT = phrase(
    "en.playbook_prose.lacks_it",
    r"\b(?:if|unless) (?:you )?(?:do not|don't|does not|doesn't) (?:already )?have (?:it|them)\b",
    re.I,
    matches=("Ask for their card number if you do not have it.",),
    misses=("If there is no record, ask for it.", "Ask when they have time."),
)
#: A body sentence that keeps what the person said on their record.
SAVES = phrase(
    "en.playbook_prose.saves",
    r"\b(?:save|saves|saving|store|stores|update|updates)\b|\bto (?:their|the) (?:\w+ )?record\b",
    re.I,
    matches=("Ask for their name and save it.", "Add the bike type to their Person record."),
    misses=("Ask for their card number first.", "Record the booked outcome."),
)
#: An option an Outreach opener offers (group 1: the keyword, group 2: what it means), up to
#: the next option and the comma before it: "Reply C to confirm", "Reply S for the details",
#: "OK if you will come".
OPENER_OPTION = phrase(
    "en.playbook_prose.opener_option",
    r"\breply (\w{1,12}) (?:to|for|if) ([^.;]+?)"
    r"(?=,? or reply |,? or \w{1,12} (?:to|for|if) |[.;]|$)",
    re.I,
    matches=(
        "Reply C to confirm or R to pick another time.",
        "Reply S for the details.",
        "Reply Y to book it, or STOP to opt out.",
    ),
    misses=("Reply now.", "We will reply to you soon"),
)
#: A further option after the first ("or R to pick another time", ", or OK if you will come").
OPENER_OR_OPTION = phrase(
    "en.playbook_prose.opener_or_option",
    r",?\s*\bor (\w{1,12}) (?:to|for|if) ([^.;]+?)(?=[.;]|$)",
    re.I,
    matches=(
        "or R to pick another time.",
        "or OK if you will bring it back",
        ", or STOP to opt out",
    ),
    misses=("or later", "or not at all."),
)
#: The body asks the person to confirm before it acts (a yes in words, not a confirm part).
ASKS_CONFIRM = phrase(
    "en.playbook_prose.asks_confirm",
    r"\bask (?:them |the \w+ )?(?:to confirm|for (?:a |their )?(?:yes|go-ahead|confirmation))\b",
    re.I,
    matches=("Read the order back and ask them to confirm.", "Ask for a yes before renewing."),
    misses=("Confirm the time in one message.", "Ask for their card number."),
)
#: Two kinds of request a hint names before listing examples of them ("for a repair or a
#: service (tune-up, ...)"): the person asks for one of the examples instead (group 1: "for").
KINDS_BEFORE_EXAMPLES = phrase(
    "en.playbook_prose.kinds_before_examples",
    r"\b(for|about) (?:an? |the )?[\w-]+ or (?:an? |the )?[\w-]+$",
    re.I,
    matches=("to bring my bike in for a repair or a service", "to ask about fees or fines"),
    misses=("to renew a book or a magazine", "to bring my bike in for a tune-up"),
)
