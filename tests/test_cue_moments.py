"""A line the user says instead of an answer waits for a moment a person can hear: a
question every correct run asks (not a field the agent may set from the opening), named
as the agent asks it (not "for the is that a domestic trip")."""

from __future__ import annotations

import asyncio
from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.runcase import SimulationSpec
from evalcore.simulator import SimulatorSettings, Utterance, make_simulator, parse_fact_context
from evalcore.testdata import ABROAD

CORPUS = Path(__file__).resolve().parent / "data" / "corpus"

_SKILL = """---
name: Alarm line
description: A resident reports an alarm going off.
---

Set kind from what they describe: gas or fire.

Ask which floor the alarm is on and set floor.

Then page the technician with @tool.page_technician and give the call-back time.
"""


def _files() -> dict[str, str]:
    return {
        "agent.yml": "name: Alarm desk\npersona: You help residents with alarms.\n",
        "integrations.yml": INTEGRATIONS,
        "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
        "skills/alarm_line/skill.md": _SKILL,
        "skills/alarm_line/memory.yml": (
            "schema:\n  public:\n    kind:\n      type: categorical\n"
            "      enum_values: [gas, fire]\n"
            "      description: Which alarm went off.\n"
            "    floor:\n      type: text\n      description: The floor of the alarm.\n"
        ),
        "skills/alarm_line/tools.py": (
            "from rasa.mantle.tools.decorator import ToolContext, tool\n\n\n"
            '@tool(description="Page the technician.")\n'
            "async def page_technician(kind: str, floor: str, context: ToolContext = None):\n"
            '    return "in 10 minutes"\n'
        ),
        "skills/handoff/skill.md": (
            "---\nname: Human handoff\ndescription: The user asks for a person.\n---\n\n"
            "Transfer the conversation to a person with @tool.transfer.\n"
        ),
        "skills/handoff/tools.py": (
            "from rasa.mantle.tools.decorator import ToolContext, tool\n\n\n"
            '@tool(description="Transfer to a person.")\n'
            "async def transfer(context: ToolContext = None):\n"
            '    return "ok"\n'
        ),
    }


def test_a_line_said_partway_waits_for_a_question_every_run_asks(tmp_path: Path) -> None:
    project = load_project(write_project(tmp_path / "alarm", _files()))
    behaviors = plan_source(project, "mantle", "alarm_line", None).behaviors
    seen = set()
    for behavior in behaviors:
        spec = behavior.facts.get("escalation") or behavior.facts
        if behavior.case not in ("escalation", "unrelated_request"):
            continue
        draft = draft_mantle(DraftContext(project, "mantle", behavior))
        context = parse_fact_context(draft["scenario"]["simulation_context"])
        assert spec.get("at") is not None, behavior.case
        # the cue is the floor question, never the kind the opening may settle
        assert [c.cue for c in context.cues] == ["which floor the alarm is on"], behavior.case
        seen.add(behavior.case)
    assert seen == {"escalation", "unrelated_request"}


def test_a_cue_on_a_yes_no_step_quotes_the_question_the_agent_asks() -> None:
    project = load_project(CORPUS / "northstar_exec")
    behaviors = plan_source(project, "mantle", "expenses", None).behaviors
    case = next(b for b in behaviors if b.case == "correction")
    draft = draft_mantle(DraftContext(project, "mantle", case))
    text = draft["scenario"]["simulation_context"]
    assert "asks for the paid in" not in text
    context = parse_fact_context(text)
    assert [c.cue for c in context.cues] == ["'Paid in dollars?'"], context.cues
    # the fact names what the answer is (a currency code answers no yes/no question), and
    # the merchant is one of the country of that currency: the step assumes dollars for a
    # US merchant, so a US one would never be asked about the currency at all
    facts = {f.label: f.value for f in context.facts}
    assert facts.get("currency") == "GBP", facts
    assert "paid in dollars" not in facts
    assert facts["merchant"] in {m for t in ABROAD["GBP"] for m in t.items}, facts
    # the offline user still hears it: the line comes when the agent asks that question
    settings = SimulatorSettings(project=project)
    sim = make_simulator(SimulationSpec(context=text), dialect="mantle", settings=settings)
    history = [Utterance(1, "user", asyncio.run(sim.next_step([])).message)]
    history.append(Utterance(1, "agent", "Got it, 91.80. Paid in dollars?"))
    assert asyncio.run(sim.next_step(history)).message == context.cues[0].line


def test_a_fact_names_only_the_value_it_gives() -> None:
    """ "Ask for the merchant and the date (set merchant and expense_date)": each value is
    its own fact, labelled by what it gives: the date as the date, never as both (the
    merchant, one that fits the case's kind of expense, is a fact of its own)."""
    project = load_project(CORPUS / "northstar_exec")
    behaviors = plan_source(project, "mantle", "expenses", None).behaviors
    case = next(b for b in behaviors if b.type == "happy_path")
    draft = draft_mantle(DraftContext(project, "mantle", case))
    facts = {
        f.label: f.value for f in parse_fact_context(draft["scenario"]["simulation_context"]).facts
    }
    assert "expense date" in facts, facts
    assert not any("merchant" in label and "date" in label for label in facts), facts
