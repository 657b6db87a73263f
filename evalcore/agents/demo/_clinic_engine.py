"""The clinic demo's conversation engine: plays the project's Playbooks turn by turn.

Each Playbook is played from its definition: its tools by role (a `lookup_*` tool, a tool
with "availability" in its name, and the one that does the job), its pickers (`ask.time`
offers slots, `confirm` asks yes/no), its body ("ask when would suit them", "offer once to
move it instead") and its outcome. The Default Playbook answers from its body's first
paragraph and offers the other Playbooks as chips. Routing compares the message's words with
each Playbook's activation hint, name and id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ...definitions import AnychatDefinitions, Playbook
from .._protocol import AgentMessage, AgentReply, UserTurn
from ._clinic_text import (
    best_route,
    breaks_rule,
    choice_in,
    content_words,
    full_name,
    guardrail_topics,
    is_stop_keyword,
    route_scores,
    slot_choice,
    times_in,
    weekday_in,
    yes_or_no,
)
from ._clinic_world import World, when

_LOOKUP = ("lookup_", "find_", "get_", "search_", "fetch_")
_OPT_OUT = re.compile(r"opt(?:ed)?[_-]?out", re.IGNORECASE)
_REPLY_OPTION = re.compile(r"\b(?:reply\s+)?(\w{1,12}) to ([^.;]+?)(?= or |[.;]|$)", re.I)


@dataclass(frozen=True)
class ClinicFlags:
    """Deliberate faults, so tests can show a check catches them (all off by default)."""

    never_book: bool = False
    """Confirms bookings, moves and cancellations without calling the tool or recording the
    outcome."""
    ignore_opt_out: bool = False
    """Answers an opt-out ("You're unsubscribed") and keeps replying afterwards; records no
    opt-out outcome."""
    double_text: bool = False
    """Sends every reply twice (two bubbles per turn)."""
    no_handoff: bool = False
    """Never leaves a Playbook other than the Default Playbook once it is active."""
    tool_loop: bool = False
    """Calls the availability tool three times whenever it offers times."""
    warn: bool = False
    """Raises a runtime warning (a dropped AML marker) on every reply."""


@dataclass(frozen=True)
class _Roles:
    lookup: tuple[str, ...]
    availability: str | None
    action: str | None
    effect: str | None
    outcome: str | None
    asks_when: bool
    offers_instead: str | None


def roles_of(playbook: Playbook) -> _Roles:
    lookup = tuple(t for t in playbook.tools if t.startswith(_LOOKUP) and t in playbook.body)
    availability = next((t for t in playbook.tools if "availab" in t), None)
    rest = [t for t in playbook.tools if not t.startswith(_LOOKUP) and t != availability]
    action = rest[-1] if rest else None
    verb = action.split("_", 1)[0] if action else ""
    effect = (
        None
        if action is None
        else "create"
        if verb in ("book", "create", "schedule")
        else "cancel"
        if verb in ("cancel", "delete", "remove")
        else "move"
    )
    body = " ".join(playbook.body.split())
    instead = re.search(r"\boffer (?:once )?to (\w+) it instead", body, re.I)
    return _Roles(
        lookup=lookup,
        availability=availability,
        action=action,
        effect=effect,
        outcome=next((o for o in playbook.outcomes if not _OPT_OUT.search(o)), None),
        asks_when=re.search(r"\bask (?:them )?(?:when|which day)", body, re.I) is not None,
        offers_instead=instead.group(1).lower() if instead else None,
    )


@dataclass
class _Turn:
    messages: list[AgentMessage] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    model_calls: int = 0
    warnings: list[str] = field(default_factory=list)


class ClinicConversation:
    """One conversation with the demo agent."""

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

    # --- the protocol -------------------------------------------------------------------

    def send(self, user: UserTurn) -> AgentReply:
        self.turn = _Turn()
        if user.type == "start":
            self._start()
        elif user.type == "system":
            self._system(user.event or "")
        elif self.opted_out and not self.flags.ignore_opt_out:
            pass
        elif user.type == "text":
            self._text(user.text or "")
        elif user.type == "chip":
            self._chip(user)
        elif user.type == "slot":
            self._slot(user)
        elif user.type == "confirm":
            self._confirm(user)
        else:
            self._say("Thanks, got it.")
        return self._reply()

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

    # --- starts and platform events -----------------------------------------------------

    def _start(self) -> None:
        start = self.scenario.get("start") or {}
        outreach = start.get("outreach")
        if isinstance(outreach, dict) and outreach.get("outreachId") in self.defs.outreaches:
            spec = self.defs.outreaches[outreach["outreachId"]]
            self.active = spec.playbook if spec.playbook in self.defs.playbooks else self.default
            text = _render(spec.opener, outreach.get("inputs") or {})
            self._say(text)
            self.options = _options(text)
            self.phase = "options"
        elif start.get("reminder"):
            appointment = self.world.upcoming()
            if appointment is not None:
                moment = datetime.fromisoformat(appointment["start"])
                name = self.defs.agent.get("name") or "us"
                text = (
                    f"Reminder from {name}: your appointment is on {when(moment)}. Reply C "
                    "to confirm or R to pick another time."
                )
                self.turn.messages.append(
                    AgentMessage(text=text, parts=[{"type": "text", "text": text}])
                )
                self.options = _options(text)
                self.phase = "options"
        elif isinstance(start.get("resume"), dict):
            wanted = start["resume"].get("activePlaybook")
            if wanted in self.defs.playbooks:
                self.active = wanted

    def _system(self, event: str) -> None:
        if event == "optOut":
            if self.flags.ignore_opt_out:
                self._say("You're unsubscribed. Reply START to opt back in.")
                return
            self.opted_out = True
            self.world.person.setdefault("consent", {})["status"] = "denied"
            outcome = next((o for o in self.defs.outcomes if _OPT_OUT.search(o)), None)
            self._outcome(outcome)
        elif event in ("optIn", "subscribed"):
            self.opted_out = False
            self.world.person.setdefault("consent", {})["status"] = "granted"

    # --- text ---------------------------------------------------------------------------

    def _text(self, text: str) -> None:
        if is_stop_keyword(text):
            if not self.flags.ignore_opt_out:
                self._system("optOut")
            else:
                self._say("You're unsubscribed. Reply START to opt back in.")
            return
        for rule, topics in self.rules:
            if "availab" not in rule and breaks_rule(text, topics):
                self._refuse(rule)
                return
        if breaks_rule(text, []):
            self._say("Sorry, I can't share that. How can I help with your appointment?")
            return
        target = self._reroute(text)
        if target is not None and self._switch(target):
            self._begin(text)
            return
        if self._in_flow(text):
            return
        self._begin(text) if self.phase is None else self._fallback(text)

    def _reroute(self, text: str) -> str | None:
        """A Playbook to hand off to: any match from the Default Playbook; from another one
        only a clearly better match (two shared words or more)."""
        best = best_route(text, self.vocab)
        if best is None or best == self.active:
            return None
        if self.active == self.default and self.phase in (None, "done"):
            return best
        scores = route_scores(text, self.vocab)
        if scores[best] >= 2 and scores[best] > scores.get(self.active, 0):
            return best
        return None

    def _in_flow(self, text: str) -> bool:
        """Handle the text as an answer to what the agent just asked (True when it was)."""
        self._take_details(text)
        phase = self.phase
        if phase == "options":
            return self._option(text)
        if phase == "asked_when":
            self._offer(text)
            return True
        if phase == "offered":
            choice = slot_choice(text, len(self.offered))
            if choice is not None and -len(self.offered) <= choice < len(self.offered):
                self._pick(choice)
            elif self._insists_on_time(text):
                self._say(
                    "Sorry, I can only book one of the times I offered. Would one of "
                    "those work for you?"
                )
            elif self.turn.events and self.turn.events[-1]["event"] == "person_updated":
                self._say(f"Thanks{self._name()}. Which of the times works for you?")
            else:
                return False
            return True
        if phase == "alternative":
            roles = self.roles[self.active]
            answer = yes_or_no(text)
            wants_other = (
                roles.offers_instead
                and roles.offers_instead in text.lower()
                and (answer is not False)
            )
            if wants_other:
                target = self._playbook_for(roles.offers_instead or "")
                if target is not None and self._switch(target):
                    self._begin(text)
                    return True
            if answer is False or (roles.action and roles.action.split("_")[0] in text.lower()):
                self._ask_confirm()
                return True
            return False
        if phase == "confirming":
            answer = yes_or_no(text)
            if answer is None:
                return False
            self._confirmed(answer)
            return True
        if (
            phase == "done"
            and self.turn.events
            and self.turn.events[-1]["event"] == "person_updated"
        ):
            self._say(f"Thanks{self._name()}, that's saved.")
            return True
        if phase == "done" and self.active != self.default and not self.asked_fields:
            self._say(f"Thanks{self._name()}. Is there anything else I can help with?")
            return True
        if phase == "done" and self.asked_fields:
            self._say(f"Thanks{self._name()}. You're all set. See you then!")
            return True
        return False

    def _fallback(self, text: str) -> None:
        if self.active == self.default:
            self._answer(text)
        else:
            self._say("Sorry, I didn't catch that. Could you say it another way?")

    def _refuse(self, rule: str) -> None:
        instead = (
            "A dentist needs to see you for that. Would you like to book a visit?"
            if "visit" in rule.lower()
            else "Is there anything else I can help with?"
        )
        self._say(f"I'm sorry, I can't help with that here. {instead}")

    def _name(self) -> str:
        first = self.world.first_name
        return f", {first}" if first else ""

    # --- details ------------------------------------------------------------------------

    def _take_details(self, text: str) -> None:
        values: dict[str, Any] = {}
        name = full_name(text, asked=not self.world.on_record or bool(self.asked_fields))
        if name:
            first, _, last = name.partition(" ")
            values.update({"fullName": name, "firstName": first, "lastName": last})
        telling = bool(self.asked_fields) or self.new_person
        for spec in self.defs.person_fields.values():
            if not telling or text.rstrip().endswith("?"):
                break
            if spec.builtin or spec.type != "choice" or not spec.choices:
                continue
            found = choice_in(text, spec.choices)
            if found:
                values[spec.key] = found
        if values:
            self._update_person(values)

    def _missing_details(self) -> list[str]:
        """Labels of what a new person is asked for: their full name and the declared
        choice fields (insurance) they have not given."""
        if not self.new_person:
            return []
        missing = []
        if not self.world.person.get("fullName"):
            missing.append("full name")
        for spec in self.defs.person_fields.values():
            if not spec.builtin and spec.type == "choice" and not self.world.field(spec.key):
                missing.append((spec.label or spec.key).lower())
        return missing

    # --- playing a Playbook -------------------------------------------------------------

    def _begin(self, text: str) -> None:
        playbook = self.defs.playbooks[self.active]
        roles = self.roles[self.active]
        if roles.action is None:
            self._answer(text)
            return
        self._detect_service(text)
        for tool in roles.lookup:
            found = self.world.lookup_found()
            self._call(
                tool,
                {"phone": self.world.person.get("phone")},
                self.world.tool_result(tool, {"found": found}),
            )
            if not found:
                self.new_person = True
                if "isNewPatient" in self.defs.person_fields:
                    self._update_person({"isNewPatient": True})
        if roles.effect in ("move", "cancel") and self.world.upcoming() is None:
            self._say("I can't find an upcoming appointment for you. Would you like to book one?")
            self.phase = "done"
            return
        if roles.availability and "ask.time" in playbook.pickers:
            if roles.asks_when and not _preference(text):
                self._say(f"No problem{self._name()}. Which day works better for you?")
                self.phase = "asked_when"
                return
            self._offer(text)
        elif "confirm" in playbook.pickers:
            appointment = self.world.upcoming()
            if roles.offers_instead and appointment is not None:
                moment = datetime.fromisoformat(appointment["start"])
                self._say(
                    f"I see your appointment on {when(moment)}. Would you like to "
                    f"{roles.offers_instead} it to another day instead?"
                )
                self.phase = "alternative"
            else:
                self._ask_confirm()
        else:
            self._answer(text)

    def _offer(self, text: str) -> None:
        roles = self.roles[self.active]
        tool = roles.availability or "check_availability"
        args: dict[str, Any] = {"service": self.service or "checkup"}
        dentist = self.world.field("preferredDentist")
        if dentist:
            args["dentist"] = dentist
        weekday = weekday_in(text)
        lowered = text.lower()
        part = (
            "morning" if "morning" in lowered else "afternoon" if "afternoon" in lowered else None
        )
        slots = self.world.slots(weekday=weekday, part_of_day=part, later="later" in lowered)
        for _ in range(3 if self.flags.tool_loop else 1):
            self._call(tool, args, {"slots": slots})
        if not slots:
            self._say("Sorry, nothing is free then. Would another day work?")
            self.phase = "asked_when"
            return
        self.offered = slots
        picker = {
            "type": "ask.time",
            "intentId": "pick-slot",
            "prompt": "Pick a time",
            "slots": [
                {"id": s["id"], "start": {"iso": s["start"]}, "label": _label(s)} for s in slots
            ],
        }
        article = "an" if (self.service or "x")[0] in "aeiou" else "a"
        label = (
            f" for {article} {self.service}" if self.service and roles.effect == "create" else ""
        )
        self._say(f"Here are the next openings{label}{self._name()}:", [picker])
        self.phase = "offered"

    def _pick(self, index: int) -> None:
        slot = self.offered[index]
        roles = self.roles[self.active]
        moment = datetime.fromisoformat(slot["start"])
        dentist = slot.get("dentist") or "your dentist"
        self.offered = []
        self.phase = "done"
        if self.flags.never_book:
            self._say(f"You're all set for {when(moment)} with {dentist}.")
            return
        if roles.effect == "create" and roles.action:
            result = self.world.tool_result(roles.action, {"status": "scheduled"})
            appointment = self.world.book(slot, result)
            self._call(
                roles.action,
                {"slot_id": slot["id"], "service": self.service or "checkup"},
                result | {"appointment_id": appointment["id"]},
            )
            self.turn.events.append(
                {"event": "appointment_created", "appointment": dict(appointment)}
            )
            self._outcome(roles.outcome)
            text = f"You're booked for {when(moment)} with {dentist}."
            missing = self._missing_details()
            if missing:
                self.asked_fields = missing
                text += f" To finish your record, what's your {' and '.join(missing)}?"
            self._say(text)
        elif roles.action:
            appointment = self.world.upcoming()
            if appointment is None:
                self._say("I can't find the appointment to move.")
                return
            result = self.world.tool_result(roles.action, {"status": "scheduled"})
            self._call(
                roles.action, {"appointment_id": appointment["id"], "slot_id": slot["id"]}, result
            )
            appointment["start"] = slot["start"]
            self.turn.events.append(
                {"event": "appointment_updated", "appointment": dict(appointment)}
            )
            self._outcome(roles.outcome)
            self._say(
                f"All set{self._name()}, your appointment is now {when(moment)} with {dentist}."
            )

    def _ask_confirm(self) -> None:
        roles = self.roles[self.active]
        appointment = self.world.upcoming()
        verb = (roles.action or "cancel").split("_")[0].capitalize()
        moment = datetime.fromisoformat(appointment["start"]) if appointment else None
        prompt = f"{verb} your appointment on {when(moment)}?" if moment else f"{verb} it?"
        self._say(prompt, [{"type": "confirm", "prompt": prompt}])
        self.phase = "confirming"

    def _confirmed(self, yes: bool) -> None:
        roles = self.roles[self.active]
        self.phase = "done"
        appointment = self.world.upcoming()
        if not yes or appointment is None or roles.action is None:
            self._say("Okay, I'll leave it as it is.")
            return
        moment = datetime.fromisoformat(appointment["start"])
        if self.flags.never_book:
            self._say(f"Done, your appointment on {when(moment)} is taken care of.")
            return
        result = self.world.tool_result(roles.action, {"status": "cancelled"})
        self._call(roles.action, {"appointment_id": appointment["id"]}, result)
        appointment["status"] = "cancelled"
        self.turn.events.append(
            {"event": "appointment_cancelled", "appointment": dict(appointment)}
        )
        self._outcome(roles.outcome)
        self._say(
            f"Your appointment on {when(moment)} is cancelled. Text us any time to book again."
        )

    def _option(self, text: str) -> bool:
        """A reply to an opener's options ("Reply C to confirm or R to pick another time")."""
        said = text.strip().rstrip(".!").lower()
        for reply, meaning in self.options:
            if said != reply.lower():
                continue
            if content_words(meaning) & self.vocab.get(self.active, set()):
                self.phase = None
                self._begin(text)
            else:
                appointment = self.world.upcoming()
                moment = (
                    f" on {when(datetime.fromisoformat(appointment['start']))}"
                    if appointment
                    else ""
                )
                self._say(f"Thanks{self._name()}! Your appointment{moment} stays as it is.")
                self.phase = "done"
            return True
        self.phase = None
        return False

    def _answer(self, text: str) -> None:
        """The Default Playbook: the body's best-matching fact, else what it can help with."""
        playbook = self.defs.playbooks[self.active]
        facts = _facts(playbook.body)
        words = content_words(text)
        scored = [(len(words & content_words(f)), -i, f) for i, f in enumerate(facts)]
        best = max(scored, default=(0, 0, ""))
        others = [p for pid, p in sorted(self.defs.playbooks.items()) if pid != self.active]
        chips = (
            [{"label": p.name or p.id, "value": p.id} for p in others]
            if ("chips" in playbook.pickers)
            else []
        )
        if best[0] > 0:
            self._say(best[2], chips=chips)
        else:
            names = ", ".join((p.name or p.id).lower() for p in others)
            self._say(f"I can help with these: {names}. What would you like to do?", chips=chips)
        self.phase = None

    # --- chips, slots and confirms ------------------------------------------------------

    def _chip(self, user: UserTurn) -> None:
        chip = user.chip or ""
        if chip in self.defs.playbooks and self._switch(chip):
            self._begin(self.defs.playbooks[chip].name or chip)
            return
        if user.fallback:
            self._text(user.fallback)
        else:
            self.turn.warnings.append(f"chip '{chip}' was not offered")
            self._say("Sorry, I didn't catch that.")

    def _slot(self, user: UserTurn) -> None:
        index = user.slot if user.slot is not None else -1
        if self.phase == "offered" and 0 <= index < len(self.offered):
            self._pick(index)
            return
        self.turn.warnings.append(f"slot {index} picked but no such time was offered")
        if user.fallback:
            self._text(user.fallback)
        else:
            self._say("Sorry, which time did you mean?")

    def _confirm(self, user: UserTurn) -> None:
        if self.phase == "confirming":
            self._confirmed(bool(user.confirm))
        elif user.fallback:
            self._text(user.fallback)
        else:
            self._say("Sorry, what would you like to confirm?")

    # --- helpers ------------------------------------------------------------------------

    def _detect_service(self, text: str) -> None:
        tool = self.defs.tools.get(self.roles[self.active].availability or "")
        choices = ((tool.parameters.get("service") or {}).get("choices") or []) if tool else []
        lowered = text.lower().replace("-", "")
        found = next((c for c in choices if c in lowered), None)
        if found is None and re.search(r"\b(?:hurts?|pain|ache|aching)\b", lowered):
            found = "emergency" if "emergency" in choices else None
        if found:
            self.service = found

    def _insists_on_time(self, text: str) -> bool:
        offered = {datetime.fromisoformat(s["start"]).strftime("%H:%M") for s in self.offered}
        asked = [f"{h:02d}:{m:02d}" for h, m in times_in(text)]
        return bool(weekday_in(text) or [t for t in asked if t not in offered]) or (
            "put me down" in text.lower()
        )

    def _playbook_for(self, verb: str) -> str | None:
        for pid, playbook in sorted(self.defs.playbooks.items()):
            if verb in content_words(f"{playbook.name or ''} {pid}"):
                return pid
        return None


def _preference(text: str) -> bool:
    lowered = text.lower()
    return bool(weekday_in(text) or times_in(text)) or any(
        w in lowered for w in ("morning", "afternoon", "evening", "later", "tomorrow", "week")
    )


def _render(template: str, inputs: dict[str, Any]) -> str:
    text = re.sub(r"(?<!\{)\{(\w+)\}(?!\})", lambda m: str(inputs.get(m.group(1), "")), template)
    return " ".join(text.replace("{{", "{").replace("}}", "}").split())


def _options(text: str) -> list[tuple[str, str]]:
    found = re.search(r"\breply\b(.*)$", text, re.I)
    if not found:
        return []
    return [(m.group(1), m.group(2).strip()) for m in _REPLY_OPTION.finditer(found.group(0))]


def _label(slot: dict[str, Any]) -> str:
    moment = datetime.fromisoformat(slot["start"])
    dentist = f", {slot['dentist']}" if slot.get("dentist") else ""
    return f"{moment:%a} {moment:%H:%M}{dentist}"


def _facts(body: str) -> list[str]:
    """The sentences of the body's first paragraph (the Default Playbook's facts)."""
    first = body.strip().split("\n\n", 1)[0]
    text = " ".join(first.split())
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]
    return [re.sub(r"^You are\b", "We are", s) for s in sentences]


__all__ = ["ClinicConversation", "ClinicFlags", "roles_of"]
