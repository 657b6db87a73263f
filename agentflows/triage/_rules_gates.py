"""A gated tool that ran without its confirmation: the defect the ledger shows outright.

A skill's `tool_constraints` may require the user to confirm before a tool runs
(`confirmation: true`, asked with `utter_for_confirmation`). When the ledger shows the tool
running and that question never asked before it, the agent skipped the gate: every check
that failed after it (the confirmation not said, the order placed although the user would
have declined, a correction that could never be given) follows from that one defect, so it
is diagnosed as one cause however differently the runs' checks failed.
"""

from __future__ import annotations

from evalcore.definitions.skill_model import skill_model

from ._diagnosis import Diagnosis, Evidence, event_item
from ._facts import Facts
from ._ledger import TOOL_EVENTS, Ev


def _gate_of(facts: Facts, ev: Ev) -> tuple[str, str] | None:
    """(skill, confirmation response) when the project gates this tool behind a question."""
    project = facts.case.project
    mantle = project.mantle if project is not None else None
    if mantle is None or not ev.subject:
        return None
    owners = [ev.skill] if ev.skill in mantle.skills else []
    owners += [s for s in facts.expected_skills if s in mantle.skills and s not in owners]
    for skill_id in owners:
        try:
            model = skill_model(project, skill_id)
        except Exception:  # a skill the model cannot read gates nothing we can prove
            continue
        for tool in model.gated_tools():
            if tool.name == ev.subject and tool.gate and tool.gate.utter_for_confirmation:
                return skill_id, tool.gate.utter_for_confirmation
    return None


def confirmation_skipped(facts: Facts) -> Diagnosis | None:
    skipped: list[tuple[Ev, str, str]] = []
    for ev in facts.events:
        if ev.type not in TOOL_EVENTS:
            continue
        gate = _gate_of(facts, ev)
        if gate is None:
            continue
        skill, utter = gate
        asked = any(
            e.type == "bot" and e.subject == utter and e.index < ev.index for e in facts.events
        )
        if not asked:
            skipped.append((ev, skill, utter))
    if not skipped:
        return None
    first, skill, utter = skipped[0]
    tools = sorted({ev.subject or "?" for ev, _, _ in skipped})
    where = facts.case.definition_of(skill)
    evidence = [
        event_item(first),
        Evidence(
            "definition",
            f"{where}: tool_constraints require confirmation before {first.subject} "
            f"(asked with {utter}); the ledger has no `action: {utter}` before [T{first.turn}]",
        ),
    ]
    return Diagnosis(
        "Instruction",
        first.turn,
        "confirmation-skipped",
        evidence,
        f"At turn {first.turn} `{first.subject}` ran without the confirmation its gate "
        f"requires. Make {where} ask {utter} and wait for the user's yes before running "
        f"{', '.join(f'`{t}`' for t in tools)} (and say {utter} is the step before it); "
        "retrain and re-run. The run's other failed checks follow from this.",
        cause=("confirmation-skipped", skill, utter),
        title=f"{skill} runs {', '.join(tools)} without asking {utter} first",
    )


__all__ = ["confirmation_skipped"]
