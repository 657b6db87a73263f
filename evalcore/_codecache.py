"""Compiled code for the source casegen's records generate at import, kept between processes.

`dataclasses` writes each record's `__init__`, `__repr__` and `__eq__` as source text and
compiles it every time the class is made: about 25 ms of the 35 ms that defining the
project model's 27 records costs, in every process, for text that never changes. Python's
own `__pycache__` cannot hold it (it is not a module's source), so this keeps the code
objects in one marshal file beside the fast schema checks (`$CASEGEN_CACHE_DIR`, default
`$XDG_CACHE_HOME/casegen` or `~/.cache/casegen`), keyed by the exact source text and the
interpreter's bytecode tag. The text is the key, so a changed record never finds another's
code; an absent, unreadable or corrupt file only means compiling again.

`ValueCache` keeps plain values worked out from a file's text the same way (the `@tool`
definitions of a Python file, a parsed settings file), so a light command does not parse
them again in every process.
"""

from __future__ import annotations

import builtins
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any

#: Entries kept at most: a file that only grew (records edited over and over) is rewritten
#: with what this process used.
MAX_ENTRIES = 2048
#: Values kept at most (each is read by every command that loads the file: a small file).
MAX_VALUES = 512


def cache_root() -> Path:
    explicit = os.environ.get("CASEGEN_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "casegen"


class CodeCache:
    """`compile(source, "<string>", "exec")` as `dataclasses`' own `exec` compiles it (no
    `from __future__` flags of this module: its annotations stay objects, not text),
    answered from the file when it holds the code; what was compiled is written back once,
    at exit."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._codes: dict[str, CodeType] | None = None
        self._used: set[str] = set()
        self._dirty = False

    @property
    def path(self) -> Path:
        return cache_root() / f"{self.name}.{sys.implementation.cache_tag}.marshal"

    def compile(self, source: str) -> CodeType:
        codes = self._load()
        code = codes.get(source)
        if code is None:
            code = codes[source] = builtins.compile(source, "<string>", "exec", dont_inherit=True)
            if not self._dirty:
                self._dirty = True
                import atexit

                atexit.register(self.save)
        self._used.add(source)
        return code

    def exec(self, source: Any, globals: Any = None, locals: Any = None) -> None:
        """`exec` as `dataclasses` calls it, with the source's code from the cache."""
        code = self.compile(source) if isinstance(source, str) else source
        builtins.exec(code, globals, locals)

    def _load(self) -> dict[str, CodeType]:
        if self._codes is None:
            self._codes = self._read()
        return self._codes

    def _read(self) -> dict[str, CodeType]:
        try:
            codes = marshal.loads(self.path.read_bytes())
        except Exception:  # absent, unreadable, another marshal format: compile again
            return {}
        if not isinstance(codes, dict):
            return {}
        return {k: v for k, v in codes.items() if isinstance(k, str) and isinstance(v, CodeType)}

    def save(self) -> None:
        """Write the codes compiled here into the file (merged with what it holds now)."""
        if not self._dirty or self._codes is None:
            return
        merged = {**self._read(), **self._codes}
        if len(merged) > MAX_ENTRIES:
            merged = {k: v for k, v in self._codes.items() if k in self._used}
        if write_cache(self.path, marshal.dumps(merged)):
            self._dirty = False


#: The records' generated methods (`evalcore._record`).
#: ("dataclasses", not the earlier "records" file, whose code was compiled with this module's
#: `annotations` flag: `inspect.signature` of a record showed `'_type_name'` annotations.)
RECORDS = CodeCache("dataclasses")


class ValueCache:
    """Plain values (what `marshal` writes: numbers, text, bytes, lists, tuples, dicts)
    worked out from a text that is their whole input, kept between processes like the
    records' code: the tools a Python file defines, a parsed settings file. Keys name the
    text by its SHA-256 (`text_key`), so an edited file never finds another's values and the
    cache holds no project text; each `get` unmarshals a fresh copy, so no caller shares a
    container with another. At most `MAX_VALUES` entries are kept."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._values: dict[str, bytes] | None = None
        self._used: set[str] = set()
        self._dirty = False

    @property
    def path(self) -> Path:
        return cache_root() / f"{self.name}.{sys.implementation.cache_tag}.marshal"

    def get(self, key: str) -> Any:
        """The value kept for `key`, or None when there is none (or it does not load)."""
        data = self._load().get(key)
        if data is None:
            return None
        self._used.add(key)
        try:
            return marshal.loads(data)
        except Exception:  # corrupt entry: work it out again
            return None

    def put(self, key: str, value: Any) -> None:
        """Keep `value` for `key` when marshal can write it exactly (a set is not kept: its
        order could come back another way); written to the file at exit."""
        if _has_set(value):
            return
        try:
            data = marshal.dumps(value)
        except ValueError:  # a date, a class instance: not a plain value, not kept
            return
        self._load()[key] = data
        self._used.add(key)
        if not self._dirty:
            self._dirty = True
            import atexit

            atexit.register(self.save)

    def _load(self) -> dict[str, bytes]:
        if self._values is None:
            self._values = self._read()
        return self._values

    def _read(self) -> dict[str, bytes]:
        try:
            values = marshal.loads(self.path.read_bytes())
        except Exception:  # absent, unreadable, another marshal format: work it out again
            return {}
        if not isinstance(values, dict):
            return {}
        return {k: v for k, v in values.items() if isinstance(k, str) and isinstance(v, bytes)}

    def save(self) -> None:
        """Write the values worked out here into the file (merged with what it holds now)."""
        if not self._dirty or self._values is None:
            return
        merged = {**self._read(), **self._values}
        if len(merged) > MAX_VALUES:
            merged = {k: v for k, v in self._values.items() if k in self._used}
        if write_cache(self.path, marshal.dumps(merged)):
            self._dirty = False


def text_key(kind: str, version: str, text: str) -> str:
    """The `ValueCache` key of what `kind` (at `version`) works out from `text`."""
    from ._sha256 import sha256

    digest = sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{kind}\0{version}\0{digest}"


def _has_set(value: Any) -> bool:
    if isinstance(value, set | frozenset):
        return True
    if isinstance(value, list | tuple):
        return any(_has_set(v) for v in value)
    if isinstance(value, dict):
        return any(_has_set(k) or _has_set(v) for k, v in value.items())
    return False


def write_cache(path: Path, data: bytes) -> bool:
    """Write a cache file atomically (a temporary beside it, then a rename); False when the
    folder cannot take it, which leaves the caller uncached, never failing."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_bytes(data)
        os.replace(partial, path)
    except (OSError, ValueError):  # read-only home, full disk: uncached next time too
        return False
    return True


#: Values read from files' text: `@tool` definitions, parsed settings files.
VALUES = ValueCache("values")
