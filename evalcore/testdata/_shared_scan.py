"""Regular-expression scans of texts that start alike, the common start scanned once.

Each skill's audience text is the project's words (agent.yml and every skill's
description) followed by the skill's own. Scanned whole for each skill, the part they all
share was read once per skill, so a case's cost grew with the project's skills. Here the
shared start's matches are found once (`_head`, kept per shared text) and each text scans
only what follows.

Why the split is exact: the audience patterns never consume a full stop except as a
match's first character, so a match, or an attempt that fails, starting before the shared
start's last full stop reads nothing past that full stop. The matches starting before it
are therefore the same in the shared start alone and in every text that begins with it,
and a scan of the text from that full stop on finds the rest. A text that does not begin
with its shared start, or a pattern that can read a full stop (a domain word holding one),
is scanned whole.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, TypeVar

T = TypeVar("T")


_Key = tuple[str, int]


def _key(pattern: re.Pattern[str]) -> _Key:
    return (pattern.pattern, pattern.flags)


class _Head:
    """The matches of the shared start that begin before its last full stop, per pattern,
    and what they settle."""

    def __init__(self, lowered: str) -> None:
        self.text = lowered
        self.cut = lowered.rfind(".")
        self._matches: dict[_Key, list[re.Match[str]]] = {}
        self._kept: dict[tuple[object, _Key], Any] = {}

    def matches(self, pattern: re.Pattern[str]) -> list[re.Match[str]]:
        found = self._matches.get(_key(pattern))
        if found is None:
            found = []
            for match in pattern.finditer(self.text):
                if match.start() >= self.cut:
                    break
                found.append(match)
            self._matches[_key(pattern)] = found
        return found

    def kept(self, what: object, pattern: re.Pattern[str], build: Callable[[], T]) -> T:
        """`build()` once per shared start and pattern."""
        key = (what, _key(pattern))
        if key not in self._kept:
            self._kept[key] = build()
        return self._kept[key]  # type: ignore[no-any-return]


@lru_cache(maxsize=16)
def _head(shared: str) -> _Head:
    return _Head(shared.lower())


class Scan:
    """The lowered `text`, scanned pattern by pattern; `shared` is the start it has in
    common with other texts (their scans of it are kept), "" for none."""

    def __init__(self, text: str, shared: str = "") -> None:
        self.text = text.lower()
        head = _head(shared) if shared else None
        if head is not None and head.cut > 0 and self.text.startswith(head.text[: head.cut + 1]):
            self._head: _Head | None = head
            self.cut = head.cut
        else:
            self._head, self.cut = None, 0
        self._words: dict[_Key, Counter[str]] = {}

    def first(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        """`pattern.search(text)`."""
        if self._head is not None:
            head = self._head
            found = head.kept("first", pattern, lambda: next(iter(head.matches(pattern)), None))
            if found is not None:
                return found
        return pattern.search(self.text, self.cut)

    def first_answer(
        self, pattern: re.Pattern[str], answer: Callable[[re.Match[str]], T | None]
    ) -> T | None:
        """The first of `pattern`'s matches, in order, for which `answer` is not None gives
        the result (None when none does). What the shared start's matches give is kept per
        shared start, pattern and `answer`, so `answer` is a module-level function of the
        match alone."""

        def first(matches: Iterable[re.Match[str]]) -> T | None:
            for match in matches:
                found = answer(match)
                if found is not None:
                    return found
            return None

        if self._head is not None:
            head = self._head
            found = head.kept(answer, pattern, lambda: first(head.matches(pattern)))
            if found is not None:
                return found
        return first(pattern.finditer(self.text, self.cut))

    def count(self, pattern: re.Pattern[str]) -> int:
        """`len(pattern.findall(text))`; a pattern that can read a full stop is counted
        over the whole text."""
        if self._head is None or "." in pattern.pattern:
            return len(pattern.findall(self.text))
        head = self._head
        shared = head.kept("count", pattern, lambda: len(head.matches(pattern)))
        return shared + len(pattern.findall(self.text, self.cut))

    def split_answers(self, pattern: re.Pattern[str], answer: Callable[[str], list[T]]) -> list[T]:
        """`answer`'s lists for the pieces of `pattern.split(text)`, in order, joined
        (`pattern` has no group and never matches empty). The pieces of the shared start
        that end at a match starting before its last full stop are the text's first pieces
        (those matches are the text's: see the module docstring), so their answers are kept
        per shared start, pattern and `answer`, a module-level function of the piece alone;
        the text from the end of the last such match on is split anew."""
        if self._head is None:
            return [a for piece in pattern.split(self.text) for a in answer(piece)]
        head = self._head

        def shared() -> tuple[int, list[T]]:
            start, out = 0, []
            for match in head.matches(pattern):
                out += answer(head.text[start : match.start()])
                start = match.end()
            return start, out

        start, out = head.kept(("split", answer), pattern, shared)
        return [*out, *(a for piece in pattern.split(self.text[start:]) for a in answer(piece))]

    def words(self, pattern: re.Pattern[str], word: str) -> int:
        """How many of `pattern`'s matches equal `word` (`pattern` matches single words)."""
        own = self._words.get(_key(pattern))
        if own is None:
            own = self._words[_key(pattern)] = Counter(pattern.findall(self.text, self.cut))
        if self._head is None:
            return own[word]
        head = self._head
        shared: Counter[str] = head.kept(
            "words", pattern, lambda: Counter(m.group() for m in head.matches(pattern))
        )
        return shared[word] + own[word]


__all__ = ["Scan"]
