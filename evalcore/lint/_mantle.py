"""Reference lint for Mantle scenarios: every skill, block, step, memory name, tool, argument
and response a scenario names must exist in the project, and memory values must fit their
declared fields, because the runner silently fails (or vacuously passes) on a wrong id.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from .. import pointer as ptr
from ..definitions import FRAMEWORK_TOOLS
from ..findings import Finding
from ..schemas import json_type
from ..suggest import close_matches
from . import as_dict, as_list, regex_error, unknown_id
from ._mantle_expected import expected_tools_findings
from ._mantle_tables import lint_tables

if TYPE_CHECKING:
    from ..definitions import MantleDefinitions, MemoryField, Project, Skill, ToolDef


_SKILL_ONLY = {"skill_activated", "skill_completed"}
_SKILL_STEP = {"skill_cancelled", "skill_interrupted", "skill_resumed"}
_BLOCK_STEP = {
    "ordered_block_completed",
    "ordered_block_cancelled",
    "ordered_block_interrupted",
    "ordered_block_resumed",
}
_BOT = {"bot_uttered", "bot_did_not_utter"}
#: The step id skill_cancelled/_interrupted/_resumed carry while the skill runs as prose.
AUTONOMOUS_STEP = "autonomous"

#: Field type -> (accepts value?, coerce_to target for generic repair).
_TYPE_RULES: dict[str, tuple[Callable[[Any], bool], str | None]] = {
    "text": (lambda v: isinstance(v, str), None),
    "categorical": (lambda v: isinstance(v, str), None),
    "int": (lambda v: isinstance(v, int) and not isinstance(v, bool), "int"),
    "float": (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), "float"),
    "bool": (lambda v: isinstance(v, bool), "bool"),
    "list": (lambda v: isinstance(v, list), None),
}


def lint_mantle(data: Any, project: Project) -> list[Finding]:
    """Reference findings for one scenario against `project.mantle` (never raises)."""
    defs = project.mantle
    if defs is None:
        return []
    return _Lint(defs).run(data)


class _Lint:
    """One pass over a scenario; collects findings in document order."""

    def __init__(self, defs: MantleDefinitions) -> None:
        self.defs = defs
        self.tables = lint_tables(defs)
        self.memory = self.tables.memory
        self.findings: list[Finding] = []

    def run(self, data: Any) -> list[Finding]:
        scenario = as_dict(as_dict(data).get("scenario"))
        base = "/scenario"
        slots = as_dict(as_dict(scenario.get("setup")).get("initial_slots"))
        for key, value in slots.items():
            if isinstance(key, str):
                self.initial_slot(key, value, f"{base}/setup/initial_slots/{ptr.escape(key)}")
        goals = as_dict(scenario.get("goals"))
        for index, item in enumerate(as_list(goals.get("assertions"))):
            self.check(item, f"{base}/goals/assertions/{index}", in_sequence=False)
        self.findings += expected_tools_findings(goals, self.tables.known_tools, base + "/goals")
        return self.findings

    # --- checks -------------------------------------------------------------------------

    def check(self, item: Any, where: str, *, in_sequence: bool) -> None:
        for kind, body in as_dict(item).items():
            path = f"{where}/{ptr.escape(kind)}"  # pointers are built per item: no join call
            if kind in _SKILL_ONLY or kind in _SKILL_STEP:
                self.skill_event(kind, as_dict(body), path)
            elif kind == "ordered_block_entered" or kind in _BLOCK_STEP:
                self.block_event(as_dict(body), path)
            elif kind in ("memory_was_set", "memory_was_not_set", "memory_was_cleared"):
                if in_sequence and isinstance(body, str):
                    self.memory_name(body, path)
                else:
                    self.memory_list(body, path, with_values=kind != "memory_was_cleared")
            elif kind == "tool_executed":
                self.tool(as_dict(body), path)
            elif kind == "tools_within_one_turn":
                for i, call in enumerate(as_list(as_dict(body).get("calls"))):
                    call_path = f"{path}/calls/{i}/tool_executed"
                    self.tool(as_dict(as_dict(call).get("tool_executed")), call_path)
            elif kind in _BOT:
                self.bot(as_dict(body), path)
            elif kind == "sequencing" and not in_sequence:
                for i, sub in enumerate(as_list(body)):
                    self.check(sub, f"{path}/{i}", in_sequence=True)

    def skill(self, body: dict[str, Any], path: str) -> Skill | None:
        """The skill `body.skill_id` names; reports it when unknown."""
        skill_id = body.get("skill_id")
        if not isinstance(skill_id, str):
            return None
        skill = self.defs.skills.get(skill_id)
        if skill is None:
            self.findings.append(
                unknown_id(
                    "unknown-skill",
                    ptr.join(path, "skill_id"),
                    skill_id,
                    self.defs.skills,
                    what="skill",
                )
            )
        return skill

    def skill_event(self, kind: str, body: dict[str, Any], path: str) -> None:
        skill = self.skill(body, path)
        step_id = body.get("step_id")
        if skill is None or kind in _SKILL_ONLY or not isinstance(step_id, str):
            return
        steps = skill.step_ids | {AUTONOMOUS_STEP}
        if step_id not in steps:
            self.findings.append(
                unknown_id(
                    "unknown-step",
                    ptr.join(path, "step_id"),
                    step_id,
                    steps,
                    what="step",
                    message=f"skill '{skill.id}' has no step '{step_id}' "
                    f"('{AUTONOMOUS_STEP}' means the skill was in prose)",
                )
            )

    def block_event(self, body: dict[str, Any], path: str) -> None:
        skill = self.skill(body, path)
        block_id = body.get("block_id")
        if skill is None or not isinstance(block_id, str):
            return
        block = skill.blocks.get(block_id)
        if block is None:
            self.findings.append(
                unknown_id(
                    "unknown-block",
                    ptr.join(path, "block_id"),
                    block_id,
                    skill.blocks,
                    what="block",
                    message=f"skill '{skill.id}' has no ordered block '{block_id}'",
                )
            )
            return
        step_id = body.get("step_id")
        steps = [s.id for s in block.steps]
        if isinstance(step_id, str) and step_id not in steps:
            self.findings.append(
                unknown_id(
                    "unknown-step",
                    ptr.join(path, "step_id"),
                    step_id,
                    steps,
                    what="step",
                    message=f"block '{skill.id}/{block_id}' has no step '{step_id}'",
                )
            )

    # --- memory -------------------------------------------------------------------------

    def memory_list(self, body: Any, path: str, *, with_values: bool) -> None:
        for i, entry in enumerate(as_list(body)):
            entry = as_dict(entry)
            field = self.memory_name(entry.get("name"), f"{path}/{i}/name")
            if with_values and field is not None and "value" in entry:
                self.memory_value(field, entry["value"], f"{path}/{i}/value")

    def memory_name(self, name: Any, path: str) -> MemoryField | None:
        """The declared field an assertion memory name refers to; reports unknown names."""
        if not isinstance(name, str) or not name or name.startswith("session."):
            return None  # not a name, or the schema already reports the prefix
        if name.startswith("system."):
            return None
        field = self.memory.get(name)
        if field is not None:
            return field
        message = None
        if "." not in name:
            message = f"memory name '{name}' has no namespace; write <skill>.<key> or project.<key>"
        self.findings.append(self._unknown_memory(name, path, self.memory, message=message))
        return None

    def _unknown_memory(
        self,
        name: str,
        path: str,
        declared: Iterable[str],
        *,
        message: str | None = None,
        key: bool = False,
    ) -> Finding:
        """An unknown-memory finding whose candidates match part by part.

        Whole-name similarity is dominated by a shared namespace (`card_replace.order_id`
        looks like `card_replace.account_id`), so namespace and key are compared separately.
        """
        groups: dict[str, list[str]] = {}
        for full in declared:
            namespace, _, entry = full.partition(".")
            groups.setdefault(namespace, []).append(entry)
        namespace, dot, entry = name.partition(".")
        if not dot:  # a bare key: the same key in any namespace
            pool = [f"{n}.{k}" for n, keys in groups.items() for k in keys if k == name]
        else:
            near = [namespace] if namespace in groups else close_matches(namespace, groups)
            pool = [
                f"{n}.{k}"
                for n in near
                for k in ([entry] if entry in groups[n] else close_matches(entry, groups[n]))
            ]
        finding = unknown_id(
            "unknown-memory",
            path,
            name,
            pool,
            what="memory name",
            key=key,
            message=message or f"unknown memory name '{name}'",
        )
        if pool:
            return finding
        if namespace in groups:
            hint = f"'{namespace}' declares: " + ", ".join(sorted(groups[namespace]))
        else:
            hint = "known namespaces: " + ", ".join([*sorted(groups), "system"])
        return finding.model_copy(update={"suggestion": hint})

    def memory_value(self, field: MemoryField, value: Any, path: str) -> None:
        if value is None:
            return  # the schema rejects null values
        accepts, coerce_to = _TYPE_RULES.get(field.type, (lambda v: True, None))
        if not accepts(value):
            self.findings.append(
                Finding(
                    code="memory-type",
                    path=path,
                    value=value,
                    message=f"{field.qualified} has type {field.type}; got "
                    f"{_show(value)} ({json_type(value)})",
                    suggestion=f"give a value of type {field.type}"
                    + (", without quotes" if coerce_to and isinstance(value, str) else ""),
                    context={"coerce_to": coerce_to} if coerce_to else {},
                )
            )
            return
        allowed = field.enum_values or []
        if field.type == "categorical" and allowed and value not in allowed:
            enum = unknown_id(
                "memory-enum",
                path,
                value,
                [str(a) for a in allowed],
                what="value",
                message=f"{_show(value)} is not one of {field.qualified}'s enum_values",
            )
            self.findings.append(
                enum.model_copy(update={"context": {**enum.context, "match": "case"}})
            )

    def initial_slot(self, key: str, value: Any, path: str) -> None:
        if key.startswith(("session.", "system.")) or not key:
            return  # the schema reports session.; system memory is the runtime's own
        namespace, dot, entry = key.partition(".")
        project_name = entry if namespace == "project" else (key if not dot else None)
        if project_name is not None:
            field = self.defs.memory.get(project_name)
            if field is None:
                pool = [f"project.{k}" for k in self.defs.memory] if dot else list(self.defs.memory)
                self.findings.append(self._unknown_slot(key, path, pool))
                return
            if not field.seed:
                self.findings.append(
                    Finding(
                        code="not-seed-slot",
                        severity="warning",
                        path=path,
                        value=key,
                        message=f"initial slot '{key}' names project field "
                        f"'{field.name}', which is not seed: true; it will not be "
                        "copied into memory",
                        suggestion="mark the field seed: true in memory.yml, or let the "
                        "simulated user provide it",
                    )
                )
        else:
            field = self.memory.get(key)
            if field is None:
                self.findings.append(self._unknown_slot(key, path, list(self.memory)))
                return
        self.memory_value(field, value, path)

    def _unknown_slot(self, key: str, path: str, pool: list[str]) -> Finding:
        message = f"initial slot '{key}' is not a declared memory field"
        if "." in key:
            return self._unknown_memory(key, path, pool, message=message, key=True)
        finding = unknown_id(
            "unknown-memory", path, key, pool, what="memory name", key=True, message=message
        )
        owners = [
            f.qualified for f in self.memory.values() if f.name == key and f.namespace != "project"
        ]
        if owners:
            hint = " or ".join(f"'{o}'" for o in owners)
            finding = finding.model_copy(
                update={"suggestion": f"skill fields need their skill prefix: {hint}"}
            )
        return finding

    # --- tools --------------------------------------------------------------------------

    def tool(self, body: dict[str, Any], path: str) -> None:
        skill = self.skill(body, path)
        skills = [skill] if skill is not None else list(self.defs.skills.values())
        name = body.get("tool_name")
        if not isinstance(name, str):
            return
        source = body.get("source")
        if source == "local":
            self.local_tool(name, body, skills, path)
        elif source == "mcp":
            self.mcp_tool(name, body.get("mcp_server"), skills, path)

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
        params = {
            p.name for tool in tools for p in tool.parameters if "ToolContext" not in (p.type or "")
        }
        for key in as_dict(arguments):
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

    # --- bot messages -------------------------------------------------------------------

    def bot(self, body: dict[str, Any], path: str) -> None:
        utter = body.get("utter_name")
        responses = self.tables.responses
        if isinstance(utter, str) and utter not in responses:
            self.findings.append(
                unknown_id(
                    "unknown-response",
                    ptr.join(path, "utter_name"),
                    utter,
                    responses,
                    what="response",
                )
            )
        pattern = body.get("text_matches")
        error = regex_error(pattern)
        if error is not None:
            self.findings.append(
                Finding(
                    code="bad-regex",
                    path=ptr.join(path, "text_matches"),
                    value=pattern,
                    message=f"text_matches is not a valid regular expression: {error}",
                    suggestion="escape regex characters such as ( ) [ ] * + ? with a backslash",
                )
            )


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"
