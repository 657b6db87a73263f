"""JSON Schema validation that reports findings a person can act on.

jsonschema's raw messages ("... is not valid under any of the given schemas") name neither the
bad key nor the fix. This module turns each error into a `schema` finding at the exact pointer:
an unknown key points at the key and suggests the closest allowed one, a missing key points
where it belongs, a `oneOf` picks the branch the data was evidently aiming for. A subschema may
carry an `x-message` to explain a rule in the schema author's own words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from . import pointer as ptr
from ._fastcheck import fast_check, for_fast_check
from .findings import Finding
from .suggest import did_you_mean

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

_JSON_TYPE = {
    dict: "object",
    list: "array",
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
    type(None): "null",
}


def json_type(value: Any) -> str:
    return _JSON_TYPE.get(type(value), type(value).__name__)


_VALIDATORS: dict[int, tuple[dict[str, Any], Any]] = {}


def make_validator(schema: dict[str, Any], *, check: bool = False) -> Any:
    """A cached validator for `schema` (draft picked from its `$schema`).

    The schemas validated against are the dialects' own, which
    `tests/test_schemas_checked.py` holds to their metaschema; checking one again in
    every process cost more than validating a handful of files, so `check=True` asks
    for it (SchemaError on a bad schema). jsonschema is imported here, on first need."""
    from jsonschema.validators import validator_for  # start-up: jsonschema, attrs

    cached = _VALIDATORS.get(id(schema))
    if check:
        validator_for(schema).check_schema(schema)
    if cached is None or cached[0] is not schema:
        cls = validator_for(schema)
        cached = (schema, cls(schema))
        _VALIDATORS[id(schema)] = cached
    return cached[1]


#: Kept under their old names for callers and tests that reach for them.
_fast_check = fast_check
_for_fast_check = for_fast_check


def schema_findings(data: Any, schema: dict[str, Any], *, base: str = "") -> list[Finding]:
    """Every schema violation of `data`, as findings (unordered, de-duplicated)."""
    check = fast_check(schema)
    if check is not None:
        try:
            check(data)
            return []
        except Exception:  # JsonSchemaException or anything odd: ask jsonschema
            pass
    validator = make_validator(schema)
    seen: set[tuple[str, str]] = set()
    out: list[Finding] = []
    for error in validator.iter_errors(data):
        for finding in _translate(error, base):
            key = (finding.path, finding.message)
            if key not in seen:
                seen.add(key)
                out.append(finding)
    return out


def _pointer(error: ValidationError, base: str) -> str:
    return ptr.join(base, *error.absolute_path)


def _allowed_keys(schema: Any) -> list[str]:
    if not isinstance(schema, dict):
        return []
    keys = list(schema.get("properties", {}))
    for sub in schema.get("allOf", []):
        keys += _allowed_keys(sub)
        if isinstance(sub, dict):
            keys += _allowed_keys(sub.get("then", {}))
    return list(dict.fromkeys(keys))


def _translate(error: ValidationError, base: str) -> Iterator[Finding]:
    where = _pointer(error, base)
    schema = error.schema if isinstance(error.schema, dict) else {}
    custom = schema.get("x-message")
    kind = error.validator

    if kind in ("oneOf", "anyOf") and error.context:
        branch = _intended_branch(error)
        if branch is not None:
            for sub in branch:
                yield from _translate(sub, base)
            return
        yield Finding(
            code="schema",
            path=where,
            value=_short(error.instance),
            message=custom or _describe_alternatives(error),
        )
        return

    if "propertyNames" in error.schema_path:
        key = error.instance
        allowed = schema.get("enum") if isinstance(schema.get("enum"), list) else None
        yield Finding(
            code="schema",
            path=ptr.join(where, key),
            value=key,
            message=custom
            or (f"unknown key '{key}'" if allowed is not None else f"key '{key}': {_clean(error)}"),
            suggestion=did_you_mean(key, allowed, what="key") if allowed is not None else None,
            context={"rule": "unknown-key", "allowed": list(allowed or [])},
        )
        return

    if kind == "additionalProperties" and error.validator_value is False:
        allowed = _allowed_keys(error.schema)
        patterns = list(error.schema.get("patternProperties", {}))
        for key in error.instance:
            if key in allowed or any(re.search(p, key) for p in patterns):
                continue
            yield Finding(
                code="schema",
                path=ptr.join(where, key),
                value=key,
                message=custom or f"unknown key '{key}'",
                suggestion=did_you_mean(key, allowed, what="key"),
                context={"rule": "unknown-key", "allowed": allowed},
            )
        return

    if kind == "required":
        for key in error.validator_value:
            if isinstance(error.instance, dict) and key not in error.instance:
                yield Finding(
                    code="schema",
                    path=ptr.join(where, key),
                    message=custom or f"missing required key '{key}'",
                    suggestion=f"add '{key}'",
                    context={"rule": "required"},
                )
        return

    if kind in ("enum", "const"):
        allowed = error.validator_value if kind == "enum" else [error.validator_value]
        yield Finding(
            code="schema",
            path=where,
            value=_short(error.instance),
            message=custom or f"{_show(error.instance)} is not one of the allowed values",
            suggestion=did_you_mean(error.instance, [str(a) for a in allowed], what="value")
            if isinstance(error.instance, str)
            else "allowed: " + ", ".join(_show(a) for a in allowed),
            context={"rule": "enum", "allowed": list(allowed)},
        )
        return

    if kind == "type":
        expected = error.validator_value
        expected_text = " or ".join(expected) if isinstance(expected, list) else expected
        yield Finding(
            code="schema",
            path=where,
            value=_short(error.instance),
            message=custom or f"expected {expected_text}, got {json_type(error.instance)}",
            context={
                "rule": "type",
                "expected": expected if isinstance(expected, list) else [expected],
            },
        )
        return

    if kind == "not" or error.validator is False or schema is False:
        key = error.absolute_path[-1] if error.absolute_path else None
        yield Finding(
            code="schema",
            path=where,
            value=_short(error.instance),
            message=custom
            or (f"'{key}' is not allowed here" if key is not None else error.message),
            context={"rule": "forbidden"},
        )
        return

    yield Finding(
        code="schema",
        path=where,
        value=_short(error.instance),
        message=custom or _clean(error),
        suggestion=schema.get("x-suggestion"),
        context={"rule": str(kind)},
    )


def _intended_branch(error: ValidationError) -> list[ValidationError] | None:
    """The sub-errors of the one alternative the data evidently meant, if there is one.

    A branch is 'meant' when the data has its type and every key it requires; among several,
    the one with the fewest errors wins. None means the data matches no branch's shape.
    """
    alternatives = error.validator_value
    by_branch: dict[int, list[ValidationError]] = {i: [] for i in range(len(alternatives))}
    for sub in error.context or []:
        by_branch.setdefault(sub.schema_path[0], []).append(sub)
    instance = error.instance
    candidates: list[tuple[int, int]] = []
    for index, sub_schema in enumerate(alternatives):
        if not isinstance(sub_schema, dict):
            continue
        if not _type_matches(instance, sub_schema.get("type")):
            continue
        required = sub_schema.get("required", [])
        if isinstance(instance, dict) and not all(k in instance for k in required):
            continue
        if isinstance(instance, dict) and not required and sub_schema.get("type") == "object":
            # An object branch with no required key only counts when it is the only object one.
            others = [s for s in alternatives if isinstance(s, dict) and s.get("type") == "object"]
            if len(others) > 1:
                continue
        candidates.append((len(by_branch.get(index, [])), index))
    if not candidates:
        return None
    keyed = [
        i for _, i in candidates if isinstance(instance, dict) and alternatives[i].get("required")
    ]
    if len(keyed) > 1:
        return [_ambiguous(error, [alternatives[i]["required"] for i in keyed])]
    _, best = min(candidates)
    errors = by_branch.get(best, [])
    return errors or None


def _ambiguous(error: ValidationError, shapes: list[list[str]]) -> ValidationError:
    """A synthetic error for data that carries the keys of several alternatives at once."""
    from jsonschema.exceptions import ValidationError  # start-up: jsonschema, attrs

    names = " and ".join("{" + ", ".join(r) + "}" for r in shapes)
    keep = " or ".join(f"'{r[0]}'" for r in shapes)
    return ValidationError(
        f"combines {names}; use exactly one of them",
        validator="oneOf",
        path=error.relative_path,
        schema={
            "x-message": f"combines {names}; use exactly one of them",
            "x-suggestion": f"keep {keep}",
        },
        instance=error.instance,
    )


def _type_matches(instance: Any, expected: Any) -> bool:
    if expected is None:
        return True
    names = expected if isinstance(expected, list) else [expected]
    actual = json_type(instance)
    return actual in names or (actual == "integer" and "number" in names)


def _describe_alternatives(error: ValidationError) -> str:
    shapes = []
    for sub in error.validator_value:
        if not isinstance(sub, dict):
            continue
        if sub.get("type") == "object" and sub.get("required"):
            shapes.append("{" + ", ".join(sub["required"]) + ": …}")
        elif sub.get("type"):
            shapes.append(str(sub["type"]))
    allowed = " | ".join(dict.fromkeys(shapes))
    return f"{_show(error.instance)} matches none of the allowed shapes" + (
        f" ({allowed})" if allowed else ""
    )


def _clean(error: ValidationError) -> str:
    text = error.message
    if len(text) > 200:
        text = text[:197] + "…"
    return text


def _show(value: Any) -> str:
    text = repr(value) if not isinstance(value, (dict, list)) else json_type(value)
    return text if len(text) <= 80 else text[:77] + "…"


def _short(value: Any) -> Any:
    """Keep finding values small: containers are summarised, scalars kept."""
    if isinstance(value, (dict, list)):
        text = json.dumps(value, ensure_ascii=False, default=str)
        return value if len(text) <= 200 else text[:197] + "…"
    return value
