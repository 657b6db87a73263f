"""A case of one job opens with the request the description gives for that job.

A skill with several jobs lists one request per job in its description ("what's my day
look like", "move my 3pm to tomorrow"). A case of the reschedule job opens with "Move my
3pm to tomorrow.", not with the description restated plus the job's name ("Hi, I'd like
help with the executive's own calendar. Reschedule, please."), and the agent reads the job
from it, also where the case's own details take the example's place ("Find 30 minutes with
Helen this week."). A sign-in opens with what a person says to it, not with its name said
from the agent's side ("Check the researcher's badge").
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from agentflows.drafting.offline._mantle_intent import (
    job_opening,
    modes_said,
    not_self_named,
    other_day,
    sign_in_openings,
)
from agentflows.planning._mantle_phrases import paired_phrases, value_line
from evalcore.agents.reference import example_modes
from evalcore.agents.reference._mantle_words import field_words
from evalcore.definitions import MantleDefinitions, load_project
from evalcore.testdata import Collection, DataRecords

CALENDAR = """\
---
name: Calendar
description: >
  The executive's own calendar: "what's my day look like", "find 30 minutes with Raj
  this week", "move my 3pm to tomorrow", "cancel the vendor call".
---

Manage the executive's calendar. From the request, set mode to agenda, schedule,
reschedule or cancel and follow that section.

if: session.cal.mode == "agenda"
Call list_events for the day they asked about and give the meetings one per line.

if: session.cal.mode == "schedule"
Ask who and how long if missing, call get_free_busy, and call create_event for the slot
they pick.

if: session.cal.mode == "reschedule"
Find the meeting with list_events, propose a new time and call move_event.

if: session.cal.mode == "cancel"
Find the meeting with list_events and call delete_event.
"""

CAL_MEMORY = """\
schema:
  public:
    mode:
      type: categorical
      enum_values: [agenda, schedule, reschedule, cancel]
      description: What the executive wants done with the calendar.
      llm_settable: true
"""

SIGN_IN = """\
---
name: Check the researcher's badge
description: >
  Sign in with a badge number: "I need to log in", "here's my badge number".
---

Ask for the badge number and set badge_id.
"""

SIGN_IN_MEMORY = """\
schema:
  public:
    badge_id:
      type: text
      description: The badge number.
      llm_settable: true
"""

BAGS = """\
---
name: Bags
description: >
  Checked bags: "where is my suitcase", "the handle on my bag is broken", "can you
  deliver my bag to my hotel instead".
---

Set mode from what they need: track, report_damaged or change_delivery.

if: session.bags.mode == "track"
Call trace_bag with the tag and say the last scan.

if: session.bags.mode == "report_damaged"
Ask what part of the bag is damaged (set damage_type), then call file_damage_report.

if: session.bags.mode == "change_delivery"
Ask for the bag's report reference and the new address, then call update_address.
"""

BAGS_MEMORY = """\
schema:
  public:
    mode:
      type: categorical
      enum_values: [track, report_damaged, change_delivery]
      description: What the passenger needs for their bag.
      llm_settable: true
    damage_type:
      type: categorical
      enum_values: [wheel, handle, zipper]
      description: What part of the bag is damaged.
      llm_settable: true
"""

EXECUTIVES = [
    {"exec_id": "NS-001", "name": "Helen Marsh", "home_office": "New York"},
    {"exec_id": "NS-002", "name": "Raj Patel", "home_office": "New York"},
]

FILES = {
    "agent.yml": "name: Office\npersona: You help executives.\n",
    "integrations.yml": INTEGRATIONS,
    "skills/cal/skill.md": CALENDAR,
    "skills/cal/memory.yml": CAL_MEMORY,
    "skills/badge/skill.md": SIGN_IN,
    "skills/badge/memory.yml": SIGN_IN_MEMORY,
    "skills/bags/skill.md": BAGS,
    "skills/bags/memory.yml": BAGS_MEMORY,
}


def _defs(tmp_path: Path) -> MantleDefinitions:
    defs = load_project(write_project(tmp_path / "office", FILES)).mantle
    assert defs is not None
    return defs


def test_each_job_pairs_with_its_own_request(tmp_path: Path) -> None:
    defs = _defs(tmp_path)
    modes = example_modes(defs, defs.skills["cal"])
    # "move" is the reschedule section's own word, in the tool it calls (move_event)
    assert modes["move my 3pm to tomorrow"] == {"cal.mode": "reschedule"}
    # one request per job: the last request left is the last job's
    assert modes["find 30 minutes with Raj this week"] == {"cal.mode": "schedule"}
    assert modes["what's my day look like"] == {"cal.mode": "agenda"}


def test_the_agent_reads_the_job_from_its_request(tmp_path: Path) -> None:
    words = field_words(_defs(tmp_path), "cal.mode")
    # a request whose words name no job still asks for its own
    assert words.stated("What's my day look like?") == "agenda"
    # with the case's own details in place of the example's
    assert words.stated("Find 30 minutes with Helen this week.") == "schedule"
    assert words.stated("Move my 10am to tomorrow.") == "reschedule"


def test_the_opening_asks_for_the_job_in_a_persons_words(tmp_path: Path) -> None:
    defs = _defs(tmp_path)
    given = {"cal.mode": "reschedule"}
    assert paired_phrases(defs, given) == [("Move my 3pm to tomorrow.", given)]
    # the answer to a question keeps the value's words
    assert value_line(defs, "cal.mode", "reschedule") == "Reschedule, please."
    # an opening that no longer says the job (another's words) gets the job's words
    assert modes_said(defs, "Hi, I need my calendar.", given) == (
        "Hi, I need my calendar. Reschedule, please."
    )
    assert modes_said(defs, "Move my 9am to tomorrow.", given) == "Move my 9am to tomorrow."


def test_a_job_the_agent_asks_for_is_told_as_a_request(tmp_path: Path) -> None:
    defs = _defs(tmp_path)
    skill = defs.skills["bags"]
    modes = example_modes(defs, skill)
    # a value of a field only the damage section sets ("handle": damage_type)
    assert modes["the handle on my bag is broken"] == {"bags.mode": "report_damaged"}
    # the verb of the job's own words ("deliver" of "delivery")
    assert modes["can you deliver my bag to my hotel instead"] == {"bags.mode": "change_delivery"}
    memory = {"bags.mode": "change_delivery"}
    expected = "Can you deliver my bag to my hotel instead?"
    assert job_opening(defs, skill, memory, frozenset()) == expected
    # not where the case's turn waits for that question
    assert job_opening(defs, skill, memory, frozenset({"bags.mode"})) is None
    # nor where the request states another value than the case's (a broken wheel)
    damaged = {"bags.mode": "report_damaged", "bags.damage_type": "wheel"}
    assert job_opening(defs, skill, damaged, frozenset()) is None
    # nor where it names a detail the case's path does not hold
    assert job_opening(defs, skill, {"bags.mode": "report_damaged"}, frozenset()) is None
    damaged = {"bags.mode": "report_damaged", "bags.damage_type": "handle"}
    assert job_opening(defs, skill, damaged, frozenset()) == "The handle on my bag is broken."


def test_a_request_never_names_the_caller_as_someone_else(tmp_path: Path) -> None:
    records = DataRecords([Collection("executives", tuple(EXECUTIVES))])
    line = "Find 30 minutes with Raj this week."
    assert not_self_named(line, "Raj Patel", records) == "Find 30 minutes with Helen this week."
    assert not_self_named(line, "Helen Marsh", records) == line


def test_a_request_naming_a_day_names_the_cases_day(tmp_path: Path) -> None:
    shifts = [
        {"shift_id": "SH-0522-1205-A", "date": "2026-12-05", "position": "opening"},
        {"shift_id": "SH-0417-1206-B", "date": "2026-12-06", "position": "close"},
    ]
    records = DataRecords([Collection("shifts", tuple(shifts))])
    line = "I need someone to cover my Sunday close."
    assert other_day(line, {"SH-0522-1205-A"}, records)  # a Saturday
    assert not other_day(line, {"SH-0417-1206-B"}, records)
    assert not other_day("Cover my close, please.", {"SH-0522-1205-A"}, records)


def test_a_sign_in_opens_with_what_a_person_says(tmp_path: Path) -> None:
    defs = _defs(tmp_path)
    openings = sign_in_openings(defs, defs.skills["badge"])
    assert sorted(openings) == ["Here's my badge number.", "I need to log in."]


def test_generated_cases_open_with_the_jobs_request(tmp_path: Path) -> None:
    root = write_project(tmp_path / "office", FILES)
    generate_offline(root, ["cal"], tmp_path / "run")
    openings: dict[str, str] = {}
    for path in (tmp_path / "run" / "cases").rglob("*_happy_path.yml"):
        scenario = yaml.safe_load(path.read_text(encoding="utf-8"))["scenario"]
        context = scenario["simulation_context"]
        opening = next(x for x in context.splitlines() if "Open with:" in x)
        openings[path.stem] = json.loads(opening.split("Open with:", 1)[1].strip())
    assert openings["cal_reschedule_happy_path"] == "Move my 3pm to tomorrow."
    assert openings["cal_agenda_happy_path"] == "What's my day look like?"
    assert not any("please" in line.lower() for line in openings.values()), openings
