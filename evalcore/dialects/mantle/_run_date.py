"""The tools a Mantle case expects to run whose outcome depends on the date it runs.

A tool that compares the run's clock with its data (`too_early = date.today() < earliest`,
a transfer only during business hours, deploys of the last 48 hours) writes and returns
what the day decides: a case that plays one outcome of it holds on some run dates and not
on others, and nothing in the case can pin the date. The case file says so above its
scenario, as it does for a tool that acts on an outside service (`_outside.py`), so a
reviewer knows which of its expectations the calendar decides
(`evalcore.definitions.skill_model.CodeFacts.clock`).
"""

from __future__ import annotations

from typing import Any

from ...definitions import Project
from ...justify import Note
from ._outside import ran_tools


def run_date_notes(data: Any, project: Project | None) -> list[Note]:
    """One `# run date: …` comment line above the scenario per tool the case expects to
    run whose code compares the run's date or time with something."""
    if project is None or project.mantle is None:
        return []
    # the skill model's types load pydantic: `validate` imports this dialect but never asks
    from ...definitions.skill_model import code_facts, skill_models

    windows = {
        use.name: call.sentence
        for model in skill_models(project).values()
        for use in model.tools
        for call in use.calls
        if call.sentence and not call.optional and _in_a_window(call.trigger)
    }

    out: dict[str, Note] = {}
    for name, tool in ran_tools(data, project.mantle):
        if name in out or tool.source is None:
            continue
        facts = code_facts(project, tool)
        if not facts.clock:
            continue
        keys = list(dict.fromkeys(w.key for w in facts.writes if not w.failure))
        wrote = f", and what it writes ({', '.join(keys)})," if keys else ""
        window = windows.get(name)
        made = (
            f'; the prose makes the call only in a window of time ("{window}"): run this '
            "case inside it"
            if window
            else ""
        )
        out[name] = Note(
            "",
            f"{name} compares the date or time of the run with its data "
            f"({tool.source.file}): what it answers{wrote} holds for this case only on "
            f"a run date that gives the outcome the case plays{made}",
            label="run date",
        )
    return list(out.values())


def _in_a_window(trigger: str | None) -> bool:
    """A call's trigger that is a span of time ("During business hours (...)")."""
    return bool(trigger) and str(trigger).split(maxsplit=1)[0].lower() == "during"


__all__ = ["run_date_notes"]
