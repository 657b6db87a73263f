"""The JSON Schema a model is given: what grammar converters accept, and no bigger than needed.

llama.cpp (both servers) turns a schema into a grammar. Its converters crash or fall back to
free text on `"items": {}` (an array of anything), `prefixItems` and some regex `pattern`s,
and every `title` is prompt tokens a small context cannot spare. The answer is validated
against the pydantic model afterwards, so the schema sent may be looser than the model (a
`pattern` left out) but never stricter in a way that refuses a valid answer.
"""

from __future__ import annotations

import copy
from typing import Any

#: What "any value" becomes: a grammar needs a finite shape. An item of an untyped list or
#: map in a case model is a slot value, a fact or a tool argument: a scalar.
ANY_SCALAR: dict[str, Any] = {
    "anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}]
}

#: Keywords that only document (or that converters mishandle) and the validator re-checks.
_DROP = ("title", "pattern", "discriminator", "examples", "$comment")
#: Keywords whose value is one sub-schema.
_ONE = ("items", "additionalProperties", "not", "contains", "propertyNames")
#: Keywords whose value is a list of sub-schemas.
_MANY = ("anyOf", "oneOf", "allOf")
#: Keywords whose value maps names to sub-schemas.
_MAP = ("properties", "$defs", "definitions", "patternProperties")


def model_facing(schema: dict[str, Any]) -> dict[str, Any]:
    """A copy of `schema` that grammar converters accept (see the module docstring)."""
    return _node(copy.deepcopy(schema))


def _node(node: Any) -> Any:
    if node is True or node == {}:
        return copy.deepcopy(ANY_SCALAR)
    if not isinstance(node, dict):
        return node
    for key in _DROP:
        node.pop(key, None)
    if "prefixItems" in node:
        prefix = [_node(item) for item in node.pop("prefixItems")]
        extra = node.get("items")
        choices = prefix + ([extra] if isinstance(extra, dict) and extra else [])
        node["items"] = choices[0] if len(choices) == 1 else {"anyOf": choices}
    if node.get("type") == "array" and "items" not in node:
        node["items"] = copy.deepcopy(ANY_SCALAR)
    if "oneOf" in node:  # converters know anyOf best; the validator keeps "exactly one"
        node["anyOf"] = node.pop("oneOf")
    for key in _ONE:
        if key in node and node[key] is not False:
            node[key] = _node(node[key])
    for key in _MANY:
        if isinstance(node.get(key), list):
            node[key] = [_node(item) for item in node[key]]
    for key in _MAP:
        if isinstance(node.get(key), dict):
            node[key] = {name: _node(sub) for name, sub in node[key].items()}
    return node


def without_descriptions(schema: Any) -> Any:
    """`schema` without its `description`s (a property named `description` stays)."""
    if isinstance(schema, list):
        return [without_descriptions(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "description" and isinstance(value, str):
            continue
        if key in _MAP and isinstance(value, dict):
            out[key] = {name: without_descriptions(sub) for name, sub in value.items()}
        else:
            out[key] = without_descriptions(value)
    return out


def problems(schema: Any, path: str = "#") -> list[str]:
    """Where `schema` still has what converters refuse (empty items, prefixItems); for tests
    and `casegen doctor`."""
    found: list[str] = []
    if isinstance(schema, dict):
        if "prefixItems" in schema:
            found.append(f"{path}/prefixItems")
        if schema.get("items") in ({}, True):
            found.append(f"{path}/items is empty")
        if schema.get("type") == "array" and "items" not in schema:
            found.append(f"{path} is an array without items")
        for key, value in schema.items():
            if isinstance(value, dict | list):
                found += problems(value, f"{path}/{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            found += problems(value, f"{path}/{index}")
    return found


__all__ = ["ANY_SCALAR", "model_facing", "problems", "without_descriptions"]
