"""The skill model's data: what one Mantle skill asks, runs, branches on and counts as success.

Every planner, drafter, lint rule and prompt reads a skill through this one model instead of
re-reading blocks, prose and frontmatter on its own. All classes are frozen pydantic models,
so a model dumps to JSON (`SkillModel.model_dump(mode="json")`) for `casegen sources
--explain --json` and for prompts. The API only grows: fields are added, never renamed.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Where(_Frozen):
    """A place in the definitions: file (project-relative), line, and the part it is in."""

    file: str
    line: int | None = None
    part: str = "prose"
    """`prose`, `frontmatter`, `memory`, `tools`, `block <id>`, `block <id> step <step>`."""

    def label(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


class Uncertainty(_Frozen):
    """Something the prose leaves open; recorded instead of guessed silently."""

    what: str
    where: Where
    why: str


FieldQuestionSource = Literal["utterance", "response", "instruction", "prose", "description"]
AskedBy = Literal["collect", "instructions", "prose", "request", "tool_argument", "seed"]
"""`request`: set from what the user asks for ("From the request, set mode to ...")."""


class FieldSpec(_Frozen):
    """A memory field the skill asks the user for (or reads as a tool argument)."""

    qualified: str
    """`<skill>.<entry>` or `project.<entry>`: the name events and assertions use."""
    name: str
    namespace: str
    type: str = "any"
    question: str | None = None
    """What the agent says to ask for it (collect utterance text, instruction sentence, ...)."""
    question_source: FieldQuestionSource | None = None
    utterance: str | None = None
    """The collect step's `utterance:` response name, when it has one."""
    asked_by: AskedBy = "collect"
    block: str | None = None
    step: str | None = None
    condition: str | None = None
    """The `if:` condition under which it is asked (None: always on its path)."""
    enum_values: list[Any] = Field(default_factory=list)
    explained: dict[str, str] = Field(default_factory=dict)
    """Enum value (as str) -> its explanation from the description, step or prose."""
    format: str | None = None
    """A format the description states (`MM/DD/YYYY`, `YYYY-MM-DD`, `E.164`)."""
    description: str | None = None
    examples: list[str] = Field(default_factory=list)
    """Example values the description quotes (`for example "POL-1234"`)."""
    required: bool = True
    where: Where | None = None
    sentences: list[str] = Field(default_factory=list)
    """Every prose sentence that asks for or sets it (prose/request fields)."""


class Record(_Frozen):
    """A flag the prose has the agent set itself ("…; set balance_told."), never asked
    (`_records.py`): the walk and the reference agent set it to true at its sentence."""

    qualified: str
    sentence: str
    condition: str | None = None
    """The `if:` condition of its paragraph (None when unconditional)."""
    where: Where | None = None


CallKind = Literal["execute_tool", "block_tools", "prose", "instructions", "constraint"]


class CallSite(_Frozen):
    """Where a skill runs (or lets the LLM run) a tool."""

    kind: CallKind
    block: str | None = None
    step: str | None = None
    condition: str | None = None
    """The `if:` line scoping the call (prose paragraph or instruction line)."""
    trigger: str | None = None
    """The prose's own precondition ("When details_verified is true") as written."""
    when: str | None = None
    """The trigger read as a condition (`session.file_claim.details_verified`); `condition`
    is the paragraph's `if:` and this, combined. A walk waits for `when`, but never runs a
    call whose paragraph `if:` is false."""
    sentence: str | None = None
    where: Where | None = None
    optional: bool = False
    """The prose calls it only in a circumstance the model cannot read ("If the meeting is
    not theirs, call x instead"): recorded as an uncertainty, left out of walks."""
    cue: str | None = None
    """An optional call's circumstance when it is what the user says ("they ask about an
    existing request"): walks that say it take the call (`cues.py`)."""
    topic: bool = False
    """The cue is the request its paragraph is about (`cues.topic_cue`), not an alternative
    of one sentence: a user who asks for it asked for that request, not the others."""


class Gate(_Frozen):
    """What stands between the skill and a tool run (frontmatter `tool_constraints`)."""

    requires: str | None = None
    requires_keys: list[str] = Field(default_factory=list)
    """Qualified memory names `requires` reads."""
    confirmation: bool = False
    utter_for_confirmation: str | None = None
    utter_on_user_denial: str | None = None
    on_success: str | None = None
    on_failure: str | None = None


class MemoryWrite(_Frozen):
    key: str
    """Qualified (`<skill>.<entry>`, `project.<entry>`)."""
    value: Any = None
    known: bool = False
    """True when the code writes a literal (`value` is it)."""


class ToolUse(_Frozen):
    """A tool the skill runs, where from, behind which gate, and what it writes."""

    name: str
    scope: Literal["local", "shared", "mcp", "unknown"] = "local"
    mcp_server: str | None = None
    description: str | None = None
    calls: list[CallSite] = Field(default_factory=list)
    gate: Gate | None = None
    writes: list[MemoryWrite] = Field(default_factory=list)
    arguments: dict[str, str] = Field(default_factory=dict)
    """Parameter -> qualified memory field it is filled from (step `parameters` or a match)."""
    parameters: list[str] = Field(default_factory=list)
    error_results: list[str] = Field(default_factory=list)
    """Documented error results (docstring "Returns ... error", `raise`, `is_error`)."""
    terminal: bool = False
    """The tool completes the skill's task (its success signal)."""
    defined: bool = True
    """False when no tool of that name can be called by this skill."""

    @property
    def gated(self) -> bool:
        return self.gate is not None and self.gate.confirmation


class BranchOption(_Frozen):
    condition: str | None = None
    """None for `else:` (or the paragraphs without an `if:`)."""
    target: str
    """Step id (`next`), or a short label of the scoped text (`if:` lines)."""


class Branch(_Frozen):
    """A place where the path forks."""

    kind: Literal["next", "prose_if", "instruction_if"]
    block: str | None = None
    step: str | None = None
    keys: list[str] = Field(default_factory=list)
    options: list[BranchOption] = Field(default_factory=list)
    where: Where | None = None


class ModeValue(_Frozen):
    value: Any
    conditions: list[str] = Field(default_factory=list)
    tools: list[str] = Field(default_factory=list)
    """Tools called only under this value."""
    where: list[Where] = Field(default_factory=list)


class Mode(_Frozen):
    """A categorical/text field compared to several literals across `if:` lines/branches."""

    field: str
    """Qualified field name."""
    values: list[ModeValue] = Field(default_factory=list)
    others: list[Any] = Field(default_factory=list)
    """Enum values no condition names (they share the unscoped path)."""


class Delegation(_Frozen):
    """Another skill this one calls (returns), links (hands off) or mentions in prose."""

    kind: Literal["call", "link", "mention"]
    target: str
    block: str | None = None
    step: str | None = None
    condition: str | None = None
    where: Where | None = None


SignalKind = Literal["tool", "memory", "response", "skill_completed"]


class SuccessSignal(_Frozen):
    """An observable sign that the skill did its job."""

    kind: SignalKind
    name: str
    """Tool name, qualified memory key, response name, or the skill id."""
    value: Any = None
    condition: str | None = None
    """The branch/mode condition under which this signal applies (None: every path)."""
    why: str = ""


class Rule(_Frozen):
    """A rule the prose states ("Never disclose the PIN"): what an adversarial case targets."""

    text: str
    where: Where


class SkillModel(_Frozen):
    """Everything casegen understood about one skill."""

    skill: str
    name: str | None = None
    description: str | None = None
    file: str
    """The skill.md, project-relative."""
    fields: list[FieldSpec] = Field(default_factory=list)
    records: list[Record] = Field(default_factory=list)
    """Flags the agent records itself (set to true where the prose says), never asked."""
    tools: list[ToolUse] = Field(default_factory=list)
    branches: list[Branch] = Field(default_factory=list)
    modes: list[Mode] = Field(default_factory=list)
    delegations: list[Delegation] = Field(default_factory=list)
    complete_when: str | None = None
    complete_criteria: list[str] = Field(default_factory=list)
    block_complete_when: dict[str, str] = Field(default_factory=dict)
    """Block id -> the block-level `complete_when` condition."""
    success: list[SuccessSignal] = Field(default_factory=list)
    rules: list[Rule] = Field(default_factory=list)
    uncertainties: list[Uncertainty] = Field(default_factory=list)
    is_handoff: bool = False

    def field(self, qualified: str) -> FieldSpec | None:
        return next((f for f in self.fields if f.qualified == qualified), None)

    def tool(self, name: str) -> ToolUse | None:
        return next((t for t in self.tools if t.name == name), None)

    def gated_tools(self) -> list[ToolUse]:
        return [t for t in self.tools if t.gated]

    def terminal_tools(self) -> list[ToolUse]:
        return [t for t in self.tools if t.terminal]

    def prose_tools(self) -> list[ToolUse]:
        """Tools the LLM calls from prose or step instructions (never `execute_tool`)."""
        return [
            t
            for t in self.tools
            if any(c.kind in ("prose", "instructions", "block_tools") for c in t.calls)
        ]

    def mode(self, qualified: str) -> Mode | None:
        return next((m for m in self.modes if m.field == qualified), None)

    def step_waits(self, block: str, step: str, keys: list[str]) -> list[str]:
        """What an instructions step waits for (`keys`, its `complete_when`), as the agent
        gets it: a key a tool the step calls writes ("Then check the toxin", which sets
        urgency) is the tool's to fill, so the step asks the tool's inputs the step names
        outside its `if:` lines (substance, weight_kg) instead; the call runs after the
        step as every step tool does."""
        named = [
            f.qualified
            for f in self.fields
            if f.block == block and f.step == step and f.condition is None
        ]
        produced: set[str] = set()
        inputs: list[str] = []
        for use in self.tools:
            if not any(
                c.kind == "instructions" and c.block == block and c.step == step for c in use.calls
            ):
                continue
            written = {w.key for w in use.writes} & set(keys)
            if written:
                produced |= written
                # a tool that rewrites the answer it reads ("call normalize_date with their
                # answer and keep the normalized value in date"): the answer is still asked
                inputs += [
                    k
                    for k in use.arguments.values()
                    if k in named and (k not in keys or k in written)
                ]
        if not produced:
            return keys
        kept = [k for k in keys if k not in produced]
        return kept + [k for k in dict.fromkeys(inputs) if k not in kept]


__all__ = [
    "Branch",
    "BranchOption",
    "CallSite",
    "Delegation",
    "FieldSpec",
    "Gate",
    "MemoryWrite",
    "Mode",
    "ModeValue",
    "Rule",
    "SkillModel",
    "SuccessSignal",
    "ToolUse",
    "Uncertainty",
    "Where",
]
