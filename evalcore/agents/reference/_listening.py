"""What a message means to the reference agent mid-skill or idle: routing and answers.

Hand-offs by a request for a person, asides (a digression or hand-off by its words after
"Before that, …"), a question aside that asks for no skill (the cannot-help response),
routing by a skill's whole name, and free-text answers read only when the message asks for
nothing else.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...definitions import Step, resolver_of
from ...lexicon.en.user_detours import ASIDE as _ASIDE
from ...lexicon.en.user_detours import PERSON as _PERSON
from ...lexicon.en.user_detours import QUESTION_BACK as _QUESTION_BACK
from ._asking import question_for
from ._brain import said_value
from ._faulted import FaultedEngine
from ._mantle_engine import ADVERSARIAL, CANCEL, NO_ANSWER, Ask, Frame, Procedure, SkillContext
from ._mantle_words import routed_skill, routing_ties


# What these patterns find in a message, kept per text: every verification play of a case
# reads the same messages again (pure functions of the text).
@lru_cache(maxsize=4096)
def _asks_person(text: str) -> bool:
    return _PERSON.search(text) is not None


@lru_cache(maxsize=4096)
def _aside(text: str) -> str | None:
    """The message without its aside opening ("Before that, …"), None without one."""
    return _ASIDE.sub("", text, count=1) if _ASIDE.search(text) else None


@lru_cache(maxsize=4096)
def _questions_back(text: str) -> bool:
    return _QUESTION_BACK.match(text) is not None


def _answers(ask: Ask, text: str) -> bool:
    """Whether `text` answers `ask`: a yes/no question takes any reply, but an aside that
    says neither yes nor no ("Before that, can you …?") answers nothing."""
    value = ask.accept(text)
    return value is not NO_ANSWER and not (ask.kind == "question" and value is None)


class Listening(FaultedEngine):
    """`FaultedEngine` with the reference agent's routing and reading of answers."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.waiting: tuple[str, str, str] | None = None
        """(resolver, skill, request): a request for a skill whose precondition was false,
        held while its resolver (`resolve_with`) runs; the skill takes it up once the
        resolver made the condition true."""

    # --- routing ----------------------------------------------------------------------------

    def handoff_skill(self, text: str) -> str | None:
        """The hand-off skill a request for a person goes to (best by words, else the first)."""
        if not _asks_person(text):  # most messages ask for no person: nothing else to read
            return None
        shut = {f.skill.id for f in self.stack} | self.closed()
        handoffs = [
            s.id
            for s in self.defs.skills.values()
            if s.is_handoff and not s.disabled and s.id not in shut
        ]
        if not handoffs or self.fault("never_handoff") or self.flags.ignore_handoff:
            return None
        scores = self.skill_words.scores(text)
        return max(handoffs, key=lambda s: (scores.get(s, 0.0), -handoffs.index(s)))

    def route(self, frame: Frame, text: str) -> None:
        target = self.handoff_skill(text)
        if target is not None:
            self.interrupt(frame)
            self.activate(target, text, entry="escalation")
            return
        other = self.aside_for(text)
        ask = frame.pending
        if ask is not None and other is not None and _answers(ask, text):
            other = None  # "Actually no, don't order it" answers the question asked
        if other is not None and not ADVERSARIAL.search(text):
            handoff = self.defs.skills[other].is_handoff
            if handoff and not self.flags.ignore_handoff:
                self.interrupt(frame)
                self.activate(other, text, entry="escalation")
                return
            if not handoff and not self.flags.ignore_digression:
                self.interrupt(frame)
                self.activate(other, text, entry="digression")
                return
        super().route(frame, text)

    def aside_for(self, text: str) -> str | None:
        """The other skill an aside turns to mid-skill ("Before that, brief me."): its
        words are enough after an aside, where an answer needs a stronger ask."""
        rest = _aside(text)
        if rest is None:
            return None
        shut = {f.skill.id for f in self.stack} | self.closed()
        # the aside's own words ("quick question") ask for nothing; the rest is routed as an
        # opening message is (a skill's whole name counts: "I need the vet on call")
        return routed_skill(self.defs, self.skill_words, rest, shut)

    def off_topic(self, text: str) -> bool:
        """A question aside that asks for no skill ("Quick question: what's the weather
        like tomorrow?"): the agent says it cannot help instead of routing it. A question
        that says one of a skill's quoted requests word for word asks for that skill."""
        rest = _aside(text)
        if not (rest is not None or _questions_back(text)) or "?" not in text:
            return False
        active = {f.skill.id for f in self.stack}
        asked = text if rest is None else rest
        if self.skill_words.phrased_in(asked) - active - self.closed():
            return False  # a request the description quotes ("What's my balance?")
        _, score = self.skill_words.best(asked, exclude=active)
        return score < 1.5

    def idle(self, text: str) -> None:
        target = self.handoff_skill(text)
        if target is not None:
            self.activate(target, text, entry="user")
            return
        if self.off_topic(text):
            self.cannot_help()
            return
        if not ADVERSARIAL.search(text):
            skill_id = self.routed(text)
            shut = skill_id is not None and skill_id in self.closed()
            resolver = resolver_of(self.defs, skill_id) if skill_id and shut else None
            if skill_id is not None and resolver is not None:
                # its precondition is false: the runtime runs the resolver (`resolve_with`)
                # first and keeps the request for the skill
                self.waiting = (resolver, skill_id, text)
                self.activate(resolver, text, entry="user")
                return
            if skill_id is not None:
                self.activate(skill_id, text, entry="user")
                return
        super().idle(text)

    def resolvable(self) -> set[str]:
        """The skills whose precondition is false but names an open resolver skill: a
        request still routes to them (the runtime runs the resolver first)."""
        closed = self.closed()
        return {s for s in closed if (r := resolver_of(self.defs, s)) and r not in closed}

    def finish(self, frame: Frame, outcome: str) -> None:
        waiting, self.waiting = self.waiting, None
        resolved = (
            waiting is not None
            and frame.skill.id == waiting[0]
            and outcome in ("completed", "done")
            and waiting[1] not in self.closed()
        )
        if not resolved or waiting is None:
            self.waiting = waiting if outcome == "open" else None
            super().finish(frame, outcome)
            return
        # the resolver is done and the condition holds: the held request goes on, without
        # asking whether there is anything else
        if frame in self.stack:
            self.stack.remove(frame)
        if outcome == "completed":
            self.brain.uncertain_about(self, frame.skill.id, "completion")
            self.emit("skill_completed", skill_id=frame.skill.id)
        self.activate(waiting[1], waiting[2], entry="user")

    def routed(self, text: str) -> str | None:
        """The skill a message asks for, among the open ones and those a resolver skill
        opens (see `routed_skill`, `resolvable`); where other skills match it exactly as
        well, the run says so: which one a real router takes is not in the definitions."""
        closed = self.closed() - self.resolvable()
        skill_id = routed_skill(self.defs, self.skill_words, text, closed)
        tied = routing_ties(self.defs, self.skill_words, text, closed) if skill_id else []
        if tied:
            named = [f"skills/{s}/" for s in tied]
            self.note(
                f"{', '.join(named[:-1])} and {named[-1]} match the message equally "
                f"(the reference agent routes to {skill_id} by name order)"
            )
        return skill_id

    def answers(self, text: str) -> Any:
        """A free-text answer, unless the message asks for another skill (a digression or
        a hand-off the engine then routes), is an attack it refuses or calls the skill off
        (the engine then cancels it)."""
        if self.handoff_skill(text) is not None:
            return NO_ANSWER
        if self.aside_for(text) is not None:
            return NO_ANSWER
        if _questions_back(text) or self.off_topic(text) or CANCEL.search(text):
            return NO_ANSWER  # "Never mind, cancel that." is not the card they picked
        return text

    def read_field(self, key: str, text: str) -> Any:
        if self.answers(text) is NO_ANSWER:
            return NO_ANSWER
        value = super().read_field(key, text)
        declared = self.defs.memory_field(key)
        if declared is not None and declared.type not in ("text", "any"):
            return value
        return said_value(text, key.rsplit(".", 1)[-1]) if isinstance(value, str) else value

    def generic_instructions(self, ctx: SkillContext, block: Any, step: Step) -> Procedure:
        """Ask for what `complete_when` waits for, worded as a question (see `_asking`)."""
        waits = str(step.fields.get("complete_when") or "")
        keys = [f.qualified for f in ctx.skill.memory.values() if f.qualified in waits]
        missing = [k for k in keys if self.memory.get(k) is None]
        if not missing:
            return "done"
        words = missing[0].rsplit(".", 1)[-1].replace("_", " ")
        declared = self.defs.memory_field(missing[0])
        boolean = declared is not None and declared.type == "bool"
        question = question_for(str(step.target or ""), words, boolean=boolean)
        answer = yield Ask(
            "instructions",
            lambda: self.say(question),
            self.answers,
            step=step.id,
            block=block.id,
        )
        for key in missing:
            value = self.read_field(key, answer)
            self.remember(key, said_value(answer, key) if value is NO_ANSWER else value)
        return "done"


__all__ = ["Listening"]
