"""Python values from a composed YAML node graph, without PyYAML's generic constructor.

Case files are maps, lists and strings almost entirely; building those directly from the
nodes halves the cost of reading a file. Every other node (numbers, bools, nulls, tagged
values) goes through the loader's own constructor, and anything the shortcut does not cover
(merge keys `<<`, custom collection tags, unhashable keys) makes the caller fall back to the
constructor for the whole document, so the result is always what the constructor gives.
"""

from __future__ import annotations

from typing import Any

import yaml

_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"


class NotPlain(Exception):
    """The document needs PyYAML's constructor (see the module docstring)."""


def build(node: yaml.Node, loader: Any) -> Any:
    """The value of `node`; raises NotPlain where only the constructor knows."""
    if isinstance(node, yaml.ScalarNode):
        if node.tag == _STR:
            return node.value
        return loader.construct_object(node, deep=True)
    if isinstance(node, yaml.MappingNode):
        if node.tag != _MAP:
            raise NotPlain
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if (
                not isinstance(key_node, yaml.ScalarNode)
                or key_node.tag == "tag:yaml.org,2002:merge"
            ):
                raise NotPlain
            out[build(key_node, loader)] = build(value_node, loader)
        return out
    if isinstance(node, yaml.SequenceNode):
        if node.tag != _SEQ:
            raise NotPlain
        return [build(item, loader) for item in node.value]
    raise NotPlain


def construct(node: yaml.Node, loader: Any) -> Any:
    """`build`, else the loader's constructor for the whole document."""
    try:
        return build(node, loader)
    except NotPlain:
        return loader.construct_document(node)
