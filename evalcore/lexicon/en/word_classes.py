"""Closed-class English words that several readers share: articles, the words that open a
condition or a clause, the third-person subjects. One table per meaning, so a reader that
stops at "unless" and one that does not cannot drift apart by accident."""

from __future__ import annotations

from .. import words

#: The articles ("the HR bot", "an order number").
ARTICLES = words(
    "en.word_classes.articles",
    frozenset({"a", "an", "the"}),
    members=("a", "the"),
    non_members=("your", "this"),
)

#: Words that open a sentence or a clause waiting on something first ("When no attempts are
#: left", "say so if asked"): what follows happens only then.
CONDITION_OPENERS = words(
    "en.word_classes.condition_openers",
    frozenset({"if", "when", "whenever", "unless", "once"}),
    members=("if", "unless", "once"),
    non_members=("then", "while", "after"),
)

#: The third-person subjects a rule names its user by ("If they have …", "she says …").
THIRD_PERSON_SUBJECTS = words(
    "en.word_classes.third_person_subjects",
    frozenset({"they", "he", "she"}),
    members=("they", "she"),
    non_members=("it", "you", "them"),
)

#: Words that open an indirect question or a clause ("asks what policies they have", "where
#: the parcel is"), so what follows is a clause, not the name of a thing.
WH_WORDS = words(
    "en.word_classes.wh_words",
    frozenset({"what", "how", "when", "where", "which", "whether", "why", "who", "if"}),
    members=("whether", "if", "who"),
    non_members=("that", "the", "whom"),
)

#: The forms of "be" ("Secret values are never shown here": a description, not a command).
BE_FORMS = words(
    "en.word_classes.be_forms",
    frozenset({"is", "are", "was", "were", "be", "been", "being"}),
    members=("is", "been", "being"),
    non_members=("has", "do", "become"),
)

#: The digit words, in the order of the digits they spell ("one two three four five").
DIGIT_WORDS = words(
    "en.word_classes.digit_words",
    ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"),
    members=("zero", "nine"),
    non_members=("ten", "oh", "first"),
)
