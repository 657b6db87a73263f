"""Word stems for matching an agent's question to a fact label (no model, no library)."""

from __future__ import annotations

import re
from functools import lru_cache

from .._stem import stem

STOP = frozenset(
    [
        "a",
        "about",
        "after",
        "again",
        "all",
        "also",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "been",
        "before",
        "being",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "for",
        "from",
        "get",
        "got",
        "had",
        "has",
        "have",
        "he",
        "her",
        "here",
        "him",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "just",
        "let",
        "me",
        "more",
        "my",
        "no",
        "not",
        "of",
        "on",
        "one",
        "or",
        "our",
        "please",
        "so",
        "some",
        "tell",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "too",
        "up",
        "us",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "i'd",
        "i'm",
        "i'll",
        "i've",
        "you'd",
        "you're",
        "you've",
        "it's",
        "like",
        "need",
        "want",
        "know",
        "okay",
        "ok",
        "sure",
        "now",
        "thanks",
        "thank",
        "just",
        "may",
        "might",
        "shall",
        "should",
    ]
)
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def stems(text: str) -> set[str]:
    """Content stems of `text` (stop words dropped)."""
    return set(_stems(text))


@lru_cache(maxsize=8192)
def _stems(text: str) -> tuple[str, ...]:
    """The stems in the order the set is built from (the same set, and the same iteration
    order): kept per text, since every simulated turn weighs the same case texts again."""
    words = (re.sub(r"'(?:s|re|ve|ll|d|m|t)$", "", w) for w in _WORD.findall(text.lower()))
    return tuple(stem(w) for w in words if w and w not in STOP)


__all__ = ["STOP", "stem", "stems"]
