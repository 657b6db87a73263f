"""Canonical text for a case: the same data always gives the same bytes.

Keys follow the dialect schema's property order (so diffs line up across files and runs),
unknown keys keep their place after the known ones, YAML uses block scalars for long text,
JSON uses 2-space indents; LF line ends and a final newline everywhere.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol

from ..yamlio import dump_yaml


class Written(Protocol):
    """What the writer reads of a dialect (`evalcore.dialects.Dialect` has both): the
    writer sits below the dialects, which write through it."""

    @property
    def schema(self) -> dict[str, Any]: ...

    @property
    def file_format(self) -> str: ...


def canonical_text(data: Any, dialect: Written) -> str:
    ordered = order_keys(data, dialect.schema, dialect.schema)
    if dialect.file_format == "json":
        return json.dumps(ordered, indent=2, ensure_ascii=False) + "\n"
    return dump_yaml(ordered)


#: What a schema node resolves to, its properties, a branch merged into it: kept per node
#: (by identity, the node held so its id is never another's) since every case of a run
#: orders its keys against the same schema. Bounded: cleared when it outgrows `_KEEP`.
_KEPT: dict[tuple[str, int, int], tuple[Any, Any, Any]] = {}
_KEEP = 4096
#: The schema of a value the schema says nothing about (read only, never changed).
_EMPTY: dict[str, Any] = {}


def _kept(kind: str, a: Any, b: Any, build: Callable[..., Any], *args: Any) -> Any:
    key = (kind, id(a), id(b))
    entry = _KEPT.get(key)
    if entry is not None and entry[0] is a and entry[1] is b:
        return entry[2]
    value = build(*args)
    if len(_KEPT) >= _KEEP:
        _KEPT.clear()
    _KEPT[key] = (a, b, value)
    return value


def _resolve(schema: Any, root: dict[str, Any]) -> Any:
    """Follow local `$ref`s; keywords beside a `$ref` (allowed in 2020-12) are kept."""
    if not isinstance(schema, dict):
        return {}
    if "$ref" not in schema:
        return schema
    return _kept("resolve", schema, root, _resolve_refs, schema, root)


def _resolve_refs(schema: Any, root: dict[str, Any]) -> Any:
    seen = 0
    while isinstance(schema, dict) and "$ref" in schema and seen < 20:
        ref = schema["$ref"]
        siblings = {k: v for k, v in schema.items() if k != "$ref"}
        if not ref.startswith("#/"):
            return siblings
        node: Any = root
        for part in ref[2:].split("/"):
            node = node.get(part, {}) if isinstance(node, dict) else {}
        target = dict(node) if isinstance(node, dict) else {}
        if siblings:
            props = {**target.get("properties", {}), **siblings.pop("properties", {})}
            target.update(siblings)
            if props:
                target["properties"] = props
        schema = target
        seen += 1
    return schema if isinstance(schema, dict) else {}


def _type_ok(value: Any, expected: Any) -> bool:
    if expected is None:
        return True
    names = expected if isinstance(expected, list) else [expected]
    checks = {
        "object": isinstance(value, dict),
        "array": isinstance(value, list),
        "string": isinstance(value, str),
        "boolean": isinstance(value, bool),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool),
        "null": value is None,
    }
    return any(checks.get(n, False) for n in names)


def _pick_branch(value: Any, branches: list[Any], root: dict[str, Any]) -> dict[str, Any]:
    best: tuple[int, dict[str, Any]] = (-1, _EMPTY)
    for raw in branches:
        branch = _resolve(raw, root)
        if not _type_ok(value, branch.get("type")):
            continue
        score = 1
        if isinstance(value, dict):
            required = branch.get("required", [])
            if not all(k in value for k in required):
                continue
            score += len(set(_properties(branch, root)) & set(value))
        if score > best[0]:
            best = (score, branch)
    return best[1]


def _properties(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """The node's properties and those its `allOf` parts (and their `then`) add (read only)."""
    if not schema:
        return _EMPTY
    kept: dict[str, Any] = _kept("properties", schema, root, _all_properties, schema, root)
    return kept


def _all_properties(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    props: dict[str, Any] = dict(schema.get("properties", _EMPTY))
    for sub in schema.get("allOf", []):
        sub = _resolve(sub, root)
        for key, value in _properties(sub, root).items():
            props.setdefault(key, value)
        then = _resolve(sub.get("then", _EMPTY), root)
        for key, value in _properties(then, root).items():
            props.setdefault(key, value)
    return props


def order_keys(value: Any, schema: Any, root: dict[str, Any]) -> Any:
    """Return `value` with mapping keys in schema order, recursively (input is not mutated)."""
    schema = _resolve(schema, root)
    for combinator in ("oneOf", "anyOf"):
        if combinator in schema:
            picked = _pick_branch(value, schema[combinator], root)
            schema = _kept(combinator, schema, picked, _merged, schema, combinator, picked)
    if isinstance(value, dict):
        props = _properties(schema, root)
        extra_schema = schema.get("additionalProperties")
        ordered: dict[str, Any] = {}
        for key in props:
            if key in value:
                ordered[key] = order_keys(value[key], props[key], root)
        for key, item in value.items():
            if key not in ordered:
                sub = extra_schema if isinstance(extra_schema, dict) else _EMPTY
                ordered[key] = order_keys(item, sub, root)
        return ordered
    if isinstance(value, list):
        items = schema.get("items", _EMPTY)
        return [order_keys(item, items, root) for item in value]
    return value


def _merged(schema: dict[str, Any], combinator: str, picked: dict[str, Any]) -> dict[str, Any]:
    merged = {k: v for k, v in schema.items() if k != combinator}
    merged.update(picked)
    return merged
