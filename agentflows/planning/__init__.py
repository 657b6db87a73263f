"""Coverage planning: which behaviours of a skill/playbook/agent skill deserve a case.

    plan = plan_source(project, "mantle", "card_replace", direction=None)
    [b.id for b in plan.behaviors]

Planning is deterministic and reads only the `Project`; an LLM engine may refine titles and
add direction-driven behaviours afterwards, but never invents ids.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from evalcore.errors import UserError
from evalcore.suggest import did_you_mean

from ._behavior import CASE_TYPES, CHAINED, NOT_WRITTEN, Behavior, Plan
from ._spread import spread

if TYPE_CHECKING:
    from evalcore.definitions import Project, Skill

    from ._mantle_tools import failure_outcome
    from ._mantle_wrong_detail import wrong_detail_check

Planner = Callable[["Project", str, "str | None"], Plan]

#: Names handed out from modules that read the skill model (`evalcore.definitions` and its
#: pydantic models, ~0.1 s of imports): loaded on first use, so that a caller that wants
#: only a plan's types (`casegen mcp`'s tool list, a drafter's `Behavior`) does not pay it.
_DEFERRED = {"failure_outcome": "._mantle_tools", "wrong_detail_check": "._mantle_wrong_detail"}


def __getattr__(name: str) -> Any:
    """A deferred name of `_DEFERRED`, imported on first use and kept (PEP 562)."""
    module = _DEFERRED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __package__), name)
    globals()[name] = value
    return value


def _dialects() -> Any:
    """`evalcore.dialects`, imported when a dialect is first asked for (it loads
    `evalcore.definitions`, which a caller of the plan's types alone does not need)."""
    return importlib.import_module("evalcore.dialects")


def _planner(dialect: str) -> Planner:
    """The dialect's planner (`Dialect.planner`), imported only when that dialect is planned."""
    planner: Planner = _entry(dialect, "planner")
    return planner


def _entry(dialect: str, part: str) -> Any:
    """The part of the flows the dialect names (`Dialect.<part>`: an entry point)."""
    dialects = _dialects()
    entry = getattr(dialects.get_dialect(dialect), part)
    if entry is None:
        raise UserError(f"casegen cannot generate {dialect} cases (no {part.replace('_', ' ')})")
    return dialects.load_entry(entry)


def asserted_elements(
    project: Project, dialect: str, source: str, data: dict[str, Any], covers: list[str]
) -> set[str]:
    """The plan elements `data`'s assertions check: coverage counts these, not what a
    criterion or the scripted conversation merely touches (`Dialect.asserted_elements`)."""
    return set(_entry(dialect, "asserted_elements")(project, source, data, covers))


def not_a_goal(project: Project, dialect: str, source: str) -> str | None:
    """Why no case may have `source` as its user's goal (an engine-managed, hidden or
    disabled Mantle skill), or None (`Dialect.not_a_goal`; None where the dialect has no
    such sources)."""
    dialects = _dialects()
    entry = dialects.get_dialect(dialect).not_a_goal
    if entry is None:
        return None
    reason: str | None = dialects.load_entry(entry)(project, source)
    return reason


def source_ids(project: Project, dialect: str) -> list[str]:
    """The targets a dialect can generate for in this project."""
    return sorted(_dialects().get_dialect(dialect).source_ids(project))


def resolve_targets(project: Project, dialect: str, targets: list[str]) -> list[str]:
    """Expand `all` to the targets a user can ask for, and check every named target exists
    and is one (UserError with "did you mean", or with why it is not a goal, otherwise)."""
    known = source_ids(project, dialect)
    if not known:
        raise UserError(f"{project.root} defines nothing a {dialect} case can target")
    goals = [t for t in known if not_a_goal(project, dialect, t) is None]
    if any(t == "all" for t in targets):
        if not goals:
            raise UserError(f"{project.root} defines nothing a user can ask for")
        return goals
    for target in targets:
        reason = not_a_goal(project, dialect, target) if target in known else None
        if reason is not None:
            raise UserError(
                f"'{target}' is no case's goal: {reason}",
                hint="targets: all, " + ", ".join(goals),
            )
        if target not in known:
            what = _dialects().get_dialect(dialect).source_noun
            raise UserError(
                f"unknown target '{target}': not a {what} of {project.root}",
                hint=(did_you_mean(target, known, what=what) or "")
                + " (targets: all, "
                + ", ".join(known)
                + ")",
            )
    return list(dict.fromkeys(targets))


def explore_mantle(project: Project) -> Any:
    """Every path the Mantle planner explores, each played by the reference agent: an
    `Exploration` whose `play(path, mutant)` plays a path again with a mutant
    (`_mantle_explore`; imported only when asked)."""
    return importlib.import_module("._mantle_explore", __package__).explore(project)


def mantle_subject(skill: Skill) -> str:
    """What a Mantle skill is about, as the planner's requests name it: its description's
    text before a first colon, else its name (`_mantle_phrases`; imported only when asked)."""
    subject: str = importlib.import_module("._mantle_phrases", __package__).subject(skill)
    return subject


def plan_source(project: Project, dialect: str, source: str, direction: str | None) -> Plan:
    return _planner(dialect)(project, source, direction)


def select(
    behaviors: list[Behavior], *, count: int | None, types: list[str] | None
) -> list[Behavior]:
    """Filter by `--types`, then keep the `--count` most valuable (stable order)."""
    if types:
        unknown = [t for t in types if t not in CASE_TYPES]
        if unknown:
            raise UserError(
                f"unknown case type '{unknown[0]}'",
                hint=did_you_mean(unknown[0], CASE_TYPES, what="type"),
            )
        behaviors = [b for b in behaviors if b.type in types]
    ranked = sorted(enumerate(behaviors), key=lambda pair: (pair[1].priority, pair[0]))
    kept = {b.id for _, b in (ranked[:count] if count is not None else ranked)}
    return [b for b in behaviors if b.id in kept]


__all__ = [
    "CASE_TYPES",
    "CHAINED",
    "NOT_WRITTEN",
    "Behavior",
    "Plan",
    "asserted_elements",
    "explore_mantle",
    "failure_outcome",
    "mantle_subject",
    "not_a_goal",
    "plan_source",
    "resolve_targets",
    "select",
    "source_ids",
    "spread",
    "wrong_detail_check",
]
