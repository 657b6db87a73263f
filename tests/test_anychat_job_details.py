"""Offline Anychat cases for a job that needs the person's details and a yes before acting:
the person tells what the body asks for (an address it saves, the kind of job a tool takes)
before the time picker and gives the yes after the pick where the body confirms first; an
opener filled in with a field puts it on record; a typed STOP the opener offers is an opt-out;
a resume in the middle of the job asks for the job again; an inbound opt-out stubs the lookup
the first answer makes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from anychat_fixtures import offline_cases

from agentflows.drafting.offline._anychat_script import STILL_THERE, follow_up
from evalcore.definitions import Playbook, Project, load_project

PEOPLE = """\
fields:
  - key: address
    label: Home and garden address
    type: text
"""
TOOLS = """\
tools:
  find_client:
    description: Find the client by phone number.
    parameters: {phone: {type: string}}
  check_visit_slots:
    description: Open visit windows at an address.
    parameters: {address: {type: string}}
  book_visit:
    description: Book a gardener's visit in the chosen window.
    parameters:
      slot_id: {type: string}
      address: {type: string}
      job: {type: string, choices: [lawn_mowing, hedge_trimming, weeding]}
"""
HELP = """\
name: Help
body: |
  Answer questions about Greenleaf Gardens. When the client wants a visit, hand off to visit.
"""
VISIT = """\
name: Book a visit
activation: The client wants a gardener to visit (mowing, hedge trimming).
body: |
  Look the client up with find_client. Ask for their address if you do not have it, and
  save it to their Person record. Ask what they need done (mowing, hedge trimming or
  weeding). Offer windows from check_visit_slots as a time picker.
  {confirm}
tools: [find_client, check_visit_slots, book_visit]
outcomes: [visit_booked, opted_out]
pickers: [ask.time, confirm]
"""
ASKS_YES = "Read the window back and ask them to confirm, then book it with book_visit."
NO_YES = "When they pick one, book it with book_visit."
SPRING = """\
name: Spring visit
opener: >-
  Hi {firstName}, spring is here! Our gardeners can come to {address}. Reply VISIT to book a
  gardener, or STOP to opt out.
inputs: [firstName, address]
playbook: visit
goal: The client books a visit.
"""


def _project(root: Path, confirm: str = ASKS_YES) -> Project:
    (root / "anychat.yml").write_text(
        "agent:\n  name: Greenleaf Gardens\n  personality: Brief.\ndefault_playbook: help\n"
        "channels: [sms]\noutcomes: [visit_booked, opted_out]\nconsent_required: true\n"
    )
    (root / "people.yml").write_text(PEOPLE)
    (root / "tools.yml").write_text(TOOLS)
    (root / "playbooks").mkdir()
    (root / "outreaches").mkdir()
    (root / "playbooks" / "help.yml").write_text(HELP)
    (root / "playbooks" / "visit.yml").write_text(VISIT.replace("{confirm}", confirm))
    (root / "outreaches" / "spring.yml").write_text(SPRING)
    return load_project(root)


def _cases(project: Project) -> dict[str, dict[str, Any]]:
    return offline_cases(project, "visit")


ADDRESS = "My home and garden address is 12 Oak Street."
KIND = "It's for mowing."
PICK = {"slot": 0, "fallback": "The first time you offered works for me."}
YES = {"confirm": True, "fallback": "Yes"}


def test_the_person_tells_the_asked_address_then_picks_then_says_yes(tmp_path: Path) -> None:
    """The body names the field by its key ("their address"), not its longer label: the
    person still gives it before the picker, and the yes the body waits for after the pick."""
    cases = _cases(_project(tmp_path))
    inbound = cases["inbound"]
    assert inbound["turns"][1:] == [f"{ADDRESS} {KIND}", PICK, YES]
    checks = inbound["expect"]["checks"]
    assert checks["personFields"] == {"address": "12 Oak Street"}
    assert checks["outcomes"] == ["visit_booked"]
    assert checks["replyCount"] == {"max": 4}
    assert "asks them to confirm the one they pick" in inbound["brief"]["expected"]
    knows = cases["simulated"]["turns"][-1]["simulate"]["knows"]
    assert knows[:2] == [ADDRESS, KIND] and "Yes, please book it." in knows


def test_an_outreach_filled_in_with_a_field_holds_it_on_record(tmp_path: Path) -> None:
    """The opener names the person's address: the business has it, so the person's record
    holds the same value and the person is not scripted to give it again. The kind of job
    the body asks goes with the keyword: an agent that takes it from the offer and skips the
    question would otherwise get the answer unasked, in a turn of its own."""
    outreach = _cases(_project(tmp_path))["outreach_spring"]
    assert outreach["turns"] == [f"VISIT. {KIND}", PICK, YES]
    fields = outreach["scenario"]["persona"]["preset"]["fields"]
    sent = outreach["scenario"]["start"]["outreach"]["inputs"]
    assert fields["customFields"]["address"] == sent["address"] == "12 Oak Street"


def test_a_resume_answers_the_address_question_and_confirms(tmp_path: Path) -> None:
    resume = _cases(_project(tmp_path))["resume"]
    assert resume["scenario"]["history"][-1]["content"].endswith(
        "What is your home and garden address?"
    )
    assert resume["turns"][0].endswith(f"{ADDRESS} {KIND}")
    assert resume["turns"][1:] == [PICK, YES]


def test_no_yes_where_the_body_books_on_the_pick(tmp_path: Path) -> None:
    inbound = _cases(_project(tmp_path, NO_YES))["inbound"]
    assert inbound["turns"][1:] == [f"{ADDRESS} {KIND}", PICK]


def test_a_typed_stop_the_opener_offers_is_an_opt_out(tmp_path: Path) -> None:
    case = _cases(_project(tmp_path))["outreach_spring_reply_opt"]
    assert case["turns"] == ["STOP", STILL_THERE]
    checks = case["expect"]["checks"]
    assert checks["outcomes"] == ["opted_out"]
    assert "book_visit" in checks["toolsNotCalled"]
    assert checks["replyCount"] == {"max": 2}  # the opener and one short confirmation
    assert "opt-out" in case["tags"]
    assert "finalReplyNonEmpty" not in checks


def test_an_inbound_opt_out_stubs_the_first_lookup(tmp_path: Path) -> None:
    case = _cases(_project(tmp_path))["opt_out"]
    assert case["turns"][1] == {"system": "optOut"}
    assert "find_client" in case["scenario"]["stubs"]


def test_a_resume_mid_job_asks_for_the_job_again_not_for_news() -> None:
    visit = Playbook(id="visit", activation="The client wants a gardener to visit.")
    line = follow_up(visit, "book_visit")
    assert line.startswith(STILL_THERE) and "visit" in line and "news" not in line.lower()
    status = Playbook(id="status", activation="The client asks whether their hedge is trimmed.")
    assert follow_up(status, None) == "Any news on my hedge?"
