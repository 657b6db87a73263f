"""Where one sentence of a skill's prose ends and the next begins: after `.`, `!` or `?`
and before a capital (or a token, a quote), but not after the abbreviations English writes
with a full stop mid-sentence ("e.g.", "i.e.", "etc.", "vs.", "approx.")."""

from __future__ import annotations

from .. import phrase

#: The space between two sentences (what a paragraph is split on).
SENTENCE_END = phrase(
    "en.skill_sentences.end",
    r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bvs\.)(?<!\bapprox\.)(?<=[.!?])\s+(?=[A-Z@`\"“])",
    matches=("Ask for their name. Then call @tool.lookup.", "Is it lost? Block the card."),
    misses=(
        "Ask for an id, e.g. The one on the card.",
        "Offer a slot approx. Two days out.",
        "Note the amount. then go on.",
    ),
)
