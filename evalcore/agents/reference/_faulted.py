"""The reference agent's engine base: the fault sites every `Mutant` needs, the test accounts.

`FaultedEngine` is `MantleEngine` with a mutant (or none): `fault` says whether the mutant's
fault applies at a site and notes the site in `reached`; memory writes and responses are
where `forget_memory`, `wrong_enum` and `drop_on_success` act; a seeded value of a test
account is read at session start.
"""

from __future__ import annotations

from typing import Any

from ...definitions import Project
from ...testdata._accounts import FAILING_ACCOUNT, NEGATIVE_ACCOUNT, account_of, account_value
from ..demo._mantle_engine import MantleEngine, MantleFlags
from ..demo._mantle_words import routing_words
from ._mutants import Mutant
from ._reach import WatchedFlags


class FaultedEngine(MantleEngine):
    """`MantleEngine` playing one mutant (or none), noting every fault site it passes."""

    def __init__(self, project: Project, brain: Any, mutant: Mutant | None = None) -> None:
        kind = mutant.kind if mutant else None
        flags = MantleFlags(
            ignore_digression=kind == "ignore_digression",
            ignore_handoff=kind == "never_handoff",
        )
        super().__init__(project, brain, flags)
        #: Every fault site the run passed (see `fault` and `_reach.py`): a mutant whose
        #: sites a run never passed plays that run exactly like the reference agent.
        self.reached: set[tuple[str, str | None]] = set()
        self.flags = WatchedFlags(flags, self.reached)  # type: ignore[assignment]
        self.mutant = mutant
        # `hidden` keeps a skill out of what the agent offers, not out of routing: a
        # hidden skill nobody calls is reached by the user's words alone
        self.skill_words = routing_words(self.defs)
        self.notes: list[str] = []
        self.account: str | None = None

    def fault(self, kind: str, target: str | None = None) -> bool:
        """Whether the mutant's fault applies here; every mutant-dependent choice of a run
        asks this (or reads `flags`), so the site is noted in `reached`."""
        self.reached.add((kind, target))
        return (
            self.mutant is not None
            and self.mutant.kind == kind
            and (target is None or self.mutant.target == target)
        )

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    # --- session ----------------------------------------------------------------------------

    def start(self, initial_slots: Any = None) -> None:
        values = {v for v in dict(initial_slots or {}).values() if isinstance(v, str)}
        account = account_of(values)
        if account is not None:  # a later start without slots keeps the session's account
            self.account = account
        super().start(initial_slots)

    # --- memory and responses ---------------------------------------------------------------

    def remember(self, key: str, value: Any) -> None:
        if self.fault("forget_memory", key):
            return
        if self.fault("wrong_enum", key):
            values = list(self.field_words(key).values)
            if value in values and len(values) > 1:
                value = values[(values.index(value) + 1) % len(values)]
        super().remember(key, value)

    def utter(self, name: str | None, skill_id: str | None = None) -> None:
        if name:
            self.reached.add(("utter", name))
        if name and self.mutant is not None and self.mutant.kind == "drop_on_success":
            skill = self.defs.skills.get(self.mutant.skill or "")
            constraint = skill.tool_constraints.get(self.mutant.target or "") if skill else None
            if constraint is not None and constraint.on_success == name:
                return
        super().utter(name, skill_id)


__all__ = ["FAILING_ACCOUNT", "NEGATIVE_ACCOUNT", "FaultedEngine", "account_of", "account_value"]
