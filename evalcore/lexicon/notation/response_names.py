"""The names of a project's responses: `utter_<name>`, the prefix Rasa gives every response
a skill sends. A naming convention, not English: `utter_goodbye` is found by its prefix,
whatever the rest says."""

from __future__ import annotations

from .. import phrase

#: A response name in lower case, not the tail of a longer dotted or word name.
RESPONSE_NAME = phrase(
    "notation.response_names.response_name",
    r"(?<![\w.])utter_[a-z0-9_]+",
    matches=("then send utter_ask_size", "bot_uttered: utter_goodbye"),
    misses=("then send the goodbye", "responses.utter_goodbye", "my_utter_goodbye"),
)
#: A response name as a whole word, any case, the name as group 1.
RESPONSE_WORD = phrase(
    "notation.response_names.response_word",
    r"\b(utter_[A-Za-z0-9_]+)\b",
    matches=("and reply with utter_Confirm_2.", "(utter_goodbye)"),
    misses=("reply with a goodbye", "flutter_goodbye", "utter-goodbye"),
)
