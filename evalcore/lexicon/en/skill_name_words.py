"""Words of a skill's name read as what a person asks for ("Replace a card" -> `want to
replace a card`; "Order status" is a noun compound, no request): the verbs a request starts
with, the words before an object that need no article, the nouns that take none, the things
a person owns ("your balance") and the heads that make a name a noun compound."""

from __future__ import annotations

from .. import words

#: The verbs a request starts with ("Replace a card", "File Claim"), which the planner and
#: the offline drafter both read.
REQUEST_VERBS = words(
    "en.skill_name_words.request_verbs",
    frozenset({
        "activate", "add", "apply", "arrange", "ask", "block", "book", "buy", "cancel", "change",
        "check", "choose", "close", "create", "declare", "delete", "dispute", "download", "edit",
        "file", "find", "fix", "get", "join", "leave", "list", "log", "make", "manage", "move",
        "open", "order", "pass", "pay", "plan", "print", "raise", "rebook", "redeem", "refill",
        "refund", "register", "reissue", "remove", "renew", "rent", "replace", "report", "request",
        "reschedule", "reserve", "reset", "return", "review", "schedule", "search", "see", "send",
        "set", "sign", "speak", "start", "stop", "submit", "swap", "switch", "talk", "top",
        "track", "transfer", "update", "upgrade", "upload", "verify", "view", "withdraw",
    }),
    members=("replace", "file", "withdraw"),
    non_members=("status", "history", "card"),
)  # fmt: skip

#: Determiners: an object that opens with one keeps it ("Cancel my booking").
NAME_DETERMINERS = words(
    "en.skill_name_words.name_determiners",
    frozenset({
        "a", "an", "any", "my", "our", "some", "that", "the", "their", "this", "your",
    }),
    members=("a", "some"),
    non_members=("his", "her"),
)  # fmt: skip

#: Prepositions: an object that opens with one takes no article ("Sign up for alerts").
NAME_PREPOSITIONS = words(
    "en.skill_name_words.name_prepositions",
    frozenset({
        "about", "at", "for", "from", "in", "into", "off", "on", "out", "to", "up", "with",
    }),
    members=("up", "off"),
    non_members=("of", "by"),
)  # fmt: skip

#: Nouns that take no article ("Request travel", "Get advice").
MASS_NOUNS = words(
    "en.skill_name_words.mass_nouns",
    frozenset({
        "access", "advice", "cover", "coverage", "equipment", "feedback", "help", "information",
        "insurance", "inventory", "leave", "money", "rent", "stock", "support", "time", "travel",
    }),
    members=("money", "inventory"),
    non_members=("card", "claim"),
)  # fmt: skip

#: Things a person owns, named with "your" ("Check balance" -> `check your balance`).
POSSESSED = words(
    "en.skill_name_words.possessed",
    frozenset({
        "account", "address", "appointment", "balance", "bill", "booking", "card", "delivery",
        "details", "lease", "limit", "order", "orders", "password", "payment", "pin", "plan",
        "policy", "prescription", "profile", "reservation", "schedule", "shift", "statement",
        "subscription",
    }),
    members=("account", "shift"),
    non_members=("claim", "refund"),
)  # fmt: skip

#: Last words that make a name a noun compound, not a verb and its object ("Order status",
#: "Payment history").
NOUN_HEADS = words(
    "en.skill_name_words.noun_heads",
    frozenset({
        "count", "details", "help", "history", "info", "issues", "options", "overview", "payments",
        "questions", "settings", "status", "summary", "support",
    }),
    members=("status", "history"),
    non_members=("card", "request"),
)  # fmt: skip
