"""The `Project` model: what a project defines, as every later step reads it.

Readers (Mantle projects, Anychat playbooks, Agent Skills) fill it from files without ever
importing user code; lint, generation, the runner and review only read it. Each element keeps
the file (and line, where known) it came from, so a finding can point at the definition too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from .._record import record
from ._memo import memo_of, memoized
from ._model_agent_skills import AgentSkillsDefinitions
from ._model_anychat import (
    AnychatDefinitions,
)
from ._model_base import SourceRef, _Model

ProjectKind = Literal["mantle", "anychat", "agent_skills"]
"""The kinds built in (`_discover`); a dialect plugin may register more (`kinds`)."""
MemoryType = Literal["text", "int", "float", "bool", "list", "json", "categorical", "any"]
StepKind = Literal[
    "instructions", "collect", "action", "execute_tool", "noop", "set_memory", "call", "link", "end"
]


# --- Mantle -----------------------------------------------------------------------------


@record
class MemoryField(_Model):
    """One memory entry, from a skill's or the project's `memory.yml`."""

    name: str
    """Entry name without namespace (`replacement_reason`)."""
    namespace: str
    """`<skill_id>` for skill memory, `project` for root memory."""
    type: MemoryType = "any"
    visibility: Literal["public", "private", "project"] = "project"
    description: str | None = None
    note: str | None = None
    """The comment the memory file writes under the field, its lines joined (`# SkyMiles
    tier of the signed-in app user`): what a field without a description is about."""
    enum_values: list[Any] | None = None
    seed: bool = False
    initial_value: Any = None
    llm_settable: bool | None = None
    pii: bool | None = None
    source: SourceRef | None = None

    @property
    def qualified(self) -> str:
        """The name as events and assertions use it: `<skill>.<key>` or `project.<key>`."""
        return f"{self.namespace}.{self.name}"

    @property
    def named_values(self) -> list[Any]:
        """The listed values a case can name: a YAML 1.1 `off` or `no` read as a bool is
        left out while words remain (a case written `false` fails the type check)."""
        listed = list(self.enum_values or [])
        return [v for v in listed if not isinstance(v, bool)] or listed


@record
class ToolParameter(_Model):
    name: str
    type: str | None = None
    """The annotation as written (`str`, `Literal['standard', 'express']`, ...)."""
    required: bool = True
    default: Any = None
    description: str | None = None
    choices: list[Any] | None = None
    """Values a `Literal[...]` annotation allows."""


@record
class ToolDef(_Model):
    """A `@tool` function read with `ast` (never imported)."""

    name: str
    description: str | None = None
    parameters: list[ToolParameter] = field(default_factory=list)
    scope: Literal["local", "shared", "mcp"] = "local"
    mcp_server: str | None = None
    source: SourceRef | None = None

    def parameter(self, name: str) -> ToolParameter | None:
        return next((p for p in self.parameters if p.name == name), None)


@record
class Confirmation(_Model):
    enabled: bool = True
    utter_for_confirmation: str | None = None
    utter_on_user_denial: str | None = None


@record
class ToolConstraint(_Model):
    """`tool_constraints` entry of a skill's frontmatter."""

    tool: str
    requires: str | None = None
    requires_confirmation: Confirmation | None = None
    on_success: str | None = None
    on_failure: str | None = None


@record
class UtterRule(_Model):
    """`utter:` entry: a response delivered verbatim on activation or when a condition holds."""

    response: str
    on: str | None = None
    when: str | None = None


@record
class Branch(_Model):
    condition: str | None = None
    """The `if:` condition; None for the `else:` branch."""
    target: str


@record
class Step(_Model):
    id: str
    kind: StepKind
    target: Any = None
    """The kind's value: memory entry for collect, tool for execute_tool, utter for action,
    map for set_memory, block/skill for call/link, text for instructions."""
    next: str | list[Branch] | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    """The other keys as written (utterance, description, parameters, complete_when, ...)."""
    line: int | None = None

    @property
    def next_targets(self) -> list[str]:
        if self.next is None:
            return []
        if isinstance(self.next, str):
            return [self.next]
        return [b.target for b in self.next]


@record
class Block(_Model):
    id: str
    steps: list[Step] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    """Block-level `tools:`: the tools the LLM may call while a step of the block runs."""
    complete_when: str | dict[str, Any] | None = None
    """Block-level `complete_when`: a condition, or `{condition, criteria}` as on a skill."""
    line: int | None = None

    def step(self, step_id: str) -> Step | None:
        return next((s for s in self.steps if s.id == step_id), None)


@record
class ProseCondition(_Model):
    """An `if: <cond>` line and the paragraph it scopes."""

    condition: str
    paragraph: str
    line: int | None = None


@record
class Skill(_Model):
    """A Mantle skill: `skills/<id>/` with its skill.md, memory, responses and tools."""

    id: str
    """The folder name (never the frontmatter `name`)."""
    path: str
    name: str | None = None
    description: str | None = None
    frontmatter: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    prose_conditions: list[ProseCondition] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    """`@tool.x`, `@block.y`, `@skill.z`, `@memory.ns.key` tokens in the order they appear."""
    blocks: dict[str, Block] = field(default_factory=dict)
    memory: dict[str, MemoryField] = field(default_factory=dict)
    responses: dict[str, Response] = field(default_factory=dict)
    tools: dict[str, ToolDef] = field(default_factory=dict)
    """The skill's local tools (`tools.py`, `tools/*.py`)."""
    import_tools: list[str] = field(default_factory=list)
    tool_constraints: dict[str, ToolConstraint] = field(default_factory=dict)
    utter: list[UtterRule] = field(default_factory=list)
    complete_when: dict[str, Any] | None = None
    hidden: bool = False
    disabled: bool = False
    is_handoff: bool = False
    """True when the skill hands the conversation to a human (link/handoff tool or wording)."""

    @property
    def step_ids(self) -> set[str]:
        return {s.id for b in self.blocks.values() for s in b.steps}


@record
class ResponseButton(_Model):
    title: str
    payload: str | None = None


@record
class ResponseVariant(_Model):
    text: str | None = None
    condition: Any = None
    buttons: list[ResponseButton] = field(default_factory=list)
    metadata: dict[str, Any] | None = None


@record
class Response(_Model):
    name: str
    variants: list[ResponseVariant] = field(default_factory=list)
    scope: str = "project"
    """`project` or the skill id whose responses.yml defines it."""
    source: SourceRef | None = None


@record
class MantleDefinitions(_Model):
    agent: dict[str, Any] = field(default_factory=dict)
    integrations: dict[str, Any] = field(default_factory=dict)
    skills: dict[str, Skill] = field(default_factory=dict)
    memory: dict[str, MemoryField] = field(default_factory=dict)
    """Project (root) memory, by entry name."""
    responses: dict[str, Response] = field(default_factory=dict)
    """Project (root) responses, by name."""
    shared_tools: dict[str, ToolDef] = field(default_factory=dict)
    mcp_servers: list[str] = field(default_factory=list)
    scenario_dir: str | None = None

    # Lookups lint and generation share, so nobody re-derives them.
    def all_responses(self) -> dict[str, Response]:
        """Project and skill responses by name (a fresh dict of the map built once)."""
        return dict(self._response_map())

    def response(self, name: str) -> Response | None:
        """The response `name` (project or skill; None when none is), `all_responses()`'s
        lookup without copying every response of the project."""
        return self._response_map().get(name)

    def _response_map(self) -> dict[str, Response]:
        shape = (id(self.responses), len(self.responses), id(self.skills), len(self.skills))
        kept = memo_of(self).get("all_responses")
        if kept is None or kept[0] != shape:
            out = dict(self.responses)
            for skill in self.skills.values():
                out.update(skill.responses)
            kept = memo_of(self)["all_responses"] = (shape, out)
        return kept[1]  # type: ignore[no-any-return]

    def tools_for(self, skill_id: str) -> dict[str, ToolDef]:
        """Local tools plus imported shared/MCP tools the skill can call (a fresh dict of
        the map built once per skill)."""
        return dict(self._tools_map(skill_id))

    def tools_view(self, skill_id: str) -> Mapping[str, ToolDef]:
        """`tools_for(skill_id)` read-only, without the copy: a reference play looks a
        tool up at every call, and only reads."""
        return MappingProxyType(self._tools_map(skill_id))

    def _tools_map(self, skill_id: str) -> dict[str, ToolDef]:
        skill = self.skills[skill_id]
        key = ("tools_for", skill_id, id(skill), len(skill.tools), len(self.shared_tools))
        return memoized(self, key, lambda: self._tools_for(skill))

    def skills_calling(self, tool: str) -> tuple[str, ...]:
        """The ids of the skills whose `tools_for` holds `tool`, in the project's order.

        From an index built once per loaded definitions (again when the skills or shared
        tools are replaced or resized): a case's check that names a tool but no skill looks
        for it in the skills that have it, not in each of the project's skills."""
        shape = (id(self.skills), len(self.skills), id(self.shared_tools), len(self.shared_tools))
        kept = memo_of(self).get("skills_calling")
        if kept is None or kept[0] != shape:
            found: dict[str, list[str]] = {}
            for skill_id in self.skills:
                for name in self.tools_for(skill_id):
                    found.setdefault(name, []).append(skill_id)
            index = {name: tuple(ids) for name, ids in found.items()}
            kept = memo_of(self)["skills_calling"] = (shape, index)
        return kept[1].get(tool, ())  # type: ignore[no-any-return]

    def _tools_for(self, skill: Skill) -> dict[str, ToolDef]:
        out: dict[str, ToolDef] = {}
        for name in skill.import_tools:
            if name.startswith("mcp/"):
                server, _, tool = name[4:].partition(":")
                out[tool] = ToolDef(name=tool, scope="mcp", mcp_server=server)
            elif name in self.shared_tools:
                out[name] = self.shared_tools[name]
        out.update(skill.tools)  # local wins on a clash
        return out

    def memory_names(self) -> dict[str, MemoryField]:
        """Every declared entry by qualified name (`card_replace.reason`, `project.x`).

        A fresh dict each call of the map built once (again when the project memory or the
        skills are replaced or resized, as a loader does): planning and drafting ask for it
        thousands of times per run, and loaded definitions are read, not changed."""
        return dict(self._memory_map())

    def memory_view(self) -> Mapping[str, MemoryField]:
        """`memory_names()` read-only, without the copy: a case's drafting and every
        reference play look entries up in it, and copying the whole map for a lookup made
        a case cost more with every skill's entries."""
        return MappingProxyType(self._memory_map())

    def memory_in(self, *namespaces: str) -> list[MemoryField]:
        """The declared entries of the namespaces named (`project`, skill ids), in
        `memory_names()`'s order: a skill's own and the project's entries without walking
        every skill's (from an index by namespace built with the map)."""
        shape = (id(self.memory), len(self.memory), id(self.skills), len(self.skills))
        kept = memo_of(self).get("memory_in")
        if kept is None or kept[0] != shape:
            index: dict[str, list[tuple[int, MemoryField]]] = {}
            for at, entry in enumerate(self._memory_map().values()):
                index.setdefault(entry.namespace, []).append((at, entry))
            kept = memo_of(self)["memory_in"] = (shape, index)
        found = [kept[1].get(namespace, []) for namespace in dict.fromkeys(namespaces)]
        placed = found[0]
        if len(found) > 1:  # merged by place in the map
            placed = sorted((p for part in found for p in part), key=lambda p: p[0])
        return [entry for _, entry in placed]

    def initial_memory(self) -> dict[str, Any]:
        """Project memory before anything runs: each project field's `initial_value`
        (`project.<name>` -> value), which Mantle holds from the session's start."""
        return {
            f"project.{name}": field.initial_value
            for name, field in self.memory.items()
            if field.initial_value is not None
        }

    def memory_field(self, qualified: str) -> MemoryField | None:
        """The declared entry `qualified` names (None when none does): `memory_names()`'s
        lookup without the copy, for the walks that ask once per tool write."""
        return self._memory_map().get(qualified)

    def namespace_fields(self, namespace: str) -> tuple[MemoryField, ...]:
        """The declared entries of one namespace (a skill id, `project`), in
        `memory_names()`'s order: a lookup in a grouping built once, for the drafting
        steps that read one skill's fields per case (filtering every entry of the project
        grew with the number of skills)."""
        shape = (id(self.memory), len(self.memory), id(self.skills), len(self.skills))
        kept = memo_of(self).get("namespace_fields")
        if kept is None or kept[0] != shape:
            grouped: dict[str, list[MemoryField]] = {}
            for field_ in self._memory_map().values():
                grouped.setdefault(field_.namespace, []).append(field_)
            kept = (shape, {name: tuple(fields) for name, fields in grouped.items()})
            memo_of(self)["namespace_fields"] = kept
        return kept[1].get(namespace, ())  # type: ignore[no-any-return]

    def _memory_map(self) -> dict[str, MemoryField]:
        shape = (id(self.memory), len(self.memory), id(self.skills), len(self.skills))
        kept = memo_of(self).get("memory_names")
        if kept is None or kept[0] != shape:
            out = {f.qualified: f for f in self.memory.values()}
            for skill in self.skills.values():
                out.update({f.qualified: f for f in skill.memory.values()})
            kept = memo_of(self)["memory_names"] = (shape, out)
        return kept[1]  # type: ignore[no-any-return]


# --- Project ----------------------------------------------------------------------------


@record
class SourceFile(_Model):
    """A definition file and its content hash (the manifest's staleness key)."""

    path: str
    sha256: str


@record
class Project(_Model):
    """Everything a project folder defines, for every dialect."""

    root: Path
    kind: str
    """A built-in `ProjectKind`, or a kind a dialect plugin registered
    (`evalcore.definitions.kinds`)."""
    mantle: MantleDefinitions | None = None
    anychat: AnychatDefinitions | None = None
    agent_skills: AgentSkillsDefinitions | None = None
    plugin_definitions: dict[str, Any] = field(default_factory=dict)
    """What the reader of a plugin's kind read, by kind (`ProjectReader.attribute` None):
    the built-in kinds have an attribute each."""
    sources: list[SourceFile] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    """Problems the readers noticed in definitions (reported by `casegen sources`)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.root, Path):  # a str root, as pydantic accepted it
            self.root = Path(self.root)

    def relpath(self, path: Path | str) -> str:
        try:
            return Path(path).resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return Path(path).as_posix()
