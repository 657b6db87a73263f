"""Words of a Mantle skill's prose as the skill model reads its sentences: what ends the
skill and what hedges that end, what a call is limited to or made an alternative by ("During
business hours, transfer the call with @tool.x"), what only offers or permits a call, what
turns a clause around ("cannot"), whom the prose asks to do something, what the user has
("If they have an order number use @tool.x"), and which MCP tools only read."""

from __future__ import annotations

from .. import words

#: Verbs that end a skill when their object is the skill itself.
SKILL_ENDS = words(
    "en.skill_prose_words.skill_ends",
    frozenset({"close", "complete", "end", "finish"}),
    members=("finish", "close"),
    non_members=("stop", "cancel"),
)

#: Words that make the sentence about when not to end it, or only in some case.
END_HEDGES = words(
    "en.skill_prose_words.end_hedges",
    frozenset({
        "don't", "if", "may", "never", "not", "once", "only", "unless", "until", "when",
        "whenever",
    }),
    members=("until", "only", "may"),
    non_members=("always", "then"),
)  # fmt: skip

#: Words that point back at what the sentence before named ("after that confirmation").
POINTERS = words(
    "en.skill_prose_words.pointers",
    frozenset({"its", "that", "these", "this", "those"}),
    members=("that", "its"),
    non_members=("the", "it"),
)

#: Determiners before the thing a user has ("If they have an order number …").
HELD_DETERMINERS = words(
    "en.skill_prose_words.held_determiners",
    frozenset({"a", "an", "her", "his", "the", "their"}),
    members=("an", "their"),
    non_members=("my", "its"),
)

#: Words that end the thing: the call the sentence goes on to.
HELD_THING_ENDS = words(
    "en.skill_prose_words.held_thing_ends",
    frozenset({"call", "check", "look", "run", "then", "use", "with"}),
    members=("use", "then"),
    non_members=("number", "order"),
)

#: Whom the prose asks to do something: "ask them to", "ask the customer to".
ASKED_WHOM = words(
    "en.skill_prose_words.asked_whom",
    frozenset({"her", "him", "them"}),
    members=("them", "her"),
    non_members=("they", "customer"),
)

#: A verb that has the agent compose a text ("write a two-line summary", "draft a note").
WRITES = words(
    "en.skill_prose_words.writes",
    frozenset({"compose", "composes", "draft", "drafts", "write", "writes"}),
    members=("compose", "drafts"),
    non_members=("send", "say"),
)

#: Trigger words that make a call an alternative (not a step every path takes): "During
#: business hours, transfer the call with @tool.x" runs only in a window no case can fix.
ALTERNATIVE_TRIGGERS = words(
    "en.skill_prose_words.alternative_triggers",
    frozenset({"during", "for", "if", "in case", "unless"}),
    members=("during", "in case"),
    non_members=("when", "after"),
)

#: Trigger words that make a circumstance written after the call ("Call `list_channels`
#: when they are unsure of the names.") the call's condition: it is made only then.
AFTER_TRIGGERS = words(
    "en.skill_prose_words.after_triggers",
    frozenset({"if", "in case", "unless", "when"}),
    members=("when", "in case"),
    non_members=("for", "during"),
)

#: Words before a call that only offer or permit it ("Offer to send an upload link with
#: @tool.send_upload_link", "you may check @tool.lookup_coverage"): whether it runs is the
#: user's answer or the agent's choice, not a step every run takes.
OFFER_VERBS = words(
    "en.skill_prose_words.offer_verbs",
    frozenset({"offer", "offers", "suggest", "suggests"}),
    members=("offer", "suggests"),
    non_members=("propose", "ask"),
)

#: Modals before a call that let the agent choose it ("you may check @tool.x").
MAY_WORDS = words(
    "en.skill_prose_words.may_words",
    frozenset({"can", "could", "may", "might"}),
    members=("may", "could"),
    non_members=("must", "should"),
)

#: Verbs of a purpose a call is limited to that answer the user's question ("only to say
#: what the policy covers"), and the words that end the question's own clause.
ANSWERING_VERBS = words(
    "en.skill_prose_words.answering_verbs",
    frozenset({"answer", "explain", "say", "tell"}),
    members=("say", "answer"),
    non_members=("ask", "check"),
)

#: Words that end the clause of the question a call limited to answering it waits for
#: ("only to say what the policy covers in general words").
QUESTION_CLAUSE_ENDS = words(
    "en.skill_prose_words.question_clause_ends",
    frozenset({"by", "for", "from", "if", "in", "using", "when", "with"}),
    members=("using", "from"),
    non_members=("what", "the"),
)

#: Words that turn a clause or a flag's description around ("the car cannot be driven").
NEGATIONS = words(
    "en.skill_prose_words.negations",
    frozenset({
        "can't", "cannot", "isn't", "never", "no", "not", "unable", "won't",
    }),
    members=("cannot", "unable"),
    non_members=("nor", "only"),
)  # fmt: skip

#: First words of an MCP tool's name that only read (`get_current_oncall`, `list_events`).
READ_VERBS = words(
    "en.skill_prose_words.read_verbs",
    frozenset({
        "check", "count", "describe", "estimate", "fetch", "find", "get", "list", "lookup",
        "preview", "query", "quote", "read", "search", "show", "status", "trace", "track",
        "validate", "verify", "view",
    }),
    members=("get", "lookup"),
    non_members=("create", "send"),
)  # fmt: skip

#: Words a clause and a description share that say nothing of what they are about
#: (compared stemmed).
CLAUSE_NOISE = words(
    "en.skill_prose_words.clause_noise",
    (
        "the", "a", "an", "it", "its", "is", "are", "be", "been", "they", "their", "can",
        "could", "still", "when", "true",
    ),
    members=("still", "true", "could"),
    non_members=("car", "driven", "not"),
)  # fmt: skip

#: Verbs that tell the model to write memory (`set_fields` counts as its `set`).
SETTING_VERBS = words(
    "en.skill_prose_words.setting_verbs",
    ("set", "record", "store", "save"),
    members=("set", "record"),
    non_members=("keep", "write", "update"),
)
