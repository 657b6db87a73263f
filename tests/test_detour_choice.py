"""Which skill a detour goes to, what the user says there, and when no escalation is planned.

Before: a claim form whose first step lists the customer's policies took its detour to the
skill that only lists policies (a correct agent answers that inside the claim, so no
interrupt or resume need happen); the detour line greeted mid-conversation ("Before that,
hi, I'd like to ..."); a goodbye that moves straight on to a rating got an escalation case
that in fact interrupts the rating skill (the rating skill's own escalation case).
"""

from __future__ import annotations

from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.planning import plan_source
from agentflows.planning._mantle_detours import without_greeting
from evalcore.definitions import load_project

CLAIM = """\
---
name: Report damage
description: Start a new claim. Activate when the customer wants to report damage.
import_tools:
  - list_policies
---

Run @block.collect.

:::ordered_block id=collect
steps:
  - id: fetch
    execute_tool: list_policies
  - id: pick
    instructions: |
      Show the customer's policies from the tool result and ask which one the claim is on.
      Set policy_number.
    complete_when: session.report_damage.policy_number
  - id: describe
    instructions: |
      Ask what happened. Set description.
    complete_when: session.report_damage.description
:::
"""

POLICIES = """\
---
name: My policies
description: Activate when the customer asks what policies they have.
import_tools:
  - list_policies
---

Call list_policies and read each policy out.
"""

OPENING_HOURS = """\
---
name: Opening hours
description: Activate when the customer asks when the office is open.
---

Call office_hours and read the hours out.
"""

GOODBYE = """\
---
name: Goodbye
description: End the call when the customer says goodbye or thanks that's all.
---

Thank the customer briefly. Then invoke @skill.rate_call so they can rate the call.
"""

RATE = """\
---
name: Rate the call
description: Activate when the customer wants to rate the call.
---

Ask for a rating. Set `rating` to up or down.
"""

HANDOFF = """\
---
name: Talk to a person
description: The customer wants a human agent.
---

Hand the conversation over to a human agent with @tool.transfer_to_agent.
"""

TOOLS = """\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="The customer's policies.")
async def list_policies(context: ToolContext = None):
    return {"policies": [{"number": "P-1001", "type": "car"}]}
"""


def _project(tmp_path: Path) -> Path:
    return write_project(
        tmp_path / "desk",
        {
            "agent.yml": "name: Claims desk\npersona: You help policyholders.\n",
            "integrations.yml": INTEGRATIONS,
            "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
            "tools/policies.py": TOOLS,
            "skills/report_damage/skill.md": CLAIM,
            "skills/report_damage/memory.yml": (
                "schema:\n  public:\n    policy_number: {type: text}\n"
                "    description: {type: text}\n"
            ),
            "skills/my_policies/skill.md": POLICIES,
            "skills/opening_hours/skill.md": OPENING_HOURS,
            "skills/opening_hours/tools.py": (
                "from rasa.mantle.tools.decorator import ToolContext, tool\n\n\n"
                '@tool(description="The office hours.")\n'
                "async def office_hours(context: ToolContext = None):\n"
                '    return {"hours": "9-17"}\n'
            ),
            "skills/goodbye/skill.md": GOODBYE,
            "skills/rate_call/skill.md": RATE,
            "skills/rate_call/memory.yml": (
                "schema:\n  public:\n    rating: {type: categorical, enum_values: [up, down]}\n"
            ),
            "skills/human_handoff/skill.md": HANDOFF,
            "skills/human_handoff/tools.py": (
                "from rasa.mantle.tools.decorator import ToolContext, tool\n\n\n"
                '@tool(description="Transfer to a person.")\n'
                "async def transfer_to_agent(context: ToolContext = None):\n"
                "    return {}\n"
            ),
        },
    )


def _facts(project, skill: str) -> dict[str, dict]:
    plan = plan_source(project, "mantle", skill, None)
    return {str(b.facts.get("kind")): b.facts for b in plan.behaviors}


def _kinds(root: Path, skill: str) -> dict[str, dict]:
    return _facts(load_project(root), skill)


def test_a_detour_goes_to_a_skill_whose_job_the_current_step_does_not_do(tmp_path) -> None:
    root = _project(tmp_path)
    facts = _kinds(root, "report_damage")
    assert "digression" in facts
    # the claim lists the policies itself: a detour there needs no interrupt
    assert facts["digression"]["digression"]["skill"] == "opening_hours"


def test_a_detour_line_does_not_greet_mid_conversation(tmp_path) -> None:
    root = _project(tmp_path)
    line = _kinds(root, "report_damage")["digression"]["digression"]["line"]
    assert line.startswith("Before that, ")
    assert not line.lower().startswith("before that, hi")
    assert without_greeting("Hi, can you run a speed test?") == "can you run a speed test?"
    assert without_greeting("Hello! What can you do?") == "What can you do?"
    assert without_greeting("Hi.") == "Hi."  # nothing left: the line is kept


def test_no_escalation_from_a_skill_that_hands_over_before_asking(tmp_path) -> None:
    root = _project(tmp_path)
    assert "escalation" not in _kinds(root, "goodbye")
    # the rating skill asks itself: its escalation stays
    assert "escalation" in _kinds(root, "rate_call")


def test_a_detour_line_names_no_value_of_the_question_it_interrupts() -> None:
    """The bank's balance skill offers the dispute skill itself, so its detour goes to card
    replacement, whose first phrasing ("the chip on my card stopped working") answers
    "checking, savings or credit card?" with the credit card: another phrasing is said."""
    from agentflows.planning._mantle_phrases import is_neutral

    bank = load_project(Path(__file__).parents[1] / "examples" / "bank")
    assert bank.mantle is not None
    for skill in ("card_replace", "check_balance", "dispute_charge"):
        facts = {
            str(b.facts.get("kind")): b.facts
            for b in plan_source(bank, "mantle", skill, None).behaviors
        }
        detour = facts["digression"]["digression"]
        assert detour["skill"] != "dispute_charge" or skill != "check_balance"
        line = without_greeting(detour["line"].removeprefix("Before that, "))
        assert is_neutral(bank.mantle, bank.mantle.skills[skill], line), (skill, line)


def test_an_escalation_comes_at_the_skill_own_first_question() -> None:
    """A refill that first calls the patient sign-in: the person is asked for at the
    refill's own question, not the sign-in's (that would interrupt the sign-in skill)."""
    from agentflows.drafting.offline._direction import parse_direction
    from agentflows.planning._mantle_planner import PlannerBase

    project = load_project(Path(__file__).parent / "data" / "corpus" / "meadow_pharmacy")
    assert project.mantle is not None
    escalation = _facts(project, "refill_prescription")["escalation"]["escalation"]
    planner = PlannerBase(
        project, project.mantle.skills["refill_prescription"], parse_direction(None)
    )
    asks = planner.walk({"values": {}}).asks
    assert escalation["at"] > 0
    assert asks[escalation["at"]].skill == "refill_prescription"
    assert {a.skill for a in asks[: escalation["at"]]} == {"verify_patient"}
