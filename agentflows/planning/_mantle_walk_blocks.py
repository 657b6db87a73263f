"""How a Mantle walk follows a block step by step: collect, instructions, actions, memory
writes, calls and links, and the `next` branches over the walk's memory."""

from __future__ import annotations

from evalcore.definitions import Block, Step
from evalcore.definitions.conditions import condition_keys, evaluate
from evalcore.definitions.skill_model import asks_for, instruction_prompt, skipped_keys

from ._mantle_tools import qualify
from ._mantle_walk_records import SET, Ask, Event
from ._mantle_walk_state import _MAX_DEPTH
from ._mantle_walk_tools import ToolRuns


class BlockSteps(ToolRuns):
    def walk_block(self, block: Block) -> None:
        skill = self.skill.id
        self.emit(Event("block_entered", skill=skill, block=block.id))
        self.walk.cover(f"block:{skill}.{block.id}")
        index = 0
        last: str | None = None
        guard = 0
        visits: dict[str, int] = {}
        while 0 <= index < len(block.steps) and not self.stopped and guard < 200:
            guard += 1
            step = block.steps[index]
            if step.kind == "end" or step.id == "END":
                break
            visits[step.id] = visits.get(step.id, 0) + 1
            if visits[step.id] > 3:  # a retry loop nothing in the walk ends: stop going round
                self.walk.outcome = "negative" if self.setup.negative else self.walk.outcome
                break
            last = step.id
            self.walk.cover(f"step:{skill}.{block.id}.{step.id}")
            if not self.run_step(block, step):
                return
            target = self._next(block, step, index)
            if target is None:
                break
            index = target
        # what the steps this walk left out gather: the prose does not play them (as the
        # reference agent: a tool waiting on one stays unrun)
        self.skipped |= skipped_keys(block, set(visits), skill)
        if not self.stopped:
            self.step_tools(block, None, "block_tools")
        if not self.stopped:
            self.emit(Event("block_completed", skill=skill, block=block.id, step=last))

    def _next(self, block: Block, step: Step, index: int) -> int | None:
        if step.next is None:
            return index + 1
        if isinstance(step.next, str):
            target = step.next
        else:
            target = next(
                (
                    b.target
                    for b in step.next
                    if b.condition is None or evaluate(b.condition, self.walk.memory)
                ),
                "END",
            )
        if target == "END":
            return None
        ids = [s.id for s in block.steps]
        return ids.index(target) if target in ids else None

    def run_step(self, block: Block, step: Step) -> bool:
        """Run one step; False when the walk left the block for good (link, stop)."""
        skill = self.skill.id
        if step.kind == "execute_tool":
            if not self.run_tool(str(step.target), step):
                self.walk.outcome = "failed"
                self.stopped = True
                return False
        elif step.kind == "collect":
            key = qualify(str(step.target), skill, self.defs)
            if not self.known(key):
                utterance = step.fields.get("utterance")
                self.utter(utterance)
                value = self.answer(key)
                self.walk.asks.append(
                    Ask(
                        "collect",
                        skill,
                        step.id,
                        block.id,
                        key,
                        value,
                        prompt=self._text(utterance),
                    )
                )
                self.remember(key, value)
            self._cover_value(key)
        elif step.kind == "instructions":
            self.run_instructions(block, step)
            self.step_tools(block, step, "instructions")
        elif step.kind == "action":
            self.utter(str(step.target))
        elif step.kind == "set_memory" and isinstance(step.target, dict):
            for key, value in step.target.items():
                self.remember(qualify(str(key), skill, self.defs), value)
        elif step.kind == "call":
            target = str(step.target)
            if target in self.skill.blocks and self.depth < _MAX_DEPTH:
                self.depth += 1
                self.walk_block(self.skill.blocks[target])
                self.depth -= 1
            elif target in self.defs.skills:
                self.walk.cover(f"delegate:{skill}.{target}")
                self.enter_skill(target, returns=True)
        elif step.kind == "link":
            target = str(step.target)
            self.walk.cover(f"delegate:{skill}.{target}")
            self.emit(Event("link", skill=skill, step=step.id, key=target))
            self.walk.outcome = "handoff"
            self.walk.handoff = target
            self.enter_skill(target, returns=False)
            self.stopped = True
            return False
        return not self.stopped

    def step_tools(self, block: Block, step: Step | None, kind: str) -> None:
        """Tools the model says the LLM calls at this step (instructions) or in this block
        (block-level `tools:`), when their scope holds."""
        step_id = step.id if step is not None else None
        for use in self.model.tools:
            for call in use.calls:
                if call.kind != kind or call.block != block.id or call.step != step_id:
                    continue
                scope = call.condition if call.when is None else None
                if evaluate(scope, self.walk.memory):
                    self.call_tool(use.name, call.when)
                break

    def instruction_fields(self, block: Block, step: Step) -> None:
        """Fields an `if:` line inside the instructions asks for, when its condition holds."""
        for spec in self.model.fields:
            if spec.asked_by != "instructions" or spec.block != block.id or spec.step != step.id:
                continue
            if spec.condition is None or self.known(spec.qualified):
                continue
            if not evaluate(spec.condition, self.walk.memory):
                continue
            value = self.answer(spec.qualified)
            self.walk.asks.append(
                Ask(
                    "instructions",
                    self.skill.id,
                    step.id,
                    block.id,
                    spec.qualified,
                    value,
                    prompt=spec.question,
                )
            )
            self.remember(spec.qualified, value)
            self._cover_value(spec.qualified)

    def run_instructions(self, block: Block, step: Step) -> None:
        skill = self.skill.id
        keys = [
            k
            for k in condition_keys(str(step.fields.get("complete_when") or ""))
            if k.startswith(skill + ".")
        ]
        if not keys:
            keys = [
                f.qualified
                for f in self.model.fields
                if f.asked_by == "instructions"
                and f.block == block.id
                and f.step == step.id
                and f.condition is None
            ][:1]
        waits = self.model.step_waits(block.id, step.id, keys)
        inputs = [k for k in waits if k not in keys]  # a step tool's, asked in turn
        keys = waits
        missing = [k for k in keys if not self.known(k)]
        if not missing:
            self.instruction_fields(block, step)
            return
        text = str(step.target or "")
        categorical = [k for k in missing if self.categorical(k)]
        handed = self.setup.entry in ("link", "escalation")
        waits_for_choice = any(self.categorical(k) for k in keys)
        if handed and text.lower().lstrip().startswith("if it is not clear"):
            for key in categorical:
                self.remember(key, self.handed_value(key))
        elif categorical or not waits_for_choice or self.still_asks(step, missing):
            memory = self.walk.memory
            first = categorical[0] if categorical else missing[0]
            rest = inputs
            if waits_for_choice and not categorical:  # the choice is made: what its side asks
                rest = self.still_asks(step, missing)
                first = rest[0]
            for asked in [first, *(k for k in missing if k in rest and k != first)]:
                prompt = instruction_prompt(
                    text, self.defs.memory_field(asked), lambda c: evaluate(c, memory)
                )
                self.walk.asks.append(
                    Ask(
                        "instructions",
                        skill,
                        step.id,
                        block.id,
                        asked,
                        self.answer(asked),
                        prompt=prompt,
                    )
                )
        for key in missing:
            if not self.known(key):
                self.remember(key, self.answer(key) if self.categorical(key) else SET)
            self._cover_value(key)
        self.picked_fields(block, step, keys)
        self.instruction_fields(block, step)

    def still_asks(self, step: Step, missing: list[str]) -> list[str]:
        """The missing fields a step whose choice is made still asks the user for by name
        ("Homeowner, or time and location": for Car, "Ask for the incident time ... Ask where
        it happened"); none once its `complete_when` holds or where the agent sets them."""
        when = step.fields.get("complete_when")
        memory = self.walk.memory
        if when is None or evaluate(str(when), memory):
            return []
        text = str(step.target or "")
        holds = lambda c: bool(evaluate(c, memory))  # noqa: E731
        return [k for k in missing if asks_for(text, self.defs.memory_field(k), holds)]

    def picked_fields(self, block: Block, step: Step, keys: list[str]) -> None:
        """A choice the step sets beside what it waits for ("Set policy_number and
        claim_type ... from the one they pick"): the value the behaviour fixed (the user
        picks a record that holds it; the reference agent reads it off that record)."""
        for spec in self.model.fields:
            if spec.asked_by != "instructions" or spec.block != block.id or spec.step != step.id:
                continue
            key = spec.qualified
            if spec.condition is not None or key in keys or self.known(key):
                continue
            if self.categorical(key) and key in self.setup.values:
                self.remember(key, self.setup.values[key])
                self._cover_value(key)

    def enter_skill(self, target: str, *, returns: bool) -> None:
        """Walk another skill from here (`_mantle_walk._Walker` does)."""
        raise NotImplementedError


__all__ = ["BlockSteps"]
