"""Walk one Mantle skill the way its runtime would, for one set of answers and tool outcomes.

The walk is the planner's model of a conversation: it lists where the agent waits for the
user (`Ask`), what the runtime records meanwhile (`Event`: skill and block lifecycle, memory
writes, tool runs, responses) and which definition elements that exercises. Planning uses it
for `covers`; the offline drafter turns the asks into numbered user lines and the events into
assertions, so both always agree.

Order of a walk: `skill_activated`, `utter: on activate` responses, values the user gave up
front, then the prose skeleton (`_mantle_prose`) in reading order. Blocks are walked step by
step: `execute_tool` runs the tool (memory writes read from the tool's code), `collect` asks
unless the value is known, `instructions` with a `complete_when` asks for the fields it waits
for (not when the skill was handed the conversation and the step starts "If it is not clear"),
`action` utters, `noop` routes, `set_memory` writes, `call` walks the block or skill and
returns, `link` walks the target skill and never returns, `next` branches are evaluated over
the walk's memory. A gated tool asks for confirmation; a "no" utters the denial response and
ends the procedure, a failing tool utters `on_failure` and ends it, and so does a negative tool
result (a check that comes back false): the prose after it is not followed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from evalcore.definitions import Block, MantleDefinitions, MemoryField, Project, Skill, Step
from evalcore.definitions.conditions import condition_keys, evaluate
from evalcore.definitions.skill_model import SkillModel, skill_model

from ._mantle_prose import ProseItem, prose_items
from ._mantle_tools import UNKNOWN, parameter_fields, qualify, step_arguments, tool_keys
from ._mantle_vocab import example_value

#: Memory value the walk knows is set but not to what (an id, a label, a summary).
SET: Any = UNKNOWN

_MAX_DEPTH = 6


@dataclass(frozen=True)
class Ask:
    """A point where the agent waits for the user, and the answer the behaviour gives."""

    kind: str
    """identity | collect | instructions | ask_field | question | confirm"""
    skill: str
    step: str | None = None
    """The block step waiting (None while the skill is in prose: `autonomous`)."""
    block: str | None = None
    field: str | None = None
    """Qualified field the answer fills."""
    value: Any = None
    tool: str | None = None
    """confirm: the gated tool."""
    confirm: bool | None = None
    details: tuple[str, ...] = ()
    """identity: the details asked for; question: the question."""
    prompt: str | None = None
    """What the agent says when asking (response text, instructions or prose sentence)."""

    @property
    def step_id(self) -> str:
        """The step id skill events carry while the agent waits here."""
        return self.step or "autonomous"


@dataclass(frozen=True)
class Event:
    """One abstract recorded event (see reference §6 for the wire format)."""

    kind: str
    """skill_activated | skill_completed | block_entered | block_completed | memory | tool |
    utter | link"""
    skill: str | None = None
    block: str | None = None
    step: str | None = None
    key: str | None = None
    value: Any = SET
    tool: str | None = None
    source: str | None = None
    server: str | None = None
    arguments: Mapping[str, Any] = field(default_factory=dict)
    error: bool = False
    utter: str | None = None


@dataclass(frozen=True)
class Setup:
    """What the behaviour decides about the conversation."""

    values: Mapping[str, Any] = field(default_factory=dict)
    """Answer per qualified field."""
    given: frozenset[str] = frozenset()
    """Fields the user states before being asked (recorded right after activation)."""
    confirm: Mapping[str, bool] = field(default_factory=dict)
    """Gated tool -> the user's answer to the confirmation (default yes)."""
    failing: frozenset[str] = frozenset()
    """Tools that end in an error."""
    negative: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Tool -> keys it writes as false (or not at all): a check that comes back negative."""
    memory: Mapping[str, Any] = field(default_factory=dict)
    """Memory at activation (seeded channel fields, a verification done earlier)."""
    entry: str = "user"
    """user | link | escalation: how the skill got the conversation."""
    context: str = ""
    """What the conversation was about when the skill was handed it (the customer's words or
    the linking skill's last message): a handed-over step picks its values from it."""


@dataclass
class Walk:
    skill: str
    asks: list[Ask] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    elements: list[str] = field(default_factory=list)
    memory: dict[str, Any] = field(default_factory=dict)
    outcome: str = "done"
    """done | declined | failed | negative | handoff"""
    handoff: str | None = None
    """The skill a `link:` handed the conversation to."""
    completed: bool = False
    """complete_when holds at the end of a `done` walk."""
    success: list[str] = field(default_factory=list)
    """Success signals of the skill's model this walk reaches (`tool:submit_claim`,
    `memory:file_claim.claim_id`, `response:utter_claim_filed`, `skill_completed:file_claim`)."""
    expected: list[str] = field(default_factory=list)
    """Success signals that apply to this walk's path (their mode condition holds)."""

    @property
    def reaches_success(self) -> bool:
        """True when the walk reaches a success tool of its path (or, when the path has no
        success tool, any success signal)."""
        tools = [s for s in self.expected if s.startswith("tool:")]
        wanted = tools or self.expected
        return bool(wanted) and any(s in self.success for s in wanted)

    def cover(self, element: str) -> None:
        if element not in self.elements:
            self.elements.append(element)

    def tools(self, name: str | None = None) -> list[Event]:
        return [e for e in self.events if e.kind == "tool" and (name is None or e.tool == name)]

    def utters(self) -> list[str]:
        return [e.utter for e in self.events if e.kind == "utter" and e.utter]


def sample_value(defs: MantleDefinitions, field_def: MemoryField) -> Any:
    """A plausible answer for a field the behaviour did not fix."""
    if field_def.type == "categorical" and field_def.enum_values:
        return field_def.enum_values[0]
    if field_def.type == "float":
        return 60.0
    if field_def.type == "int":
        return 2
    if field_def.type == "bool":
        return True
    return example_value(defs, field_def) or SET


class _Walker:
    def __init__(self, project: Project, skill_id: str, setup: Setup, depth: int = 0) -> None:
        assert project.mantle is not None
        self.project = project
        self.defs = project.mantle
        self.skill: Skill = self.defs.skills[skill_id]
        self.setup = setup
        self.depth = depth
        self.walk = Walk(skill_id, memory=dict(setup.memory))
        self.tools = self.defs.tools_for(skill_id)
        self.model: SkillModel = skill_model(project, skill_id)
        self.stopped = False
        self.fired_utters: set[str] = set()
        self.pending: list[tuple[str, str | None]] = []
        """Prose-called tools waiting for their trigger or `requires` to hold."""

    # --- recording -----------------------------------------------------------------------

    def emit(self, event: Event) -> None:
        self.walk.events.append(event)

    def utter(self, name: str | None) -> None:
        if not name:
            return
        self.emit(Event("utter", skill=self.skill.id, utter=name))
        self.walk.cover(f"response:{name}")

    def remember(self, key: str, value: Any) -> None:
        self.walk.memory[key] = value
        self.emit(Event("memory", skill=self.skill.id, key=key, value=value))
        for rule in self.skill.utter:
            fresh = rule.when and rule.response not in self.fired_utters
            if fresh and evaluate(rule.when, self.walk.memory):
                self.fired_utters.add(rule.response)
                self.utter(rule.response)

    def answer(self, qualified: str) -> Any:
        if qualified in self.setup.values:
            return self.setup.values[qualified]
        field_def = self.defs.memory_names().get(qualified)
        return sample_value(self.defs, field_def) if field_def else SET

    # --- tools ---------------------------------------------------------------------------

    def run_tool(self, name: str, step: Step | None = None) -> bool:
        """Run a tool; False when it failed (an error)."""
        tool = self.tools.get(name)
        if tool is None:
            return True
        if step is not None:
            mapping = step_arguments(step)
        else:
            mapping = {
                p: f.qualified for p, f in parameter_fields(self.defs, self.skill.id, tool).items()
            }
            mapping.update(self._seeded_arguments(tool, mapping))
        arguments = {
            arg: self.walk.memory[key]
            for arg, key in mapping.items()
            if self.walk.memory.get(key) is not None and self.walk.memory[key] is not SET
        }
        failed = name in self.setup.failing
        self.emit(
            Event(
                "tool",
                skill=self.skill.id,
                tool=name,
                source="mcp" if tool.scope == "mcp" else "local",
                server=tool.mcp_server,
                arguments=arguments,
                error=failed,
            )
        )
        self.walk.cover(f"tool:{name}")
        constraint = self.skill.tool_constraints.get(name)
        if failed:
            self.walk.cover(f"failure:{name}")
            if constraint is not None:
                self.utter(constraint.on_failure)
            return False
        negative = self.setup.negative.get(name, frozenset())
        for key, value in tool_keys(self.project, tool, self.skill.id).items():
            field_def = self.defs.memory_names().get(key)
            if key in negative:
                if field_def is not None and field_def.type == "bool":
                    self.remember(key, False)
                continue
            if value is UNKNOWN:
                kind = field_def.type if field_def is not None else None
                if kind == "bool":
                    value = True
                elif kind == "int":  # a counter the tool computes (failed attempts, ...)
                    previous = self.walk.memory.get(key)
                    value = previous + 1 if isinstance(previous, int) else 1
                else:
                    value = SET
            self.remember(key, value)
        if negative:
            self.walk.outcome = "negative"
        if constraint is not None:
            self.utter(constraint.on_success)
        return True

    def _seeded_arguments(self, tool: Any, taken: Mapping[str, str]) -> dict[str, str]:
        """Arguments filled from known project memory (`phone` <- `project.caller_phone`)."""
        out = {}
        for param in tool.parameters:
            if param.name in taken or "ToolContext" in (param.type or ""):
                continue
            for key in self.walk.memory:
                name = key.split(".", 1)[1]
                if key.startswith("project.") and (
                    name == param.name or param.name in name.split("_")
                ):
                    out[param.name] = key
                    break
        return out

    def gated(self, name: str) -> bool:
        constraint = self.skill.tool_constraints.get(name)
        confirmation = constraint.requires_confirmation if constraint else None
        return bool(confirmation and confirmation.enabled)

    def ran(self, name: str) -> bool:
        return any(e.tool == name and not e.error for e in self.walk.tools())

    def ready(self, name: str, when: str | None) -> bool:
        constraint = self.skill.tool_constraints.get(name)
        requires = constraint.requires if constraint else None
        return evaluate(when, self.walk.memory) and evaluate(requires, self.walk.memory)

    def call_tool(self, name: str, when: str | None = None) -> None:
        """The LLM calls a tool: once its trigger and `requires` hold (else it waits), after
        the confirmation gate."""
        if name not in self.tools or self.ran(name) or self.stopped:
            return
        # the agent gets what an earlier call still lacks before it moves on to the next one
        self.settle_pending(only_requires=True, before=name)
        if self.stopped:
            return
        if not self.ready(name, when):
            if (name, when) not in self.pending:
                self.pending.append((name, when))
            return
        if self.gated(name):
            self.confirm_and_run(name)
        elif not self.run_tool(name):
            self.walk.outcome = "failed"
            self.stopped = True

    def retry_pending(self) -> None:
        for name, when in list(self.pending):
            if self.stopped:
                return
            if self.ready(name, when):
                self.pending.remove((name, when))
                self.call_tool(name, when)

    def settle_pending(self, *, only_requires: bool = False, before: str | None = None) -> None:
        """A waiting tool's missing inputs are what the agent still asks for (fields the
        skill asks) or records itself (flags): then it runs. At the end of the prose every
        waiting tool settles; before another tool call, those waiting only on `requires`."""
        for name, when in list(self.pending):
            if self.stopped or self.walk.outcome != "done":
                return
            if name == before or (only_requires and when is not None):
                continue
            self.pending.remove((name, when))
            constraint = self.skill.tool_constraints.get(name)
            keys = condition_keys(when) + condition_keys(
                constraint.requires if constraint else None
            )
            for key in dict.fromkeys(keys):
                if self.walk.memory.get(key) not in (None, False, ""):
                    continue
                spec = self.model.field(key)
                value = self.answer(key)
                field_def = self.defs.memory_names().get(key)
                if spec is not None:
                    self.walk.asks.append(
                        Ask(
                            "ask_field",
                            self.skill.id,
                            field=key,
                            value=value,
                            prompt=spec.question,
                        )
                    )
                elif field_def is not None and field_def.type == "bool":
                    value = True
                self.remember(key, value)
            if self.ready(name, when):
                self.call_tool(name, when)

    def confirm_and_run(self, name: str) -> None:
        constraint = self.skill.tool_constraints[name]
        confirmation = constraint.requires_confirmation
        assert confirmation is not None
        prompt = confirmation.utter_for_confirmation
        yes = self.setup.confirm.get(name, True)
        self.utter(prompt)
        self.walk.asks.append(
            Ask("confirm", self.skill.id, tool=name, confirm=yes, prompt=self._text(prompt))
        )
        if not yes:
            self.walk.cover(f"deny:{name}")
            self.utter(confirmation.utter_on_user_denial)
            self.walk.outcome = "declined"
            self.stopped = True
            return
        self.walk.cover(f"confirm:{name}")
        if not self.run_tool(name):
            self.walk.outcome = "failed"
            self.stopped = True

    def _text(self, response: str | None) -> str | None:
        from ._mantle_vocab import first_text

        return first_text(self.defs.all_responses().get(response or ""))

    # --- blocks --------------------------------------------------------------------------

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
            key = qualify(str(step.target), skill)
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
                self.remember(qualify(str(key), skill), value)
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
        elif categorical or not waits_for_choice:
            asked = categorical[0] if categorical else missing[0]
            self.walk.asks.append(
                Ask(
                    "instructions", skill, step.id, block.id, asked, self.answer(asked), prompt=text
                )
            )
        for key in missing:
            if not self.known(key):
                self.remember(key, self.answer(key) if self.categorical(key) else SET)
            self._cover_value(key)
        self.instruction_fields(block, step)

    def known(self, key: str) -> bool:
        return self.walk.memory.get(key) is not None

    def categorical(self, key: str) -> bool:
        field_def = self.defs.memory_names().get(key)
        return field_def is not None and field_def.type == "categorical"

    def handed_value(self, key: str) -> Any:
        """A value the agent infers from why it was handed the conversation."""
        from ..drafting.offline._direction import best_value
        from ._mantle_vocab import fallback_value, field_choices

        if key in self.setup.values:
            return self.setup.values[key]
        choices = field_choices(self.defs, key)
        best = best_value(self.setup.context, choices) if self.setup.context else None
        if best is not None:
            return best.value
        fallback = fallback_value(choices)
        return fallback if fallback is not None else self.answer(key)

    def _cover_value(self, key: str) -> None:
        value = self.walk.memory.get(key)
        if value is not None and value is not SET and self.categorical(key):
            self.walk.cover(f"value:{key}={value}")

    def enter_skill(self, target: str, *, returns: bool) -> None:
        if self.depth >= _MAX_DEPTH:
            return
        last_words = [self._text(e.utter) or "" for e in self.walk.events if e.kind == "utter"]
        setup = Setup(
            values=self.setup.values,
            confirm=self.setup.confirm,
            failing=self.setup.failing,
            memory=self.walk.memory,
            entry="link",
            context=last_words[-1] if last_words else "",
        )
        inner = _Walker(self.project, target, setup, self.depth + 1)
        inner.run()
        self.walk.asks += inner.walk.asks
        self.walk.events += inner.walk.events
        self.walk.memory.update(inner.walk.memory)
        if not returns and inner.walk.outcome != "done":
            self.walk.outcome = inner.walk.outcome

    # --- the skill -----------------------------------------------------------------------

    def run(self) -> Walk:
        skill = self.skill
        self.emit(Event("skill_activated", skill=skill.id))
        self.walk.cover(f"skill:{skill.id}")
        for rule in skill.utter:
            if rule.on == "activate":
                self.utter(rule.response)
        for key in sorted(self.setup.given):
            if key.startswith(skill.id + "."):
                self.remember(key, self.answer(key))
        for spec in self.model.fields:
            # "From the request, set mode to ...": the opening message decides it
            if spec.asked_by == "request" and not self.known(spec.qualified):
                self.remember(spec.qualified, self.answer(spec.qualified))
                self._cover_value(spec.qualified)
        items = prose_items(skill, self.model)
        if not any(i.kind == "block" and i.name in skill.blocks for i in items):
            called = {
                str(s.target) for b in skill.blocks.values() for s in b.steps if s.kind == "call"
            }
            first = next((b for b in skill.blocks if b not in called), None)
            if first is not None:
                items.append(ProseItem("block", None, "", first))
        for item in items:
            if self.stopped or self.walk.outcome == "negative":
                break
            if item.condition and not evaluate(item.condition, self.walk.memory):
                continue
            self.run_item(item)
            self.retry_pending()
        if not self.stopped and self.walk.outcome == "done":
            self.settle_pending()
        self.finish()
        return self.walk

    def run_item(self, item: ProseItem) -> None:
        memory = self.walk.memory
        if item.kind == "lookup":
            if memory.get(item.key or "") in (None, ""):
                self.run_tool(item.name or "")
        elif item.kind == "identity":
            if item.key and memory.get(item.key) is True:
                return
            self.walk.asks.append(
                Ask("identity", self.skill.id, details=item.details, prompt=item.sentence)
            )
            self.run_tool(item.name or "")
        elif item.kind == "block" and item.name in self.skill.blocks:
            self.walk_block(self.skill.blocks[item.name])
        elif item.kind == "ask_field" and item.name:
            if not self.known(item.name):
                value = self.answer(item.name)
                self.walk.asks.append(
                    Ask(
                        "ask_field",
                        self.skill.id,
                        field=item.name,
                        value=value,
                        prompt=item.sentence,
                    )
                )
                self.remember(item.name, value)
            self._cover_value(item.name)
        elif item.kind == "question":
            self.walk.asks.append(
                Ask("question", self.skill.id, details=item.details, prompt=item.sentence)
            )
        elif item.kind == "tool" and item.name in self.tools:
            self.call_tool(item.name or "", item.when)

    def finish(self) -> None:
        condition = (self.skill.complete_when or {}).get("condition")
        if self.walk.outcome == "done" and condition and evaluate(condition, self.walk.memory):
            self.walk.completed = True
            self.emit(Event("skill_completed", skill=self.skill.id))
        self.score_success()

    def score_success(self) -> None:
        """Which of the model's success signals apply to this path, and which it reaches."""
        memory = self.walk.memory
        tools = {e.tool for e in self.walk.tools() if not e.error}
        utters = set(self.walk.utters())
        for signal in self.model.success:
            label = f"{signal.kind}:{signal.name}"
            if signal.condition and not evaluate(signal.condition, memory):
                continue
            if label not in self.walk.expected:
                self.walk.expected.append(label)
            reached = {
                "tool": signal.name in tools,
                "memory": memory.get(signal.name) not in (None, False),
                "response": signal.name in utters,
                "skill_completed": self.walk.completed,
            }[signal.kind]
            if reached and label not in self.walk.success:
                self.walk.success.append(label)


def walk_skill(project: Project, skill_id: str, setup: Setup | None = None) -> Walk:
    """Walk `skill_id` for one behaviour (see the module docstring)."""
    return _Walker(project, skill_id, setup or Setup()).run()


__all__ = ["SET", "Ask", "Event", "Setup", "Walk", "sample_value", "walk_skill"]
