"""The state of one skill's walk and the small steps every part of the walker takes:
recording events, uttering responses, remembering values and answering for the user."""

from __future__ import annotations

from typing import Any

from evalcore.definitions import Project, Skill
from evalcore.definitions.conditions import evaluate
from evalcore.definitions.skill_model import SkillModel, skill_model

from ._mantle_walk_records import SET, Event, Setup, Walk, sample_value

_MAX_DEPTH = 6


class WalkerBase:
    """One skill walked for one `Setup`: the walk so far and what it still waits for."""

    def __init__(self, project: Project, skill_id: str, setup: Setup, depth: int = 0) -> None:
        assert project.mantle is not None
        self.project = project
        self.defs = project.mantle
        self.skill: Skill = self.defs.skills[skill_id]
        self.setup = setup
        self.depth = depth
        # a project field's `initial_value` holds from the start, as the engine seeds it
        self.walk = Walk(skill_id, memory={**self.defs.initial_memory(), **setup.memory})
        self.tools = self.defs.tools_for(skill_id)
        self.model: SkillModel = skill_model(project, skill_id)
        self.stopped = False
        self.skipped: set[str] = set()
        """Memory gathered by block steps the walk left out (a branch ended the block)."""
        self.fired_utters: set[str] = set()
        self.pending: list[tuple[str, str | None]] = []
        """Prose-called tools waiting for their trigger or `requires` to hold."""

    # --- recording -----------------------------------------------------------------------

    def emit(self, event: Event) -> None:
        self.walk.events.append(event)

    def utter(self, name: str | None) -> None:
        if not name:
            return
        self.emit(Event("utter", skill=self.skill.id, utter=name))
        self.walk.cover(f"response:{name}")

    def remember(self, key: str, value: Any) -> None:
        self.walk.memory[key] = value
        self.emit(Event("memory", skill=self.skill.id, key=key, value=value))
        for rule in self.skill.utter:
            fresh = rule.when and rule.response not in self.fired_utters
            if fresh and evaluate(rule.when, self.walk.memory):
                self.fired_utters.add(rule.response)
                self.utter(rule.response)

    def answer(self, qualified: str) -> Any:
        if qualified in self.setup.values:
            return self.setup.values[qualified]
        field_def = self.defs.memory_field(qualified)
        return sample_value(self.defs, field_def) if field_def else SET

    def _text(self, response: str | None) -> str | None:
        from ._mantle_vocab import first_text

        return first_text(self.defs.response(response or ""))

    def known(self, key: str) -> bool:
        return self.walk.memory.get(key) is not None

    def categorical(self, key: str) -> bool:
        field_def = self.defs.memory_field(key)
        return field_def is not None and field_def.type == "categorical"

    def handed_value(self, key: str) -> Any:
        """A value the agent infers from why it was handed the conversation."""
        from ..drafting.offline._direction import best_value
        from ._mantle_vocab import fallback_value, field_choices

        if key in self.setup.values:
            return self.setup.values[key]
        choices = field_choices(self.defs, key)
        best = best_value(self.setup.context, choices) if self.setup.context else None
        if best is not None:
            return best.value
        fallback = fallback_value(choices)
        return fallback if fallback is not None else self.answer(key)

    def _cover_value(self, key: str) -> None:
        value = self.walk.memory.get(key)
        if value is not None and value is not SET and self.categorical(key):
            self.walk.cover(f"value:{key}={value}")


__all__ = ["WalkerBase"]
