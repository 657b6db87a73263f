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
from ._outside import case_criteria, ran_tools


def run_date_notes(data: Any, project: Project | None) -> list[Note]:
    """One `# run date: …` comment line above the scenario per tool the case expects to
    run whose code compares the run's date or time with something, and per call made only
    in a window of time such a tool checks whose criterion the case carries instead
    (`clock_window_calls`: "During business hours …, transfer the call …")."""
    if project is None or project.mantle is None:
        return []
    # the skill model's types load pydantic: `validate` imports this dialect but never asks
    # start-up: pydantic, hashlib and 35 casegen modules
    from ...definitions.skill_model import code_facts, plain_sentence, quoted_windows

    out: dict[str, Note] = {}
    for name, tool in ran_tools(data, project.mantle):
        if name in out or tool.source is None:
            continue
        facts = code_facts(project, tool)
        if not facts.clock:
            continue
        keys = list(dict.fromkeys(w.key for w in facts.writes if not w.failure))
        wrote = f", and what it writes ({', '.join(keys)})," if keys else ""
        out[name] = Note(
            "",
            f"{name} compares the date or time of the run with its data "
            f"({tool.source.file}): what it answers{wrote} holds for this case only on "
            "a run date that gives the outcome the case plays",
            label="run date",
        )
    for skill_id, name, call in quoted_windows(project, case_criteria(data)):
        tool = project.mantle.tools_for(skill_id).get(name)
        if name not in out and tool is not None and tool.source is not None:
            sentence, file = plain_sentence(call), tool.source.file
            out[name] = Note(
                "",
                f"{name} compares the date or time of the run with its data ({file}), and "
                f'the prose makes the call only in a window of time ("{sentence}"): which '
                "side of it a run falls on nothing in the case pins, so the case asserts "
                "what holds on both sides and its criterion allows either",
                label="run date",
            )
    return list(out.values())


__all__ = ["run_date_notes"]
