"""A case's persona knows only what a person in that place knows, and picks what the data let
them have: the id of a coworker is the lookup's to give, not the barista's; a pick from a list
that marks what the user may take is the first one the agent says they can take."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_intent import other_kind
from agentflows.drafting.offline._mantle_picked import list_pick_note
from agentflows.drafting.offline._mantle_script import build_script
from agentflows.planning import plan_source
from agentflows.planning._mantle_reference_walk import reference_walk
from agentflows.planning._mantle_walk_records import Setup
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import record_key
from evalcore.testdata import Collection, DataRecords, load_records

CORPUS = Path(__file__).parent / "data" / "corpus"


def test_the_record_key_a_step_copies_from_a_lookup() -> None:
    text = "If find_coworker returned exactly one match, set coworker_id to its employee_id."
    assert record_key("coworker_id", text) == "employee_id"
    assert record_key("coworker", text) is None  # a field whose name begins another's
    assert record_key("service", "Ask which service, and set service from the answer.") is None


def test_the_agent_copies_the_one_match_of_a_lookup_and_never_asks_for_its_id() -> None:
    project = load_project(CORPUS / "brewline_shifts")
    setup = Setup(
        values={"shift_swap.request_type": "swap", "shift_swap.coworker_name": "Maya"},
        memory={
            "project.authenticated": True,
            "project.store_id": "BL-0417",
            "project.employee_id": "E19877",
        },
    )
    walk = reference_walk(project, "shift_swap", setup)
    assert "shift_swap.coworker_id" not in {a.field for a in walk.asks}
    assert walk.memory.get("shift_swap.coworker_id") == "E20931"  # Maya's, from the data


def test_no_swap_case_makes_the_user_give_the_coworkers_id(tmp_path: Path) -> None:
    generate_offline(CORPUS / "brewline_shifts", ["shift_swap"], tmp_path)
    written = sorted((tmp_path / "cases").rglob("shift_swap_*.yml"))
    swaps = [p for p in written if "Lucía" in p.read_text() or "Maya" in p.read_text()]
    assert swaps
    for path in written:
        context = yaml.safe_load(path.read_text())["scenario"]["simulation_context"]
        assert "which one by role" not in context, path.name
        assert "E20931" not in context and "E19877" not in context, path.name
    happy = yaml.safe_load(
        next(p for p in written if p.name == "shift_swap_swap_happy_path.yml").read_text()
    )
    calls = [
        c["tool_executed"] for c in happy["scenario"]["goals"]["assertions"] if "tool_executed" in c
    ]
    swap = next(c for c in calls if c["tool_name"] == "request_swap")
    assert swap["arguments"].get("coworker_id", "").startswith("E")  # the data's, still pinned


def test_a_list_that_marks_what_the_user_can_take_is_picked_from_among_those() -> None:
    prose = ["Opening and closing shifts need it; the tool marks which ones they can take."]
    note = list_pick_note("open shifts", prose)
    assert "pick the first one it says you can take" in note
    assert "none you can take" in note
    plain = list_pick_note("events", ["Call list_events and read them out."])
    assert plain == "When the agent reads out the events, pick the first one."


SHIFTS = Collection(
    "shifts",
    (
        {"shift_id": "SH-0001", "date": "2026-12-06", "position": "bar", "employee_id": "E1"},
        {"shift_id": "SH-0002", "date": "2026-12-07", "position": "closing", "employee_id": "E2"},
        {"shift_id": "SH-0003", "date": "2026-12-05", "position": "opening", "employee_id": "E2"},
    ),
)


def test_an_example_that_names_another_kind_than_the_held_record_is_not_the_opening() -> None:
    records = DataRecords([SHIFTS])
    assert other_kind("I need someone to cover my Sunday close", {"SH-0001"}, records)
    assert not other_kind("I need someone to cover my Sunday close", {"SH-0002"}, records)
    assert not other_kind("I can't make my shift tomorrow", {"SH-0001"}, records)


def test_the_give_away_opening_fits_the_baristas_own_shift(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the goldens' generation day, on which every shift of the data is still to come
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    generate_offline(CORPUS / "brewline_shifts", ["shift_swap"], tmp_path)
    path = next((tmp_path / "cases").rglob("shift_swap_refused_post_shift_giveaway_*.yml"))
    context = yaml.safe_load(path.read_text())["scenario"]["simulation_context"]
    assert "SH-0417-1206-B" in context  # her Sunday shift: a midday bar shift
    assert "close" not in context.split("Open with:", 1)[1].splitlines()[0]


_TICKET_SKILL = """\
---
name: Ticket status
description: >
  Look up a support ticket by its number: "where is my ticket TK-2041?".
tool_constraints:
  - find_ticket:
      requires: session.ticket_status.ticket_number
---

Help the customer with a ticket. Do not invent ticket numbers.

if: not session.ticket_status.ticket_number
Ask for the ticket number and set `ticket_number`.

if: session.ticket_status.ticket_number
Call find_ticket with that ticket number and say what it found.
"""

_TICKET_TOOLS = '''\
import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool

DATA = Path(__file__).resolve().parents[2] / "data" / "tickets.json"


@tool(description="Look up a ticket by number.")
async def find_ticket(ticket_number: str, context: ToolContext = None):
    """Look up a ticket.

    Args:
        ticket_number: The ticket id, TK- and four digits.
    """
    tickets = {t["ticket"]: t for t in json.loads(DATA.read_text())}
    found = tickets.get(ticket_number.strip().upper())
    if not found:
        return {"ok": False, "error": "ticket_not_found"}
    return {"ok": True, "state": found["state"]}
'''


def test_a_failing_id_outside_the_data_is_one_the_user_noted_and_is_not_sure_of(
    tmp_path: Path,
) -> None:
    root = write_project(
        tmp_path / "desk",
        {
            "agent.yml": "name: Desk\npersona: You help customers.\n",
            "integrations.yml": INTEGRATIONS,
            "memory.yml": "caller_name:\n  type: text\n  description: Name of the caller.\n",
            "responses.yml": (
                "responses:\n  utter_anything_else:\n    - text: Anything else?\n"
                "  utter_goodbye:\n    - text: Goodbye!\n"
            ),
            "data/tickets.json": '[{"ticket": "TK-2041", "state": "open"},'
            ' {"ticket": "TK-2042", "state": "closed"}]',
            "skills/ticket_status/skill.md": _TICKET_SKILL,
            "skills/ticket_status/tools.py": _TICKET_TOOLS,
            "skills/ticket_status/memory.yml": (
                "schema:\n  public:\n    ticket_number:\n      type: text\n"
                "      description: Ticket id, TK- and four digits (TK-2041).\n"
                "      llm_settable: true\n"
            ),
        },
    )
    project = load_project(root)
    behaviors = plan_source(project, "mantle", "ticket_status", None).behaviors
    failure = next(b for b in behaviors if b.facts.get("kind") == "failure")
    data = draft_mantle(DraftContext(project, "mantle", failure))
    context = data["scenario"]["simulation_context"]
    facts = [line for line in context.splitlines() if line.startswith("- ticket number: ")]
    assert facts, context
    number = facts[0].removeprefix("- ticket number: ")
    assert number not in ("TK-2041", "TK-2042")  # an id the data do not hold
    noted = [line for line in context.splitlines() if "not sure it is right" in line]
    assert len(noted) == 1 and number in noted[0], context


def test_no_written_case_gives_an_order_number_no_data_file_holds(tmp_path: Path) -> None:
    """No data file holds an order number: the happy path that would give one is not
    written (its number would be invented); the case of the caller who has none is."""
    generate_offline(CORPUS / "meadow_pharmacy", ["order_status"], tmp_path)
    written = {p.name: p.read_text() for p in (tmp_path / "cases").rglob("*.yml")}
    # the caller who has none is how callers reach the goal here: it is the happy path
    assert "order_status_no_order_number_happy_path.yml" in written, sorted(written)
    assert "order_status_happy_happy_path.yml" not in written, sorted(written)
    for name, text in written.items():
        assert "- order number: " not in text, name


def test_a_detour_to_baggage_is_played_by_a_passenger_with_a_checked_bag() -> None:
    project = load_project(CORPUS / "skyway_air")
    plan = plan_source(project, "mantle", "rebook_flight", None)
    detour = next(b for b in plan.behaviors if b.facts.get("kind") == "digression")
    assert detour.facts["digression"]["skill"] == "baggage"
    script = build_script(project, detour, slot=plan.behaviors.index(detour))
    booking = script.customer.within
    assert booking is not None and booking["bags"], booking  # a bag the detour can be about
    said = {f.label: f.value for f in script.sheet.facts}
    status = detour.facts["values"]["rebook_flight.disruption_type"]
    assert said["your flight"].split(", ")[1].startswith(status)  # the branch fits the flight
    assert not script.sheet.misfits


@pytest.mark.parametrize("epoch", ["1767225600", "1796601600"])
def test_an_opening_names_no_person_but_the_ones_the_case_is_about(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, epoch: str
) -> None:
    """A description example ("can I swap with <name>", "did <name> accept my swap") opens
    a case only where the person it names is one the case's facts name, never the caller
    and never someone else of the data: no one asks about their own reply."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    root = CORPUS / "brewline_shifts"
    generate_offline(root, ["shift_swap"], tmp_path)
    people = load_records(root).collections
    firsts = {str(r["first_name"]) for c in people for r in c.records if "first_name" in r}
    assert firsts
    for path in sorted((tmp_path / "cases").rglob("*.yml")):
        context = yaml.safe_load(path.read_text())["scenario"]["simulation_context"]
        you = context.split("You are ", 1)[1].split()[0]
        opening = context.split('Open with: "', 1)[1].split('"', 1)[0]
        facts = context.split("What you know", 1)[-1]
        for first in firsts:
            if re.search(rf"\b{re.escape(first)}\b", opening):
                assert first != you and re.search(rf"\b{re.escape(first)}\b", facts), path.name
