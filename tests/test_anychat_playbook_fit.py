"""Offline Anychat cases fit what the playbook can do: the person speaks for themselves, a
playbook with two actions is expected to do one job with its own outcome, a business without
a calendar gets no appointment checks, the person answers what the playbook asks before it
acts, Outreach inputs carry real values and a guardrail case leaves the playbook's own job
open where a correct agent may still do it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from anychat_fixtures import boat_rental, offline_cases

from agentflows.drafting.offline._anychat_script import request_line
from agentflows.planning.anychat_elements import playbook_facts, reply_options, tool_roles
from evalcore.definitions import Outreach, Playbook, Project, load_project

ANYCHAT = """\
agent:
  name: Northgate Tool Library
  guardrails:
    - Never tell anyone what another member has borrowed.
default_playbook: desk
channels: [sms]
outcomes: [extended, reserved, told_status, opted_out]
consent_required: true
"""
PEOPLE = """\
fields:
  - key: memberNumber
    label: Member number
    type: text
  - key: pickupSpot
    label: Pickup spot
    type: choice
    choices: [Main Hall, Harbor Shed]
  - key: nickname
    label: Nickname
    type: text
"""
TOOLS = """\
tools:
  find_member:
    description: Find the member and their loans by member number.
    parameters: {member_number: {type: string}}
  extend_loan:
    description: Extend one loan by a week.
    parameters: {loan_id: {type: string}}
  reserve_tool:
    description: Reserve a tool for pickup.
    parameters: {tool: {type: string}, spot: {type: string}}
  get_loan_status:
    description: Whether a returned tool has been checked in.
    parameters: {loan_id: {type: string}}
"""
DESK = """\
name: Desk
activation: Questions about the tool library (hours, rules) and anything else.
body: Answer in one or two sentences. Hand off to loans for extensions or reservations.
outcomes: [opted_out]
"""
LOANS = """\
name: Loans
activation: The member wants to extend a tool they have borrowed or to reserve a tool.
body: |
  Ask for their member number first if you do not have it, then look them up with
  find_member. If this is their first visit, ask for their nickname.
  To extend, call extend_loan. To reserve, call reserve_tool and confirm the pickup spot.
  Record extended or reserved.
tools: [find_member, extend_loan, reserve_tool]
outcomes: [extended, reserved]
examples:
  - title: Due back soon, wants another week
    turns:
      - user: Can I keep the drill another week? My member number is 5521.
      - tool: extend_loan
    end: {outcomes: [extended]}
  - title: Answers the reminder
    turns:
      - user: EXTEND
      - agent: What is your member number?
      - user: "5521"
      - tool: extend_loan
    end: {outcomes: [extended]}
"""
STATUS = """\
name: Return status
activation: The member asks whether their returned tool has been checked in.
body: Look them up with find_member, call get_loan_status and tell them. Record told_status.
tools: [find_member, get_loan_status]
outcomes: [told_status]
"""
OUTREACH = """\
name: Due back
opener: >-
  Hi {firstName}, the {toolName} is due back at {spotName} on {dueDate}. Reply EXTEND to
  extend it or OK if you will bring it back.
inputs: [firstName, toolName, spotName, dueDate]
playbook: loans
goal: The member extends the loan or knows when to bring it back.
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    root = tmp_path_factory.mktemp("tool_library")
    (root / "anychat.yml").write_text(ANYCHAT)
    (root / "people.yml").write_text(PEOPLE)
    (root / "tools.yml").write_text(TOOLS)
    (root / "playbooks").mkdir()
    (root / "outreaches").mkdir()
    for name, text in (("desk", DESK), ("loans", LOANS), ("status", STATUS)):
        (root / "playbooks" / f"{name}.yml").write_text(text)
    (root / "outreaches" / "due_back.yml").write_text(OUTREACH)
    return load_project(Path(root))


def cases(project: Project, playbook: str) -> dict[str, dict[str, Any]]:
    return offline_cases(project, playbook)


def users(data: dict[str, Any]) -> list[str]:
    return [t for t in data["turns"] if isinstance(t, str)]


def test_the_person_speaks_in_the_first_person(project: Project) -> None:
    defs = project.anychat
    loans = request_line(defs.playbooks["loans"])
    status = request_line(defs.playbooks["status"])
    assert loans == "Hi, I'd like to extend a tool I have borrowed, please."
    # the hint's "whether ..." is asked outright, as a person texts it
    assert status == "Hi, has my returned tool been checked in?"
    for playbook in ("loans", "status"):
        for data in cases(project, playbook).values():
            for line in users(data):
                assert "the member" not in line.lower() and " their " not in line


def test_two_actions_expect_one_job_with_its_own_outcome(project: Project) -> None:
    drafted = cases(project, "loans")
    for case in ("inbound", "resume", "outreach_due_back", "simulated"):
        checks = drafted[case]["expect"]["checks"]
        assert checks["outcomes"] == ["extended"]
        assert "extend_loan" in checks["toolsCalled"]
        assert "reserve_tool" not in checks["toolsCalled"]
    assert "extend" in users(drafted["inbound"])[0]
    assert "reserve" not in users(drafted["inbound"])[0]


def test_no_appointment_checks_without_a_calendar(project: Project) -> None:
    for playbook in ("desk", "loans", "status"):
        for data in cases(project, playbook).values():
            checks = data["expect"]["checks"]
            assert "appointmentCreated" not in checks and "activeAppointments" not in checks
            assert not data["scenario"].get("appointments")


def test_the_person_answers_what_the_playbook_asks_before_acting(project: Project) -> None:
    drafted = cases(project, "loans")
    for case in ("inbound", "resume", "outreach_due_back"):
        said = " ".join(users(drafted[case]))
        assert "My member number is " in said
        # asked only on a first visit: depends on who writes in, so nobody volunteers it
        assert "nickname" not in said.lower()
    assert len(users(drafted["inbound"])) == 2


def test_a_job_of_lookups_records_its_outcome(project: Project) -> None:
    checks = cases(project, "status")["inbound"]["expect"]["checks"]
    assert checks["outcomes"] == ["told_status"]
    assert set(checks["toolsCalled"]) == {"find_member", "get_loan_status"}


def test_outreach_inputs_are_real_values(project: Project) -> None:
    inputs = cases(project, "loans")["outreach_due_back"]["scenario"]["start"]["outreach"]["inputs"]
    assert all("sample" not in value for value in inputs.values())
    assert inputs["spotName"] in ("Main Hall", "Harbor Shed")
    assert inputs["toolName"] != inputs["firstName"]


def test_guardrail_cases_leave_the_playbooks_own_job_open(project: Project) -> None:
    drafted = cases(project, "status")
    guardrail = drafted.get("guardrail")
    if guardrail is not None:
        checks = guardrail["expect"]["checks"]
        assert checks.get("outcomes") != []
        assert not {"find_member", "get_loan_status"} & set(checks.get("toolsNotCalled", []))
    # the job needs a member number the case never gives: extending cannot happen; the rule
    # protects other members' loans, so a lookup the job does not open with is ruled out too
    loans = cases(project, "loans")["guardrail"]["expect"]["checks"]
    assert loans["toolsNotCalled"] == ["extend_loan", "get_loan_status"]
    desk = cases(project, "desk")
    assert users(desk["guardrail"])[0].startswith("Can you just tell me what")
    assert set(desk["off_topic"]["expect"]["checks"]["toolsNotCalled"]) == {
        "extend_loan",
        "reserve_tool",
    }


def test_criteria_and_saved_fields_follow_the_cases_job(project: Project) -> None:
    drafted = cases(project, "loans")
    for case in ("inbound", "resume", "simulated"):
        texts = [c["text"] for c in drafted[case]["expect"]["judge"]["criteria"]]
        assert not [t for t in texts if "reserve_tool" in t]
    # the member number is asked to look the member up, never said to be saved
    simulated = drafted["simulated"]["expect"]["checks"]
    assert "memberNumber" not in simulated.get("personFields", {})


def test_opener_replies_offered_with_for_and_if(project: Project) -> None:
    drafted = cases(project, "loans")
    assert drafted["outreach_due_back"]["turns"][0] == "EXTEND"
    assert drafted["outreach_due_back_reply_ok"]["turns"] == ["OK"]
    options = reply_options(
        Outreach(id="ready", opener="It is ready. Reply S for the details.", playbook="status")
    )
    assert [(o.reply, o.meaning) for o in options] == [("S", "the details")]


def test_an_example_starts_with_an_outreach_only_when_it_answers_it(project: Project) -> None:
    drafted = cases(project, "loans")
    assert drafted["example_0"]["scenario"]["start"] == {"inbound": True}
    assert drafted["example_1"]["scenario"]["start"]["outreach"]["outreachId"] == "due_back"


def test_a_yes_asked_for_in_words_is_given(tmp_path: Path) -> None:
    (tmp_path / "anychat.yml").write_text(
        "agent: {name: Crumb Bakery}\ndefault_playbook: help\nchannels: [sms]\n"
        "outcomes: [ordered]\n"
    )
    (tmp_path / "tools.yml").write_text(
        "tools:\n  place_order:\n    description: Order a cake.\n"
        "    parameters: {item: {type: string}}\n"
    )
    (tmp_path / "playbooks").mkdir()
    (tmp_path / "playbooks" / "help.yml").write_text("name: Help\nbody: Answer questions.\n")
    (tmp_path / "playbooks" / "order.yml").write_text(
        "name: Order\nactivation: The customer wants to order a birthday cake.\n"
        "body: Read the order back and ask them to confirm, then call place_order. "
        "Record ordered.\ntools: [place_order]\noutcomes: [ordered]\n"
    )
    inbound = cases(load_project(tmp_path), "order")["inbound"]
    assert inbound["turns"] == [
        "Hi, I'd like to order my birthday cake, please.",
        "Yes, that's right, please go ahead.",
    ]
    assert inbound["expect"]["checks"]["replyCount"] == {"max": 2}


def test_a_tool_that_names_a_booking_is_on_the_calendar(tmp_path: Path) -> None:
    (tmp_path / "anychat.yml").write_text(
        "agent: {name: Kayak Hire}\ndefault_playbook: help\nchannels: [sms]\noutcomes: [moved]\n"
    )
    (tmp_path / "tools.yml").write_text(
        "tools:\n  move_trip:\n    description: Move a trip to another day.\n"
        "    parameters: {booking_id: {type: string}, day: {type: date}}\n"
    )
    (tmp_path / "playbooks").mkdir()
    (tmp_path / "playbooks" / "help.yml").write_text("name: Help\nbody: Answer questions.\n")
    (tmp_path / "playbooks" / "move.yml").write_text(
        "name: Move\nactivation: The customer wants to move their trip to another day.\n"
        "body: Call move_trip. Record moved.\ntools: [move_trip]\noutcomes: [moved]\n"
    )
    project = load_project(tmp_path)
    roles = tool_roles(project.anychat.playbooks["move"], project.anychat)
    assert (roles.action, roles.effect) == ("move_trip", "move")


def test_the_brief_names_each_lookup_once_for_what_it_does(project: Project) -> None:
    expected = cases(project, "status")["inbound"]["brief"]["expected"]
    assert "looks the person up with find_member" in expected
    assert "calls get_loan_status" in expected


def test_a_simulated_person_only_where_the_job_asks_them_something(project: Project) -> None:
    """A status desk that looks the person up and answers asks nothing after the first message:
    a simulated person would only repeat the inbound case (offline it has no line to play)."""
    assert "simulated" not in cases(project, "status")
    simulated = cases(project, "loans")["simulated"]
    assert simulated["turns"][-1]["simulate"]["knows"]


def test_a_yes_the_example_asks_for_before_acting_is_given(tmp_path: Path) -> None:
    """The playbook's own example confirms before the job's tool ("Renew that one?" / "Yes"):
    a scripted case gives that yes, or an agent that follows the example never acts."""
    (tmp_path / "anychat.yml").write_text(
        "agent: {name: Pine Street Laundry}\ndefault_playbook: help\nchannels: [sms]\n"
        "outcomes: [redelivered]\n"
    )
    (tmp_path / "tools.yml").write_text(
        "tools:\n  find_order:\n    description: Find the customer's open orders.\n"
        "    parameters: {}\n  redeliver_order:\n    description: Send an order out again.\n"
        "    parameters: {order_id: {type: string}}\n"
    )
    (tmp_path / "playbooks").mkdir()
    (tmp_path / "playbooks" / "help.yml").write_text("name: Help\nbody: Answer questions.\n")
    order = (
        "name: Redeliver\nactivation: The customer missed a delivery and wants it again.\n"
        "body: Look the order up with find_order, call redeliver_order and record redelivered.\n"
        "tools: [find_order, redeliver_order]\noutcomes: [redelivered]\n"
        "examples:\n  - title: Missed van\n    turns:\n"
        "      - user: I missed the van, can you bring my shirts again?\n"
        "      - tool: find_order\n"
        "      - agent: {agent}\n"
        "      - user: {user}\n"
        "      - tool: redeliver_order\n"
        "    end: {{outcomes: [redelivered]}}\n"
    )
    path = tmp_path / "playbooks" / "redeliver.yml"
    path.write_text(order.format(agent="I see 3 shirts from Monday. Send them again?", user="Yes"))
    confirmed = cases(load_project(tmp_path), "redeliver")["inbound"]["turns"]
    assert confirmed[-1] == "Yes, that's right, please go ahead."
    path.write_text(order.format(agent="I see 3 shirts from Monday.", user="Great, thanks"))
    assert len(cases(load_project(tmp_path), "redeliver")["inbound"]["turns"]) == 1


def test_a_reply_that_changes_nothing_quotes_no_rule_on_doing_the_job(project: Project) -> None:
    """'Ask for their member number first if you do not have it, then ...' says how to do the
    job; when the person answers OK and nothing is done it is no rule a judge can apply."""
    reply = cases(project, "loans")["outreach_due_back_reply_ok"]
    texts = [c["text"] for c in reply["expect"]["judge"]["criteria"]]
    assert not any("member number" in text for text in texts)
    assert any("changes nothing" in text for text in texts)


def test_a_hint_naming_kinds_then_examples_asks_for_one_example() -> None:
    """'in for a repair or an upgrade (battery swap, ...)': a person asks for the one thing,
    not 'for a repair or an upgrade: battery swap'."""
    hint = "The customer wants to bring their laptop in for a repair or an upgrade (battery swap)."
    playbook = Playbook(id="fix", name="Fix", activation=hint, body="Book it.")
    line = request_line(playbook)
    assert line == "Hi, I'd like to bring my laptop in for a battery swap, please."


def test_no_simulated_person_when_what_is_asked_is_on_record(tmp_path: Path) -> None:
    """A body that asks for the phone number of a person on record asks nothing they must
    still say: the simulated person would know nothing (offline, no line to play)."""
    (tmp_path / "anychat.yml").write_text(
        "agent: {name: Pine Street Laundry}\ndefault_playbook: help\nchannels: [sms]\n"
        "outcomes: [told_status]\n"
    )
    (tmp_path / "tools.yml").write_text(
        "tools:\n  find_order:\n    description: Find the customer's open orders by phone.\n"
        "    parameters: {phone: {type: string}}\n"
    )
    (tmp_path / "playbooks").mkdir()
    (tmp_path / "playbooks" / "help.yml").write_text("name: Help\nbody: Answer questions.\n")
    (tmp_path / "playbooks" / "status.yml").write_text(
        "name: Order status\nactivation: The customer asks whether their shirts are ready.\n"
        "body: Ask for their phone number, look the order up with find_order and tell them. "
        "Record told_status.\ntools: [find_order]\noutcomes: [told_status]\n"
    )
    project = load_project(tmp_path)
    assert "phone" in playbook_facts(project.anychat.playbooks["status"], project.anychat).asked
    drafted = cases(project, "status")
    assert "inbound" in drafted and "simulated" not in drafted


def test_a_lookup_both_playbooks_open_with_has_no_exact_count_across_a_handoff(
    project: Project,
) -> None:
    # The evaluator counts calls exactly; after the hand-off a correct agent may look the
    # member up again in the next playbook, so the shared lookup gets no count.
    called = cases(project, "loans")["handoff_to_status"]["expect"]["checks"]["toolsCalled"]
    assert called == {"get_loan_status": 1}


def test_a_resume_after_the_question_leaves_the_earlier_lookup_uncounted(tmp_path: Path) -> None:
    drafted = cases(boat_rental(tmp_path), "rent")
    # The resumed history ends on the size question, past the lookup: a correct agent may
    # not look the guest up again.
    assert drafted["resume"]["expect"]["checks"]["toolsCalled"] == {"rent_boat": 1}
    assert drafted["inbound"]["expect"]["checks"]["toolsCalled"] == {
        "find_guest": 1,
        "rent_boat": 1,
    }


def test_a_looked_up_record_carries_what_the_outreach_says_about_it(project: Project) -> None:
    # The loan the lookup returns has the tool and due day the outreach names, so the agent
    # can tell the member which loan it renews without inventing it.
    drafted = cases(project, "loans")
    started = drafted["outreach_due_back"]["scenario"]
    sent = started["start"]["outreach"]["inputs"]
    loan = started["stubs"]["find_member"]["loans"][0]
    assert loan["toolName"] == sent["toolName"] and loan["dueDate"] == sent["dueDate"]
    assert "firstName" not in loan
    inbound = drafted["inbound"]["scenario"]["stubs"]["find_member"]["loans"][0]
    assert inbound["id"] and inbound["toolName"] and inbound["dueDate"]


def test_briefs_and_criteria_ask_only_what_the_playbook_asks(project: Project) -> None:
    """Neither playbook asks to offer a next step or to thank the person: a correct, minimal
    answer must not fail the brief or a criterion for leaving them out."""
    answer = cases(project, "desk")["inbound"]
    assert "next step" not in answer["brief"]["expected"]
    reply = cases(project, "loans")["outreach_due_back_reply_ok"]
    texts = [c["text"] for c in reply["expect"]["judge"]["criteria"]]
    assert texts and not any("thank" in t.lower() for t in texts)


def test_hand_off_and_guardrail_cases_stub_the_lookups_they_reach(project: Project) -> None:
    """A conversation that reaches a Playbook's lookup meets the answer the direct cases give,
    though its checks do not require the call; actions it must not take get no stub."""
    handoff = cases(project, "desk")["handoff_to_loans"]["scenario"]["stubs"]
    assert handoff == {"find_member": {"found": True, "loans": [{"id": "loan-1"}]}}
    guardrail = cases(project, "status")["guardrail"]["scenario"]["stubs"]
    assert set(guardrail) == {"find_member"}


def test_an_action_stub_carries_the_new_date_the_playbook_tells(tmp_path: Path) -> None:
    """'Tell them the new due date' after the action: its stub returns a date after the
    clock's day, so a correct agent has the date to tell."""
    (tmp_path / "anychat.yml").write_text(
        "agent: {name: Page Lane}\ndefault_playbook: help\nchannels: [sms]\noutcomes: [renewed]\n"
    )
    (tmp_path / "tools.yml").write_text(
        "tools:\n  renew_loan:\n    description: Renew the loan.\n"
        "    parameters: {card: {type: string}}\n"
    )
    (tmp_path / "playbooks").mkdir()
    (tmp_path / "playbooks" / "help.yml").write_text("name: Help\nbody: Answer questions.\n")
    (tmp_path / "playbooks" / "renew.yml").write_text(
        "name: Renew\nactivation: The member wants to keep a book longer.\n"
        "body: Call renew_loan and tell them the new due date. Record renewed.\n"
        "tools: [renew_loan]\noutcomes: [renewed]\n"
    )
    stub = cases(load_project(tmp_path), "renew")["inbound"]["scenario"]["stubs"]["renew_loan"]
    assert stub == {"ok": True, "newDueDate": "Monday, March 30"}
