"""Anychat playbook files, `playbooks/<id>.yml`, read into `Playbook` (format: docs/playbooks.md).

References a playbook makes (tools, outcomes, other playbooks, People fields) are checked
against the rest of the project by the caller through `Known`, once everything is read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..documents import Document
from ._context import ReadContext, as_dict, as_list
from ._model_anychat import Playbook, PlaybookExample

PLAYBOOK_KEYS = {"name", "activation", "body", "tools", "outcomes", "pickers", "examples"}
EXAMPLE_KEYS = {"title", "turns", "end"}
END_KEYS = {
    "activePlaybook",
    "outcomes",
    "tools",
    "personFields",
    "appointmentCreated",
    "activeAppointments",
}
PICKERS = {"ask.time", "ask.choice", "confirm", "chips", "card", "carousel", "showcase"}
PART_TYPES = {"text", "media", *PICKERS}
SYSTEM_EVENTS = {"optOut", "optIn", "subscribed", "unsubscribed"}
#: Turn kind → the other keys that kind may carry.
TURN_KINDS: dict[str, set[str]] = {
    "user": set(),
    "agent": {"parts"},
    "chip": {"fallback"},
    "slot": {"fallback"},
    "confirm": {"fallback"},
    "system": set(),
    "tool": {"args", "result"},
    "handoff": set(),
}
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]*$")

Tokens = tuple[str | int, ...]


@dataclass(frozen=True)
class Known:
    """The ids a playbook may refer to."""

    playbooks: set[str]
    tools: set[str]
    outcomes: set[str]
    person_fields: set[str]


@dataclass
class PlaybookFile:
    """A read playbook and its parsed document (kept for line numbers in later checks)."""

    playbook: Playbook
    doc: Document


def read_playbook(ctx: ReadContext, path: Path) -> PlaybookFile | None:
    doc = ctx.read_yaml(path)
    if doc is None:
        return None
    data = doc.data if doc.data is not None else {}
    if not isinstance(data, dict):
        ctx.warn(path, 1, "a playbook file must be a YAML mapping")
        return None
    playbook_id = path.stem
    if not ID_PATTERN.match(playbook_id):
        ctx.warn(
            path,
            None,
            f"playbook id '{playbook_id}' (the file name) should use a-z, 0-9, '-' and '_'",
        )
    ctx.warn_unknown_keys(doc, data, PLAYBOOK_KEYS, (), "playbook")
    playbook = Playbook(
        id=playbook_id,
        name=_str(ctx, doc, data, "name"),
        activation=_str(ctx, doc, data, "activation"),
        body=_str(ctx, doc, data, "body") or "",
        tools=_names(ctx, doc, data, "tools"),
        outcomes=_names(ctx, doc, data, "outcomes"),
        pickers=_names(ctx, doc, data, "pickers"),
        source=ctx.ref(path, 1),
    )
    if not playbook.body.strip():
        ctx.warn(path, None, f"playbook '{playbook_id}' has no body (its instructions)")
    for index, picker in enumerate(playbook.pickers):
        if picker not in PICKERS:
            ctx.warn_at(
                doc,
                ("pickers", index),
                f"unknown picker '{picker}' (known: {', '.join(sorted(PICKERS))})",
            )
    examples = data.get("examples")
    if examples is not None and not isinstance(examples, list):
        ctx.warn_at(doc, ("examples",), "'examples' must be a list")
    for index, item in enumerate(as_list(examples)):
        # A malformed example still takes its place, so `origin.exampleIndex` stays aligned.
        playbook.examples.append(_example(ctx, doc, item, ("examples", index)))
    return PlaybookFile(playbook, doc)


def check_playbook(ctx: ReadContext, file: PlaybookFile, known: Known, default: bool) -> None:
    """Warn about references to things the project does not define."""
    playbook, doc = file.playbook, file.doc
    if not default and not (playbook.activation or "").strip():
        ctx.warn_at(
            doc,
            (),
            f"playbook '{playbook.id}' has no activation hint; other playbooks "
            "cannot hand off to it",
        )
    _check_names(ctx, doc, ("tools",), playbook.tools, known.tools, "tool")
    _check_names(ctx, doc, ("outcomes",), playbook.outcomes, known.outcomes, "outcome")
    # Walk the file's own lists (not the read model, which drops bad turns) to keep lines.
    raw_examples = as_list(doc.data.get("examples")) if isinstance(doc.data, dict) else []
    for index, item in enumerate(raw_examples):
        at: Tokens = ("examples", index)
        for turn_index, turn in enumerate(as_list(as_dict(item).get("turns"))):
            if isinstance(turn, dict):
                _check_turn(ctx, doc, turn, (*at, "turns", turn_index), playbook, known)
        _check_end(ctx, doc, as_dict(as_dict(item).get("end")), (*at, "end"), known)


# --- reading ----------------------------------------------------------------------------


def _str(ctx: ReadContext, doc: Document, data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is None or isinstance(value, str):
        return value
    ctx.warn_at(doc, (key,), f"'{key}' must be text")
    return str(value)


def _names(ctx: ReadContext, doc: Document, data: dict[str, Any], key: str) -> list[str]:
    value = data.get(key)
    if value is None:
        return []
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    ctx.warn_at(doc, (key,), f"'{key}' must be a list of names")
    return []


def _example(ctx: ReadContext, doc: Document, item: Any, at: Tokens) -> PlaybookExample:
    if not isinstance(item, dict):
        ctx.warn_at(doc, at, "an example is a mapping {title, turns, end}")
        return PlaybookExample()
    ctx.warn_unknown_keys(doc, item, EXAMPLE_KEYS, at, "example")
    turns = item.get("turns")
    if not isinstance(turns, list) or not turns:
        ctx.warn_at(doc, (*at, "turns"), "an example needs a non-empty 'turns' list")
        turns = []
    end = item.get("end")
    if end is not None and not isinstance(end, dict):
        ctx.warn_at(doc, (*at, "end"), "'end' must be a mapping")
        end = None
    title = item.get("title")
    kept = []
    for index, turn in enumerate(turns):
        if _turn_kind(ctx, doc, turn, (*at, "turns", index)) is not None:
            kept.append(turn)
    if end:
        ctx.warn_unknown_keys(doc, end, END_KEYS, (*at, "end"), "example end")
    return PlaybookExample(
        title=str(title) if title is not None else None, turns=kept, end=end or {}
    )


def _turn_kind(ctx: ReadContext, doc: Document, turn: Any, at: Tokens) -> str | None:
    """The turn's kind; None (with a warning) for a turn that is not one kind with a valid value.

    Such turns are left out of the read example, so that replaying one never meets them.
    """
    if not isinstance(turn, dict):
        ctx.warn_at(doc, at, "a turn is a mapping like {user: ...} or {agent: ...}")
        return None
    kinds = [key for key in turn if key in TURN_KINDS]
    if len(kinds) != 1:
        found = ", ".join(map(str, turn)) or "nothing"
        ctx.warn_at(
            doc, at, f"a turn has exactly one kind of {', '.join(TURN_KINDS)} (found: {found})"
        )
        return None
    kind = kinds[0]
    for key in turn:
        if key != kind and key not in TURN_KINDS[kind]:
            ctx.warn_at(doc, (*at, str(key)), f"key '{key}' is not used by a {kind} turn")
    value = turn[kind]
    problem = _turn_value_problem(kind, value, turn)
    if problem:
        ctx.warn_at(doc, (*at, kind), problem)
        return None
    return kind


def _turn_value_problem(kind: str, value: Any, turn: dict[str, Any]) -> str | None:
    if kind in {"user", "agent", "chip", "tool", "handoff"}:
        if not isinstance(value, str) or not value.strip():
            return f"a {kind} turn's value must be non-empty text"
    elif kind == "slot":
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return "a slot turn's value is the 0-based index of the offered slot"
    elif kind == "confirm":
        if not isinstance(value, bool):
            return "a confirm turn's value is true or false"
    elif kind == "system" and not (isinstance(value, str) and value in SYSTEM_EVENTS):
        return f"unknown system event '{value}' (known: {', '.join(sorted(SYSTEM_EVENTS))})"
    parts = turn.get("parts")
    if (
        kind == "agent"
        and parts is not None
        and (not isinstance(parts, list) or not set(map(str, parts)) <= PART_TYPES)
    ):
        return f"'parts' is a list of part types ({', '.join(sorted(PART_TYPES))})"
    return None


# --- checking references ----------------------------------------------------------------


def _check_names(
    ctx: ReadContext, doc: Document, at: Tokens, names: list[str], known: set[str], what: str
) -> None:
    for index, name in enumerate(names):
        if name not in known:
            ctx.warn_at(doc, (*at, index), f"unknown {what} '{name}'")


def _check_turn(
    ctx: ReadContext,
    doc: Document,
    turn: dict[str, Any],
    at: Tokens,
    playbook: Playbook,
    known: Known,
) -> None:
    tool = turn.get("tool")
    if isinstance(tool, str):
        if tool not in known.tools:
            ctx.warn_at(doc, (*at, "tool"), f"unknown tool '{tool}'")
        elif tool not in playbook.tools:
            ctx.warn_at(
                doc,
                (*at, "tool"),
                f"the example calls '{tool}', which playbook '{playbook.id}' does not list "
                "in 'tools'",
            )
    handoff = turn.get("handoff")
    if isinstance(handoff, str) and handoff not in known.playbooks:
        ctx.warn_at(doc, (*at, "handoff"), f"unknown playbook '{handoff}'")


def _check_end(
    ctx: ReadContext, doc: Document, end: dict[str, Any], at: Tokens, known: Known
) -> None:
    active = end.get("activePlaybook")
    if isinstance(active, str) and active not in known.playbooks:
        ctx.warn_at(doc, (*at, "activePlaybook"), f"unknown playbook '{active}'")
    elif active is not None and not isinstance(active, str):
        ctx.warn_at(doc, (*at, "activePlaybook"), "'activePlaybook' is a playbook id")
    for key, pool, what in (
        ("outcomes", known.outcomes, "outcome"),
        ("tools", known.tools, "tool"),
    ):
        value = end.get(key)
        if value is None:
            continue
        if not isinstance(value, list):
            ctx.warn_at(doc, (*at, key), f"'{key}' must be a list")
            continue
        _check_names(ctx, doc, (*at, key), [str(v) for v in value], pool, what)
    fields = end.get("personFields")
    if isinstance(fields, dict):
        for key in fields:
            if key not in known.person_fields:
                ctx.warn_at(doc, (*at, "personFields", str(key)), f"unknown People field '{key}'")
    elif fields is not None:
        ctx.warn_at(doc, (*at, "personFields"), "'personFields' maps People field keys to values")
    created = end.get("appointmentCreated")
    if created is not None and not isinstance(created, bool):
        ctx.warn_at(doc, (*at, "appointmentCreated"), "'appointmentCreated' is true or false")
    count = end.get("activeAppointments")
    if count is not None and (not isinstance(count, int) or isinstance(count, bool) or count < 0):
        ctx.warn_at(doc, (*at, "activeAppointments"), "'activeAppointments' is a whole number ≥ 0")
