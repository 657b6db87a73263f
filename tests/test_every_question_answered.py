"""Every question a case's path asks has an answer in the simulated user's facts, so the
simulator never has to invent one: an offer made with the call that makes it good gets its
answer too."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_facts import offers, offers_taken
from agentflows.drafting.offline._mantle_offer_gates import blocked_offers
from agentflows.drafting.offline._mantle_step_questions import step_offers
from agentflows.planning import plan_source
from evalcore.definitions import Project, Skill, load_project
from evalcore.simulator import parse_fact_context
from evalcore.testdata import MERCHANTS, REASONS, case_rng, reason_for

LOST_FOB = """\
if: session.door_access.request == "lost_fob"
Deactivate the fob straight away with @tool.deactivate_fob. Then offer a replacement with
@tool.order_replacement_fob: $35, ready at the leasing office the next business day.
"""


def _skill(body: str) -> Skill:
    return Skill(id="door_access", path="skills/door_access", name=None, description="", body=body)


def test_an_offer_made_with_a_tool_is_answered() -> None:
    """ "offer a replacement with @tool.order_replacement_fob": the question is the offer,
    the call is how it is met; the user who is not asked to take it says no."""
    memory = {"door_access.request": "lost_fob"}
    assert offers(_skill(LOST_FOB), memory) == ["whether you want a replacement"]


def test_an_offer_whose_call_the_path_makes_is_taken() -> None:
    memory = {"door_access.request": "lost_fob"}
    taken = offers_taken(_skill(LOST_FOB), memory, {"order_replacement_fob"})
    assert taken == ["whether you want a replacement"]


TRIP_SKILL = """---
name: Log a trip cost
description: >
  Logging a trip cost: "log my taxi from the airport", "log the hotel".
---

Run @block.trip_details, then call log_cost with the collected fields.

:::ordered_block id=trip_details
steps:
  - id: kind
    collect: kind
    utterance: utter_ask_kind
    description: hotel, ground (taxi, Cabco, train) or meal (the traveller alone).
  - id: specifics
    instructions: |
      Ask for the vendor and the date (set vendor and cost_date, MM/DD/YYYY).

      if: @memory.trip_cost.kind == "ground"
      Ask where from and to in a few words (set route, e.g. "airport to office").

      if: @memory.trip_cost.kind == "meal"
      Ask who paid the tip (set tipper, e.g. "the traveller").
    complete_when: session.trip_cost.cost_date
:::
"""
TRIP_MEMORY = """schema:
  public:
    kind:
      type: categorical
      enum_values: [hotel, ground, meal]
      description: What the cost was for.
      llm_settable: true
    vendor:
      type: text
      description: Vendor as on the receipt, e.g. Blue Door Inn or Cabco.
      llm_settable: true
    cost_date:
      type: text
      description: Date of the cost, MM/DD/YYYY.
      llm_settable: true
    route:
      type: text
      description: A few words on the trip.
      llm_settable: true
    tipper:
      type: text
      description: Who paid the tip.
      llm_settable: true
"""
TRIP_TOOLS = '''"""Trip costs."""

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Log one trip cost.")
async def log_cost(
    kind: str, vendor: str, cost_date: str, route: str = "", context: ToolContext = None
) -> ToolResult:
    """Log it.

    Args:
        kind: hotel, ground or meal.
        vendor: As on the receipt.
        cost_date: MM/DD/YYYY.
        route: Ground only.
    """
    return ToolResult(llm_response={"logged": True})
'''


@pytest.fixture(scope="module")
def trips(tmp_path_factory) -> Project:
    root = tmp_path_factory.mktemp("trips")
    (root / "agent.yml").write_text("agent:\n  name: Trips\n  persona: You log trip costs.\n")
    folder = root / "skills" / "trip_cost"
    folder.mkdir(parents=True)
    (folder / "skill.md").write_text(TRIP_SKILL)
    (folder / "memory.yml").write_text(TRIP_MEMORY)
    (folder / "tools.py").write_text(TRIP_TOOLS)
    return load_project(root)


def _facts_by_kind(project: Project) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for behavior in plan_source(project, "mantle", "trip_cost", None).behaviors:
        kind = (behavior.facts.get("values") or {}).get("trip_cost.kind")
        if behavior.type != "happy_path" or kind is None:
            continue
        data = draft_mantle(DraftContext(project, "mantle", behavior))
        context = parse_fact_context(data["scenario"]["simulation_context"])
        out[kind] = {f.label: f.value for f in context.facts}
    return out


def test_a_steps_question_under_the_cases_branch_gets_its_own_example(trips: Project) -> None:
    """ "if: kind == "ground" / Ask where from and to (set route, e.g. "airport to office")":
    the ground case's user has the route; the other branches' users are not given it, nor the
    meal branch's tip answer outside the meal case."""
    facts = _facts_by_kind(trips)
    assert facts["ground"]["route"] == "airport to office"
    assert "route" not in facts["hotel"] and "who paid the tip" not in facts["hotel"]
    assert facts["meal"]["who paid the tip"] == "the traveller"


def test_a_value_only_the_cases_choice_names_is_given(trips: Project) -> None:
    """The vendor's examples are "Blue Door Inn or Cabco", and only the ground choice names
    Cabco: the ground case's user paid Cabco; a hotel case is given no cab company."""
    facts = _facts_by_kind(trips)
    assert facts["ground"]["vendor"] == "Cabco"
    assert facts["hotel"].get("vendor") != "Cabco"


def test_a_vendor_no_example_fits_is_one_of_the_cases_kind(trips: Project) -> None:
    """Neither example fits a hotel or a meal ("Blue Door Inn" is named by no choice): the
    hotel case's user paid a hotel and the meal case's a restaurant, never nobody."""
    facts = _facts_by_kind(trips)
    hotels = next(m for m in MERCHANTS if "hotel" in m.topic).items
    restaurants = next(m for m in MERCHANTS if "meal" in m.topic).items
    assert facts["hotel"].get("vendor") in hotels
    assert facts["meal"].get("vendor") in restaurants


RENEW_SKILL = """---
name: Refill
description: >
  Refilling a prescription: "refill my inhaler".
tool_constraints:
  - request_renewal:
      requires: session.refill.rx_number and session.refill.refills_left == 0
---

Look the prescription up. If no refills are left, offer to ask the prescriber for a renewal
with @tool.request_renewal.
"""


def _refill(tmp_path: Path) -> Skill:
    (tmp_path / "agent.yml").write_text("agent:\n  name: Pharmacy\n  persona: You refill.\n")
    folder = tmp_path / "skills" / "refill"
    folder.mkdir(parents=True)
    (folder / "skill.md").write_text(RENEW_SKILL)
    project = load_project(tmp_path)
    assert project.mantle is not None
    return project.mantle.skills["refill"]


def test_an_offer_whose_call_the_cases_values_bar_needs_no_answer(tmp_path: Path) -> None:
    """The renewal `requires` no refills left: with refills left it never runs, so nobody
    offers it; a part of the gate still unknown (the rx number) does not save it."""
    skill = _refill(tmp_path)
    label = "whether you want to ask the prescriber for a renewal"
    assert blocked_offers(skill, {"refill.refills_left": 2}) == {label}
    assert blocked_offers(skill, {"refill.refills_left": 0}) == frozenset()
    assert blocked_offers(skill, {}) == frozenset()  # nothing known: the offer may come


PLAN_SKILL = """---
name: Rent plans
description: >
  Splitting this month's rent balance: "I can't pay the full rent this month".
---

A plan splits this month's balance into installments. Ask how many installments (set
installments) and the reason in a few words, then call request_plan.
"""
PLAN_MEMORY = """schema:
  public:
    installments:
      type: int
      description: 2 or 3.
      llm_settable: true
"""
PLAN_TOOLS = '''"""Rent plans."""

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Ask for a plan on this month's rent balance.")
async def request_plan(installments: int, reason: str, context: ToolContext = None) -> ToolResult:
    """Request it.

    Args:
        installments: 2 or 3.
        reason: A few words from the tenant.
    """
    return ToolResult(llm_response={"requested": True})
'''
PAGE_SKILL = """---
name: Paging
description: >
  Paging the on-call engineer of a team: "page the payments on-call".
---

Ask what the page is about in one line if they did not say, then page the team's primary
with @tool.page_primary.
"""


def _one_skill(root: Path, name: str, files: dict[str, str]) -> Project:
    (root / "agent.yml").write_text("agent:\n  name: Desk\n  persona: You help people.\n")
    folder = root / "skills" / name
    folder.mkdir(parents=True)
    for file, text in files.items():
        (folder / file).write_text(text)
    return load_project(root)


def _happy_facts(project: Project, skill: str) -> dict[str, str]:
    behavior = next(
        b for b in plan_source(project, "mantle", skill, None).behaviors if b.type == "happy_path"
    )
    data = draft_mantle(DraftContext(project, "mantle", behavior))
    context = parse_fact_context(data["scenario"]["simulation_context"])
    return {f.label: f.value for f in context.facts}


def test_a_reason_a_call_takes_that_no_field_holds_is_the_users(tmp_path: Path) -> None:
    """`request_plan(installments, reason)`: no memory entry holds the reason, so the user
    has one of the kind the skill is about (rent), never none."""
    files = {"skill.md": PLAN_SKILL, "memory.yml": PLAN_MEMORY, "tools.py": PLAN_TOOLS}
    facts = _happy_facts(_one_skill(tmp_path, "rent_plan", files), "rent_plan")
    assert facts.get("reason") in REASONS[0].why


def test_what_a_request_is_about_is_the_users_to_say(tmp_path: Path) -> None:
    """ "Ask what the page is about": the user says what is wrong, a page's kind of reason."""
    facts = _happy_facts(_one_skill(tmp_path, "paging", {"skill.md": PAGE_SKILL}), "paging")
    assert facts.get("what the page is about") in REASONS[1].why


def test_no_reason_where_the_skill_names_no_kind() -> None:
    """A skill about nothing the catalogue knows gets no reason: never filler."""
    assert reason_for("Book a table for dinner at the restaurant.", case_rng("x", "r")) is None


TRAVEL_SKILL = """---
name: Trips
description: >
  Booking a trip: "book me to Chicago".
---

Run @block.trip.

:::ordered_block id=trip
steps:
  - id: kind
    collect: trip_type
    utterance: utter_ask_trip_type
  - id: when
    instructions: |
      Ask what time they need to be there (set arrive_by, HH:MM local).

      if: @memory.trips.trip_type == "domestic"
      Only ask whether they want to fly out the evening before when arrive_by is before 10:00.
    complete_when: session.trips.arrive_by
:::
"""
TRAVEL_MEMORY = """schema:
  public:
    trip_type:
      type: categorical
      enum_values: [domestic, international]
      llm_settable: true
    arrive_by:
      type: text
      description: Time they need to be there, HH:MM.
      llm_settable: true
"""


def test_a_steps_passing_offer_is_declined_where_the_case_meets_its_condition(
    tmp_path: Path,
) -> None:
    """ "Only ask whether they want to fly out the evening before when arrive_by is before
    10:00": an early domestic arrival declines; a later one, or an international trip, is
    never asked and gets no line."""
    files = {"skill.md": TRAVEL_SKILL, "memory.yml": TRAVEL_MEMORY}
    project = _one_skill(tmp_path, "trips", files)
    assert project.mantle is not None
    skill = project.mantle.skills["trips"]
    domestic = {"trips.trip_type": "domestic"}
    label = ("whether you want to fly out the evening before", "no, thanks")
    assert step_offers(skill, domestic, {"trips.arrive_by": "9:30 am"}) == [label]
    assert step_offers(skill, domestic, {"trips.arrive_by": "11:00 am"}) == []
    international = {"trips.trip_type": "international"}
    assert step_offers(skill, international, {"trips.arrive_by": "9:30 am"}) == []


def test_a_word_in_passing_is_no_kind_of_reason() -> None:
    """A dispute that mentions one rent payment is no rent request: no reason drawn."""
    text = "Dispute a card charge, such as a rent payment taken twice."
    assert reason_for(text, case_rng("x", "r")) is None
