"""Demo agents: deterministic, in-process targets that make casegen runnable with no service.

    target = make_demo_target("bank")                          # the `demo:bank` target
    broken = make_demo_target("bank", skip_confirmation=True)  # a mutation, for tests
    session = await target.open(run_case, 1)

Each demo plays one example project the way its real runtime would, without a model, so the
same case gives the same events every time. Keyword flags are the demo's documented
mutations: switches that make it wrong on purpose, so a test can show that a case catches
the fault.

`DEMOS` maps a demo name to `"<module>:<class>"`; the class is imported only when asked for,
so one demo's import problem never breaks another. Add a demo with one line.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ...errors import UserError
from ...suggest import did_you_mean
from .._protocol import AgentTarget
from ._example_modes import (
    QUOTED,
    description_phrases,
    every_value_sectioned,
    example_mode,
    example_modes,
    field_examples,
    mode_named,
)
from ._mantle_brain import Frame, MantleFlags, SkillContext
from ._mantle_engine import (
    ADVERSARIAL,
    CANCEL,
    CORRECTING,
    NO_ANSWER,
    Ask,
    MantleEngine,
    Procedure,
    ToolResult,
    holds,
    parse_amount,
    stems,
    yes_or_no,
)
from ._mantle_words import field_words, routed_skill, routing_ties, routing_words
from ._replies import play_turn

DEMOS: dict[str, str] = {
    "bank": "evalcore.agents.demo._bank:BankTarget",
    "clinic": "evalcore.agents.demo._clinic:ClinicTarget",
}


def demo_names() -> list[str]:
    return sorted(DEMOS)


def make_demo_target(name: str, **flags: Any) -> AgentTarget:
    """The `demo:<name>` target, built with the demo's keyword flags (mutations, project)."""
    entry = DEMOS.get(name)
    if entry is None:
        raise UserError(
            f"unknown demo agent '{name}'",
            hint=did_you_mean(name, DEMOS, what="demo") or "demos: " + ", ".join(demo_names()),
        )
    module_name, _, class_name = entry.partition(":")
    target_class = getattr(import_module(module_name), class_name)
    try:
        return target_class(**flags)
    except TypeError as exc:  # an unknown flag
        known = _flag_names(target_class)
        unknown = next((f for f in flags if f not in known), None)
        if unknown is None or not known:
            raise UserError(f"demo:{name}: {exc}") from exc
        raise UserError(
            f"demo:{name} has no flag '{unknown}'",
            hint=did_you_mean(unknown, known, what="flag"),
        ) from exc


def _flag_names(target_class: type) -> list[str]:
    """The mutation flags a demo documents (its `FLAGS` class, if it names one)."""
    flags = getattr(target_class, "flag_names", None)
    return list(flags()) if callable(flags) else []


__all__ = [
    "ADVERSARIAL",
    "CANCEL",
    "CORRECTING",
    "DEMOS",
    "NO_ANSWER",
    "QUOTED",
    "Ask",
    "Frame",
    "MantleEngine",
    "MantleFlags",
    "Procedure",
    "SkillContext",
    "ToolResult",
    "demo_names",
    "description_phrases",
    "every_value_sectioned",
    "example_mode",
    "example_modes",
    "field_examples",
    "field_words",
    "holds",
    "make_demo_target",
    "mode_named",
    "parse_amount",
    "play_turn",
    "routed_skill",
    "routing_ties",
    "routing_words",
    "stems",
    "yes_or_no",
]
