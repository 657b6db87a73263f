"""What Mantle lint looks up in a project, built once per loaded project, not per scenario.

`validate` lints thousands of scenarios against one project; rebuilding the tools a set of
skills can call, or copying every response name, for each tool or bot assertion cost more
than the checks themselves. Each table is kept with the definitions object (`memoized`) under
a key that includes the shape it was built from (identities and sizes of the skills and maps
it read), so a project loaded again, or a map replaced or resized, gets a fresh table. The
tables are read-only for callers.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from ...definitions import memoized

if TYPE_CHECKING:
    from ...definitions import MantleDefinitions, MemoryField, Skill, ToolDef


def _skills_shape(skills: Sequence[Skill]) -> tuple[Hashable, ...]:
    return tuple((s.id, id(s), len(s.tools), len(s.import_tools)) for s in skills)


def _defs_shape(defs: MantleDefinitions) -> tuple[Hashable, ...]:
    return (id(defs.skills), len(defs.skills), id(defs.shared_tools), len(defs.shared_tools))


def callable_tools(
    defs: MantleDefinitions, skills: Sequence[Skill]
) -> tuple[dict[str, list[ToolDef]], dict[str, str]]:
    """(local tools by name, with every skill's definition in skill order; MCP tools by name
    → server) that `skills` can call."""

    def build() -> tuple[dict[str, list[ToolDef]], dict[str, str]]:
        local: dict[str, list[ToolDef]] = {}
        mcp: dict[str, str] = {}
        for skill in skills:
            for tool_name, tool in defs.tools_for(skill.id).items():
                if tool.scope == "mcp":
                    mcp.setdefault(tool_name, tool.mcp_server or "")
                else:
                    local.setdefault(tool_name, []).append(tool)
        return local, mcp

    key = ("lint:callable_tools", _skills_shape(skills), _defs_shape(defs))
    return memoized(defs, key, build)


def known_tools(defs: MantleDefinitions) -> frozenset[str]:
    """Every tool name some skill of the project can call."""
    skills = list(defs.skills.values())
    key = ("lint:known_tools", _skills_shape(skills), _defs_shape(defs))

    def build() -> frozenset[str]:
        return frozenset(name for skill in defs.skills for name in defs.tools_for(skill))

    return memoized(defs, key, build)


def response_names(defs: MantleDefinitions) -> frozenset[str]:
    """Project and skill response names."""
    skills = list(defs.skills.values())
    shape = tuple((id(s.responses), len(s.responses)) for s in skills)
    key = ("lint:responses", id(defs.responses), len(defs.responses), shape, _defs_shape(defs))
    return memoized(defs, key, lambda: frozenset(defs.all_responses()))


def memory_names(defs: MantleDefinitions) -> dict[str, MemoryField]:
    """`defs.memory_names()`, without a fresh copy per scenario."""
    skills = list(defs.skills.values())
    shape = tuple((id(s.memory), len(s.memory)) for s in skills)
    key = ("lint:memory", id(defs.memory), len(defs.memory), shape, _defs_shape(defs))
    return memoized(defs, key, defs.memory_names)


class LintTables:
    """Every table one scenario's lint reads, fetched with one shape check per scenario
    (`lint_tables`) instead of one per assertion; the tools a set of skills can call are
    kept per set, built by `callable_tools`."""

    __slots__ = ("_callable", "defs", "known_tools", "memory", "responses")

    def __init__(self, defs: MantleDefinitions) -> None:
        self.defs = defs
        self.memory = memory_names(defs)
        self.responses = response_names(defs)
        self.known_tools = known_tools(defs)
        self._callable: dict[tuple[int, ...], tuple[dict[str, list[ToolDef]], dict[str, str]]]
        self._callable = {}

    def callable_tools(
        self, skills: Sequence[Skill]
    ) -> tuple[dict[str, list[ToolDef]], dict[str, str]]:
        """`callable_tools(defs, skills)`: the skills are the project's own, so their
        identities name the set for as long as these tables are the project's."""
        key = tuple(map(id, skills))
        found = self._callable.get(key)
        if found is None:
            found = self._callable[key] = callable_tools(self.defs, skills)
        return found


def lint_tables(defs: MantleDefinitions) -> LintTables:
    """The tables for `defs` as they are now: kept under the shape of everything they were
    built from, so a project loaded again, or a map replaced or resized, gets fresh ones."""
    skills = list(defs.skills.values())
    # a list display, not a generator: this runs for every case, over every skill
    shape = tuple(
        [
            (
                s.id,
                id(s),
                len(s.tools),
                len(s.import_tools),
                id(s.memory),
                len(s.memory),
                id(s.responses),
                len(s.responses),
            )
            for s in skills
        ]
    )
    key = (
        "lint:tables",
        shape,
        (id(defs.memory), len(defs.memory), id(defs.responses), len(defs.responses)),
        _defs_shape(defs),
    )
    return memoized(defs, key, lambda: LintTables(defs))
