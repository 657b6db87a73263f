"""What every Anychat behaviour builder shares: the Playbook's facts, the channel each case
gets, the job's covered elements, the scene (persona, appointments) and the `Behavior` record."""

from __future__ import annotations

from typing import Any

from evalcore.definitions import AnychatDefinitions, Playbook

from ._behavior import Behavior
from .anychat_elements import PlaybookFacts
from .anychat_people import field_value, preset, seeded_appointment

DIALECT = "anychat"
_CASE_CHANNELS = ("rcs", "sms", "whatsapp", "appleMessages")


class BuilderBase:
    """One Playbook and what the direction chose; `add` appends a behaviour to `out`."""

    def __init__(
        self, defs: AnychatDefinitions, facts: PlaybookFacts, values: dict[str, Any]
    ) -> None:
        self.defs = defs
        self.values = values
        """People field values the direction chose (`insuranceProvider: Cigna`)."""
        self.f = facts
        self.pb: Playbook = facts.playbook
        self.name = self.pb.name or self.pb.id
        self.channels = [c for c in defs.channels if c in _CASE_CHANNELS] or ["sms"]
        self.out: list[Behavior] = []

    # --- shared pieces --------------------------------------------------------------------

    def add(
        self,
        case: str,
        type_: str,
        title: str,
        description: str,
        covers: list[str],
        facts: dict[str, Any],
        priority: int,
    ) -> None:
        behavior_id = f"{self.pb.id}:{case}"
        scene = {
            "kind": facts.pop("kind"),
            "playbook": self.pb.id,
            "channel": self.channels[len(self.out) % len(self.channels)],
        }
        self.out.append(
            Behavior(
                id=behavior_id,
                source=self.pb.id,
                dialect=DIALECT,
                type=type_,
                case=case,
                title=title[:300],
                description=description,
                covers=list(dict.fromkeys([f"playbook:{self.pb.id}", *covers])),
                facts=scene | facts,
                priority=priority,
            )
        )

    def job_covers(self, *, pickers: bool = True) -> list[str]:
        """Elements a run that completes the Playbook's job exercises."""
        roles = self.f.roles
        tools = [*roles.lookup, *roles.availability, *([roles.action] if roles.action else [])]
        covers = [f"tool:{t}" for t in tools]
        if self.f.outcome:
            covers.append(f"outcome:{self.f.outcome}")
        if pickers:
            covers += [f"picker:{p}" for p in self._job_pickers()]
        return covers

    def _job_pickers(self) -> list[str]:
        if "ask.time" in self.pb.pickers and self.f.roles.availability:
            return ["ask.time"]
        if "confirm" in self.pb.pickers and self.f.roles.action:
            return ["confirm"]
        return [p for p in self.pb.pickers if p == "chips"]

    def scene(
        self,
        key: str,
        *,
        known: bool = True,
        appointment: bool | None = None,
        extra: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        seeded = self.f.needs_appointment if appointment is None else appointment
        persona = preset(key, self.defs, known=known, extra=extra)
        told = self.told(key, persona) if self.has_job else {}
        return {
            "persona": persona,
            "appointments": [seeded_appointment(self.defs)] if seeded else [],
            **({"told": told} if told else {}),
        }

    def told(self, key: str, persona: dict[str, Any]) -> dict[str, Any]:
        """What the person answers when the body asks before acting: each asked field the
        person's record does not already hold, with a value the case can check."""
        fields = persona.get("fields") or {}
        held = set(fields) | set(fields.get("customFields") or {})
        out: dict[str, Any] = {}
        for field_key in self.f.asked:
            if field_key in held:
                continue
            spec = self.defs.person_fields[field_key]
            value = self.values.get(field_key, field_value(spec, key))
            if value is not None:
                out[field_key] = value
        return out

    @property
    def has_job(self) -> bool:
        return self.f.has_job


__all__ = ["DIALECT", "BuilderBase"]
