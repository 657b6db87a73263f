"""The quick read of plain case YAML: values now, lines only when a finding asks for one.

Most files `validate` reads are valid, and a valid file's findings need no line, so the
map from JSON Pointer to line is not worth building up front. A file qualifies when it is
what case files almost always are: libyaml can read it (no tab, no control character), it
has no alias (no `*`), no explicit tag, no key that is not a plain string, no repeated key
and no level at or past the depth limit. Then its values are built straight from libyaml's
nodes, whose tags the composer leaves unresolved (see `yamlio.deferred_loader`), and the
lines are recorded from the same nodes on first use (`node_lines`), as `yamlbuild.walk`
records them. Anything else, including every error, is read again by the full walk
(`documents._parse_yaml`), so its data, lines, findings and messages are the full walk's.
"""

from __future__ import annotations

import re
from typing import Any

from . import yamlio
from ._pyyaml import yaml
from ._yamllines import read_lines
from .limits import InputLimits
from .pointer import key_token
from .yamlio import deferred_loader

_SCALAR, _SEQUENCE, _MAPPING = yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode
_STR = "tag:yaml.org,2002:str"

#: Plain scalar text -> what it resolves to (`_AS_TEXT`: itself): a resolved plain scalar
#: depends only on its text and the one resolver table of `DeferredCaseLoader`, and case
#: files repeat the same keys (`name`, `tool_name`, `text_matches`) and short values in
#: every file, each of which cost a regular-expression match or two per resolver. Only
#: short texts and immutable results are kept, and only so many.
_RESOLVED: dict[str, Any] = {}
_AS_TEXT = object()
_KEEP_LENGTH, _KEEP_COUNT = 64, 4096
_IMMUTABLE = frozenset({bool, int, float, type(None)})


class _Irregular(ValueError):
    """The file is not plain case YAML: the full walk reads it (the line reader declines
    on a ValueError)."""


def quick_read(text: str, limits: InputLimits) -> tuple[Any, yaml.Node | str] | None:
    """(data, root node) of plain case YAML, or None when the full walk must read it. In
    place of the node, the text itself where the line reader (`_yamllines`) read it: the
    node is composed only if a line is asked for (`node_lines`)."""
    if "*" in text:  # a possible alias: shared nodes need the graph check
        return None
    deferred = yamlio._DEFERRED
    if deferred is None or "\t" in text or yamlio.non_printable(text):
        return None  # what `deferred_loader` declines
    data = read_lines(text, limits.max_depth, resolve_plain)
    if data is not None:
        return data, text
    loader = deferred(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        reader = _Reader(loader, limits.max_depth)
        return reader.value(node, 1), node
    except (_Irregular, yaml.YAMLError, RecursionError):
        return None
    finally:
        loader.dispose()


def resolve_plain(value: str) -> Any:
    """What a plain scalar `value` resolves to, as `_Reader.scalar` resolves it (raises
    `_Irregular` for a merge key's `<<`, which no constructor builds)."""
    known = _RESOLVED.get(value, _RESOLVED)
    if known is not _RESOLVED:
        return value if known is _AS_TEXT else known
    keep = len(value) <= _KEEP_LENGTH and len(_RESOLVED) < _KEEP_COUNT
    for tag, regexp in _TABLE.get(value[:1], ()):
        if regexp.match(value):
            constructor = _CONSTRUCTORS.get(tag)
            if constructor is None:
                raise _Irregular
            result = constructor(_constructor(), yaml.ScalarNode(tag, value))
            if keep and type(result) in _IMMUTABLE:
                _RESOLVED[value] = result
            return result
    if keep:
        _RESOLVED[value] = _AS_TEXT
    return value


#: The case loaders' implicit resolvers, and constructors of the tags they give a scalar.
_TABLE: dict[str, list[tuple[str, re.Pattern[str]]]] = yamlio.CaseLoader.yaml_implicit_resolvers
_CONSTRUCTORS = {
    f"tag:yaml.org,2002:{kind}": yamlio.CaseLoader.yaml_constructors[f"tag:yaml.org,2002:{kind}"]
    for kind in ("bool", "int", "float", "null")
}
_SCALAR_CONSTRUCTOR: list[Any] = []


def _constructor() -> Any:
    """One loader whose scalar constructors build a resolved scalar (they keep no state).

    Made without a reader: a loader's reader checks its text against PyYAML's printable
    pattern, which the light commands leave uncompiled (`_pyyaml`)."""
    if not _SCALAR_CONSTRUCTOR:
        loader = yamlio.CaseLoader.__new__(yamlio.CaseLoader)
        yaml.constructor.SafeConstructor.__init__(loader)
        _SCALAR_CONSTRUCTOR.append(loader)
    return _SCALAR_CONSTRUCTOR[0]


class _Reader:
    __slots__ = ("loader", "max_depth", "resolvers")

    def __init__(self, loader: Any, max_depth: int) -> None:
        self.loader = loader
        self.max_depth = max_depth
        #: First character -> the implicit resolvers to try (`yamlio._resolve`'s table).
        self.resolvers: dict[str, list[tuple[str, re.Pattern[str]]]] = (
            loader.yaml_implicit_resolvers
        )

    def scalar(self, node: yaml.Node, value: str) -> Any:
        """A plain scalar that may not be a string: `yamlio._resolve`'s tag, and the
        loader's constructor for anything but a string (kept in `_RESOLVED`)."""
        known = _RESOLVED.get(value, _RESOLVED)
        if known is not _RESOLVED:
            return value if known is _AS_TEXT else known
        keep = len(value) <= _KEEP_LENGTH and len(_RESOLVED) < _KEEP_COUNT
        for tag, regexp in self.resolvers[value[:1]]:
            if regexp.match(value):
                node.tag = tag
                result = self.loader.construct_object(node, deep=True)
                if keep and type(result) in _IMMUTABLE:
                    _RESOLVED[value] = result
                return result
        if keep:
            _RESOLVED[value] = _AS_TEXT
        return value

    def value(self, node: yaml.Node, depth: int) -> Any:
        tag = node.tag
        if type(tag) is not slice:  # an explicit tag
            raise _Irregular
        value = node.value
        kind = tag.start
        if kind is _SCALAR:
            if tag.step[0] and value[:1] in self.resolvers:
                return self.scalar(node, value)
            return value  # quoted, a block, or plain text no resolver starts with
        if value and depth >= self.max_depth:
            raise _Irregular
        resolvers, resolved, deeper = self.resolvers, _RESOLVED, depth + 1
        if kind is _SEQUENCE:
            items = []
            for item in value:
                item_tag = item.tag
                # A string leaf inline (most leaves are): no call per scalar.
                if type(item_tag) is slice and item_tag.start is _SCALAR:
                    text = item.value
                    if not (item_tag.step[0] and text[:1] in resolvers):
                        items.append(text)
                        continue
                items.append(self.value(item, deeper))
            return items
        out: dict[str, Any] = {}
        for key_node, value_node in value:
            key_tag = key_node.tag
            if type(key_tag) is not slice or key_tag.start is not _SCALAR:
                raise _Irregular  # tagged or complex key
            key = key_node.value
            if (
                key_tag.step[0]
                and key[:1] in resolvers
                and resolved.get(key) is not _AS_TEXT  # the common keys: known strings
                and self.scalar(key_node, key) is not key
            ):
                raise _Irregular  # a number, bool, null or merge key
            value_tag = value_node.tag
            if type(value_tag) is slice and value_tag.start is _SCALAR:
                text = value_node.value
                if not (value_tag.step[0] and text[:1] in resolvers):
                    out[key] = text
                    continue
                known = resolved.get(text, resolved)
                if known is not resolved:
                    out[key] = text if known is _AS_TEXT else known
                    continue
            out[key] = self.value(value_node, deeper)
        if len(out) != len(value):
            raise _Irregular  # a repeated key
        return out


def node_lines(root: yaml.Node | str) -> dict[str, int]:
    """The lines `yamlbuild.walk` records, in the order it records them, for a tree
    `quick_read` accepted (string keys, none repeated, no alias), or for the text the line
    reader read (composed now: libyaml reads what that reader reads)."""
    if isinstance(root, str):
        loader = deferred_loader(root)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    lines: dict[str, int] = {}
    stack: list[tuple[yaml.Node, str, int | None]] = [(root, "", None)]
    while stack:
        node, pointer, key_line = stack.pop()
        if key_line is not None:  # a mapping's child sits on its key's line
            lines[pointer] = key_line
        elif pointer not in lines:
            lines[pointer] = node.start_mark.line + 1
        kind = type(node)
        if kind is _SEQUENCE:
            items = [(item, f"{pointer}/{i}", None) for i, item in enumerate(node.value)]
            stack.extend(reversed(items))
        elif kind is _MAPPING:
            pairs = [
                (value, pointer + "/" + key_token(key.value), key.start_mark.line + 1)
                for key, value in node.value
            ]
            stack.extend(reversed(pairs))
    return lines
