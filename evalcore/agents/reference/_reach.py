"""Whether a mutant could change a run the reference agent already played.

A mutant is the reference agent with one fault, and the engine consults the fault at fixed
sites only: `ReferenceEngine.fault(kind, target)`, the fault flags (`flags.ignore_digression`,
`flags.ignore_handoff`), a response uttered (`drop_on_success`) and a skill starting (an
`ignore_requires` mutant runs its tool early). The engine notes every site a run passes in
`engine.reached`. Both engines are deterministic and differ only where a site answers
differently, so a mutant none of whose sites the reference run passed makes every choice
the reference agent made: the same events, the same verdict. Verification then takes the
reference run's verdict for it instead of playing it (`_verify_mantle._kills`).

`SITES` lists the kinds whose sites are known; a kind not in it is always played.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...definitions import MantleDefinitions
from ._mantle_engine import MantleFlags
from ._mutants import Mutant

Site = tuple[str, str | None]

#: The flag a flag-driven kind sets (see `ReferenceEngine.__init__`).
_FLAG = {"ignore_digression": "ignore_digression", "never_handoff": "ignore_handoff"}
SITES = frozenset(
    {
        "skip_confirmation",
        "ignore_requires",
        "skip_step",
        "forget_memory",
        "wrong_enum",
        "drop_on_success",
        "wrong_argument",
        "fail_silently",
        "ignore_digression",
        "never_handoff",
    }
)


class WatchedFlags:
    """The engine's `MantleFlags`, noting each flag read in `reached` as `("flag", name)`."""

    def __init__(self, flags: MantleFlags | None, reached: set[Site]) -> None:
        self._flags = flags or MantleFlags()
        self._reached = reached

    def __getattr__(self, name: str) -> Any:
        self._reached.add(("flag", name))
        return getattr(self._flags, name)


def sites(mutant: Mutant, defs: MantleDefinitions) -> Iterable[Site]:
    """Where the engine consults this mutant's fault (a run that passes none plays as the
    reference agent)."""
    kind = mutant.kind
    yield (kind, None)
    if mutant.target is not None:
        yield (kind, mutant.target)
    if kind in _FLAG:
        yield ("flag", _FLAG[kind])
    elif kind == "ignore_requires" and mutant.skill is not None:
        yield ("start", mutant.skill)
    elif kind == "drop_on_success":
        skill = defs.skills.get(mutant.skill or "")
        constraint = skill.tool_constraints.get(mutant.target or "") if skill else None
        if constraint is not None and constraint.on_success:
            yield ("utter", constraint.on_success)


def reached(mutant: Mutant, passed: set[Site], defs: MantleDefinitions) -> bool:
    """Whether a run that passed `passed` could have gone otherwise under `mutant`."""
    if mutant.kind not in SITES:
        return True
    return any(site in passed for site in sites(mutant, defs))


__all__ = ["SITES", "Site", "WatchedFlags", "reached", "sites"]
