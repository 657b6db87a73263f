"""The Mantle engine's conversation: recording events, the session, routing, the skill stack.

`MantleSession` is everything of `MantleEngine` but running tools and ordered blocks (see
`_mantle_engine.py` for what the engine plays and records).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ...definitions import MantleDefinitions, Project, Skill, precondition_of
from ._mantle_brain import NO_ANSWER, Ask, Brain, Frame, MantleFlags, SkillContext, holds
from ._mantle_text import ADVERSARIAL, CANCEL, CLOSING, CORRECTING, spoken, yes_or_no
from ._mantle_words import FieldWords, field_words, skill_words

_SLOT = re.compile(r"\{(\w+)\}")


_ROUTING: dict[int, tuple[MantleDefinitions, Any, dict[str, str]]] = {}


def _routing(defs: MantleDefinitions) -> tuple[Any, dict[str, str]]:
    """What a session routes by, read once per loaded definitions (a session starts per
    case and, in verification, per mutant play; both are only read)."""
    kept = _ROUTING.get(id(defs))
    if kept is None or kept[0] is not defs:
        words = skill_words(
            defs, [s for s in defs.skills.values() if not s.hidden and not s.disabled]
        )
        preconditions = {sid: cond for sid in defs.skills if (cond := precondition_of(defs, sid))}
        kept = _ROUTING[id(defs)] = (defs, words, preconditions)
    return kept[1], kept[2]


class MantleSession:
    """One conversation with one Mantle project."""

    #: Timestamps are fixed, not the clock: the same conversation gives the same events.
    EPOCH = 1767225600.0

    def __init__(self, project: Project, brain: Brain, flags: MantleFlags | None = None) -> None:
        if project.mantle is None:
            raise ValueError(f"{project.root} is not a Mantle project")
        self.project = project
        self.defs: MantleDefinitions = project.mantle
        self.brain = brain
        self.flags = flags or MantleFlags()
        self.memory: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []
        self.stack: list[Frame] = []
        self.ended = False
        self.started = False
        self.fired: set[str] = set()
        self._words: dict[str, FieldWords] = {}
        self.skill_words, self.preconditions = _routing(self.defs)
        """The offered skills' routing words; the skills the runtime routes to only while
        their precondition holds (skill -> condition)."""

    # --- recording ------------------------------------------------------------------------

    def emit(self, event: str, **payload: Any) -> None:
        record = {"event": event, **payload, "timestamp": self.EPOCH + len(self.events)}
        self.events.append(record)

    def say(self, text: str) -> None:
        self.emit("bot", text=text, data={}, metadata={})

    def utter(self, name: str | None, skill_id: str | None = None) -> None:
        if not name:
            return
        response = self.defs.response(name)
        if response is None:
            return
        variants = response.variants
        chosen = next(
            (v for v in variants if v.condition is not None and holds(v.condition, self.memory)),
            None,
        )
        chosen = chosen or next((v for v in variants if v.condition is None), None)
        if chosen is None:
            return
        scope = response.scope if response.scope != "project" else skill_id
        text = _SLOT.sub(lambda m: self._fill(m.group(1), scope), chosen.text or "")
        buttons = [
            {"title": b.title, **({"payload": b.payload} if b.payload else {})}
            for b in chosen.buttons
        ]
        self.emit(
            "bot",
            text=" ".join(text.split()),
            data={"buttons": buttons},
            metadata={"utter_action": name},
        )

    def _fill(self, key: str, scope: str | None) -> str:
        for candidate in (
            ([f"{scope}.{key}"] if scope else [])
            + [f"project.{key}"]
            + [k for k in self.memory if k.endswith("." + key)]
        ):
            if self.memory.get(candidate) is not None:
                value = self.memory[candidate]
                return spoken(value) if isinstance(value, str) and "_" in value else str(value)
        return ""

    def remember(self, key: str, value: Any) -> None:
        self.memory[key] = value
        self.emit("memory_set", key=key, value=value)
        for frame in self.stack:
            for rule in frame.skill.utter:
                if not rule.when:
                    continue
                marker = f"{frame.skill.id}:{rule.response}"
                if marker not in self.fired and holds(rule.when, self.memory):
                    self.fired.add(marker)
                    self.utter(rule.response, frame.skill.id)

    def field_words(self, qualified: str) -> FieldWords:
        if qualified not in self._words:
            self._words[qualified] = field_words(self.defs, qualified)
        return self._words[qualified]

    # --- session --------------------------------------------------------------------------

    def start(self, initial_slots: Mapping[str, Any] | None = None) -> None:
        """Seed channel context once, before the first turn."""
        if self.started:
            return
        self.started = True
        # a project field's `initial_value` is its value from the start (no event records it)
        for key, value in self.defs.initial_memory().items():
            self.memory.setdefault(key, value)
        slots = dict(initial_slots or {})
        seeds: dict[str, Any] = {}
        others: dict[str, Any] = {}
        for key, value in slots.items():
            name = key.removeprefix("project.")
            declared = self.defs.memory.get(name)
            if "." not in name and declared is not None and declared.seed:
                seeds[name] = value
            else:
                others[key] = value
        if seeds:
            self.emit("memory_set", key="session_started_metadata", value=dict(seeds))
            for name, value in seeds.items():
                self.remember(f"project.{name}", value)
        for key, value in others.items():
            self.emit("slot", name=key, value=value)

    def receive(self, text: str) -> None:
        """One user message: the agent's whole turn, up to `action_listen`."""
        self.start()
        self.emit("user", text=text)
        if self.ended:
            self.say(
                "You're being connected to a member of our team; they will be with you shortly."
            )
        else:
            frame = self.top()
            if frame is None or frame.pending is None:
                self.idle(text)
            else:
                self.route(frame, text)
        self.emit("action", name="action_listen")

    def closed(self) -> set[str]:
        """Skills whose precondition is false now: the runtime does not route to them."""
        return {sid for sid, cond in self.preconditions.items() if not holds(cond, self.memory)}

    def top(self) -> Frame | None:
        return self.stack[-1] if self.stack else None

    def idle(self, text: str) -> None:
        if ADVERSARIAL.search(text):
            self.refuse()
            return
        skill_id, score = self.skill_words.best(text, exclude=self.closed())
        if skill_id is not None and score >= 1.0:
            self.activate(skill_id, text, entry="user")
            return
        if CLOSING.search(text) or yes_or_no(text) is False:
            self.utter_first("goodbye")
            return
        self.cannot_help()

    def utter_first(self, word: str) -> None:
        name = next((n for n in self.defs.responses if word in n), None)
        if name:
            self.utter(name)

    def cannot_help(self) -> None:
        name = next((n for n in self.defs.responses if "cannot_help" in n), None)
        if name:
            self.utter(name)
        else:
            self.say("Sorry, that's not something I can help with.")

    def refuse(self) -> None:
        self.say("I can't do that. I'll keep to what I'm allowed to help with.")

    def route(self, frame: Frame, text: str) -> None:
        ask = frame.pending
        assert ask is not None
        if ADVERSARIAL.search(text):
            self.refuse()
            ask.render()
            return
        if CORRECTING.search(text) and self.correct(frame, text):
            ask.render()  # it corrects an earlier answer: that one question is asked again
            return
        value = ask.accept(text)
        if value is not NO_ANSWER and not (ask.kind == "followup" and value is None):
            self.advance(frame, value)
            return
        if ask.kind == "followup" and CLOSING.search(text):
            self.cancel(frame, goodbye=True)
            return
        if self.correct(frame, text):
            ask.render()
            return
        if CANCEL.search(text):
            self.cancel(frame, goodbye=False)
            return
        active = {f.skill.id for f in self.stack}
        other, score = self.skill_words.best(text, exclude=active | self.closed())
        if other is not None and score >= 1.5:
            if self.defs.skills[other].is_handoff and not self.flags.ignore_handoff:
                self.interrupt(frame)
                self.activate(other, text, entry="escalation")
                return
            if not self.defs.skills[other].is_handoff and not self.flags.ignore_digression:
                self.interrupt(frame)
                self.activate(other, text, entry="digression")
                return
        if CLOSING.search(text):
            self.cancel(frame, goodbye=True)
            return
        self.cannot_help()
        ask.render()

    def correct(self, frame: Frame, text: str) -> bool:
        """A strongly stated new value for a field the skill already recorded."""
        for key, value in list(self.memory.items()):
            if not key.startswith(frame.skill.id + ".") or value is None:
                continue
            words = self.field_words(key)
            if not words.values:
                continue
            stated = words.stated(text)
            if stated is not None and stated != value:
                self.remember(key, stated)
                return True
        return False

    # --- the skill stack ------------------------------------------------------------------

    def activate(self, skill_id: str, text: str, *, entry: str) -> None:
        skill = self.defs.skills[skill_id]
        frame = Frame(skill=skill, entry=entry, context=text)
        self.stack.append(frame)
        self.emit("skill_activated", skill_id=skill_id)
        for rule in skill.utter:
            if rule.on == "activate":
                self.utter(rule.response, skill_id)
        if entry in ("user", "digression") and not self.flags.forget_reason:
            for qualified in self.question_fields(skill):
                if self.memory.get(qualified) is not None:
                    continue
                stated = self.field_words(qualified).stated(text)
                if stated is not None:
                    self.remember(qualified, stated)
        frame.procedure = self.brain.procedure(SkillContext(self, frame))
        self.advance(frame, None, first=True)

    def ran_before(self, skill_id: str) -> bool:
        """Whether `skill_id` already ran to its end in this conversation: a new request for
        it is read afresh ("now send the bag to my hotel" after the report was filed)."""
        return any(
            e.get("event") == "skill_completed" and e.get("skill_id") == skill_id
            for e in self.events
        )

    def question_fields(self, skill: Skill) -> list[str]:
        fields = [
            f"{skill.id}.{s.target}"
            for b in skill.blocks.values()
            for s in b.steps
            if s.kind == "collect"
        ]
        fields += self.brain.asked_fields(skill)
        for block in skill.blocks.values():
            for step in block.steps:
                if step.kind == "instructions":
                    waits = str(step.fields.get("complete_when") or "")
                    fields += [
                        f.qualified
                        for f in skill.memory.values()
                        if f.type == "categorical" and f.qualified in waits
                    ]
        names = self.defs.memory_view()
        return [f for f in dict.fromkeys(fields) if f in names and names[f].type == "categorical"]

    def advance(self, frame: Frame, value: Any, *, first: bool = False) -> None:
        assert frame.procedure is not None
        try:
            ask = next(frame.procedure) if first else frame.procedure.send(value)
        except StopIteration as stop:
            frame.pending = None
            self.finish(frame, str(stop.value or "completed"))
            return
        frame.pending = ask
        ask.render()

    def finish(self, frame: Frame, outcome: str) -> None:
        if outcome == "open":
            frame.pending = Ask(
                "followup", lambda: None, lambda text: None if CLOSING.search(text) else NO_ANSWER
            )
            return
        if frame in self.stack:
            self.stack.remove(frame)
        if outcome == "completed":
            self.emit("skill_completed", skill_id=frame.skill.id)
        elif outcome == "cancelled":
            self.emit("skill_cancelled", skill_id=frame.skill.id, step_id="autonomous")
        if outcome.startswith("linked:"):
            target = outcome.split(":", 1)[1]
            last = next((e["text"] for e in reversed(self.events) if e["event"] == "bot"), "")
            self.activate(target, last, entry="link")
            return
        if self.ended:
            return
        parked = self.top()
        if parked is not None and parked.parked:
            self.resume(parked)
        elif parked is None:
            self.utter_first("anything_else")

    def interrupt(self, frame: Frame) -> None:
        ask = frame.pending
        step = (ask.step if ask else None) or "autonomous"
        frame.parked = True
        self.emit("skill_interrupted", skill_id=frame.skill.id, step_id=step)
        if ask is not None and ask.block:
            self.emit(
                "ordered_block_interrupted",
                skill_id=frame.skill.id,
                block_id=ask.block,
                step_id=step,
            )

    def resume(self, frame: Frame) -> None:
        ask = frame.pending
        step = (ask.step if ask else None) or "autonomous"
        frame.parked = False
        self.emit("skill_resumed", skill_id=frame.skill.id, step_id=step)
        if ask is not None and ask.block:
            self.emit(
                "ordered_block_resumed", skill_id=frame.skill.id, block_id=ask.block, step_id=step
            )
        if ask is not None:
            ask.render()

    def cancel(self, frame: Frame, *, goodbye: bool) -> None:
        ask = frame.pending
        step = (ask.step if ask else None) or "autonomous"
        if ask is not None and ask.block:
            self.emit(
                "ordered_block_cancelled", skill_id=frame.skill.id, block_id=ask.block, step_id=step
            )
        self.emit("skill_cancelled", skill_id=frame.skill.id, step_id=step)
        self.stack.remove(frame)
        if goodbye:
            self.utter_first("goodbye")
        elif not self.stack:
            self.utter_first("anything_else")


__all__ = ["MantleSession"]
