"""`demo:bank`: the reference agent on examples/bank (Riverbend Bank, Mantle) with the bank's
fake backend.

    target = BankTarget()                          # or make_demo_target("bank")
    session = await target.open(run_case, 1)
    await session.send(UserTurn(type="start", setup={"initial_slots": {...}}))
    reply = await session.send(UserTurn(type="text", text="Can you send me a replacement card?"))
    final = await session.close()                  # FinalRecord(events=<tracker>, state=...)

What the agent does is casegen's one executable reading of a Mantle project, the reference
agent (`mantle:examples/bank`, see `evalcore.agents.reference`): the same routing, skill
stack, ordered blocks, prose plan, confirmation gates and responses. What this demo adds is
what a deployment would have and the definitions do not: a backend (`Backend`, in `_backend.py`)
whose test customers (the project's staging records, `examples/bank/data/staging`, keyed
by caller phone) get the results the real tools would return,
and which reads its results out the way a model would (cards by label, the city on file,
the balance). So a wrong date of birth is a mismatch here, where the reference agent's own
backend accepts any answer.

A turn's reply carries the bot messages (`response` = the `utter_*` name), the turn's events
and `state = {"memory": ..., "skills": [...]}`; `close()` returns the full event log.

**Mutations** (keyword flags, see `MantleFlags`): `skip_confirmation`, `forget_reason`,
`ignore_digression`, `ignore_handoff`, `fail_tool="<tool>"`.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from evalcore.agents.demo import rebuilt_target
from evalcore.agents.reference import MantleFlags, ReferenceTarget

from ._backend import Backend, BankDataError, load_bank

SPEC = "demo:bank"


def default_project() -> Path:
    """The example folder this agent lives in (examples/bank)."""
    return Path(__file__).resolve().parents[1]


class BankTarget(ReferenceTarget):
    """The `demo:bank` target: a fresh, deterministic session per run, each with its own
    backend (order, dispute and transfer numbers count up within a conversation).

    `project` overrides the folder (default: `default_project()`); the other keywords are
    `MantleFlags` mutations.
    """

    #: A demo, not a reading of someone's project: its report needs no `mantle:` caveat.
    caveat = None

    @staticmethod
    def flag_names() -> list[str]:
        return [f.name for f in dataclasses.fields(MantleFlags)]

    def __init__(self, project: Path | str | None = None, **flags: Any) -> None:
        root = Path(project) if project is not None else default_project()
        records = load_bank(root)  # read once: every session's backend shares them
        super().__init__(root, flags=MantleFlags(**flags), backend=lambda: Backend(records))
        self.spec = SPEC
        self._keywords = {**({"project": str(project)} if project is not None else {}), **flags}

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        """Pickled by demo name and keywords (a Ray worker rebuilds it), not by value."""
        return (rebuilt_target, ("bank", self._keywords))


__all__ = ["SPEC", "Backend", "BankDataError", "BankTarget", "default_project", "load_bank"]
