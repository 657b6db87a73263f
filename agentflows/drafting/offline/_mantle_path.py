"""What one walked path shows, as assertions: the values, tools and memory it writes or avoids.

The pieces every Mantle behaviour builds its goals from. Negative assertions are only ever
about what the path really avoids: memory a block step writes when the path skipped that
step on its way through the block, or a tool writes whose `requires` condition is false at
the end of the path; never a key the path writes, and never what the skill's success signal
writes (a happy path that asserts its own task did not happen is a contradiction).
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import MantleDefinitions, Project, Skill
from evalcore.definitions.conditions import condition_keys, evaluate

from ...planning._mantle_tools import qualify, tool_keys
from ...planning._mantle_walk import SET, Event, Walk
from ._mantle_checks import Check, Success, sequencing, skill_check, success_of, terminal_tools
from ._mantle_script import Script


class PathGoals:
    """Collects the criteria and assertions of one draft (see `Goals` for the behaviours)."""

    def __init__(self, project: Project, script: Script) -> None:
        assert project.mantle is not None
        self.project = project
        self.defs: MantleDefinitions = project.mantle
        self.script = script
        self.facts = script.facts
        self.skill: Skill = self.defs.skills[script.behavior.source]
        self.walk: Walk = script.walk
        self.success: Success = success_of(project, self.skill)
        self.criteria: list[str] = []
        self.assertions: list[Check] = []

    # --- collecting ----------------------------------------------------------------------

    def add(self, check: Check | None) -> None:
        if check and check not in self.assertions and self._known(check):
            self.assertions.append(check)

    def _known(self, check: Check) -> bool:
        """A message check names a response the project defines (an action step may not)."""
        for key in ("bot_uttered", "bot_did_not_utter"):
            body = check.get(key)
            if isinstance(body, dict) and body.get("utter_name"):
                return str(body["utter_name"]) in self.defs.all_responses()
        return True

    def criterion(self, text: str | None) -> None:
        """Add a criterion; one that only begins another ("does not ask again" beside "does
        not ask again for something the customer already gave") says less and gives way."""
        if not text or text in self.criteria:
            return
        words = text.lower().split()
        for index, have in enumerate(self.criteria):
            known = have.lower().split()
            if known[: len(words)] == words:
                return
            if words[: len(known)] == known:
                self.criteria[index] = text
                return
        self.criteria.append(text)

    def add_sequence(self, steps: list[Check]) -> None:
        self.add(sequencing(steps))

    # --- reading the path ----------------------------------------------------------------

    def memory_items(self, walk: Walk, keys: list[str]) -> list[dict[str, Any]]:
        """The last recorded value of each key (keys with a known value only)."""
        values: dict[str, Any] = {}
        for event in walk.events:
            if event.kind == "memory" and event.key in keys and event.value is not SET:
                values[event.key] = event.value
        return [{"name": k, "value": values[k]} for k in keys if k in values]

    def chosen_keys(self, walk: Walk) -> list[str]:
        """Fields the customer chose (categorical answers), literals the blocks set, and the
        verification flag: the memory facts of a path."""
        names = self.defs.memory_names()
        keys: list[str] = []
        for ask in walk.asks:
            field = names.get(ask.field or "")
            if field is not None and field.type == "categorical":
                keys.append(field.qualified)
        keys += [k for k in (self.facts.get("given") or {}) if k.startswith(walk.skill + ".")]
        skill = self.defs.skills[walk.skill]
        for block in skill.blocks.values():
            for step in block.steps:
                if step.kind == "set_memory" and isinstance(step.target, dict):
                    keys += [qualify(str(k), skill.id) for k in step.target]
        if any(a.kind == "identity" for a in walk.asks):
            keys += [
                e.key
                for e in walk.events
                if e.kind == "memory" and e.key and e.key.startswith("project.") and e.value is True
            ]
        return list(dict.fromkeys(keys))

    def memory_pairs(self, walk: Walk) -> list[tuple[str, Any]]:
        return [(i["name"], i["value"]) for i in self.memory_items(walk, self.chosen_keys(walk))]

    def written(self, walk: Walk) -> set[str]:
        return {e.key for e in walk.events if e.kind == "memory" and e.key}

    def avoided(self, walk: Walk, limit: int = 2) -> list[dict[str, Any]]:
        """Skill memory the path really avoids writing (see the module docstring)."""
        skill = self.defs.skills[walk.skill]
        tools = self.defs.tools_for(skill.id)
        entered = {
            e.block for e in walk.events if e.kind == "block_entered" and e.skill == skill.id
        }
        keys: list[str] = []
        for block in skill.blocks.values():
            if block.id not in entered:
                continue
            for step in block.steps:
                if f"step:{skill.id}.{block.id}.{step.id}" in walk.elements:
                    continue
                if step.kind == "set_memory" and isinstance(step.target, dict):
                    keys += [qualify(str(k), skill.id) for k in step.target]
                elif step.kind == "execute_tool" and str(step.target) in tools:
                    keys += list(tool_keys(self.project, tools[str(step.target)], skill.id))
        ran = {e.tool for e in walk.tools()}
        for name, constraint in skill.tool_constraints.items():
            if name in ran or name not in tools or not constraint.requires:
                continue
            if not self.decided_against(str(constraint.requires), walk):
                continue
            keys += list(tool_keys(self.project, tools[name], skill.id))
        keep = self.written(walk) | set(self.success.keys)
        for name in terminal_tools(self.project, skill):
            keep |= set(self.tool_writes(name, skill.id))
        public = skill.memory
        declared = self.defs.memory_names()
        picked = [
            k
            for k in dict.fromkeys(keys)
            if k.startswith(skill.id + ".") and k not in keep and k in declared
        ]
        picked.sort(key=lambda k: _visibility(public, k) != "public")
        return [{"name": k} for k in picked[:limit]]

    @staticmethod
    def decided_against(condition: str, walk: Walk) -> bool:
        """The path's own values make `condition` false (not merely values it never got)."""
        keys = condition_keys(condition)
        if any(walk.memory.get(k) is None or walk.memory[k] is SET for k in keys):
            return False
        try:
            return not evaluate(condition, dict(walk.memory))
        except Exception:  # unreadable condition: the tool may still run
            return False

    def gated(self, skill: Skill | None = None) -> list[str]:
        skill = skill or self.skill
        return [
            name
            for name, c in skill.tool_constraints.items()
            if c.requires_confirmation is not None and c.requires_confirmation.enabled
        ]

    def main_tools(self, walk: Walk) -> list[Event]:
        """Tools worth asserting: terminal, gated and MCP ones, and ones fed a chosen value."""
        chosen = {v for _, v in self.memory_pairs(walk) if _hashable_value(v)}
        important = set(self.gated()) | set(terminal_tools(self.project, self.skill))
        picked = []
        for event in walk.tools():
            if event.skill != walk.skill:
                continue
            values = [v for v in event.arguments.values() if _hashable_value(v)]
            if event.tool in important or event.source == "mcp" or set(values) & chosen:
                picked.append(event)
        return picked

    def terminal_runs(self, walk: Walk) -> list[Event]:
        """Runs of the skill's terminal tool(s) on the path that ended without an error."""
        terminal = set(terminal_tools(self.project, self.skill))
        return [e for e in walk.tools() if e.tool in terminal and not e.error]

    def block_utters(self, walk: Walk) -> list[str]:
        """Responses of the `action` steps the path went through, in block order."""
        out = []
        for block in self.skill.blocks.values():
            for step in block.steps:
                element = f"step:{self.skill.id}.{block.id}.{step.id}"
                if step.kind == "action" and element in walk.elements:
                    out.append(str(step.target))
        return out

    def response_of(self, tool: str, attribute: str, skill: Skill | None = None) -> str | None:
        constraint = (skill or self.skill).tool_constraints.get(tool)
        if constraint is None:
            return None
        if attribute in ("utter_for_confirmation", "utter_on_user_denial"):
            confirmation = constraint.requires_confirmation
            return getattr(confirmation, attribute) if confirmation else None
        return getattr(constraint, attribute)

    def uttered(self, walk: Walk, name: str | None) -> bool:
        return bool(name) and name in walk.utters()

    def tool_writes(self, tool: str, skill_id: str) -> list[str]:
        tools = self.defs.tools_for(skill_id)
        return list(tool_keys(self.project, tools[tool], skill_id)) if tool in tools else []

    # --- sequences -----------------------------------------------------------------------

    def sequence(self, walk: Walk) -> list[Check]:
        """Order that matters on a path: activation, the routing value, the tools it feeds,
        the gated or terminal tool and completion (messages are asserted on their own)."""
        from ._mantle_checks import short_tool

        steps: list[Check] = [skill_check("skill_activated", walk.skill)]
        chosen = [k for k, _ in self.memory_pairs(walk) if k.startswith(walk.skill + ".")]
        # in the walk's order: a tool the skill runs before the routing value is asked for
        # ("check the flight status before anything else") comes before it
        placed: list[tuple[int, Check]] = []
        if chosen:
            first = next(
                (i for i, e in enumerate(walk.events) if e.kind == "memory" and e.key == chosen[0]),
                len(walk.events),
            )
            placed.append((first, {"memory_was_set": chosen[0]}))
        for event in self.main_tools(walk):
            if not event.error:
                at = next((i for i, e in enumerate(walk.events) if e is event), len(walk.events))
                placed.append((at, short_tool(event)))
        steps += [check for _, check in sorted(placed, key=lambda p: p[0])]
        if walk.completed:
            steps.append(skill_check("skill_completed", walk.skill))
        return steps


def _visibility(public: Any, key: str) -> str:
    field = public.get(key.split(".")[-1])
    return str(getattr(field, "visibility", ""))


def _hashable_value(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return value is not SET


__all__ = ["PathGoals"]
