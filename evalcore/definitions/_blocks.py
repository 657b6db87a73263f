"""Ordered-block steps: YAML `steps:` inside a `:::ordered_block` fence → `Block`.

A step's kind is the one kind key it carries (`collect:`, `execute_tool:`, ...) or `id: END`;
the kind key's value is the step's target, `next` becomes a step id or a `Branch` list, and
every other key is kept in `fields` as written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, get_args

from ..documents import Document
from ._context import ReadContext, as_list
from ._model import Block, Branch, Step, StepKind
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


def read_block(ctx: ReadContext, path: Path, raw: RawBlock) -> Block | None:
    """The block's steps (problems become warnings); None when the block has no id."""
    doc = ctx.parse_yaml(raw.content, path, line_offset=raw.line)
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
        ctx.warn_unknown_keys(doc, data, {"steps"}, (), f"ordered block '{raw.id}'")
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
