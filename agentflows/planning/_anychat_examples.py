"""How a Playbook example is set up when it is replayed as a case.

An example lists only the conversation; the case also needs a start, a person and any
appointment the conversation works on. They are read from the example where it says them and
filled in from the frozen world (`anychat_people`) where it does not:

- start: the Default Playbook's examples start inbound; an example whose first message is a
  reply an Outreach of its Playbook offers ("R" to "Reply C to confirm or R to pick another
  time") starts with that Outreach; one of another Playbook that opens with no message of the
  person's (a platform event, a tap) resumes in its own Playbook, where the example happens
  (inbound, that turn would reach the Default Playbook, and nothing would route it), and so
  does one that only answers (no tool, no hand-off, no outcome, ending in its Playbook); any
  other starts inbound and lets the agent route (a title that merely shares a word with an
  Outreach, "Bike is ready" and "Ready for pick-up", is no reply to it);
- person: on record (named) unless the example's end expects a name to be saved or its lookup
  finds nobody (`found: false`); values the
  example passes to tools under a People field key (`phone: "+15550142"`), a greeting in an
  agent line ("Hi Maya!") and the first name a tool's `result` gives are the person's own;
- appointment: one scheduled appointment when the Playbook's job works on an existing one or
  the example's end counts active appointments without creating one.
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import AnychatDefinitions, Playbook
from evalcore.lexicon.en.playbook_prose import GREETING

from .anychat_elements import PlaybookFacts, reply_options
from .anychat_people import outreach_inputs, person, preset, seeded_appointment

_GREETING = GREETING
_NAME_FIELDS = {"fullName", "firstName", "lastName", "name"}


def example_scene(
    playbook: Playbook, index: int, defs: AnychatDefinitions, facts: PlaybookFacts
) -> dict[str, Any]:
    """`start`, `persona` and `appointments` facts for replaying example `index`."""
    example = playbook.examples[index]
    key = f"{playbook.id}:example_{index}"
    end = example.end
    known = not (_NAME_FIELDS & set(end.get("personFields") or {})) and not _not_found(
        example.turns
    )
    extra: dict[str, Any] = {}
    for turn in example.turns:
        args = turn.get("args")
        if isinstance(args, dict):
            extra.update({k: v for k, v in args.items() if k in defs.person_fields})
    persona = preset(key, defs, known=known, extra=extra)
    greeting = _greeted_name(example.turns) or _looked_up_name(example.turns)
    if known and greeting:
        fields = persona["fields"]
        fields["firstName"] = greeting
        fields["fullName"] = f"{greeting} {fields.get('lastName', '')}".strip()
    seeded = facts.needs_appointment or (
        "activeAppointments" in end and not end.get("appointmentCreated")
    )
    appointments = [seeded_appointment(defs)] if seeded else []
    start: dict[str, Any] = {"inbound": True}
    first = next((str(t["user"]).strip() for t in example.turns if "user" in t), "")
    if not playbook.default and (
        not _opens_with_message(example.turns) or _answers_only(example.turns, end, playbook.id)
    ):
        start = {"resume": {"activePlaybook": playbook.id}}
    elif not playbook.default:
        for outreach in facts.outreaches:
            if first.lower() in {o.reply.lower() for o in reply_options(outreach)}:
                who = {**person(key), **persona["fields"]}
                inputs = outreach_inputs(
                    outreach, who, appointments[0] if appointments else None, defs
                )
                start = {"outreach": {"outreachId": outreach.id, "inputs": inputs}}
                break
    return {"start": start, "persona": persona, "appointments": appointments}


def _not_found(turns: list[dict[str, Any]]) -> bool:
    """A tool turn's `result` says the person is not found (`found: false`): the example is
    about someone the business does not know yet, so the replay's person has no name on
    record for the agent to greet them by."""
    return any(
        isinstance(t.get("result"), dict) and t["result"].get("found") is False for t in turns
    )


def _answers_only(turns: list[dict[str, Any]], end: dict[str, Any], playbook: str) -> bool:
    """The example calls no tool, hands off nowhere and records nothing, yet ends in its own
    Playbook: an answer to a question ("can you promise it will come out?") that, written
    inbound, the Default Playbook may answer itself without routing, so only a conversation
    already in this Playbook ends where the example says."""
    if any({"tool", "handoff"} & set(t) for t in turns):
        return False
    return end.get("outcomes") == [] and end.get("activePlaybook") == playbook


def _looked_up_name(turns: list[dict[str, Any]]) -> str | None:
    """The first name a tool turn's `result` gives the person (`firstName: Dana`): the
    record the replay's lookup returns is theirs, so the person is called that too."""
    for turn in turns:
        result = turn.get("result")
        if isinstance(result, dict) and isinstance(result.get("firstName"), str):
            return str(result["firstName"]).strip() or None
    return None


def _opens_with_message(turns: list[dict[str, Any]]) -> bool:
    """The example's first turn of the person's side is a message they write (not a
    `system` event, a chip, a slot or a yes): the agent routes it from the start."""
    first = next((t for t in turns if not {"agent", "tool", "handoff"} & set(t)), None)
    return first is not None and "user" in first


def _greeted_name(turns: list[dict[str, Any]]) -> str | None:
    for turn in turns:
        text = turn.get("agent")
        if isinstance(text, str):
            match = _GREETING.search(text)
            if match:
                return match.group(1)
    return None


__all__ = ["example_scene"]
