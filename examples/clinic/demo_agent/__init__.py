"""`demo:clinic`: a deterministic, in-process Anychat-style agent for examples/clinic.

    target = ClinicTarget()                        # or parse_target("demo:clinic")
    session = await target.open(run_case, 1)
    reply = await session.send(UserTurn(type="start", setup=run_case.setup))
    reply = await session.send(UserTurn(type="text", text="Hi, can I book a cleaning?"))
    final = await session.close()

It reads the project with `load_project` (default `examples/clinic` next to the `evalcore`
package; pass `project=` to use another Anychat project) and plays its Playbooks without a
model, so a case's run is the same every time. It exists to run Anychat cases end to end in
tests and tutorials, and to show what a target reports (docs/agent-protocol.md §1–3).

**Start** (`UserTurn(type="start", setup={"scenario": ...})`, else the case's `setup`): the
Person from `persona.preset` (fields, `customFields`, consent), appointments from
`appointments` (ids `a-0001`…, start = `clock.now` + `startsIn`, `seeded: true`), the frozen
`clock` (default 2026-03-09 09:00 -04:00) and tool `stubs`. Then by `start`:
`inbound` (no reply), `outreach` (the Outreach's opener rendered with `inputs`; its Playbook
becomes active), `reminder` (a reminder of the next appointment, "Reply C to confirm or R to
pick another time"), `resume` (`activePlaybook` becomes active; `history` is not replayed).

**Turns**: text is routed by the words it shares with each Playbook's activation hint, name
and id (from the Default Playbook on any match; from another Playbook only on a clearly
better one), then answered by the active Playbook: a lookup tool, `ask.time` slots from the
availability tool (from `stubs.check_availability.slots` when given), the booking / moving
tool on a `slot` turn or "the first time works", a `confirm` part before cancelling. The
Default Playbook answers from its body's first paragraph, with the other Playbooks as chips
(`{"label": name, "value": id}`); a `chip` naming a Playbook hands off to it. Names ("My full
name is Dana Reyes", "Sam Ortiz, ...") and declared choice values ("Cigna") are saved to the
Person; a person the lookup does not find gets `isNewPatient: "true"` when the project
declares that field. A guardrail request (a diagnosis, a price quote, "ignore your
instructions") is declined; a time that was not offered is refused. `system` turns never
get a reply: `optOut` (or a STOP text) records the opt-out outcome, sets consent to denied
and silences the agent until `optIn`.

**Each reply** (`AgentReply`):

- `messages`: one bubble per reply, `{"text", "parts": [{"type": "text", "text"}, ...],
  "chips": [{"label", "value"}]}`; pickers are parts: `{"type": "ask.time", "intentId":
  "pick-slot", "prompt", "slots": [{"id", "start": {"iso"}, "label"}]}` and `{"type":
  "confirm", "prompt"}`;
- `events`, in order: `{"event": "tool_called", "name", "args", "result", "is_error":
  false}`, `{"event": "playbook_switched", "from", "to"}`, `{"event": "outcome", "name"}`,
  `{"event": "appointment_created" | "appointment_updated" | "appointment_cancelled",
  "appointment"}`, `{"event": "person_updated", "fields"}`;
- `state` (after the turn): `activePlaybook`; `person` (built-in fields at the top,
  `customFields` as strings, `consent: {"status"}`); `appointments` (`{"id", "start"
  (ISO), "durationMinutes", "representativeId", "status", "seeded"}`, seeded ones
  included, cancelled ones kept with `status: "cancelled"`); `outcomes` (cumulative);
  `warnings` (this turn, strings: a slot or chip that was not offered); `modelCalls` (this
  turn: one per message composed, per tool call and per hand-off; 0 for a silent turn).

`close()` returns `FinalRecord(state=<the last state>, meta={"conversation_id",
"agent": "demo:clinic", "flags"})`.

**Mutation flags** (`ClinicFlags`, passed as keywords to `ClinicTarget`) make the agent
wrong on purpose, so a test can show that a case's checks catch it: `never_book` (confirms
without calling the booking/moving/cancelling tool or recording the outcome),
`ignore_opt_out` (answers an opt-out and keeps talking), `double_text` (every bubble
twice), `no_handoff` (never leaves a non-default Playbook), `tool_loop` (calls the
availability tool three times per offer), `warn` (a runtime warning on every reply).
"""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path
from typing import Any

from evalcore.agents import AgentReply, FinalRecord, UserTurn
from evalcore.agents.demo import rebuilt_target
from evalcore.definitions import AnychatDefinitions, load_project

from ._engine import ClinicConversation, ClinicFlags

SPEC = "demo:clinic"


def default_project() -> Path:
    """The example folder this agent lives in (examples/clinic)."""
    return Path(__file__).resolve().parents[1]


class ClinicSession:
    """One conversation (one run of one case)."""

    def __init__(
        self,
        defs: AnychatDefinitions,
        setup: dict[str, Any],
        flags: ClinicFlags,
        conversation_id: str,
    ) -> None:
        self.defs = defs
        self.flags = flags
        self.conversation_id = conversation_id
        self.conversation = ClinicConversation(defs, dict(setup.get("scenario") or {}), flags)
        self.last_state: dict[str, Any] = self.conversation.state()

    async def send(self, turn: UserTurn) -> AgentReply:
        if turn.type == "start" and turn.setup and isinstance(turn.setup.get("scenario"), dict):
            self.conversation = ClinicConversation(self.defs, turn.setup["scenario"], self.flags)
        reply = self.conversation.send(turn)
        self.last_state = reply.state
        return reply

    async def close(self) -> FinalRecord:
        return FinalRecord(
            state=dict(self.last_state),
            meta={
                "conversation_id": self.conversation_id,
                "agent": SPEC,
                "flags": [
                    f.name for f in dataclasses.fields(self.flags) if getattr(self.flags, f.name)
                ],
            },
        )


class ClinicTarget:
    """The `demo:clinic` target: a fresh, deterministic session per run."""

    spec = SPEC

    @staticmethod
    def flag_names() -> list[str]:
        return [f.name for f in dataclasses.fields(ClinicFlags)]

    def __init__(self, project: Path | str | None = None, **flags: bool) -> None:
        root = Path(project) if project is not None else default_project()
        loaded = load_project(root)
        if loaded.anychat is None:
            raise ValueError(f"{root} is not an Anychat project")
        self.defs = loaded.anychat
        self.flags = ClinicFlags(**flags)
        self._keywords = {**({"project": str(project)} if project is not None else {}), **flags}

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        """Pickled by demo name and keywords (a Ray worker rebuilds it), not by value."""
        return (rebuilt_target, ("clinic", self._keywords))

    async def open(self, case: Any, run_index: int) -> ClinicSession:
        setup = (
            getattr(case, "setup", None)
            or (case.get("setup") if isinstance(case, dict) else None)
            or {}
        )
        slug = (
            getattr(case, "slug", None)
            or (case.get("slug") if isinstance(case, dict) else None)
            or "case"
        )
        digest = hashlib.sha256(f"{slug}#{run_index}".encode()).hexdigest()[:12]
        return ClinicSession(self.defs, setup, self.flags, f"clinic-{digest}")


__all__ = ["SPEC", "ClinicFlags", "ClinicSession", "ClinicTarget", "default_project"]
