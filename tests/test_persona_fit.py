"""The case's user is someone who uses the agent: the caller the session already knows, a
role that holds a line the agent sells, an office role for a workplace assistant.

Before: "a fleet manager at a courier firm" and "a self-employed photographer insuring their
equipment" on an insurer that sells car and home policies, a homeowner filing the car branch
of a claim, "a warehouse supervisor planning leave" asking an office's HR assistant about
payslips, "a first-time customer" of a broadband provider, and a random name where project
memory seeds the caller ("The demo customer is already identified as ...").
"""

from __future__ import annotations

from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_roles import seeded_caller
from agentflows.planning._mantle import plan_mantle
from evalcore.definitions import load_project
from evalcore.testdata import persona_for, roles_for

CAR_AND_HOME = (
    "Claims line of an insurer. File a new auto or homeowners insurance claim. Check the "
    "status of a claim. List the customer's policies with premium and coverage."
)


def test_an_insurer_meets_only_holders_of_the_lines_it_sells() -> None:
    roles = roles_for(CAR_AND_HOME)
    assert roles and not [r for r in roles if "fleet" in r or "photographer" in r]
    assert any("homeowner" in r for r in roles) and any("drives" in r for r in roles)


def test_the_case_value_picks_the_role_that_holds_it() -> None:
    for key in ("a", "b", "c", "d", "e"):
        assert "homeowner" in persona_for(CAR_AND_HOME, key, fits=frozenset({"Homeowner"})).role
        assert "drives" in persona_for(CAR_AND_HOME, key, fits=frozenset({"Car"})).role


def test_a_workplace_assistant_meets_office_staff() -> None:
    roles = roles_for("Internal HR assistant for employees: payroll, leave and expense help.")
    assert roles and not [r for r in roles if "warehouse" in r]


def test_a_broadband_provider_meets_its_customers_not_a_first_time_one() -> None:
    roles = roles_for("Telecom care assistant for internet, router and Wi-Fi problems.")
    assert roles and not [r for r in roles if "first-time" in r]


SKILL = """\
---
name: Check usage
description: Activate when the customer asks how much data they have used this month.
---

Call @tool.get_usage and read the figure out.
"""


def test_the_caller_the_session_already_knows_is_the_case_user(tmp_path) -> None:
    root = write_project(
        tmp_path / "isp",
        {
            "agent.yml": (
                "name: Linea\npersona: You help broadband customers. The caller is already "
                "identified.\n"
            ),
            "integrations.yml": INTEGRATIONS,
            "memory.yml": (
                "customer_first_name:\n  type: text\n  initial_value: Ada\n"
                "customer_last_name:\n  type: text\n  initial_value: Lovelace\n"
                "plan_name:\n  type: text\n  initial_value: Fiber 500\n"
            ),
            "skills/check_usage/skill.md": SKILL,
            "skills/check_usage/tools.py": (
                "from rasa.mantle.tools.decorator import ToolContext, tool\n\n\n"
                '@tool(description="Data used this month.")\n'
                "async def get_usage(context: ToolContext = None):\n"
                '    return {"gb": 12}\n'
            ),
        },
    )
    project = load_project(root)
    assert project.mantle is not None
    assert seeded_caller(project.mantle) == "Ada Lovelace"
    behavior = plan_mantle(project, "check_usage", None).behaviors[0]
    data = draft_mantle(DraftContext(project, "mantle", behavior))
    assert data["scenario"]["simulation_context"].startswith("You are Ada Lovelace, ")
    # a display name in one field, and no name where the values are not a person's
    whole = write_project(
        tmp_path / "isp2",
        {
            "agent.yml": "name: Linea\n",
            "integrations.yml": INTEGRATIONS,
            "memory.yml": "username:\n  type: text\n  initial_value: Grace Hopper\n",
            "skills/check_usage/skill.md": SKILL,
        },
    )
    assert seeded_caller(load_project(whole).mantle) == "Grace Hopper"  # type: ignore[arg-type]
    none = write_project(
        tmp_path / "isp3",
        {
            "agent.yml": "name: Linea\n",
            "integrations.yml": INTEGRATIONS,
            "memory.yml": "plan_name:\n  type: text\n  initial_value: Fiber 500\n",
            "skills/check_usage/skill.md": SKILL,
        },
    )
    assert seeded_caller(load_project(none).mantle) is None  # type: ignore[arg-type]
