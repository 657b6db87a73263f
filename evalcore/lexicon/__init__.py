"""The English casegen reads, in one place: every phrase pattern with a name, the lines it
must match and the lines it must not.

A pattern that reads people's words (an agent's confirmation question, a judge's stated
verdict, a line of a simulation context) is a claim about a language, and such claims
drift apart when each module keeps its own. Here each is declared once with `phrase`,
next to examples that pin what it means; `tests/test_lexicon.py` checks every example of
every phrase, so a pattern changed for one case cannot silently stop matching another.

Word tables (stop words, pronouns, the verbs of a sense) are declared the same way with
`words`: a named table with words it must hold and words it must not, so that the edge of
a table is written down where it is defined and checked by the same test.

Languages are subpackages (`evalcore.lexicon.en`); modules inside one group phrases by
what they read, not by who reads them.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import TypeVar, cast

from ._lazy import LazyPattern

__all__ = ["LazyPattern", "Phrase", "Words", "phrase", "phrases", "word_tables", "words"]

_Table = TypeVar("_Table", bound=Collection[str])


@dataclass(frozen=True)
class Phrase:
    """One named pattern and the examples that define it (`search` semantics: a pattern
    that must match at the start says so with `^`)."""

    name: str
    regex: re.Pattern[str]
    matches: tuple[str, ...]
    misses: tuple[str, ...]


@dataclass(frozen=True)
class Words:
    """One named word table and the words that define its edge (`in` semantics: a map's
    members are its keys)."""

    name: str
    table: Collection[str]
    members: tuple[str, ...]
    non_members: tuple[str, ...]


_REGISTRY: dict[str, Phrase] = {}
_TABLES: dict[str, Words] = {}


def _unique(name: str) -> None:
    if name in _REGISTRY or name in _TABLES:
        raise ValueError(f"{name!r} is declared twice")


def phrase(
    name: str,
    pattern: str,
    flags: int = 0,
    *,
    matches: tuple[str, ...],
    misses: tuple[str, ...],
) -> re.Pattern[str]:
    """Register `pattern` as `name` with its examples and hand back the pattern callers
    use: a `LazyPattern`, which compiles on first use and answers as `re.compile(pattern,
    flags)` (most phrases go unused in one run). At least one example each way: a pattern
    with no line it must miss has no stated edge."""
    if not matches or not misses:
        raise ValueError(f"phrase {name!r} needs examples it matches and examples it misses")
    _unique(name)
    # Callers use it through the compiled pattern's methods and attributes only.
    compiled = cast(re.Pattern[str], LazyPattern(pattern, flags))
    _REGISTRY[name] = Phrase(name, compiled, tuple(matches), tuple(misses))
    return compiled


def words(
    name: str,
    table: _Table,
    *,
    members: tuple[str, ...],
    non_members: tuple[str, ...],
) -> _Table:
    """Register `table` as `name` with words it holds and words it must not hold, and hand
    it back as it is (a frozenset, a tuple whose order a caller relies on, a word map).
    At least one example each way: a table with no word it must leave out has no stated
    edge."""
    if not members or not non_members:
        raise ValueError(f"word table {name!r} needs words it holds and words it must not")
    _unique(name)
    _TABLES[name] = Words(name, table, tuple(members), tuple(non_members))
    return table


def _load(language: str) -> str:
    """Import every module of `language` so that all have registered; the name prefix."""
    package = importlib.import_module(f"{__name__}.{language}")
    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{info.name}")
    return f"{language}."


def word_tables(language: str = "en") -> list[Words]:
    """Every word table of `language`, its modules imported so that all have registered."""
    prefix = _load(language)
    return [t for name, t in sorted(_TABLES.items()) if name.startswith(prefix)]


def phrases(language: str = "en") -> list[Phrase]:
    """Every phrase of `language`, its modules imported so that all have registered."""
    prefix = _load(language)
    return [p for name, p in sorted(_REGISTRY.items()) if name.startswith(prefix)]
