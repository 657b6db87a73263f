"""The English casegen reads, in one place: every phrase pattern with a name, the lines it
must match and the lines it must not.

A pattern that reads people's words (an agent's confirmation question, a judge's stated
verdict, a line of a simulation context) is a claim about a language, and such claims
drift apart when each module keeps its own. Here each is declared once with `phrase`,
next to examples that pin what it means; `tests/test_lexicon.py` checks every example of
every phrase, so a pattern changed for one case cannot silently stop matching another.

Languages are subpackages (`evalcore.lexicon.en`); modules inside one group phrases by
what they read, not by who reads them.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from dataclasses import dataclass

__all__ = ["Phrase", "phrase", "phrases"]


@dataclass(frozen=True)
class Phrase:
    """One named pattern and the examples that define it (`search` semantics: a pattern
    that must match at the start says so with `^`)."""

    name: str
    regex: re.Pattern[str]
    matches: tuple[str, ...]
    misses: tuple[str, ...]


_REGISTRY: dict[str, Phrase] = {}


def phrase(
    name: str,
    pattern: str,
    flags: int = 0,
    *,
    matches: tuple[str, ...],
    misses: tuple[str, ...],
) -> re.Pattern[str]:
    """Compile `pattern` and register it as `name` with its examples; the compiled pattern
    is what callers use. At least one example each way: a pattern with no line it must
    miss has no stated edge."""
    if not matches or not misses:
        raise ValueError(f"phrase {name!r} needs examples it matches and examples it misses")
    if name in _REGISTRY:
        raise ValueError(f"phrase {name!r} is declared twice")
    compiled = re.compile(pattern, flags)
    _REGISTRY[name] = Phrase(name, compiled, tuple(matches), tuple(misses))
    return compiled


def phrases(language: str = "en") -> list[Phrase]:
    """Every phrase of `language`, its modules imported so that all have registered."""
    package = importlib.import_module(f"{__name__}.{language}")
    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{info.name}")
    prefix = f"{language}."
    return [p for name, p in sorted(_REGISTRY.items()) if name.startswith(prefix)]
