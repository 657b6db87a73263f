"""Mantle lint of tool assertions: local and MCP tools a scenario's skills can call, the
tools' arguments, and the skill that does own a tool named under another (`_Lint` mixes
this in)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ... import pointer as ptr
from ...definitions import FRAMEWORK_TOOLS
from ...findings import Finding
from ...lint import unknown_id

if TYPE_CHECKING:
    from ...definitions import MantleDefinitions, Skill, ToolDef
    from ._lint_tables import LintTables


class ToolChecks:
    """The tool part of one scenario's lint; `_Lint` provides the attributes and `skill`."""

    defs: MantleDefinitions
    tables: LintTables
    findings: list[Finding]

    skill: Callable[[dict[str, Any], str], Skill | None]

    def tool(self, body: dict[str, Any], path: str) -> None:
        skill = self.skill(body, path)
        skills = [skill] if skill is not None else list(self.defs.skills.values())
        name = body.get("tool_name")
        if not isinstance(name, str):
            return
        source = body.get("source")
        if source == "local":
            self.local_tool(name, body, skills, path)
        elif source == "mcp" and body.get("mcp_server", "absent") in (None, ""):
            self.no_server(body["mcp_server"], skills, path)
        elif source == "mcp":
            self.mcp_tool(name, body.get("mcp_server"), skills, path)

    def no_server(self, server: str | None, skills: list[Skill], path: str) -> None:
        """`mcp_server: null` or `''`: Rasa loads it, but compares every MCP call's server
        with it, so nothing matches (a missing one is the schema's to report)."""
        servers = sorted(
            {e[4:].partition(":")[0] for s in skills for e in s.import_tools if e[:4] == "mcp/"}
        )
        self.findings.append(
            Finding(
                code="unknown-tool",
                path=ptr.join(path, "mcp_server"),
                value=server,
                message=f"mcp_server {'null' if server is None else 'empty'} matches no "
                "call: Rasa compares the server of every MCP call with it",
                suggestion="name the server from integrations.yml"
                + (f": {', '.join(servers)}" if servers else ""),
            )
        )

    def local_tool(self, name: str, body: dict[str, Any], skills: list[Skill], path: str) -> None:
        if name in FRAMEWORK_TOOLS:
            return
        local, mcp = self.tables.callable_tools(skills)
        where = path + "/tool_name"
        if name in local:
            self.arguments(local[name], body.get("arguments"), path + "/arguments")
        elif name in mcp:
            finding = unknown_id(
                "unknown-tool",
                where,
                name,
                [],
                what="tool",
                message=f"'{name}' is an MCP tool, not a local one",
            )
            self.findings.append(
                finding.model_copy(
                    update={"suggestion": f"use source: mcp with mcp_server: {mcp[name]}"}
                )
            )
        else:
            scope = f"skill '{skills[0].id}' has no" if len(skills) == 1 else "no skill has a"
            finding = unknown_id(
                "unknown-tool",
                where,
                name,
                local,
                what="tool",
                message=f"{scope} local or imported tool '{name}'",
            )
            self.findings.append(self._other_owner(finding, name, skills))

    def mcp_tool(self, name: str, server: Any, skills: list[Skill], path: str) -> None:
        pairs: set[tuple[str, str]] = set()
        for skill in skills:
            for entry in skill.import_tools:
                if entry.startswith("mcp/"):
                    srv, _, tool = entry[4:].partition(":")
                    pairs.add((srv, tool))
        if not isinstance(server, str) or (server, name) in pairs:
            return
        who = f"skill '{skills[0].id}' does not import" if len(skills) == 1 else "no skill imports"
        servers = {s for s, _ in pairs}
        if server not in servers and any(t == name for _, t in pairs):
            self.findings.append(
                unknown_id(
                    "unknown-tool",
                    ptr.join(path, "mcp_server"),
                    server,
                    {s for s, t in pairs if t == name},
                    what="MCP server",
                    message=f"{who} '{name}' from MCP server '{server}'",
                )
            )
            return
        pool = {t for s, t in pairs if s == server or server not in servers}
        finding = unknown_id(
            "unknown-tool",
            ptr.join(path, "tool_name"),
            name,
            pool,
            what="tool",
            message=f"{who} mcp/{server}:{name}",
        )
        self.findings.append(self._other_owner(finding, name, skills, f"mcp/{server}:{name}"))

    def _other_owner(
        self, finding: Finding, name: str, skills: list[Skill], imported: str | None = None
    ) -> Finding:
        """Point at the skill that does have the tool when skill_id named another one."""
        if len(skills) != 1 or "did you mean" in (finding.suggestion or ""):
            return finding
        owners = [
            s.id
            for s in self.defs.skills.values()
            if (imported in s.import_tools if imported else name in s.tools)
        ]
        if not owners:
            return finding
        listed = " or ".join(f"'{o}'" for o in owners)
        return finding.model_copy(
            update={"suggestion": f"'{name}' belongs to skill {listed}; check skill_id"}
        )

    def arguments(self, tools: list[ToolDef], arguments: Any, path: str) -> None:
        if not arguments or not isinstance(arguments, dict):
            return  # nothing to check: the parameter names are not worth collecting
        params = {
            p.name for tool in tools for p in tool.parameters if "ToolContext" not in (p.type or "")
        }
        for key in arguments:
            if isinstance(key, str) and key not in params:
                self.findings.append(
                    unknown_id(
                        "unknown-tool-argument",
                        ptr.join(path, key),
                        key,
                        params,
                        what="argument",
                        key=True,
                        message=f"tool '{tools[0].name}' has no argument '{key}'",
                    )
                )
