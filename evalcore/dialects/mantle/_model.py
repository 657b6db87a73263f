"""Pydantic models of a Mantle scenario, for structured LLM output and typed reading.

The JSON Schema (`schema.json`) is the validator of record and gives the precise findings; the
models accept every schema-valid case and dump it back unchanged with
`model_dump(exclude_none=True, by_alias=True)`. An optional field given as null counts as
absent (structured-output models often emit nulls), so a dumped model never carries a null.

Each assertion list item is one single-key model; a callable discriminator picks the model
from the item's key, so the JSON Schema is a plain `oneOf` of one-key objects.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator

from ._expected_tools import ExpectedTool, ExpectedToolGroup, ExpectedToolsItem

ScenarioType = Literal[
    "happy_path",
    "sad_path",
    "edge_case",
    "ambiguity",
    "out_of_scope",
    "escalation",
    "adversarial",
]

#: A memory value: any JSON except null (the schema rejects `value: null`).
MemoryValue = str | int | float | bool | list[Any] | dict[str, Any]

_MEMORY_NAME = (
    "Memory name as events use it: <skill_id>.<key>, project.<key> or system.<key>; "
    "never with a session. prefix."
)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


# --- assertion bodies -------------------------------------------------------------------


class SkillRef(_Model):
    """Body of skill_activated / skill_completed (these events carry no step)."""

    skill_id: str = Field(min_length=1, description="Skill id: the skills/<id>/ folder name.")


class SkillStep(_Model):
    """Body of skill_cancelled / skill_interrupted / skill_resumed."""

    skill_id: str = Field(min_length=1, description="Skill id: the skills/<id>/ folder name.")
    step_id: str | None = Field(
        default=None,
        description="'autonomous' while the skill was in prose, else an ordered-block step id.",
    )


class BlockRef(_Model):
    """Body of ordered_block_entered."""

    skill_id: str = Field(min_length=1, description="Skill that owns the block.")
    block_id: str = Field(min_length=1, description="Ordered block id as authored (id=...).")


class BlockStep(_Model):
    """Body of ordered_block_completed / _cancelled / _interrupted / _resumed."""

    skill_id: str = Field(min_length=1, description="Skill that owns the block.")
    block_id: str = Field(min_length=1, description="Ordered block id as authored (id=...).")
    step_id: str | None = Field(default=None, description="Step id in the block.")


class MemoryCheck(_Model):
    """One entry of memory_was_set / memory_was_not_set."""

    name: str = Field(description=_MEMORY_NAME)
    value: MemoryValue | None = Field(
        default=None,
        description="Exact value to compare (type-strict); leave out to match any write.",
    )


class MemoryName(_Model):
    """One entry of memory_was_cleared (no value)."""

    name: str = Field(description=_MEMORY_NAME)


class ToolExecuted(_Model):
    """Body of tool_executed: a tool ran (locally or over MCP)."""

    tool_name: str = Field(min_length=1, description="Tool name as the skill calls it.")
    source: Literal["local", "mcp"] = Field(
        description="local: skill and shared tools; mcp: tools imported as mcp/<server>:<tool>."
    )
    mcp_server: str | None = Field(
        default=None, description="MCP server name; required for mcp, absent for local."
    )
    skill_id: str | None = Field(
        default=None, description="The skill the call was made on behalf of."
    )
    arguments: dict[str, Any] | None = Field(
        default=None, description="Arguments that must be equal; others are ignored."
    )
    is_error: bool | None = Field(default=None, description="Whether the call reported an error.")

    @model_validator(mode="after")
    def _server_matches_source(self) -> ToolExecuted:
        if self.source == "mcp" and self.mcp_server is None:
            raise ValueError("source: mcp needs mcp_server")
        if self.source == "local" and self.mcp_server is not None:
            raise ValueError("mcp_server is only allowed with source: mcp")
        return self


class ToolCall(_Model):
    """One call of tools_within_one_turn."""

    tool_executed: ToolExecuted


class ToolsWithinOneTurn(_Model):
    """Body of tools_within_one_turn: several tools ran during one user turn."""

    calls: list[ToolCall] = Field(min_length=2, description="At least two tool_executed calls.")
    allow_extra_calls: bool = Field(description="Whether other tools may also run in that turn.")
    ordered: bool | None = Field(default=None, description="Calls must run in the listed order.")


class Button(_Model):
    """A button the message shows."""

    title: str | None = None
    payload: str | None = None


class BotCheck(_Model):
    """Body of bot_uttered / bot_did_not_utter: at least one of the three fields."""

    utter_name: str | None = Field(default=None, description="Response name.")
    text_matches: str | None = Field(
        default=None, description="Python regex searched in the message text."
    )
    buttons: list[Button] | None = Field(default=None, description="Buttons the message shows.")

    @model_validator(mode="after")
    def _at_least_one(self) -> BotCheck:
        if self.utter_name is None and self.text_matches is None and self.buttons is None:
            raise ValueError("give at least one of utter_name, text_matches or buttons")
        return self


# --- single-key checks ------------------------------------------------------------------


class SkillActivated(_Model):
    """A skill was activated."""

    skill_activated: SkillRef


class SkillCompleted(_Model):
    """A skill reached completion."""

    skill_completed: SkillRef


class SkillCancelled(_Model):
    """A skill was cancelled."""

    skill_cancelled: SkillStep


class SkillInterrupted(_Model):
    """A skill was paused before it finished."""

    skill_interrupted: SkillStep


class SkillResumed(_Model):
    """A skill continued after an interruption."""

    skill_resumed: SkillStep


class OrderedBlockEntered(_Model):
    """An ordered block was entered."""

    ordered_block_entered: BlockRef


class OrderedBlockCompleted(_Model):
    """An ordered block finished."""

    ordered_block_completed: BlockStep


class OrderedBlockCancelled(_Model):
    """An ordered block was cancelled."""

    ordered_block_cancelled: BlockStep


class OrderedBlockInterrupted(_Model):
    """An ordered block was interrupted."""

    ordered_block_interrupted: BlockStep


class OrderedBlockResumed(_Model):
    """An ordered block continued after an interruption."""

    ordered_block_resumed: BlockStep


class MemoryWasSet(_Model):
    """Each memory name was written (to the value, when one is given)."""

    memory_was_set: list[MemoryCheck] = Field(min_length=1)


class MemoryWasNotSet(_Model):
    """No write of the name (or: the last write is not the given value)."""

    memory_was_not_set: list[MemoryCheck] = Field(min_length=1)


class MemoryWasCleared(_Model):
    """Each memory name was cleared."""

    memory_was_cleared: list[MemoryName]


class ToolExecutedCheck(_Model):
    """A tool ran, optionally with given arguments or for a given skill."""

    tool_executed: ToolExecuted


class ToolsWithinOneTurnCheck(_Model):
    """Several tools ran during the same user turn."""

    tools_within_one_turn: ToolsWithinOneTurn


class BotUttered(_Model):
    """The agent sent a message matching a response name, text or buttons."""

    bot_uttered: BotCheck


class BotDidNotUtter(_Model):
    """The agent sent no message matching the pattern."""

    bot_did_not_utter: BotCheck


class SeqMemoryWasSet(_Model):
    """Inside sequencing, memory checks take a plain name."""

    memory_was_set: str = Field(description=_MEMORY_NAME)


class SeqMemoryWasCleared(_Model):
    """Inside sequencing: the memory name was cleared."""

    memory_was_cleared: str = Field(description=_MEMORY_NAME)


def _check_key(value: Any) -> str | None:
    """The discriminator: an item is tagged by its single key."""
    if isinstance(value, dict):
        return next(iter(value), None) if len(value) == 1 else None
    if isinstance(value, BaseModel):
        set_fields = [k for k, v in value if v is not None]
        return set_fields[0] if len(set_fields) == 1 else None
    return None


_EVENT_CHECKS = (
    Annotated[SkillActivated, Tag("skill_activated")]
    | Annotated[SkillCompleted, Tag("skill_completed")]
    | Annotated[SkillCancelled, Tag("skill_cancelled")]
    | Annotated[SkillInterrupted, Tag("skill_interrupted")]
    | Annotated[SkillResumed, Tag("skill_resumed")]
    | Annotated[OrderedBlockEntered, Tag("ordered_block_entered")]
    | Annotated[OrderedBlockCompleted, Tag("ordered_block_completed")]
    | Annotated[OrderedBlockCancelled, Tag("ordered_block_cancelled")]
    | Annotated[OrderedBlockInterrupted, Tag("ordered_block_interrupted")]
    | Annotated[OrderedBlockResumed, Tag("ordered_block_resumed")]
    | Annotated[ToolExecutedCheck, Tag("tool_executed")]
)

SequencingCheck = Annotated[
    _EVENT_CHECKS
    | Annotated[SeqMemoryWasSet, Tag("memory_was_set")]
    | Annotated[SeqMemoryWasCleared, Tag("memory_was_cleared")],
    Discriminator(_check_key),
]


class Sequencing(_Model):
    """The listed checks matched events in the listed order."""

    sequencing: list[SequencingCheck] = Field(
        description=(
            "Checks that must match in this order (gaps allowed): skill_*, ordered_block_* and "
            "tool_executed maps, memory_was_set / memory_was_cleared as a plain name. No "
            "bot_uttered (assert it on its own), bot_did_not_utter, memory_was_not_set, "
            "tools_within_one_turn or nested sequencing."
        ),
    )


Assertion = Annotated[
    _EVENT_CHECKS
    | Annotated[BotUttered, Tag("bot_uttered")]
    | Annotated[BotDidNotUtter, Tag("bot_did_not_utter")]
    | Annotated[MemoryWasSet, Tag("memory_was_set")]
    | Annotated[MemoryWasNotSet, Tag("memory_was_not_set")]
    | Annotated[MemoryWasCleared, Tag("memory_was_cleared")]
    | Annotated[ToolsWithinOneTurnCheck, Tag("tools_within_one_turn")]
    | Annotated[Sequencing, Tag("sequencing")],
    Discriminator(_check_key),
]


# --- the case ---------------------------------------------------------------------------


class Setup(_Model):
    """Starting state of the conversation."""

    initial_slots: dict[str, MemoryValue | None] | None = Field(
        default=None,
        description=(
            "Starting memory. Only project fields with seed: true (bare or project.<key>) are "
            "copied into memory; do not use it to skip a step the scenario tests."
        ),
    )


class Goals(_Model):
    """What a passing run shows; without goals only a simulation failure fails it."""

    criteria: list[str] | None = Field(
        default=None, description="Bot-side deal-breakers the judge scores, one per sentence."
    )
    assertions: list[Assertion] | None = Field(
        default=None, description="Single-key checks against recorded events."
    )
    expected_tools: list[ExpectedToolsItem] | None = Field(
        default=None,
        description=(
            "CALM tool scoring only; Mantle runs ignore it. Maps, never bare names: "
            "{tool_called: NAME, gate?: bool} or {tool_group: [{tool_called: NAME}, ...]}."
        ),
    )


class Scenario(_Model):
    """One simulated conversation and its pass conditions."""

    name: str = Field(description="Label in result files and the batch summary.")
    type: ScenarioType | None = Field(default=None, description="Scenario category.")
    simulation_context: str = Field(
        description="The simulated user: persona, intent, facts they bring, when to stop.",
    )
    setup: Setup | None = None
    goals: Goals | None = None


class MantleCase(_Model):
    """One Mantle scenario file (`eval/scenarios/<slug>.yml`)."""

    scenario: Scenario


__all__ = [
    "Assertion",
    "BotCheck",
    "ExpectedTool",
    "ExpectedToolGroup",
    "Goals",
    "MantleCase",
    "MemoryCheck",
    "Scenario",
    "ScenarioType",
    "SequencingCheck",
    "Setup",
    "ToolExecuted",
]
