"""Reference lint for a Mantle scenario's `goals.expected_tools`: every tool a
`tool_called` names must be one some skill of the project can call.

expected_tools carries no source or skill, so a name counts when any skill reaches it: its
local tools, its imported shared or MCP tools, or a framework tool. The shape (maps, never
bare names) is the schema's job; lint skips what is not the shape it expects.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ... import pointer as ptr
from ...definitions import FRAMEWORK_TOOLS
from ...findings import Finding
from ...lint import as_dict, as_list, unknown_id


def expected_tools_findings(
    goals: dict[str, Any], known: frozenset[str], base: str
) -> list[Finding]:
    """`unknown-tool` findings for the tool names of `goals.expected_tools` (at `base`);
    `known` is every tool name some skill can call (`_lint_tables.known_tools`)."""
    findings: list[Finding] = []
    for name, path in _tool_names(
        as_list(goals.get("expected_tools")), ptr.join(base, "expected_tools")
    ):
        if name in known or name in FRAMEWORK_TOOLS:
            continue
        findings.append(
            unknown_id(
                "unknown-tool",
                path,
                name,
                known,
                what="tool",
                message=f"no skill has a tool '{name}' (expected_tools)",
            )
        )
    return findings


def _tool_names(items: list[Any], base: str) -> Iterator[tuple[str, str]]:
    """(name, pointer) of each `tool_called` in expected_tools, groups included."""
    for index, item in enumerate(items):
        entry = as_dict(item)
        if "tool_group" in entry:
            for sub, group_item in enumerate(as_list(entry["tool_group"])):
                yield from _called(as_dict(group_item), ptr.join(base, index, "tool_group", sub))
        else:
            yield from _called(entry, ptr.join(base, index))


def _called(entry: dict[str, Any], path: str) -> Iterator[tuple[str, str]]:
    value = entry.get("tool_called")
    if isinstance(value, str) and value:
        yield value, ptr.join(path, "tool_called")
    elif isinstance(value, dict) and isinstance(value.get("tool_name"), str):
        yield value["tool_name"], ptr.join(path, "tool_called", "tool_name")
