"""Which criteria the offline Mantle drafter writes: only rules that hold in the case's own
conversation, each saying the condition it holds under, none that a correct agent fails."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_condition_words import condition_words
from agentflows.drafting.offline._mantle_criteria import (
    Rule,
    _clauses,
    declines,
    off_topic_rule,
    pick,
    prose_rules,
    sentence_rule,
)
from agentflows.drafting.offline._mantle_goals import Goals
from agentflows.planning import plan_source
from agentflows.planning._mantle_walk import Ask, Walk
from evalcore.definitions import load_project

RATE_SKILL = """---
name: Rate the chat
description: Collect a quick up or down rating of the conversation.
---

Thank the customer briefly.

Ask for a quick rating and set `chat_rating` to up or down.

if: session.rate_chat.chat_rating == "down"
Apologise briefly and thank them for the feedback in one short sentence.

Switching the voice IS the whole job: set `voice_style`, then confirm in one line. Do not
stay active, do not wait for more input.
"""
RATE_MEMORY = """schema:
  public:
    chat_rating:
      type: categorical
      enum_values: [up, down]
      description: The rating the customer gave.
    voice_style:
      type: text
      description: The voice the customer picked.
"""
DECLINE_SKILL = """---
name: Decline poems
description: Off-topic requests to write poems or stories unrelated to gardening.
---

:::ordered_block id=main
steps:
  - id: respond
    action: utter_decline_poems
    next: END
:::
"""
HANDOFF_SKILL = """---
name: Human handoff
description: Connect the customer to a person when they ask for one.
---

Help the customer reach a person.

Ask briefly why they want a person. Share the ticket id once it is open.
"""
POINTER_SKILL = """---
name: Leave balance
description: How many leave days are left.
---

Never invent balances.

For live balances or leave requests, point them here:

- Open the HR portal: <https://hr.example.com/home|hr.example.com>
- Or ask the HR bot in chat.
"""
INTRO_SKILL = """---
name: Intro
description: What the garden helper can do.
---

Mention you can help with: watering plans, pest questions, or talking to a gardener.
"""
AGENT = """agent:
  name: Garden helper
  persona: You help people with their garden.
rules:
  - Never share a customer's home address.
  - If the customer asks something outside gardening, say you can only help with gardening.
"""


@pytest.fixture(scope="module")
def garden(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("garden")
    (root / "agent.yml").write_text(AGENT)
    (root / "memory.yml").write_text("schema:\n  public: {}\n")
    (root / "responses.yml").write_text(
        "responses:\n  utter_decline_poems:\n    - text: I only help with gardening.\n"
    )
    for name, body, memory in [
        ("rate_chat", RATE_SKILL, RATE_MEMORY),
        ("decline_poems", DECLINE_SKILL, None),
        ("human_handoff", HANDOFF_SKILL, None),
        ("leave_balance", POINTER_SKILL, None),
        ("intro", INTRO_SKILL, None),
    ]:
        skill = root / "skills" / name
        skill.mkdir(parents=True)
        (skill / "skill.md").write_text(body)
        if memory:
            (skill / "memory.yml").write_text(memory)
    return load_project(root)


# --- sentences --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "criteria"),
    [
        # a statement before a colon scopes what follows: alone it would hold everywhere
        ("Unsupported regions have no local section: never list other regions' rules.", []),
        # a list the colon introduces is what the rule says to name
        (
            "Tell them what you can help with: billing, orders and returns.",
            ["The agent tells them what it can help with: billing, orders and returns"],
        ),
        # a statement before the prohibition is no condition of it
        (
            "The shop has no stock feed, so never promise a delivery date.",
            ["The agent does not promise a delivery date"],
        ),
        (
            "If the answer is missing, say you do not have that information.",
            ["If the answer is missing, the agent says it does not have that information"],
        ),
        ("Thank the customer briefly.", ["The agent thanks the customer briefly"]),
        ("Thank you for your email.", []),  # a template's text, not an instruction
        # an aside between dashes keeps the sentence's condition for what follows it
        (
            "If they ask for a size outside the range - including made-up ones - refuse "
            "briefly and list the sizes on offer.",
            ["If they ask for a size outside the range, the agent lists the sizes on offer"],
        ),
        # "If they have" points back at the sentence before: no criterion
        ("If they have, offer a refund once the parcel is back.", []),
    ],
)
def test_a_sentence_gives_only_rules_that_read_whole(sentence, criteria) -> None:
    found = [r for c in _clauses(sentence) if (r := sentence_rule(c))]
    assert found == criteria


@pytest.mark.parametrize(
    ("condition", "words"),
    [
        ('session.rate_chat.chat_rating == "down"', "the chat rating is down"),
        ("session.net.speed_is_slow == True", "the speed is slow"),
        ("session.net.speed_is_slow == False", "the speed is not slow"),
        (
            "session.a.reason == 'x' or session.a.reason == 'y'",
            "the reason is x or the reason is y",
        ),
        ("(session.a.b == 1) and session.a.c", None),
    ],
)
def test_a_condition_in_words(condition, words) -> None:
    assert condition_words(condition) == words


# --- a skill's rules on a path ----------------------------------------------------------


def test_a_rule_under_an_if_says_its_condition(garden) -> None:
    skill = garden.mantle.skills["rate_chat"]
    rules = [r.text for r in prose_rules(garden.mantle, skill, {"rate_chat.chat_rating": "down"})]
    assert (
        "When the chat rating is down, the agent thanks them for the feedback in one short "
        "sentence" in rules
    )
    assert "The agent thanks the customer briefly" in rules
    up = [r.text for r in prose_rules(garden.mantle, skill, {"rate_chat.chat_rating": "up"})]
    assert not any("feedback" in r for r in up)


def test_a_paragraph_about_a_field_the_path_never_sets_gives_no_rule(garden) -> None:
    # "do not stay active" holds once a voice is set; a path that sets none must wait
    skill = garden.mantle.skills["rate_chat"]
    unset = [r.text for r in prose_rules(garden.mantle, skill, {})]
    assert not any("stay active" in r for r in unset)
    chosen = [r.text for r in prose_rules(garden.mantle, skill, {"rate_chat.voice_style": "x"})]
    assert any("stay active" in r for r in chosen)


def test_agent_wide_rules_are_no_fallback_for_a_skill_without_rules(garden) -> None:
    skill = garden.mantle.skills["decline_poems"]
    assert prose_rules(garden.mantle, skill, {}) == []


def test_the_off_topic_rule_is_the_agent_wide_one_for_a_request_outside_the_job(garden) -> None:
    assert off_topic_rule(garden.mantle) == (
        "If the customer asks something outside gardening, the agent says it can only help "
        "with gardening"
    )


def test_a_skill_that_exists_to_decline_is_never_asked_to_answer_instead(garden) -> None:
    assert declines(garden.mantle.skills["decline_poems"])
    assert not declines(garden.mantle.skills["rate_chat"])


# --- behaviours -------------------------------------------------------------------------


def _goals(project, skill: str, walk: Walk, facts: dict, kind: str = "happy") -> Goals:
    goals = Goals.__new__(Goals)
    goals.project, goals.defs = project, project.mantle
    goals.skill, goals.walk, goals.facts = project.mantle.skills[skill], walk, facts
    goals.script = SimpleNamespace(stated={}, kind=kind, other=None)
    goals.criteria, goals.assertions = [], []
    return goals


def test_a_hand_off_that_asks_why_is_not_judged_on_making_the_customer_repeat(garden) -> None:
    handoff = garden.mantle.skills["human_handoff"]
    goals = _goals(garden, "human_handoff", Walk("human_handoff"), {})
    # the prose says "Ask briefly why they want a person": a correct agent asks
    assert goals.asks_before_handing_over(handoff, Walk("human_handoff"))
    goals.handoff_rule(handoff, Walk("human_handoff"))
    assert goals.criteria == ["The agent shares the ticket id once it is open"]


def test_a_digression_names_only_what_the_customer_gave_before_it(garden) -> None:
    asks = [
        Ask("collect", "rate_chat", field="rate_chat.chat_rating", value="down"),
        Ask("confirm", "rate_chat", tool="save"),
    ]
    goals = _goals(garden, "rate_chat", Walk("rate_chat", asks=asks), {})
    assert goals.given_before(0) == {}  # the detour comes first: nothing to ask again
    assert goals.given_before(2) == {"rate_chat.chat_rating": "down"}


def test_the_example_bank_digressions_ask_again_only_for_what_was_given(repo: Path) -> None:
    for case in sorted((repo / "generated_cases" / "mantle").rglob("*digression*.yml")):
        text = case.read_text()
        assert "details the customer gave before the digression" not in text, case.name


def test_a_rule_for_a_situation_is_picked_only_where_the_case_is_about_it() -> None:
    rules = [
        Rule("If the references lack the answer, the agent says it does not know", False),
        Rule("If the customer says no, the agent does not order again", False),
        Rule("The agent does not invent amounts", False),
    ]
    assert pick(rules) == ["The agent does not invent amounts"]
    assert pick(rules, "refusal", limit=1) == [
        "If the customer says no, the agent does not order again"
    ]


def _criteria(project, skill: str, case: str) -> list[str]:
    behaviors = {b.case: b for b in plan_source(project, "mantle", skill, None).behaviors}
    data = draft_mantle(DraftContext(project, "mantle", behaviors[case]))
    return data["scenario"]["goals"].get("criteria") or []


def test_drafted_cases_carry_only_criteria_a_correct_agent_passes(garden) -> None:
    escalation = _criteria(garden, "rate_chat", "escalation")
    assert not any("repeat" in c for c in escalation)  # the hand-off skill asks why
    assert "The agent shares the ticket id once it is open" in escalation
    # a skill whose job is the decline is never asked to answer instead
    assert not any("instead of declining" in c for c in _criteria(garden, "decline_poems", "happy"))
    unrelated = _criteria(garden, "rate_chat", "unrelated_request")
    assert (
        "If the customer asks something outside gardening, the agent says it can only help "
        "with gardening" in unrelated
    )
    assert not any("comes back" in c for c in unrelated)


def test_a_prose_skill_that_points_elsewhere_is_judged_on_the_pointer(garden) -> None:
    """ "Point them here:" above a list with a link: the criterion names the link and the
    alternative the list offers ("Or ask the HR bot"), and the pointer is the answer, so no
    "answers itself instead of deflecting" (a judge could score the pointer as deflecting).
    The user asks how many days are left: neither listed purpose is what they asked in
    other words than the skill's name, so the pointer alone is checked."""
    criteria = _criteria(garden, "leave_balance", "happy")
    assert "The agent points them to hr.example.com or the HR bot in chat" in criteria
    assert not any("instead of declining" in c for c in criteria)


def test_an_intro_skill_is_judged_on_what_it_lists(garden) -> None:
    criteria = _criteria(garden, "intro", "happy")
    assert (
        "The agent mentions it can help with: watering plans, pest questions, or talking to "
        "a gardener" in criteria
    )


def test_a_refusal_asks_that_the_agent_asked_before_the_gated_action(garden) -> None:
    """An agent that never tries the action passes every "never happens" check of a refusal
    case; asking to confirm (in prose or with the gate's question) is what a correct one
    does. The act in the question's words, spoken of the customer."""
    gate = Ask(
        "confirm",
        "human_handoff",
        tool="open_ticket",
        confirm=False,
        prompt="Shall I connect you to a gardener now?",
    )
    goals = _goals(garden, "human_handoff", Walk("human_handoff", asks=[gate]), {})
    assert goals.asks_to_confirm("open_ticket") == (
        "The agent asks the customer to confirm before it goes on to connect them to a "
        "gardener now (in its own words or with the confirmation question)"
    )
    # a value the question fills in at its end ("wipe {device}?") is named by the tool
    wipe = Ask("confirm", "human_handoff", tool="wipe_device", prompt="Shall I wipe {label}?")
    goals = _goals(garden, "human_handoff", Walk("human_handoff", asks=[wipe]), {})
    assert "before it goes on to wipe the device (" in goals.asks_to_confirm("wipe_device")


def test_asking_to_confirm_twice_is_not_asking_again(garden) -> None:
    """A path that confirms in prose and again at the runtime's gate: "does not ask again"
    says neither confirmation counts."""
    asks = [
        Ask("collect", "rate_chat", field="rate_chat.chat_rating", value="down"),
        Ask("ask_field", "rate_chat", field="rate_chat.voice_style", value="calm"),
        Ask("confirm", "rate_chat", tool="save", confirm=True),
    ]
    goals = _goals(garden, "rate_chat", Walk("rate_chat", asks=asks), {})
    # as where a block's `collect` steps wait for both (the skill here has no block)
    goals.collected_answers = lambda walk: {"rate_chat.chat_rating", "rate_chat.voice_style"}  # type: ignore[method-assign]
    said = goals.asks_again(Walk("rate_chat", asks=asks)) or ""
    assert "in its own words or with the confirmation question" in said
    assert "even twice" in said


FOCUS_SKILL = """---
name: Focus time
description: Block focus time in the calendar.
---

Create a private focus event for the block they asked for. Never put focus time over an
existing meeting; say what is in the way instead.
"""


def test_what_to_do_instead_of_a_prohibited_act_is_only_for_that_situation(
    tmp_path: Path,
) -> None:
    """ "say what is in the way instead" holds only where a meeting is in the way: a case
    whose focus event is created has nothing to name, so only the prohibition is picked."""
    (tmp_path / "agent.yml").write_text(AGENT)
    (tmp_path / "memory.yml").write_text("schema:\n  public: {}\n")
    (tmp_path / "skills" / "focus").mkdir(parents=True)
    (tmp_path / "skills" / "focus" / "skill.md").write_text(FOCUS_SKILL)
    project = load_project(tmp_path)
    rules = prose_rules(project.mantle, project.mantle.skills["focus"], {})
    assert any("in the way" in r.text for r in rules)  # the rule is read
    picked = pick(rules, limit=3)
    assert "The agent does not put focus time over an existing meeting" in picked
    assert not any("in the way" in p for p in picked), picked


def test_a_rule_guarding_another_persons_records_is_only_for_a_case_that_brings_them_in() -> None:
    """ "Never submit an expense for another executive" is trivially met by a case whose
    user files their own: picked only where the case pushes against it."""
    rules = [
        Rule("The agent does not submit an expense for another executive", False),
        Rule("The agent does not share a coworker's phone number, pay rate or hours", False),
        Rule("The agent does not read back another researcher's name or lab", False),
        Rule("The agent does not split one bill into several expenses", False),
    ]
    assert pick(rules, limit=4) == ["The agent does not split one bill into several expenses"]
    # a case about keeping things back (the adversarial one) still gets it
    assert rules[1].text in pick(rules, "adversarial", limit=4)


def test_a_parenthesis_pointing_at_another_element_is_left_out_of_the_rule(
    tmp_path: Path,
) -> None:
    """ "Tell the member where their parcel is (run @skill.check_member first if ...)": the
    parenthesis is an instruction of its own, not the behaviour the criterion checks."""
    root = tmp_path / "parcels"
    skill = root / "skills" / "parcel_status"
    skill.mkdir(parents=True)
    (root / "agent.yml").write_text(AGENT)
    (root / "memory.yml").write_text("schema:\n  public: {}\n")
    (skill / "skill.md").write_text(
        "---\nname: Parcel status\ndescription: Where a parcel is.\n---\n\n"
        "Tell the member where their parcel is (run @skill.check_member first if they are "
        "not signed in). Tell them the delivery window (morning or afternoon).\n"
    )
    project = load_project(root)
    defs = project.mantle
    texts = [r.text for r in prose_rules(defs, defs.skills["parcel_status"], {})]
    assert "The agent tells the member where their parcel is" in texts
    assert not any("check member" in t for t in texts)
    assert any("(morning or afternoon)" in t for t in texts)  # no element named: kept
