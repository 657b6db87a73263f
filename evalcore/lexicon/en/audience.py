"""How an agent's prose says who talks to it (`evalcore.testdata._audience_list`,
`evalcore.testdata._people`): the list of its callers ("Callers are members, parents
who pay the fees ..."), the people it helps or serves, and the words that name
people by what they do. The personas a case's user plays are drawn from what these read,
so a miss gives a generic "customer" where the agent named its own people."""

from __future__ import annotations

import re

from .. import phrase

# --- the agent's list of its callers --------------------------------------------------------

#: "Callers are ...", "The people talking to you are ...", "Your users are ...".
CALLER_LIST = phrase(
    "en.audience.caller_list",
    r"\b(?:callers|users|customers|clients|members|visitors|"
    r"(?:the\s+)?people\s+(?:who\s+\w+\s+(?:to\s+)?you|talking\s+to\s+you|you\s+\w+(?:\s+(?:to|with))?)|"
    r"those\s+who\s+\w+(?:\s+to)?\s+you)"
    r"\s+(?:here\s+)?are\s+(?:mostly\s+|usually\s+|often\s+)?(?P<list>[^.;:]+)",
    re.I,
    matches=(
        "Callers are members and parents.",
        "The people talking to you are mostly retirees.",
        "Those who write to you are nurses.",
    ),
    misses=("Callers ask about their bills.", "The people are friendly."),
)
#: "Two kinds of people talk to you: library members on the website chat, and branch staff".
CALLER_KINDS = phrase(
    "en.audience.caller_kinds",
    r"\b(?:kinds?|types?|groups?)\s+of\s+(?:people|users|callers|customers)\b[^.;:]*:\s*"
    r"(?P<list>[^.;:]+)",
    re.I,
    matches=("Two kinds of people talk to you: members and staff",),
    misses=("Two kinds of plans: basic and plus", "Groups of people visit. Members: ten"),
)
#: Where one item of such a list ends and the next begins (", and", " or ").
LIST_ITEMS = phrase(
    "en.audience.list_items",
    r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+",
    matches=("members, and parents", "members or parents"),
    misses=("members/parents", "members"),
)
#: Where an item's head (who they are) ends and what describes them begins.
ITEM_TAIL = phrase(
    "en.audience.item_tail",
    r"\s+(?:who|whose|with|on|at|in|from|that|for|of|[a-z]{2,}ing)\b",
    matches=("parents who pay the fees", "painters using the app", "staff at the desk"),
    misses=("card holders", "team leaders"),
)
#: "with the odd plumber", "and the occasional courier": one kind of person, named singly.
NOW_AND_THEN = phrase(
    "en.audience.now_and_then",
    r"^(?:(?:with|plus|also)\s+)?(?:the\s+odd|the\s+occasional|an?\s+occasional|the\s+rare|"
    r"some|a\s+few)\s+",
    matches=("with the odd plumber", "the occasional courier", "a few teachers"),
    misses=("couriers, occasionally", "the oddest request"),
)
#: "who pay", "that run": the verb of an item's description (to say it of one person).
WHO_VERB = phrase(
    "en.audience.who_verb",
    r"\b(who|that)\s+([a-z]+)\b",
    matches=("parents who pay the fees", "firms that run shops"),
    misses=("parents paying the fees", "whoever calls"),
)
#: A list item's head in the plural, as a list of people names them ("card holders").
PLURAL_PEOPLE = phrase(
    "en.audience.plural_people",
    r"(?:[^s]s|men|staff)$",
    matches=("card holders", "firemen", "branch staff"),
    misses=("nurse", "address", "older"),
)

# --- the people the agent serves, and person words ----------------------------------------

#: "helps members", "serving the parents", "used by riders": who the agent is for.
SERVES = phrase(
    "en.audience.serves",
    r"\b(?:helps?|helping|assists?|assisting|supports?|supporting|serves?|serving|answers?|"
    r"answering|talks? to|works? with|for|used by)\s+(?:our\s+|the\s+|its\s+|your\s+|their\s+)?"
    r"(?P<who>[a-z][a-z-]+(?:\s[a-z][a-z-]+)?)",
    re.I,
    matches=("You help our members with loans.", "An assistant used by riders"),
    misses=("The bank opens at nine.", "Helpful staff"),
)
#: "riders write to you from the app": the people as the subject of talking to the agent
#: (the text lower case).
WRITERS = phrase(
    "en.audience.writers",
    r"(?:^|[.;:!?]\s+|\band\s+)(?P<who>[a-z][a-z-]+(?:\s[a-z][a-z-]+)?)\s+"
    r"(?:write|talk|speak|chat|message|come)\s+to\s+you\b",
    matches=("riders write to you from the app.", "staff and parents talk to you"),
    misses=("you write to riders.", "riders write to the office."),
)
#: A word that names people by what they do: "painters", "nurses", "accountants".
PERSON_WORD = phrase(
    "en.audience.person_word",
    r"(?:[a-z]{2,}(?:er|or|ist|ian|ee|ant|ent|man|woman)|staff|crew|nurse|executive)s?$",
    matches=("painters", "nurse", "accountants", "librarian"),
    misses=("invoice", "bills"),
)
#: ... and words of that shape that do not ("orders", "payments", "monitors").
THINGS = phrase(
    "en.audience.things",
    r"(?:ment|order|number|answer|matter|letter|paper|offer|water|transfer|register|computer|"
    r"counter|filter|folder|printer|reminder|server|error|sensor|monitor|calendar|event|"
    r"content|incident|element|component|agent|parent|percent|patent|talent|shipper|"
    r"factor|floor|door|color|colour|vendor|behavior|behaviour|question|container|"
    r"cluster|router|trailer|timer|poster|barrier|assistant)s?$",
    matches=("payments", "orders", "monitor"),
    misses=("painters", "accountants"),
)
