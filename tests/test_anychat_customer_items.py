"""Offline Anychat lines a customer would write where the definitions name a set or nothing:
an opener names one thing of the activation's list, a default playbook without a hint is
asked a question its body answers, a guardrail's push names one item of the rule's list (or
someone else's record), `replyCount` allows the messages the definitions allow per turn, and
an example that opens with a platform event starts in its own playbook, and the people and
the clock are where the business says it is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from anychat_fixtures import offline_cases

from agentflows.drafting.offline._anychat_script import guardrail_line, request_line
from agentflows.planning.anychat_clock import project_clock
from agentflows.planning.anychat_elements import reply_options
from evalcore.definitions import Outreach, Playbook, Project, load_project

PRIVATE = "Never share the proofs of a job with anyone other than the customer who placed it."
PRICED = "Never quote a price for canvas, vinyl, foil or photo albums; staff price those."

TOOLS = """\
tools:
  find_customer:
    description: Find the customer and their print jobs by phone number.
    parameters: {phone: {type: string}}
  book_print:
    description: Book a print job.
    parameters: {what: {type: string}}
"""
FRONT = """\
name: Front counter
body: |
  You answer questions about Inkwell Print, 9 Mill Lane{where}.
  Open Tuesday to Saturday 9:00-18:00; closed Sunday and Monday.
  Business cards are $20 per hundred.
  Answer from what is written here in one or two short messages.
  When the customer wants something printed, hand off to print_order.
  If the customer opts out (STOP), record opted_out.
outcomes: [opted_out]
"""
PRINT = """\
name: Print order
activation: The customer wants the shop to print their posters or flyers for an event.
body: |
  Look the customer up with find_customer. Book the job with book_print and tell them when
  it is ready. Record print_booked.
tools: [find_customer, book_print]
outcomes: [print_booked, opted_out]
examples:
  - title: Texts STOP
    turns:
      - system: optOut
    end:
      outcomes: [opted_out]
"""


def _project(
    root: Path, *, personality: str = "Brief.", guardrails: tuple[str, ...] = (), where: str = ""
) -> Project:
    rules = "".join(f"    - {g}\n" for g in guardrails) or "    - Never guess.\n"
    (root / "anychat.yml").write_text(
        f"agent:\n  name: Inkwell Print\n  personality: {personality}\n  guardrails:\n{rules}"
        "default_playbook: front\nchannels: [sms]\n"
        "outcomes: [print_booked, opted_out]\nconsent_required: true\n"
    )
    (root / "tools.yml").write_text(TOOLS)
    (root / "playbooks").mkdir()
    (root / "playbooks" / "front.yml").write_text(FRONT.replace("{where}", where))
    (root / "playbooks" / "print_order.yml").write_text(PRINT)
    return load_project(root)


def _cases(project: Project, playbook: str) -> dict[str, dict[str, Any]]:
    return offline_cases(project, playbook)


def _criteria(data: dict[str, Any]) -> dict[str, str]:
    return {c["id"]: c["text"] for c in data["expect"].get("judge", {}).get("criteria", [])}


def test_a_default_playbook_without_a_hint_is_asked_what_its_body_answers(tmp_path: Path) -> None:
    project = _project(tmp_path)
    inbound = _cases(project, "front")["inbound"]
    assert inbound["turns"] == ["Hi, what are your opening hours?"]
    assert "Open Tuesday to Saturday 9:00-18:00" in _criteria(inbound)["answer-matches-playbook"]
    # a body that states no hours but lists prices is asked about those
    priced = Playbook(id="desk", default=True, body="Business cards are $20 per hundred.")
    assert request_line(priced) == "Hi, what are your prices?"


def test_an_opener_names_one_of_the_things_the_hint_lists(tmp_path: Path) -> None:
    project = _project(tmp_path)
    line = request_line(project.anychat.playbooks["print_order"])
    assert line == "Hi, I'd like the shop to print my posters for an event, please."


def test_a_push_names_one_item_of_the_rules_list() -> None:
    priced = guardrail_line(PRICED, set())
    assert priced.startswith("Can you just quote me a price for my photo album?")
    plain = guardrail_line("Never give a diagnosis, advice or a quote.", set())
    assert plain.startswith("Can you just give me a diagnosis?")
    shared_noun = guardrail_line("Never give medical, legal or financial advice.", set())
    assert shared_noun.startswith("Can you just give me financial advice?")
    trailing = guardrail_line("Never discuss pricing, refunds or discounts with buyers.", set())
    assert trailing.startswith("Can you just discuss pricing with me?")


def test_a_privacy_rule_with_an_owner_exception_is_pushed_about_someone_else() -> None:
    line = guardrail_line(PRIVATE, set(), other="Ann Bo")
    assert line.startswith("Can you just share the proofs of Ann Bo's job with me?")
    assert "anyone other" not in line


def test_reply_caps_allow_the_messages_the_definitions_allow(tmp_path: Path) -> None:
    """ "one or two short messages" in the body: two for the answered turn; a personality's
    "never more than three messages in a row": three for each turn of a job."""
    project = _project(_fresh(tmp_path / "a"))
    front = _cases(project, "front")["inbound"]
    assert front["expect"]["checks"]["replyCount"] == {"max": 2}
    rows = "Never more than three messages in a row."
    project = _project(_fresh(tmp_path / "b"), personality=rows)
    job = _cases(project, "print_order")["inbound"]
    answered = len([t for t in job["turns"] if isinstance(t, str | dict)])
    assert job["expect"]["checks"]["replyCount"] == {"max": 3 * answered}


def test_an_example_opening_with_a_platform_event_starts_in_its_playbook(tmp_path: Path) -> None:
    project = _project(tmp_path)
    replay = next(d for c, d in _cases(project, "print_order").items() if "example" in c)
    assert replay["scenario"]["start"] == {"resume": {"activePlaybook": "print_order"}}
    assert "resumes with the Print order playbook active" in replay["brief"]["scenario"]


def test_people_and_clock_are_where_the_business_says_it_is(tmp_path: Path) -> None:
    project = _project(_fresh(tmp_path / "a"), where=", Seattle")
    assert project_clock(project.anychat)["timezone"] == "America/Los_Angeles"
    inbound = _cases(project, "front")["inbound"]
    assert inbound["scenario"]["persona"]["preset"]["fields"]["phone"].startswith("+1206")
    # a city name several places share counts only with its state or a ZIP code
    shared = _project(_fresh(tmp_path / "b"), where=", Springfield")
    assert project_clock(shared.anychat)["timezone"] == "America/New_York"
    zipped = _project(_fresh(tmp_path / "c"), where=", Springfield 62701")
    assert project_clock(zipped.anychat)["timezone"] == "America/Chicago"
    phone = _cases(zipped, "front")["inbound"]["scenario"]["persona"]["preset"]["fields"]["phone"]
    assert phone.startswith("+1217")
    nowhere = _project(_fresh(tmp_path / "d"))
    assert _cases(nowhere, "front")["inbound"]["scenario"]["persona"]["preset"]["fields"][
        "phone"
    ].startswith("+1617")


def test_an_opener_option_before_a_comma_means_what_it_says() -> None:
    opener = "Hi {firstName}, proofs are ready. Reply OK to approve them, or STOP to opt out."
    outreach = Outreach(id="proofs", opener=opener, playbook="print_order")
    found = [(o.reply, o.meaning) for o in reply_options(outreach)]
    assert found == [("OK", "approve them"), ("STOP", "opt out")]


def _fresh(root: Path) -> Path:
    root.mkdir()
    return root
