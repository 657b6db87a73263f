"""Stop-word lists: the words a reader drops before it compares or names by what is left.

They are not one list: each reader drops what carries nothing for its own comparison (a
case's file name drops "it", a task's keeps it; a playbook overlap drops "help" and
"person", which every playbook body says; a value search drops "customer", which every
domain says), and what each drops decides what casegen writes. Each is named by its
reader; a reader that means the same as another uses that one (`tests/test_lexicon.py`
refuses two tables that hold the same words).
"""

from __future__ import annotations

from .. import words

#: Words a case's file name drops ("Customer replaces a damaged card" ->
#: `customer_replaces_damaged_card`).
FILE_NAME = words(
    "en.stop_words.file_name",
    frozenset({
        "a", "an", "and", "for", "in", "is", "it", "of", "on", "or", "the", "to", "with",
    }),
    members=("a", "the", "it"),
    non_members=("not", "card", "any"),
)  # fmt: skip

#: Words an Agent Skill's task phrase drops for the file a prompt asks for and the words
#: that find the task again ("capturing the browser screenshots" -> `capturing_browser_…`).
TASK_PHRASE = words(
    "en.stop_words.task_phrase",
    frozenset({
        "a", "an", "and", "any", "for", "in", "of", "on", "or", "the", "to", "with", "your",
    }),
    members=("the", "your", "any"),
    non_members=("not", "it", "browser"),
)  # fmt: skip

#: Words that say nothing of which Anychat playbook, tool or field a text is about, when
#: their content words are overlapped ("wants help with a new booking" -> booking).
PLAYBOOK_OVERLAP = words(
    "en.stop_words.playbook_overlap",
    frozenset({
        "a", "about", "after", "an", "and", "any", "anything", "at", "for", "help", "in",
        "including", "is", "it", "its", "new", "no", "not", "now", "of", "on", "or", "other",
        "person", "that", "the", "their", "them", "they", "this", "to", "want", "wants", "with",
    }),
    members=("help", "person", "wants", "including"),
    non_members=("booking", "cancel", "never"),
)  # fmt: skip

#: Words that carry nothing when an agent's question is matched to a fact's label ("what is
#: your order number" ~ "order number").
LABEL_MATCH = words(
    "en.stop_words.label_match",
    frozenset({
        "a", "about", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at",
        "be", "been", "before", "being", "but", "by", "can", "could", "did", "do", "does", "for",
        "from", "get", "got", "had", "has", "have", "he", "her", "here", "him", "his", "how", "i",
        "i'd", "i'll", "i'm", "i've", "if", "in", "into", "is", "it", "it's", "its", "just",
        "know", "let", "like", "may", "me", "might", "more", "my", "need", "no", "not", "now",
        "of", "ok", "okay", "on", "one", "or", "our", "please", "shall", "should", "so", "some",
        "sure", "tell", "than", "thank", "thanks", "that", "the", "their", "them", "then", "there",
        "these", "they", "this", "to", "too", "up", "us", "very", "want", "was", "we", "were",
        "what", "when", "where", "which", "who", "whom", "why", "will", "with", "would", "you",
        "you'd", "you're", "you've", "your", "yours",
    }),
    members=("your", "what", "please", "thanks"),
    non_members=("order", "number", "date"),
)  # fmt: skip

#: Function words, and words every domain uses ("customer", "person", "user"), that never
#: identify a value a direction or a definition speaks of.
NO_VALUE = words(
    "en.stop_words.no_value",
    frozenset({
        "a", "about", "after", "again", "agent", "all", "also", "am", "an", "and", "any", "are",
        "as", "at", "be", "been", "before", "being", "but", "by", "can", "could", "customer",
        "customers", "did", "do", "does", "doing", "don't", "for", "from", "get", "got", "had",
        "has", "have", "having", "he", "her", "here", "him", "his", "how", "i", "i'd", "i'm",
        "i've", "if", "in", "into", "is", "isn't", "it", "it's", "its", "just", "let", "like",
        "me", "more", "my", "myself", "need", "needed", "needs", "new", "no", "nor", "not", "now",
        "of", "off", "on", "once", "one", "only", "or", "other", "our", "out", "over", "own",
        "person", "please", "same", "she", "should", "so", "some", "someone", "something", "such",
        "than", "that", "the", "their", "them", "then", "there", "these", "they", "thing",
        "things", "this", "those", "through", "to", "too", "under", "until", "up", "us", "user",
        "very", "want", "wanted", "wants", "was", "wasn't", "we", "were", "what", "when", "where",
        "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your", "yours",
    }),
    members=("customer", "don't", "whom"),
    non_members=("refund", "card", "thanks"),
)  # fmt: skip

#: Words that say nothing about what a sentence is about.
SENTENCE_FILLER = words(
    "en.stop_words.sentence_filler",
    frozenset({
        "about", "after", "all", "also", "and", "any", "before", "each", "every", "for", "from",
        "into", "its", "just", "more", "most", "not", "one", "only", "onto", "other", "own",
        "same", "such", "than", "that", "the", "then", "this", "very", "with",
    }),
    members=("than", "own"),
    non_members=("card", "never"),
)  # fmt: skip

#: Words every user cue has that say nothing of what it is about ("if they ask about an
#: existing request" -> existing, request); the words for people are added where read.
CUE_FILLER = words(
    "en.stop_words.cue_filler",
    frozenset({
        "a", "about", "an", "and", "any", "are", "ask", "asking", "asks", "at", "be", "been",
        "being", "by", "for", "from", "he", "how", "if", "in", "is", "it", "its", "just", "know",
        "mention", "mentions", "need", "needs", "of", "on", "only", "or", "said", "say", "says",
        "she", "some", "that", "the", "their", "them", "there", "they", "this", "to", "want",
        "wanted", "wants", "what", "when", "whether", "which", "who", "with", "write", "writes",
    }),
    members=("mentions", "whether", "just"),
    non_members=("existing", "request", "not"),
)  # fmt: skip
