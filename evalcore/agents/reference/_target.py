"""`mantle:PROJECT_DIR[?mutant=ID]`: the reference agent for any Mantle project, offline.

    target = ReferenceTarget("tests/data/corpus/harbor_mutual")
    broken = ReferenceTarget(root, mutant="skip_confirmation:submit_claim")

Each run gets a fresh `ReferenceEngine` with a `ModelBrain`: the same case gives the same
tracker events every time. A turn's reply carries the bot messages (`response` = the
`utter_*` name), the turn's events and `state = {"memory", "skills"}`; `close()` returns the
full event log, and `meta.notes` says where the run depended on something the skill model
could not read for sure (and which mutant played, if any).

A demo agent is this target with a backend of its own (`demo:bank`: the bank's test
customers and what its tools return for them) and its mutation flags: the same reading of
the project, with results a real backend would give.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...definitions import Project, load_project
from ...errors import UserError
from .._protocol import AgentReply, FinalRecord, UserTurn
from ._brain import ModelBrain
from ._engine import ReferenceEngine
from ._mantle_engine import MantleFlags
from ._mutants import Mutant, find_mutant
from ._replies import play_turn
from ._shared import once
from ._variants import Variant

_LOADED: dict[Path, tuple[tuple[Any, ...], Project]] = {}


def load(root: Path) -> Project:
    """The project, read again only when one of its files changed."""
    root = root.resolve()
    files = sorted(
        p for p in root.rglob("*") if p.is_file() and not {"results", "eval"} & set(p.parts)
    )
    signature = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in files)
    cached = _LOADED.get(root)
    if cached is None or cached[0] != signature:
        cached = (signature, load_project(root))
        _LOADED[root] = cached
    return cached[1]


class ReferenceSession:
    def __init__(
        self,
        project: Project,
        mutant: Mutant | None,
        setup: dict[str, Any],
        cid: str,
        spec: str,
        variant: Variant | None = None,
        *,
        flags: MantleFlags | None = None,
        backend: Any = None,
    ) -> None:
        # the brain reads the definitions only (its skill models, the data records): one
        # per loaded project serves every session
        brain = once("brain", project, None, lambda: ModelBrain(project), holds_owner=True)
        self.engine = ReferenceEngine(project, brain, mutant, variant, flags=flags, backend=backend)
        self.flags = flags
        self.setup = setup
        self.mutant = mutant
        self._cid = cid
        self.spec = spec

    @property
    def conversation_id(self) -> str:
        """`mantle-<digest>` (a demo's: `bank-<digest>`) of the case's slug and run index,
        made when first read (a verification play that only reads the engine's events
        never asks for it)."""
        if "#" in self._cid:
            digest = hashlib.sha256(self._cid.encode()).hexdigest()[:12]
            scheme, _, rest = self.spec.partition(":")
            self._cid = f"{rest if scheme == 'demo' else scheme}-{digest}"
        return self._cid

    async def send(self, turn: UserTurn) -> AgentReply:
        return play_turn(self.engine, turn, self.setup)

    def flushed(self) -> tuple[list[dict[str, Any]], list[str]]:
        """The engine's own event log and notes, after writing a late write the run never
        reached a next step for; not copied (a caller that only reads them, and `close`,
        which copies them into its record)."""
        self.engine.flush()
        return self.engine.events, self.engine.notes

    async def close(self) -> FinalRecord:
        events, notes = self.flushed()
        meta: dict[str, Any] = {
            "conversation_id": self.conversation_id,
            "agent": self.spec,
            "notes": list(notes),
        }
        if self.mutant is not None:
            meta["mutant"] = self.mutant.id
        if self.engine.variant is not None:
            meta["variant"] = self.engine.variant.id
        if self.flags is not None:
            meta["flags"] = self.flags.active()
        return FinalRecord(
            events=[dict(e) for e in events],
            state={"memory": dict(self.engine.memory)},
            meta=meta,
        )


#: What every report of a `mantle:` run says: a pass or fail is about the case and casegen's
#: reading of the definitions, never about the agent built from them.
CAVEAT = (
    "mantle: plays casegen's own reading of the project's definitions (its reference "
    "agent), not the agent: a result says whether the case agrees with that reading; "
    "run the cases against the agent itself (rasa:URL) to test it"
)


class ReferenceTarget:
    """A fresh, deterministic session per run of the project at `root`."""

    caveat: str | None = CAVEAT
    #: The tools' code is never run (their results are the reference agent's own): a case
    #: whose tool acts on a real service acts on nothing here.
    runs_tool_code = False

    def __init__(
        self,
        root: Path | str,
        *,
        mutant: str | Mutant | None = None,
        flags: MantleFlags | None = None,
        backend: Callable[[], Any] | None = None,
        project: Project | None = None,
    ) -> None:
        """`project`: the folder's reading a caller already holds (generate's), played
        instead of reading the folder again, so the plays share what was derived from it
        (skill models, the brain) with the planning that walked the same reference agent."""
        path = Path(root)
        if not path.is_dir():
            raise UserError(
                f"mantle:{root}: no such project folder",
                hint="name a Mantle project folder (with agent.yml), e.g. mantle:examples/bank",
            )
        self.project = project if project is not None else load(path)
        if self.project.mantle is None:
            raise UserError(f"mantle:{root} is not a Mantle project", hint="it has no agent.yml")
        if isinstance(mutant, str):
            mutant = find_mutant(self.project, mutant)
        self.mutant = mutant
        #: An allowed variant (`_variants.py`) the sessions play instead of the reference
        #: agent's own choice at its site; set by verification, not by a target string.
        self.variant: Variant | None = None
        #: A demo's mutation flags and the factory of its tool backend (one per session: a
        #: backend may count what it did), both None for `mantle:DIR`.
        self.flags = flags
        self.backend = backend
        self.spec = f"mantle:{root}" + (f"?mutant={mutant.id}" if mutant else "")

    async def open(self, case: Any, run_index: int) -> ReferenceSession:
        setup = getattr(case, "setup", None)
        if setup is None and isinstance(case, dict):
            setup = case.get("setup")
        slug = getattr(case, "slug", None) or (case.get("slug") if isinstance(case, dict) else None)
        return ReferenceSession(
            self.project,
            self.mutant,
            dict(setup or {}),
            f"{slug or 'case'}#{run_index}",
            self.spec,
            getattr(self, "variant", None),
            flags=self.flags,
            backend=self.backend() if self.backend is not None else None,
        )


def parse_reference(rest: str) -> ReferenceTarget:
    """`DIR` or `DIR?mutant=ID` (the part after `mantle:`)."""
    root, _, query = rest.strip().partition("?")
    if not root:
        raise UserError("`mantle:` needs a project folder", hint="e.g. mantle:examples/bank")
    mutant: str | None = None
    for item in filter(None, query.split("&")):
        key, _, value = item.partition("=")
        if key != "mutant" or not value:
            raise UserError(
                f"mantle:{rest}: unknown option '{item}'",
                hint="the only option is ?mutant=ID, e.g. ?mutant=skip_confirmation:<tool>",
            )
        mutant = value
    return ReferenceTarget(root, mutant=mutant)


__all__ = ["ReferenceSession", "ReferenceTarget", "load", "parse_reference"]
