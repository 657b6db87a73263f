"""Skill preconditions: the runtime routes only to skills whose precondition holds, so a
case must open them: seed fields go to `setup.initial_slots`, and a precondition only a
sign-in makes true gets a case that signs in first.

Before, preconditions were not read at all: cases for a signed-in skill carried no
`initial_slots` and never signed in, and the reference agent routed to the skill anyway,
so suites that passed verification failed on a runtime that filters by precondition.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from evalcore.definitions import load_project
from evalcore.definitions._preconditions import opener_of, opening_seeds, precondition_of

AGENT = """\
name: Marina desk
persona: You are the desk of a marina. You talk to its boat owners by text.
orchestrator:
  model_group: main
  preconditions:
    member_ok:
      satisfied_when: session.project.member_verified
      resolve_with: sign_in
    dock_staff:
      satisfied_when: session.project.on_tablet and session.project.role == "dockhand"
      resolve_with: sign_in
"""

MEMORY = """\
member_verified:
  type: bool
  description: True once the member number was found.
on_tablet:
  type: bool
  description: The dock tablet is signed in.
  seed: true
role:
  type: categorical
  enum_values: [guest, dockhand, harbourmaster]
  description: Who is signed in on the tablet.
  seed: true
"""

SIGN_IN = """\
---
name: Member sign-in
description: Signing in with a member number, "log me in", "sign in".
import_tools:
  - verify_member
---

Ask for the member number (M followed by four digits) and call @tool.verify_member with it.
"""

SIGN_IN_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Check a member number.")
async def verify_member(member_number: str, context: ToolContext = None):
    """Find the member.

    Args:
        member_number: M followed by four digits.
    """
    context.memory.set("project.member_verified", True)
    return {"found": True}
'''

BERTH = """\
---
name: Berth booking
description: Booking a visitor berth, "book a berth for Saturday", "I need a berth".
precondition: member_ok
tool_constraints:
  - book_berth:
      requires: session.project.member_verified and session.berth.nights
      on_success: utter_berth_booked
---

Ask how many nights (set nights), then call book_berth with the nights.
"""

BERTH_MEMORY = """\
schema:
  public:
    nights:
      type: int
      description: Nights in the berth, 1 to 14.
      llm_settable: true
"""

BERTH_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Book a visitor berth.")
async def book_berth(nights: int, context: ToolContext = None):
    """Book it.

    Args:
        nights: Nights, 1 to 14.
    """
    return {"booked": True}
'''

BERTH_RESPONSES = """\
responses:
  utter_ask_nights:
    - text: How many nights?
  utter_berth_booked:
    - text: Your berth is booked.
"""

FUEL = """\
---
name: Fuel dock log
description: Logging fuel sold at the fuel dock, "log a fuel sale", "record diesel".
precondition: dock_staff
---

Ask how many litres were sold and set litres. Say it is logged.
"""

FUEL_MEMORY = """\
schema:
  public:
    litres:
      type: int
      description: Litres sold.
      llm_settable: true
"""

FILES = {
    "agent.yml": AGENT,
    "integrations.yml": INTEGRATIONS,
    "memory.yml": MEMORY,
    "responses.yml": "responses:\n  utter_anything_else:\n    - text: Anything else?\n",
    "skills/sign_in/skill.md": SIGN_IN,
    "skills/sign_in/tools.py": SIGN_IN_TOOLS,
    "skills/berth/skill.md": BERTH,
    "skills/berth/memory.yml": BERTH_MEMORY,
    "skills/berth/tools.py": BERTH_TOOLS,
    "skills/berth/responses.yml": BERTH_RESPONSES,
    "skills/fuel_dock/skill.md": FUEL,
    "skills/fuel_dock/memory.yml": FUEL_MEMORY,
}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("marina"), FILES)


@pytest.fixture(scope="module")
def generated(root: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("out")
    return generate_offline(root, ["berth", "fuel_dock"], out)


def _scenario(path: str) -> dict[str, Any]:
    return yaml.safe_load(Path(path).read_text("utf-8"))["scenario"]


def test_a_precondition_is_read_from_its_binding_in_agent_yml(root: Path) -> None:
    project = load_project(root)
    assert precondition_of(project.mantle, "berth") == "session.project.member_verified"
    assert precondition_of(project.mantle, "sign_in") is None


def test_seed_fields_that_make_the_precondition_hold_open_the_skill(root: Path) -> None:
    project = load_project(root)
    assert opening_seeds(project, "fuel_dock") == {
        "project.on_tablet": True,
        "project.role": "dockhand",
    }
    assert opening_seeds(project, "sign_in") == {}
    assert opening_seeds(project, "berth") is None  # a tool writes member_verified
    assert opener_of(project, "berth") == "sign_in"
    assert opener_of(project, "fuel_dock") is None


def test_cases_for_a_seedable_precondition_seed_it(generated: dict[str, Any]) -> None:
    rows = [
        r for r in generated["cases"] if r["path"].endswith(".yml") and "fuel_dock" in r["path"]
    ]
    assert rows
    for row in rows:
        slots = _scenario(row["path"]).get("setup", {}).get("initial_slots", {})
        assert slots.get("project.on_tablet") is True, row["path"]
        assert slots.get("project.role") == "dockhand", row["path"]


def test_cases_for_a_skill_a_sign_in_opens_open_with_their_own_request(
    generated: dict[str, Any],
) -> None:
    rows = [r for r in generated["cases"] if "/berth" in r["path"] or "berth_" in r["path"]]
    happy = [r for r in rows if r["type"] == "happy_path"]
    assert happy
    for row in happy:
        context = _scenario(row["path"])["simulation_context"]
        # the case's own request: the precondition's `resolve_with` names the sign-in
        # skill, which runs first because the agent requires it, not because the user asks
        assert 'Open with: "' in context, context
        assert not re.search(r"sign[ -]in|log me in", context, re.I), context
        assert row["verified"] == "yes", row


def test_the_reference_agent_does_not_route_to_a_closed_skill(
    root: Path, run_cli_json, tmp_path: Path
) -> None:
    def case(name: str, slots: dict[str, Any] | None) -> Path:
        scenario: dict[str, Any] = {
            "name": name,
            "type": "happy_path",
            "simulation_context": 'You are a dockhand.\nOpen with: "Log a fuel sale."\n'
            "What you know (share each only when the agent asks):\n- litres: 40\n",
            "goals": {"assertions": [{"skill_activated": {"skill_id": "fuel_dock"}}]},
        }
        if slots is not None:
            scenario["setup"] = {"initial_slots": slots}
        path = tmp_path / "cases" / f"{name}.yml"
        path.parent.mkdir(exist_ok=True)
        path.write_text(yaml.safe_dump({"scenario": scenario}), encoding="utf-8")
        return path

    closed = case("closed", None)
    guest = case("guest", {"project.on_tablet": True, "project.role": "guest"})
    opened = case("opened", {"project.on_tablet": True, "project.role": "dockhand"})
    for path, passes in ((closed, False), (guest, False), (opened, True)):
        code, summary = run_cli_json(
            "run", path, "--target", f"mantle:{root}", "--results", tmp_path / path.stem
        )
        assert (code == 0) is passes, (path.stem, summary)
