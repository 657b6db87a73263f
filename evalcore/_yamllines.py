"""The line reader: values of the block YAML case files are written in, without nodes.

libyaml parses a case file in about a sixth of the time PyYAML's composer takes to turn the
parse into Python node objects (two marks, a tuple and a node per value), which the value
walk then reads again. Case files, written by casegen or by hand after its examples, use a
small part of YAML: block mappings with plain keys, block sequences (`- item`, `- key: v`),
and plain, single- or double-quoted one-line scalars and `|`, `|-`, `>`, `>-` blocks. This
reader takes the lines of such a file straight to values, skips full-line comments, and
declines (`None`) anything else: a comment after a value, a flow collection other than `[]`
/ `{}`, an anchor, alias or tag, a multi-line plain or quoted scalar, a more-indented line
in a folded block, a repeated key, a key that is not a plain name, a level at the depth
limit, any irregular indentation. A declined file is read by libyaml's composer
(`_yamlquick`), and every error by the full walk, so what this reader accepts is read
exactly as libyaml reads it (the grammar is a subset of what libyaml reads the same way;
`tests/test_yaml_lines.py` holds it to the composer's values on generated and committed
files). Lines come from the composer, only when a finding asks for one (`Document.lines`).
"""

from __future__ import annotations

import re
from collections import deque
from itertools import islice
from typing import Any

from . import yamlio
from ._pyyaml import yaml

#: Each line: its indentation, a `- ` (with the spaces after it), a plain key with its `:`
#: and the spaces after it, and the rest; one search for the whole text.
_LINE = re.compile(r"^( *)(- +)?(?:([A-Za-z_][A-Za-z0-9_.\-]*):(?: +|$))?(.*)$", re.M)
_SINGLE = re.compile(r"'((?:[^']|'')*)'")
_DOUBLE = re.compile(r'"([^"\\]*)"')
#: First characters of a plain scalar that are YAML indicators (`-` is checked apart).
_INDICATORS = frozenset("?:,[]{}#&*!|>'\"%@`-")
_BLOCKS = {"|": (True, True), "|-": (True, False), ">": (False, True), ">-": (False, False)}
#: Plain keys that resolve to something other than a string (`yamlio._CORE_RESOLVERS`).
_NOT_STRINGS = frozenset(
    ["true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL"]
)
_MAP, _SEQ, _LESS = 0, 1, 2  # mapping, sequence, sequence at its key's column
#: First characters after which a scalar is not plain text: indicators, quotes, and the
#: first characters of every implicit resolver (`yamlio.CaseLoader`).
_NOT_TEXT = _INDICATORS | frozenset(yamlio.CaseLoader.yaml_implicit_resolvers)


class _Declined(Exception):
    """Not within this reader's part of YAML: libyaml's composer reads the file."""


def read_lines(text: str, max_depth: int, resolve: Any) -> Any:
    """The value of `text` (a block mapping at the root), or None when declined.

    `resolve(text)` gives a plain scalar's value (raising to decline)."""
    for odd in "\r\t\ufeff\x85\u2028\u2029":
        if odd in text:
            return None
    try:
        return _read(text, max_depth, resolve)
    except (_Declined, yaml.YAMLError, ValueError):
        return None


def _read(text: str, max_depth: int, resolve: Any) -> Any:
    if max_depth <= 1:
        raise _Declined  # the root mapping is at the depth limit
    rows = enumerate(_LINE.findall(text), 1)  # (the index of the next line, its parts)
    lines: list[str] | None = None  # the raw lines, for block scalars
    root: dict[str, Any] = {}
    # The collection the lines are in (kind, column of its keys or `-`, container, depth),
    # and the ones it is in, innermost last.
    kind, at, container, depth = _MAP, 0, root, 1
    stack: list[tuple[int, int, Any, int]] = []
    pending: str | None = None  # a key of `container` with nothing after its `:`
    for index, (spaces, dash, key, rest) in rows:
        if rest[-1:] == " ":
            rest = rest.rstrip(" ")  # trailing spaces end no scalar this reader takes
        if not (rest or key or dash):
            continue  # a blank line
        if not (key or dash) and rest[0] == "#":
            continue  # a full-line comment (casegen writes one above each check)
        column = len(spaces)
        if pending is not None:
            if column > at or (column == at and dash):  # the key's value is this block
                if depth + 1 >= max_depth:
                    raise _Declined
                nested: Any = [] if dash else {}
                container[pending] = nested
                stack.append((kind, at, container, depth))
                kind = _MAP if not dash else _SEQ if column > at else _LESS
                at, container, depth = column, nested, depth + 1
            else:
                container[pending] = resolve("")
            pending = None
        if column != at or (kind == _LESS and not dash):
            while at > column or (kind == _LESS and not dash):
                if not stack:
                    raise _Declined
                kind, at, container, depth = stack.pop()
            if at != column:
                raise _Declined  # a continuation line, or irregular indentation
        if kind == _MAP:
            if dash:
                raise _Declined
        elif not dash:
            raise _Declined
        elif key:  # `- key: v`: a mapping whose keys sit after the `- `
            if depth + 1 >= max_depth:
                raise _Declined
            item: dict[str, Any] = {}
            container.append(item)
            stack.append((kind, at, container, depth))
            kind, at, container, depth = _MAP, column + len(dash), item, depth + 1
        else:  # `- value`
            if not rest or rest[0] == "-":
                raise _Declined  # `-` alone, or `- - x`
            if rest[0] not in _NOT_TEXT and ": " not in rest and " #" not in rest:
                if rest[-1] == ":":
                    raise _Declined
                container.append(rest)
            else:
                value, after, lines = _scalar(rest, at, index, text, lines, resolve)
                container.append(value)
                if after > index:
                    deque(islice(rows, after - index), maxlen=0)  # the block's lines
            continue
        if not key or key in container or key in _NOT_STRINGS:
            raise _Declined
        if not rest:
            pending = key
        elif rest[0] not in _NOT_TEXT and ": " not in rest and " #" not in rest:
            if rest[-1] == ":":
                raise _Declined
            container[key] = rest  # plain text (most values): no resolver starts with it
        else:
            value, after, lines = _scalar(rest, at, index, text, lines, resolve)
            container[key] = value
            if after > index:
                deque(islice(rows, after - index), maxlen=0)
    if pending is not None:
        container[pending] = resolve("")
    if not root:
        raise _Declined  # no document
    return root


def _scalar(
    text: str, column: int, index: int, whole: str, lines: list[str] | None, resolve: Any
) -> tuple[Any, int, list[str] | None]:
    """A value written on its key's or its `-`'s line (`column`: its parent's), the index
    of the line after it, and the raw lines (split once a block scalar needs them)."""
    first = text[0]
    if first == "'":
        match = _SINGLE.fullmatch(text)
        if match is None:
            raise _Declined
        return match.group(1).replace("''", "'"), index, lines
    if first == '"':
        match = _DOUBLE.fullmatch(text)
        if match is None:
            raise _Declined
        return match.group(1), index, lines
    block = _BLOCKS.get(text)
    if block is not None:
        if lines is None:
            lines = whole.split("\n")
        value, index = _block_scalar(lines, index, column, *block)
        return value, index, lines
    if text == "[]":
        return [], index, lines
    if text == "{}":
        return {}, index, lines
    if first in _INDICATORS and not (first == "-" and len(text) > 1 and text[1] != " "):
        raise _Declined
    if ": " in text or text[-1] == ":" or " #" in text or text.startswith(("---", "...")):
        raise _Declined
    return resolve(text), index, lines


def _block_scalar(
    lines: list[str], start: int, column: int, literal: bool, clip: bool
) -> tuple[str, int]:
    """A `|` or `>` block from line `start` on, indented past `column`; the line after it."""
    if start >= len(lines) or not lines[start].strip(" "):
        raise _Declined  # empty, or a blank first line: libyaml's own rules decide
    line = lines[start]
    indent = len(line) - len(line.lstrip(" "))
    if indent <= column:
        raise _Declined  # an empty block
    parts: list[str] = [line[indent:]]
    breaks = 0  # empty lines since the last content line
    index = start + 1
    while index < len(lines):
        line = lines[index]
        stripped = line.lstrip(" ")
        width = len(line) - len(stripped)
        if not stripped:
            if width > indent:
                raise _Declined  # spaces past the indentation: a more-indented line
            breaks += 1
        elif width < indent:
            break
        else:
            content = line[indent:]
            if literal:
                parts.append("\n" * (breaks + 1) + content)
            elif width > indent:
                raise _Declined  # folding around a more-indented line
            else:
                parts.append((" " if not breaks else "\n" * breaks) + content)
            breaks = 0
        index += 1
    else:  # the end of the text: its last content line may have no line break
        clip = clip and index - breaks - 1 < len(lines) - 1
    return "".join(parts) + ("\n" if clip else ""), index


__all__ = ["read_lines"]
