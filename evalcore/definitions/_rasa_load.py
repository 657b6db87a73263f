"""Would Rasa load this skill? Rasa's skill compiler rules (rasa-pro 3.22), on what casegen read.

Rasa's catalog loader compiles each `skills/<id>/skill.md` and *drops* a skill whose
compilation raises; `rasa train` then refuses the project with
`mantle.validation.skill.failed_to_load`. casegen reads such a skill leniently (with
warnings), so without this check it would plan cases for a skill the agent does not have.
`load_error` returns the first reason Rasa's compiler gives up on a skill (Rasa stops at the
first), in its own terms, or None when Rasa loads it. The rules are those of
`rasa/mantle/skills/frontmatter.py` (a pydantic model with `extra="forbid"`),
`markdown_skill_compiler.py`, `prose_scoping.py`, `catalog.py` and `steps.py`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Collection
from functools import lru_cache
from typing import Any

from ..documents import parse_text
from ..lexicon.notation.mantle_blocks import ORDERED_BLOCK
from ..limits import InputLimits
from ._frontmatter import CONFIRMATION_KEYS, CONSTRAINT_KEYS, FRONTMATTER_KEYS
from ._model import Skill

"""Rasa's own pattern for an ordered block (`_ORDERED_BLOCK_PATTERN`)."""
_PARAGRAPH_SPLIT = re.compile(r"\n\s*\n")

#: Keys each step kind takes besides `id` (Rasa's step models, all `extra="forbid"`).
_STEP_FIELDS: dict[str, frozenset[str]] = {
    "autonomous": frozenset({"instructions", "complete_when", "optional", "next"}),
    "collect": frozenset(
        {"collect", "utterance", "description", "dtmf", "ask_before_filling", "next"}
    ),
    "action": frozenset({"action", "next"}),
    "route": frozenset({"noop", "next"}),
    "execute": frozenset({"execute_tool", "parameters", "next"}),
    "set_memory": frozenset({"set_memory", "next"}),
    "call": frozenset({"call", "next"}),
    "link": frozenset({"link"}),
    "end": frozenset(),
}
_KIND_BY_KEY = {
    "instructions": "autonomous",
    "collect": "collect",
    "action": "action",
    "execute_tool": "execute",
    "set_memory": "set_memory",
    "call": "call",
    "link": "link",
}
_STRING_TARGET = {
    "autonomous": "instructions",
    "collect": "collect",
    "action": "action",
    "execute": "execute_tool",
    "call": "call",
    "link": "link",
}


_CONDITION_NODES = (
    ast.Constant,
    ast.BoolOp,
    ast.And,
    ast.Or,
    ast.UnaryOp,
    ast.Not,
    ast.Compare,
    ast.Eq,
    ast.NotEq,
    ast.Lt,
    ast.LtE,
    ast.Gt,
    ast.GtE,
    ast.Load,
)
"""What a Rasa condition may hold besides `session.<namespace>.<entry>` (`conditions.py`)."""


class SkillLoadError(ValueError):
    """Why Rasa's compiler refuses a skill (the message Rasa's finding carries)."""


def load_error(skill: Skill, limits: InputLimits | None = None) -> str | None:
    """The reason Rasa would not load `skill` (None when it would); `limits`: the input
    limits of its folder (its ordered blocks are read again the way Rasa cuts them)."""
    try:
        _check_frontmatter(skill.frontmatter)
        segments = prose_segments(skill.body)
        _check_complete_when(skill.frontmatter.get("complete_when"), has_prose=bool(segments))
        if not segments and not ORDERED_BLOCK.search(skill.body):
            raise SkillLoadError("skill.md must include prose instructions or ordered blocks")
        _check_blocks(skill.body, limits)
    except SkillLoadError as error:
        return str(error)
    return None


# --- conditions (rasa/mantle/skills/conditions.py) ----------------------------------------


def condition_error(expr: str) -> str | None:
    """Why `expr` is not a Rasa condition (None when it is): Python syntax, then only
    `session.<namespace>.<entry>`, constants, `and`/`or`/`not` and comparisons."""
    tree = _parse(expr)
    if tree is None:
        return f"Invalid condition expression {expr!r}"
    for node in ast.walk(tree.body):
        if isinstance(node, ast.Attribute):
            if memory_key(node) is None and not _inside_memory_key(node, tree.body):
                return "Invalid memory reference in condition (write session.<namespace>.<entry>)"
        elif isinstance(node, ast.Name):
            if not _inside_memory_key(node, tree.body):
                return f"Unknown name {node.id!r} in condition expression"
        elif isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.Not):
            return f"Unsupported unary operator: {type(node.op).__name__}"
        elif not isinstance(node, _CONDITION_NODES):
            return f"Unsupported expression node {type(node).__name__!r}"
    return None


def _parse(expr: Any) -> ast.Expression | None:
    """`expr` as a Python expression (None when it is not one, or too deep to parse)."""
    if not isinstance(expr, str):
        return None
    try:
        return ast.parse(expr, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def memory_key(node: ast.Attribute) -> str | None:
    """`namespace.entry` when `node` is `session.<namespace>.<entry>`, else None."""
    inner = node.value
    if (
        isinstance(inner, ast.Attribute)
        and isinstance(inner.value, ast.Name)
        and inner.value.id == "session"
    ):
        return f"{inner.attr}.{node.attr}"
    return None


def _inside_memory_key(node: ast.AST, root: ast.AST) -> bool:
    """True when `node` is the inner part of a `session.<ns>.<entry>` chain."""
    for candidate in ast.walk(root):
        if isinstance(candidate, ast.Attribute) and memory_key(candidate) is not None:
            inner = candidate.value
            assert isinstance(inner, ast.Attribute)
            if node is inner or node is inner.value:
                return True
    return False


def memory_keys(expr: Any) -> set[str]:
    """Every `session.<namespace>.<entry>` key `expr` reads (empty when it does not parse)."""
    tree = _parse(expr)
    if tree is None:
        return set()
    keys = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            key = memory_key(node)
            if key is not None:
                keys.add(key)
    return keys


# --- prose (rasa/mantle/skills/prose_scoping.py) -------------------------------------------


@lru_cache(maxsize=512)
def prose_segments(body: str) -> tuple[tuple[str | None, str], ...]:
    """(condition, text) of each prose paragraph outside the ordered blocks, as Rasa splits
    them; raises `SkillLoadError` where Rasa's prose parser does. Kept per body: the
    loader and several rules ask for the same skill's."""
    segments: list[tuple[str | None, str]] = []
    cursor = 0
    for match in [*ORDERED_BLOCK.finditer(body), None]:
        chunk = body[cursor : match.start() if match else len(body)].strip()
        if match is not None:
            cursor = match.end()
        if not chunk:
            continue
        for unit in _PARAGRAPH_SPLIT.split(chunk):
            lines = unit.splitlines()
            first = lines[0].strip()
            for marker in ("else:", "elif:"):
                if first.startswith(marker):
                    raise SkillLoadError(f"'{marker}' is not allowed in prose")
            if first.startswith("if:"):
                condition = first[len("if:") :].strip()
                text = "\n".join(lines[1:]).strip()
                if not condition:
                    raise SkillLoadError("prose 'if:' has an empty condition")
                if not text:
                    raise SkillLoadError(f"prose 'if: {condition}' has no paragraph below it")
                segments.append((condition, text))
            else:
                segments.append((None, unit.strip()))
    return tuple(segments)


# --- frontmatter (rasa/mantle/skills/frontmatter.py) ----------------------------------------


def _check_frontmatter(data: dict[str, Any]) -> None:
    if "requires" in data:
        raise SkillLoadError(
            "Skill-level requires is no longer supported (use precondition, or hidden: true; "
            "tool-level requires under tool_constraints is unchanged)"
        )
    extra = sorted(str(key) for key in data if key not in FRONTMATTER_KEYS)
    if extra:
        raise SkillLoadError(
            f"frontmatter key(s) {', '.join(extra)}: extra inputs are not permitted"
        )
    for key in ("name", "description"):
        _string_or_none(data.get(key), key)
    precondition = data.get("precondition")
    if precondition is not None and not (isinstance(precondition, str) and precondition.strip()):
        raise SkillLoadError("precondition must be a non-empty semantic name string")
    for key in ("hidden", "disabled", "always_include_in_prompt"):
        if data.get(key) is not None and not isinstance(data[key], bool):
            raise SkillLoadError(f"'{key}' must be a boolean")
    _check_import_tools(data.get("import_tools"))
    _check_tool_constraints(data.get("tool_constraints"))
    _check_utter(data.get("utter"))
    _check_mapping(data.get("knowledge_answering"), "knowledge_answering", {"instructions"})
    knowledge = data.get("knowledge_answering")
    if isinstance(knowledge, dict):
        _string_or_none(knowledge.get("instructions"), "knowledge_answering.instructions")
    _check_mapping(data.get("routing"), "routing", {"is_default", "engine_managed"})


def _string_or_none(value: Any, where: str) -> None:
    if value is not None and not isinstance(value, str):
        raise SkillLoadError(f"'{where}' must be a string")


def _check_mapping(value: Any, where: str, allowed: Collection[str]) -> None:
    if value is None:
        return
    if not isinstance(value, dict):
        raise SkillLoadError(f"'{where}' must be a mapping")
    extra = sorted(str(key) for key in value if key not in allowed)
    if extra:
        raise SkillLoadError(f"'{where}' key(s) {', '.join(extra)}: extra inputs are not permitted")


def _check_import_tools(value: Any) -> None:
    if value is None:
        return
    if not isinstance(value, list):
        raise SkillLoadError("'import_tools' must be a list of tool names")
    if not all(isinstance(item, str) for item in value):
        raise SkillLoadError("'import_tools' entries must be strings")


def _one_key(item: Any, where: str) -> tuple[str, Any]:
    if isinstance(item, str):
        return item, None
    if not isinstance(item, dict) or len(item) != 1:
        raise SkillLoadError(f"each '{where}' entry must be a single-key mapping")
    key, value = next(iter(item.items()))
    return str(key), value


def _check_tool_constraints(value: Any) -> None:
    if value is None:
        return
    if not isinstance(value, list):
        raise SkillLoadError("'tool_constraints' must be a list of {<tool>: {...}}")
    for item in value:
        tool, options = _one_key(item, "tool_constraints")
        if options is None:
            continue
        _check_mapping(options, f"tool_constraints.{tool}", CONSTRAINT_KEYS)
        for key in ("requires", "on_success", "on_failure"):
            _string_or_none(options.get(key), f"tool_constraints.{tool}.{key}")
        if "requires_confirmation" in options:
            confirmation = options["requires_confirmation"]
            where = f"tool_constraints.{tool}.requires_confirmation"
            if confirmation is None:
                raise SkillLoadError(f"'{where}' must be a mapping")
            _check_mapping(confirmation, where, CONFIRMATION_KEYS)
            if "enabled" in confirmation and not isinstance(confirmation["enabled"], bool):
                raise SkillLoadError(f"'{where}.enabled' must be a boolean")
            for key in ("utter_for_confirmation", "utter_on_user_denial"):
                _string_or_none(confirmation.get(key), f"{where}.{key}")


def _check_utter(value: Any) -> None:
    if value is None:
        return
    if not isinstance(value, list):
        raise SkillLoadError("'utter' must be a list of {<response>: {on: activate}}")
    for item in value:
        response, options = _one_key(item, "utter")
        if options is None:
            continue
        _check_mapping(options, f"utter.{response}", {"on", "when"})
        if options.get("on") not in (None, "activate"):
            raise SkillLoadError(f"utter.{response}: unsupported on: value {options['on']!r}")
        when = options.get("when")
        _string_or_none(when, f"utter.{response}.when")
        if isinstance(when, str):
            problem = condition_error(when.strip()) if when.strip() else "it is empty"
            if problem is not None:
                raise SkillLoadError(
                    f"utter trigger {response!r} has an invalid when: condition {when!r}: {problem}"
                )


def _check_complete_when(value: Any, *, has_prose: bool) -> None:
    """Skill-level `complete_when`: a mapping of `condition` and/or `criteria`, only on a
    skill with prose."""
    if value is None:
        return
    if not isinstance(value, dict):
        raise SkillLoadError(
            "complete_when must be a mapping with 'condition' and/or 'criteria' "
            "(bare strings are not allowed)"
        )
    _check_mapping(value, "complete_when", {"condition", "criteria"})
    condition = value.get("condition")
    if condition is not None:
        if not isinstance(condition, str) or not condition.strip():
            raise SkillLoadError("complete_when.condition must be a non-empty condition string")
        problem = condition_error(condition.strip())
        if problem is not None:
            raise SkillLoadError(f"complete_when.condition has an invalid expression: {problem}")
    criteria = value.get("criteria")
    if criteria is not None:
        if not isinstance(criteria, list):
            raise SkillLoadError("complete_when.criteria must be a list of strings")
        seen: set[str] = set()
        for index, item in enumerate(criteria):
            if not isinstance(item, str) or not item.strip():
                raise SkillLoadError(f"complete_when.criteria[{index}] must be a non-empty string")
            if item.strip() in seen:
                raise SkillLoadError(f"complete_when.criteria has duplicate entry {item.strip()!r}")
            seen.add(item.strip())
    if not has_prose:
        raise SkillLoadError(
            "complete_when requires prose instructions; a skill of ordered blocks only "
            "completes at the block's END"
        )


# --- ordered blocks and steps (catalog.py, steps.py) ----------------------------------------


def _check_blocks(body: str, limits: InputLimits | None) -> None:
    seen: set[str] = set()
    for match in ORDERED_BLOCK.finditer(body):
        block_id = match["block_id"]
        if not block_id:
            raise SkillLoadError("each :::ordered_block section must declare an id attribute")
        content = (match["block_body"] or "").strip()
        doc = parse_text(content, "yaml", limits=limits, yaml11=True) if content else None
        if doc is not None and not doc.parsed:
            raise SkillLoadError(f"ordered block '{block_id}' is not valid YAML")
        raw = (doc.data if doc is not None else None) or {}
        if not isinstance(raw, dict):
            raise SkillLoadError(f"Ordered block '{block_id}' body must be a YAML mapping")
        if block_id in seen:
            raise SkillLoadError(f"Duplicate ordered block id '{block_id}'")
        seen.add(block_id)
        if "routable" in raw:
            raise SkillLoadError(f"Ordered block '{block_id}' must not set 'routable'")
        if "description" in raw:
            raise SkillLoadError(
                f"Ordered block '{block_id}' must not set 'description' "
                "(the orchestrator routes on the skill description)"
            )
        steps = raw.get("steps") or []
        if not isinstance(steps, list):
            raise SkillLoadError(f"Ordered block '{block_id}': steps must be a list")
        for step in steps:
            _check_step(step)
        for tool in raw.get("tools") or []:
            if not isinstance(tool, str | dict):
                raise SkillLoadError(f"Ordered block '{block_id}': a tool is a name")


def _check_step(raw: Any) -> None:
    if not isinstance(raw, dict):
        raise SkillLoadError("each step must be a mapping")
    kind = _step_kind(raw)
    step_id = raw.get("id", "<unknown>")
    if kind == "collect":
        for key in ("force_collection", "tool"):
            if key in raw:
                raise SkillLoadError(f"Unknown property '{key}' on collect step {step_id!r}")
    fields = _STEP_FIELDS[kind] | ({"utter"} if kind == "action" and "utter" in raw else set())
    extra = [str(key) for key in raw if key != "id" and key not in fields]
    if extra:
        raise SkillLoadError(f"Unknown step property {extra[0]!r} on step {step_id!r}")
    if kind != "end" and not isinstance(raw.get("id"), str):
        raise SkillLoadError(f"Step {step_id!r}: 'id' must be a string")
    target = _STRING_TARGET.get(kind)
    value = raw.get("utter", raw.get("action")) if kind == "action" else raw.get(target or "")
    if target is not None and not isinstance(value, str):
        raise SkillLoadError(f"Step {step_id!r}, property {target!r}: must be a string")
    if kind == "set_memory" and not isinstance(raw.get("set_memory"), dict):
        raise SkillLoadError(f"Step {step_id!r}, property 'set_memory': must be a mapping")
    if kind == "execute" and not isinstance(raw.get("parameters", {}), dict):
        raise SkillLoadError(f"Step {step_id!r}, property 'parameters': must be a mapping")
    for key in ("optional", "ask_before_filling"):
        if key in raw and not isinstance(raw[key], bool):
            raise SkillLoadError(f"Step {step_id!r}, property {key!r}: must be a boolean")
    complete_when = raw.get("complete_when")
    if kind == "autonomous" and complete_when is not None and not isinstance(complete_when, str):
        raise SkillLoadError(
            f"Step {step_id!r}: an instructions step's complete_when is a condition string"
        )
    _check_next(raw.get("next"), step_id)


def _step_kind(raw: dict[str, Any]) -> str:
    if raw.get("id") == "END":
        return "end"
    if raw.get("noop") is True:
        return "route"
    if "utter" in raw:
        return "action"
    for key, kind in _KIND_BY_KEY.items():
        if key in raw:
            return kind
    raise SkillLoadError(f"Cannot infer step kind from YAML keys {list(raw)!r}")


def _check_next(value: Any, step_id: Any) -> None:
    if value is None or isinstance(value, str):
        return
    if not isinstance(value, list):
        raise SkillLoadError(f"Step {step_id!r}, property 'next': a step id or a branch list")
    for branch in value:
        if not isinstance(branch, dict):
            raise SkillLoadError(f"Step {step_id!r}: a branch is {{if, then}} or {{else}}")
        then = branch["else"] if "else" in branch else branch.get("then")
        condition = None if "else" in branch else branch.get("if")
        if not isinstance(then, str) or not (condition is None or isinstance(condition, str)):
            raise SkillLoadError(f"Step {step_id!r}: a branch is {{if: <cond>, then: <step id>}}")
