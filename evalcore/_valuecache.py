"""Plain values worked out from a file's text, kept between processes, never code.

The `@tool` definitions of a Python file and a parsed settings file depend on the file's
text alone, so a light command does not parse them again in every process: they are kept in
one JSON file (`$CASEGEN_CACHE_DIR`, default `$XDG_CACHE_HOME/casegen` or
`~/.cache/casegen`), keyed by the text's SHA-256 (`text_key`), so an edited file never finds
another's values and the cache holds no project text.

The file is data only: JSON, with the few Python values a tool's signature can give written
as tagged objects (`{"~": "tuple", "v": [...]}`, bytes, complex, `...`, mappings with
non-text keys) and read back by building exactly those types; nothing in it is imported,
unpickled or executed. A file another user owns, or that others may write to, is ignored
with a warning (`trusted`): it could have been planted to change what casegen reads. An
absent, unreadable or corrupt file only means working the values out again.
"""

from __future__ import annotations

import atexit
import os
import stat
import sys
from pathlib import Path
from typing import Any

from ._regularfile import read_regular

#: Values kept at most (each is read by every command that loads the file: a small file).
MAX_VALUES = 512
#: The largest cache file read (a bigger one is ignored and rewritten).
MAX_CACHE_BYTES = 16 * 1024 * 1024
#: Bumped when the layout changes: an older file is simply not read.
FORMAT = "casegen-values-2"


def cache_root() -> Path:
    explicit = os.environ.get("CASEGEN_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "casegen"


_WARNED: set[str] = set()


def trusted(path: Path, info: os.stat_result) -> bool:
    """Whether a cache file may be read: a regular file this user owns, which neither its
    group nor others may write. Otherwise False, with one warning on stderr per file."""
    why = None
    if not stat.S_ISREG(info.st_mode):
        why = "it is not a regular file"
    elif hasattr(os, "getuid") and info.st_uid != os.getuid():
        why = f"it is owned by another user (uid {info.st_uid})"
    elif info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        why = f"others may write to it (mode {stat.filemode(info.st_mode)})"
    if why is None:
        return True
    if str(path) not in _WARNED:
        _WARNED.add(str(path))
        print(f"casegen: warning: ignoring the cache file {path}: {why}", file=sys.stderr)
    return False


def read_cache(path: Path, max_bytes: int = MAX_CACHE_BYTES) -> bytes | None:
    """A cache file's bytes, or None when it is absent, untrusted, too big or unreadable."""
    try:
        return read_regular(path, max_bytes, check=trusted)
    except OSError:  # absent, refused (`RefusedFile`), unreadable: a miss
        return None


class ValueCache:
    """Plain values (None, booleans, numbers, text, bytes, lists, tuples, mappings) keyed by
    `text_key`; each `get` builds a fresh copy, so no caller shares a container with another.
    At most `MAX_VALUES` entries are kept."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._values: dict[str, Any] | None = None
        self._used: set[str] = set()
        self._dirty = False

    @property
    def path(self) -> Path:
        return cache_root() / f"{self.name}.json"

    def get(self, key: str) -> Any:
        """The value kept for `key`, or None when there is none (or it does not decode)."""
        data = self._load().get(key)
        if data is None:
            return None
        self._used.add(key)
        try:
            return decode(data)
        except (TypeError, ValueError, KeyError, IndexError):  # a damaged entry: work it out
            return None

    def put(self, key: str, value: Any) -> None:
        """Keep `value` for `key` when it is plain (a set, a date or an object is not kept);
        written to the file at exit."""
        try:
            data = encode(value)
        except TypeError:
            return
        self._load()[key] = data
        self._used.add(key)
        if not self._dirty:
            self._dirty = True
            atexit.register(self.save)

    def _load(self) -> dict[str, Any]:
        if self._values is None:
            self._values = self._read()
        return self._values

    def _read(self) -> dict[str, Any]:
        data = read_cache(self.path)
        if data is None:
            return {}
        import json  # start-up: a command with no values file imports no JSON decoder

        try:
            document = json.loads(data)
        except (ValueError, RecursionError):
            return {}
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            return {}
        values = document.get("values")
        if not isinstance(values, dict):
            return {}
        return {k: v for k, v in values.items() if isinstance(k, str)}

    def save(self) -> None:
        """Write the values worked out here into the file (merged with what it holds now)."""
        if not self._dirty or self._values is None:
            return
        merged = {**self._read(), **self._values}
        if len(merged) > MAX_VALUES:
            merged = {k: v for k, v in self._values.items() if k in self._used}
        # start-up: json (its decoder's patterns), which a command that reads only YAML never needs
        import json

        text = json.dumps({"format": FORMAT, "values": merged}, ensure_ascii=False)
        if write_cache(self.path, text.encode("utf-8", "surrogatepass")):
            self._dirty = False


_TAG = "~"


def encode(value: Any) -> Any:
    """`value` as JSON data; TypeError for anything but the plain types above."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int | float) and type(value) in (int, float):
        return value
    if type(value) is list:
        return [encode(v) for v in value]
    if type(value) is tuple:
        return {_TAG: "tuple", "v": [encode(v) for v in value]}
    if type(value) is dict:
        if all(type(k) is str and k != _TAG for k in value):
            return {k: encode(v) for k, v in value.items()}
        return {_TAG: "map", "v": [[encode(k), encode(v)] for k, v in value.items()]}
    if type(value) is bytes:
        return {_TAG: "bytes", "v": value.hex()}
    if type(value) is complex:
        return {_TAG: "complex", "v": [value.real, value.imag]}
    if value is Ellipsis:
        return {_TAG: "ellipsis"}
    raise TypeError(f"not a plain value: {type(value).__name__}")


def decode(data: Any) -> Any:
    """What `encode` wrote, built from those types only."""
    if isinstance(data, list):
        return [decode(v) for v in data]
    if not isinstance(data, dict):
        return data
    tag = data.get(_TAG)
    if tag is None:
        return {k: decode(v) for k, v in data.items()}
    if tag == "tuple":
        return tuple(decode(v) for v in data["v"])
    if tag == "map":
        return {_hashable(decode(k)): decode(v) for k, v in data["v"]}
    if tag == "bytes":
        return bytes.fromhex(data["v"])
    if tag == "complex":
        real, imag = data["v"]
        return complex(float(real), float(imag))
    if tag == "ellipsis":
        return Ellipsis
    raise ValueError(f"unknown tag {tag!r}")


def _hashable(key: Any) -> Any:
    if isinstance(key, list | dict):
        raise ValueError("a mapping key that is a list or a mapping")
    return key


def text_key(kind: str, version: str, text: str) -> str:
    """The `ValueCache` key of what `kind` (at `version`) works out from `text`."""
    from ._sha256 import sha256  # start-up: evalcore._sha256, which --help never needs

    digest = sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{kind}\0{version}\0{digest}"


def write_cache(path: Path, data: bytes) -> bool:
    """Write a cache file atomically (a temporary beside it, then a rename), readable and
    writable by this user only; False when the folder cannot take it, which leaves the
    caller uncached, never failing."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(partial, path)
    except (OSError, ValueError):  # read-only home, full disk: uncached next time too
        return False
    return True


#: Values read from files' text: `@tool` definitions, parsed settings files.
VALUES = ValueCache("values")
