"""Word stems for matching an agent's question to a fact label (no model, no library)."""

from __future__ import annotations

import re
from functools import lru_cache

from .._stem import stem
from ..lexicon.en.stop_words import LABEL_MATCH as STOP

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
