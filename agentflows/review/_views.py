"""One case as review rules see it: its criteria, its persona text, its type, its source.

Rules that read prose (criteria, persona) work on `CaseView.criteria` / `.contexts` and never
ask which dialect a document is; rules about dialect-specific structure read `CaseView.data`
and say which dialects they apply to when they register. A base44 eval holds one case per
prompt, so one document can give several views, each with its own pointer `base`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalcore import pointer as ptr
from evalcore.dedupe import Fingerprint, fingerprint
from evalcore.definitions import Project
from evalcore.dialects import Dialect, get_dialect
from evalcore.documents import Document
from evalcore.lint import as_dict, as_list

from ._source import case_source
from ._vocab import Vocabulary


@dataclass(frozen=True)
class Part:
    """A piece of prose in the case and where it is (pointer relative to the case)."""

    path: str
    text: str


@dataclass
class CaseView:
    dialect: str
    base: str
    """Pointer of the case inside its document ("" or `/prompts/<i>`)."""
    data: dict[str, Any]
    """The case's own mapping (the whole document, or one base44 prompt entry)."""
    title: str
    type: str | None
    source: str | None
    """The skill / playbook / agent skill under test, when it can be told."""
    criteria: list[Part] = field(default_factory=list)
    """What the judge grades."""
    contexts: list[Part] = field(default_factory=list)
    """What the simulated user is told (persona, facts, goal)."""
    fingerprint: Fingerprint = field(default_factory=lambda: Fingerprint(frozenset(), frozenset()))
    label: str = ""
    """How other cases refer to this one (`path`, or `path#prompt-name`)."""
    path: Path | None = None
    title_path: str = ""
    """Pointer of the title, relative to the case ("" when the case has none)."""


@dataclass(frozen=True)
class Peer:
    """Another case a near-duplicate is looked for in."""

    label: str
    key: tuple[str, str]
    """(resolved file, base): the same case reviewed is not its own duplicate."""
    fingerprint: Fingerprint
    order: int | None = None
    """Position among the reviewed cases (None: a committed case not under review)."""


@dataclass
class ReviewEnv:
    """What rules may consult besides the case: the project, its ids, the other cases."""

    project: Project | None
    vocab: Vocabulary
    peers: list[Peer] = field(default_factory=list)
    order: int = 0
    """This case's position among the reviewed cases."""


def case_views(
    data: Any,
    dialect: str,
    project: Project | None,
    path: Path | None = None,
    *,
    fingerprints: bool = True,
) -> list[CaseView]:
    """The cases of one parsed document (tolerates any shape; unknown shapes give none).
    `fingerprints=False`: views for a review without peers, where only `near-duplicate`
    reads the fingerprint (left empty)."""
    if not isinstance(data, dict):
        return []
    label = str(path) if path is not None else "<case>"
    if dialect == "mantle":
        views = [_mantle(data)]
    elif dialect == "anychat":
        views = [_anychat(data)]
    elif dialect == "base44":
        views = _base44(data)
    else:
        return []
    for view in views:
        view.path = path
        view.source = case_source(project, dialect, view.data, path)
        view.label = label if not view.base else f"{label}#{view.title}"
        if fingerprints:
            plugin = get_dialect(dialect)
            view.fingerprint = fingerprint(plugin.as_unit(view.data), plugin)
    return views


def _mantle(data: dict[str, Any]) -> CaseView:
    scenario = as_dict(data.get("scenario"))
    goals = as_dict(scenario.get("goals"))
    criteria = [
        Part(ptr.join("/scenario/goals/criteria", i), text)
        for i, text in enumerate(as_list(goals.get("criteria")))
        if isinstance(text, str)
    ]
    context = scenario.get("simulation_context")
    kind = scenario.get("type")
    return CaseView(
        dialect="mantle",
        base="",
        data=data,
        title=str(scenario.get("name") or ""),
        title_path="/scenario/name" if "name" in scenario else "",
        type=kind if isinstance(kind, str) else None,
        source=None,
        criteria=criteria,
        contexts=[Part("/scenario/simulation_context", context)]
        if isinstance(context, str)
        else [],
    )


def _anychat(data: dict[str, Any]) -> CaseView:
    judge = as_dict(as_dict(data.get("expect")).get("judge"))
    criteria = [
        Part(ptr.join("/expect/judge/criteria", i, "text"), item["text"])
        for i, item in enumerate(as_list(judge.get("criteria")))
        if isinstance(item, dict) and isinstance(item.get("text"), str)
    ]
    contexts: list[Part] = []
    scenario = as_dict(data.get("brief")).get("scenario")
    if isinstance(scenario, str):
        contexts.append(Part("/brief/scenario", scenario))
    for index, turn in enumerate(as_list(data.get("turns"))):
        simulate = as_dict(as_dict(turn).get("simulate"))
        base = ptr.join("/turns", index, "simulate")
        for key in ("persona", "goal"):
            if isinstance(simulate.get(key), str):
                contexts.append(Part(ptr.join(base, key), simulate[key]))
        for k, fact in enumerate(as_list(simulate.get("knows"))):
            if isinstance(fact, str):
                contexts.append(Part(ptr.join(base, "knows", k), fact))
    return CaseView(
        dialect="anychat",
        base="",
        data=data,
        title=str(data.get("title") or ""),
        title_path="/title" if "title" in data else "",
        type=_anychat_type(data),
        source=None,
        criteria=criteria,
        contexts=contexts,
    )


_TYPE_TAGS = {
    "happy_path": "happy_path",
    "happy-path": "happy_path",
    "sad-path": "sad_path",
    "sad_path": "sad_path",
    "edge-case": "edge_case",
    "edge_case": "edge_case",
    "escalation": "escalation",
    "out-of-scope": "out_of_scope",
    "out_of_scope": "out_of_scope",
    "adversarial": "adversarial",
    "ambiguity": "ambiguity",
}


def _anychat_type(data: dict[str, Any]) -> str | None:
    """Anychat cases have no type field; generated ones carry it as a tag."""
    for tag in as_list(data.get("tags")):
        if isinstance(tag, str) and tag.lower() in _TYPE_TAGS:
            return _TYPE_TAGS[tag.lower()]
    return None


def _base44(data: dict[str, Any]) -> list[CaseView]:
    prompts = as_list(data.get("prompts"))
    if prompts:
        units = [(ptr.join("/prompts", i), as_dict(p)) for i, p in enumerate(prompts)]
    elif "prompt" in data or "checks" in data:
        units = [("", data)]
    else:
        units = []
    return [
        CaseView(
            dialect="base44",
            base=base,
            data=unit,
            title=str(unit.get("name") or data.get("name") or ""),
            title_path="/name" if "name" in unit else "",
            type=None,
            source=None,
        )
        for base, unit in units
    ]


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


@dataclass
class LoadedFile:
    """One file as review reads it: the parsed document, its dialect and project (None when
    unknown), and the views of the cases it holds."""

    path: Path
    doc: Document
    dialect: Dialect | None
    project: Project | None
    views: list[CaseView]


__all__ = ["CaseView", "LoadedFile", "Part", "Peer", "ReviewEnv", "case_views", "words"]
