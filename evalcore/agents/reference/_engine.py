"""The demo agents' Mantle engine, extended with what the reference agent adds to it.

`ReferenceEngine` is `MantleEngine` plus: `call:` steps that run another skill and return
(`skill_activated` ... `skill_completed` of the callee, then the caller goes on),
block-level `tools:` run once the block's steps are done (when their arguments are known), the
test accounts (a seeded value of the failing account, or a call's argument that names it,
makes every tool fail that the definitions expect can: a documented error or an `on_failure`
response; the negative account's checks come back false), asides (a digression or hand-off
by its words after "Before that, …"; a question aside that asks for no skill gets the
cannot-help response), a correction of a value a running block collected (the block goes
on from the step after that `collect`, on the corrected value's branch), run notes, and the
hooks every `Mutant` needs. Nothing here knows a project: the brain reads the skill model.

By job: `_faulted` (fault sites, test accounts, memory and response hooks), `_listening`
(routing and answers) and this module (tools, blocks, `call:`).
"""

from __future__ import annotations

from typing import Any

from ...definitions import Step
from ...definitions.conditions import condition_keys
from ...definitions.skill_model import UNKNOWN, code_facts, qualify, skipped_keys, skipped_tools
from ._faulted import FAILING_ACCOUNT, NEGATIVE_ACCOUNT, account_of
from ._faults import returned, wrong_value
from ._listening import Listening
from ._mantle_engine import CORRECTING, Frame, Procedure, SkillContext, ToolResult, holds
from ._procedure import Runner
from ._shared import once
from ._variants import reformatted, said_date


class Reroute(Exception):
    """Thrown into a skill's procedure where the user corrects `key`, a value a running
    block collected: the block goes on from the step after that `collect`."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _collected_at(block: Any, key: str, skill_id: str, defs: Any) -> int | None:
    """The index of the block's `collect` step for `key`, else None."""
    return next(
        (
            i
            for i, step in enumerate(block.steps)
            if step.kind == "collect"
            and qualify(str(step.target).removeprefix("session."), skill_id, defs) == key
        ),
        None,
    )


class ReferenceEngine(Listening):
    """The reference agent's engine: `Listening` plus tools, blocks and `call:` steps."""

    # --- corrections -------------------------------------------------------------------------

    def route(self, frame: Frame, text: str) -> None:
        if frame.pending is not None and CORRECTING.search(text) and self.rerouted(frame, text):
            return
        super().route(frame, text)

    def rerouted(self, frame: Frame, text: str) -> bool:
        """A correction ("Sorry, I meant cancelled") of a value a running block collected:
        recorded, and the block goes on from the step after its `collect`, so what the
        wrong value led to runs again with the right one (its branch, the tool that took
        it), as the runtime's correction does; what already ran stays done. False where
        the text corrects no such value (a correction in prose keeps its question)."""
        skill = frame.skill
        running = [skill.blocks[b] for b in frame.blocks if b in skill.blocks]
        for key, value in list(self.memory.items()):
            if not key.startswith(skill.id + ".") or value is None:
                continue
            if not any(_collected_at(b, key, skill.id, self.defs) is not None for b in running):
                continue
            words = self.field_words(key)
            stated = words.stated(text) if words.values else None
            if stated is None or stated == value or frame.procedure is None:
                continue
            self.remember(key, stated)
            try:
                ask = frame.procedure.throw(Reroute(key))
            except StopIteration as stop:
                frame.pending = None
                self.finish(frame, str(stop.value or "completed"))
                return True
            frame.pending = ask
            ask.render()
            return True
        return False

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
        tool = self.defs.tools_view(skill.id).get(name)
        arguments = dict(arguments)
        if self.fault("wrong_argument", name) and arguments:
            chosen = self.told_argument(skill.id, arguments)
            arguments[chosen] = wrong_value(arguments[chosen])
        dated = self.said_dates(arguments)
        if dated and self.freedom("reformat_argument", name):
            arguments.update({k: reformatted(arguments[k]) for k in dated})
        ctx = SkillContext(self, frame)
        silent = self.fault("fail_silently", name)
        if silent or self.flags.fail_tool == name or self.fails(skill.id, name, arguments):
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
            self.runtime_writes += 1  # the tool's code writes these, in its own order
            try:
                for key, value in outcome.writes.items():
                    self.remember(key if "." in key else f"{skill.id}.{key}", value)
            finally:
                self.runtime_writes -= 1
        elif not silent and tool is not None:
            self.failure_writes(skill.id, tool)
        if constraint is not None:
            failed = outcome.error is not None and not silent
            self.utter(constraint.on_failure if failed else constraint.on_success, skill.id)
        told = getattr(self.backend, "told", None)
        said = told(name, outcome) if told is not None else None
        if said:  # a demo backend's result in the words a model would read it out
            self.say(said)
        if silent:
            return ToolResult(result=None)
        return outcome

    def failure_writes(self, skill_id: str, tool: Any) -> None:
        """The literals the tool's error branch writes (`claim_status` "5" where no claim is
        found): the code makes them on the way to its error result, and the skill's prose may
        branch on them."""
        self.runtime_writes += 1
        try:
            for write in code_facts(self.project, tool).writes:
                if write.failure and write.value is not UNKNOWN:
                    self.remember(qualify(write.key, skill_id, self.defs), write.value)
        finally:
            self.runtime_writes -= 1

    def said_dates(self, arguments: dict[str, Any]) -> list[str]:
        """The arguments holding a date the user said (no tool result returned it)."""
        dated = [(key, value) for key, value in arguments.items() if said_date(value) is not None]
        if not dated:  # most calls: no result needs reading
            return []
        results = [e.get("result") for e in self.events if e["event"] == "tool_executed"]
        return [key for key, value in dated if not any(returned(r, value) for r in results)]

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

    def fails(self, skill_id: str, name: str, arguments: dict[str, Any]) -> bool:
        """The failing test account (the session's, or an argument of this call that names
        it: a bag tag `SK550150`): tools with a documented error result error."""
        told = {v for v in arguments.values() if isinstance(v, str)}
        if self.account != "failing" and account_of(told) != "failing":
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

    def question_fields(self, skill: Any) -> list[str]:
        """The fields a request for the skill may state, read from the definitions and the
        skill model only: once per loaded project and skill (each play activates skills)."""
        build = super().question_fields
        return list(once("question-fields", self.project, skill.id, lambda: build(skill)))

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
            try:
                outcome = yield from self.run_step(ctx, block, step)
            except Reroute as back:
                at = _collected_at(block, back.key, skill.id, self.defs)
                if at is None:  # a block further out collected it
                    ctx.frame.blocks.pop()
                    raise
                target = self.next_step(block.steps[at], at, ids)
                if target is None:
                    break
                index = target
                continue
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
        unused = skipped_tools(block, visited)
        yield from Runner(self.brain, ctx).step_tools(block_id, None, "block_tools", unused)
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
        runtime = step.kind == "set_memory"  # the runtime's writes, in order (no question)
        self.runtime_writes += runtime
        try:
            outcome = yield from super().run_step(ctx, block, step)
        finally:
            self.runtime_writes -= runtime
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
