"""The generation request and the live objects every node shares during a run."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, PrivateAttr

from evalcore.definitions import Project
from evalcore.dialects import Dialect
from evalcore.writer import safe_slug

from ..drafting import DraftEngine

#: Model repair rounds a draft gets by default, at each stage that repairs (validation,
#: then verification against the reference agent). Each round's findings name the lever
#: the model can pull (the fact the simulated user lacked, the line that stopped it, the
#: assertion that failed and why); one round fixes one lever and may reveal the next, so
#: three rounds let a draft converge while a draft that cannot costs at most three more
#: requests per stage.
DEFAULT_REPAIR_ROUNDS = 3
#: The most rounds a request may ask for: past this a draft is not converging.
MAX_REPAIR_ROUNDS = 10


@dataclass
class HeadStart:
    """A new run's targets planned before the flow loads, and the planned cases of the
    drafts sent early (`_early`), so the flow plans neither again: its plan step takes the
    plans and its drafts' look back (`_planned_twins`) the cases and what they assert."""

    plans: list[Any]
    cases: dict[str, tuple[dict[str, Any], Any]] = field(default_factory=dict)
    """Behaviour id → its planned case and script (`GenerateContext.planned_cases`)."""
    marks: dict[str, frozenset[str]] = field(default_factory=dict)
    """Behaviour id → what its planned case asserts (`GenerateContext.planned_marks`)."""


class GenerateRequest(BaseModel):
    """Everything `casegen generate` (or the MCP tool) asks for; stored in the checkpoint."""

    targets: list[str]
    project: str
    dialect: str
    count: int | None = None
    types: list[str] | None = None
    direction: str | None = None
    out: str | None = None
    model: str | None = None
    concurrency: int = Field(default=4, ge=1, le=64)
    repair_rounds: int = Field(default=DEFAULT_REPAIR_ROUNDS, ge=0, le=MAX_REPAIR_ROUNDS)
    """Model repair rounds per draft and stage (`--repair-rounds`; 0: deterministic
    repair only). The offline engine repairs by rules alone and spends none."""
    no_cache: bool = False
    force: bool = False
    verify: bool = True
    """Play each draft against the project's reference agent (or demo / static check)
    before writing (`--no-verify`: off)."""
    manifest: str | None = None
    """Provenance file (default: `generated_cases/manifest.json` above the output, else
    `<out>/manifest.json`)."""
    cases_root: str = "generated_cases"
    """Where default output folders go: `<cases_root>/<dialect>/<target>/`."""
    _loaded: tuple[str, Project] | None = PrivateAttr(default=None)
    """The project `build_request` read to resolve the targets, with the `project` it was
    read for: the run uses that reading instead of parsing every file again. Never
    checkpointed; a request read back (`--resume`) or pointed elsewhere reads its project."""

    _head: tuple[Project, tuple[Any, ...], HeadStart] | None = PrivateAttr(default=None)
    """What was worked out before the flow for the run's early drafts (`keep_head`), with
    the project object it was worked out from (matched with `is`: an id may be reused
    once that project is gone) and the request's plan key; never checkpointed."""

    def loaded_project(self) -> Project | None:
        """The project read for this request, when it was read for `project` as it is now."""
        if self._loaded is not None and self._loaded[0] == self.project:
            return self._loaded[1]
        return None

    def keep_project(self, project: Project) -> None:
        self._loaded = (self.project, project)

    def keep_head(self, project: Project, head: HeadStart) -> None:
        """Keep the plans and planned cases of `project` made before the flow (for the
        run's early drafts): the flow then takes them instead of planning again."""
        self._head = (project, self._plan_key(), head)

    def kept_head(self, project: Project) -> HeadStart | None:
        """What was kept for `project` and this request's targets, dialect and direction."""
        kept = self._head
        if kept is not None and kept[0] is project and kept[1] == self._plan_key():
            return kept[2]
        return None

    def _plan_key(self) -> tuple[Any, ...]:
        return (self.project, self.dialect, tuple(self.targets), self.direction)

    def out_dir(self, source: str) -> Path:
        """One folder per target, as by default: `--out DIR` for one target is that folder,
        for several (`all`) `DIR/<target>/`."""
        # Ids come from definition files (a playbook `...yml` has id `..`): one safe part.
        if self.out:
            return Path(self.out) / safe_slug(source) if len(self.targets) > 1 else Path(self.out)
        return Path(self.cases_root) / self.dialect / safe_slug(source)

    def manifest_root(self) -> Path | None:
        """With `--out DIR` for several targets, their one manifest sits in DIR (not one per
        target folder); None otherwise (the manifest above each case's folder)."""
        return Path(self.out) if self.out and len(self.targets) > 1 else None


@dataclass
class GenerateContext:
    """Live, non-serialisable run context (LangGraph `Runtime.context`)."""

    request: GenerateRequest
    project: Project
    dialect: Dialect
    engine: DraftEngine
    run_id: str
    started_at: str
    halted: dict[str, str] | None = None
    """Set by the first draft that found the endpoint unreachable or refusing the key
    (`{error, kind}`): the drafts after it are not attempted."""
    resolved_dirs: dict[Path, Path] = field(default_factory=dict)
    """Out folder → the folder resolved (symlinks followed), worked out once per run."""
    out_dirs: dict[str, Path] = field(default_factory=dict)
    """Source → its out folder (`request.out_dir`), worked out once per run."""
    written_sha256: dict[str, str] = field(default_factory=dict)
    """Case file path → the SHA-256 of the bytes this run wrote there (the manifest's
    content hash without reading the file back)."""
    rendered: dict[str, str] = field(default_factory=dict)
    """A case's data (its JSON) → the text its file holds, made while a model's other
    answers were awaited (`nodes.settle`): the write step after the last answer reuses it."""
    justified: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """A case's data (its JSON) → the report's `justifications`, made at the same time."""
    planned_order: list[dict[str, Any]] = field(default_factory=list)
    """The run's behaviours in plan order (set by the plan step, `_planned_twins.keep_plan`):
    a draft looks back at the earlier ones' planned cases for one asserting what its own
    does."""
    planned_comparable: dict[str, bool] = field(default_factory=dict)
    """Behaviour id → whether its twin can be found before its draft
    (`_planned_twins.comparable`), set with `planned_order` (`_planned_twins.keep_plan`)."""
    planned_marks: dict[str, frozenset[str]] = field(default_factory=dict)
    """Behaviour id → what its planned case asserts, worked out once per run."""
    planned_cases: dict[str, tuple[dict[str, Any], Any]] = field(default_factory=dict)
    """Behaviour id → its planned case and script, made for that look back and taken by the
    behaviour's first draft (`DraftContext.planned`), so it is not planned twice."""

    def out_dir(self, source: str) -> Path:
        out = self.out_dirs.get(source)
        if out is None:
            out = self.out_dirs[source] = self.request.out_dir(source)
        return out


def now_iso() -> str:
    """The run's timestamp; `SOURCE_DATE_EPOCH` pins it for reproducible output."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = (
        datetime.fromtimestamp(int(epoch), tz=UTC) if epoch else datetime.now(tz=UTC)
    ).replace(microsecond=0)
    return moment.isoformat().replace("+00:00", "Z")
