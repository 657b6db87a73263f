"""YAML reading and writing with the rules case files need.

PyYAML implements YAML 1.1, where `on`, `yes` and `no` are booleans and `2026-10-14` is a
date. Mantle's own files (`utter: [{utter_x: {on: activate}}]`) and case files are written
for YAML 1.2 readers, so casegen reads with the 1.2 core schema: only true/false are bools and
timestamps stay strings. Output is quoted so that 1.1 and 1.2 readers agree.

Writing: case YAML goes through PyYAML's own emitter, driven straight from the Python values.

`yaml.dump` turns the data into representation nodes, the nodes into events, and runs the
events through the emitter's state machine, which looks ahead in an event queue before it
writes anything: most of the time of writing a case file went there, not into the text.
Case data is plain JSON-like values in block style, so this walks them directly and calls
the same emitter steps the state machine would (indents, indicators, PyYAML's scalar
style choice and scalar writers, `CaseDumper`'s representers and resolvers), in the same
order: the bytes are `yaml.dump`'s. Anything else (another type, a container shared by two
places, a key that cannot be a simple key) is left to `yaml.dump`.

Scalars are most of a case file, and the same keys and values come back in file after
file: the style PyYAML chooses for a scalar depends on its value and on whether it is a key
only, so it is decided once per value (`_decide`) and kept. Keys, and values in plain or
single-quoted style that end before the fold width, cannot fold, so their text is written
straight; literal blocks are written line by line as `write_literal` would; anything else
(a value that may fold, double quotes, folded blocks) goes through the emitter's writer.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from ._pyyaml import yaml
from .lexicon.notation import yaml_literals


class CaseLoader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 scalars as Rasa's reader (ruamel.yaml) resolves them: only
    true/false are bools, timestamps stay strings, numbers may hold `_` and `0b`/`0o`/`0x`."""


CaseLoader.yaml_implicit_resolvers = {}
#: ruamel.yaml's YAML 1.2 resolvers (`ruamel/yaml/resolver.py`), in its order, so that a
#: plain scalar is the same value for casegen as for Rasa's `load_scenario` (`1_000` and
#: `0b101` are ints, `.5e3` is text, `017` is 17). Timestamps are left out: Rasa turns them
#: back into the text they were.
_CORE_RESOLVERS = [
    (
        "tag:yaml.org,2002:bool",
        yaml_literals.BOOL,
        list("tTfF"),
    ),
    # Numbers as ruamel.yaml reads YAML 1.2 (the reader Rasa's `load_scenario` uses):
    # `_` separates digits (`1_000` is 1000) and `0b101` is binary.
    (
        "tag:yaml.org,2002:float",
        yaml_literals.FLOAT,
        list("-+0123456789."),
    ),
    (
        "tag:yaml.org,2002:int",
        yaml_literals.INT,
        list("-+0123456789"),
    ),
    ("tag:yaml.org,2002:merge", re.compile(r"^(?:<<)$"), ["<"]),
    ("tag:yaml.org,2002:null", yaml_literals.NULL, ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:value", re.compile(r"^(?:=)$"), ["="]),
]
for _tag, _regexp, _first in _CORE_RESOLVERS:
    CaseLoader.add_implicit_resolver(_tag, _regexp, _first)

_INT_BASES = {"0b": 2, "0o": 8, "0x": 16}


def _construct_yaml12_int(loader: CaseLoader, node: yaml.ScalarNode) -> int:
    """An int as ruamel.yaml builds one: `_` dropped, `0b`/`0o`/`0x` prefixes, and leading
    zeros decimal (`017` is 17)."""
    text = loader.construct_scalar(node).replace("_", "")
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    try:
        base = _INT_BASES.get(digits[:2], 10)
        return sign * int(digits[2:] if base != 10 else digits, base)
    except ValueError as exc:  # Python refuses ints of more than 4300 digits; `+_` has none
        raise yaml.constructor.ConstructorError(
            None, None, f"cannot read {text[:40]!r} as an integer", node.start_mark
        ) from exc


def _refuse_tagged_object(loader: CaseLoader, node: yaml.ScalarNode) -> None:
    """A plain `=` (YAML's value key): Rasa's reader keeps a tagged object, not text."""
    raise yaml.constructor.ConstructorError(
        None,
        None,
        "a plain = is kept by Rasa's reader as a tagged object, not as text (its schema "
        "check then fails); write '=' in quotes",
        node.start_mark,
    )


def _construct_binary_text(loader: CaseLoader, node: yaml.ScalarNode) -> str:
    """`!!binary` as the text Rasa ends up with (its model reads the bytes as UTF-8)."""
    data = yaml.SafeLoader.construct_yaml_binary(loader, node)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise yaml.constructor.ConstructorError(
            None, None, "a !!binary value that is not UTF-8 text", node.start_mark
        ) from exc


CaseLoader.add_constructor("tag:yaml.org,2002:int", _construct_yaml12_int)
CaseLoader.add_constructor("tag:yaml.org,2002:value", _refuse_tagged_object)
CaseLoader.add_constructor("tag:yaml.org,2002:binary", _construct_binary_text)


class Yaml11Loader(yaml.SafeLoader):
    """PyYAML's own SafeLoader scalars (YAML 1.1: `yes`/`no`/`on`/`off` are booleans,
    `2026-10-14` is a date, `1_000` an int): how Rasa reads a skill's frontmatter and ordered
    blocks, `memory.yml` and `responses.yml` (`yaml.safe_load`). A key stays the name it is
    written as (`on: activate` keys `on`, as Rasa's utter rule reads it back)."""

    keys_as_written = True


def _construct_yaml11_int(loader: Yaml11Loader, node: yaml.ScalarNode) -> int:
    try:
        return int(yaml.SafeLoader.construct_yaml_int(loader, node))
    except ValueError as exc:  # Python refuses ints of more than 4300 digits
        raise yaml.constructor.ConstructorError(
            None, None, f"integer too long to read ({len(node.value)} digits)", node.start_mark
        ) from exc


Yaml11Loader.add_constructor("tag:yaml.org,2002:int", _construct_yaml11_int)

_STR_TAG = "tag:yaml.org,2002:str"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_MAP_TAG = "tag:yaml.org,2002:map"


def _resolve(self: Any, kind: type, value: str | None, implicit: tuple[bool, bool]) -> str:
    """PyYAML's `BaseResolver.resolve` for a loader without path resolvers or wildcard
    implicit resolvers (the case loaders have neither): the same tag, decided with one dict
    lookup instead of list concatenation; the composer calls it for every node."""
    if kind is yaml.ScalarNode:
        if implicit[0]:
            for tag, regexp in self.yaml_implicit_resolvers.get(value[:1], ()):  # type: ignore[index]
                if regexp.match(value):
                    return str(tag)
        return _STR_TAG
    return _SEQ_TAG if kind is yaml.SequenceNode else _MAP_TAG


#: `descend_resolver(parent, index)` and `ascend_resolver()` do nothing without path
#: resolvers, and the composer calls both for every node: two builtins that take those
#: arguments and only make a small object cost less than a Python function's call.
_DESCEND, _ASCEND = slice, tuple


def _fast_resolution(cls: type) -> None:
    assert not cls.yaml_path_resolvers and None not in cls.yaml_implicit_resolvers  # type: ignore[attr-defined]
    cls.resolve = _resolve  # type: ignore[attr-defined]
    cls.descend_resolver = _DESCEND  # type: ignore[attr-defined]
    cls.ascend_resolver = _ASCEND  # type: ignore[attr-defined]


_fast_resolution(CaseLoader)

if getattr(yaml, "__with_libyaml__", False):

    class FastCaseLoader(yaml.CSafeLoader):
        """CaseLoader's rules on libyaml's C parser: the same nodes and marks, about ten
        times faster to compose (validate reads thousands of files)."""

    FastCaseLoader.yaml_implicit_resolvers = CaseLoader.yaml_implicit_resolvers
    FastCaseLoader.yaml_constructors = CaseLoader.yaml_constructors
    _fast_resolution(FastCaseLoader)

    class DeferredCaseLoader(FastCaseLoader):
        """FastCaseLoader whose composer leaves implicit tags unresolved: each node's `tag`
        is `slice(kind, value, implicit)`, the arguments `resolve` would have had, and the
        reader resolves them itself (`_yamlquick`), without a Python call per node."""

    DeferredCaseLoader.resolve = slice  # type: ignore[assignment,method-assign]

    class FastYaml11Loader(yaml.CSafeLoader):
        """Yaml11Loader's rules on libyaml's C parser."""

        keys_as_written = True

    FastYaml11Loader.yaml_constructors = Yaml11Loader.yaml_constructors

    _FAST: type | None = FastCaseLoader
    _DEFERRED: type | None = DeferredCaseLoader
    _FAST11: type | None = FastYaml11Loader
else:  # PyYAML built without libyaml
    _FAST = _DEFERRED = _FAST11 = None

#: The characters PyYAML's reader refuses, listed: `yaml.reader.Reader.NON_PRINTABLE` is the
#: complement of what it allows, a class over most of Unicode that takes ~9 ms of CPU to
#: compile (`evalcore._pyyaml` defers it); this one matches the same characters
#: (`tests/test_pyyaml_import.py` compares every code point) and compiles in ~1 ms.
_NON_PRINTABLE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]"
)
#: The ASCII characters `_NON_PRINTABLE` allows: tab, line feed, carriage return, space to `~`.
_PRINTABLE_ASCII = b"\t\n\r" + bytes(range(0x20, 0x7F))


def non_printable(text: str) -> bool:
    """Whether `text` has a character PyYAML's reader refuses (`Reader.NON_PRINTABLE`).

    Case files are almost always ASCII, whose check is a byte table (about 3 µs for a
    2.6 KB file, against 16 µs for the character class, which every file read paid)."""
    if text.isascii():
        return bool(text.encode("ascii").translate(None, _PRINTABLE_ASCII))
    return _NON_PRINTABLE.search(text) is not None


def case_loader(text: str, *, fast: bool = True, yaml11: bool = False) -> Any:
    """A loader for `text` with the case rules (`yaml11`: Rasa's YAML 1.1 rules,
    `Yaml11Loader`), libyaml's when PyYAML has it and `fast`.

    Text with tabs or control characters goes to the pure-Python loader, which judges them
    differently from libyaml (and is what casegen's messages were written against); callers
    re-read a file libyaml rejects with `fast=False` for the same reason."""
    fast_class, pure_class = (_FAST11, Yaml11Loader) if yaml11 else (_FAST, CaseLoader)
    if fast and fast_class is not None and "\t" not in text and not non_printable(text):
        return fast_class(text)
    return pure_class(text)


def deferred_loader(text: str) -> Any:
    """A `DeferredCaseLoader` for `text`, or None where `case_loader` would not give
    libyaml's loader (no libyaml; tabs or control characters)."""
    if _FAST is None or _DEFERRED is None or "\t" in text or non_printable(text):
        return None
    return _DEFERRED(text)


@functools.lru_cache(maxsize=16384)
def _analysis(scalar: str, allow_unicode: bool) -> yaml.emitter.ScalarAnalysis:
    """PyYAML's own analysis of a scalar, kept: it depends on the text and `allow_unicode`
    only, and case files repeat the same keys and values in file after file (a quarter of
    the emitter's time was spent re-analysing them), computed with `_yamlscan`'s
    searches instead of PyYAML's loop per character. The result is never modified."""
    from ._yamlscan import analyze  # start-up: its patterns compile when YAML is written

    return analyze(scalar, allow_unicode)


class CaseDumper(yaml.SafeDumper):
    """Block style, 2-space indent, indented sequences, block scalars for long text."""

    def analyze_scalar(self, scalar: str) -> yaml.emitter.ScalarAnalysis:
        return _analysis(scalar, bool(self.allow_unicode))

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        # Indent list items under their key (`key:\n  - item`), the style of Rasa's docs.
        super().increase_indent(flow, False)


#: Strings longer than this (or with a newline) are written as YAML block scalars.
BLOCK_SCALAR_MIN = 80


#: Characters YAML itself treats as line breaks; such strings are written double-quoted.
_YAML_BREAKS = ("\x85", "\u2028", "\u2029", "\r")


def _represent_str(dumper: CaseDumper, value: str) -> yaml.ScalarNode:
    if any(ch in value for ch in _YAML_BREAKS):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')
    body = value.rstrip("\n")
    if "\n" in body:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    if len(body) > BLOCK_SCALAR_MIN:
        # Folded, so a long sentence wraps in the file; a single trailing newline (what a
        # hand-written `>` block holds) is kept by the emitter's chomping indicator.
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=">")
    if value.endswith("\n"):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


CaseDumper.add_representer(str, _represent_str)
# The dumper quotes a string when *either* YAML 1.1 or 1.2 would read it as something else.
for _tag, _regexp, _first in _CORE_RESOLVERS:
    CaseDumper.add_implicit_resolver(_tag, _regexp, _first)


# --- writing straight to the emitter (the bytes `yaml.dump` writes) -----------------------

_SCALARS = (str, bool, int, float, type(None))
_BREAKS = "\n\x85\u2028\u2029"

#: (type, value) → (style, text) PyYAML writes a mapping value / key in, or None when the
#: choice needs the full emitter path (a tag to write; a key that is not simple raises).
_VALUE_STYLES: dict[tuple[type, Any], tuple[str, str] | None] = {}
_KEY_TEXTS: dict[tuple[type, Any], str | None] = {}
_KEPT = 1 << 16


class Unsupported(Exception):
    """A value this writer leaves to `yaml.dump` (nothing has been returned yet)."""


class _Pieces(list[str]):
    write = list.append


class _DirectDumper(CaseDumper):
    def __init__(self) -> None:
        self.pieces = _Pieces()
        super().__init__(
            self.pieces,
            default_flow_style=False,
            indent=2,
            width=88,
            allow_unicode=True,
            line_break="\n",
            sort_keys=False,
        )
        self.tag_prefixes = self.DEFAULT_TAG_PREFIXES.copy()
        self.seen: set[int] = set()

    def document(self, data: Any) -> str:
        # Stream and implicit document start write nothing for a mapping or sequence root.
        self.node(data, root=True)
        self.write_indent()  # document end
        if self.open_ended:  # stream end
            self.write_indicator("...", True)
            self.write_indent()
        return "".join(self.pieces)

    def node(
        self,
        value: Any,
        root: bool = False,
        sequence: bool = False,
        mapping: bool = False,
        simple_key: bool = False,
    ) -> None:
        self.root_context = root
        self.sequence_context = sequence
        self.mapping_context = mapping
        self.simple_key_context = simple_key
        kind = type(value)
        if kind in _SCALARS:
            if not simple_key and self.fast_value(value, kind):
                return
            if not simple_key:  # a key's event is made before it is weighed as simple
                self.scalar_event(value)
            self.process_anchor("&")
            self.process_tag()
            self.increase_indent(flow=True)
            self.process_scalar()
            self.indent = self.indents.pop()
        elif kind is dict or kind is list:
            if id(value) in self.seen:  # yaml.dump would write an anchor and an alias
                raise Unsupported("shared container")
            self.seen.add(id(value))
            if not value:
                self.empty("{" if kind is dict else "[", "}" if kind is dict else "]")
            elif kind is dict:
                self.block_mapping(value)
            else:
                self.block_sequence(value)
        else:
            raise Unsupported(kind.__name__)

    def scalar_event(self, value: Any) -> None:
        """The event `yaml.dump` would emit for a scalar (representer, then resolver)."""
        node = self.yaml_representers[type(value)](self, value)
        if not isinstance(node, yaml.ScalarNode):
            raise Unsupported("representer")
        detected = self.resolve(yaml.ScalarNode, node.value, (True, False))
        default = self.resolve(yaml.ScalarNode, node.value, (False, True))
        implicit = (node.tag == detected, node.tag == default)
        self.event = yaml.ScalarEvent(None, node.tag, implicit, node.value, style=node.style)

    def _decide(self, value: Any) -> tuple[str, str] | None:
        """The style and text `process_scalar` would write `value` in, in this context."""
        self.scalar_event(value)
        self.analysis = self.analyze_scalar(self.event.value)
        style = self.choose_scalar_style()
        implicit = self.event.implicit
        text = self.analysis.scalar
        self.analysis = None
        self.prepared_tag = None  # as process_tag leaves it for an implicit scalar
        if (style == "" and implicit[0]) or (style != "" and implicit[1]):
            return style, text
        return None  # a tag would be written

    def fast_value(self, value: Any, kind: type) -> bool:
        """Write a mapping or sequence item scalar without the emitter's event path; False
        when it has to take that path (nothing written then)."""
        if kind is float:  # 0.0 == -0.0 (and NaN != NaN): decided afresh, never kept
            decided = self._decide(value)
        else:
            key = (kind, value)
            try:
                decided = _VALUE_STYLES[key]
            except KeyError:
                if len(_VALUE_STYLES) > _KEPT:
                    _VALUE_STYLES.clear()
                decided = _VALUE_STYLES[key] = self._decide(value)
        if decided is None:
            return False
        style, text = decided
        if style == "|":
            return self.fast_literal(text)
        if style == "'":
            text = "'" + text.replace("'", "''") + "'"
        elif style != "" or not text:
            return False
        lead = "" if self.whitespace else " "
        width = self.column + len(lead) + len(text)
        if width > self.best_width or any(ch in text for ch in _BREAKS):
            return False  # it may fold: PyYAML's writer decides where
        self.pieces.append(lead + text)
        self.column = width
        self.whitespace = self.indention = False
        if style:  # the closing quote is an indicator; a plain scalar leaves the flag
            self.open_ended = False
        return True

    def fast_literal(self, text: str) -> bool:
        """`write_literal` for text whose only line break is `\\n`."""
        if any(ch in text for ch in "\x85\u2028\u2029"):
            return False
        hints = self.determine_block_hints(text)
        self.write_indicator("|" + hints, True)
        if hints[-1:] == "+":
            self.open_ended = True
        pad = " " * (self.best_indent if self.indent is None else self.indent + self.best_indent)
        body = "\n".join(pad + line if line else "" for line in text.split("\n"))
        self.pieces.append("\n" + body + ("" if text.endswith("\n") else "\n"))
        self.column = 0
        self.whitespace = self.indention = True
        return True

    def fast_key(self, key: Any) -> bool:
        """Write a simple key (a key never folds) without the emitter's event path."""
        cached = (type(key), key)
        if type(key) is float:  # 0.0 == -0.0: left to the emitter's path
            return False
        try:
            text = _KEY_TEXTS[cached]
        except KeyError:
            self.scalar_event(key)
            self.analysis = None
            if not self.check_simple_key():
                raise Unsupported("complex key") from None
            self.simple_key_context = True
            decided = self._decide(key)
            text = None
            if decided is not None and decided[0] in ("", "'") and decided[1]:
                text = decided[1] if decided[0] == "" else "'" + decided[1].replace("'", "''") + "'"
            if len(_KEY_TEXTS) > _KEPT:
                _KEY_TEXTS.clear()
            _KEY_TEXTS[cached] = text
        if text is None:
            return False
        self.root_context = self.sequence_context = False
        self.mapping_context = self.simple_key_context = True
        lead = "" if self.whitespace else " "
        self.pieces.append(lead + text)
        self.column += len(lead) + len(text)
        self.whitespace = self.indention = False
        if text[0] == "'":
            self.open_ended = False
        return True

    # PyYAML's writers for a text stream (`encoding` None, the only stream this one has),
    # with the line break inlined: two of them run for every key and item of a case.
    def write_indicator(
        self,
        indicator: str,
        need_whitespace: bool,
        whitespace: bool = False,
        indention: bool = False,
    ) -> None:
        data = indicator if self.whitespace or not need_whitespace else " " + indicator
        self.whitespace = whitespace
        self.indention = self.indention and indention
        self.column += len(data)
        self.open_ended = False
        self.pieces.append(data)

    def write_indent(self) -> None:
        indent = self.indent or 0
        column = self.column
        if not self.indention or column > indent or (column == indent and not self.whitespace):
            self.pieces.append(self.best_line_break)  # write_line_break()
            self.whitespace = self.indention = True
            self.line += 1
            column = self.column = 0
        if column < indent:
            self.whitespace = True
            self.pieces.append(" " * (indent - column))
            self.column = indent

    def empty(self, start: str, end: str) -> None:
        self.write_indicator(start, True, whitespace=True)
        self.flow_level += 1
        self.increase_indent(flow=True)
        self.indent = self.indents.pop()
        self.flow_level -= 1
        self.write_indicator(end, False)

    def block_mapping(self, value: dict[Any, Any]) -> None:
        self.increase_indent(flow=False)
        for key, item in value.items():
            self.write_indent()
            if type(key) not in _SCALARS:
                raise Unsupported("key")
            if self.fast_key(key):
                self.write_indicator(":", False)
                kind = type(item)
                if kind in _SCALARS:  # `node(item, mapping=True)`'s first step, inline
                    self.root_context = self.sequence_context = self.simple_key_context = False
                    self.mapping_context = True
                    if self.fast_value(item, kind):
                        continue
                self.node(item, mapping=True)
                continue
            self.scalar_event(key)
            self.analysis = None
            if not self.check_simple_key():
                raise Unsupported("complex key")
            self.node(key, mapping=True, simple_key=True)
            self.write_indicator(":", False)
            self.node(item, mapping=True)
        self.indent = self.indents.pop()

    def block_sequence(self, value: list[Any]) -> None:
        self.increase_indent(flow=False, indentless=self.mapping_context and not self.indention)
        for item in value:
            self.write_indent()
            self.write_indicator("-", True, indention=True)
            self.node(item, sequence=True)
        self.indent = self.indents.pop()


def dump_direct(data: dict[str, Any] | list[Any]) -> str:
    """`yaml.dump(data, Dumper=CaseDumper, ...)` as `dump_yaml` calls it (raises
    Unsupported for what only `yaml.dump` writes)."""
    if type(data) not in (dict, list):
        raise Unsupported("root")
    dumper = _DirectDumper()
    try:
        return dumper.document(data)
    finally:
        dumper.dispose()


def dump_yaml(data: Any) -> str:
    """Canonical YAML text for `data` (keys in the order given; LF; final newline).

    Plain case data goes straight to PyYAML's emitter (`dump_direct`, the same bytes);
    anything else through `yaml.dump`."""
    try:
        text = dump_direct(data)
    except Unsupported:
        text = _dump_pyyaml(data)
    return text if text.endswith("\n") else text + "\n"


def _dump_pyyaml(data: Any) -> str:
    return yaml.dump(
        data,
        Dumper=CaseDumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        indent=2,
        width=88,
        line_break="\n",
    )


def load_yaml(text: str) -> Any:
    """Parse YAML text with the case rules (raises yaml.YAMLError)."""
    return yaml.load(text, Loader=CaseLoader)


_COMMENT_START = re.compile(r"(?:^|(?<=[ \t]))#", re.MULTILINE)


def has_comments(text: str) -> bool:
    """True when YAML `text` holds a comment (`# ...` outside any scalar).

    PyYAML drops comments, so rewriting such a file loses them (a reviewer's `# Reviewed
    by ...` line); callers refuse to rewrite it unless asked. A `#` inside a quoted or block
    scalar is text, not a comment. Unparsable text counts as commented (never rewritten).
    """
    candidates = [m.start() for m in _COMMENT_START.finditer(text)]
    if not candidates:
        return False
    try:
        spans = [
            (token.start_mark.index, token.end_mark.index)
            for token in yaml.scan(text, Loader=CaseLoader)
            if isinstance(token, yaml.ScalarToken)
        ]
    except yaml.YAMLError:
        return True
    return any(not any(start <= at < end for start, end in spans) for at in candidates)
