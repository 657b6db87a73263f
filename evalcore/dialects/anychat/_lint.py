"""Reference lint for Anychat cases: the Playbooks, Outreaches, tools and Person fields a case
names must exist in the project (`project.anychat`).

Codes and where they look:

- `unknown-playbook`: `/origin/playbookId`, `/scenario/start/resume/activePlaybook`,
  `/expect/checks/activePlaybookAtEnd`, and `/origin/exampleIndex` (below);
- `unknown-outreach`: `/scenario/start/outreach/outreachId`;
- `unknown-tool`: keys of `/expect/checks/toolsCalled` and items of `toolsNotCalled`;
- `unknown-person-field`: keys of `/expect/checks/personFields` and of
  `/scenario/persona/preset/fields/customFields`.

Readings where the schema leaves room:

- Cases name Playbooks and Outreaches by id. A value that is a definition's display name is
  still reported, with that id as the suggestion and `context["by_name"]` so repair swaps it.
- A tool is known when `project.anychat.tools` defines it or a Playbook lists it.
- Person fields are the readers' `person_fields` (built-in and custom keys alike).
- `origin.exampleIndex` is reported (as `unknown-playbook`, at `/origin/exampleIndex`) when
  `origin.playbookId` is a known Playbook and the index is past its examples: the case claims
  to replay an example that does not exist, which is how a stale case shows after a Playbook's
  examples change. Without a known `playbookId` there is nothing to count against.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ... import pointer as ptr
from ...findings import Finding
from ...lint import as_dict, as_list, unknown_id

if TYPE_CHECKING:
    from ...definitions import AnychatDefinitions, Project


class _Named(Protocol):
    name: str | None


def lint_anychat(data: Any, project: Project) -> list[Finding]:
    """Every reference in `data` that `project.anychat` does not define (never raises)."""
    defs = project.anychat
    if defs is None or not isinstance(data, dict):
        return []
    return [
        *_playbooks(data, defs),
        *_outreaches(data, defs),
        *_tools(data, defs),
        *_person_fields(data, defs),
    ]


def _by_id(
    code: str, path: str, value: Any, known: Mapping[str, _Named], what: str
) -> Finding | None:
    """A finding for `value` unless it is one of `known`'s ids."""
    if not isinstance(value, str) or value in known:
        return None
    wanted = value.strip().lower()
    named = [i for i, d in known.items() if d.name and d.name.strip().lower() == wanted]
    if len(named) != 1:
        return unknown_id(code, path, value, known, what=what)
    finding = unknown_id(
        code,
        path,
        value,
        known,
        what=what,
        message=f"'{value}' is the name of {what} '{named[0]}'; cases refer to it by id",
    )
    return finding.model_copy(
        update={
            "suggestion": f"use the id '{named[0]}'",
            "context": {**finding.context, "by_name": named[0]},
        }
    )


def _playbooks(data: dict[str, Any], defs: AnychatDefinitions) -> Iterator[Finding]:
    origin = as_dict(data.get("origin"))
    resume = as_dict(as_dict(as_dict(data.get("scenario")).get("start")).get("resume"))
    checks = as_dict(as_dict(data.get("expect")).get("checks"))
    refs = [
        ("/origin/playbookId", origin.get("playbookId")),
        ("/scenario/start/resume/activePlaybook", resume.get("activePlaybook")),
        ("/expect/checks/activePlaybookAtEnd", checks.get("activePlaybookAtEnd")),
    ]
    for path, value in refs:
        finding = _by_id("unknown-playbook", path, value, defs.playbooks, "playbook")
        if finding is not None:
            yield finding
    yield from _example_index(origin, defs)


def _example_index(origin: dict[str, Any], defs: AnychatDefinitions) -> Iterator[Finding]:
    index, playbook_id = origin.get("exampleIndex"), origin.get("playbookId")
    if not isinstance(playbook_id, str) or playbook_id not in defs.playbooks:
        return
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        return
    playbook = defs.playbooks[playbook_id]
    count = len(playbook.examples)
    if index < count:
        return
    has = f"{count} example{'s' if count != 1 else ''}" if count else "no examples"
    yield Finding(
        code="unknown-playbook",
        path="/origin/exampleIndex",
        value=index,
        message=f"playbook '{playbook.id}' has {has}; exampleIndex {index} names none of them",
        suggestion=f"use an index from 0 to {count - 1}" if count else "remove exampleIndex",
    )


def _outreaches(data: dict[str, Any], defs: AnychatDefinitions) -> Iterator[Finding]:
    start = as_dict(as_dict(data.get("scenario")).get("start"))
    value = as_dict(start.get("outreach")).get("outreachId")
    path = "/scenario/start/outreach/outreachId"
    finding = _by_id("unknown-outreach", path, value, defs.outreaches, "outreach")
    if finding is not None:
        yield finding


def known_tools(defs: AnychatDefinitions) -> set[str]:
    """Tools the agent can call: defined ones plus any a Playbook lists."""
    return set(defs.tools) | {t for p in defs.playbooks.values() for t in p.tools}


def _tools(data: dict[str, Any], defs: AnychatDefinitions) -> Iterator[Finding]:
    checks = as_dict(as_dict(data.get("expect")).get("checks"))
    tools = known_tools(defs)
    base = "/expect/checks"
    for name in as_dict(checks.get("toolsCalled")):
        if name not in tools:
            path = ptr.join(base, "toolsCalled", name)
            yield unknown_id("unknown-tool", path, name, tools, what="tool", key=True)
    for index, name in enumerate(as_list(checks.get("toolsNotCalled"))):
        if isinstance(name, str) and name not in tools:
            path = ptr.join(base, "toolsNotCalled", index)
            yield unknown_id("unknown-tool", path, name, tools, what="tool")


def _person_fields(data: dict[str, Any], defs: AnychatDefinitions) -> Iterator[Finding]:
    fields = set(defs.person_fields)
    checks = as_dict(as_dict(data.get("expect")).get("checks"))
    preset = as_dict(as_dict(as_dict(data.get("scenario")).get("persona")).get("preset"))
    custom = as_dict(preset.get("fields")).get("customFields")
    places = [
        ("/expect/checks/personFields", checks.get("personFields")),
        ("/scenario/persona/preset/fields/customFields", custom),
    ]
    for base, mapping in places:
        for key in as_dict(mapping):
            if key not in fields:
                yield unknown_id(
                    "unknown-person-field",
                    ptr.join(base, key),
                    key,
                    fields,
                    what="person field",
                    key=True,
                )


__all__ = ["known_tools", "lint_anychat"]
