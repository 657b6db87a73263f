"""Case YAML written by PyYAML's own emitter, driven straight from the Python values.

`yaml.dump` turns the data into representation nodes, the nodes into events, and runs the
events through the emitter's state machine, which looks ahead in an event queue before it
writes anything: most of the time of writing a case file went there, not into the text.
Case data is plain JSON-like values in block style, so this walks them directly and calls
the same emitter steps the state machine would (indents, indicators, PyYAML's scalar
style choice and scalar writers, `CaseDumper`'s representers and resolvers), in the same
order: the bytes are `yaml.dump`'s. Anything else (another type, a container shared by two
places, a key that cannot be a simple key) is left to `yaml.dump`.
"""

from __future__ import annotations

from typing import Any

from yaml.events import ScalarEvent
from yaml.nodes import ScalarNode

from .yamlio import CaseDumper

_SCALARS = (str, bool, int, float, type(None))


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
