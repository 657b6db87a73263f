"""How a Mantle walk runs tools: arguments from memory, confirmation of gated tools,
failures and negative results, and prose-called tools that wait for their trigger."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evalcore.definitions import Step
from evalcore.definitions.conditions import condition_keys, evaluate
from evalcore.definitions.skill_model import branch_values

from ._mantle_tools import UNKNOWN, parameter_fields, step_arguments, tool_keys
from ._mantle_walk_records import SET, Ask, Event
from ._mantle_walk_state import WalkerBase


class ToolRuns(WalkerBase):
    def run_tool(self, name: str, step: Step | None = None) -> bool:
        """Run a tool; False when it failed (an error)."""
        tool = self.tools.get(name)
        if tool is None:
            return True
        if step is not None:
            mapping = step_arguments(step)
        else:
            mapping = {
                p: f.qualified for p, f in parameter_fields(self.defs, self.skill.id, tool).items()
            }
            mapping.update(self._seeded_arguments(tool, mapping))
        arguments = {
            arg: self.walk.memory[key]
            for arg, key in mapping.items()
            if self.walk.memory.get(key) is not None and self.walk.memory[key] is not SET
        }
        failed = name in self.setup.failing
        self.emit(
            Event(
                "tool",
                skill=self.skill.id,
                tool=name,
                source="mcp" if tool.scope == "mcp" else "local",
                server=tool.mcp_server,
                arguments=arguments,
                error=failed,
            )
        )
        self.walk.cover(f"tool:{name}")
        constraint = self.skill.tool_constraints.get(name)
        if failed:
            self.walk.cover(f"failure:{name}")
            if constraint is not None:
                self.utter(constraint.on_failure)
            return False
        negative = self.setup.negative.get(name, frozenset())
        # a computed flag a `next` branches on: the value the goal-reaching path needs, as
        # the reference agent's backend plays it (the negative account plays the other)
        flags = branch_values(self.project, self.skill.id)
        for key, value in tool_keys(self.project, tool, self.skill.id).items():
            field_def = self.defs.memory_field(key)
            if key in negative:
                if field_def is not None and field_def.type == "bool":
                    self.remember(key, not flags.get(key, True))
                continue
            if value is UNKNOWN and self.setup.values.get(key) is not None:
                value = self.setup.values[key]  # the path's value: the record it looks up
            elif value is UNKNOWN:
                kind = field_def.type if field_def is not None else None
                if kind == "bool":
                    value = flags.get(key, True)
                elif kind == "int":  # a counter the tool computes (failed attempts, ...)
                    previous = self.walk.memory.get(key)
                    value = previous + 1 if isinstance(previous, int) else 1
                else:
                    value = SET
            self.remember(key, value)
        if negative:
            self.walk.outcome = "negative"
        if constraint is not None:
            self.utter(constraint.on_success)
        return True

    def _seeded_arguments(self, tool: Any, taken: Mapping[str, str]) -> dict[str, str]:
        """Arguments filled from known project memory (`phone` <- `project.caller_phone`)."""
        out = {}
        for param in tool.parameters:
            if param.name in taken or "ToolContext" in (param.type or ""):
                continue
            for key in self.walk.memory:
                name = key.split(".", 1)[1]
                if key.startswith("project.") and (
                    name == param.name or param.name in name.split("_")
                ):
                    out[param.name] = key
                    break
        return out

    def gated(self, name: str) -> bool:
        constraint = self.skill.tool_constraints.get(name)
        confirmation = constraint.requires_confirmation if constraint else None
        return bool(confirmation and confirmation.enabled)

    def ran(self, name: str) -> bool:
        return any(e.kind == "tool" and e.tool == name and not e.error for e in self.walk.events)

    def ready(self, name: str, when: str | None) -> bool:
        constraint = self.skill.tool_constraints.get(name)
        requires = constraint.requires if constraint else None
        return evaluate(when, self.walk.memory) and evaluate(requires, self.walk.memory)

    def call_tool(self, name: str, when: str | None = None) -> None:
        """The LLM calls a tool: once its trigger and `requires` hold (else it waits), after
        the confirmation gate."""
        if name not in self.tools or self.ran(name) or self.stopped:
            return
        # the agent gets what an earlier call still lacks before it moves on to the next one
        self.settle_pending(only_requires=True, before=name)
        if self.stopped:
            return
        if not self.ready(name, when):
            if (name, when) not in self.pending:
                self.pending.append((name, when))
            return
        if self.gated(name):
            self.confirm_and_run(name)
        elif not self.run_tool(name):
            self.walk.outcome = "failed"
            self.stopped = True

    def retry_pending(self) -> None:
        for name, when in list(self.pending):
            if self.stopped:
                return
            if self.ready(name, when):
                self.pending.remove((name, when))
                self.call_tool(name, when)

    def settle_pending(self, *, only_requires: bool = False, before: str | None = None) -> None:
        """A waiting tool's missing inputs are what the agent still asks for (fields the
        skill asks) or records itself (flags): then it runs. At the end of the prose every
        waiting tool settles; before another tool call, those waiting only on `requires`."""
        for name, when in list(self.pending):
            if self.stopped or self.walk.outcome != "done":
                return
            if name == before or (only_requires and when is not None):
                continue
            if (name, when) not in self.pending:
                continue  # a value remembered for an earlier one let it run already
            self.pending.remove((name, when))
            constraint = self.skill.tool_constraints.get(name)
            keys = condition_keys(when) + condition_keys(
                constraint.requires if constraint else None
            )
            if any(
                k in self.skipped and self.walk.memory.get(k) in (None, False, "") for k in keys
            ):
                continue  # it waits on a step a branch's END left out: not played from prose
            for key in dict.fromkeys(keys):
                if self.walk.memory.get(key) not in (None, False, ""):
                    continue
                spec = self.model.field(key)
                value = self.answer(key)
                field_def = self.defs.memory_field(key)
                if spec is not None:
                    self.walk.asks.append(
                        Ask(
                            "ask_field",
                            self.skill.id,
                            field=key,
                            value=value,
                            prompt=spec.question,
                        )
                    )
                elif field_def is not None and field_def.type == "bool":
                    value = True
                self.remember(key, value)
            if self.ready(name, when):
                self.call_tool(name, when)

    def confirm_and_run(self, name: str) -> None:
        constraint = self.skill.tool_constraints[name]
        confirmation = constraint.requires_confirmation
        assert confirmation is not None
        prompt = confirmation.utter_for_confirmation
        yes = self.setup.confirm.get(name, True)
        self.utter(prompt)
        self.walk.asks.append(
            Ask("confirm", self.skill.id, tool=name, confirm=yes, prompt=self._text(prompt))
        )
        if not yes:
            self.walk.cover(f"deny:{name}")
            self.utter(confirmation.utter_on_user_denial)
            self.walk.outcome = "declined"
            self.stopped = True
            return
        self.walk.cover(f"confirm:{name}")
        if not self.run_tool(name):
            self.walk.outcome = "failed"
            self.stopped = True


__all__ = ["ToolRuns"]
