"""A status desk that can then act only in one state of the record ("Never ship a watch that
is not ready"): the cases that expect the action find the record in that state and expect
the action's own outcome too; the cases that do not find it in another state, tell the
status they were asked for and rule the action out. The lookup's stub has the records and
the stored address a later tool takes, in the shape the Playbook's example shows, and the
ids an Outreach sends follow the format a tool's parameter shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from anychat_fixtures import offline_cases

from agentflows.planning.anychat_elements import playbook_facts
from evalcore.definitions import Project, load_project

FILES = {
    "anychat.yml": """\
agent:
  name: Tick Tock Watch Repair
  personality: Calm and precise.
  guardrails:
    - Never quote a price for a vintage movement before the watchmaker has opened it.
default_playbook: desk
channels: [sms]
outcomes: [status_given, watch_shipped, opted_out]
consent_required: true
""",
    "tools.yml": """\
tools:
  find_client:
    description: >-
      Find the client by phone number. Returns found, their first name, the address on file
      and their open jobs, each with its job number and the watch.
    parameters: {phone: {type: string}}
  get_job_state:
    description: >-
      The state of a repair job (booked in, on the bench, ready, shipped), with the day it
      is or will be ready.
    parameters:
      job_number: {type: string, description: "The job number on the slip, e.g. W-5120."}
  ship_watch:
    description: Send a finished watch to the client's address by courier.
    parameters:
      job_number: {type: string}
      address: {type: string}
""",
    "playbooks/desk.yml": """\
name: Desk
activation: Questions about the workshop and anything else.
body: |
  You answer questions about Tick Tock Watch Repair. Open Tuesday to Saturday 10:00-18:00.
  When the client asks about a watch they left with us, hand off to jobs.
outcomes: [opted_out]
examples:
  - title: Asks about a watch and is handed off
    turns:
      - user: Is my watch back from the bench?
      - handoff: jobs
      - agent: Let me check that for you.
    end: {activePlaybook: jobs}
""",
    "playbooks/jobs.yml": """\
name: Repair jobs
activation: The client asks whether the watch they left for repair is done.
body: |
  Look the client up with find_client. If they have one open job, check it with
  get_job_state and tell them the state. When the watch is ready, offer to ship it. If they
  want that, use the address on file, call ship_watch and tell them it is on its way.
  Never ship a watch that is not ready.
tools: [find_client, get_job_state, ship_watch]
outcomes: [status_given, watch_shipped, opted_out]
examples:
  - title: Ready and shipped
    turns:
      - user: Is my watch done? Could you post it back?
      - tool: find_client
        args: {phone: "+15550190"}
        result:
          found: true
          firstName: Mira
          address: "4 Quay Road"
          jobs: [{job_number: W-5120, watch: "steel diver"}]
      - tool: get_job_state
        args: {job_number: W-5120}
        result: {state: ready}
      - agent: It's ready! Ship it to 4 Quay Road?
      - user: Yes please
      - tool: ship_watch
        args: {job_number: W-5120, address: "4 Quay Road"}
        result: {ok: true}
      - agent: Done, it's on its way.
    end:
      activePlaybook: jobs
      outcomes: [status_given, watch_shipped]
      tools: [find_client, get_job_state, ship_watch]
  - title: Still on the bench
    turns:
      - user: Is my watch done yet?
      - tool: find_client
        args: {phone: "+15550191"}
        result: {found: true, firstName: Theo, jobs: [{job_number: W-6001, watch: "gold dress"}]}
      - tool: get_job_state
        args: {job_number: W-6001}
        result: {state: on the bench}
      - agent: Your gold dress watch is on the bench. It'll be ready Friday.
    end:
      activePlaybook: jobs
      outcomes: [status_given]
      tools: [find_client, get_job_state]
""",
    "outreaches/job_ready.yml": """\
name: Watch ready
opener: >-
  Hi {firstName}, your watch (job {jobNumber}) is ready. Reply S to have it shipped.
inputs: [firstName, jobNumber]
playbook: jobs
goal: The client knows the watch is ready and, if they reply S, it is shipped.
""",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    root = tmp_path_factory.mktemp("watches")
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return load_project(root)


def cases(project: Project, playbook: str) -> dict[str, dict[str, Any]]:
    return offline_cases(project, playbook)


def test_the_body_gates_the_action_on_a_listed_state(project: Project) -> None:
    defs = project.anychat
    assert defs is not None
    facts = playbook_facts(defs.playbooks["jobs"], defs)
    assert (facts.roles.action, facts.gate, facts.action_outcome) == (
        "ship_watch",
        "ready",
        "watch_shipped",
    )
    assert playbook_facts(defs.playbooks["desk"], defs).gate is None


@pytest.mark.parametrize("kind", ["inbound", "resume", "simulated"])
def test_a_case_that_expects_the_action_finds_the_record_in_the_state_it_needs(
    project: Project, kind: str
) -> None:
    case = cases(project, "jobs")[kind]
    checks = case["expect"]["checks"]
    stubs = case["scenario"]["stubs"]
    assert checks["toolsCalled"]["ship_watch"] == 1
    assert checks["outcomes"] == ["status_given", "watch_shipped"]
    assert stubs["get_job_state"]["state"] == "ready"
    # it looks up a job the lookup lists by its number: "found" is the lookup's answer
    assert "found" not in stubs["get_job_state"]
    # the lookup lists the job the status tool takes, and the address the action needs
    client = stubs["find_client"]
    assert client["found"] is True
    assert client["address"] == "4 Quay Road"
    assert [j["job_number"] for j in client["jobs"]] == ["W-5120"]
    persona = case["scenario"]["persona"]["preset"]["fields"]
    assert client["firstName"] == persona["firstName"]


def test_a_case_that_does_not_ask_for_the_action_tells_the_status_and_rules_it_out(
    project: Project,
) -> None:
    drafted = cases(project, "jobs")
    guardrail = drafted["guardrail"]
    assert guardrail["scenario"]["stubs"]["get_job_state"]["state"] != "ready"
    assert guardrail["expect"]["checks"]["outcomes"] == ["status_given"]
    assert "ship_watch" in guardrail["expect"]["checks"]["toolsNotCalled"]
    handoff = next(v for k, v in cases(project, "desk").items() if k.startswith("handoff"))
    checks = handoff["expect"]["checks"]
    assert checks["outcomes"] == ["status_given"]
    assert checks["toolsCalled"] == {"find_client": 1, "get_job_state": 1}
    assert checks["toolsNotCalled"] == ["ship_watch"]
    assert handoff["scenario"]["stubs"]["get_job_state"]["state"] != "ready"


def test_an_outreachs_id_follows_the_format_the_parameter_shows(project: Project) -> None:
    case = next(v for k, v in cases(project, "jobs").items() if k.startswith("outreach"))
    sent = case["scenario"]["start"]["outreach"]["inputs"]
    assert sent["jobNumber"] == "W-5120"
    jobs = case["scenario"]["stubs"]["find_client"]["jobs"]
    assert jobs[0]["job_number"] == sent["jobNumber"]


def test_an_ungated_action_keeps_its_one_outcome(tmp_path: Path) -> None:
    (tmp_path / "anychat.yml").write_text(
        "agent: {name: Quay Boats}\ndefault_playbook: help\nchannels: [sms]\noutcomes: [rented]\n"
    )
    (tmp_path / "tools.yml").write_text(
        "tools:\n  get_boat_state:\n    description: A boat's state (out, docked).\n"
        "    parameters: {boat_id: {type: string}}\n"
        "  rent_boat:\n    description: Rent a boat for today.\n"
        "    parameters: {boat_id: {type: string}}\n"
    )
    (tmp_path / "playbooks").mkdir()
    (tmp_path / "playbooks" / "help.yml").write_text("name: Help\nbody: Answer questions.\n")
    (tmp_path / "playbooks" / "rent.yml").write_text(
        "name: Rent\nactivation: The guest wants to rent a boat.\n"
        "body: Check the boat with get_boat_state. Call rent_boat. Never rent a boat at night.\n"
        "tools: [get_boat_state, rent_boat]\noutcomes: [rented]\n"
    )
    project = load_project(tmp_path)
    assert project.anychat is not None
    facts = playbook_facts(project.anychat.playbooks["rent"], project.anychat)
    assert (facts.gate, facts.action_outcome) == (None, None)
    assert cases(project, "rent")["inbound"]["expect"]["checks"]["outcomes"] == ["rented"]


def test_a_replayed_example_calls_the_person_by_the_name_its_lookup_returns(
    project: Project,
) -> None:
    replay = cases(project, "jobs")["example_1"]
    persona = replay["scenario"]["persona"]["preset"]["fields"]
    assert persona["firstName"] == "Theo"
    assert persona["fullName"].startswith("Theo ")
    assert persona["phone"] == "+15550191"


def test_a_status_stub_carries_the_day_the_reply_states(project: Project) -> None:
    drafted = cases(project, "jobs")
    # the clock is Tuesday, March 10 (the workshop opens Tuesday to Saturday): "Friday" is
    # the Friday after it; a record still in work is ready two open days on, one that is
    # ready is ready today
    clock = drafted["inbound"]["scenario"]["clock"]
    assert clock["weekday"] == "tuesday"
    replay = drafted["example_1"]["scenario"]["stubs"]["get_job_state"]
    assert replay == {"state": "on the bench", "readyDate": "Friday, March 13"}
    assert drafted["guardrail"]["scenario"]["stubs"]["get_job_state"]["readyDate"] == (
        "Thursday, March 12"
    )
    assert drafted["inbound"]["scenario"]["stubs"]["get_job_state"]["readyDate"] == (
        "Tuesday, March 10"
    )
    # the author's own answer stays as written where its reply states no day
    assert drafted["example_0"]["scenario"]["stubs"]["get_job_state"] == {"state": "ready"}


def test_a_status_asked_for_before_an_opt_out_is_told_and_recorded(project: Project) -> None:
    case = cases(project, "jobs")["opt_out"]
    assert case["expect"]["checks"]["outcomes"] == ["status_given", "opted_out"]
    stubs = case["scenario"]["stubs"]
    assert stubs["find_client"]["jobs"][0]["job_number"] == "W-5120"
    assert stubs["get_job_state"]["state"] != "ready"
    assert "ship_watch" not in stubs


def test_a_replayed_hand_off_stubs_the_lookups_of_the_playbook_it_starts(
    project: Project,
) -> None:
    stubs = cases(project, "desk")["example_0"]["scenario"]["stubs"]
    assert stubs["find_client"]["jobs"][0]["job_number"] == "W-5120"
    assert "state" in stubs["get_job_state"]
    assert "ship_watch" not in stubs


def test_an_address_the_playbook_asks_for_is_on_file_only_where_an_outreach_sent_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "anychat.yml").write_text(
        "agent: {name: Green Bins}\ndefault_playbook: help\nchannels: [sms]\n"
        "outcomes: [collected, opted_out]\nconsent_required: true\n"
    )
    (tmp_path / "people.yml").write_text(
        "fields:\n  - key: address\n    label: Street address\n    type: text\n"
    )
    (tmp_path / "tools.yml").write_text(
        "tools:\n  find_household:\n    description: Find the household by phone.\n"
        "    parameters: {phone: {type: string}}\n"
        "  book_collection:\n    description: Book a bulky-waste collection.\n"
        "    parameters: {address: {type: string}}\n"
    )
    (tmp_path / "playbooks").mkdir()
    (tmp_path / "playbooks" / "help.yml").write_text("name: Help\nbody: Answer questions.\n")
    (tmp_path / "playbooks" / "collect.yml").write_text(
        "name: Collect\nactivation: The resident wants a sofa or other bulky waste collected.\n"
        "body: Look them up with find_household. Ask for their address if you do not have "
        "it. Call book_collection and tell them the day. Record collected.\n"
        "tools: [find_household, book_collection]\noutcomes: [collected, opted_out]\n"
        "examples:\n  - title: Sofa\n    turns:\n"
        "      - user: Can you take away an old sofa?\n"
        "      - tool: find_household\n"
        "        result: {found: true, firstName: Ines, address: 9 Elm Row}\n"
        "      - tool: book_collection\n      - agent: Booked for Thursday.\n"
        "    end: {outcomes: [collected], tools: [find_household, book_collection]}\n"
    )
    (tmp_path / "outreaches").mkdir()
    (tmp_path / "outreaches" / "spring.yml").write_text(
        "name: Spring clean\nopener: Hi {firstName}, we collect bulky waste from {address} "
        "for free this month. Reply YES to book.\ninputs: [firstName, address]\n"
        "playbook: collect\ngoal: The resident books a collection.\n"
    )
    drafted = cases(load_project(tmp_path), "collect")
    inbound = drafted["inbound"]["scenario"]["stubs"]["find_household"]
    assert inbound["found"] is True and "address" not in inbound
    started = next(v for k, v in drafted.items() if k.startswith("outreach"))["scenario"]
    sent = started["start"]["outreach"]["inputs"]["address"]
    assert started["stubs"]["find_household"]["address"] == sent


@pytest.mark.parametrize("kind", ["inbound", "resume"])
def test_a_yes_to_an_offered_choice_names_the_choice(project: Project, kind: str) -> None:
    # the agent offers shipping beside collecting it: a bare "go ahead" leaves it to guess
    assert cases(project, "jobs")[kind]["turns"][-1] == "Yes please, ship it."


def test_the_offer_a_body_makes_is_read_in_either_form(project: Project, tmp_path: Path) -> None:
    defs = project.anychat
    assert defs is not None
    assert playbook_facts(defs.playbooks["jobs"], defs).offered == "to ship it"
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text.replace("offer to ship it", "offer courier shipping"))
    noun = load_project(tmp_path)
    assert noun.anychat is not None
    assert playbook_facts(noun.anychat.playbooks["jobs"], noun.anychat).offered == (
        "courier shipping"
    )
    assert cases(noun, "jobs")["inbound"]["turns"][-1] == (
        "Yes please, I'd like the courier shipping."
    )


def test_a_simulated_person_wants_the_offered_choice_and_knows_facts_only(
    project: Project,
) -> None:
    simulate = cases(project, "jobs")["simulated"]["turns"][-1]["simulate"]
    assert "the agent to ship it" in simulate["goal"]
    assert "first option" not in simulate["goal"]
    assert "it will ship it" in simulate["until"]
    brief = cases(project, "jobs")["simulated"]["brief"]["scenario"]
    assert "towards status_given and watch_shipped" in brief
    assert not any("go ahead" in k or k.startswith("Yes") for k in simulate.get("knows", []))


def test_an_outreach_that_states_the_status_expects_only_the_actions_outcome(
    project: Project,
) -> None:
    # "your watch is ready. Reply S to have it shipped": the person knows the status before
    # the agent says a word, so whether it records telling it again is the agent's choice
    case = next(v for k, v in cases(project, "jobs").items() if k.startswith("outreach"))
    assert case["turns"][0] == "S"
    assert case["expect"]["checks"]["outcomes"] == ["watch_shipped"]
    assert "status_given" not in case["brief"]["expected"]


def test_a_resumed_conversation_does_not_forbid_a_greeting(project: Project) -> None:
    criteria = cases(project, "jobs")["resume"]["expect"]["judge"]["criteria"]
    text = next(c["text"] for c in criteria if c["id"] == "no-restart")
    assert "greet" not in text
    assert "ask again what the person wants" in text
