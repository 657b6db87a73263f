"""Roles from an audience text whose start many texts share (every skill's audience text
begins with the project's words): the shared start's scans are kept, so each text reads
only its own part, and the roles are the ones a scan of the whole text gives."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import pytest

from evalcore.testdata import _audience_list, _people, roles_for

#: Starts that end mid-phrase, so a match may run across the join into the skill's words.
SHARED = [
    "Bank assistant. Callers are account holders and tenants who rent",
    "Shift desk for a cafe. It helps",
    "Support desk. Two kinds of people talk to you",
    "Help desk; answers questions about cards. Drivers and",
    "Assistant for leave balances. The people talking to you are",
    "Nothing about who calls here.",
    "No full stop at all in this one helps",
    "Answers tenants about rent. Works with",
]
OWN = [
    "truck drivers write to you about loads",
    "baristas swap shifts",
    ": library members on the website, and branch staff.",
    "property managers with many addresses. Replace a card",
    "pull requests and the api key",
    "for leave balances",
    "",
]


@pytest.mark.parametrize(("shared", "own"), list(itertools.product(SHARED, OWN)))
def test_roles_with_a_shared_start_are_those_of_the_whole_text(shared: str, own: str) -> None:
    text = f"{shared} {own} {own}"
    assert roles_for(text, shared) == roles_for.__wrapped__(text)


def test_a_text_that_does_not_begin_with_its_shared_start_is_scanned_whole() -> None:
    text = "Helps truck drivers. Replace a card"
    assert roles_for(text, "Callers are tenants. And") == roles_for.__wrapped__(text)


class _Reading:
    """A compiled pattern that counts the characters its scans start from."""

    def __init__(self, pattern: re.Pattern[str], read: list[int]) -> None:
        self._pattern, self._read = pattern, read
        self.pattern, self.flags = pattern.pattern, pattern.flags

    def _count(self, text: str, pos: int) -> None:
        self._read.append(len(text) - pos)

    def finditer(self, text: str, pos: int = 0) -> Iterator[re.Match[str]]:
        self._count(text, pos)
        return self._pattern.finditer(text, pos)

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        self._count(text, pos)
        return self._pattern.search(text, pos)

    def findall(self, text: str, pos: int = 0) -> list[Any]:
        self._count(text, pos)
        return self._pattern.findall(text, pos)

    def fullmatch(self, word: str) -> re.Match[str] | None:
        return self._pattern.fullmatch(word)  # a domain word, not the text


def _read_per_skill(skills: int, monkeypatch: pytest.MonkeyPatch) -> float:
    read: list[int] = []
    for module, name in [
        (_people, "_AUDIENCE"),
        (_people, "_WRITERS"),
        (_people, "_ONE_WORD"),
        (_audience_list, "_LIST"),
        (_audience_list, "_KINDS"),
    ]:
        monkeypatch.setattr(module, name, _Reading(getattr(module, name), read))
    # no audience phrase, list or writers: every stage down to the domain words' count runs
    descriptions = [f"Skill {n} looks up order {n} and its delivery date." for n in range(skills)]
    shared = " ".join(["Shop assistant", "Orders and parcels.", *descriptions])
    for own in descriptions:
        assert roles_for(f"{shared} {own} {own}", shared)
    monkeypatch.undo()
    assert len(read) >= 5 * skills  # each stage scanned
    return sum(read) / skills


def test_a_skills_roles_read_its_own_words_not_every_skills(monkeypatch) -> None:
    roles_for.cache_clear()
    few = _read_per_skill(10, monkeypatch)
    many = _read_per_skill(80, monkeypatch)
    # the shared start is read once per project: per skill, about its own words
    assert many < 2 * few, (few, many)
