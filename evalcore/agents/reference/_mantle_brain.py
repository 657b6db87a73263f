"""What a brain provides to the Mantle engine and what it may do: the engine's API.

A `Brain` plays a project's prose as `Procedure`s that yield `Ask`s; `SkillContext` is what
such a procedure may do (memory, responses, tools, questions); `MantleFlags` are the shared
mutations; `Frame` is one skill on the stack.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...definitions import MantleDefinitions, Skill, Step
from ...definitions.conditions import evaluate
from ._mantle_text import yes_or_no
from ._mantle_words import FieldWords

# --- conditions -------------------------------------------------------------------------


def holds(condition: Any, memory: Mapping[str, Any]) -> bool:
    """Truth of a Mantle condition over memory (qualified keys); no condition holds."""
    return evaluate(condition, memory)


# --- what a brain provides ----------------------------------------------------------------

NO_ANSWER: Any = object()


@dataclass
class ToolResult:
    """What a (fake) tool returned: its result, an error, and the memory it wrote."""

    result: Any = None
    error: str | None = None
    writes: dict[str, Any] = field(default_factory=dict)
    """Unqualified keys belong to the calling skill; `project.<key>` to the project."""


@dataclass
class Ask:
    """The agent waits for the user: how to ask (again) and how to read the answer."""

    kind: str
    """collect | instructions | identity | question | confirm | field | followup"""
    render: Callable[[], None]
    accept: Callable[[str], Any]
    """The answer's value, or NO_ANSWER when the text does not answer the question."""
    step: str | None = None
    block: str | None = None
    field: str | None = None


Procedure = Generator[Ask, Any, str]


class Brain(Protocol):
    """What an LLM would do from a project's prose (one brain per project played)."""

    def procedure(self, ctx: SkillContext) -> Procedure:
        """The skill's prose as a procedure: yields `Ask`s, returns an outcome
        (`completed`, `open`, `linked:<skill>`, `cancelled`)."""
        ...

    def instructions(self, ctx: SkillContext, step: Step) -> Procedure | None:
        """A handler for a conversational block step, or None for the generic one."""
        ...

    def tool(self, ctx: SkillContext, name: str, arguments: dict[str, Any]) -> ToolResult:
        """The fake backend."""
        ...

    def asked_fields(self, skill: Skill) -> list[str]:
        """Qualified fields the skill's prose asks for itself (besides collect steps)."""
        ...


@dataclass(frozen=True)
class MantleFlags:
    """Mutations: switches that make the agent wrong on purpose, so tests can show that a
    case catches the fault. All off by default.

    - `skip_confirmation`: confirmation-gated tools run without reading the summary back or
      waiting for yes/no (a refused-confirmation case then sees the tool run);
    - `forget_reason`: values the customer states before being asked are not recorded, so
      the agent asks for them again (an out-of-order case then fails);
    - `ignore_digression`: a request for another skill mid-skill is treated as off-topic:
      no interruption, no resume (a digression case then fails);
    - `ignore_handoff`: a request for a person in the middle of a skill is treated as
      off-topic (an escalation case then fails);
    - `fail_tool`: the named tool always returns an error (a happy path through it fails).
    """

    skip_confirmation: bool = False
    forget_reason: bool = False
    ignore_digression: bool = False
    ignore_handoff: bool = False
    fail_tool: str | None = None

    def active(self) -> list[str]:
        return [
            f"{name}={value}" if isinstance(value, str) else name
            for name, value in self.__dict__.items()
            if value
        ]


# --- one skill on the stack -----------------------------------------------------------------


@dataclass
class Frame:
    skill: Skill
    entry: str
    """user | digression | escalation | link"""
    context: str
    procedure: Procedure | None = None
    pending: Ask | None = None
    parked: bool = False
    blocks: list[str] = field(default_factory=list)
    """Ordered blocks running, innermost last."""
    results: dict[str, Any] = field(default_factory=dict)
    """Last result per tool (a brain reads list results from here)."""
    scratch: dict[str, Any] = field(default_factory=dict)


class Engine(Protocol):
    """What a `SkillContext` asks of the engine that runs it (`MantleEngine`, or the
    `MantleSession` it extends): typed by shape, so this module, which both import, need
    not import them back."""

    defs: MantleDefinitions
    memory: dict[str, Any]
    ended: bool

    def remember(self, key: str, value: Any) -> None: ...

    def utter(self, name: str | None, skill_id: str | None = None) -> None: ...

    def say(self, text: str) -> None: ...

    def field_words(self, qualified: str) -> FieldWords: ...

    def run_tool(self, frame: Frame, name: str, arguments: dict[str, Any]) -> ToolResult | None: ...

    def gated(
        self,
        ctx: SkillContext,
        name: str,
        arguments: dict[str, Any] | Callable[[], dict[str, Any]],
    ) -> Procedure: ...

    def run_block(self, ctx: SkillContext, block_id: str) -> Procedure: ...


class SkillContext:
    """What a skill's procedure may do (the brain's API)."""

    def __init__(self, engine: Engine, frame: Frame) -> None:
        self.engine = engine
        self.frame = frame
        self.skill = frame.skill
        self.defs = engine.defs

    # memory and messages
    def key(self, key: str) -> str:
        return key if "." in key else f"{self.skill.id}.{key}"

    def get(self, key: str) -> Any:
        return self.engine.memory.get(self.key(key))

    def set(self, key: str, value: Any) -> None:
        self.engine.remember(self.key(key), value)

    def utter(self, name: str | None) -> None:
        self.engine.utter(name, self.skill.id)

    def say(self, text: str) -> None:
        self.engine.say(text)

    @property
    def entry(self) -> str:
        return self.frame.entry

    @property
    def context(self) -> str:
        return self.frame.context

    @property
    def results(self) -> dict[str, Any]:
        return self.frame.results

    @property
    def scratch(self) -> dict[str, Any]:
        return self.frame.scratch

    def words(self, qualified: str) -> FieldWords:
        return self.engine.field_words(qualified)

    def holds(self, condition: Any) -> bool:
        return holds(condition, self.engine.memory)

    # tools
    def tool(self, name: str, arguments: dict[str, Any]) -> ToolResult | None:
        return self.engine.run_tool(self.frame, name, arguments)

    def gated(
        self, name: str, arguments: dict[str, Any] | Callable[[], dict[str, Any]]
    ) -> Procedure:
        """Run a confirmation-gated tool: done | denied | failed | blocked. Pass the
        arguments as a function to read them from memory after the customer confirmed."""
        return self.engine.gated(self, name, arguments)

    # waiting for the user
    def ask(
        self,
        kind: str,
        render: Callable[[], None],
        accept: Callable[[str], Any],
        *,
        field: str | None = None,
        step: str | None = None,
        block: str | None = None,
    ) -> Procedure:
        value = yield Ask(kind, render, accept, step=step, block=block, field=field)
        return value

    def question(self, text: str) -> Procedure:
        """A yes/no question; any reply answers it (True, False or None)."""
        answer = yield Ask("question", lambda: self.say(text), lambda reply: yes_or_no(reply))
        return answer

    def ask_field(self, qualified: str, text: str) -> Procedure:
        """Ask the skill's prose question for a categorical field and record the answer."""
        words = self.words(qualified)
        value = yield Ask(
            "field",
            lambda: self.say(text),
            lambda reply: words.answer(reply) if words.answer(reply) is not None else NO_ANSWER,
            field=qualified,
        )
        self.engine.remember(qualified, value)
        return value

    def run_block(self, block_id: str) -> Procedure:
        return self.engine.run_block(self, block_id)

    def end_conversation(self) -> None:
        self.engine.ended = True


__all__ = [
    "NO_ANSWER",
    "Ask",
    "Brain",
    "Engine",
    "Frame",
    "MantleFlags",
    "Procedure",
    "SkillContext",
    "ToolResult",
    "holds",
]
