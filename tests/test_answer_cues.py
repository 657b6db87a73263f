"""A correction or a vague answer is scripted only on a question every correct run asks: a
field the prose has the agent set from what the user describes may be settled by the
opening, so the scripted answer would never get its cue."""

from __future__ import annotations

from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.planning import plan_source
from evalcore.definitions import load_project

#: The prose sentence that fills `kind`: set from what they describe, or asked.
SET_FROM_DESCRIPTION = "Set kind from what they describe: gas or fire."
ASKED = "Ask which kind of alarm it is. Set kind to gas or fire."


def _skill(fills: str) -> str:
    return f"""---
name: Alarm line
description: A resident reports an alarm going off.
---

Keep the resident safe first.

{fills}

Then page the technician with @tool.page_technician and give the call-back time.
"""


def _files(fills: str) -> dict[str, str]:
    return {
        "agent.yml": "name: Alarm desk\npersona: You help residents with alarms.\n",
        "integrations.yml": INTEGRATIONS,
        "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
        "skills/alarm_line/skill.md": _skill(fills),
        "skills/alarm_line/memory.yml": (
            "schema:\n  public:\n    kind:\n      type: categorical\n"
            "      enum_values: [gas, fire]\n"
            "      description: Which alarm went off.\n"
        ),
        "skills/alarm_line/tools.py": (
            "from rasa.mantle.tools.decorator import ToolContext, tool\n\n\n"
            '@tool(description="Page the technician.")\n'
            "async def page_technician(kind: str, context: ToolContext = None):\n"
            '    return "in 10 minutes"\n'
        ),
    }


def _cases(tmp_path: Path, fills: str) -> dict[str, str]:
    project = load_project(write_project(tmp_path / "alarm", _files(fills)))
    behaviors = plan_source(project, "mantle", "alarm_line", None).behaviors
    out = {}
    for behavior in behaviors:
        spec = behavior.facts.get("correction") or behavior.facts.get("ambiguity")
        if spec:
            out[behavior.case] = spec["field"]
    return out


def test_cases_on_a_field_come_only_where_the_prose_asks_for_it(tmp_path: Path) -> None:
    # set from what they describe: an opening that says "gas" settles it, nothing is asked
    assert _cases(tmp_path / "set", SET_FROM_DESCRIPTION) == {}
    # asked in the same paragraph: every run asks, so both cases are planned on it
    assert _cases(tmp_path / "asked", ASKED) == {
        "correction": "alarm_line.kind",
        "unclear_answer": "alarm_line.kind",
    }


def test_a_detour_waits_only_at_a_question_every_run_asks() -> None:
    """The alarm-type field of these skills is set from what the user describes (and the
    emergency skill forbids other questions first): a detour there may never get its cue,
    so it waits at a block step or is not planned."""
    corpus = Path(__file__).parent / "data" / "corpus"
    for name, skill_id in [
        ("oakline_residents", "emergency_line"),
        ("brewline_shifts", "inventory_count"),
    ]:
        project = load_project(corpus / name)
        skill = project.mantle.skills[skill_id]
        steps = {s.id for b in skill.blocks.values() for s in b.steps}
        for behavior in plan_source(project, "mantle", skill_id, None).behaviors:
            if behavior.case == "digression":
                assert behavior.facts["digression"]["step"] in steps, behavior.description
