"""Paths the planner opens so that faults only one branch shows are caught: one path per
value group of a seeded channel field a skill routes on (the case seeds the value, the
persona is never asked for it), and the mutants of the branch each path takes die."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.mutate import mutate
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.definitions.skill_model.prose_items import classify
from evalcore.runner import collect_cases
from evalcore.testdata import FieldSpec, case_rng, typed_value
from evalcore.testdata._accounts import account_of

TRACK = """\
---
name: Track a parcel
description: >
  Where a parcel is: "where is my parcel", "has it shipped".
tool_constraints:
  - send_tracking_link:
      requires: session.track_parcel.parcel_code and session.project.channel != 'phone'
      on_success: utter_link_sent
---

Ask for the parcel code, then look it up with @tool.find_parcel and tell them where it is.

if: session.project.channel == "phone"
Read the status out, then text it to their phone with @tool.text_status.

if: session.project.channel != "phone"
Send a tracking link with @tool.send_tracking_link.
"""

TRACK_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Look a parcel up by its code.")
async def find_parcel(parcel_code: str, context: ToolContext = None):
    """Where the parcel is."""
    context.memory.set("parcel_state", "in_transit")
    return {"state": "in_transit"}


@tool(description="Text the parcel's status to the caller.")
async def text_status(parcel_code: str, context: ToolContext = None):
    """Send an SMS."""
    return {"sent": True}


@tool(description="Send a link to the live tracking page.")
async def send_tracking_link(parcel_code: str, context: ToolContext = None):
    """Send the link."""
    return {"sent": True}
'''

FILES: dict[str, str] = {
    "agent.yml": "name: Parcels\npersona: You help people find their parcels.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": (
        "channel:\n  type: categorical\n  enum_values: [phone, web_chat]\n"
        "  description: Where the conversation started.\n  seed: true\n"
    ),
    "responses.yml": (
        "responses:\n  utter_anything_else:\n    - text: Anything else?\n"
        "  utter_goodbye:\n    - text: Goodbye!\n"
    ),
    "skills/track_parcel/skill.md": TRACK,
    "skills/track_parcel/tools.py": TRACK_TOOLS,
    "skills/track_parcel/memory.yml": (
        "schema:\n  public:\n"
        "    parcel_code:\n      type: text\n      description: The parcel code, like PX-20417.\n"
        "    parcel_state:\n      type: text\n"
    ),
    "skills/track_parcel/responses.yml": (
        "responses:\n"
        "  utter_ask_parcel_code:\n    - text: What is the parcel code?\n"
        "  utter_link_sent:\n    - text: I sent you a tracking link.\n"
    ),
}


@pytest.fixture(scope="module")
def parcels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("parcels") / "parcels", FILES)


def _tools(data: dict[str, Any]) -> set[str]:
    return {
        c["tool_executed"]["tool_name"]
        for c in data["scenario"]["goals"]["assertions"]
        if isinstance(c.get("tool_executed"), dict)
    }


def test_each_channel_value_a_skill_routes_on_gets_a_seeded_happy_path(parcels: Path) -> None:
    project = load_project(parcels)
    behaviors = plan_source(project, "mantle", "track_parcel", None).behaviors
    happy = {b.facts["values"]["project.channel"]: b for b in behaviors if b.type == "happy_path"}
    assert set(happy) == {"phone", "web_chat"}
    phone = draft_mantle(DraftContext(project, "mantle", happy["phone"]))
    web = draft_mantle(DraftContext(project, "mantle", happy["web_chat"]))
    # the channel is seeded, never asked of the user
    assert phone["scenario"]["setup"]["initial_slots"]["project.channel"] == "phone"
    assert web["scenario"]["setup"]["initial_slots"]["project.channel"] == "web_chat"
    assert "channel" not in phone["scenario"]["simulation_context"].lower().split("know")[-1]
    assert "text_status" in _tools(phone) and "send_tracking_link" not in _tools(phone)
    assert "send_tracking_link" in _tools(web) and "text_status" not in _tools(web)


def test_the_channel_paths_kill_the_faults_of_either_branch(parcels: Path, tmp_path: Path) -> None:
    project = load_project(parcels)
    behaviors = plan_source(project, "mantle", "track_parcel", None).behaviors
    folder = tmp_path / "cases"
    folder.mkdir()
    for behavior in behaviors:
        if behavior.type == "happy_path":
            data = draft_mantle(DraftContext(project, "mantle", behavior))
            (folder / f"{behavior.case}.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    wanted = [
        "fail_silently:text_status",
        "fail_silently:send_tracking_link",
        "wrong_argument:send_tracking_link",
    ]
    report = asyncio.run(
        mutate(collect_cases([folder], project=parcels), parcels, concurrency=2, only=wanted)
    )
    assert set(report.reference.values()) == {"passed"}, report.reference
    assert {r.mutant.id for r in report.results} == set(wanted)
    assert [r.mutant.id for r in report.survivors()] == []


POINTS = """\
---
name: Loyalty points
description: >
  How many points a member has: "how many points do I have", "my points balance".
tool_constraints:
  - get_points:
      on_failure: utter_points_down
---

Look the balance up with @tool.get_points and tell them how many points they have.
"""

POINTS_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="The member's points balance.")
async def get_points(member_id: str, context: ToolContext = None):
    """Points of one member."""
    context.memory.set("points", 1200)
    return {"points": 1200}
'''

MEMBERS: dict[str, str] = {
    "agent.yml": (
        "name: Club\npersona: You help club members.\n"
        "orchestrator:\n  model_group: main\n  preconditions:\n    signed_in:\n"
        "      satisfied_when: session.project.authenticated\n      resolve_with: loyalty_points\n"
    ),
    "integrations.yml": INTEGRATIONS,
    "memory.yml": (
        "member_id:\n  type: text\n"
        "  description: Member number, M- followed by six digits (M-204170).\n  seed: true\n"
        "authenticated:\n  type: bool\n  description: True once signed in.\n  seed: true\n"
    ),
    "responses.yml": (
        "responses:\n  utter_anything_else:\n    - text: Anything else?\n"
        "  utter_goodbye:\n    - text: Goodbye!\n"
    ),
    "skills/loyalty_points/skill.md": POINTS.replace(
        "---\n\n", "precondition: signed_in\n---\n\n", 1
    ),
    "skills/loyalty_points/tools.py": POINTS_TOOLS,
    "skills/loyalty_points/responses.yml": (
        "responses:\n  utter_points_down:\n    - text: I cannot see your points right now.\n"
    ),
    "skills/loyalty_points/memory.yml": (
        "schema:\n  public:\n    points:\n      type: int\n      description: Points balance.\n"
    ),
}


@pytest.fixture(scope="module")
def members(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("members") / "members", MEMBERS)


def test_a_signed_in_case_seeds_who_signed_in_and_asserts_the_argument(
    members: Path, tmp_path: Path
) -> None:
    """`project.member_id` is seeded channel context no tool writes: the case seeds it
    beside `authenticated`, asserts the tool gets it, and a wrong argument fails the case."""
    project = load_project(members)
    behaviors = plan_source(project, "mantle", "loyalty_points", None).behaviors
    happy = next(b for b in behaviors if b.type == "happy_path")
    data = draft_mantle(DraftContext(project, "mantle", happy))
    slots = data["scenario"]["setup"]["initial_slots"]
    assert slots["project.authenticated"] is True
    member = slots["project.member_id"]
    assert isinstance(member, str) and member.startswith("M-")
    calls = [
        c["tool_executed"]
        for c in data["scenario"]["goals"]["assertions"]
        if isinstance(c.get("tool_executed"), dict)
    ]
    assert {"tool_name": "get_points", "source": "local", "arguments": {"member_id": member}} in [
        {k: v for k, v in c.items() if k in ("tool_name", "source", "arguments")} for c in calls
    ]
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "happy.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    wanted = ["wrong_argument:get_points"]
    report = asyncio.run(
        mutate(collect_cases([folder], project=members), members, concurrency=1, only=wanted)
    )
    assert set(report.reference.values()) == {"passed"}, report.reference
    assert [r.mutant.id for r in report.results] == wanted
    assert report.survivors() == []


def test_a_tool_failure_goes_in_the_seeded_id_where_no_phone_is_seeded(
    members: Path, tmp_path: Path
) -> None:
    """The failing test account is an id of the session (its digits end the account
    number): the reference agent's tool fails on it, so the sad path passes."""
    project = load_project(members)
    behaviors = plan_source(project, "mantle", "loyalty_points", None).behaviors
    failure = next(b for b in behaviors if b.facts.get("kind") == "failure")
    data = draft_mantle(DraftContext(project, "mantle", failure))
    member = data["scenario"]["setup"]["initial_slots"]["project.member_id"]
    assert account_of({member}) == "failing"
    assert account_of({member.replace("50150", "20417")}) is None
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "fails.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    report = asyncio.run(
        mutate(collect_cases([folder], project=members), members, concurrency=1, only=[])
    )
    assert set(report.reference.values()) == {"passed"}, report.reference


def test_a_detail_asked_only_for_the_tool_is_an_identity_question(parcels: Path) -> None:
    """ "Ask for the four-digit PIN, then call @tool.x with both": the PIN is no memory
    field, so it is asked for the tool (and the drafter gives it as digits); "ask for the
    parcel code" names a field the skill keeps, which is asked as that field."""
    skill = load_project(parcels).mantle.skills["track_parcel"]
    pin = classify(
        "Ask for the four-digit PIN, then call @tool.find_parcel with both.", None, skill
    )
    assert [(i.kind, i.details) for i in pin] == [("identity", ("four-digit PIN",))]
    code = classify("Ask for the parcel code, then call @tool.find_parcel with it.", None, skill)
    assert "identity" not in [i.kind for i in code]
    value = typed_value(FieldSpec("four-digit_pin", "text", "four-digit PIN"), case_rng("k"))
    assert value is not None and re.fullmatch(r"\d{4}", value)


OFFICER = """\
---
name: Talk to the safety officer
description: >
  Escalate to the safety officer: "I need to talk to someone about a spill".
tool_constraints:
  - page_officer:
      requires: session.talk_to_officer.concern
      on_success: utter_officer_paged
---

Ask in one sentence what it is about and set concern. Then call @tool.page_officer with a
one-line summary.
"""

OFFICER_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Page the safety officer; hands the case to a human agent.")
async def page_officer(summary: str, context: ToolContext = None):
    """Send the page."""
    context.memory.set("page_id", "PG-0417")
    return {"paged": True}
'''

OFFICE: dict[str, str] = {
    "agent.yml": "name: Lab\npersona: You help researchers.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "responses.yml": (
        "responses:\n  utter_anything_else:\n    - text: Anything else?\n"
        "  utter_goodbye:\n    - text: Goodbye!\n"
    ),
    "skills/talk_to_officer/skill.md": OFFICER,
    "skills/talk_to_officer/tools.py": OFFICER_TOOLS,
    "skills/talk_to_officer/memory.yml": (
        "schema:\n  public:\n    concern:\n      type: categorical\n"
        "      enum_values: [spill, permit_question]\n"
        "      description: What the researcher needs the officer for.\n"
        "  private:\n    page_id:\n      type: text\n"
    ),
    "skills/talk_to_officer/responses.yml": (
        "responses:\n  utter_officer_paged:\n    - text: The officer has been paged.\n"
    ),
}


def test_a_hand_off_orders_its_tool_after_what_its_requires_reads(tmp_path: Path) -> None:
    """A hand-off skill's page comes after the field its `requires` reads, so a page sent
    before the user said what it is about fails the case (`ignore_requires`)."""
    root = write_project(tmp_path / "lab", OFFICE)
    project = load_project(root)
    assert project.mantle.skills["talk_to_officer"].is_handoff
    behaviors = plan_source(project, "mantle", "talk_to_officer", None).behaviors
    first = next(b for b in behaviors if b.type == "escalation")
    data = draft_mantle(DraftContext(project, "mantle", first))
    steps = next(
        c["sequencing"] for c in data["scenario"]["goals"]["assertions"] if "sequencing" in c
    )
    assert steps.index({"memory_was_set": "talk_to_officer.concern"}) < steps.index(
        {"memory_was_set": "talk_to_officer.page_id"}
    )
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "page.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    wanted = ["ignore_requires:page_officer"]
    report = asyncio.run(
        mutate(collect_cases([folder], project=root), root, concurrency=1, only=wanted)
    )
    assert set(report.reference.values()) == {"passed"}, report.reference
    assert [r.mutant.id for r in report.results] == wanted
    assert report.survivors() == []
