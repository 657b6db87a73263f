"""How the clinic demo plays the active Playbook: taking a new person's details, starting
the job, offering and picking times, confirming, answering from the Default Playbook."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from evalcore.lexicon.en.customer_replies import PAIN
from evalcore.lexicon.en.playbook_prose import YOU_ARE

from ._state import ConversationState
from ._text import choice_in, content_words, full_name, times_in, weekday_in
from ._world import when


class PlaybookPlay(ConversationState):
    """The steps of the active Playbook, built on the conversation's state."""

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

    # --- helpers ------------------------------------------------------------------------

    def _detect_service(self, text: str) -> None:
        tool = self.defs.tools.get(self.roles[self.active].availability or "")
        choices = ((tool.parameters.get("service") or {}).get("choices") or []) if tool else []
        lowered = text.lower().replace("-", "")
        found = next((c for c in choices if c in lowered), None)
        if found is None and PAIN.search(lowered):
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


def _label(slot: dict[str, Any]) -> str:
    moment = datetime.fromisoformat(slot["start"])
    dentist = f", {slot['dentist']}" if slot.get("dentist") else ""
    return f"{moment:%a} {moment:%H:%M}{dentist}"


def _facts(body: str) -> list[str]:
    """The sentences of the body's first paragraph (the Default Playbook's facts)."""
    first = body.strip().split("\n\n", 1)[0]
    text = " ".join(first.split())
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]
    return [YOU_ARE.sub("We are", s) for s in sentences]


__all__ = ["PlaybookPlay"]
