"""What every Mantle behaviour builder shares: the walk of a behaviour's facts, the
direction's values and the `Behavior` record each builder returns.

`_mantle_outcomes`, `_mantle_answers` and `_mantle_detours` build the behaviour kinds on top
of `PlannerBase`; `_mantle._Planner` puts them together.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from evalcore.definitions import (
    MantleDefinitions,
    Project,
    Skill,
    gate_seeds,
    opener_of,
    opening_seeds,
)
from evalcore.definitions.skill_model import skill_model

from ..drafting.offline import Direction
from ._behavior import Behavior
from ._mantle_paths import mode_fields, path_id
from ._mantle_session import session_fields
from ._mantle_vocab import (
    channel_fields,
    channel_routing_fields,
    question_fields,
    routing_fields,
    value_groups,
)
from ._mantle_walk import SET, Setup, Walk, walk_skill

DIALECT = "mantle"


def channel_memory(defs: MantleDefinitions) -> dict[str, Any]:
    """What the channel seeds before the conversation (values decided by the drafter)."""
    return {f.qualified: SET for f in channel_fields(defs)}


def behavior_setup(facts: dict[str, Any], memory: dict[str, Any]) -> Setup:
    """The walk `Setup` a behaviour's facts describe (planner and drafter share it). A
    channel field the behaviour fixes (`project.channel`) is memory the case seeds."""
    values = dict(facts.get("values") or {})
    seeded = {k: v for k, v in values.items() if k.startswith("project.") and k in memory}
    return Setup(
        values=values,
        given=frozenset(facts.get("given") or {}),
        confirm={k: bool(v) for k, v in (facts.get("confirm") or {}).items()},
        failing=frozenset(facts.get("failing") or []),
        negative={k: frozenset(v) for k, v in (facts.get("negative") or {}).items()},
        cues=frozenset((facts.get("cue") or {}).get("tools") or []),
        memory={**memory, **seeded},
    )


def sign_in_prelude(project: Project, skill_id: str, memory: dict[str, Any]) -> Walk | None:
    """The walk of the sign-in skill a case talks to first when only that skill's tool can
    make `skill_id`'s precondition true (planner and drafter share it); None otherwise."""
    opener = opener_of(project, skill_id)
    return walk_skill(project, opener, Setup(memory=dict(memory))) if opener else None


def after_identity(walk: Walk) -> dict[str, Any]:
    """Memory a second skill starts with once the first one verified the customer."""
    memory = {k: v for k, v in walk.memory.items() if k.startswith("project.")}
    return memory


class PlannerBase:
    """One skill, the project around it and the direction: the state the builders share."""

    def __init__(self, project: Project, skill: Skill, direction: Direction) -> None:
        assert project.mantle is not None
        self.project = project
        self.defs = project.mantle
        self.skill = skill
        self.direction = direction
        # the channel context the case seeds: its caller, and what opens the skill (its
        # precondition's seed fields, and those its tools' `requires` read)
        self.memory = {
            **channel_memory(self.defs),
            **{f.qualified: SET for f in session_fields(project, skill.id)},
            **gate_seeds(project, skill.id),
            **(opening_seeds(project, skill.id) or {}),
        }
        prelude = sign_in_prelude(project, skill.id, self.memory)
        if prelude is not None:  # a sign-in opens the skill: the case signs in first
            self.memory.update(after_identity(prelude))
        self.addressed = self._addressed()
        self.model = skill_model(project, skill.id)
        self.routing = (
            routing_fields(skill)
            + mode_fields(project, skill.id)
            + channel_routing_fields(self.defs, skill)
        )
        self.base: dict[str, Any] = {}
        self.used_values: set[tuple[str, Any]] = set()
        #: The values of each branch a happy path completes on, in the order planned: the
        #: other branches a case that may play any of them (a digression) can take.
        self.completed_values: list[dict[str, Any]] = []
        #: Elements no scenario can bring about, with why (`Plan.untestable`).
        self.untestable: dict[str, str] = {}

    # --- helpers -------------------------------------------------------------------------

    def _addressed(self) -> bool:
        d = self.direction
        if d.empty:
            return False
        own_tools = set(self.defs.tools_for(self.skill.id))
        mine = (
            self.skill.id in d.skills
            or bool(own_tools & set(d.tools))
            or any(k.startswith(self.skill.id + ".") for k in d.values)
        )
        names_any = bool(d.skills or d.tools or d.values)
        return mine or not names_any

    def direction_value(self, qualified: str) -> Any:
        if not self.addressed:
            return None
        return self.direction.values.get(qualified)

    def walk(self, facts: dict[str, Any]) -> Walk:
        return walk_skill(self.project, self.skill.id, behavior_setup(facts, self.memory))

    def behavior(
        self,
        kind: str,
        type_: str,
        case: str,
        title: str,
        description: str,
        facts: dict[str, Any],
        walk: Walk,
        elements: list[str],
        priority: int,
        extra: Iterable[str] = (),
    ) -> Behavior:
        covered = set(walk.elements) | set(extra)
        requested = {
            f.qualified: walk.memory[f.qualified]
            for f in self.model.fields
            if f.asked_by == "request" and walk.memory.get(f.qualified) not in (None, SET)
        }
        facts = {
            **facts,
            **({"request_values": requested} if requested else {}),
            "path": path_id(kind, walk, facts),
            "success": list(walk.success),
        }
        return Behavior(
            id=f"{self.skill.id}:{case}",
            source=self.skill.id,
            dialect=DIALECT,
            type=type_,
            case=case,
            title=title,
            description=description,
            covers=[e for e in elements if e in covered],
            facts={"kind": kind, **facts},
            priority=priority,
        )

    @property
    def name(self) -> str:
        return self.skill.name or self.skill.id.replace("_", " ")

    def candidate_values(self) -> list[dict[str, Any]]:
        """Value sets to try for a behaviour, the direction's (or base) choice first."""
        out = [dict(self.base)]
        for field in self.routing:
            for group in value_groups(self.skill, field):
                for value in group:
                    candidate = {**self.base, field.qualified: value}
                    if candidate not in out:
                        out.append(candidate)
        return out

    def _reaching(self, check: Any, facts: dict[str, Any]) -> tuple[Walk, dict[str, Any]] | None:
        """The first candidate value set whose walk satisfies `check`; failing all, the
        same sets with their compared numbers on the happy path's side (a refund gated on
        `overcharged_minutes >= 10` is refused only where the minutes reach it)."""
        candidates = self.candidate_values()
        found = self._first_reaching(check, facts, candidates)
        pin = getattr(self, "pin_sides", None)
        if found is not None or not callable(pin):
            return found
        # pinning walks each side of each compared number: only when nothing else reached
        pinned = [p for p in map(pin, candidates) if p not in candidates]
        return self._first_reaching(check, facts, pinned)

    def _first_reaching(
        self, check: Any, facts: dict[str, Any], candidates: list[dict[str, Any]]
    ) -> tuple[Walk, dict[str, Any]] | None:
        for values in candidates:
            full = {**facts, "values": values}
            walk = self.walk(full)
            if check(walk):
                return walk, full
        return None

    def _asked_fields(self, walk: Walk) -> list[tuple[str, Any]]:
        """Categorical fields the walk asks for, with their answers, in order."""
        wanted = {f.qualified for f in question_fields(self.defs, self.skill)}
        return [
            (a.field, a.value)
            for a in walk.asks
            if a.field in wanted and a.kind in ("collect", "ask_field", "instructions")
        ]


__all__ = [
    "DIALECT",
    "PlannerBase",
    "after_identity",
    "behavior_setup",
    "channel_memory",
    "sign_in_prelude",
]
