"""The clinic demo conversation's state and the building blocks every reply uses: saying a
message, calling a tool, recording an outcome, switching Playbooks, updating the person."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from evalcore.agents import AgentMessage, AgentReply
from evalcore.definitions import AnychatDefinitions

from ._roles import ClinicFlags, roles_of
from ._text import content_words, guardrail_topics
from ._world import World


@dataclass
class _Turn:
    messages: list[AgentMessage] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    model_calls: int = 0
    warnings: list[str] = field(default_factory=list)


class ConversationState:
    """What one conversation with the demo agent knows between turns."""

    def __init__(
        self, defs: AnychatDefinitions, scenario: dict[str, Any], flags: ClinicFlags
    ) -> None:
        self.defs = defs
        self.flags = flags
        self.world = World(defs, scenario)
        self.scenario = scenario
        self.default = defs.default_playbook or next(iter(sorted(defs.playbooks)))
        self.active = self.default
        self.roles = {pid: roles_of(pb) for pid, pb in defs.playbooks.items()}
        self.vocab = {
            pid: content_words(f"{pb.activation or ''} {pb.name or ''} {pid}")
            for pid, pb in defs.playbooks.items()
        }
        self.phase: str | None = None
        self.offered: list[dict[str, Any]] = []
        self.options: list[tuple[str, str]] = []
        self.opted_out = False
        self.asked_fields: list[str] = []
        self.new_person = False
        """The lookup found no record: the person is asked for their details."""
        self.service: str | None = None
        self.turn = _Turn()
        rules = [str(g) for g in defs.agent.get("guardrails") or []]
        self.rules = [(rule, guardrail_topics(rule)) for rule in rules]

    def state(self) -> dict[str, Any]:
        return self.world.snapshot(self.active, warnings=[], model_calls=0)

    def _reply(self) -> AgentReply:
        turn = self.turn
        if self.flags.warn and turn.messages:
            turn.warnings.append("dropped an unknown AML marker [[badge: new]]")
        messages = turn.messages
        if self.flags.double_text:
            messages = [m for message in messages for m in (message, message.model_copy())]
        return AgentReply(
            messages=messages,
            events=turn.events,
            state=self.world.snapshot(
                self.active, warnings=turn.warnings, model_calls=turn.model_calls
            ),
        )

    # --- building blocks ----------------------------------------------------------------

    def _say(
        self,
        text: str,
        parts: list[dict[str, Any]] | None = None,
        chips: list[dict[str, Any]] | None = None,
    ) -> None:
        self.turn.model_calls += 1
        rich = [{"type": "text", "text": text}, *(parts or [])]
        self.turn.messages.append(AgentMessage(text=text, parts=rich, chips=chips or []))

    def _call(self, name: str, args: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
        self.turn.model_calls += 1
        self.turn.events.append(
            {
                "event": "tool_called",
                "name": name,
                "args": args,
                "result": result,
                "is_error": False,
            }
        )
        return result

    def _outcome(self, name: str | None) -> None:
        if name and name not in self.world.outcomes:
            self.world.outcomes.append(name)
            self.turn.events.append({"event": "outcome", "name": name})

    def _switch(self, target: str) -> bool:
        """Hand off to `target` (False when the `no_handoff` fault keeps the agent where it is)."""
        if target == self.active:
            return True
        if self.flags.no_handoff and self.active != self.default:
            return False
        self.turn.model_calls += 1
        self.turn.events.append({"event": "playbook_switched", "from": self.active, "to": target})
        self.active = target
        self.phase = None
        self.offered = []
        return True

    def _update_person(self, values: dict[str, Any]) -> None:
        changed = self.world.set_fields(values)
        if changed:
            self.turn.events.append({"event": "person_updated", "fields": changed})

    def _name(self) -> str:
        first = self.world.first_name
        return f", {first}" if first else ""


__all__ = ["ConversationState", "_Turn"]
