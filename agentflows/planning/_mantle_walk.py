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

from collections.abc import Hashable, Mapping
from dataclasses import replace
from typing import Any

from evalcore.definitions import Project
from evalcore.definitions._memo import memoized
from evalcore.definitions.conditions import evaluate
from evalcore.definitions.skill_model.prose_items import ProseItem, hands_over, with_entry_block

from ._mantle_prose import prose_items
from ._mantle_walk_blocks import BlockSteps
from ._mantle_walk_records import SET, Ask, Event, Setup, Walk, sample_value
from ._mantle_walk_state import _MAX_DEPTH


class _Walker(BlockSteps):
    """The whole walk of one skill: activation, the prose skeleton, linked skills, the end."""

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
        items = with_entry_block(skill, prose_items(skill, self.model))
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
        elif item.kind == "record" and item.name:
            if not self.known(item.name):  # the agent's own flag (`skill_model._records`)
                self.remember(item.name, True)
        elif item.kind == "question":
            self.walk.asks.append(
                Ask("question", self.skill.id, details=item.details, prompt=item.sentence)
            )
        elif item.kind == "tool" and item.cue:
            if item.name in self.setup.cues and item.name in self.tools:
                self.call_tool(item.name or "", None)
                self.stopped = True  # the alternative the user asked for: it ends there
        elif item.kind == "tool" and item.name in self.tools:
            self.call_tool(item.name or "", item.when)
        elif hands_over(item) and item.name in self.defs.skills:
            # `@skill.x` delegates and the parent resumes afterwards (reference §1.6)
            self.walk.cover(f"delegate:{self.skill.id}.{item.name}")
            self.enter_skill(item.name or "", returns=True)

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
    """Walk `skill_id` for one behaviour (see the module docstring).

    A walk depends only on the loaded project, the skill and the setup, so it is kept per
    loaded project and exact setup (values with their types, mappings in order): planning
    walks a skill again for each behaviour it weighs, and drafting walks a case twice,
    often with the same values. The caller gets its own lists and memory."""
    setup = setup or Setup()
    key = _setup_key(setup)
    if key is None:  # an unhashable value: walk it afresh
        return _Walker(project, skill_id, setup).run()
    kept = memoized(
        project, ("walk", skill_id, key), lambda: _Walker(project, skill_id, setup).run()
    )
    return replace(
        kept,
        asks=list(kept.asks),
        events=list(kept.events),
        elements=list(kept.elements),
        memory=dict(kept.memory),
        success=list(kept.success),
        expected=list(kept.expected),
    )


def _items(mapping: Mapping[str, Any]) -> tuple[tuple[str, type, Any], ...]:
    return tuple((k, type(v), v) for k, v in mapping.items())


def _setup_key(setup: Setup) -> Hashable | None:
    """Everything a walk reads from its setup, hashable, or None when a value is not."""
    key = (
        _items(setup.values),
        tuple(setup.given),  # in iteration order: equal sets that iterate apart miss
        _items(setup.confirm),
        tuple(setup.failing),
        tuple((k, tuple(v)) for k, v in setup.negative.items()),
        tuple(sorted(setup.cues)),
        _items(setup.memory),
        setup.entry,
        setup.context,
    )
    try:
        hash(key)
    except TypeError:
        return None
    return key


__all__ = ["SET", "Ask", "Event", "Setup", "Walk", "sample_value", "walk_skill"]
