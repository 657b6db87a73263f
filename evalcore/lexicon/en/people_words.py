"""Words of a project's prose about the people an agent serves ("Patients and caregivers
call or text to refill …", "Employees reach you via DM"), as test data names its users:
words that name nobody in particular, the verbs of getting in touch and where they go, the
nouns of a group, and the words shaped like a person word that are none."""

from __future__ import annotations

from .. import words

#: Words that name nobody in particular ("the customer", "a person", "you").
GENERIC_PEOPLE = words(
    "en.people_words.generic_people",
    frozenset({
        "client", "customer", "example", "people", "person", "them", "user", "you",
    }),
    members=("customer", "example"),
    non_members=("staff", "patients"),
)  # fmt: skip

#: Verbs of the agent's users getting in touch ("Patients and caregivers call or text to
#: refill ...").
GET_IN_TOUCH = words(
    "en.people_words.get_in_touch",
    frozenset({"call", "email", "message", "phone", "text", "write"}),
    members=("text", "email"),
    non_members=("reach", "visit"),
)

#: Words after a verb of getting in touch that say it goes to the agent ("write to us").
TOWARDS = words(
    "en.people_words.towards",
    frozenset({"in", "to", "us", "you"}),
    members=("to", "us"),
    non_members=("from", "them"),
)

#: Nouns for a group of people: one of them is "one of the staff", not "a staff".
COLLECTIVE = words(
    "en.people_words.collective",
    frozenset({"crew", "personnel", "staff", "team"}),
    members=("staff", "personnel"),
    non_members=("members", "people"),
)

#: Words of a person word's shape that are no noun at all ("for another week").
NOT_PERSON_WORDS = words(
    "en.people_words.not_person_words",
    frozenset({
        "after", "another", "each", "earlier", "either", "ever", "further", "however", "later",
        "longer", "neither", "never", "other", "over", "per", "rather", "sooner", "together",
        "under", "whatever", "whenever", "whether",
    }),
    members=("another", "whenever"),
    non_members=("drivers", "owner"),
)  # fmt: skip

#: Verbs of a sentence whose subject is the agent's users: "Employees reach you via DM".
REACH_VERBS = words(
    "en.people_words.reach_verbs",
    frozenset({"contact", "message", "reach"}),
    members=("reach", "message"),
    non_members=("call", "write"),
)
