"""What every reader shares: reading files once, hashing them, and collecting warnings.

Readers never raise on a bad definition file: a problem becomes a warning string of the form
`path:line: message` (path relative to the project root), and reading goes on with whatever
could be understood.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import field
from pathlib import Path
from typing import Any

from .. import pointer as ptr
from .._readbytes import RefusedFile, describe, not_regular, read_limited
from .._record import dataclass
from ..documents import Document, parse_text
from ..limits import InputLimits, limits_for
from ._hashing import sha256_hex, source_files
from ._model import SourceFile
from ._model_base import SourceRef


@dataclass
class ReadContext:
    """One project read: the root, the files read so far (with hashes) and the warnings."""

    root: Path
    warnings: list[str] = field(default_factory=list)
    hashes: dict[str, str] = field(default_factory=dict)
    _limits: dict[Path, InputLimits] = field(default_factory=dict, repr=False, compare=False)
    _real: dict[Path, Path] = field(default_factory=dict, repr=False, compare=False)

    # --- paths and messages ---------------------------------------------------------------

    def rel(self, path: Path) -> str:
        """`path` relative to the root, in posix form (as written in warnings and sources)."""
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()

    def ref(self, path: Path, line: int | None = None) -> SourceRef:
        return SourceRef(file=self.rel(path), line=line)

    def warn(self, path: Path, line: int | None, message: str) -> None:
        where = self.rel(path) if line is None else f"{self.rel(path)}:{line}"
        self.warnings.append(f"{where}: {message}")

    def sources(self) -> list[SourceFile]:
        return source_files(self.hashes)

    # --- reading --------------------------------------------------------------------------

    def limits(self, path: Path) -> InputLimits:
        """`limits_for(path)`, asked once per folder of this read (each ask walks up to the
        filesystem root for a settings file): a file that is not a symlink has its folder's
        limits."""
        folder = path.parent
        if path.is_symlink():
            return limits_for(path)
        kept = self._limits.get(folder)
        if kept is None:
            kept = self._limits[folder] = limits_for(path)
        return kept

    def present(self, path: Path) -> bool:
        """Whether a definition file is there to read: a regular file (links followed).
        Something else in its place (a FIFO, a device, a folder, a broken link) is not
        read and gets a warning, rather than being passed over in silence."""
        if path.is_file():
            return True
        if os.path.lexists(path):
            try:
                what = not_regular(path.stat().st_mode)
            except OSError as exc:
                what = describe(exc)
            self.warn(path, None, f"not read: {what}")
        return False

    def outside(self, path: Path) -> Path | None:
        """Where `path` really is, when a link (the file's or a folder's) takes it out of
        the project root; None when it is inside. Definitions come from pull requests: a
        `skills/x/skill.md` linked to a file elsewhere is not read, as case files are not."""
        folder = path.parent
        real = self._real.get(folder)
        if real is None:
            real = self._real[folder] = Path(os.path.realpath(folder))
        target = Path(os.path.realpath(path)) if path.is_symlink() else real / path.name
        root = self._real.get(self.root)
        if root is None:
            root = self._real[self.root] = Path(os.path.realpath(self.root))
        return None if target.is_relative_to(root) else target

    def read_text(self, path: Path) -> str | None:
        """The file's text (hashed as a source), or None with a warning when it is not read:
        a link out of the project, not a regular file, over the size limit, unreadable."""
        try:
            elsewhere = self.outside(path)
            if elsewhere is not None:
                self.warn(
                    path,
                    None,
                    f"not read: it is a link to {elsewhere}, outside the project; "
                    "definitions are read from the project folder only",
                )
                return None
            data = read_limited(path, self.limits(path))
        except RefusedFile as exc:
            self.warn(path, None, f"not read: {exc}" if "limit" not in str(exc) else str(exc))
            return None
        except OSError as exc:
            self.warn(path, None, f"cannot read file: {describe(exc)}")
            return None
        self.hashes[self.rel(path)] = sha256_hex(data)
        try:
            return data.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError as exc:
            self.warn(path, None, f"file is not UTF-8 text: {exc.reason}")
            return None

    limits_for = limits  # the name the validation side reads it by

    def read_yaml(self, path: Path, *, yaml11: bool = False) -> Document | None:
        """The parsed YAML file (None when unreadable); parse problems become warnings.
        `yaml11`: the file is one Rasa reads with PyYAML (YAML 1.1), read the same way."""
        text = self.read_text(path)
        if text is None:
            return None
        return self.parse_yaml(text, path, yaml11=yaml11)

    def parse_yaml(
        self, text: str, path: Path, *, line_offset: int = 0, yaml11: bool = False
    ) -> Document:
        """Parse YAML that sits in `path` starting after line `line_offset`."""
        doc = parse_text(text, "yaml", path=path, limits=self.limits(path), yaml11=yaml11)
        if line_offset:
            doc.lines = {key: line + line_offset for key, line in doc.lines.items()}
        for finding in doc.findings:
            line = finding.line + line_offset if finding.line is not None else None
            self.warn(path, line, finding.message)
        if doc.data is not None:
            doc.data = self._string_keys(doc, doc.data, "")
        return doc

    def _string_keys(self, doc: Document, value: Any, pointer: str) -> Any:
        """Mapping keys as strings: every id in a definition file is a name, and readers
        (and the pydantic models they fill) expect `str` keys. `12:` or `true:` is read as
        `'12'`/`'True'` with a warning; a mapping or list as a key is dropped."""
        if isinstance(value, list):
            return [self._string_keys(doc, v, ptr.join(pointer, i)) for i, v in enumerate(value)]
        if not isinstance(value, dict):
            return value
        out: dict[str, Any] = {}
        for key, item in value.items():
            child = ptr.join(pointer, str(key))
            if not isinstance(key, str):
                assert doc.path is not None
                line = doc.line_of(child)
                if isinstance(key, dict | list | tuple) or key is None:
                    self.warn(doc.path, line, f"a key must be a name, not {key!r}; entry ignored")
                    continue
                self.warn(doc.path, line, f"key {key!r} is not a name; read as '{key}'")
                key = str(key)
            out[key] = self._string_keys(doc, item, child)
        return out

    def line(self, doc: Document, *tokens: str | int) -> int | None:
        """Line of the value at `tokens` in `doc` (or of its nearest parent)."""
        return doc.line_of(ptr.from_parts(tokens))

    def warn_at(self, doc: Document, tokens: tuple[str | int, ...], message: str) -> None:
        """Warn at the line of the value at `tokens` in `doc`."""
        assert doc.path is not None
        self.warn(doc.path, self.line(doc, *tokens), message)

    def warn_unknown_keys(
        self,
        doc: Document,
        data: dict[str, Any],
        allowed: Iterable[str],
        tokens: tuple[str | int, ...],
        what: str,
    ) -> None:
        """Warn (with its line) for each key of `data`, found at `tokens`, not in `allowed`."""
        known = set(allowed)
        for key in data:
            if key not in known:
                self.warn_at(
                    doc,
                    (*tokens, str(key)),
                    f"unknown {what} key '{key}' (known: {', '.join(sorted(known))})",
                )


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
