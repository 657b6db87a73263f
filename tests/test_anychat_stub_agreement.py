"""An offline Anychat case's stubs and clock agree with the case: a replayed example's replies
are true of what its tools return, the clock falls on a day the business says it is open, a
record carries an Outreach's dates only in the state the Outreach is about, and a resumed
case meets the lookup its Playbook may call first."""

from __future__ import annotations

import json
from datetime import datetime, time
from pathlib import Path
from typing import Any

import pytest
from anychat_fixtures import boat_rental, offline_cases

from agentflows.planning.anychat_clock import BASE_AT, project_clock, stated_hours
from evalcore.definitions import Project, load_project

FILES = {
    "anychat.yml": """\
agent: {name: Clayworks Studio}
default_playbook: desk
channels: [sms]
outcomes: [status_given, kept, wheel_booked, opted_out]
consent_required: true
""",
    "tools.yml": """\
tools:
  find_potter:
    description: Find the potter and their pieces by phone number.
    parameters: {phone: {type: string}}
  get_firing_status:
    description: The firing status of a piece (queued, in the kiln, ready to collect).
    parameters: {piece_id: {type: string}}
  keep_piece:
    description: Keep a finished piece on the shelf for two more weeks.
    parameters: {piece_id: {type: string}}
  wheel_slots:
    description: Open wheel slots, earliest first.
    parameters: {day: {type: string}}
  book_wheel:
    description: Book an open wheel slot.
    parameters: {slot_id: {type: string}}
""",
    "playbooks/desk.yml": """\
name: Desk
activation: Questions about the studio and anything else.
body: |
  You are the desk of Clayworks Studio. Open Wednesday to Sunday 10:00-17:00.
  Hand off to firing, shelf or wheel when the potter asks about a piece or a wheel.
outcomes: [opted_out]
""",
    "playbooks/firing.yml": """\
name: Firing
activation: The potter asks whether their piece is out of the kiln.
body: |
  Find the potter with find_potter and their piece. Call get_firing_status and tell them
  the status. Record status_given.
tools: [find_potter, get_firing_status]
outcomes: [status_given]
examples:
  - title: Piece is ready
    turns:
      - user: Is my bowl done?
      - tool: find_potter
      - tool: get_firing_status
      - agent: Yes, your "Blue Bowl" is ready to collect until 17:00 today.
    end: {activePlaybook: firing, outcomes: [status_given], tools: [find_potter, get_firing_status]}
""",
    "playbooks/shelf.yml": """\
name: Shelf
activation: The potter wants the studio to keep a finished piece longer.
body: |
  Look them up with find_potter. Call keep_piece and tell them the new collection date.
  Record kept.
tools: [find_potter, keep_piece]
outcomes: [kept]
examples:
  - title: Keeps a vase
    turns:
      - user: Can you keep my vase a bit longer?
      - tool: find_potter
      - agent: I see “Tall Vase” to collect by Saturday. Keep it longer?
      - user: Yes please
      - tool: keep_piece
      - agent: Done, you can now collect it until April 4.
    end: {activePlaybook: shelf, outcomes: [kept], tools: [find_potter, keep_piece]}
""",
    "playbooks/wheel.yml": """\
name: Wheel
activation: The potter wants to book a pottery wheel.
body: |
  Call wheel_slots and offer the times as a time picker. When they pick one, call
  book_wheel and confirm the day and time. Record wheel_booked.
tools: [wheel_slots, book_wheel]
outcomes: [wheel_booked]
pickers: [ask.time]
examples:
  - title: Books Thursday afternoon
    turns:
      - user: Can I get a wheel on Thursday afternoon?
      - tool: wheel_slots
      - agent: Here are the open wheels.
        parts: [text, ask.time]
      - slot: 1
      - tool: book_wheel
      - agent: Booked, Thursday at 2:30 pm.
    end: {activePlaybook: wheel, outcomes: [wheel_booked], tools: [wheel_slots, book_wheel]}
""",
    "outreaches/fired.yml": """\
name: Ready to collect
opener: >-
  Hi {firstName}, your {pieceTitle} is ready to collect by {collectionDate}. Reply S for
  details.
inputs: [firstName, pieceTitle, collectionDate]
playbook: firing
goal: The potter knows the piece is ready and when to collect it.
""",
    "outreaches/shelf_soon.yml": """\
name: Collect soon
opener: >-
  Hi {firstName}, please collect {pieceTitle} by {collectionDate}. Reply KEEP to keep it
  longer.
inputs: [firstName, pieceTitle, collectionDate]
playbook: shelf
goal: The potter collects the piece or has it kept.
""",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    root = tmp_path_factory.mktemp("clayworks")
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return load_project(root)


def cases(project: Project, playbook: str) -> dict[str, dict[str, Any]]:
    return offline_cases(project, playbook)


def test_the_clock_falls_on_the_first_day_and_hour_the_business_opens(project: Project) -> None:
    # The base clock is a Monday at 09:00; the studio opens Wednesday to Sunday at 10:00.
    assert BASE_AT.strftime("%A %H:%M") == "Monday 09:00"
    clock = cases(project, "desk")["inbound"]["scenario"]["clock"]
    assert (clock["now"], clock["weekday"], clock["time"]) == (
        "2026-03-11T10:00:00-04:00",
        "wednesday",
        "10:00",
    )


def test_slots_fall_on_open_days(project: Project) -> None:
    slots = cases(project, "wheel")["inbound"]["scenario"]["stubs"]["wheel_slots"]["slots"]
    days = [datetime.fromisoformat(s["start"]).strftime("%A") for s in slots]
    assert days == ["Friday", "Saturday", "Sunday"]


@pytest.mark.parametrize(
    ("body", "opens", "shut"),
    [
        ("Open Tuesday to Saturday 9:00-18:00.", {1: "09:00", 5: "09:00"}, {0, 6}),
        (
            "Hours: Monday to Friday 8:00-18:00, Saturday 9:00-13:00, closed Sunday.",
            {0: "08:00", 4: "08:00", 5: "09:00"},
            {6},
        ),
        ("Main is open every day 9:00-20:00; the annex Mon-Sat 10am-6pm.", {6: "09:00"}, set()),
        ("Open weekdays 9:30-17:00. Closed at weekends.", {0: "09:30", 4: "09:30"}, {5, 6}),
        ("Open 11:00-23:00 every day except Tuesday.", {0: "11:00", 6: "11:00"}, {1}),
        ("Open daily, closed Mondays. Hours: Wed–Sun 12–8pm", {2: "12:00"}, {0}),
    ],
)
def test_stated_hours_read_runs_of_days_and_their_opening_hour(
    tmp_path: Path, body: str, opens: dict[int, str], shut: set[int]
) -> None:
    (tmp_path / "anychat.yml").write_text("agent: {name: Shop}\ndefault_playbook: desk\n")
    (tmp_path / "playbooks").mkdir()
    (tmp_path / "playbooks" / "desk.yml").write_text(f"name: Desk\nbody: {json.dumps(body)}\n")
    hours = stated_hours(load_project(tmp_path).anychat)
    assert hours is not None
    assert {d: hours.opens.get(d) for d in opens} == {
        d: time.fromisoformat(at) for d, at in opens.items()
    }
    assert not shut & set(hours.opens)


def test_a_business_that_states_no_hours_keeps_the_base_clock(tmp_path: Path) -> None:
    (tmp_path / "anychat.yml").write_text("agent: {name: Shop}\ndefault_playbook: desk\n")
    (tmp_path / "playbooks").mkdir()
    (tmp_path / "playbooks" / "desk.yml").write_text(
        "name: Desk\nbody: Reschedule to Friday if they ask.\n"
    )
    defs = load_project(tmp_path).anychat
    assert stated_hours(defs) is None
    assert project_clock(defs)["now"] == BASE_AT.isoformat()


def test_an_example_replay_returns_the_record_its_reply_names(project: Project) -> None:
    stubs = cases(project, "shelf")["example_0"]["scenario"]["stubs"]
    piece = stubs["find_potter"]["pieces"][0]
    # "I see “Tall Vase” to collect by Saturday": the Saturday after Wednesday, March 11
    assert piece["pieceTitle"] == "Tall Vase"
    assert piece["collectionDate"] == "Saturday, March 14"
    # "you can now collect it until April 4"
    assert stubs["keep_piece"] == {"ok": True, "newCollectionDate": "Saturday, April 4"}


def test_an_example_replay_offers_the_slot_its_confirmation_names(project: Project) -> None:
    slots = cases(project, "wheel")["example_0"]["scenario"]["stubs"]["wheel_slots"]["slots"]
    # the person picks the second slot, and the reply books "Thursday at 2:30 pm"
    assert slots[1]["start"] == "2026-03-12T14:30:00-04:00"
    starts = [s["start"] for s in slots]
    assert starts == sorted(starts)


def test_a_today_in_the_example_reply_is_the_clocks_open_day(project: Project) -> None:
    scenario = cases(project, "firing")["example_0"]["scenario"]
    piece = scenario["stubs"]["find_potter"]["pieces"][0]
    assert scenario["clock"]["weekday"] == "wednesday"
    assert piece["collectionDate"] == "Wednesday, March 11"
    assert piece["pieceTitle"] == "Blue Bowl"
    assert scenario["stubs"]["get_firing_status"]["status"] == "ready to collect"


def test_a_record_carries_the_outreachs_dates_only_in_its_state(project: Project) -> None:
    drafted = cases(project, "firing")
    # inbound: the status is the first listed ("queued"), not the Outreach's "ready to collect"
    inbound = drafted["inbound"]["scenario"]["stubs"]
    assert inbound["get_firing_status"]["status"] == "queued"
    assert "collectionDate" not in inbound["find_potter"]["pieces"][0]
    assert inbound["find_potter"]["pieces"][0]["pieceTitle"]
    started = drafted["outreach_fired"]["scenario"]
    sent = started["start"]["outreach"]["inputs"]
    piece = started["stubs"]["find_potter"]["pieces"][0]
    assert started["stubs"]["get_firing_status"]["status"] == "ready to collect"
    assert piece["collectionDate"] == sent["collectionDate"]


def test_a_resumed_case_stubs_the_lookup_its_brief_leaves_to_the_agent(tmp_path: Path) -> None:
    resume = cases(boat_rental(tmp_path), "rent")["resume"]
    assert "find_guest" not in resume["expect"]["checks"]["toolsCalled"]
    # the history holds no lookup: a correct agent may call it now and must meet an answer
    assert resume["scenario"]["stubs"]["find_guest"] == {"found": True}
    expected = resume["brief"]["expected"]
    assert "may look the person up with find_guest" in expected
    assert "looks the person up" not in expected


def test_a_quoted_name_with_no_field_for_it_is_the_records_title(tmp_path: Path) -> None:
    (tmp_path / "anychat.yml").write_text(
        "agent: {name: Reel Room}\ndefault_playbook: help\nchannels: [sms]\noutcomes: [held]\n"
    )
    (tmp_path / "tools.yml").write_text(
        "tools:\n  find_renter:\n    description: Find the renter and their rentals by phone.\n"
        "    parameters: {phone: {type: string}}\n"
        "  hold_rental:\n    description: Hold a rental one more night.\n"
        "    parameters: {rental_id: {type: string}}\n"
    )
    (tmp_path / "playbooks").mkdir()
    (tmp_path / "playbooks" / "help.yml").write_text("name: Help\nbody: Answer questions.\n")
    (tmp_path / "playbooks" / "hold.yml").write_text(
        "name: Hold\nactivation: The renter wants to keep a film another night.\n"
        "body: Find the renter with find_renter. Call hold_rental. Record held.\n"
        "tools: [find_renter, hold_rental]\noutcomes: [held]\n"
        "examples:\n  - title: Keeps a film\n    turns:\n"
        "      - user: Can I keep my film one more night?\n"
        "      - tool: find_renter\n"
        "      - agent: You have 'Night Train'. Keep it one more night?\n"
        "      - user: Yes\n      - tool: hold_rental\n      - agent: Done.\n"
        "    end: {outcomes: [held], tools: [find_renter, hold_rental]}\n"
    )
    stubs = cases(load_project(tmp_path), "hold")["example_0"]["scenario"]["stubs"]
    assert stubs["find_renter"]["rentals"] == [{"id": "rental-1", "title": "Night Train"}]


def test_a_seeded_appointment_falls_on_a_day_the_business_is_open(tmp_path: Path) -> None:
    (tmp_path / "anychat.yml").write_text(
        "agent: {name: Fern Physio}\ndefault_playbook: help\nchannels: [sms]\n"
        "outcomes: [cancelled]\n"
    )
    (tmp_path / "tools.yml").write_text(
        "tools:\n  cancel_appointment:\n    description: Cancel an existing appointment.\n"
        "    parameters: {appointment_id: {type: string}}\n"
    )
    (tmp_path / "playbooks").mkdir()
    (tmp_path / "playbooks" / "help.yml").write_text(
        "name: Help\nbody: Open Monday, Wednesday and Friday 9:00-17:00. Answer questions.\n"
    )
    (tmp_path / "playbooks" / "cancel.yml").write_text(
        "name: Cancel\nactivation: The person wants to cancel their visit.\n"
        "body: Call cancel_appointment and record cancelled.\n"
        "tools: [cancel_appointment]\noutcomes: [cancelled]\n"
    )
    scenario = cases(load_project(tmp_path), "cancel")["inbound"]["scenario"]
    # Monday 09:00 plus three days is a Thursday, when the practice is shut: Friday instead
    assert scenario["clock"]["weekday"] == "monday"
    assert scenario["appointments"][0]["startsIn"] == "P4DT5H"
