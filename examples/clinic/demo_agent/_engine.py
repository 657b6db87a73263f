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
from datetime import datetime
from typing import Any

from evalcore.agents import AgentMessage, AgentReply, UserTurn
from evalcore.lexicon.en.playbook_prose import REPLY_OPTION as _REPLY_OPTION
from evalcore.lexicon.en.playbook_prose import REPLY_TAIL

from ._play import PlaybookPlay
from ._roles import _OPT_OUT, ClinicFlags, roles_of
from ._state import _Turn
from ._text import (
    best_route,
    breaks_rule,
    is_stop_keyword,
    route_scores,
    slot_choice,
    yes_or_no,
)
from ._world import when


class ClinicConversation(PlaybookPlay):
    """One conversation with the demo agent."""

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


def _render(template: str, inputs: dict[str, Any]) -> str:
    text = re.sub(r"(?<!\{)\{(\w+)\}(?!\})", lambda m: str(inputs.get(m.group(1), "")), template)
    return " ".join(text.replace("{{", "{").replace("}}", "}").split())


def _options(text: str) -> list[tuple[str, str]]:
    found = REPLY_TAIL.search(text)
    if not found:
        return []
    return [(m.group(1), m.group(2).strip()) for m in _REPLY_OPTION.finditer(found.group(0))]


__all__ = ["ClinicConversation", "ClinicFlags", "roles_of"]
