"""Loading case files with line numbers and duplicate-key detection.

A `Document` keeps the parsed data next to a map from JSON Pointer to source line, so every
later finding (schema, lint, review) can say *where* in the file it is. Both YAML and JSON
report a repeated mapping key as a `parse` error: PyYAML and `json` silently keep the last one,
which hides exactly the kind of mistake a drafted case makes.
"""

from __future__ import annotations

import bisect
import contextlib
import re
from dataclasses import field
from pathlib import Path
from typing import Any, Literal

from . import pointer as ptr
from ._pyyaml import yaml
from ._readbytes import describe as _describe
from ._readbytes import read_bytes as _read_bytes
from ._readbytes import read_limited as _read_bytes_limited
from ._record import dataclass
from ._yamlquick import node_lines, quick_read
from .findings import Finding
from .limits import (
    InputLimits,
    LimitExceeded,
    check_depth,
    check_yaml_graph,
    depth_message,
    limits_for,
    size_message,
    yaml_flow_too_deep,
)
from .yamlbuild import Build, walk
from .yamlio import CaseLoader, Yaml11Loader, case_loader

TextFormat = Literal["yaml", "json"]


@dataclass
class Document:
    """One parsed file: data, where each value sits, and any parse findings."""

    text: str
    format: TextFormat
    data: Any = None
    path: Path | None = None
    findings: list[Finding] = field(default_factory=list)
    _lines: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    _node: Any = field(default=None, repr=False, compare=False)
    """A root YAML node whose lines are recorded on first use, or the text the line reader
    read, composed then (`_yamlquick.node_lines`)."""

    @property
    def lines(self) -> dict[str, int]:
        """JSON Pointer -> 1-based line of every value the file holds."""
        if self._node is not None:
            self._lines, self._node = node_lines(self._node), None
        return self._lines

    @lines.setter
    def lines(self, value: dict[str, int]) -> None:
        self._lines, self._node = value, None

    @property
    def parsed(self) -> bool:
        """False when the text could not be parsed at all (data is then None)."""
        return not any(f.code == "parse" and f.path == "" for f in self.findings)

    def line_of(self, pointer: str) -> int | None:
        """Line of `pointer`, or of its nearest ancestor that exists in the file."""
        current = pointer
        while True:
            if current in self.lines:
                return self.lines[current]
            if not current:
                return None
            current = ptr.parent(current)

    def locate(self, findings: list[Finding]) -> list[Finding]:
        return [f.located(self.line_of(f.path)) for f in findings]


def format_for(path: Path) -> TextFormat:
    return "json" if path.suffix.lower() in {".json", ".jsonc"} else "yaml"


def load_document(
    path: Path, *, text: str | None = None, limits: InputLimits | None = None, locate: bool = True
) -> Document:
    """Read and parse `path` (YAML or JSON by suffix). Never raises on bad content.

    The size is checked before the file is read, so a huge file costs nothing. `locate=False`
    skips JSON's second pass for value lines and repeated keys (a data file needs neither).
    """
    limits = limits or limits_for(path)
    fmt = format_for(path)
    checked = False
    if text is None:
        try:
            content, too_big = _read_bytes(path, limits)
            if content is not None:
                text = content.decode("utf-8")
                # The decoded text (less a BOM) encodes to at most these bytes again.
                checked = len(content) <= limits.max_file_bytes
        except UnicodeDecodeError as exc:
            return _unread(path, fmt, f"file is not UTF-8 text: {exc.reason}", 1)
        except OSError as exc:
            return _unread(path, fmt, f"cannot read file: {_describe(exc)}", None)
        if text is None:
            return _unread(path, fmt, str(too_big), None)
    return parse_text(text, fmt, path=path, limits=limits, locate=locate, sized=checked)


def _unread(path: Path, fmt: TextFormat, message: str, line: int | None) -> Document:
    doc = Document(text="", format=fmt, path=path)
    doc.findings.append(Finding(code="parse", message=message, line=line))
    return doc


def parse_text(
    text: str,
    fmt: TextFormat,
    *,
    path: Path | None = None,
    limits: InputLimits | None = None,
    locate: bool = True,
    sized: bool = False,
    yaml11: bool = False,
) -> Document:
    """Parse text under the input limits; every problem is a `parse` finding. `sized`:
    the caller knows the text's UTF-8 bytes are within the size limit (read from a file
    whose bytes were). `yaml11`: read YAML by PyYAML's 1.1 rules, as Rasa reads its
    definition files (`yamlio.Yaml11Loader`), instead of the 1.2 core schema."""
    limits = limits or limits_for(path)
    text = text.removeprefix("\ufeff")
    too_big = None if sized else size_message(len(text.encode("utf-8", "surrogatepass")), limits)
    if too_big is not None:
        doc = Document(text="", format=fmt, path=path)
        doc.findings.append(Finding(code="parse", message=too_big))
        return doc
    if fmt == "json":
        return _parse_json(text, path, limits, locate=locate)
    return _parse_yaml(text, path, limits, yaml11=yaml11)


# --- YAML -------------------------------------------------------------------------------


def _parse_yaml(
    text: str, path: Path | None, limits: InputLimits, *, fast: bool = True, yaml11: bool = False
) -> Document:
    doc = Document(text=text, format="yaml", path=path)
    if yaml_flow_too_deep(text, limits):
        doc.findings.append(
            Finding(code="parse", message=f"invalid YAML: {depth_message(limits)}", line=1)
        )
        return doc
    if fast and not yaml11:
        quick = quick_read(text, limits)
        if quick is not None:  # plain case YAML: lines recorded when first asked for
            doc.data, doc._node = quick
            return doc
    try:
        loader = case_loader(text, fast=fast, yaml11=yaml11)
    except yaml.YAMLError as exc:  # the reader rejects control characters up front
        doc.findings.append(Finding(code="parse", message=f"invalid YAML: {exc}", line=1))
        return doc
    try:
        node = loader.get_single_node()
        if node is not None:
            if "*" in text:
                # Aliases may share nodes: before anything walks or constructs the graph,
                # an alias bomb or a cycle is refused while it is still a small graph.
                check_yaml_graph(node, limits)
            # Without a `*` there is no alias, so the graph is a tree and the walk itself
            # measures its depth (what check_yaml_graph would refuse, it refuses).
            state = Build(loader, doc.lines, doc.findings)
            doc.data = state.value(node, walk(node, "", state, 1, limits))
    except yaml.MarkedYAMLError as exc:
        doc.findings = [f for f in doc.findings if f.path]  # keep duplicate-key findings
        doc.findings.append(_yaml_error(exc))
        doc.data = None
    except yaml.YAMLError as exc:
        doc.findings = [f for f in doc.findings if f.path]
        doc.findings.append(Finding(code="parse", message=f"invalid YAML: {exc}", line=1))
        doc.data = None
    except LimitExceeded as exc:
        doc.findings = [Finding(code="parse", message=f"invalid YAML: {exc}", line=1)]
        doc.data = None
        doc.lines = {}
    except RecursionError:  # composing itself recurses per level (deep `[[[[...`)
        doc.findings = [
            Finding(code="parse", message=f"invalid YAML: {depth_message(limits)}", line=1)
        ]
        doc.data = None
    finally:
        loader.dispose()
    if fast and not doc.parsed and not isinstance(loader, CaseLoader | Yaml11Loader):
        # the pure-Python reader's message
        return _parse_yaml(text, path, limits, fast=False, yaml11=yaml11)
    return doc


def _yaml_error(exc: yaml.MarkedYAMLError) -> Finding:
    mark = exc.problem_mark or exc.context_mark
    parts = [p for p in (exc.context, exc.problem) if p]
    message = "invalid YAML: " + (", ".join(parts) if parts else str(exc))
    return Finding(
        code="parse",
        message=message,
        line=mark.line + 1 if mark else None,
        suggestion="check the indentation and quoting on that line",
    )


# --- JSON -------------------------------------------------------------------------------


def _parse_json(
    text: str, path: Path | None, limits: InputLimits, *, locate: bool = True
) -> Document:
    import json  # start-up: reading YAML alone (`sources`) needs no JSON

    doc = Document(text=text, format="json", path=path)
    try:
        data = json.loads(text)
        check_depth(data, limits)
    except json.JSONDecodeError as exc:
        doc.findings.append(
            Finding(
                code="parse",
                message=f"invalid JSON: {exc.msg} (column {exc.colno})",
                line=exc.lineno,
                suggestion="check for a missing comma, quote or bracket near that point",
            )
        )
        return doc
    except LimitExceeded as exc:
        doc.findings.append(Finding(code="parse", message=f"invalid JSON: {exc}", line=1))
        return doc
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        doc.findings.append(Finding(code="parse", message=f"invalid JSON: {exc}", line=1))
        return doc
    except RecursionError:
        doc.findings.append(
            Finding(code="parse", message=f"invalid JSON: {depth_message(limits)}", line=1)
        )
        return doc
    doc.data = data
    if locate:
        _JsonLocator(text, doc).walk()
    return doc


_NEWLINE = re.compile("\n")


def locate_json(doc: Document) -> None:
    """The value lines and repeated-key findings of a JSON document parsed with
    `locate=False`, for when it turns out to need them (a searched file that is a case)."""
    if doc.format == "json" and doc.data is not None and not doc.lines:
        _JsonLocator(doc.text, doc).walk()


class _JsonLocator:
    """Second pass over already-valid JSON that records value lines and repeated keys."""

    def __init__(self, text: str, doc: Document) -> None:
        # start-up: json (its decoder's patterns), which a command that reads only YAML never needs
        from json.decoder import scanstring

        self.scanstring = scanstring
        self.text = text
        self.doc = doc
        self.newlines = [m.start() for m in _NEWLINE.finditer(text)]

    def line_at(self, index: int) -> int:
        return bisect.bisect_left(self.newlines, index) + 1

    def skip_ws(self, i: int) -> int:
        while i < len(self.text) and self.text[i] in " \t\r\n":
            i += 1
        return i

    def walk(self) -> None:
        # The text already parsed as JSON, so these cannot happen; lines are best effort.
        with contextlib.suppress(IndexError, ValueError, RecursionError):
            self.value(self.skip_ws(0), "")

    def value(self, i: int, pointer: str) -> int:
        self.doc.lines.setdefault(pointer, self.line_at(i))
        ch = self.text[i]
        if ch == "{":
            return self.obj(i + 1, pointer)
        if ch == "[":
            return self.arr(i + 1, pointer)
        if ch == '"':
            return self.scanstring(self.text, i + 1)[1]
        j = i
        while j < len(self.text) and self.text[j] not in ",]} \t\r\n":
            j += 1
        return j

    def obj(self, i: int, pointer: str) -> int:
        seen: dict[str, int] = {}
        i = self.skip_ws(i)
        if self.text[i] == "}":
            return i + 1
        while True:
            i = self.skip_ws(i)
            key, end = self.scanstring(self.text, i + 1)
            line = self.line_at(i)
            child = ptr.join(pointer, key)
            if key in seen:
                self.doc.findings.append(
                    Finding(
                        code="parse",
                        path=child,
                        line=line,
                        value=key,
                        message=(
                            f"duplicate key '{key}' (first at line {seen[key]}); "
                            "JSON readers keep only the last value"
                        ),
                        suggestion="keep one of the two entries",
                    )
                )
            else:
                seen[key] = line
                self.doc.lines[child] = line
            i = self.skip_ws(end)
            i = self.skip_ws(i + 1)  # past ':'
            i = self.skip_ws(self.value(i, child))
            if self.text[i] == ",":
                i += 1
                continue
            return i + 1

    def arr(self, i: int, pointer: str) -> int:
        i = self.skip_ws(i)
        if self.text[i] == "]":
            return i + 1
        index = 0
        while True:
            i = self.skip_ws(self.value(self.skip_ws(i), ptr.join(pointer, index)))
            index += 1
            if self.text[i] == ",":
                i += 1
                continue
            return i + 1


# --- plain JSON data files (events, results, manifests) ---------------------------------


class UnreadableFile(ValueError):
    """A data file could not be read or parsed within the limits; the message says why."""


def read_json(path: Path, *, limits: InputLimits | None = None) -> Any:
    """Parsed JSON of a data file under the input limits (size before reading, depth).

    Raises:
        UnreadableFile: unreadable, not UTF-8, not JSON, too large or nested too deeply.
    """
    doc = load_document(path, limits=limits, locate=False) if format_for(path) == "json" else None
    if doc is None:  # a data file whose name does not say JSON is still read as JSON
        limits = limits or limits_for(path)
        try:
            text = _read_bytes_limited(path, limits).decode("utf-8")
        except OSError as exc:
            raise UnreadableFile(f"cannot read {path}: {_describe(exc)}") from None
        except UnicodeDecodeError as exc:
            raise UnreadableFile(f"cannot read {path}: {exc}") from None
        doc = _parse_json(text.removeprefix("\ufeff"), path, limits, locate=False)
    errors = [f for f in doc.findings if f.path == ""]
    if errors:
        where = f" (line {errors[0].line})" if errors[0].line else ""
        message = errors[0].message
        if message.startswith("invalid JSON: "):
            message = "not valid JSON: " + message.removeprefix("invalid JSON: ") + where
        raise UnreadableFile(f"cannot read {path}: {message}")
    return doc.data
