"""A lexicon pattern that compiles on first use.

The lexicon declares about 490 phrases and every command that reads prose imports most of
its modules, yet one run uses a fraction of them (a `generate` on one project, a handful of
`validate` findings): compiling them all at import cost ~60 ms of CPU before anything else
could start. `LazyPattern` holds the source and flags and compiles with `re.compile` the
first time a pattern method or attribute is asked for; it then keeps the compiled
pattern's bound methods on itself, so later calls cost what the compiled pattern's do.

It answers as `re.compile(pattern, flags)` does: `.search/.match/.fullmatch/.finditer/
.findall/.sub/.subn/.split/.scanner`, `.pattern`, `.flags`, `.groups`, `.groupindex`,
equality and hash. It is not an `re.Pattern`, so the `re` module's functions
(`re.sub(p, ...)`) refuse it with a TypeError; callers use its methods, as the lexicon's
callers do (`tests/test_lexicon_lazy.py`).
"""

from __future__ import annotations

import re
from typing import Any

#: The compiled pattern's methods and attributes put on a `LazyPattern` once compiled.
_COPIED = (
    "search",
    "match",
    "fullmatch",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "scanner",
    "groups",
    "groupindex",
)


class LazyPattern:
    """`re.compile(pattern, flags)`, compiled the first time it is used."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.__dict__["_source"] = pattern
        self.__dict__["_flags"] = flags
        self.__dict__["_compiled"] = None

    @property
    def pattern(self) -> str:
        """The source, without compiling (patterns built from others read only this)."""
        source: str = self.__dict__["_source"]
        return source

    @property
    def flags(self) -> int:
        """The compiled pattern's flags (inline flags and `re.UNICODE` included)."""
        return self.compiled().flags

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern; compiles it on the first call and keeps its methods."""
        found: re.Pattern[str] | None = self.__dict__["_compiled"]
        if found is None:
            found = re.compile(self.__dict__["_source"], self.__dict__["_flags"])
            self.__dict__["_compiled"] = found
            for name in _COPIED:
                self.__dict__[name] = getattr(found, name)
        return found

    def __getattr__(self, name: str) -> Any:
        # Only called for a name not yet on the instance: the first use of a method.
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.compiled(), name)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a lexicon pattern is read-only")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyPattern):
            other = other.compiled()
        return self.compiled() == other

    def __hash__(self) -> int:
        return hash(self.compiled())

    def __repr__(self) -> str:
        return repr(self.compiled())

    def __copy__(self) -> LazyPattern:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> LazyPattern:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str, int]]:
        return (LazyPattern, (self.__dict__["_source"], self.__dict__["_flags"]))
