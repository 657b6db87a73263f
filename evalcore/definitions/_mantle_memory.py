"""Mantle `memory.yml` and `responses.yml` (project root and per skill).

Project memory is a flat map of fields; skill memory nests them under
`schema: {public: ..., private: ...}`. Responses are `responses: {utter_x: [variant, ...]}`.
Shapes that do not fit are warned about and skipped; what fits is read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, get_args

from ..documents import Document
from ._context import ReadContext
from ._mantle_rasa_rules import rasa_message
from ._model import MemoryField, MemoryType, Response, ResponseButton, ResponseVariant

_TYPES = set(get_args(MemoryType))
_FIELD_KEYS = {
    "type",
    "description",
    "enum_values",
    "seed",
    "initial_value",
    "llm_settable",
    "pii",
    "anonymization",
    "privacy_rules",
    "mutable",
    "writable_by",
    "access",
}
_VARIANT_KEYS = {"text", "condition", "buttons", "metadata"}

Tokens = tuple[str | int, ...]


# --- memory -----------------------------------------------------------------------------


def read_project_memory(ctx: ReadContext, path: Path) -> dict[str, MemoryField]:
    """Root `memory.yml`: a flat map `name: {type, seed, ...}`."""
    doc = ctx.read_yaml(path, yaml11=True)
    if doc is None or doc.data is None:
        return {}
    if not isinstance(doc.data, dict):
        ctx.warn(path, 1, "project memory.yml must map field names to their attributes")
        return {}
    return _read_fields(ctx, doc, doc.data, (), "project", "project")


def read_skill_memory(ctx: ReadContext, path: Path, skill_id: str) -> dict[str, MemoryField]:
    """Skill `memory.yml`: `schema: {public: {...}, private: {...}}`.

    A file without `schema:` is warned about and its fields are read as public, so later
    checks still know the names.
    """
    doc = ctx.read_yaml(path, yaml11=True)
    if doc is None or doc.data is None:
        return {}
    data = doc.data
    if not isinstance(data, dict):
        ctx.warn(path, 1, "skill memory.yml must be a mapping with a 'schema:' key")
        return {}
    if "schema" not in data:
        ctx.warn(path, 1, "skill memory.yml has no 'schema: {public, private}'; read as public")
        return _read_fields(ctx, doc, data, (), skill_id, "public")
    ctx.warn_unknown_keys(doc, data, {"schema", "access"}, (), "memory.yml")
    schema = data["schema"]
    if not isinstance(schema, dict):
        ctx.warn_at(doc, ("schema",), "'schema' must map 'public' and 'private' to fields")
        return {}
    ctx.warn_unknown_keys(doc, schema, {"public", "private"}, ("schema",), "memory schema")
    fields: dict[str, MemoryField] = {}
    for visibility in ("public", "private"):
        section = schema.get(visibility)
        if section is None:
            continue
        if not isinstance(section, dict):
            ctx.warn_at(doc, ("schema", visibility), f"'{visibility}' must map names to fields")
            continue
        for name, field in _read_fields(
            ctx, doc, section, ("schema", visibility), skill_id, visibility
        ).items():
            if name in fields:
                ctx.warn_at(
                    doc, ("schema", visibility, name), f"memory field '{name}' declared twice"
                )
            fields[name] = field
    return fields


def _read_fields(
    ctx: ReadContext,
    doc: Document,
    mapping: dict[Any, Any],
    tokens: Tokens,
    namespace: str,
    visibility: Literal["public", "private", "project"],
) -> dict[str, MemoryField]:
    fields: dict[str, MemoryField] = {}
    lines = doc.text.splitlines()
    for name, spec in mapping.items():
        at = (*tokens, str(name))
        if not isinstance(spec, dict):
            ctx.warn_at(doc, at, f"memory field '{name}' must be a mapping like {{type: text}}")
            continue
        field = _read_field(ctx, doc, str(name), spec, at, namespace, visibility, lines)
        fields[field.name] = field
    return fields


def _note(lines: list[str], start: int | None) -> str | None:
    """The comment lines the file writes inside a field's block (`# SkyMiles tier of the
    signed-in app user` under `loyalty_tier:`), joined: YAML drops comments, yet a project
    without `description:` says there what the field is about. `start`: the line of the
    field's name (1-based); its block ends at the next line indented no deeper."""
    if start is None:
        return None
    indent = len(lines[start - 1]) - len(lines[start - 1].lstrip()) if start <= len(lines) else 0
    notes: list[str] = []
    for line in lines[start:]:
        text = line.strip()
        if text and len(line) - len(line.lstrip()) <= indent:
            break  # the next field
        if text.startswith("#"):
            notes.append(text.lstrip("#").strip())
    return " ".join(notes) or None


def _read_field(
    ctx: ReadContext,
    doc: Document,
    name: str,
    spec: dict[str, Any],
    at: Tokens,
    namespace: str,
    visibility: Literal["public", "private", "project"],
    lines: list[str],
) -> MemoryField:
    ctx.warn_unknown_keys(doc, spec, _FIELD_KEYS, at, f"memory field '{name}'")
    kind = spec.get("type", "any")
    if isinstance(kind, str) and kind not in _TYPES:
        # Rasa keeps any type name and gives the model a string for one it does not map
        # (`str`, `number`, ... in its own default skills): read as text, no warning.
        kind = "text"
    elif not isinstance(kind, str):
        ctx.warn_at(doc, (*at, "type"), f"memory field '{name}' has unknown type '{kind}'")
        kind = "any"
    enum_values = spec.get("enum_values")
    if enum_values is not None and not isinstance(enum_values, list):
        ctx.warn_at(doc, (*at, "enum_values"), f"memory field '{name}': enum_values is a list")
        enum_values = None
    if enum_values:
        scalars = [v for v in enum_values if isinstance(v, str | int | float | bool)]
        if len(scalars) != len(enum_values):
            ctx.warn_at(
                doc,
                (*at, "enum_values"),
                f"memory field '{name}': enum_values holds only names or numbers; "
                "the others are ignored",
            )
        enum_values = scalars
    if kind == "categorical" and not enum_values:
        ctx.warn_at(doc, at, f"categorical memory field '{name}' has no enum_values")
    seed = _strict_bool(ctx, doc, spec, at, "seed", name) or False
    if seed and visibility != "project":
        ctx.warn_at(doc, (*at, "seed"), f"'seed: true' is allowed on project fields only ({name})")
        seed = False
    description = spec.get("description")
    line = ctx.line(doc, *at)
    return MemoryField(
        name=name,
        namespace=namespace,
        type=kind,
        visibility=visibility,
        description=str(description) if description is not None else None,
        note=_note(lines, line),
        enum_values=enum_values,
        seed=seed,
        initial_value=spec.get("initial_value"),
        llm_settable=_strict_bool(ctx, doc, spec, at, "llm_settable", name),
        pii=_strict_bool(ctx, doc, spec, at, "pii", name),
        source=ctx.ref(doc.path or Path(), line),
    )


def _strict_bool(
    ctx: ReadContext, doc: Document, spec: dict[str, Any], at: Tokens, key: str, name: str
) -> bool | None:
    value = spec.get(key)
    if value is None or isinstance(value, bool):
        return value
    ctx.warn_at(doc, (*at, key), f"memory field '{name}': '{key}' must be true or false")
    return None


# --- responses --------------------------------------------------------------------------


def read_responses(ctx: ReadContext, path: Path, scope: str) -> dict[str, Response]:
    """`responses.yml`: `responses: {utter_x: [{text, condition?, buttons?, metadata?}]}`."""
    doc = ctx.read_yaml(path, yaml11=True)
    if doc is None or doc.data is None:
        return {}
    data = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("responses"), dict):
        ctx.warn(path, 1, "responses.yml must have a 'responses:' map of utter names to variants")
        return {}
    ctx.warn_unknown_keys(doc, data, {"responses", "version"}, (), "responses.yml")
    out: dict[str, Response] = {}
    for name, variants in data["responses"].items():
        at = ("responses", str(name))
        if isinstance(variants, dict | str):
            variants = [variants]
        if not isinstance(variants, list):
            ctx.warn_at(doc, at, f"response '{name}' must be a list of variants")
            continue
        read = [_variant(ctx, doc, v, (*at, i), str(name)) for i, v in enumerate(variants)]
        response = Response(
            name=str(name),
            variants=[v for v in read if v is not None],
            scope=scope,
            source=ctx.ref(path, ctx.line(doc, *at)),
        )
        defaults = sum(1 for v in response.variants if v.condition is None)
        if response.variants and defaults != 1:
            ctx.warn_at(
                doc,
                at,
                f"response '{name}' has {defaults} variants without a condition; "
                "exactly one is the default",
            )
        out[response.name] = response
    return out


def _variant(
    ctx: ReadContext, doc: Document, value: Any, at: Tokens, name: str
) -> ResponseVariant | None:
    if isinstance(value, str):
        return ResponseVariant(text=value)
    if not isinstance(value, dict):
        ctx.warn_at(doc, at, f"response '{name}': a variant is a mapping like {{text: ...}}")
        return None
    ctx.warn_unknown_keys(doc, value, _VARIANT_KEYS, at, f"response '{name}' variant")
    raw_buttons = value.get("buttons") or []
    if not isinstance(raw_buttons, list):
        ctx.warn_at(doc, (*at, "buttons"), f"response '{name}': buttons is a list")
        raw_buttons = []
    buttons = []
    for index, button in enumerate(raw_buttons):
        title = button.get("title") if isinstance(button, dict) else None
        if title is not None and (not isinstance(title, str) or not title.strip()):
            # YAML 1.1 reads `title: No` as False: Rasa refuses the button (and the project).
            ctx.warn_at(
                doc,
                (*at, "buttons", index, "title"),
                rasa_message(
                    "responses.registry.invalid_variant",
                    f"response '{name}' variant {at[-1]} button {index}: the title "
                    f'{title!r} is not a non-empty string; quote labels such as "No" or '
                    '"42". The button is left out.',
                ),
            )
            continue
        if isinstance(button, dict) and title is not None:
            payload = button.get("payload")
            buttons.append(
                ResponseButton(
                    title=str(button["title"]),
                    payload=str(payload) if payload is not None else None,
                )
            )
        else:
            ctx.warn_at(doc, (*at, "buttons", index), f"response '{name}': button needs a title")
    metadata = value.get("metadata")
    text = value.get("text")
    return ResponseVariant(
        text=str(text) if text is not None else None,
        condition=value.get("condition"),
        buttons=buttons,
        metadata=metadata if isinstance(metadata, dict) else None,
    )
