"""The user knows what a claim-like skill asks in free text: what happened, when, at what
time, where, and anything to add, each told as a person would and fitting the path's choice
(a car incident on the car path). The reference agent and the walk both ask each one, so the
happy paths reach the gated submit; a free-text value is asserted as set, never by its words.

Before: the user knew only the choice ("Sorry, I don't know that" to "what happened"), the
date a tool normalizes was never asked, the time and place behind a made choice were never
asked, and every happy path stopped short of the submit (needs-review).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from evalcore.testdata import FieldSpec, case_rng, incident_for, told_value

SKILL = """\
---
name: Report damage
description: >
  Report damage to an insured bike or flat. Activate when the member wants to report damage
  or an incident.
import_tools:
  - list_cover
tool_constraints:
  - send_report:
      requires: session.report.checked
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_report
        utter_on_user_denial: utter_report_dropped
      on_success: utter_report_sent
---

Help the member report damage. Collect the details in order, then confirm.

Invoke `@block.details` once they want to report.

:::ordered_block id=details
steps:
  - id: covers
    execute_tool: list_cover
  - id: pick
    instructions: |
      Ask which cover the damage falls under. Set cover_kind to Bike or Flat.
    complete_when: session.report.cover_kind
  - id: what
    instructions: |
      Ask what happened and what caused the damage. Set damage_story.
    complete_when: session.report.damage_story
  - id: day
    instructions: |
      Ask for the day it happened. Call tidy_day with their answer and keep the
      tidied MM/DD/YYYY value in damage_day.
    complete_when: session.report.damage_day
  - id: bike_only
    instructions: |
      if: session.report.cover_kind == "Bike"
      Ask for the time it happened and set damage_time.
      Ask where it happened and set damage_place.
      if: session.report.cover_kind == "Flat"
      Nothing more here. Continue.
    complete_when: >
      (session.report.cover_kind == "Flat") or
      (session.report.damage_time and session.report.damage_place)
  - id: more
    instructions: |
      if: session.report.cover_kind == "Bike"
      Ask for witness names and a police report number if there is one.
      if: session.report.cover_kind == "Flat"
      Ask for anything else they want on file.
      Set extra_notes.
    complete_when: session.report.extra_notes
  - id: check
    instructions: |
      Read back the report and ask if everything is correct.
      If they confirm, set checked to True.
    complete_when: session.report.checked == True
:::

When checked is True, call send_report with the collected fields.
"""

MEMORY = """\
schema:
  public:
    cover_kind:
      type: categorical
      description: The cover the damage falls under.
      enum_values: [Bike, Flat]
      llm_settable: true
    damage_story:
      type: text
      description: What happened and what caused the damage.
      llm_settable: true
    damage_day:
      type: text
      description: Day the damage happened (MM/DD/YYYY); the member may say yesterday.
      llm_settable: true
    damage_time:
      type: text
      description: Time the damage happened, for bike reports.
      llm_settable: true
    damage_place:
      type: text
      description: Where the damage happened, for bike reports.
      llm_settable: true
    extra_notes:
      type: text
      description: Witnesses, police report, or other notes for the report.
      llm_settable: true
    checked:
      type: bool
      description: Whether the member confirms the report is correct.
      llm_settable: true
    report_sent:
      type: bool
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Tidy a spoken day to MM/DD/YYYY.")
async def tidy_day(damage_day: str, context: ToolContext = None):
    """Tidy it.

    Args:
        damage_day: The day as said.
    """
    context.memory.set("damage_day", "03/14/2026")
    return {"ok": True, "damage_day": "03/14/2026"}


@tool(description="Send the damage report.")
async def send_report(
    cover_kind: str,
    damage_story: str,
    damage_day: str,
    extra_notes: str,
    damage_time: str = "",
    damage_place: str = "",
    context: ToolContext = None,
):
    """Send it.

    Args:
        cover_kind: Bike or Flat.
        damage_story: What happened.
        damage_day: MM/DD/YYYY.
        extra_notes: Witnesses or notes.
        damage_time: Time (bike).
        damage_place: Place (bike).
    """
    context.memory.set("report_sent", True)
    return {"ok": True}
'''

SHARED_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="List the member's covers.")
async def list_cover(context: ToolContext = None):
    """The covers."""
    return {"covers": [{"kind": "Bike"}, {"kind": "Flat"}]}
'''

RESPONSES = """\
responses:
  utter_confirm_report:
    - text: Shall I send this {cover_kind} report?
  utter_report_dropped:
    - text: Okay, nothing sent.
  utter_report_sent:
    - text: Your report is sent.
"""

FILES = {
    "agent.yml": "name: Member desk\npersona: You help members of a bike and flat cover.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "responses.yml": "responses:\n  utter_anything_else:\n    - text: Anything else?\n",
    "tools/cover.py": SHARED_TOOLS,
    "skills/report/skill.md": SKILL,
    "skills/report/tools.py": TOOLS,
    "skills/report/memory.yml": MEMORY,
    "skills/report/responses.yml": RESPONSES,
}

FREE_TEXT = ("damage_story", "damage_day", "damage_time", "damage_place", "extra_notes")


def _assertions(case: dict[str, Any]) -> list[dict[str, Any]]:
    return case["scenario"]["goals"]["assertions"]


def test_the_happy_paths_reach_the_submit_with_every_free_text_fact(tmp_path: Path) -> None:
    root = write_project(tmp_path / "desk", FILES)
    report = generate_offline(root, ["report"], tmp_path)
    happy = {r["behavior"]: r for r in report["cases"] if r["type"] == "happy_path"}
    assert set(happy) == {"report:Bike", "report:Flat"}, report["dropped"]
    for row in happy.values():
        assert row["verified"] == "yes", row.get("needs_review")
    bike = yaml.safe_load(Path(happy["report:Bike"]["path"]).read_text("utf-8"))
    context = bike["scenario"]["simulation_context"]
    assert "Sorry" not in context
    told = context.split("What you know", 1)[1]
    # a bike incident, its time, a place, and the witnesses/police answer the question asks
    assert "bike" in told.lower() or "car" not in told.lower()
    assert "witnesses" in told and "police report" in told
    sent = [
        a["tool_executed"]
        for a in _assertions(bike)
        if "tool_executed" in a and a["tool_executed"]["tool_name"] == "send_report"
    ]
    assert sent and sent[0]["is_error"] is False
    # free text is asserted as set, never by the words the user said
    assert not set(sent[0].get("arguments", {})) & set(FREE_TEXT)
    items = [i for a in _assertions(bike) for i in a.get("memory_was_set") or []]
    named = {i["name"]: i for i in items}
    for key in FREE_TEXT:
        assert f"report.{key}" in named and "value" not in named[f"report.{key}"]
    flat = Path(happy["report:Flat"]["path"]).read_text("utf-8")
    assert "report.damage_place" not in flat  # the flat path asks no time or place
    assert "Nothing else to add." in flat


def test_what_happened_fits_the_path_choice_before_the_skill_text() -> None:
    text = "Report damage to an insured car or home. The car ... the home ... the home."
    assert incident_for(text, "Car") is not incident_for(text, "")
    spec = FieldSpec("damage_story", "text", "What happened and what caused the damage.")
    place = FieldSpec("damage_place", "text", "Where it happened.")
    rng = case_rng("k", "told")
    story = told_value(spec, rng, text, "Car")
    assert story is not None and "car" in story.lower()
    # one draw per case: the place belongs to the story
    where = told_value(place, case_rng("k", "told"), text, "Car")
    incident = incident_for(text, "Car")
    assert incident is not None
    assert incident.what.index(story) == incident.where.index(where)
    assert told_value(spec, rng, "Change my e-mail address.") is None  # nothing fits: None


def test_what_is_wrong_with_a_named_thing_is_its_fault_not_a_place() -> None:
    """A repair case on a lock category asked "what is wrong and where in the unit": the
    user told a place ("at home, at the back door"), leaving the fault to be made up, and a
    made-up "it won't lock" is an emergency elsewhere. The fault is an everyday one that
    keeps the door locking."""
    spec = FieldSpec("problem_description", "text", "What is wrong and where, in their words.")
    text = "Something in the apartment is broken: my sink is leaking."
    said = told_value(spec, case_rng("k", "told"), text, "lock_door")
    assert said is not None and "lock" in said and "still locks" in said
    other = told_value(spec, case_rng("k", "told"), text, "plumbing")
    assert other is None or "lock" not in other  # no fault of a thing the case names not


def test_an_id_with_a_word_prefix_is_still_asserted_but_a_date_is_not() -> None:
    from agentflows.drafting.offline._mantle_exact import exact

    assert exact("text", "CLAIM1234")  # the project's own claim ids: passed as read out
    assert not exact("text", "yesterday") and not exact("text", "03/14/2026")


def test_the_reference_agent_asks_each_field_with_its_own_sentence(tmp_path: Path) -> None:
    from skill_model_fixtures import play_lines

    root = write_project(tmp_path / "desk", FILES)
    lines = ["I want to report damage", "Bike", "A car door hit my bike.", "yesterday", "6 pm"]
    events = play_lines(root, [*lines, "on Harbour Road"])
    said = [str(e.get("text") or "") for e in events if e.get("event") == "bot"]
    assert any("where it happened" in s for s in said), said
    memory = {e["key"]: e.get("value") for e in events if e.get("event") == "memory_set"}
    assert memory.get("report.damage_time") == "6 pm"
    assert memory.get("report.damage_place") == "on Harbour Road"  # not the time again
