"""The user a case plays is the kind of user the session says it is.

Found on a permits desk: the agent named its users in a sentence ("The people you help are
licensed contractors who pull permits for their clients and homeowners doing work on ...,
with the odd architect ..."), but every persona came out as "a their client", and no case
seeded the portal's `user_role`, so what the role gates was never reached nor refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from agentflows.drafting.offline._mantle_facts import audience_text
from agentflows.drafting.offline._mantle_roles import role_field
from evalcore.definitions import load_project
from evalcore.testdata import names_role, persona_for, roles_for

AGENT = """\
name: Eastgate market hall
persona: >
  You are the desk of Eastgate's covered market. The people you serve are licensed growers
  who sell produce for their farms and gardeners keeping allotments nearby, with the odd chef
  asking for a restaurant.
"""

MEMORY = """\
visitor_role:
  type: categorical
  enum_values: [grower, gardener, chef]
  description: What the visitor registered as on the market's site.
  seed: true
"""

STALL = """\
---
name: Book a stall
description: >
  A grower booking a market stall for a Saturday: "book me a stall", "I need a pitch this
  week", "reserve a stall".
tool_constraints:
  - book_stall:
      requires: session.project.visitor_role == "grower" and session.stall.stall_day
      on_success: utter_stall_booked
---

Ask which Saturday they want and set stall_day, then call book_stall with it.
"""

STALL_MEMORY = """\
schema:
  public:
    stall_day:
      type: text
      description: The Saturday of the stall, as a date.
      llm_settable: true
"""

STALL_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Book a stall for one Saturday.")
async def book_stall(stall_day: str, context: ToolContext = None):
    """Book it.

    Args:
        stall_day: The Saturday.
    """
    return {"booked": True}
'''

HOURS = """\
---
name: Opening hours
description: >
  When the hall is open: "what time do you open", "are you open on Sunday", "opening hours".
---

Tell them the hall opens 7am to 3pm, Tuesday to Saturday.
"""

FILES = {
    "agent.yml": AGENT,
    "integrations.yml": INTEGRATIONS,
    "memory.yml": MEMORY,
    "responses.yml": "responses:\n  utter_stall_booked:\n    - text: Your stall is booked.\n",
    "skills/stall/skill.md": STALL,
    "skills/stall/memory.yml": STALL_MEMORY,
    "skills/stall/tools.py": STALL_TOOLS,
    "skills/hours/skill.md": HOURS,
}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("market"), FILES)


@pytest.fixture(scope="module")
def generated(root: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    out = tmp_path_factory.mktemp("out")
    result = generate_offline(root, ["all"], out)
    cases = []
    for row in result["cases"]:
        if row.get("path"):
            cases.append(yaml.safe_load(Path(row["path"]).read_text("utf-8"))["scenario"])
    return cases


def test_the_people_the_agent_says_it_serves_are_the_personas():
    text = yaml.safe_load(AGENT)["persona"]
    assert roles_for(text) == (
        "a licensed grower who sells produce for their farms",
        "a gardener keeping allotments nearby",
        "a chef asking for a restaurant",
    )


def test_a_possessive_is_not_an_audience():
    # "for their clients" names whom the users work for, not the users
    roles = roles_for("Helps contractors who pull permits for their clients.")
    assert not any("their" in r.split()[1] for r in roles), roles


def test_a_seeded_field_whose_values_are_those_people_is_the_role(root: Path):
    defs = load_project(root).mantle
    assert defs is not None
    field = role_field(defs, audience_text(defs, defs.skills["hours"]))
    assert field is not None and field.qualified == "project.visitor_role"
    assert names_role("grower", "a licensed grower who sells produce")
    assert not names_role("chef", "a gardener keeping allotments nearby")


def test_a_seeded_role_keeps_the_persona_of_its_kind():
    text = yaml.safe_load(AGENT)["persona"]
    for n in range(12):
        assert "chef" in persona_for(text, f"case-{n}", role_value="chef").role


def test_every_case_seeds_the_role_its_persona_is(generated: list[dict[str, Any]]):
    assert generated
    for scenario in generated:
        seeded = scenario["setup"]["initial_slots"]["project.visitor_role"]
        persona = scenario["simulation_context"].splitlines()[0]
        assert seeded in persona, (seeded, persona)


def test_a_skill_for_one_kind_of_user_is_played_by_that_kind(generated: list[dict[str, Any]]):
    stall = [s for s in generated if "stall" in s["name"].lower()]
    assert stall
    for scenario in stall:
        assert scenario["setup"]["initial_slots"]["project.visitor_role"] == "grower"
    happy = next(s for s in stall if s["type"] == "happy_path")
    tools = [
        a["tool_executed"]["tool_name"]
        for a in happy["goals"]["assertions"]
        if "tool_executed" in a
    ]
    assert tools == ["book_stall"]


def test_the_seed_of_a_who_field_is_the_kind_and_a_channel_is_not(tmp_path: Path):
    from agentflows.drafting.offline._mantle_roles import seeded_kind

    files = {
        "agent.yml": "name: Bikes\npersona: Riders write to you from the app.\n",
        "integrations.yml": INTEGRATIONS,
        "memory.yml": (
            "account_type:\n  type: categorical\n  enum_values: [rider, technician]\n"
            "  seed: true\n"
            "channel:\n  type: categorical\n  enum_values: [app, web]\n  seed: true\n"
        ),
        "skills/van/skill.md": "---\nname: Van\ndescription: Send the van.\n---\n\nSay hello.\n",
    }
    defs = load_project(write_project(tmp_path, files)).mantle
    assert seeded_kind(defs, {"project.account_type": "technician"}) == "technician"
    assert seeded_kind(defs, {"project.channel": "web"}) is None


def test_a_person_the_data_holds_is_not_told_whether_they_did_this_before():
    # the records may show their earlier claims or orders: a role never contradicts them
    text = "Helps policyholders report a loss."
    roles = {persona_for(text, "c", slot=n).role for n in range(3)}
    assert any("first time" in r for r in roles) and any("before" in r for r in roles)
    for n in range(3):
        renamed = persona_for(text, "c", slot=n).renamed("Dana Whitfield")
        assert renamed.role == "a policyholder", renamed.role
        assert renamed.name == "Dana Whitfield"
