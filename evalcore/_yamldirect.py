"""Case YAML written by PyYAML's own emitter, driven straight from the Python values.

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

from typing import Any

from yaml.events import ScalarEvent
from yaml.nodes import ScalarNode

from .yamlio import CaseDumper

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
        if not isinstance(node, ScalarNode):
            raise Unsupported("representer")
        detected = self.resolve(ScalarNode, node.value, (True, False))
        default = self.resolve(ScalarNode, node.value, (False, True))
        implicit = (node.tag == detected, node.tag == default)
        self.event = ScalarEvent(None, node.tag, implicit, node.value, style=node.style)

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
