"""What an Anychat project defines: playbooks, outreaches, People fields, tools."""

from __future__ import annotations

from dataclasses import field
from typing import Any, Literal

from .._record import record
from ._model_base import SourceRef, _Model


@record
class PlaybookExample(_Model):
    title: str | None = None
    turns: list[dict[str, Any]] = field(default_factory=list)
    """`{user: text}` / `{agent: text}` / `{chip: id}` ... as written."""
    end: dict[str, Any] = field(default_factory=dict)
    """Expected end state: activePlaybook, outcomes, tools, personFields, appointment."""


@record
class Playbook(_Model):
    id: str
    name: str | None = None
    activation: str | None = None
    """The activation hint other playbooks see in their index."""
    body: str = ""
    examples: list[PlaybookExample] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    outcomes: list[str] = field(default_factory=list)
    pickers: list[str] = field(default_factory=list)
    """Interactive parts this playbook sends (`ask.time`, `ask.choice`, ...)."""
    default: bool = False
    source: SourceRef | None = None


@record
class Outreach(_Model):
    id: str
    name: str | None = None
    opener: str
    """Opener template with `{input}` placeholders."""
    inputs: list[str] = field(default_factory=list)
    playbook: str
    goal: str | None = None
    source: SourceRef | None = None


@record
class PersonField(_Model):
    key: str
    label: str | None = None
    type: Literal["text", "number", "boolean", "date", "choice"] = "text"
    choices: list[str] | None = None
    builtin: bool = False


@record
class AnychatTool(_Model):
    name: str
    description: str | None = None
    parameters: dict[str, Any] = field(default_factory=dict)


@record
class AnychatDefinitions(_Model):
    agent: dict[str, Any] = field(default_factory=dict)
    default_playbook: str | None = None
    channels: list[str] = field(default_factory=list)
    playbooks: dict[str, Playbook] = field(default_factory=dict)
    outreaches: dict[str, Outreach] = field(default_factory=dict)
    person_fields: dict[str, PersonField] = field(default_factory=dict)
    """Built-in and custom People fields, by key."""
    consent_required: bool = False
    tools: dict[str, AnychatTool] = field(default_factory=dict)
    outcomes: list[str] = field(default_factory=list)
    cases_dir: str | None = None
