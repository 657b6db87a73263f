"""One Mantle skill folder, `skills/<id>/`, read into a `Skill`.

The folder name is the skill id. `skill.md` gives the frontmatter levers and the body
(prose conditions, tokens, ordered blocks); `memory.yml`, `responses.yml` and
`tools.py` / `tools/*.py` sit next to it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from ..documents import Document
from ..lexicon.en.skill_handoffs import ESCALATED_TO as _ESCALATED_TO
from ..lexicon.en.skill_handoffs import HANDOFF_WORDS
from ..lexicon.en.skill_handoffs import SOMEONE as _SOMEONE
from ._blocks import check_block_tools, read_block
from ._context import ReadContext
from ._frontmatter import CONFIRMATION_KEYS, CONSTRAINT_KEYS, FRONTMATTER_KEYS, split_frontmatter
from ._mantle_memory import read_responses, read_skill_memory
from ._model import Block, Confirmation, Skill, ToolConstraint, ToolDef, UtterRule
from ._skill_md import parse_body
from ._tools_ast import read_tool_file

_STRICT_BOOLS = ("hidden", "disabled", "always_include_in_prompt")

Tokens = tuple[str | int, ...]


def read_skill(
    ctx: ReadContext, folder: Path, *, shared_tools: set[str], mcp_servers: set[str]
) -> Skill:
    """Read `folder` (which holds a `skill.md`); never raises on bad content."""
    path = folder / "skill.md"
    text = ctx.read_text(path)
    if text is None:  # unreadable: already warned about
        return Skill(id=folder.name, path=ctx.rel(folder))
    split = split_frontmatter(text, filename="skill.md")
    if split.problem is not None:
        ctx.warn(path, *split.problem)
    frontmatter, doc = _frontmatter(ctx, path, split.frontmatter, split.frontmatter_offset)
    body = parse_body(split.body, split.body_first_line)
    for line, message in body.problems:
        ctx.warn(path, line, message)
    skill = Skill(
        id=folder.name,
        path=ctx.rel(folder),
        frontmatter=frontmatter,
        body=split.body,
        prose_conditions=body.prose_conditions,
        tokens=body.tokens,
        blocks=_blocks(ctx, path, body.blocks),
    )
    if doc is not None:
        _apply_frontmatter(ctx, doc, frontmatter, skill, shared_tools, mcp_servers)
    if ctx.present(folder / "memory.yml"):
        skill.memory = read_skill_memory(ctx, folder / "memory.yml", skill.id)
    if ctx.present(folder / "responses.yml"):
        skill.responses = read_responses(ctx, folder / "responses.yml", skill.id)
    skill.tools = _local_tools(ctx, folder)
    check_block_tools(ctx, path, skill, shared_tools)
    skill.is_handoff = is_handoff(skill)
    return skill


def is_handoff(skill: Skill) -> bool:
    """True when the skill hands the conversation to a person.

    Deliberately simple: hand-off wording (`HANDOFF_WORDS`: handoff, human agent, live
    agent, escalate/escalation, transfer to a human) in the skill's name or description, a
    local tool's name or description, or an imported tool's name. Neither the prose body
    ("never escalate unless ...") nor a `link:` step (which passes control to another
    *skill*) makes a skill a hand-off to a person.
    """
    texts = [skill.name or "", skill.description or "", *skill.import_tools]
    for tool in skill.tools.values():
        texts += [tool.name, tool.description or ""]
    return any(_hands_off(text) for text in texts)


def _hands_off(text: str) -> bool:
    """True when `text` has hand-off wording that is not an escalation to something else."""
    for match in HANDOFF_WORDS.finditer(text):
        if not match[0].lower().startswith("escalat"):
            return True
        aimed = _ESCALATED_TO.match(text, match.start())
        if aimed is None or _SOMEONE.search(aimed[1]):
            return True
    return False


# --- frontmatter ------------------------------------------------------------------------


def _frontmatter(
    ctx: ReadContext, path: Path, text: str | None, offset: int
) -> tuple[dict[str, Any], Document | None]:
    if text is None:
        return {}, None
    doc = ctx.parse_yaml(text, path, line_offset=offset, yaml11=True)
    if doc.data is None:
        return {}, doc
    if not isinstance(doc.data, dict):
        ctx.warn(path, offset + 1, "skill.md frontmatter must be a YAML mapping")
        return {}, None
    return doc.data, doc


def _apply_frontmatter(
    ctx: ReadContext,
    doc: Document,
    data: dict[str, Any],
    skill: Skill,
    shared_tools: set[str],
    mcp_servers: set[str],
) -> None:
    ctx.warn_unknown_keys(doc, data, FRONTMATTER_KEYS, (), "skill.md frontmatter")
    skill.name = _text(ctx, doc, data, "name")
    skill.description = _text(ctx, doc, data, "description")
    for key in _STRICT_BOOLS:
        value = data.get(key)
        if value is not None and not isinstance(value, bool):
            ctx.warn_at(doc, (key,), f"'{key}' must be true or false (got {value!r})")
    skill.hidden = data.get("hidden") is True
    skill.disabled = data.get("disabled") is True
    skill.complete_when = _complete_when(ctx, doc, data.get("complete_when"))
    skill.import_tools = _import_tools(
        ctx, doc, data.get("import_tools"), shared_tools, mcp_servers
    )
    skill.tool_constraints = _tool_constraints(ctx, doc, data.get("tool_constraints"))
    skill.utter = _utter_rules(ctx, doc, data.get("utter"))


def _text(ctx: ReadContext, doc: Document, data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is None or isinstance(value, str):
        return value
    ctx.warn_at(doc, (key,), f"'{key}' must be a string")
    return str(value)


def _complete_when(ctx: ReadContext, doc: Document, value: Any) -> dict[str, Any] | None:
    if value is None or isinstance(value, dict):
        return value
    ctx.warn_at(doc, ("complete_when",), "'complete_when' is {condition: ..., criteria: [...]}")
    return {"condition": str(value)}


def _import_tools(
    ctx: ReadContext, doc: Document, value: Any, shared: set[str], servers: set[str]
) -> list[str]:
    if value is None:
        return []
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        ctx.warn_at(doc, ("import_tools",), "'import_tools' is a tool name or a list of names")
        return []
    for index, name in enumerate(names):
        at = ("import_tools", index) if isinstance(value, list) else ("import_tools",)
        if name.startswith("mcp/"):
            server, colon, tool = name[4:].partition(":")
            if not colon or not server or not tool:
                ctx.warn_at(doc, at, f"MCP import '{name}' must be 'mcp/<server>:<tool>'")
            elif server not in servers:
                ctx.warn_at(doc, at, f"MCP server '{server}' is not in integrations.yml")
        elif name not in shared:
            ctx.warn_at(doc, at, f"imported tool '{name}' is not a shared tool in tools/")
    return list(names)


def _tool_constraints(ctx: ReadContext, doc: Document, value: Any) -> dict[str, ToolConstraint]:
    entries: list[tuple[Tokens, str, Any]] = []
    if isinstance(value, dict):
        entries = [(("tool_constraints", str(k)), str(k), v) for k, v in value.items()]
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict) and len(item) == 1:
                tool, spec = next(iter(item.items()))
                entries.append((("tool_constraints", index, str(tool)), str(tool), spec))
            else:
                ctx.warn_at(doc, ("tool_constraints", index), "a constraint is {<tool>: {...}}")
    elif value is not None:
        ctx.warn_at(doc, ("tool_constraints",), "'tool_constraints' is a list of {<tool>: {...}}")
    out: dict[str, ToolConstraint] = {}
    for at, tool, spec in entries:
        if spec is None:
            spec = {}
        if not isinstance(spec, dict):
            ctx.warn_at(doc, at, f"constraint for '{tool}' must be a mapping")
            continue
        ctx.warn_unknown_keys(doc, spec, CONSTRAINT_KEYS, at, f"tool constraint '{tool}'")
        out[tool] = ToolConstraint(
            tool=tool,
            requires=_optional_str(spec.get("requires")),
            requires_confirmation=_confirmation(
                ctx, doc, spec.get("requires_confirmation"), (*at, "requires_confirmation")
            ),
            on_success=_optional_str(spec.get("on_success")),
            on_failure=_optional_str(spec.get("on_failure")),
        )
    return out


def _confirmation(ctx: ReadContext, doc: Document, value: Any, at: Tokens) -> Confirmation | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return Confirmation(enabled=value)
    if not isinstance(value, dict):
        ctx.warn_at(doc, at, "'requires_confirmation' is {enabled, utter_for_confirmation, ...}")
        return None
    ctx.warn_unknown_keys(doc, value, CONFIRMATION_KEYS, at, "requires_confirmation")
    enabled = value.get("enabled", True)
    return Confirmation(
        enabled=enabled if isinstance(enabled, bool) else True,
        utter_for_confirmation=_optional_str(value.get("utter_for_confirmation")),
        utter_on_user_denial=_optional_str(value.get("utter_on_user_denial")),
    )


def _utter_rules(ctx: ReadContext, doc: Document, value: Any) -> list[UtterRule]:
    if value is None:
        return []
    if not isinstance(value, list):
        ctx.warn_at(doc, ("utter",), "'utter' is a list of {utter_x: {on: activate}}")
        return []
    rules = []
    for index, item in enumerate(value):
        if not (isinstance(item, dict) and len(item) == 1):
            ctx.warn_at(doc, ("utter", index), "an utter rule is {utter_x: {on: | when: ...}}")
            continue
        response, spec = next(iter(item.items()))
        at = ("utter", index, str(response))
        if not isinstance(spec, dict) or not ({"on", "when"} & set(spec)):
            ctx.warn_at(doc, at, f"utter rule '{response}' needs 'on: activate' or 'when: <cond>'")
            continue
        ctx.warn_unknown_keys(doc, spec, {"on", "when"}, at, f"utter rule '{response}'")
        if "on" in spec and spec["on"] != "activate":
            ctx.warn_at(doc, (*at, "on"), f"utter rule '{response}': 'on' only takes 'activate'")
        rules.append(
            UtterRule(
                response=str(response),
                on=_optional_str(spec.get("on")),
                when=_optional_str(spec.get("when")),
            )
        )
    return rules


def _optional_str(value: Any) -> str | None:
    return None if value is None else str(value)


# --- body and tools ---------------------------------------------------------------------


def _blocks(ctx: ReadContext, path: Path, raw_blocks: list[Any]) -> dict[str, Block]:
    blocks: dict[str, Block] = {}
    for raw in raw_blocks:
        block = read_block(ctx, path, raw)
        if block is None:
            continue
        if block.id in blocks:
            ctx.warn(path, block.line, f"duplicate ordered block id '{block.id}'")
            continue
        blocks[block.id] = block
    return blocks


def _local_tools(ctx: ReadContext, folder: Path) -> dict[str, ToolDef]:
    files = [folder / "tools.py"] if ctx.present(folder / "tools.py") else []
    if (folder / "tools").is_dir():
        files += sorted((folder / "tools").glob("*.py"))
    return collect_tools(ctx, files, "local")


def collect_tools(
    ctx: ReadContext, files: list[Path], scope: Literal["local", "shared"]
) -> dict[str, ToolDef]:
    """Tools of several files by name; a repeated name is warned about (first one kept)."""
    tools: dict[str, ToolDef] = {}
    for file in files:
        for tool in read_tool_file(ctx, file, scope):
            if tool.name in tools:
                line = tool.source.line if tool.source else None
                ctx.warn(file, line, f"tool '{tool.name}' is defined twice")
                continue
            tools[tool.name] = tool
    return tools
