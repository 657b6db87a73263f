"""The simulated user the offline Mantle drafter writes can play the path its case is about:
an answer for every question the skill waits on (the yes/no that keeps the path, an offer
on the branch, a step the user reports back on), facts named by what they hold, and no line
for a read-back the skill never does."""

from __future__ import annotations

import re
import shutil
from datetime import datetime
from pathlib import Path

import pytest
from conftest import EXAMPLES

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_facts import label_for, spoken
from agentflows.drafting.offline._mantle_script import counted
from agentflows.planning._mantle import plan_mantle
from agentflows.planning._mantle_phrases import value_line
from agentflows.planning._mantle_walk import Ask
from evalcore.definitions import load_project
from evalcore.simulator import FactContext, parse_fact_context
from evalcore.testdata import (
    Collection,
    DataRecords,
    knowledge_entries,
    knowledge_questions,
    load_records,
    month_on_record,
    named_by,
    record_entries,
    record_questions,
    sheet_lines,
)

AGENT = """\
name: Brightwater Utilities helper
persona: >
  You are the service line of Brightwater Utilities. You help households with their water
  and broadband accounts.
"""
SKILLS = {
    "explain_invoice": (
        """\
---
name: Explain Invoice
description: >
  Explain a household's invoice. Activate for "my invoice is confusing" or "explain my
  invoice".
---

Explain the invoice in plain words.

Ask whether they want the line items read out. If yes, read them in short lines.

Ask if that cleared it up. If not, offer to connect them to a human.
""",
        None,
    ),
    "talk_to_person": (
        """\
---
name: Talk To Person
description: >
  Handoff to a live agent. Activate for "a person please" or "a human".
---

Ask briefly why they want a human and set `contact_reason`. Then tell them a member of
staff will call back.
""",
        """\
schema:
  public:
    contact_reason:
      type: text
      description: Why the household wants a person, in their words.
      llm_settable: true
""",
    ),
    "restart_hub": (
        """\
---
name: Restart Hub
description: >
  Walk the household through restarting their broadband hub. Activate for "restart my
  hub" or "my broadband hub is stuck".
---

Explain that they should switch the hub off, wait a minute, then switch it on.

Ask them to say when they are done. Set `hub_restarted` to true when they confirm
success, or false if they report a problem.

if: session.restart_hub.hub_restarted == True
Say the hub should be fine now and offer to test the line speed.

if: session.restart_hub.hub_restarted == False
Apologise and offer to book an engineer visit.
""",
        """\
schema:
  public:
    hub_restarted:
      type: bool
      description: Whether the customer confirmed they finished restarting the hub.
      llm_settable: true
""",
    ),
    "water_tariff": (
        """\
---
name: Water Tariff
description: >
  Explain the water tariff for the household's region. Activate for "what is my water
  tariff" or "how much does water cost".
---

Explain the tariff for their region.

If a region was detected, ask whether that is correct for their supply region. When
they answer, set `supply_region` via `set_fields`.
""",
        """\
schema:
  public:
    supply_region:
      type: categorical
      enum_values: [north, south, east]
      description: The household's supply region.
      llm_settable: true
""",
    ),
    "report_leak": (
        """\
---
name: Report Leak
description: >
  Report a water leak. Activate for "I have a leak" or "water is leaking".
---

Ask where the leak is, inside or outside, and set `leak_place`.

Then ask for the street address and set `street_address`.

if: session.report_leak.leak_place == "inside"
Tell them to turn off the stopcock.

if: session.report_leak.leak_place == "outside"
Tell them a crew will check the street.
""",
        """\
schema:
  public:
    leak_place:
      type: categorical
      enum_values: [inside, outside]
      description: Where the leak is.
      llm_settable: true
    street_address:
      type: text
      description: The street address of the leak, e.g. 12 Mill Lane.
      llm_settable: true
""",
    ),
    "post_notice": (
        """\
---
name: Post Notice
description: >
  Post a notice to the household's street noticeboard. Activate for "post a notice".
tool_constraints:
  - post_notice:
      requires: session.post_notice.notice_confirmed
---

Ask what the notice should say and set `notice_text`. Draft the notice and show them the
exact text. Ask them to confirm. When they confirm, set `notice_confirmed` to true via
`set_fields`, then call `@tool.post_notice`.
""",
        """\
schema:
  public:
    notice_text:
      type: text
      description: The notice, in the household's words.
      llm_settable: true
    notice_confirmed:
      type: bool
      description: The customer confirmed the drafted notice before posting.
      llm_settable: true
""",
    ),
    "outage_info": (
        """\
---
name: Outage Info
description: >
  Tell the household about water outages. Activate for "is there an outage" or "my
  water is off".
---

Give the general outage notice first. Then ask which district only if they need local
details, and give that district's notice.
""",
        None,
    ),
    "book_visit": (
        """\
---
name: Book Visit
description: >
  Book an engineer visit. Activate for "book an engineer" or "send someone round".
tool_constraints:
  - book_visit:
      requires: session.book_visit.visit_confirmed
---

Ask briefly what the engineer should look at and set `visit_reason`. When ready, set
`visit_confirmed` to true and call `@tool.book_visit`.
""",
        """\
schema:
  public:
    visit_reason:
      type: text
      description: What the engineer should look at, in the household's words.
      llm_settable: true
    visit_confirmed:
      type: bool
      description: The customer confirmed the visit.
      llm_settable: true
""",
    ),
    "meter_visit": (
        """\
---
name: Meter Visit
description: >
  Arrange something for the household's water meter. Activate for "my water meter".
---

Ask whether they want a reading or a replacement, and set `meter_task`.

if: session.meter_visit.meter_task == "reading"
Ask for the current reading and set `meter_reading`.

if: session.meter_visit.meter_task == "replacement"
Ask why the meter needs replacing and set `replace_reason`.
""",
        """\
schema:
  public:
    meter_task:
      type: categorical
      enum_values: [reading, replacement]
      description: What the household wants done.
      llm_settable: true
    meter_reading:
      type: text
      description: The meter reading, e.g. 04512.
      llm_settable: true
    replace_reason:
      type: text
      description: Why the meter needs replacing, in the household's words.
      llm_settable: true
""",
    ),
    "reply_style": (
        """\
---
name: Reply Style
description: >
  Switch how the helper words its replies: plain, cheerful or formal. Activate for
  "reply style" or "change your tone".
---

If they ask which styles exist, list them and invite them to pick one.

When they pick one, set `reply_style` via `set_fields` and confirm in that style.
""",
        """\
schema:
  public:
    reply_style:
      type: categorical
      enum_values: [off, cheerful, formal]
      description: How replies are worded; off means the usual wording.
      llm_settable: true
""",
    ),
    "call_back": (
        """\
---
name: Call Back
description: >
  Arrange a call back from staff. Activate for "call me back" or "ring me later".
---

Offer a callback. Ask which window suits them (morning or afternoon) and set
`callback_window`, then call @tool.call_back.
""",
        """\
schema:
  public:
    callback_window:
      type: categorical
      enum_values: [morning, afternoon]
      description: When the household wants the call.
      llm_settable: true
""",
    ),
    "send_crew": (
        """\
---
name: Send Crew
description: >
  Send a repair crew out now. Activate for "send a crew" or "send someone now".
---

Ask briefly what is wrong and set `crew_reason`, then send the crew with @tool.send_crew.
Crews cost money: for anything that can wait, suggest booking a visit instead, but send
the crew if they insist.
""",
        """\
schema:
  public:
    crew_reason:
      type: text
      description: What is wrong, in the household's words.
      llm_settable: true
""",
    ),
    "water_quality": (
        """\
---
name: Water Quality
description: >
  Explain the water quality report. Activate for "is my water safe" or "water quality".
---

Explain the latest water quality report in plain words. Never give medical advice; refuse
and suggest their doctor instead.
""",
        None,
    ),
}


PROJECT_MEMORY = """\
user_district:
  type: categorical
  enum_values: [other, central, harbour]
  description: The household's district.
"""
NOTICE_TOOLS = '''\
from rasa.mantle.tools.decorator import tool


@tool(description="Post the notice.")
async def post_notice(notice_text: str, context=None):
    """Post it."""
'''


@pytest.fixture(scope="module")
def utility(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("brightwater")
    (root / "agent.yml").write_text(AGENT)
    for name, (body, memory) in SKILLS.items():
        skill = root / "skills" / name
        skill.mkdir(parents=True)
        (skill / "skill.md").write_text(body)
        if memory:
            (skill / "memory.yml").write_text(memory)
    (root / "skills" / "post_notice" / "tools.py").write_text(NOTICE_TOOLS)
    (root / "memory.yml").write_text(PROJECT_MEMORY)
    (root / "skills" / "book_visit" / "tools.py").write_text(
        NOTICE_TOOLS.replace("post_notice(notice_text", "book_visit(visit_reason")
    )
    (root / "skills" / "call_back" / "tools.py").write_text(
        NOTICE_TOOLS.replace("post_notice(notice_text", "call_back(callback_window")
    )
    (root / "skills" / "send_crew" / "tools.py").write_text(
        NOTICE_TOOLS.replace("post_notice(notice_text", "send_crew(crew_reason")
    )
    return root


def context_of(root: Path, skill: str, kind: str = "happy") -> FactContext:
    project = load_project(root)
    for behavior in plan_mantle(project, skill, None).behaviors:
        if behavior.facts.get("kind") == kind:
            data = draft_mantle(DraftContext(project, "mantle", behavior))
            return parse_fact_context(data["scenario"]["simulation_context"])
    raise AssertionError(f"no {kind} case for {skill}")


def facts(context: FactContext) -> dict[str, str]:
    return {f.label: f.value for f in context.facts}


def test_a_yes_no_question_is_answered_the_way_that_keeps_the_path(utility: Path) -> None:
    """ "If not, offer to connect them to a human": a happy path says it helped; a question
    whose "yes" only adds a step keeps "no"."""
    known = facts(context_of(utility, "explain_invoice"))
    assert known["whether that cleared it up"] == "yes"
    assert known["whether you want the line items read out"] == "no"


def test_a_step_the_user_does_is_reported_not_read_back(utility: Path) -> None:
    context = context_of(utility, "restart_hub")
    assert facts(context)["whether you finished restarting the hub"].startswith("Yes")
    assert not context.read_back  # the skill reads nothing back: no line about one


def test_an_offer_on_the_branch_is_declined(utility: Path) -> None:
    """The hub came back: the offer on that branch gets a "no", the other branch's none."""
    known = facts(context_of(utility, "restart_hub"))
    assert known.get("whether you want to test the line speed") == "no, thanks"
    assert "whether you want to book an engineer visit" not in known


def test_an_offer_that_leads_to_the_asserted_call_is_taken(utility: Path) -> None:
    """ "Offer a callback. … then call @tool.call_back": the case asserts the call, so its
    user says yes to the offer; a "no" would contradict it."""
    project = load_project(utility)
    behavior = next(
        b for b in plan_mantle(project, "call_back", None).behaviors if b.type == "happy_path"
    )
    data = draft_mantle(DraftContext(project, "mantle", behavior))
    known = facts(parse_fact_context(data["scenario"]["simulation_context"]))
    called = [a for a in data["scenario"]["goals"]["assertions"] if "tool_executed" in a]
    assert called and called[0]["tool_executed"]["tool_name"] == "call_back"
    assert known["whether you want a callback"] == "yes, please"


def test_a_suggestion_beside_the_asserted_call_is_turned_down(utility: Path) -> None:
    """ "… send the crew with @tool.send_crew. For anything that can wait, suggest booking a
    visit instead, but send the crew if they insist": the case asserts the call, so its user
    turns the alternative down; a suggestion in a paragraph with no call is no question."""
    known = facts(context_of(utility, "send_crew"))
    assert known["whether you want to try booking a visit instead"] == "no, thanks"
    told = facts(context_of(utility, "water_quality"))
    assert not any("doctor" in label for label in told), told


def test_a_value_asked_as_yes_no_is_named_by_what_it_holds(utility: Path) -> None:
    known = facts(context_of(utility, "water_tariff"))
    assert "supply region" in known, known
    assert known["supply region"] in ("north", "south", "east")
    assert not any(label.startswith("whether") for label in known), known


def test_a_counted_them_stays_the_things_not_the_user() -> None:
    ask = Ask(
        "question",
        "view_plans",
        details=("they want to change one of them or need anything else",),
        prompt="Ask if they want to change one of them or need anything else.",
    )
    assert label_for(ask) == "whether you want to change one of them or need anything else"


def test_after_an_unrelated_request_the_user_answers_the_question_it_interrupted() -> None:
    bank = load_project(EXAMPLES / "bank")
    seen = 0
    for skill in sorted(bank.mantle.skills):
        for behavior in plan_mantle(bank, skill, None).behaviors:
            if behavior.facts.get("kind") != "out_of_scope":
                continue
            data = draft_mantle(DraftContext(bank, "mantle", behavior))
            context = parse_fact_context(data["scenario"]["simulation_context"])
            interjections = [c for c in context.cues if c.first]
            seen += len(interjections)
            assert all(c.then_answer for c in interjections), behavior.id
    assert seen


def test_a_listed_choice_the_skill_waits_on_is_picked(utility: Path) -> None:
    """The skill lists the styles and waits for a pick: the user has one to give, and it
    switches something on (the YAML `off`, read as false, is never the pick)."""
    known = facts(context_of(utility, "reply_style"))
    assert known.get("reply style") in ("cheerful", "formal"), known


BILLS = (
    {"account": "A1", "date": "01/01/2026", "amount": 42.0},
    {"account": "A1", "date": "02/01/2026", "amount": 131.5},
    {"account": "A1", "date": "03/01/2026", "amount": 40.0},
    {"account": "A2", "date": "04/01/2026", "amount": 400.0},
)


@pytest.mark.parametrize(
    ("request_words", "named", "month"),
    [
        ("want to know why my bill looks high", "March", "February"),  # above the average
        ("want to know why my bill is lower", None, "March"),
        ("want to check a bill", "January", "January"),  # the skill's example, on record
        ("want to check a bill", "July", "March"),  # not on record: the latest
    ],
)
def test_the_month_is_one_the_caller_has_on_record_and_fits_the_request(
    request_words: str, named: str | None, month: str
) -> None:
    records = DataRecords([Collection("bills", BILLS)], identity={"account": "A1"})
    assert month_on_record(records, request_words, named) == month


def test_no_dated_amounts_no_month() -> None:
    records = DataRecords([Collection("plans", ({"account": "A1", "name": "Basic"},))])
    assert month_on_record(records, "why is my bill high", "February") is None


def test_an_escalation_gives_the_hand_off_a_reason_from_the_task(utility: Path) -> None:
    """The hand-off asks why: the user answers with what they were doing, under a label that
    no question of the skill itself ("the reason for …") would take."""
    context = context_of(utility, "water_tariff", "escalation")
    reason = facts(context).get("why you want a person", "")
    assert "water tariff" in reason and "person" in reason, facts(context)


def test_the_hand_off_skills_own_case_gives_a_reason(utility: Path) -> None:
    """The hand-off always asks why: its own case (a plain request for a person) has a
    concrete reason too, one of the agent's tasks that does real work (a skill with tools),
    so the user never makes one up that asks another skill."""
    context = context_of(utility, "talk_to_person")
    reason = facts(context).get("why you want a person", "")
    assert "person" in reason and ("notice" in reason or "visit" in reason), facts(context)


def test_a_correction_of_a_routing_answer_comes_a_turn_later(utility: Path) -> None:
    """The wrong place is said, stored and routed on; the fix comes on the agent's next
    turn, so the case tests a correction of stored memory, not one message's parsing."""
    context = context_of(utility, "report_leak", "correction")
    lines = [c.line for c in context.cues]
    assert len(lines) == 1 and "Sorry" not in lines[0], lines
    assert [f.after for f in context.follow_ups] == lines, context.follow_ups
    assert context.follow_ups[0].line.startswith("Sorry, I meant "), context.follow_ups


def test_a_draft_to_approve_before_a_gated_tool_gets_an_approval_line(utility: Path) -> None:
    """The tool requires a yes the customer gives in words after seeing the draft: the user
    has a line to approve it."""
    assert context_of(utility, "post_notice").read_back
    # a flag the agent sets "when ready", with nothing shown to approve: no such line
    assert not context_of(utility, "book_visit").read_back


def test_a_choice_the_prose_asks_by_its_noun_has_an_answer(utility: Path) -> None:
    """ "Ask which district only if they need local details": the project lists the
    districts, so the user knows theirs (a listed one, not `other`)."""
    assert facts(context_of(utility, "outage_info")).get("which district") in (
        "central",
        "harbour",
    )


def test_each_thing_the_prose_asks_for_by_its_noun_has_an_answer(tmp_path: Path) -> None:
    """ "Ask which district and which day": the day names no field, but one field's
    description starts with it (`Day of the visit`), so the user knows a day as well."""
    skill = tmp_path / "skills" / "open_slots"
    skill.mkdir(parents=True)
    (tmp_path / "agent.yml").write_text(AGENT)
    (skill / "skill.md").write_text(
        "---\nname: Open slots\ndescription: >\n  Say when an engineer is free.\n---\n\n"
        "Ask which district and which day, then read the free slots back.\n"
        "Set visit_district to the district they name.\n"
    )
    (skill / "memory.yml").write_text(
        "schema:\n  public:\n    visit_district:\n      type: categorical\n"
        "      enum_values: [central, harbour]\n      llm_settable: true\n"
        "    visit_date:\n      type: text\n      description: Day of the visit, MM/DD/YYYY.\n"
        "      llm_settable: true\n"
    )
    known = facts(context_of(tmp_path, "open_slots"))
    assert known.get("visit district") in ("central", "harbour")
    assert re.fullmatch(r"\d\d/\d\d/\d{4}", known.get("which day", "")), known


def test_a_routing_answer_whose_paths_part_is_corrected_on_the_next_turn(utility: Path) -> None:
    """A reading and a replacement ask different next questions: the fix is said on the
    agent's next turn whatever it asks then (the wrong path's question), never in the same
    message as the wrong value."""
    context = context_of(utility, "meter_visit", "correction")
    assert len(context.cues) == 1 and "Sorry" not in context.cues[0].line, context.cues
    assert [f.after for f in context.follow_ups] == [context.cues[0].line]
    assert "Sorry, I meant" in context.follow_ups[0].line


def test_a_listed_code_is_written_the_way_the_project_writes_it(tmp_path: Path) -> None:
    """`us` in a line reads as the pronoun ("Sorry, I mean us"): a listed value is said the
    way the project's own text writes it (US, Germany), and one it writes in lower case or
    only at a sentence's start stays as it is."""
    skill = tmp_path / "skills" / "payday"
    skill.mkdir(parents=True)
    (tmp_path / "agent.yml").write_text(AGENT)
    (skill / "skill.md").write_text(
        "---\nname: Payday\ndescription: >\n  Tell staff their payday for the US, the UK or"
        " Germany.\n---\n\nAsk which country and set `pay_country`.\nOther countries get"
        " the general answer; pay dates in the UK and in Germany differ.\n\n"
        'if: session.payday.pay_country == "germany"\nSay the date.\n\n'
        'if: session.payday.pay_country != "germany"\nSay the other date.\n'
    )
    (skill / "memory.yml").write_text(
        "schema:\n  public:\n    pay_country:\n      type: categorical\n"
        "      enum_values: [us, uk, germany, other]\n      llm_settable: true\n"
    )
    defs = load_project(tmp_path).mantle
    assert defs is not None
    said = {v: value_line(defs, "payday.pay_country", v) for v in ("us", "uk", "germany", "other")}
    assert said == {
        "us": "The US, please.",
        "uk": "The UK, please.",
        "germany": "Germany, please.",
        "other": "Other, please.",
    }
    assert spoken(defs, "payday.pay_country", "us") == "the US"
    # the conditions' `"germany"` is a value in code, not the word in a sentence
    assert spoken(defs, "payday.pay_country", "germany") == "Germany"


FAQ_SKILL = """\
---
name: Water FAQ
description: >
  Answer common questions about water hardness, meter readings and billing basics
  using the FAQ notes.
---

Answer the household's question using the skill references. If the references do not
hold the answer, say so and offer a person.
"""
FAQ_NOTES = """\
# Water questions

Q: How do I read my water meter?
A: Read the black digits from left to right.

Q: Why is my water hard?
A: Hardness comes from the rock the water runs through.
"""


def test_a_faq_skill_is_asked_a_question_its_notes_answer(utility: Path) -> None:
    """A skill that answers from its reference notes is opened with one question the notes
    answer (the one nearest what the user wants), never a bare topic the user must turn
    into a question the notes may not hold."""
    faq = utility / "skills" / "water_faq"
    (faq / "references").mkdir(parents=True)
    (faq / "skill.md").write_text(FAQ_SKILL)
    (faq / "references" / "faq.md").write_text(FAQ_NOTES)
    try:
        opening = context_of(utility, "water_faq").opening or ""
    finally:
        shutil.rmtree(faq)
    asked = ("how do i read my water meter?", "why is my water hard?")
    assert opening.lower().endswith(asked), opening


def test_a_faq_answer_is_checked_against_its_entry(utility: Path) -> None:
    """An agent that makes up the answer to a question the notes answer fails: the happy
    path's criteria name the gist of the entry the user asks (the entry's first sentence)."""
    faq = utility / "skills" / "water_faq"
    (faq / "references").mkdir(parents=True)
    (faq / "skill.md").write_text(FAQ_SKILL)
    (faq / "references" / "faq.md").write_text(FAQ_NOTES)
    try:
        project = load_project(utility)
        happy = next(
            b
            for b in plan_mantle(project, "water_faq", None).behaviors
            if b.facts.get("kind") == "happy"
        )
        goals = draft_mantle(DraftContext(project, "mantle", happy))["scenario"]["goals"]
    finally:
        shutil.rmtree(faq)
    gists = ("Read the black digits from left to right", "Hardness comes from the rock")
    agrees = [c for c in goals["criteria"] if "agrees with" in c]
    assert len(agrees) == 1 and agrees[0].split(": ", 1)[1].startswith(gists), goals


def test_an_entry_answer_runs_to_the_next_question_or_heading(tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("# Q\n\nQ: Can I pay by card?\nA: Yes, any card.\nNo fee.\n## Other\nText.\n")
    assert knowledge_entries([notes]) == {"Can I pay by card?": "Yes, any card. No fee."}
    rows = ({"question": "When is the bill due?", "answer": "On the 1st.", "id": "7"},)
    assert record_entries([Collection("faq", rows)]) == {"When is the bill due?": "On the 1st."}


def test_questions_come_from_their_own_lines_and_question_fields(tmp_path: Path) -> None:
    """A question on a line of its own (after a `Q:`, heading or list marker) and a record
    field that holds a question; a fragment or a sentence with a question inside is none."""
    notes = tmp_path / "notes.md"
    notes.write_text(
        "## Can I pay by card?\nWhy?\nAsk: is it hard? Then say so.\n- Is the tap safe?\n"
    )
    assert knowledge_questions([notes, tmp_path / "missing.md"]) == [
        "Can I pay by card?",
        "Is the tap safe?",
    ]
    rows = ({"question": "When is the bill due?", "answer": "On the 1st."}, {"id": 3})
    assert record_questions([Collection("faq", rows)]) == ["When is the bill due?"]


def test_a_closing_skill_is_said_after_a_short_question(tmp_path: Path) -> None:
    """ "Thanks, that's all" as the very first message reads oddly: a case of the skill the
    user's closing line asks for first asks a question another skill answers from its notes,
    and says the closing line after the agent's answer."""
    (tmp_path / "agent.yml").write_text(AGENT)
    bye = tmp_path / "skills" / "farewell"
    bye.mkdir(parents=True)
    (bye / "skill.md").write_text(
        "---\nname: Farewell\ndescription: >\n  End the conversation politely when the"
        " customer says goodbye or that's all, thanks.\n---\n\nThank them and say goodbye.\n"
    )
    faq = tmp_path / "skills" / "water_faq"
    (faq / "references").mkdir(parents=True)
    (faq / "skill.md").write_text(FAQ_SKILL)
    (faq / "references" / "faq.md").write_text(FAQ_NOTES)
    context = context_of(tmp_path, "farewell")
    assert (context.opening or "").lower().endswith("how do i read my water meter?"), context
    closing = (context.after_first or "").lower().rstrip(".")
    assert closing in ("goodbye", "that's all, thanks"), context


def test_a_place_is_given_by_its_name_not_the_projects_code() -> None:
    """`data/stores.csv` names store ST-022 "Meadow Pharmacy Lawrenceville": a patient asked
    which store should receive a transfer names the store, never its internal code."""
    root = Path(__file__).parent / "data" / "corpus" / "meadow_pharmacy"
    known = facts(context_of(root, "transfer_prescription"))
    store = known.get("which Meadow store should receive it", "")
    assert store.startswith("Meadow Pharmacy "), known
    assert not any(v.startswith("ST-") for v in known.values()), known
    records = load_records(root)
    assert named_by(records, "store", "ST-014") == "Meadow Pharmacy Squirrel Hill"
    assert named_by(records, "store", "ST-999") is None
    assert named_by(records, "patient", "MP-1977420") is None  # a patient record names no place


def test_every_day_and_time_a_steps_instructions_ask_for_has_an_answer() -> None:
    """The trip's "when" step completes on the return date but asks for the outbound date
    and the arrival time too: the user knows all three, and never departs after returning."""
    project = load_project(Path(__file__).parent / "data" / "corpus" / "northstar_exec")
    seen = 0
    for behavior in plan_mantle(project, "travel", None).behaviors:
        if behavior.type == "escalation":
            continue
        data = draft_mantle(DraftContext(project, "mantle", behavior))
        known = facts(parse_fact_context(data["scenario"]["simulation_context"]))
        if "return date" not in known:
            continue
        seen += 1
        depart, back = (
            datetime.strptime(known[k], "%m/%d/%Y") for k in ("depart date", "return date")
        )
        assert depart <= back, known
        assert known.get("arrive by"), known
    assert seen >= 3


def test_a_detour_that_states_a_count_is_never_answered_with_another() -> None:
    """The detour line "I have 24 DNA samples for sequencing" states the count: the user
    never answers the sample question with a different number drawn for it."""
    project = load_project(Path(__file__).parent / "data" / "corpus" / "tidewater_core")
    assert project.mantle is not None
    drop_off = project.mantle.skills["sample_drop_off"]
    line = "Before that, I have 24 DNA samples for sequencing."
    assert counted(drop_off, line, {}) == {"sample_drop_off.sample_count": 24}
    assert counted(drop_off, "Before that, where do I drop off my samples?", {}) == {}
    played = 0
    for behavior in plan_mantle(project, "instrument_time", None).behaviors:
        detour = behavior.facts.get("digression") or {}
        if "24 DNA samples" not in str(detour.get("line")):
            continue
        played += 1
        data = draft_mantle(DraftContext(project, "mantle", behavior))
        known = facts(parse_fact_context(data["scenario"]["simulation_context"]))
        assert known.get("how many samples", "24") == "24", known
    assert played


def test_what_happened_is_the_story_the_opening_told() -> None:
    """A caller who opens with one of the description's losses ("A tree came down on the
    roof.") answers "what happened?" with the same loss, never another of its phrasings."""
    project = load_project(Path(__file__).parent / "data" / "corpus" / "harbor_mutual")
    played = 0
    for behavior in plan_mantle(project, "file_claim", None).behaviors:
        data = draft_mantle(DraftContext(project, "mantle", behavior))
        context = parse_fact_context(data["scenario"]["simulation_context"])
        story = facts(context).get("what happened")
        if story is None or context.opening is None or not context.opening.startswith("A tree"):
            continue
        played += 1
        # a details-up-front opening lists held details after the story it tells
        assert context.opening.startswith(story), (story, context.opening)
    assert played


def test_a_sheet_the_agent_walks_is_counted_line_by_line_in_words() -> None:
    """The weekly count walks the rest of the par sheet and keeps the counts by SKU: the
    user has a count for every line the skill's own fields do not count, by its name,
    never a JSON blob of SKU keys."""
    root = Path(__file__).parent / "data" / "corpus" / "brewline_shifts"
    records = load_records(root)
    counted = ["whole milk gallons", "oat milk cartons", "espresso bags"]
    lines = sheet_lines(records, {"SYR-VAN-750": 6}, counted)
    assert [name for _, name in lines or []] == [
        "Almond milk",
        "Decaf espresso beans",
        "Vanilla syrup",
        "12 oz hot cups",
        "16 oz cold cups",
    ]
    assert sheet_lines(records, {"NO-SUCH-SKU": 1}, counted) is None
    project = load_project(root)
    weekly = next(
        b
        for b in plan_mantle(project, "inventory_count", None).behaviors
        if b.type == "happy_path" and "weekly" in b.id
    )
    data = draft_mantle(DraftContext(project, "mantle", weekly))
    said = facts(parse_fact_context(data["scenario"]["simulation_context"]))["other counts"]
    assert "SYR-" not in said and "{" not in said, said
    assert "vanilla syrup: 6" in said and "16 oz cold cups: " in said, said


def test_a_detour_that_names_a_weekday_gets_a_day_on_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "Before that, book the confocal for Thursday": the day the user gives the booking
    question is the coming Thursday (written on Monday 2026-12-07: the 10th), never another
    day of the week nor a Thursday weeks later."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1796601600")
    project = load_project(Path(__file__).parent / "data" / "corpus" / "tidewater_core")
    played = 0
    for behavior in plan_mantle(project, "sample_drop_off", None).behaviors:
        detour = behavior.facts.get("digression") or {}
        if "Thursday" not in str(detour.get("line")):
            continue
        played += 1
        data = draft_mantle(DraftContext(project, "mantle", behavior))
        day = facts(parse_fact_context(data["scenario"]["simulation_context"]))["which day"]
        assert day == "12/10/2026", day
    assert played


def test_an_escalation_says_the_callers_own_trouble_not_the_description() -> None:
    """A passenger whose flight was cancelled asks for a person about that flight ("It's
    about my flight SK0931, cancelled."), not in the skill description's words ("It's
    about changing flights, mostly after a disruption."), and "I" stays a capital."""
    project = load_project(Path(__file__).parent / "data" / "corpus" / "skyway_air")
    behavior = next(
        b
        for b in plan_mantle(project, "rebook_flight", None).behaviors
        if b.facts.get("kind") == "escalation"
    )
    data = draft_mantle(DraftContext(project, "mantle", behavior))
    context = parse_fact_context(data["scenario"]["simulation_context"])
    line = next(c.line for c in context.cues if "person" in c.line)
    flight = next(f.value for f in context.facts if f.label == "your flight")
    assert flight.split(",", 1)[0] in line, (line, flight)
    assert "mostly after a disruption" not in line.lower(), line
    assert " i " not in f" {line} ", line
