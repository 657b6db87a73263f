"""Calls the prose makes only in a window of time that their tool checks on the run's clock.

"During business hours (Monday to Friday, 8am to 8pm Eastern) transfer the call with
@tool.transfer_to_queue", to a tool whose code answers "outside_business_hours" itself
(`CodeFacts.clock`): which side of the window a run falls on nothing in a case fixes, so a
walk leaves the call out (`CallSite.optional`), the case asserts what holds on both sides,
and its criterion and `# run date:` note say the clock decides the rest.
"""

from __future__ import annotations

from .._memo import memoized
from .._model import Project
from ._build import skill_model
from ._code import code_facts
from ._types import CallSite


def in_a_window(trigger: str | None) -> bool:
    """A call's trigger that is a span of time ("During business hours (...)")."""
    return bool(trigger) and str(trigger).split(maxsplit=1)[0].lower() == "during"


def clock_window_calls(project: Project, skill_id: str) -> list[tuple[str, CallSite]]:
    """(tool name, call site) of each call of `skill_id` made only "During" a window of
    time, to a tool whose own code compares the run's clock with something."""
    if project.mantle is None or skill_id not in project.mantle.skills:
        return []
    tools = project.mantle.tools_for(skill_id)
    out: list[tuple[str, CallSite]] = []
    for use in skill_model(project, skill_id).tools:
        tool = tools.get(use.name)
        if tool is None or tool.source is None:
            continue
        windowed = [c for c in use.calls if c.sentence and in_a_window(c.trigger)]
        if windowed and code_facts(project, tool).clock:
            out.extend((use.name, c) for c in windowed)
    return out


def plain_sentence(call: CallSite) -> str:
    """The call's sentence as a criterion quotes it: no `@tool.` marks, one line."""
    return " ".join((call.sentence or "").replace("@tool.", "").split())


def quoted_windows(project: Project, criteria: list[str]) -> list[tuple[str, str, CallSite]]:
    """(skill id, tool name, call site) of each clock-window call whose sentence one of
    `criteria` quotes: the case judges that call's branch instead of asserting it."""
    said = " ".join(" ".join(c.split()) for c in criteria)
    if not said or project.mantle is None:
        return []
    return [
        (skill_id, name, call) for skill_id, name, call, plain in _windows(project) if plain in said
    ]


def _windows(project: Project) -> list[tuple[str, str, CallSite, str]]:
    """(skill id, tool name, call site, plain sentence) of every clock-window call of the
    project with a sentence, skills by id: one list per loaded project (built per case, it
    read every skill's calls again)."""
    defs = project.mantle
    assert defs is not None
    key = ("clock_windows", id(defs), id(defs.skills), len(defs.skills))

    def build() -> list[tuple[str, str, CallSite, str]]:
        return [
            (skill_id, name, call, plain_sentence(call))
            for skill_id in sorted(defs.skills)
            for name, call in clock_window_calls(project, skill_id)
            if plain_sentence(call)
        ]

    return memoized(project, key, build)


__all__ = ["clock_window_calls", "in_a_window", "plain_sentence", "quoted_windows"]
