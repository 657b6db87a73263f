"""One walk over a composed YAML node graph: lines, repeated keys, depth, and the values.

Case files are maps, lists and strings almost entirely; building those straight from the
nodes, in the same walk that records where each value sits, costs a fraction of PyYAML's
generic constructor and of a second pass. Every other scalar (numbers, bools, nulls, tagged
values) goes through the loader's own constructor, and anything the shortcut does not cover
(merge keys `<<`, custom collection tags, complex keys) makes the caller use the constructor
for the whole document, so the result is always what the constructor gives. What would stop
the direct build is remembered in build order (`Build.stop`), so the caller raises the same
error the build would have raised, after the walk has recorded every line.
"""

from __future__ import annotations

from typing import Any

from ._pyyaml import yaml
from .findings import Finding
from .limits import InputLimits, LimitExceeded, depth_message
from .pointer import key_token

_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_MERGE = "tag:yaml.org,2002:merge"
_BOOL = "tag:yaml.org,2002:bool"
_MAPPING, _SEQUENCE, _SCALAR = yaml.MappingNode, yaml.SequenceNode, yaml.ScalarNode


class NotPlain(Exception):
    """The document needs PyYAML's constructor (see the module docstring)."""


class Build:
    """State of one walk: the lines and findings it records, and the first thing (a YAML
    error, or NotPlain) that stops the direct build, in the order the build meets them."""

    __slots__ = ("findings", "keys_as_written", "lines", "loader", "stop")

    def __init__(self, loader: Any, lines: dict[str, int], findings: list[Finding]) -> None:
        self.loader = loader
        self.keys_as_written: bool = getattr(loader, "keys_as_written", False)
        """A boolean-looking key (YAML 1.1 `on:`) is kept as the name written."""
        self.lines = lines
        self.findings = findings
        self.stop: yaml.YAMLError | NotPlain | None = None

    def value(self, node: yaml.Node, built: Any) -> Any:
        """The document's value: `built`, else the constructor's, else the build's error."""
        if self.stop is None:
            return built
        if isinstance(self.stop, NotPlain):
            return self.loader.construct_document(node)
        raise self.stop

    def scalar(self, node: yaml.ScalarNode) -> Any:
        """The constructor's value of a tagged or implicit scalar (None, error kept)."""
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            if self.stop is None:
                self.stop = exc
            return None


def walk(node: yaml.Node, pointer: str, state: Build, depth: int, limits: InputLimits) -> Any:
    """Record `node`'s line (and its children's), repeated keys as `parse` findings, refuse
    nodes deeper than the limit (the root is at depth 1 and keys count as children, as in
    `check_yaml_graph`), and return its value as the direct build makes it."""
    lines = state.lines
    if pointer not in lines:
        lines[pointer] = node.start_mark.line + 1
    if isinstance(node, _SCALAR):
        return node.value if node.tag == _STR else state.scalar(node)
    if node.value and depth >= limits.max_depth:
        raise LimitExceeded(depth_message(limits))
    if isinstance(node, _SEQUENCE):
        if node.tag != _SEQ and state.stop is None:
            state.stop = NotPlain()
        return [
            walk(item, f"{pointer}/{index}", state, depth + 1, limits)
            for index, item in enumerate(node.value)
        ]
    if node.tag != _MAP and state.stop is None:
        state.stop = NotPlain()
    out: dict[Any, Any] = {}
    seen: dict[Any, int] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, _SCALAR):  # a complex key: no pointer names it
            if state.stop is None:
                state.stop = NotPlain()
            for part in (key_node, value_node):  # but its depth still counts
                if depth + _height(part) > limits.max_depth:
                    raise LimitExceeded(depth_message(limits))
            continue
        if key_node.tag == _STR or (key_node.tag == _BOOL and state.keys_as_written):
            key = key_node.value
        else:
            if key_node.tag == _MERGE and state.stop is None:
                state.stop = NotPlain()
            try:
                key = state.loader.construct_object(key_node, deep=True)
            except yaml.YAMLError as exc:  # a key the constructor refuses is named as written
                if state.stop is None:
                    state.stop = exc
                key = key_node.value
        child = pointer + "/" + key_token(key)
        line = key_node.start_mark.line + 1
        marker = (type(key).__name__, key)
        if marker in seen:
            state.findings.append(
                Finding(
                    code="parse",
                    path=child,
                    line=line,
                    value=key,
                    message=(
                        f"duplicate key '{key}' (first at line {seen[marker]}); "
                        "YAML keeps only the last value"
                    ),
                    suggestion="keep one of the two entries",
                )
            )
        else:
            seen[marker] = line
            lines[child] = line
        value = walk(value_node, child, state, depth + 1, limits)
        if state.stop is None:
            out[key] = value
    return out


def _height(root: yaml.Node) -> int:
    """Levels of the tree under `root`, itself included (no recursion: it may be deep)."""
    height = 0
    stack = [(root, 1)]
    while stack:
        node, level = stack.pop()
        height = max(height, level)
        if isinstance(node, _MAPPING):
            stack.extend((part, level + 1) for pair in node.value for part in pair)
        elif isinstance(node, _SEQUENCE):
            stack.extend((item, level + 1) for item in node.value)
    return height
