"""Where a tool call's arguments come from: an `execute_tool` step's `parameters`, or, for a
tool the prose calls, the memory field each parameter names."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ...lexicon.en.skill_prose import ARGUMENT_SET
from .._model import MemoryField, Skill, Step, ToolDef


def step_arguments(step: Step) -> dict[str, str]:
    """`execute_tool` parameters that read memory: argument -> qualified memory name."""
    params = step.fields.get("parameters")
    if not isinstance(params, dict):
        return {}
    return {
        str(k): v.removeprefix("session.")
        for k, v in params.items()
        if isinstance(v, str) and v.startswith("session.")
    }


def parameter_fields(
    skill: Skill, tool: ToolDef, shared: Mapping[str, MemoryField] | None = None
) -> dict[str, MemoryField]:
    """Which skill field a prose-called tool's argument is filled from (unambiguous only);
    else the project field of the argument's very name, from `shared` (all memory names)."""
    out: dict[str, MemoryField] = {}
    for param in tool.parameters:
        if "ToolContext" in (param.type or ""):
            continue
        matches = [
            f
            for f in skill.memory.values()
            if f.name == param.name
            or param.name in f.name.split("_")
            or f.name.endswith("_" + param.name)
            or (param.choices and f.enum_values and set(param.choices) <= set(f.enum_values))
        ]
        if not matches and shared is not None and f"project.{param.name}" in shared:
            matches = [shared[f"project.{param.name}"]]  # "ask for the account number"
        if len(matches) == 1:
            out[param.name] = matches[0]
    return out


def sentence_arguments(sentence: str, tool: ToolDef) -> dict[str, Any]:
    """The arguments of `tool` its calling sentence sets to a literal ("call
    @tool.page_safety_officer with urgent set to true"): the prose fixes them, so the model
    passes that value where that sentence applies, not its own choice. A value of another
    type than the parameter's annotation is left out (it never equals what is passed)."""
    params = {p.name: p for p in tool.parameters if "ToolContext" not in (p.type or "")}
    out: dict[str, Any] = {}
    for match in ARGUMENT_SET.finditer(sentence):
        param = params.get(match.group("param"))
        if param is None:
            continue
        value: Any = json.loads(
            match.group("value").lower() if match.group("value")[0] != '"' else match.group("value")
        )
        kind = (param.type or "").lower()
        fits = (
            not kind
            or (kind == "bool" and isinstance(value, bool))
            or (
                kind in ("int", "float")
                and isinstance(value, int | float)
                and not isinstance(value, bool)
            )
            or (kind == "str" and isinstance(value, str))
            or (bool(param.choices) and value in (param.choices or []))
        )
        if fits:
            out[param.name] = value
    return out


__all__ = ["parameter_fields", "sentence_arguments", "step_arguments"]
