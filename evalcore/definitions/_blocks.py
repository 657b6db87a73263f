"""Ordered-block steps: YAML `steps:` inside a `:::ordered_block` fence → `Block`.

A step's kind is the one kind key it carries (`collect:`, `execute_tool:`, ...) or `id: END`;
the kind key's value is the step's target, `next` becomes a step id or a `Branch` list, and
every other key is kept in `fields` as written. Beside `steps:` a block may carry `tools:`
(the tools the LLM may call inside the block) and `complete_when` (as on a skill); both are
Rasa keys, read into the `Block`, and `check_block_tools` names a tool the skill cannot reach.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, get_args

from ..documents import Document
from ._context import ReadContext, as_list
from ._model import Block, Branch, Skill, Step, StepKind
from ._skill_md import RawBlock

KIND_KEYS: tuple[str, ...] = tuple(k for k in get_args(StepKind) if k != "end")
"""Keys that name a step's kind, in the order a clash is resolved."""

#: Keys each kind may carry besides `id` and its kind key (from the Mantle step reference).
_ALLOWED: dict[str, set[str]] = {
    "instructions": {"complete_when", "optional", "next"},
    "collect": {"utterance", "description", "dtmf", "ask_before_filling", "next"},
    "action": {"next"},
    "execute_tool": {"parameters", "next"},
    "noop": {"next"},
    "set_memory": {"next"},
    "call": {"next"},
    "link": set(),
    "end": set(),
}
END = "END"
#: Keys an ordered block may carry besides its steps (`name` labels the block, as in the
#: default skills that ship with Rasa).
BLOCK_KEYS: tuple[str, ...] = ("steps", "tools", "complete_when", "name")
#: Tools the Mantle framework provides to every skill (user tools may not reuse the names).
FRAMEWORK_TOOLS = frozenset(
    {
        "activate",
        "complete",
        "cancel",
        "set_fields",
        "correct",
        "resolve_tool_confirmation",
        "search_knowledge",
        "cannot_help",
        "listen",
        "hangup",
    }
)


def read_block(ctx: ReadContext, path: Path, raw: RawBlock) -> Block | None:
    """The block's steps (problems become warnings); None when the block has no id."""
    doc = ctx.parse_yaml(raw.content, path, line_offset=raw.line, yaml11=True)
    if raw.id is None:
        return None
    block = Block(id=raw.id, line=raw.line)
    data = doc.data
    tokens: tuple[str | int, ...] = ("steps",)
    if isinstance(data, list):
        ctx.warn(path, raw.line, f"ordered block '{raw.id}': write the list under 'steps:'")
        steps, tokens = data, ()
    elif isinstance(data, dict) and isinstance(data.get("steps"), list):
        steps = data["steps"]
        ctx.warn_unknown_keys(doc, data, BLOCK_KEYS, (), f"ordered block '{raw.id}'")
        block.tools = _read_tools(ctx, doc, data.get("tools"), raw.id)
        block.complete_when = _read_complete_when(ctx, doc, data.get("complete_when"), raw.id)
    else:
        if doc.parsed:
            ctx.warn(path, raw.line, f"ordered block '{raw.id}' has no 'steps:' list")
        return block
    seen: set[str] = set()
    for index, item in enumerate(steps):
        step = _read_step(ctx, doc, item, (*tokens, index), raw.id)
        if step is None:
            continue
        if step.id in seen:
            ctx.warn(path, step.line, f"duplicate step id '{step.id}' in block '{raw.id}'")
            continue
        seen.add(step.id)
        block.steps.append(step)
    return block


def _read_tools(ctx: ReadContext, doc: Document, value: Any, block_id: str) -> list[str]:
    """Block `tools:` as names; a single name is read as a one-item list."""
    if value is None:
        return []
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list):
        ctx.warn_at(doc, ("tools",), f"ordered block '{block_id}': 'tools' is a list of tool names")
        return []
    names: list[str] = []
    for index, item in enumerate(items):
        if not isinstance(item, str) or not item.strip():
            at = ("tools", index) if isinstance(value, list) else ("tools",)
            ctx.warn_at(doc, at, f"ordered block '{block_id}': a tool in 'tools' is a name")
            continue
        names.append(item.strip())
    return names


def _read_complete_when(
    ctx: ReadContext, doc: Document, value: Any, block_id: str
) -> str | dict[str, Any] | None:
    """Block `complete_when`: a condition string or `{condition, criteria}`."""
    if value is None or isinstance(value, dict):
        return value
    if isinstance(value, str | bool | int | float):
        return str(value)
    ctx.warn_at(
        doc,
        ("complete_when",),
        f"ordered block '{block_id}': 'complete_when' is a condition or {{condition, criteria}}",
    )
    return None


def check_block_tools(ctx: ReadContext, path: Path, skill: Skill, shared_tools: set[str]) -> None:
    """Warn for a block `tools:` name the skill cannot call.

    A skill reaches its local tools, the tools it lists in `import_tools` (a shared name or
    `mcp/<server>:<tool>`, whose tool part also counts) and the framework tools; a shared tool
    that is not imported is attached by no one, so it is named as such.
    """
    reachable = set(skill.tools) | set(FRAMEWORK_TOOLS) | set(skill.import_tools)
    reachable |= {name.rpartition(":")[2] for name in skill.import_tools if name.startswith("mcp/")}
    for block in skill.blocks.values():
        for name in block.tools:
            if name in reachable:
                continue
            if name in shared_tools:
                hint = f"'{name}' is a shared tool: list it in the skill's 'import_tools'"
            else:
                known = ", ".join(sorted(reachable - FRAMEWORK_TOOLS)) or "none"
                hint = f"no such tool (the skill's tools: {known})"
            where = f"ordered block '{block.id}': tool '{name}' in 'tools'"
            ctx.warn(path, block.line, f"{where}: {hint}")


def _read_step(
    ctx: ReadContext, doc: Document, item: Any, tokens: tuple[str | int, ...], block_id: str
) -> Step | None:
    line = ctx.line(doc, *tokens)
    where = f"step {tokens[-1]} of block '{block_id}'"
    assert doc.path is not None
    if not isinstance(item, dict):
        ctx.warn(doc.path, line, f"{where} is not a mapping")
        return None
    step_id = item.get("id")
    if not isinstance(step_id, str | int) or isinstance(step_id, bool) or step_id == "":
        ctx.warn(doc.path, line, f"{where} has no 'id'")
        return None
    step_id = str(step_id)
    kinds = [key for key in item if key in KIND_KEYS]
    if not kinds:
        if step_id != END:
            ctx.warn(doc.path, line, f"step '{step_id}' has no kind key ({', '.join(KIND_KEYS)})")
            return None
        kind = "end"
    else:
        kind = kinds[0]
        if len(kinds) > 1:
            ctx.warn(
                doc.path,
                line,
                f"step '{step_id}' has several kind keys ({', '.join(kinds)}); read as {kind}",
            )
    target = item.get(kind) if kind != "end" else None
    fields = {k: v for k, v in item.items() if k not in {"id", kind, "next", *kinds}}
    for key in item:
        if key not in {"id", "next", *kinds} and key not in _ALLOWED[kind]:
            ctx.warn_at(doc, (*tokens, key), f"key '{key}' is not used by a {kind} step")
    if "next" in item and "next" not in _ALLOWED[kind]:
        ctx.warn_at(doc, (*tokens, "next"), f"a {kind} step does not continue: 'next' is ignored")
    return Step(
        id=step_id,
        kind=kind,
        target=target,
        next=_read_next(ctx, doc, item.get("next"), (*tokens, "next"), step_id),
        fields=fields,
        line=line,
    )


def _read_next(
    ctx: ReadContext, doc: Document, value: Any, tokens: tuple[str | int, ...], step_id: str
) -> str | list[Branch] | None:
    if value is None:
        return None
    if isinstance(value, str | int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, list):
        ctx.warn_at(doc, tokens, f"step '{step_id}': 'next' must be a step id or a branch list")
        return None
    branches: list[Branch] = []
    for index, entry in enumerate(as_list(value)):
        branch = _read_branch(entry)
        if branch is None:
            ctx.warn_at(
                doc,
                (*tokens, index),
                f"step '{step_id}': a branch is {{if: <cond>, then: <step>}} or {{else: <step>}}",
            )
            continue
        if branches and branches[-1].condition is None:
            ctx.warn_at(doc, (*tokens, index), f"step '{step_id}': branch after 'else:'")
        branches.append(branch)
    if branches and all(b.condition is not None for b in branches):
        ctx.warn_at(doc, tokens, f"step '{step_id}': the branch list needs a final 'else:'")
    return branches


def _read_branch(entry: Any) -> Branch | None:
    if not isinstance(entry, dict):
        return None
    if set(entry) == {"if", "then"} and entry["if"] is not None and entry["then"] is not None:
        return Branch(condition=str(entry["if"]), target=str(entry["then"]))
    if set(entry) == {"else"} and entry["else"] is not None:
        return Branch(condition=None, target=str(entry["else"]))
    return None
