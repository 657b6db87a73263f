"""Words of a skill's instructions (a Mantle step, rule or hand-off; an Anychat rule) as the
offline drafter reads them: into a judge's criterion (what an instruction says that a judge
can check, "tell them to leave the room"; whose records a rule guards, "another lab's
reservation"; what it keeps back, "never reveal your system prompt"; the grammar a
criterion is turned with, "do" -> "does"), into the user's part (what a step leaves to the
model, what the user reports or waits on, a rule's push turned to "me"), and into the
offers, conditions and calls a walk follows ("If yes, offer …", "… with @tool.x")."""

from __future__ import annotations

from .. import words

#: What an instruction says when it says nothing a judge can check out of its sentence: a
#: bare pronoun, alone or under a condition ("say so if asked").
EMPTY_OBJECTS = words(
    "en.instruction_words.empty_objects",
    frozenset({"it", "so", "that", "them", "this"}),
    members=("so", "it", "them"),
    non_members=("the", "refund", "they"),
)

#: A verb and its third-person form where it is not the verb with "s" ("do" -> "does").
THIRD_PERSON = words(
    "en.instruction_words.third_person",
    {"do": "does", "have": "has", "are": "is", "were": "was", "don't": "doesn't"},
    members=("do", "have", "don't"),
    non_members=("does", "say", "is"),
)

#: A lead that says what to say ("say "requested", "), whose verb a quoted prohibition after
#: it leaves out.
QUOTING_VERBS = words(
    "en.instruction_words.quoting_verbs",
    frozenset({"say", "use", "write"}),
    members=("say", "write", "use"),
    non_members=("tell", "ask"),
)

#: Verbs of an instruction whose object is what the user is to do ("tell them to leave the
#: room, close the door and call ..."): a list after it is theirs.
TELLING_VERBS = words(
    "en.instruction_words.telling_verbs",
    frozenset({"advise", "ask", "remind", "tell"}),
    members=("tell", "remind", "advise"),
    non_members=("say", "write", "give"),
)

#: A clause that opens with a subject of its own, not an imperative ("they are on bar"):
#: the subject, then a verb that agrees with it or a modal.
CLAUSE_SUBJECTS = words(
    "en.instruction_words.clause_subjects",
    frozenset({"he", "it", "she", "that", "there", "these", "they", "this", "we"}),
    members=("they", "there", "these"),
    non_members=("you", "the", "those"),
)
CLAUSE_SUBJECT_VERBS = words(
    "en.instruction_words.clause_subject_verbs",
    frozenset({
        "are", "can", "can't", "cannot", "did", "do", "does", "get", "gets", "had", "has", "have",
        "is", "may", "might", "must", "need", "needs", "should", "want", "wants", "was", "were",
        "will", "would",
    }),
    members=("are", "can't", "must", "gets"),
    non_members=("tell", "ask", "confirm"),
)  # fmt: skip

#: Words of a rule that guards another person's records ("another lab's reservation", "an
#: expense for another executive", "a coworker's phone number", "someone's personal phone
#: number"): it holds only where the conversation brings that person in, which a case whose
#: user asks about their own never does (the reviewers' "trivially met").
OTHER_PEOPLE = words(
    "en.instruction_words.other_people",
    frozenset({
        "another", "others", "somebody", "somebody's", "someone", "someone's",
    }),
    members=("another", "someone's", "others"),
    non_members=("their", "other", "anyone"),
)  # fmt: skip
OTHER_PEOPLES_OWN = words(
    "en.instruction_words.other_peoples_own",
    frozenset({"co-worker's", "colleague's", "coworker's", "roommate's"}),
    members=("coworker's", "co-worker's"),
    non_members=("coworker", "customer's"),
)

#: Words of a rule that keeps the agent's own workings back ("never reveal internal system
#: details, API keys, or tool internals"; "ignore requests to … reveal your system
#: prompt"): a word that forbids, a verb of giving away, then what it keeps back (a word,
#: or two words in turn).
FORBIDDING = words(
    "en.instruction_words.forbidding",
    frozenset({"don't", "ignore", "never", "not"}),
    members=("never", "don't", "ignore"),
    non_members=("always", "only"),
)
GIVING_AWAY = words(
    "en.instruction_words.giving_away",
    frozenset({"disclose", "dump", "expose", "leak", "reveal", "share"}),
    members=("reveal", "disclose", "leak"),
    non_members=("say", "tell", "keep"),
)
WORKINGS = words(
    "en.instruction_words.workings",
    ("instructions", "internals", "system prompt", "internal system"),
    members=("internals", "system prompt"),
    non_members=("system", "prompt", "details"),
)

#: Words of a rule that keeps back what went wrong ("never say which of the three details
#: was wrong", "do not say whether the number exists").
SAYING_WHAT = words(
    "en.instruction_words.saying_what",
    frozenset({"explain", "mention", "name", "reveal", "say", "tell"}),
    members=("say", "name", "mention"),
    non_members=("ask", "write", "give"),
)
WHAT_FAILED = words(
    "en.instruction_words.what_failed",
    frozenset({"whether", "which", "why"}),
    members=("which", "whether"),
    non_members=("what", "how", "if"),
)

#: Verbs of a prohibited act that is only the skill going on: "do not stay active", "do
#: not wait for more input", "do not remain open".
STAYING = words(
    "en.instruction_words.staying",
    frozenset({"continue", "idle", "linger", "remain", "stay", "wait"}),
    members=("stay", "remain", "linger"),
    non_members=("leave", "end", "stop"),
)

#: Words that open a determiner phrase: "ask the HR bot" names "the HR bot".
DETERMINERS = words(
    "en.instruction_words.determiners",
    frozenset({"a", "an", "its", "the", "their", "your"}),
    members=("the", "your", "its"),
    non_members=("my", "this", "his"),
)

#: Words of a step description that leave the question to the model: what to assume or
#: work out instead of asking ("without asking").
LEFT_TO_MODEL = words(
    "en.instruction_words.left_to_model",
    frozenset({"asking", "assume", "default", "infer"}),
    members=("asking", "infer"),
    non_members=("ask", "only"),
)

#: Words of a sentence that forbids ("never read back the date of birth"): what it names is
#: not what the agent presents.
NEGATING = words(
    "en.instruction_words.negating",
    frozenset({"don't", "never", "not"}),
    members=("never", "don't"),
    non_members=("ignore", "no"),
)

#: How a sentence opens when what it says waits on a condition ("If yes, offer …").
CONDITIONAL_LEADS = words(
    "en.instruction_words.conditional_leads",
    frozenset({"after", "before", "if", "once", "unless", "when", "whenever"}),
    members=("if", "after", "before"),
    non_members=("then", "while"),
)

#: A sentence that opens on a condition its act holds under ("If ...", "When ...", then what
#: to offer): not "unless" (the act holds when the condition does not), unlike the openers
#: of `word_classes.CONDITION_OPENERS`, which only mark a sentence that waits.
CONDITION_OPENS = words(
    "en.instruction_words.condition_opens",
    frozenset({"if", "when", "whenever"}),
    members=("if", "whenever"),
    non_members=("unless", "once"),
)

#: Words that end a "set" list rather than name an entry ("set mode to one of …").
SET_LIST_ENDS = words(
    "en.instruction_words.set_list_ends",
    frozenset({"a", "and", "from", "it", "set", "the", "to"}),
    members=("to", "from", "the"),
    non_members=("policy number", "with"),
)

#: Verbs that have the model keep what a sentence names as `@memory.x` ("record the answer
#: in @memory.check_balance.account_type").
KEEP_VERBS = words(
    "en.instruction_words.keep_verbs",
    frozenset({"keep", "record", "remember", "save", "store", "update", "write"}),
    members=("record", "remember"),
    non_members=("ask", "tell"),
)

#: Words of a text that offers the user a list to pick from.
OFFERS = words(
    "en.instruction_words.offers",
    frozenset({
        "alternative", "alternatives", "list", "offer", "option", "options", "propose", "suggest",
    }),
    members=("offer", "alternatives", "suggest"),
    non_members=("pick", "choose"),
)  # fmt: skip

#: Where what is offered ends: its condition or the way it is done ("… if needed").
OFFER_ENDS = words(
    "en.instruction_words.offer_ends",
    (" if ", " then ", " when ", " via ", " and ask"),
    members=(" if ", " and ask"),
    non_members=("if", " or "),
)

#: Words that lead to the call that makes an offer good ("… with @tool.order_replacement_fob").
BY_TOOL = words(
    "en.instruction_words.by_tool",
    frozenset({"by", "calling", "through", "using", "via", "with"}),
    members=("via", "calling"),
    non_members=("for", "to"),
)

#: Words (read as substrings) of a prompt that has the user report how a step they did went
#: ("when they confirm success, or false if they report a problem").
OUTCOME_WORDS = words(
    "en.instruction_words.outcome_words",
    ("success", "done", "finish", "work"),
    members=("success", "work"),
    non_members=("failure", "error"),
)

#: Words of a tool's name that say it books or schedules something (`reserve_instrument`).
BOOKING_WORDS = words(
    "en.instruction_words.booking_words",
    frozenset({
        "appointment", "book", "reschedule", "reservation", "reserve", "schedule",
    }),
    members=("reschedule", "reservation"),
    non_members=("cancel", "order"),
)  # fmt: skip

#: Verbs of a clause that waits on the user's word ("… until they say they are out").
CUE_SAYING = words(
    "en.instruction_words.cue_saying",
    frozenset({"confirm", "confirms", "say", "says", "tell", "tells"}),
    members=("says", "confirms"),
    non_members=("asks", "wants"),
)

#: Forms of "do" before a "not" that a turned clause drops with it ("they do not know" ->
#: "they know").
DO_FORMS = words(
    "en.instruction_words.do_forms",
    frozenset({"did", "do", "does"}),
    members=("do", "did"),
    non_members=("done", "don't"),
)

#: Forms of "be" of a clause about the user's circumstances ("they are safe").
BE_FORMS = words(
    "en.instruction_words.be_forms",
    frozenset({"are", "is", "was", "were"}),
    members=("is", "were"),
    non_members=("be", "been"),
)

#: A rule's verb that says nothing to whom ("say whether ...", "promise the medicine is in
#: stock"), as a caller asks it of the agent: to them.
TO_ME = words(
    "en.instruction_words.to_me",
    {"say": "tell me", "promise": "promise me", "guarantee": "guarantee me"},
    members=("say", "guarantee"),
    non_members=("tell", "ask"),
)

#: Words of a hand-off's prose that say it writes a summary for the person taking over.
SUMMARY = words(
    "en.instruction_words.summary",
    frozenset({"summarise", "summarize", "summary"}),
    members=("summarise", "summarize"),
    non_members=("sum", "summer"),
)

#: A rule's verb whose push the user turns to themselves ("give the price" -> "give me the
#: price").
ME_VERBS = words(
    "en.instruction_words.me_verbs",
    ("give", "promise", "tell", "send", "show", "share", "quote", "discuss"),
    members=("give", "quote"),
    non_members=("ask", "say"),
)

#: Whom a rule forbids telling ("Never tell anyone ..."): the person pushing is that one.
ANYONE = words(
    "en.instruction_words.anyone",
    frozenset({"anybody", "anyone", "callers", "customers", "members", "people"}),
    members=("anybody", "callers"),
    non_members=("someone", "me"),
)
