"""The demo agents' Mantle engine, extended with what the reference agent adds to it.

`ReferenceEngine` is `MantleEngine` plus: `call:` steps that run another skill and return
(`skill_activated` ... `skill_completed` of the callee, then the caller goes on), block-level
`tools:` run once the block's steps are done (when their arguments are known), the test
accounts (a seeded value of the failing account makes every tool fail that the definitions
expect can: a documented error or an `on_failure` response; the negative account's checks
come back false), asides (a digression or hand-off by its words after "Before that, …"; a
question aside that asks for no skill gets the cannot-help response), run notes, and the
hooks every `Mutant` needs. Nothing here knows a project: the brain reads the skill model.
"""

from __future__ import annotations

import re
from typing import Any

from ...definitions import Project, Step
from ...definitions.conditions import condition_keys
from ...definitions.skill_model import skipped_keys
from ..demo._mantle_engine import (
    ADVERSARIAL,
    NO_ANSWER,
    Ask,
    Frame,
    MantleEngine,
    MantleFlags,
    Procedure,
    SkillContext,
    ToolResult,
    holds,
    skill_words,
    stems,
)
from ._asking import question_for
from ._brain import said_value
from ._faults import returned, wrong_value
from ._mutants import Mutant
from ._procedure import Runner
from ._reach import WatchedFlags

#: Seeded values of the offline drafter's test accounts (see agentflows' test data).
_PERSON = re.compile(
    r"\b(?:talk|speak|chat)\s+(?:to|with)\s+(?:a\s+|an\s+|the\s+|my\s+|someone|somebody)?"
    r"(?:person|human|someone|somebody|agent|representative|specialist|adjuster|staff|team)|"
    r"\b(?:real|live)\s+(?:person|human|agent)\b|\btransfer me\b",
    re.I,
)
#: A message that turns to something else before answering ("Before that, ...").
_ASIDE = re.compile(
    r"^\s*(?:before that|by the way|one more thing|actually|wait|also|first|"
    r"quick question|unrelated|random question|off topic)\b",
    re.I,
)
#: A question back to the agent that states no value ("Do you know a good recipe for
#: lasagne?"): not an answer to the question asked, so the agent says it cannot help.
_QUESTION_BACK = re.compile(
    r"^\s*(?:do|does|can|could|would|will|what|how|why|who|where|is|are)\b[^?\d]*\?\s*$", re.I
)
FAILING_ACCOUNT = "+15550150"
NEGATIVE_ACCOUNT = "+15550161"


class ReferenceEngine(MantleEngine):
    def __init__(self, project: Project, brain: Any, mutant: Mutant | None = None) -> None:
        kind = mutant.kind if mutant else None
        flags = MantleFlags(
            ignore_digression=kind == "ignore_digression",
            ignore_handoff=kind == "never_handoff",
        )
        super().__init__(project, brain, flags)
        #: Every fault site the run passed (see `fault` and `_reach.py`): a mutant whose
        #: sites a run never passed plays that run exactly like the reference agent.
        self.reached: set[tuple[str, str | None]] = set()
        self.flags = WatchedFlags(flags, self.reached)  # type: ignore[assignment]
        self.mutant = mutant
        # `hidden` keeps a skill out of what the agent offers, not out of routing: a
        # hidden skill nobody calls is reached by the user's words alone
        self.skill_words = skill_words(
            self.defs, [s for s in self.defs.skills.values() if not s.disabled]
        )
        self.notes: list[str] = []
        self.account: str | None = None

    def fault(self, kind: str, target: str | None = None) -> bool:
        """Whether the mutant's fault applies here; every mutant-dependent choice of a run
        asks this (or reads `flags`), so the site is noted in `reached`."""
        self.reached.add((kind, target))
        return (
            self.mutant is not None
            and self.mutant.kind == kind
            and (target is None or self.mutant.target == target)
        )

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    # --- session ----------------------------------------------------------------------------

    def start(self, initial_slots: Any = None) -> None:
        values = {str(v) for v in dict(initial_slots or {}).values()}
        if FAILING_ACCOUNT in values:
            self.account = "failing"
        elif NEGATIVE_ACCOUNT in values:
            self.account = "negative"
        super().start(initial_slots)

    # --- routing ----------------------------------------------------------------------------

    def handoff_skill(self, text: str) -> str | None:
        """The hand-off skill a request for a person goes to (best by words, else the first)."""
        active = {f.skill.id for f in self.stack}
        handoffs = [
            s.id
            for s in self.defs.skills.values()
            if s.is_handoff and not s.disabled and s.id not in active
        ]
        if not handoffs or not _PERSON.search(text) or self.fault("never_handoff"):
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
        if ask is not None and other is not None and ask.accept(text) is not NO_ANSWER:
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
        if not _ASIDE.search(text):
            return None
        active = {f.skill.id for f in self.stack}
        # the aside's own words ("quick question") ask for nothing
        other, score = self.skill_words.best(_ASIDE.sub("", text, count=1), exclude=active)
        return other if other is not None and score >= 1.0 else None

    def off_topic(self, text: str) -> bool:
        """A question aside that asks for no skill ("Quick question: what's the weather
        like tomorrow?"): the agent says it cannot help instead of routing it."""
        if not (_ASIDE.search(text) or _QUESTION_BACK.match(text)) or "?" not in text:
            return False
        active = {f.skill.id for f in self.stack}
        _, score = self.skill_words.best(_ASIDE.sub("", text, count=1), exclude=active)
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
            if skill_id is not None:
                self.activate(skill_id, text, entry="user")
                return
        super().idle(text)

    def routed(self, text: str) -> str | None:
        """The skill a message asks for: description words weighted by how few skills use
        them, and a skill whose whole name the message says ("refill a prescription")
        first."""
        said = set(stems(text))
        scores = self.skill_words.scores(text)
        for skill_id in scores:
            name = set(stems(self.defs.skills[skill_id].name or ""))
            if name and name <= said:
                scores[skill_id] += 1.0 + 0.1 * len(name)
        best = max(sorted(scores), key=lambda k: scores[k], default=None)
        return best if best is not None and scores[best] >= 1.0 else None

    # --- memory and responses ---------------------------------------------------------------

    def remember(self, key: str, value: Any) -> None:
        if self.fault("forget_memory", key):
            return
        if self.fault("wrong_enum", key):
            values = list(self.field_words(key).values)
            if value in values and len(values) > 1:
                value = values[(values.index(value) + 1) % len(values)]
        super().remember(key, value)

    def utter(self, name: str | None, skill_id: str | None = None) -> None:
        if name:
            self.reached.add(("utter", name))
        if name and self.mutant is not None and self.mutant.kind == "drop_on_success":
            skill = self.defs.skills.get(self.mutant.skill or "")
            constraint = skill.tool_constraints.get(self.mutant.target or "") if skill else None
            if constraint is not None and constraint.on_success == name:
                return
        super().utter(name, skill_id)

    # --- tools -------------------------------------------------------------------------------

    def early_tool(self, skill_id: str) -> str | None:
        """The tool an `ignore_requires` mutant runs as the skill starts, if any."""
        self.reached.add(("start", skill_id))
        early = self.mutant
        if early is not None and early.kind == "ignore_requires" and early.skill == skill_id:
            return str(early.target)
        return None

    def run_tool(self, frame: Frame, name: str, arguments: dict[str, Any]) -> ToolResult | None:
        skill = frame.skill
        constraint = skill.tool_constraints.get(name)
        requires = constraint.requires if constraint is not None else None
        if (
            requires
            and not holds(requires, self.memory)
            and not self.fault("ignore_requires", name)
        ):
            self.brain.uncertain_about(self, skill.id, f"requires of {name}")
            return None
        tool = self.defs.tools_for(skill.id).get(name)
        arguments = dict(arguments)
        if self.fault("wrong_argument", name) and arguments:
            chosen = self.told_argument(skill.id, arguments)
            arguments[chosen] = wrong_value(arguments[chosen])
        ctx = SkillContext(self, frame)
        silent = self.fault("fail_silently", name)
        if silent or self.fails(skill.id, name):
            outcome = ToolResult(error=f"{name} is unavailable")
        else:
            outcome = self.brain.tool(ctx, name, arguments)
        payload: dict[str, Any] = {
            "tool_name": name,
            "arguments": arguments,
            "source": "mcp" if tool is not None and tool.scope == "mcp" else "local",
            "result": None if outcome.error else outcome.result,
            "is_error": outcome.error is not None,
            "error_message": outcome.error,
            "metadata": {"skill_id": skill.id},
        }
        if tool is not None and tool.scope == "mcp":
            payload["mcp_server"] = tool.mcp_server
        self.emit("tool_executed", **payload)
        frame.results.setdefault("_ran", []).append(name)
        if outcome.error is None:
            frame.results[name] = outcome.result
            for key, value in outcome.writes.items():
                self.remember(key if "." in key else f"{skill.id}.{key}", value)
        if constraint is not None:
            failed = outcome.error is not None and not silent
            self.utter(constraint.on_failure if failed else constraint.on_success, skill.id)
        if silent:
            return ToolResult(result=None)
        return outcome

    def told_argument(self, skill_id: str, arguments: dict[str, Any]) -> str:
        """The argument the fault goes into: one whose value the user gave (a field the
        skill asks for, not a record an earlier tool returned that the user picked), which
        is what a case can check; else the first."""
        model = self.brain.model(skill_id)
        asked = {f.qualified for f in model.fields} if model is not None else set()
        results = [e.get("result") for e in self.events if e["event"] == "tool_executed"]
        for key, value in arguments.items():
            if value is None or not any(self.memory.get(k) == value for k in asked):
                continue
            if not any(returned(r, value) for r in results):
                return key
        return next(iter(arguments))

    def fails(self, skill_id: str, name: str) -> bool:
        """The failing test account: tools with a documented error result error."""
        if self.account != "failing":
            return False
        model = self.brain.model(skill_id)
        use = model.tool(name) if model is not None else None
        if use is None:
            return False
        # every tool the definitions expect can fail does (a documented error, or an
        # `on_failure` response the skill says when it does)
        constraint = self.defs.skills[skill_id].tool_constraints.get(name)
        return bool(use.error_results) or bool(constraint is not None and constraint.on_failure)

    def gated(self, ctx: SkillContext, name: str, arguments: Any) -> Procedure:
        if not self.fault("skip_confirmation", name):
            outcome = yield from super().gated(ctx, name, arguments)
            return outcome
        constraint = ctx.skill.tool_constraints.get(name)
        if constraint is not None and not holds(constraint.requires, self.memory):
            return "blocked"
        return self.run_gated(ctx, name, arguments)

    def answers(self, text: str) -> Any:
        """A free-text answer, unless the message asks for another skill (a digression or
        a hand-off the engine then routes) or is an attack it refuses."""
        if self.handoff_skill(text) is not None:
            return NO_ANSWER
        if self.aside_for(text) is not None:
            return NO_ANSWER
        if _QUESTION_BACK.match(text) or self.off_topic(text):
            return NO_ANSWER
        return text

    def read_field(self, key: str, text: str) -> Any:
        if self.answers(text) is NO_ANSWER:
            return NO_ANSWER
        value = super().read_field(key, text)
        declared = self.defs.memory_names().get(key)
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
        declared = self.defs.memory_names().get(missing[0])
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

    # --- blocks and other skills -------------------------------------------------------------

    def run_block(self, ctx: SkillContext, block_id: str) -> Procedure:
        """The runtime's block run, with the block's `tools:` offered before it completes."""
        skill = ctx.skill
        block = skill.blocks[block_id]
        ctx.frame.blocks.append(block_id)
        self.emit("ordered_block_entered", skill_id=skill.id, block_id=block_id)
        ids = [s.id for s in block.steps]
        index, last, guard = 0, None, 0
        visited: set[str] = set()
        while 0 <= index < len(block.steps) and guard < 200:
            guard += 1
            step = block.steps[index]
            if step.kind == "end" or step.id == "END":
                break
            if self.fault("skip_step", f"{skill.id}.{block_id}.{step.id}"):
                index += 1  # left out: the block goes on at the following step
                continue
            last = step.id
            visited.add(step.id)
            if step.kind == "link" and not self._skip_link(step):
                ctx.frame.blocks.pop()
                self.emit(
                    "ordered_block_completed", skill_id=skill.id, block_id=block_id, step_id=step.id
                )
                return f"linked:{step.target}"
            outcome = yield from self.run_step(ctx, block, step)
            if outcome.startswith("linked:"):
                ctx.frame.blocks.pop()
                return outcome
            if ctx.frame.scratch.get("_stopped"):
                ctx.frame.blocks.pop()
                return "done"
            target = self.next_step(step, index, ids)
            if target is None:
                break
            index = target
        # what the steps this run left out gather: the prose does not play them (a branch's END)
        skipped = skipped_keys(block, visited, skill.id)
        ctx.frame.scratch.setdefault("_skipped", set()).update(skipped)
        yield from Runner(self.brain, ctx).step_tools(block_id, None, "block_tools")
        ctx.frame.blocks.pop()
        if not ctx.frame.scratch.get("_stopped"):
            self.emit("ordered_block_completed", skill_id=skill.id, block_id=block_id, step_id=last)
        return "done"

    def _skip_link(self, step: Step) -> bool:
        target = self.defs.skills.get(str(step.target))
        return self.fault("never_handoff") and target is not None and target.is_handoff

    def run_step(self, ctx: SkillContext, block: Any, step: Step) -> Procedure:
        if step.kind == "link" and self.fault("never_handoff"):
            target = self.defs.skills.get(str(step.target))
            if target is not None and target.is_handoff:
                return "done"
        called = str(step.target)
        if step.kind == "call" and called not in ctx.skill.blocks and called in self.defs.skills:
            outcome = yield from self.call_skill(ctx, called)
            return outcome
        if step.kind == "execute_tool" and isinstance(step.next, list):
            keys = {k for b in step.next for k in condition_keys(b.condition)}
            ctx.frame.scratch["_branching"] = keys
        outcome = yield from super().run_step(ctx, block, step)
        ctx.frame.scratch.pop("_branching", None)
        if step.kind == "execute_tool":
            last = next((e for e in reversed(self.events) if e["event"] == "tool_executed"), None)
            if last is not None and last["tool_name"] == str(step.target) and last["is_error"]:
                ctx.frame.scratch.setdefault("_stopped", "failed")
        return outcome

    def call_skill(self, ctx: SkillContext, skill_id: str) -> Procedure:
        """Run another skill and come back (`call:`); its questions wait in the caller."""
        skill = self.defs.skills[skill_id]
        frame = Frame(skill=skill, entry="call", context=ctx.context)
        self.emit("skill_activated", skill_id=skill_id)
        for rule in skill.utter:
            if rule.on == "activate":
                self.utter(rule.response, skill_id)
        outcome = yield from self.brain.procedure(SkillContext(self, frame))
        if str(outcome).startswith("linked:"):
            return outcome
        if outcome == "completed":
            self.brain.uncertain_about(self, skill_id, "completion")
            self.emit("skill_completed", skill_id=skill_id)
        return "done"

    def finish(self, frame: Frame, outcome: str) -> None:
        if outcome.startswith("linked:") and self.fault("never_handoff"):
            target = self.defs.skills.get(outcome.split(":", 1)[1])
            if target is not None and target.is_handoff:
                outcome = "completed"
        if outcome == "completed":  # without complete_when, the run decided it is done
            self.brain.uncertain_about(self, frame.skill.id, "completion")
        super().finish(frame, outcome)


__all__ = ["FAILING_ACCOUNT", "NEGATIVE_ACCOUNT", "ReferenceEngine"]
