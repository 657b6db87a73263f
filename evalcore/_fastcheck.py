"""The compiled yes/no schema check that lets a valid file skip jsonschema altogether.

Most files are valid, and fastjsonschema's generated code answers "valid?" many times faster than
jsonschema walks the schema; only a file it rejects goes through jsonschema for findings (and only
then is jsonschema imported, a quarter of a second of a small `validate`'s start-up). The check is
generated and compiled in the process that uses it, once per schema: compiled code is never kept
on disk, since a cache file that is executed is code anyone who can write the file can plant.
"""

from __future__ import annotations

import ast
import re
from typing import Any

_FAST: dict[int, tuple[dict[str, Any], Any]] = {}
_OPTIONS: dict[str, bool] = {"use_formats": False, "use_default": False}


def fast_check(schema: dict[str, Any]) -> Any:
    """A compiled yes/no check for `schema`, or None where fastjsonschema cannot compile it
    (the full check only, then). Built once per schema object per process."""
    cached = _FAST.get(id(schema))
    if cached is None or cached[0] is not schema:
        try:
            check = _load_or_compile(for_fast_check(schema))
        except Exception:  # an optional speed-up: any trouble means the full check only
            check = None
        cached = (schema, check)
        _FAST[id(schema)] = cached
    return cached[1]


def _load_or_compile(definition: Any) -> Any:
    """The compiled check for `definition`, built here from fastjsonschema's generated code."""
    name, code = _compile(definition)
    namespace: dict[str, Any] = {}
    exec(code, namespace)
    return namespace[name]


def _compile(definition: Any) -> tuple[str, Any]:
    """The generated module's code object and the name of its entry function: the generator
    writes the root schema's function first, the functions of its `$ref`s after it."""
    import fastjsonschema

    source = fastjsonschema.compile_to_code(definition, **_OPTIONS)
    entry = _FIRST_FUNCTION.search(source)
    if entry is None:
        raise ValueError("fastjsonschema generated no function")
    tree = _YesNo().visit(ast.parse(source))
    tree.body[:0] = ast.parse(_FAIL_CLASS).body
    return entry.group(1), compile(ast.fix_missing_locations(tree), _FILENAME, "exec")


_FILENAME = "<casegen fast schema check>"
_FAIL_CLASS = """
from fastjsonschema import JsonSchemaValueException as _Base
class _Fail(_Base):
    def __init__(self):
        pass
"""


class _YesNo(ast.NodeTransformer):
    """The generated code as a yes/no gate: it builds every item's name (`data.x[3]`, with
    `str.format(**locals())`) to pass down, and a message and a copy of the subschema for
    every exception it raises, including the ones an `if`, `oneOf` or `anyOf` raises and
    catches for valid data. The gate's caller reads none of that (a rejected file goes to
    jsonschema), so names are passed as None and every raise is a bare `_Fail()`, a
    subclass of the exception the generated `except` clauses catch."""

    def visit_Raise(self, node: ast.Raise) -> ast.AST:
        exc = node.exc
        if (
            isinstance(exc, ast.Call)
            and isinstance(exc.func, ast.Name)
            and exc.func.id == "JsonSchemaValueException"
        ):
            node.exc = ast.Call(func=ast.Name("_Fail", ast.Load()), args=[], keywords=[])
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if (
            isinstance(node.func, ast.Name)
            and node.func.id.startswith("validate_")
            and len(node.args) == 3
            and not node.keywords
        ):
            node.args[2] = ast.Constant(None)
        return node


_FIRST_FUNCTION = re.compile(r"^def (\w+)\(", re.MULTILINE)


def _as_draft7(node: Any, *, root: bool = True) -> Any:
    """The schema in draft-07 terms for fastjsonschema: since 2019-09 a `$ref` applies
    together with its sibling keywords, which draft 7 would ignore, so it moves into an
    `allOf` (the same meaning in both drafts). Only the root's `$schema` goes: below it the
    name is a property's (base44 cases have a `$schema` key)."""
    if isinstance(node, list):
        return [_as_draft7(item, root=False) for item in node]
    if not isinstance(node, dict):
        return node
    out = {
        key: _as_draft7(value, root=False)
        for key, value in node.items()
        if not (root and key == "$schema")
    }
    if "$ref" in out and len(out) > 1:
        ref = out.pop("$ref")
        out["allOf"] = [{"$ref": ref}, *out.get("allOf", [])]
    return out


#: Every JSON type but null: `{"not": {"type": "null"}}` said as a type.
_NOT_NULL = ["array", "boolean", "integer", "number", "object", "string"]


def for_fast_check(schema: dict[str, Any]) -> Any:
    """The schema for fastjsonschema, meaning the same at less cost on valid data: in draft-07
    terms (`_as_draft7`), two kinds of `not` said positively, since fastjsonschema runs a
    `not`'s subschema, and builds an exception, for every valid value, and no `propertyNames`
    that the object's own `additionalProperties: false` already implies (it would check each
    key against the enum once more). The check is only a gate: whatever it rejects is judged
    by jsonschema on the schema itself."""
    draft7 = _as_draft7(schema)
    return _positive(draft7, draft7)


def _positive(node: Any, root: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_positive(item, root) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    extra: list[Any] = []
    for key, value in node.items():
        if key == "not" and value == {"type": "null"}:
            extra.append({"type": list(_NOT_NULL)})
        elif key == "not" and _anchored_pattern(value):
            extra.append({"pattern": "^(?!" + value["pattern"][1:] + ")"})
        elif key == "propertyNames" and _implied_names(node, value, root):
            continue
        else:
            out[key] = _positive(value, root)
    if extra:
        out["allOf"] = [*out.get("allOf", []), *extra]
    return out


def _implied_names(node: dict[str, Any], names: Any, root: dict[str, Any]) -> bool:
    """True when `propertyNames` is an enum of strings (itself or through a local `$ref`)
    that holds every key `properties` allows, and `additionalProperties: false` with no
    `patternProperties` allows no other key: every key that passes one passes the other."""
    if "patternProperties" in node or node.get("additionalProperties") is not False:
        return False
    properties = node.get("properties")
    if not isinstance(properties, dict) or not isinstance(names, dict):
        return False
    ref = names.get("$ref")
    if len(names) == 1 and isinstance(ref, str) and ref.startswith("#/$defs/"):
        names = root.get("$defs", {}).get(ref.removeprefix("#/$defs/"))
    if not isinstance(names, dict) or set(names) != {"enum"}:
        return False
    enum = names["enum"]
    return (
        isinstance(enum, list)
        and all(isinstance(item, str) for item in enum)
        and set(properties) <= set(enum)
    )


def _anchored_pattern(value: Any) -> bool:
    """`{"type": "string", "pattern": "^..."}` without alternation: its `not` is a
    negative lookahead at the start (non-strings pass both)."""
    if not isinstance(value, dict) or set(value) != {"type", "pattern"}:
        return False
    pattern = value["pattern"]
    return (
        value["type"] == "string"
        and isinstance(pattern, str)
        and pattern.startswith("^")
        and "|" not in pattern
    )
