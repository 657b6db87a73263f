"""Words of a Mantle skill's description as the planner reads what a person asks for from
it: who the description says speaks and what they say ("when the customer says ..."), the
words after which a first sentence's first word is an instruction, the agent's part after
the request, the agent's rules about a value, and the first words that make a description's
example a question, a request or a story told in the user's own person."""

from __future__ import annotations

from .. import words

#: Words after which a first sentence's first word reads as an instruction ("Look up the
#: status", "Connect the customer", "Post or announce").
OBJECT_HEADS = words(
    "en.description_words.object_heads",
    frozenset({
        "a", "all", "an", "and", "any", "callers", "common", "customer's", "customers", "how",
        "my", "or", "out", "people", "some", "the", "their", "through", "up", "users", "what",
        "where", "which", "your",
    }),
    members=("the", "customer's", "through", "which"),
    non_members=("status", "to", "is"),
)  # fmt: skip

#: A third-person verb and the form a person's own request takes ("the customer has" -> "I
#: have"), where it is not the verb without its "s".
PLAIN_FORMS = words(
    "en.description_words.plain_forms",
    {
        "has": "have",
        "is": "are",
        "does": "do",
        "was": "were",
        "doesn't": "don't",
        "isn't": "aren't",
        "hasn't": "haven't",
        "wasn't": "weren't",
    },
    members=("has", "doesn't", "wasn't"),
    non_members=("have", "says", "were"),
)

#: The agent's rules about a value, not what a person says of it ("post to an allowed
#: channel" -> "post to a channel"): the person names the thing, the agent checks the rule.
POLICY_WORDS = words(
    "en.description_words.policy_words",
    frozenset({
        "allowed", "allowlisted", "approved", "authorised", "authorized", "designated",
        "permitted", "specified", "whitelisted",
    }),
    members=("allowed", "authorised", "allowlisted"),
    non_members=("channel", "new", "open"),
)  # fmt: skip

#: What an agent goes on to do after the request a description's first sentence names
#: ("... and confirm when they are done", "... and report download speed").
AGENT_PART = words(
    "en.description_words.agent_part",
    frozenset({
        "ask", "compare", "confirm", "escalate", "explain", "give", "hand", "list", "log",
        "notify", "offer", "optionally", "provide", "read", "record", "report", "return", "route",
        "send", "share", "show", "suggest", "summarise", "summarize", "tell", "then",
    }),
    members=("confirm", "report", "summarize", "optionally"),
    non_members=("book", "cancel", "want"),
)  # fmt: skip

#: The agent's job named as a noun ("balance lookups", "status checks"): a person asks for
#: the thing itself to be checked.
JOB_NOUNS = words(
    "en.description_words.job_nouns",
    frozenset({"checks", "look-up", "look-ups", "lookup", "lookups"}),
    members=("lookups", "look-up", "checks"),
    non_members=("check", "status", "balance"),
)

#: Who the description says speaks ("when the customer says ..."), the verbs it says they
#: speak with, and the verbs of a wish that a said line is not ("wants a refund").
SPEAKERS = words(
    "en.description_words.speakers",
    frozenset({
        "caller", "callers", "client", "clients", "customer", "customers", "employee", "employees",
        "member", "members", "person", "they", "user", "users",
    }),
    members=("customer", "callers", "they"),
    non_members=("agent", "he", "staff"),
)  # fmt: skip
SAY_VERBS = words(
    "en.description_words.say_verbs",
    frozenset({"say", "says", "type", "types", "write", "writes"}),
    members=("says", "types", "write"),
    non_members=("asks", "tells", "wants"),
)
WISH_VERBS = words(
    "en.description_words.wish_verbs",
    frozenset({"ask", "asks", "need", "needs", "want", "wants"}),
    members=("wants", "need", "asks"),
    non_members=("says", "like", "would"),
)

#: Words a list of choices follows ("samples to the sequencing, proteomics or …").
LIST_LEADS = words(
    "en.description_words.list_leads",
    frozenset({"at", "for", "from", "in", "of", "on", "to", "with"}),
    members=("to", "with", "from"),
    non_members=("and", "or", "the"),
)

#: Words that make a phrase a pronoun phrase ("Anything about shipping a service") or a
#: clause ("Something in the apartment is broken"), not the name of a thing; and the finite
#: verbs that make it a clause.
INDEFINITE_PRONOUNS = words(
    "en.description_words.indefinite_pronouns",
    frozenset({
        "anyone", "anything", "everything", "nothing", "someone", "something",
    }),
    members=("anything", "someone"),
    non_members=("somebody", "it", "thing"),
)  # fmt: skip
FINITE_VERBS = words(
    "en.description_words.finite_verbs",
    frozenset({
        "are", "can", "did", "didn't", "do", "does", "had", "has", "have", "is", "isn't", "was",
        "were", "will", "won't",
    }),
    members=("is", "won't", "had"),
    non_members=("be", "being", "shipping"),
)  # fmt: skip

#: First words of a description example told in the user's own person ("my parcel …", "I
#: was …", "someone opened my box", "the lid on my box …"), and the second words that make
#: such an example a request ("I need a new box", "I want to …").
TELLERS = words(
    "en.description_words.tellers",
    frozenset({"i", "it", "my", "our", "somebody", "someone", "the", "we"}),
    members=("my", "i", "someone", "the"),
    non_members=("you", "your", "what"),
)
TELLERS_WISHES = words(
    "en.description_words.tellers_wishes",
    frozenset({"can", "could", "d", "like", "ll", "need", "want", "will", "would"}),
    members=("need", "d", "ll", "like"),
    non_members=("have", "am", "was"),
)

#: First words that make a description example a question ("what's in the board pack").
QUESTION_OPENERS = words(
    "en.description_words.question_openers",
    frozenset({
        "are", "can", "did", "do", "does", "how", "is", "what", "when", "where", "which", "who",
        "why",
    }),
    members=("what", "is", "can"),
    non_members=("whether", "if", "my"),
)  # fmt: skip

#: The team's wording of whose message or request it is ("a user-provided message"), which
#: a person never says of their own: who, then how it came ("user" + "provided").
TEAM_WHO = words(
    "en.description_words.team_who",
    ("user", "customer", "caller", "client", "employee", "member"),
    members=("user", "employee"),
    non_members=("agent", "team"),
)
TEAM_HOW = words(
    "en.description_words.team_how",
    ("provided", "supplied", "specified", "given", "written", "defined"),
    members=("provided", "written"),
    non_members=("said", "asked"),
)
