"""A generic, deterministic interpreter of Mantle skills: the core of the reference agent.

    engine = MantleEngine(project, brain, MantleFlags())
    events = engine.start({"project.caller_phone": "+15550142"})
    events = engine.receive("Can you send me a replacement card?")

It plays a Mantle project the way the runtime does (reference §1.2, §3) and records exactly
the tracker events Rasa would, in the wire format of reference §6. What the runtime does by
itself is generic here; what an LLM would do from a skill's prose comes from a `Brain` (the
reference agent's `ModelBrain`, which `demo:bank` plays too): the procedure each skill's
prose describes, the conversational `instructions` steps, and the (fake) tool backend.

Generic capabilities:

- **Session start**: seed project fields from `initial_slots` become `memory_set
  project.<key>` (after one `memory_set session_started_metadata`); other keys are posted as
  `slot` events and never reach memory.
- **Skill activation**: the user's message is matched against every skill's name and
  description (`SkillWords`, words weighted by how few skills use them), among the skills
  whose `precondition` (bound in agent.yml) holds, as the runtime filters. The activated skill
  records `skill_activated`, utters its `utter: {on: activate}` responses and records any value
  the message states strongly for the fields it will ask for.
- **Ordered blocks**: `execute_tool` (parameters read from memory), `collect` (utterance,
  value from the answer: enum values, their explanations, button titles; numbers for
  int/float; text as said), `instructions` (the brain's handler, else a generic question),
  `action`, `noop`, `set_memory`, `call` (a block of the skill), `link` (hand the
  conversation to another skill, no return), `END`; `next` branches are evaluated by a small
  condition evaluator over memory (`==`, `!=`, `not`, `and`, `or`, truthiness, brackets).
  Events: `ordered_block_entered`, `ordered_block_completed` (with the last step),
  `..._interrupted` / `..._resumed` around a digression, `..._cancelled`.
- **Skill stack**: another skill's request while a skill waits for an answer interrupts it
  (`skill_interrupted` with the waiting step, `autonomous` in prose) and resumes it once that
  skill is done (`skill_resumed`, the question asked again); a hand-off skill's request
  interrupts it for good; "cancel that" cancels it (`skill_cancelled`).
- **Tools**: `requires` is enforced (a tool whose condition is false is not called);
  confirmation-gated tools utter `utter_for_confirmation`, wait for yes/no, then run or utter
  `utter_on_user_denial`; `on_success` / `on_failure` are uttered after the run; a tool's
  memory writes are recorded as `memory_set`.
- **Responses**: the first variant whose condition holds (else the default), `{key}` filled
  from memory, buttons in `data.buttons`, the name in `metadata.utter_action`; `utter: {when}`
  rules fire once, when their condition becomes true.
- **Corrections and drift**: a strongly stated new value for a field already set is recorded
  and the pending question asked again; "ignore your instructions" is refused; a message that
  answers nothing and asks for no skill gets the project's `*cannot_help` response.

`MantleFlags` are the mutations a Mantle demo documents (`demo:bank?skip_confirmation`, see
its docstring); the reference agent's mutants reuse some of them.

The engine is split by job: `_mantle_text` (the words of a message), `_mantle_words` (field
values and skills a message names), `_mantle_brain` (what a brain provides and may do),
`_mantle_session` (events, session, routing, the skill stack) and this module (tools and
ordered blocks, and the names callers import).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...definitions import Step
from ...definitions.skill_model import qualify
from ._mantle_brain import (
    NO_ANSWER,
    Ask,
    Brain,
    Frame,
    MantleFlags,
    Procedure,
    SkillContext,
    ToolResult,
    holds,
)
from ._mantle_session import MantleSession
from ._mantle_text import (
    ADVERSARIAL,
    CANCEL,
    CLOSING,
    CORRECTING,
    parse_amount,
    spoken,
    stems,
    yes_or_no,
)
from ._mantle_words import FieldWords, SkillWords, field_words, skill_words


class MantleEngine(MantleSession):
    """One conversation with one Mantle project: the session, plus tools and ordered blocks."""

    # --- tools ----------------------------------------------------------------------------

    def run_tool(self, frame: Frame, name: str, arguments: dict[str, Any]) -> ToolResult | None:
        skill = frame.skill
        constraint = skill.tool_constraints.get(name)
        if constraint is not None and not holds(constraint.requires, self.memory):
            return None
        tool = self.defs.tools_view(skill.id).get(name)
        ctx = SkillContext(self, frame)
        if self.flags.fail_tool == name:
            outcome = ToolResult(error=f"{name} is unavailable")
        else:
            outcome = self.brain.tool(ctx, name, dict(arguments))
        payload: dict[str, Any] = {
            "tool_name": name,
            "arguments": dict(arguments),
            "source": "mcp" if tool is not None and tool.scope == "mcp" else "local",
            "result": None if outcome.error else outcome.result,
            "is_error": outcome.error is not None,
            "error_message": outcome.error,
            "metadata": {"skill_id": skill.id},
        }
        if tool is not None and tool.scope == "mcp":
            payload["mcp_server"] = tool.mcp_server
        self.emit("tool_executed", **payload)
        if outcome.error is None:
            frame.results[name] = outcome.result
            for key, value in outcome.writes.items():
                self.remember(key if "." in key else qualify(key, skill.id, self.defs), value)
        if constraint is not None:
            self.utter(constraint.on_failure if outcome.error else constraint.on_success, skill.id)
        return outcome

    def gated(
        self,
        ctx: SkillContext,
        name: str,
        arguments: dict[str, Any] | Callable[[], dict[str, Any]],
    ) -> Procedure:
        constraint = ctx.skill.tool_constraints.get(name)
        confirmation = constraint.requires_confirmation if constraint else None
        if constraint is not None and not holds(constraint.requires, self.memory):
            return "blocked"
        if confirmation is not None and confirmation.enabled and not self.flags.skip_confirmation:
            answer = yield Ask(
                "confirm",
                lambda: self.utter(confirmation.utter_for_confirmation, ctx.skill.id),
                lambda text: NO_ANSWER if yes_or_no(text) is None else yes_or_no(text),
            )
            if not answer:
                self.utter(confirmation.utter_on_user_denial, ctx.skill.id)
                return "denied"
        return self.run_gated(ctx, name, arguments)

    def run_gated(self, ctx: SkillContext, name: str, arguments: Any) -> str:
        """Run a tool past its gate: `done`, `failed`, or `blocked` when it cannot run.

        Arguments are read now, after the confirmation: a correction made at the summary
        counts."""
        final = arguments() if callable(arguments) else arguments
        outcome = self.run_tool(ctx.frame, name, final)
        if outcome is None:
            return "blocked"
        return "failed" if outcome.error else "done"

    # --- ordered blocks -------------------------------------------------------------------

    def run_block(self, ctx: SkillContext, block_id: str) -> Procedure:
        """Run one ordered block; returns `done`, or `linked:<skill>` after a `link:`."""
        skill = ctx.skill
        block = skill.blocks[block_id]
        ctx.frame.blocks.append(block_id)
        self.emit("ordered_block_entered", skill_id=skill.id, block_id=block_id)
        ids = [s.id for s in block.steps]
        index, last = 0, None
        while 0 <= index < len(block.steps):
            step = block.steps[index]
            if step.kind == "end" or step.id == "END":
                break
            last = step.id
            if step.kind == "link":
                ctx.frame.blocks.pop()
                self.emit(
                    "ordered_block_completed", skill_id=skill.id, block_id=block_id, step_id=step.id
                )
                return f"linked:{step.target}"
            outcome = yield from self.run_step(ctx, block, step)
            if outcome.startswith("linked:"):
                ctx.frame.blocks.pop()
                return outcome
            target = self.next_step(step, index, ids)
            if target is None:
                break
            index = target
        ctx.frame.blocks.pop()
        self.emit("ordered_block_completed", skill_id=skill.id, block_id=block_id, step_id=last)
        return "done"

    def next_step(self, step: Step, index: int, ids: list[str]) -> int | None:
        if step.next is None:
            return index + 1
        if isinstance(step.next, str):
            target = step.next
        else:
            target = next(
                (
                    b.target
                    for b in step.next
                    if b.condition is None or holds(b.condition, self.memory)
                ),
                "END",
            )
        return ids.index(target) if target in ids else None

    def run_step(self, ctx: SkillContext, block: Any, step: Step) -> Procedure:
        skill = ctx.skill
        if step.kind == "execute_tool":
            params = step.fields.get("parameters") or {}
            arguments = {
                str(k): (
                    self.memory.get(v.removeprefix("session."))
                    if isinstance(v, str) and v.startswith("session.")
                    else v
                )
                for k, v in params.items()
            }
            ctx.tool(str(step.target), {k: v for k, v in arguments.items() if v is not None})
        elif step.kind == "collect":
            key = qualify(str(step.target), skill.id, self.defs)
            if self.memory.get(key) is None:
                value = yield Ask(
                    "collect",
                    lambda: self.utter(step.fields.get("utterance"), skill.id),
                    lambda text: self.read_field(key, text),
                    step=step.id,
                    block=block.id,
                    field=key,
                )
                self.remember(key, value)
        elif step.kind == "instructions":
            handler = self.brain.instructions(ctx, step)
            yield from (
                handler if handler is not None else self.generic_instructions(ctx, block, step)
            )
        elif step.kind == "action":
            self.utter(str(step.target), skill.id)
        elif step.kind == "set_memory" and isinstance(step.target, dict):
            for key, value in step.target.items():
                key = str(key)
                self.remember(key if "." in key else qualify(key, skill.id, self.defs), value)
        elif step.kind == "call" and str(step.target) in skill.blocks:
            outcome = yield from self.run_block(ctx, str(step.target))
            return outcome
        return "done"

    def read_field(self, key: str, text: str) -> Any:
        declared = self.defs.memory_field(key)
        kind = declared.type if declared else "text"
        if kind == "categorical":
            value = self.field_words(key).answer(text)
            return NO_ANSWER if value is None else value
        if kind in ("float", "int"):
            number = parse_amount(text)
            if number is None:
                return NO_ANSWER
            return int(number) if kind == "int" else number
        if kind == "bool":
            answer = yes_or_no(text)
            return NO_ANSWER if answer is None else answer
        return text.strip()

    def generic_instructions(self, ctx: SkillContext, block: Any, step: Step) -> Procedure:
        """Ask the step's instructions as a question; record what `complete_when` waits for."""
        waits = str(step.fields.get("complete_when") or "")
        keys = [f.qualified for f in ctx.skill.memory.values() if f.qualified in waits]
        missing = [k for k in keys if self.memory.get(k) is None]
        if not missing:
            return "done"
        first = str(step.target or "").strip().split(".")[0]
        answer = yield Ask(
            "instructions",
            lambda: self.say(first + "."),
            lambda text: text,
            step=step.id,
            block=block.id,
        )
        for key in missing:
            value = self.read_field(key, answer)
            self.remember(key, answer if value is NO_ANSWER else value)
        return "done"


__all__ = [
    "ADVERSARIAL",
    "CANCEL",
    "CLOSING",
    "CORRECTING",
    "NO_ANSWER",
    "Ask",
    "Brain",
    "FieldWords",
    "Frame",
    "MantleEngine",
    "MantleFlags",
    "Procedure",
    "SkillContext",
    "SkillWords",
    "ToolResult",
    "field_words",
    "holds",
    "parse_amount",
    "skill_words",
    "spoken",
    "stems",
    "yes_or_no",
]
