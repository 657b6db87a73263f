"""The cases a draft is compared with in the dedupe step, looked up instead of scanned.

`same_case` decides by path first: a draft on a planned path duplicates only a case on the
same path, or a case without one whose facts are exactly its own; a draft without a path
duplicates a case on a path only with exactly the same facts. So a draft needs comparing
with few of the cases kept before it, and comparing it with every one of them made the
step grow with the square of the cases. `Pool.same` gives what the scan over all of them
gave (`max` of the same `(similarity, label)` pairs does not depend on their order).
"""

from __future__ import annotations

from evalcore.dedupe import Fingerprint, is_duplicate, similarity

Entry = tuple[str, Fingerprint]


class Pool:
    """Cases seen so far (the committed suite, earlier output, the drafts kept)."""

    def __init__(self) -> None:
        self._on_path: dict[str, list[Entry]] = {}
        self._pathless: list[Entry] = []
        self._pathless_by_facts: dict[frozenset[str], list[Entry]] = {}
        self._on_path_by_facts: dict[frozenset[str], list[Entry]] = {}

    def add(self, label: str, mark: Fingerprint, path: str | None = None) -> None:
        entry = (label, mark)
        if path is None:
            self._pathless.append(entry)
            self._pathless_by_facts.setdefault(mark.facts, []).append(entry)
        else:
            self._on_path.setdefault(path, []).append(entry)
            self._on_path_by_facts.setdefault(mark.facts, []).append(entry)

    def same(self, mark: Fingerprint, path: str | None) -> list[tuple[float, str]]:
        """`(similarity, label)` of every case `same_case` calls a duplicate of `mark`."""
        if path is not None:
            candidates = list(self._on_path.get(path, ()))
            if mark.facts:
                candidates += self._pathless_by_facts.get(mark.facts, ())
        else:
            candidates = list(self._pathless)
            if mark.facts:
                candidates += self._on_path_by_facts.get(mark.facts, ())
        return [
            (similarity(mark, other), label)
            for label, other in candidates
            if is_duplicate(mark, other)
        ]


__all__ = ["Pool"]
