"""PyYAML, imported without compiling the one pattern its pure-Python reader checks text with.

`yaml/__init__.py` always imports `yaml.reader`, whose `Reader` class compiles
`NON_PRINTABLE` (a character class over most of Unicode) at import: about 10 ms of CPU, 3 %
of a light command's start-up, though only the pure-Python loaders call it and casegen
reads YAML with libyaml's loaders first (`validate` and `sources` on valid files never call
it). While `yaml` is imported here, that one pattern is a stand-in that compiles the real
pattern on first use and puts it on `Reader` in its place; any other pattern, and a PyYAML
whose reader writes another one, compiles as before. `tests/test_pyyaml_import.py` checks
that the reader's errors are the same.
"""

from __future__ import annotations

import re
import sys
from typing import Any

#: `yaml.reader.Reader.NON_PRINTABLE`'s source, as PyYAML 5.1 to 6.x writes it.
NON_PRINTABLE = "[^\t\n\r -~\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"


class _Deferred:
    """Stands for `re.compile(NON_PRINTABLE)` on `yaml.reader.Reader` until first used."""

    pattern = NON_PRINTABLE
    flags = 0

    def _real(self) -> re.Pattern[str]:
        real = re.compile(NON_PRINTABLE)
        reader = sys.modules.get("yaml.reader")
        if reader is not None and reader.Reader.__dict__.get("NON_PRINTABLE") is self:
            reader.Reader.NON_PRINTABLE = real
        return real

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real(), name)


def _import() -> None:
    if "yaml.reader" in sys.modules:
        return
    compile_ = re.compile

    def deferring(pattern: Any, flags: Any = 0) -> Any:
        if flags == 0 and pattern == NON_PRINTABLE:
            return _Deferred()
        return compile_(pattern, flags)

    re.compile = deferring  # type: ignore[assignment]
    try:
        import yaml  # noqa: F401
    finally:
        re.compile = compile_


_import()

import yaml  # noqa: E402 - the module `_import` loaded

__all__ = ["NON_PRINTABLE", "yaml"]
