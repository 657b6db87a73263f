"""Pydantic models of a base44 `eval.json`, mirroring `schema.json`.

The schema leaves objects open (no `additionalProperties: false`), so the models keep unknown
keys (`extra="allow"`). A check's fields depend on its `type` through `if`/`then` clauses; the
model declares every per-type field loosely and `Check._per_type` applies the clause of the
check's own type, so a field constrained for one type stays free for the others, as in the
schema.

As in the Anychat models, `null` on a declared optional key means "absent" (structured output
fills optional keys with null), and validation is strict otherwise. Dump with `dump_eval`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, model_validator

CheckType = Literal[
    "contains",
    "file-exists",
    "file-content",
    "file-content-excluded",
    "valid-json",
    "command-passes",
    "json-schema",
    "entity-config",
    "agent-config",
    "function-def",
]
CHECK_TYPES: tuple[str, ...] = CheckType.__args__

_STRING = {"type": "string"}
_OBJECT = {"type": "object"}
_TARGET = {"type": "string", "enum": ["output", "file"]}
_BOOL = {"type": "boolean"}

#: The `then` clause of each check type: {field: JSON type or enum}, required fields.
CHECK_RULES: dict[str, tuple[dict[str, dict[str, Any]], tuple[str, ...]]] = {
    "contains": ({"value": _STRING}, ("value",)),
    "file-exists": ({"filePath": _STRING}, ("filePath",)),
    "file-content": (
        {"filePath": _STRING, "pattern": _STRING, "value": _STRING},
        ("filePath",),
    ),
    "file-content-excluded": ({"filePath": _STRING, "pattern": _STRING}, ("filePath", "pattern")),
    "valid-json": ({"filePath": _STRING}, ("filePath",)),
    "command-passes": ({"command": _STRING}, ("command",)),
    "json-schema": ({"filePath": _STRING, "schema": _OBJECT}, ("schema",)),
    "entity-config": ({"filePath": _STRING, "target": _TARGET, "expectedValid": _BOOL}, ()),
    "agent-config": ({"filePath": _STRING, "target": _TARGET, "expectedValid": _BOOL}, ()),
    "function-def": ({"filePath": _STRING, "target": _TARGET, "expectedValid": _BOOL}, ()),
}


def _matches(value: Any, rule: dict[str, Any]) -> bool:
    if "enum" in rule:
        return value in rule["enum"]
    kind = rule["type"]
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    return isinstance(value, dict)


# Per-type fields take any value at the model level (a field constrained for one check type is
# free for the others); their JSON Schema still shows the type they take where it matters.
AnyString = Annotated[Any, WithJsonSchema(_STRING)]
AnyObject = Annotated[Any, WithJsonSchema(_OBJECT)]
AnyTarget = Annotated[Any, WithJsonSchema(_TARGET)]
AnyBool = Annotated[Any, WithJsonSchema(_BOOL)]


class Base44Model(BaseModel):
    """Base of the base44 models: strict, open like the schema, null-as-absent."""

    model_config = ConfigDict(
        extra="allow", strict=True, populate_by_name=True, use_attribute_docstrings=True
    )

    @model_validator(mode="before")
    @classmethod
    def _drop_nulls(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        declared = {f.alias or name for name, f in cls.model_fields.items()} | set(cls.model_fields)
        return {k: v for k, v in data.items() if v is not None or k not in declared}


class Check(Base44Model):
    """One assertion on the agent's output or the files it wrote."""

    type: CheckType
    description: str
    """What the check verifies, in a few words."""
    value: AnyString = None
    """contains: substring of the output; file-content: exact text to find."""
    filePath: AnyString = None
    """Path relative to the fixture's project/ folder."""
    pattern: AnyString = None
    """file-content(-excluded): regular expression, matched case-insensitively."""
    command: AnyString = None
    """command-passes: shell command (`/bin/sh -c`, in the project folder) that must exit 0."""
    schema_: AnyObject = Field(None, alias="schema")
    """json-schema: the JSON Schema the file at filePath (else the JSON in the output) must
    satisfy."""
    target: AnyTarget = None
    """entity-config / agent-config / function-def: read the config from output or file."""
    expectedValid: AnyBool = None
    """entity-config / agent-config / function-def: expect it valid (default true)."""

    @model_validator(mode="after")
    def _per_type(self) -> Check:
        fields, required = CHECK_RULES[self.type]
        data = self.model_dump(by_alias=True, exclude_unset=True)
        missing = [name for name in required if name not in data]
        if missing:
            raise ValueError(f"check type '{self.type}' requires " + ", ".join(missing))
        for name, rule in fields.items():
            if name in data and not _matches(data[name], rule):
                expected = " | ".join(map(repr, rule["enum"])) if "enum" in rule else rule["type"]
                raise ValueError(f"'{name}' must be {expected} for check type '{self.type}'")
        return self

    @property
    def expects_valid(self) -> bool:
        """`expectedValid`, with the schema's default (true)."""
        return self.expectedValid is not False


class PromptEntry(Base44Model):
    """One prompt of a multi-prompt eval; each entry runs as its own case."""

    name: str
    """Unique within the fixture; usually prefixed with the fixture name."""
    description: str | None = None
    prompt: str
    """What the agent is asked."""
    expectedSkills: list[str]
    """Skill names the answer must show it used."""
    checks: list[Check]


class Base44Eval(Base44Model):
    """A base44 skills eval: one prompt (`prompt`/`checks`) or several (`prompts`)."""

    schema_ref: str | None = Field(None, alias="$schema")
    """Relative path of eval.schema.json, for editors."""
    name: str
    description: str
    prompt: str | None = None
    expectedSkills: list[str] | None = None
    checks: list[Check] | None = None
    prompts: list[PromptEntry] | None = None


def dump_eval(model: BaseModel) -> dict[str, Any]:
    """The eval as file data: only the keys that were set, under their file names."""
    return model.model_dump(mode="json", by_alias=True, exclude_unset=True)


__all__ = [
    "CHECK_RULES",
    "CHECK_TYPES",
    "Base44Eval",
    "Base44Model",
    "Check",
    "CheckType",
    "PromptEntry",
    "dump_eval",
]
