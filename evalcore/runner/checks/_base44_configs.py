"""Base44 resource configs (entity, agent, function): shape plus the mistakes that matter.

The original runner's zod schemas were loose: any extra key passed, so `entrypoint` for
`entry` or a per-property `required: true` (silently ignored by Base44) went unnoticed. Here
the shape is a JSON Schema with the original's fields and ranges, and a few rules catch what
silently breaks a deployment: a misspelled or wrongly named known key, a `required` name with
no property, a default of the wrong type. Other unknown keys stay allowed, because the Base44
formats grow (e.g. function automations) and a check must not fail on a newer valid file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from ...suggest import similarity

_PROPERTY_TYPES = ["string", "number", "integer", "boolean", "array", "object", "binary"]
_OPERATIONS = ["read", "create", "update", "delete"]

_RULE: dict[str, Any] = {
    "anyOf": [
        {"type": "boolean"},
        {
            "type": "object",
            "required": ["field", "operator"],
            "properties": {
                "field": {"type": "string", "minLength": 1},
                "operator": {"enum": ["eq", "neq", "in", "nin", "exists"]},
            },
        },
        {
            "type": "object",
            "required": ["any"],
            "properties": {"any": {"type": "array", "items": {"$ref": "#/$defs/rule"}}},
        },
        {
            "type": "object",
            "required": ["all"],
            "properties": {"all": {"type": "array", "items": {"$ref": "#/$defs/rule"}}},
        },
    ]
}

ENTITY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name", "properties"],
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "type": {"const": "object"},
        "description": {"type": "string"},
        "properties": {"type": "object", "additionalProperties": {"$ref": "#/$defs/property"}},
        "required": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        "rls": {
            "type": "object",
            "additionalProperties": False,
            "properties": {op: {"$ref": "#/$defs/rule"} for op in _OPERATIONS},
        },
    },
    "$defs": {
        "property": {
            "type": "object",
            "required": ["type"],
            "properties": {
                "type": {"enum": _PROPERTY_TYPES},
                "description": {"type": "string"},
                "format": {"type": "string"},
                "enum": {"type": "array", "minItems": 1},
                "items": {"type": "object", "properties": {"type": {"enum": _PROPERTY_TYPES}}},
                "properties": {
                    "type": "object",
                    "additionalProperties": {"$ref": "#/$defs/property"},
                },
            },
        },
        "rule": _RULE,
    },
}

AGENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name", "description", "instructions"],
    "properties": {
        "name": {"type": "string", "pattern": "^[a-z0-9_]+$", "maxLength": 100},
        "description": {"type": "string", "minLength": 1},
        "instructions": {"type": "string", "minLength": 1},
        "model": {"type": "string"},
        "tool_configs": {
            "type": "array",
            "items": {
                "oneOf": [
                    {
                        "type": "object",
                        "required": ["entity_name", "allowed_operations"],
                        "not": {"required": ["function_name"]},
                        "properties": {
                            "entity_name": {"type": "string", "minLength": 1},
                            "allowed_operations": {
                                "type": "array",
                                "minItems": 1,
                                "uniqueItems": True,
                                "items": {"enum": _OPERATIONS},
                            },
                        },
                    },
                    {
                        "type": "object",
                        "required": ["function_name"],
                        "not": {"required": ["entity_name"]},
                        "properties": {
                            "function_name": {"type": "string", "minLength": 1},
                            "description": {"type": "string"},
                        },
                    },
                ]
            },
        },
        "temperature": {"type": "number", "minimum": 0, "maximum": 2},
        "max_tokens": {"type": "integer", "exclusiveMinimum": 0},
        "whatsapp_greeting": {"type": "string"},
    },
}

FUNCTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "minLength": 1, "pattern": "^[^.]+$"},
        "description": {"type": "string"},
        "entry": {"type": "string", "minLength": 1},
        "env": {"type": "array", "items": {"type": "string"}},
        "envFrom": {"type": "array", "items": {"type": "string"}},
    },
}

#: Keys agents write instead of the real one (the value is what to write).
_ALIASES: dict[str, dict[str, str]] = {
    "entity": {
        "fields": "properties",
        "schema": "properties",
        "requiredFields": "required",
        "policies_rls": "rls",
    },
    "property": {"default_value": "default", "values": "enum", "options": "enum"},
    "agent": {
        "tools": "tool_configs",
        "tool_config": "tool_configs",
        "toolConfigs": "tool_configs",
        "system_prompt": "instructions",
        "prompt": "instructions",
        "instruction": "instructions",
        "maxTokens": "max_tokens",
    },
    "tool": {
        "entity": "entity_name",
        "operations": "allowed_operations",
        "allowed_ops": "allowed_operations",
        "function": "function_name",
    },
    "function": {
        "entrypoint": "entry",
        "entry_point": "entry",
        "entryPoint": "entry",
        "main": "entry",
        "handler": "entry",
        "env_from": "envFrom",
    },
}

_KNOWN: dict[str, set[str]] = {
    "entity": set(ENTITY_SCHEMA["properties"]) | {"policies", "$schema", "title"},
    "property": set(ENTITY_SCHEMA["$defs"]["property"]["properties"])
    | {
        "default",
        "relation",
        "title",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
        "required",
    },
    "agent": set(AGENT_SCHEMA["properties"]),
    "tool": {"entity_name", "allowed_operations", "function_name", "description"},
    "function": set(FUNCTION_SCHEMA["properties"]) | {"automations"},
}

_DEFAULT_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "boolean": (bool,),
    "integer": (int,),
    "number": (int, float),
    "array": (list,),
    "object": (dict,),
}


def _misnamed(obj: Mapping[str, Any], scope: str, where: str) -> list[str]:
    """Keys that are a known alias or a near-miss of a real key of this scope."""
    problems = []
    for key in obj:
        if key in _KNOWN[scope]:
            continue
        if key in _ALIASES[scope]:
            problems.append(f"{where}{key}: unknown key; write {_ALIASES[scope][key]}")
            continue
        near = [k for k in _KNOWN[scope] if similarity(key, k) >= 0.8]
        if near:
            problems.append(f"{where}{key}: unknown key; did you mean {near[0]}?")
    return problems


def schema_errors(validator: Any, value: Any) -> list[str]:
    """Readable schema errors: `/json/path: message`; for a failed oneOf/anyOf, the closest
    alternative's own error instead of "not valid under any of the given schemas"."""
    errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
    out = []
    for error in errors:
        for shown in _closest(error):
            path = (
                "/" + "/".join(map(str, shown.absolute_path)) if shown.absolute_path else "(root)"
            )
            out.append(f"{path}: {shown.message}")
    return out


def _closest(error: Any) -> list[Any]:
    """For a failed oneOf/anyOf: the errors of the one alternative whose shape the value has
    (its required keys are there), else the best single match."""
    if error.validator not in ("oneOf", "anyOf") or not error.context:
        return [error]
    branches: dict[int, list[Any]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    shaped = [
        errs
        for errs in branches.values()
        if not any(e.validator in ("required", "not", "type") and not e.relative_path for e in errs)
    ]
    return shaped[0] if len(shaped) == 1 else [best_match(error.context)]


def _schema_problems(schema: Mapping[str, Any], value: Any) -> list[str]:
    return schema_errors(Draft202012Validator(schema), value)


def _entity(value: Mapping[str, Any]) -> list[str]:
    problems = _misnamed(value, "entity", "/")
    properties = value.get("properties")
    if isinstance(properties, Mapping):
        for name, prop in properties.items():
            if not isinstance(prop, Mapping):
                continue
            where = f"/properties/{name}/"
            problems += _misnamed(prop, "property", where)
            if isinstance(prop.get("required"), bool):
                problems.append(
                    f"{where}required: Base44 ignores a per-property flag; list "
                    f"'{name}' in the entity's `required`"
                )
            kinds = _DEFAULT_TYPES.get(str(prop.get("type")))
            default = prop.get("default")
            if (
                "default" in prop
                and kinds
                and (
                    not isinstance(default, kinds)
                    or (bool not in kinds and isinstance(default, bool))
                )
            ):
                problems.append(f"{where}default: {default!r} is not a {prop['type']}")
        required = value.get("required")
        if isinstance(required, list):
            problems += [
                f"/required: '{r}' is not a defined property"
                for r in required
                if isinstance(r, str) and r not in properties
            ]
    return problems


def _agent(value: Mapping[str, Any]) -> list[str]:
    problems = _misnamed(value, "agent", "/")
    tools = value.get("tool_configs")
    for i, tool in enumerate(tools if isinstance(tools, list) else []):
        if isinstance(tool, Mapping):
            problems += _misnamed(tool, "tool", f"/tool_configs/{i}/")
    return problems


def _function(value: Mapping[str, Any]) -> list[str]:
    return _misnamed(value, "function", "/")


_KINDS: dict[
    str, tuple[str, dict[str, Any], Callable[[Mapping[str, Any]], list[str]], Callable[[Any], bool]]
] = {
    "entity-config": (
        "Base44 entity config",
        ENTITY_SCHEMA,
        _entity,
        lambda v: isinstance(v, dict) and "name" in v and "properties" in v,
    ),
    "agent-config": (
        "Base44 agent config",
        AGENT_SCHEMA,
        _agent,
        lambda v: isinstance(v, dict) and "name" in v,
    ),
    "function-def": (
        "Base44 function config",
        FUNCTION_SCHEMA,
        _function,
        lambda v: isinstance(v, dict) and "name" in v,
    ),
}

#: check type → (label, accept): what the check is called, and what counts as a candidate
#: when the config is looked for in the answer.
CONFIG_KINDS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    kind: (label, accept) for kind, (label, _, _, accept) in _KINDS.items()
}


def config_problems(kind: str, value: Any) -> list[str]:
    """Everything wrong with `value` as a config of `kind` (empty: valid)."""
    _, schema, rules, _ = _KINDS[kind]
    problems = _schema_problems(schema, value)
    if isinstance(value, Mapping):
        problems += [p for p in rules(value) if p not in problems]
    return problems


__all__ = [
    "AGENT_SCHEMA",
    "CONFIG_KINDS",
    "ENTITY_SCHEMA",
    "FUNCTION_SCHEMA",
    "config_problems",
    "schema_errors",
]
