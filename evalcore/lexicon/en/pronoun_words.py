"""Words around "you" in a line written to the user, as the simulator turns it into the
user's own first person ("You want to book an inspection, but you'd rather …" -> "…, but
I'd rather …"): "you" is a subject ("I") after a word that opens a clause or before a verb
that takes one, an object ("me") after a preposition or a verb that takes a person, and
"your" is always "my"."""

from __future__ import annotations

from .. import words

#: Verbs after which "you" is the subject ("what policies you have" -> "I have"), with the
#: first person's form where it differs.
SUBJECT_VERBS = words(
    "en.pronoun_words.subject_verbs",
    {
        "have": "have",
        "had": "had",
        "need": "need",
        "want": "want",
        "can": "can",
        "will": "will",
        "would": "would",
        "should": "should",
        "do": "do",
        "did": "did",
        "hold": "hold",
        "own": "own",
        "are": "am",
        "were": "was",
        "could": "could",
        "might": "might",
        "must": "must",
        "may": "may",
        "shall": "shall",
        "don": "don",
        "didn": "didn",
        "won": "won",
        "weren": "wasn",
    },
    members=("have", "are", "weren"),
    non_members=("give", "call", "is"),
)

#: Contractions of "you" as a subject, with the first person's ending ("you're" -> "I'm").
CONTRACTED = words(
    "en.pronoun_words.contracted",
    {"d": "d", "ll": "ll", "re": "m", "ve": "ve"},
    members=("re", "ve"),
    non_members=("s", "t"),
)

#: Words that open a clause, so a "you" right after them is its subject.
CLAUSE_OPENERS = words(
    "en.pronoun_words.clause_openers",
    frozenset({
        "although", "and", "as", "because", "before", "but", "how", "if", "once", "or", "since",
        "so", "than", "that", "though", "unless", "until", "what", "when", "whenever", "where",
        "whether", "which", "while", "who", "why",
    }),
    members=("because", "whenever", "than"),
    non_members=("to", "with", "the"),
)  # fmt: skip

#: Prepositions: a "you" after one is an object ("with you", "for you").
PREPOSITIONS = words(
    "en.pronoun_words.prepositions",
    frozenset({
        "about", "against", "around", "at", "behind", "beside", "between", "by", "for", "from",
        "into", "like", "near", "of", "on", "onto", "through", "to", "toward", "towards", "with",
        "without",
    }),
    members=("to", "towards", "beside"),
    non_members=("and", "because", "the"),
)  # fmt: skip

#: Verbs that take a person as their object ("call you back", "let you know", "owe you").
OBJECT_VERBS = words(
    "en.pronoun_words.object_verbs",
    frozenset({
        "ask", "assure", "bill", "bring", "call", "charge", "connect", "contact", "cost", "email",
        "get", "give", "hear", "help", "invite", "keep", "leave", "lend", "let", "make", "meet",
        "notify", "offer", "owe", "pay", "phone", "promise", "put", "reach", "refund", "remind",
        "see", "send", "serve", "show", "take", "tell", "text", "thank", "transfer", "update",
    }),
    members=("call", "let", "owe", "lend"),
    non_members=("have", "need", "want"),
)  # fmt: skip

#: Words that follow an object "you" ("to you and your family", "give you a refund").
AFTER_OBJECT = words(
    "en.pronoun_words.after_object",
    frozenset({
        "a", "again", "an", "and", "back", "first", "her", "his", "my", "now", "or", "our", "some",
        "the", "their", "these", "this", "those", "today", "too", "up", "your",
    }),
    members=("a", "back", "today"),
    non_members=("have", "would", "need"),
)  # fmt: skip

#: "it's you on file": after a form of "be", the spoken first person is "me".
COPULAS = words(
    "en.pronoun_words.copulas",
    frozenset({"be", "been", "being", "is", "s", "was"}),
    members=("is", "s", "been"),
    non_members=("are", "have"),
)

#: Determiners: a verb's form after one is a noun ("the bill you received"), so the "you"
#: before it is no object of that verb.
DETERMINERS = words(
    "en.pronoun_words.determiners",
    frozenset({
        "a", "an", "any", "each", "every", "her", "his", "my", "no", "our", "that", "the", "their",
        "these", "this", "those", "your",
    }),
    members=("the", "every", "no"),
    non_members=("back", "and", "you"),
)  # fmt: skip

#: The second person's own words and the first person's ("your" -> "my").
SWAPS = words(
    "en.pronoun_words.swaps",
    {"your": "my", "yours": "mine", "yourself": "myself", "yourselves": "ourselves"},
    members=("your", "yourselves"),
    non_members=("you", "my"),
)
