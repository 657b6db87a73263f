"""Words of what a simulated user says, and of the lines it is drawn from, as the offline
drafter writes it: how a question opens ("And, which day suits you?", "where's my bag"),
what a caller asks for in a description ("a caller who asks to be identified lands here"),
the choices that name no branch ("other", "none"), greetings said only at the start, and
the person turned from one line to another ("my" -> "your", "you" -> "them")."""

from __future__ import annotations

from .. import words

#: The words that end what a description's caller asks for ("a caller who asks to be
#: identified lands here too").
CALLER_CLAUSE_ENDS = words(
    "en.user_line_words.caller_clause_ends",
    frozenset({
        "also", "are", "come", "comes", "go", "goes", "is", "land", "lands",
    }),
    members=("lands", "also"),
    non_members=("here", "to"),
)  # fmt: skip

#: A caller's own words turned to the second person of a goal line.
CALLER_TO_GOAL = words(
    "en.user_line_words.caller_to_goal",
    {"i": "you", "me": "you", "my": "your", "mine": "yours", "i'm": "you're"},
    members=("i", "i'm"),
    non_members=("you", "we"),
)

#: Words that start the clause a description's alternatives stand in ("bags that ...").
RELATIVES = words(
    "en.user_line_words.relatives",
    ("that", "which", "who"),
    members=("that", "who"),
    non_members=("whose", "where"),
)

#: Words a question may open with before what it asks ("And, which day suits you?").
QUESTION_LEAD_INS = words(
    "en.user_line_words.question_lead_ins",
    frozenset({
        "and", "finally", "great", "last", "now", "ok", "okay", "so", "thanks",
    }),
    members=("finally", "okay"),
    non_members=("which", "please"),
)  # fmt: skip

#: Words that open a question for a value ("which day suits you").
VALUE_QUESTION_OPENERS = words(
    "en.user_line_words.value_question_openers",
    frozenset({"how", "what", "when", "where", "whether", "which", "who"}),
    members=("which", "whether"),
    non_members=("why", "if"),
)

#: Words before "of them" that count things ("one of them": one of the policies).
COUNTING = words(
    "en.user_line_words.counting",
    frozenset({
        "all", "any", "both", "each", "either", "most", "none", "one", "some",
    }),
    members=("either", "most"),
    non_members=("many", "them"),
)  # fmt: skip

#: Openers of a request that is a question ("can you deliver my bag …").
REQUEST_QUESTION_OPENERS = words(
    "en.user_line_words.request_question_openers",
    ("can ", "could ", "would ", "will ", "where ", "what ", "how ", "is ", "do "),
    members=("can ", "do "),
    non_members=("can", "who "),
)

#: Words a spoken question opens with ("when is the tech coming", "where's my bag").
SPOKEN_QUESTION_OPENERS = words(
    "en.user_line_words.spoken_question_openers",
    frozenset({
        "are", "can", "could", "did", "do", "does", "has", "have", "how", "how's", "is", "should",
        "was", "were", "what", "what's", "when", "when's", "where", "where's", "which", "who",
        "who's", "whose", "why", "will", "would",
    }),
    members=("where's", "should"),
    non_members=("my", "the"),
)  # fmt: skip

#: Choice values that are words of any request, not the name of a branch.
PLAIN_CHOICES = words(
    "en.user_line_words.plain_choices",
    frozenset({"general", "help", "more", "no", "none", "other", "unknown", "yes"}),
    members=("other", "unknown"),
    non_members=("express", "refund"),
)

#: A caller's request turned to the third person of a goal line ("check your balance" ->
#: "check their balance").
SECOND_TO_THIRD = words(
    "en.user_line_words.second_to_third",
    {"you": "them", "your": "their", "yours": "theirs"},
    members=("you", "yours"),
    non_members=("they", "my"),
)

#: Words that open a new statement after "and" in a skill's prose ("… and the agent must …"),
#: rather than go on with the one before it.
NEW_STATEMENT = words(
    "en.user_line_words.new_statement",
    frozenset({
        "a", "an", "each", "every", "he", "it", "its", "no", "nothing", "she", "that", "the",
        "there", "they", "this",
    }),
    members=("nothing", "every"),
    non_members=("and", "but"),
)  # fmt: skip

#: First words of a label that is a question ("whether you are out", "what was the total")
#: or a prompt's words ("a time or a place"): no name of a detail a person lists.
NO_DETAIL_NAME = words(
    "en.user_line_words.no_detail_name",
    frozenset({
        "a", "an", "are", "do", "how", "if", "is", "the", "what", "when", "where", "whether",
        "which", "who", "why",
    }),
    members=("whether", "if"),
    non_members=("date", "total"),
)  # fmt: skip

#: Values of a choice that pick nothing (the user who asks for a mode wants one that is on).
NO_CHOICE = words(
    "en.user_line_words.no_choice",
    frozenset({"default", "no", "none", "normal", "off", "other", "unknown"}),
    members=("off", "normal"),
    non_members=("on", "express"),
)

#: Words that open a reply's meaning without saying what it is ("you will bring it back").
REPLY_PRONOUNS = words(
    "en.user_line_words.reply_pronouns",
    frozenset({"i", "it", "they", "we", "you"}),
    members=("i", "it"),
    non_members=("confirm", "ok"),
)

#: The words that open a conversation, never said mid-way.
GREETINGS = words(
    "en.user_line_words.greetings",
    frozenset({"hello", "hey", "hi"}),
    members=("hi", "hey"),
    non_members=("thanks", "ok"),
)

#: Words of a request that says the amount is above what is usual.
AMOUNT_HIGH = words(
    "en.user_line_words.amount_high",
    ("high", "higher", "too much", "expensive", "more than usual", "went up", "increase"),
    members=("too much", "went up"),
    non_members=("low", "cheaper"),
)

#: Words of a request that says the amount is below what is usual.
AMOUNT_LOW = words(
    "en.user_line_words.amount_low",
    ("low", "lower", "less than usual", "went down", "decrease", "cheaper"),
    members=("cheaper", "went down"),
    non_members=("high", "increase"),
)

#: How a caller asks the agent to do something ("can you check it's me on file"), and how a
#: caller says what they want to do ("I need to log in"): leads of a description's quoted
#: request, word by word.
ASKING_LEADS = words(
    "en.user_line_words.asking_leads",
    ("can you", "could you", "please"),
    members=("can you", "please"),
    non_members=("can", "would you"),
)
WANTING_LEADS = words(
    "en.user_line_words.wanting_leads",
    ("i need to", "i want to"),
    members=("i need to", "i want to"),
    non_members=("i need", "i'd like to"),
)
