"""The Anychat project reader (file format: docs/playbooks.md).

`anychat.yml` (agent identity, Default Playbook, channels, outcomes, consent), `people.yml`,
`tools.yml`, `playbooks/<id>.yml` and `outreaches/<id>.yml`. Everything is read first, then
the cross-references are checked, so a warning never depends on the order files are read in.
"""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

from ..documents import Document
from ._context import ReadContext, as_dict
from ._model_anychat import AnychatDefinitions, AnychatTool, Outreach, PersonField
from ._playbooks import Known, check_playbook, read_playbook

ROOT_KEYS = {"agent", "default_playbook", "channels", "outcomes", "consent_required"}
AGENT_KEYS = {"name", "personality", "logo", "guardrails", "objectives"}
CHANNELS = {"rcs", "sms", "whatsapp", "appleMessages", "viber", "instagram", "slack", "web"}
OUTREACH_KEYS = {"name", "opener", "inputs", "playbook", "goal"}
PERSON_FIELD_KEYS = {"key", "label", "type", "choices"}
PERSON_TYPES = {"text", "number", "boolean", "date", "choice"}
TOOL_KEYS = {"description", "parameters"}
PARAMETER_KEYS = {"type", "description", "required", "choices"}
PARAMETER_TYPES = {"string", "number", "integer", "boolean", "date", "datetime", "object", "array"}
CASES_DIR = "cases"

#: Built-in Person fields: Anychat's CRM fields plus the keys the test-case schema uses.
BUILTIN_PERSON_FIELDS: tuple[PersonField, ...] = (
    PersonField(key="name", label="Name", builtin=True),
    PersonField(key="fullName", label="Full name", builtin=True),
    PersonField(key="firstName", label="First name", builtin=True),
    PersonField(key="lastName", label="Last name", builtin=True),
    PersonField(key="email", label="Email", builtin=True),
    PersonField(key="phone", label="Phone", builtin=True),
    PersonField(key="company", label="Company", builtin=True),
    PersonField(key="title", label="Title", builtin=True),
    PersonField(
        key="status",
        label="Funnel status",
        type="choice",
        builtin=True,
        choices=["new", "contacted", "qualified", "converted", "lost"],
    ),
    PersonField(key="source", label="Source", builtin=True),
    PersonField(key="productInterest", label="Product interest", builtin=True),
)
_KEY = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


def read_anychat(ctx: ReadContext) -> AnychatDefinitions:
    root = ctx.root
    defs = AnychatDefinitions()
    main = ctx.read_yaml(root / "anychat.yml")
    if main is not None:
        _read_main(ctx, main, defs)
    defs.person_fields = _read_people(ctx, root / "people.yml")
    defs.tools = _read_tools(ctx, root / "tools.yml")
    read = (read_playbook(ctx, path) for path in _yaml_files(ctx, root / "playbooks"))
    files = [file for file in read if file is not None]
    defs.playbooks = {file.playbook.id: file.playbook for file in files}
    default = defs.default_playbook
    if default in defs.playbooks:
        defs.playbooks[default].default = True
    elif main is not None and default is not None:
        ctx.warn_at(
            main,
            ("default_playbook",),
            f"default playbook '{default}' has no file playbooks/{default}.yml",
        )
    known = Known(set(defs.playbooks), set(defs.tools), set(defs.outcomes), set(defs.person_fields))
    for file in files:
        check_playbook(ctx, file, known, default=file.playbook.default)
    for path in _yaml_files(ctx, root / "outreaches"):
        outreach = _read_outreach(ctx, path, defs)
        if outreach is not None:
            defs.outreaches[outreach.id] = outreach
    if (root / CASES_DIR).is_dir():
        defs.cases_dir = CASES_DIR
    return defs


def _yaml_files(ctx: ReadContext, folder: Path) -> list[Path]:
    """`*.yml` / `*.yaml` files of `folder`, sorted; a stem used twice is warned about."""
    if not folder.is_dir():
        return []
    files: dict[str, Path] = {}
    for path in sorted([*folder.glob("*.yml"), *folder.glob("*.yaml")]):
        if path.stem in files:
            ctx.warn(path, None, f"'{path.stem}' is also defined by {ctx.rel(files[path.stem])}")
            continue
        files[path.stem] = path
    return sorted(files.values())


# --- anychat.yml ------------------------------------------------------------------------


def _read_main(ctx: ReadContext, doc: Document, defs: AnychatDefinitions) -> None:
    assert doc.path is not None
    data = doc.data if doc.data is not None else {}
    if not isinstance(data, dict):
        ctx.warn(doc.path, 1, "anychat.yml must be a YAML mapping")
        return
    ctx.warn_unknown_keys(doc, data, ROOT_KEYS, (), "anychat.yml")
    agent = data.get("agent")
    if not isinstance(agent, dict) or not isinstance(agent.get("name"), str):
        ctx.warn_at(doc, ("agent",), "'agent' needs at least a 'name' (the agent's identity)")
    if isinstance(agent, dict):
        ctx.warn_unknown_keys(doc, agent, AGENT_KEYS, ("agent",), "agent")
        defs.agent = agent
    default = data.get("default_playbook")
    if isinstance(default, str) and default:
        defs.default_playbook = default
    else:
        ctx.warn_at(doc, ("default_playbook",), "'default_playbook' (a playbook id) is required")
    defs.channels = _string_list(ctx, doc, data, "channels")
    for index, channel in enumerate(defs.channels):
        if channel not in CHANNELS:
            ctx.warn_at(
                doc,
                ("channels", index),
                f"unknown channel '{channel}' (known: {', '.join(sorted(CHANNELS))})",
            )
    defs.outcomes = _string_list(ctx, doc, data, "outcomes")
    consent = data.get("consent_required", False)
    if not isinstance(consent, bool):
        ctx.warn_at(doc, ("consent_required",), "'consent_required' is true or false")
    defs.consent_required = consent is True


def _string_list(ctx: ReadContext, doc: Document, data: dict[str, Any], key: str) -> list[str]:
    value = data.get(key)
    if value is None:
        return []
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    ctx.warn_at(doc, (key,), f"'{key}' must be a list of names")
    return []


# --- people.yml and tools.yml -----------------------------------------------------------


def _read_people(ctx: ReadContext, path: Path) -> dict[str, PersonField]:
    fields = {f.key: f for f in BUILTIN_PERSON_FIELDS}
    if not ctx.present(path):
        return fields
    doc = ctx.read_yaml(path)
    data = as_dict(doc.data if doc is not None else None)
    if doc is None or doc.data is None:
        return fields
    if not isinstance(data.get("fields"), list):
        ctx.warn(path, 1, "people.yml must have a 'fields:' list of {key, label, type}")
        return fields
    ctx.warn_unknown_keys(doc, data, {"fields"}, (), "people.yml")
    for index, item in enumerate(data["fields"]):
        field = _person_field(ctx, doc, item, ("fields", index))
        if field is None:
            continue
        if field.key in fields:
            what = "a built-in field" if fields[field.key].builtin else "declared twice"
            ctx.warn_at(doc, ("fields", index, "key"), f"People field '{field.key}' is {what}")
            continue
        fields[field.key] = field
    return fields


def _person_field(ctx: ReadContext, doc: Document, item: Any, at: tuple) -> PersonField | None:
    if not isinstance(item, dict) or not isinstance(item.get("key"), str):
        ctx.warn_at(doc, at, "a People field is a mapping with a 'key'")
        return None
    key = item["key"]
    ctx.warn_unknown_keys(doc, item, PERSON_FIELD_KEYS, at, f"People field '{key}'")
    if not _KEY.match(key):
        ctx.warn_at(doc, (*at, "key"), f"People field key '{key}' should be letters, digits, '_'")
    kind = item.get("type", "text")
    if not (isinstance(kind, str) and kind in PERSON_TYPES):
        ctx.warn_at(
            doc,
            (*at, "type"),
            f"unknown People field type '{kind}' (known: {', '.join(sorted(PERSON_TYPES))})",
        )
        kind = "text"
    choices = item.get("choices")
    if kind == "choice" and not (isinstance(choices, list) and choices):
        ctx.warn_at(doc, at, f"choice field '{key}' needs a non-empty 'choices' list")
        choices = None
    elif kind != "choice" and choices is not None:
        ctx.warn_at(doc, (*at, "choices"), f"'choices' only applies to type: choice ({key})")
        choices = None
    label = item.get("label")
    return PersonField(
        key=key,
        label=str(label) if label is not None else None,
        type=kind,
        choices=[str(c) for c in choices] if choices else None,
    )


def _read_tools(ctx: ReadContext, path: Path) -> dict[str, AnychatTool]:
    if not ctx.present(path):
        return {}
    doc = ctx.read_yaml(path)
    if doc is None or doc.data is None:
        return {}
    data = as_dict(doc.data)
    if not isinstance(data.get("tools"), dict):
        ctx.warn(path, 1, "tools.yml must have a 'tools:' map of tool names to definitions")
        return {}
    ctx.warn_unknown_keys(doc, data, {"tools"}, (), "tools.yml")
    tools: dict[str, AnychatTool] = {}
    for name, spec in data["tools"].items():
        at = ("tools", str(name))
        spec = spec if spec is not None else {}
        if not isinstance(spec, dict):
            ctx.warn_at(doc, at, f"tool '{name}' must be a mapping {{description, parameters}}")
            continue
        ctx.warn_unknown_keys(doc, spec, TOOL_KEYS, at, f"tool '{name}'")
        parameters = spec.get("parameters") or {}
        if not isinstance(parameters, dict):
            ctx.warn_at(doc, (*at, "parameters"), f"tool '{name}': 'parameters' is a map")
            parameters = {}
        for param, pspec in parameters.items():
            _check_parameter(ctx, doc, (*at, "parameters", str(param)), str(name), pspec)
        description = spec.get("description")
        tools[str(name)] = AnychatTool(
            name=str(name),
            description=str(description) if description is not None else None,
            parameters=parameters,
        )
    return tools


def _check_parameter(ctx: ReadContext, doc: Document, at: tuple, tool: str, spec: Any) -> None:
    if not isinstance(spec, dict):
        ctx.warn_at(doc, at, f"tool '{tool}': a parameter is {{type, description, required}}")
        return
    ctx.warn_unknown_keys(doc, spec, PARAMETER_KEYS, at, f"tool '{tool}' parameter")
    kind = spec.get("type", "string")
    if not (isinstance(kind, str) and kind in PARAMETER_TYPES):
        ctx.warn_at(doc, (*at, "type"), f"tool '{tool}': unknown parameter type '{kind}'")


# --- outreaches -------------------------------------------------------------------------


def _read_outreach(ctx: ReadContext, path: Path, defs: AnychatDefinitions) -> Outreach | None:
    doc = ctx.read_yaml(path)
    if doc is None or doc.data is None:
        return None
    data = doc.data
    if not isinstance(data, dict):
        ctx.warn(path, 1, "an outreach file must be a YAML mapping")
        return None
    ctx.warn_unknown_keys(doc, data, OUTREACH_KEYS, (), "outreach")
    opener = data.get("opener")
    if not isinstance(opener, str) or not opener.strip():
        ctx.warn_at(doc, ("opener",), "an outreach needs an 'opener' (the first message)")
        return None
    inputs = _string_list(ctx, doc, data, "inputs")
    playbook = data.get("playbook")
    if not isinstance(playbook, str) or not playbook:
        ctx.warn_at(doc, ("playbook",), "an outreach needs a 'playbook'; using the default")
        playbook = defs.default_playbook
        if playbook is None:
            return None
    elif playbook not in defs.playbooks:
        ctx.warn_at(doc, ("playbook",), f"unknown playbook '{playbook}'")
    for problem in opener_problems(opener, inputs):
        ctx.warn_at(doc, ("opener",), problem)
    name, goal = data.get("name"), data.get("goal")
    return Outreach(
        id=path.stem,
        name=str(name) if name is not None else None,
        opener=opener,
        inputs=inputs,
        playbook=playbook,
        goal=str(goal) if goal is not None else None,
        source=ctx.ref(path, 1),
    )


def opener_placeholders(opener: str) -> list[str]:
    """The `{name}` placeholders of an opener template, in order (raises ValueError if bad)."""
    names: list[str] = []
    for _literal, field, _spec, _conversion in string.Formatter().parse(opener):
        if field is not None and field not in names:
            names.append(field)
    return names


def opener_problems(opener: str, inputs: list[str]) -> list[str]:
    """Why an opener template is wrong for its declared inputs (empty when fine)."""
    try:
        names = opener_placeholders(opener)
    except ValueError as exc:
        return [f"opener is not a valid template ({exc}); write literal braces as {{{{ }}}}"]
    problems = []
    for name in names:
        if not _KEY.match(name):
            problems.append(f"opener placeholder '{{{name}}}' must be a plain input name")
        elif name not in inputs:
            problems.append(f"opener placeholder '{{{name}}}' is not a declared input")
    return problems
