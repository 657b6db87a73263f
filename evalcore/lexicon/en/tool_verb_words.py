"""Words around a verb that calls a tool in skill prose ("look the permit up", "then verify
them", "ask whether they want to book one"): where the verb's object ends, the pronouns
that stand for it, the determiners before a noun that is no verb, and the verbs of the
conversation itself, which never call a tool."""

from __future__ import annotations

from .. import words

#: Pronouns that stand for a verb's object ("book it", "verify them", "book one").
OBJECT_PRONOUNS = words(
    "en.tool_verb_words.object_pronouns",
    frozenset({"it", "one", "that", "them", "these", "this", "those"}),
    members=("it", "them", "one"),
    non_members=("they", "you", "the"),
)

#: Words that end a verb's object: prepositions, conjunctions, clause words.
OBJECT_ENDS = words(
    "en.tool_verb_words.object_ends",
    frozenset({
        "about", "after", "and", "are", "as", "at", "before", "but", "by", "for", "from", "if",
        "in", "into", "is", "of", "on", "or", "so", "that", "then", "to", "unless", "when",
        "whether", "which", "while", "who", "with",
    }),
    members=("for", "unless", "whether", "is"),
    non_members=("the", "permit", "up"),
)  # fmt: skip

#: Determiners after which a word is a noun, not a verb ("the booking number", "their
#: check"): "Ask whether they want to book one" is the user's wish, asked about.
OBJECT_DETERMINERS = words(
    "en.tool_verb_words.object_determiners",
    frozenset({
        "a", "an", "her", "his", "its", "my", "our", "the", "their", "your",
    }),
    members=("the", "their", "my"),
    non_members=("it", "them", "this"),
)  # fmt: skip

#: The conversation's own verbs: what the agent says, never a tool it calls.
CONVERSATION_VERBS = words(
    "en.tool_verb_words.conversation_verbs",
    frozenset({
        "ask", "explain", "give", "greet", "help", "keep", "let", "make", "mention", "note",
        "offer", "read", "repeat", "say", "set", "show", "tell", "thank", "try",
    }),
    members=("ask", "tell", "offer", "greet"),
    non_members=("book", "verify", "check", "find"),
)  # fmt: skip

#: Verbs of an Anychat tool's name or text that create a record (`book_appointment`).
CREATE_VERBS = words(
    "en.tool_verb_words.create_verbs",
    frozenset({"add", "book", "create", "make", "schedule"}),
    members=("book", "make"),
    non_members=("cancel", "find"),
)

#: Verbs of an Anychat tool's name or text that cancel a record (`cancel_booking`).
CANCEL_VERBS = words(
    "en.tool_verb_words.cancel_verbs",
    frozenset({"cancel", "delete", "remove"}),
    members=("cancel", "remove"),
    non_members=("book", "update"),
)

#: Families of verbs that call the same kind of tool ("look up", "find" and "get" read;
#: "book" and "schedule" reserve), one family a line of words, compared stemmed.
VERB_FAMILIES = words(
    "en.tool_verb_words.verb_families",
    (
        "get find look fetch list search retrieve lookup",
        "create open file submit raise log",
        "cancel delete remove withdraw",
        "verify validate check",
        "book schedule reserve",
        "update change amend",
    ),
    members=("verify validate check", "book schedule reserve"),
    non_members=("verify", "book schedule"),
)

#: Object words too general to say which tool is meant (compared stemmed).
GENERIC_OBJECTS = words(
    "en.tool_verb_words.generic_objects",
    ("number", "id", "type", "name", "code", "date", "detail", "info", "data", "record"),
    members=("number", "detail", "record"),
    non_members=("permit", "order", "license"),
)

#: Everyday verbs → the API words they usually mean (for matching triggers to pairs).
API_MEANINGS = words(
    "en.tool_verb_words.api_meanings",
    {
        "list": ("list", "filter"),
        "show": ("list", "get"),
        "save": ("create",),
        "store": ("create",),
        "add": ("create",),
        "database": ("entities",),
        "log": ("login", "auth", "me"),
        "sign": ("login", "auth"),
        "call": ("invoke",),
        "run": ("invoke",),
        "remove": ("delete",),
        "delete": ("delete",),
        "edit": ("update",),
        "change": ("update",),
    },
    members=("save", "sign"),
    non_members=("entities", "invoke"),
)
