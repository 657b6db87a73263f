"""Criteria a correct agent passes in the case's own conversation: scoped to the moment the
prose means, kept to what the user asked, accepting the alternatives the text offers, and no
"never asks again" over questions the skill itself asks twice."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_criteria import prose_rules
from agentflows.drafting.offline._mantle_goals import Goals
from agentflows.planning import plan_source
from agentflows.planning._mantle_walk import Ask, Walk
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import completes_at
from evalcore.dialects.mantle._justify import judge_case

VOICE_SKILL = """---
name: set_voice
description: Switch the helper's reply voice to calm or cheerful. Activate for "voice mode".
---

Let people pick a reply voice.

If they ask which voices exist, list calm and cheerful and invite them to pick one.

When they pick a voice, set `voice_style` via `set_fields`, then confirm in one short line.

Picking the voice IS the whole job: complete this skill right after that confirmation line.
Do not stay active, do not wait for more input, and never ask whether they want another voice.
"""
VOICE_MEMORY = """schema:
  public:
    voice_style:
      type: categorical
      enum_values: [calm, cheerful]
      description: The reply voice the person picked.
"""
POINTER_SKILL = """---
name: leave_days
description: Leave balances only - how many leave days are left, remaining balance.
---

Never invent balances.

For live leave balances, team absences, or booking time off, point them here:

- Open the HR portal: <https://hr.example.com/home|hr.example.com>
- Or open the *HR* app in chat (message the HR bot) and ask there.
- Remind them the bot only answers in its own chat.

Keep the reply short.
"""
HOWTO_SKILL = """---
name: book_leave
description: >
  How to plan or book time off, the booking steps, and carry-over rules. Activate for
  "how do I book time off", "carry over days".
---

Answer from the policy below. Match the scope of the question. Never approve leave.

## Policy

### Carry-over

You can carry over 5 days to the next year.

### Book your time off

If you take more than 3 days in a row, tell your lead before you book.

1. Add the days in the HR portal (<https://hr.example.com/home|hr.example.com>). Pick "leave".
2. Set an away message in your calendar.
"""
OFFERS_SKILL = """---
name: tune_box
description: Retune a customer's TV box when the picture is poor.
---

Ask which box to retune and set `box_id`. Ask for the room and set `room`.

Retune the box. Offer a picture test afterwards.

Then offer to check the signal again. Confirm what was done in one short sentence.
"""
OFFERS_MEMORY = """schema:
  public:
    box_id:
      type: text
      description: The box to retune.
    room:
      type: text
      description: The room the box is in.
"""


@pytest.fixture(scope="module")
def office(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("office")
    (root / "agent.yml").write_text("agent:\n  name: Office helper\n  persona: You help staff.\n")
    (root / "memory.yml").write_text("schema:\n  public: {}\n")
    for name, body, memory in [
        ("set_voice", VOICE_SKILL, VOICE_MEMORY),
        ("leave_days", POINTER_SKILL, None),
        ("tune_box", OFFERS_SKILL, OFFERS_MEMORY),
        ("book_leave", HOWTO_SKILL, None),
    ]:
        skill = root / "skills" / name
        skill.mkdir(parents=True)
        (skill / "skill.md").write_text(body)
        if memory:
            (skill / "memory.yml").write_text(memory)
    return load_project(root)


def _case(project, skill: str, case: str) -> dict:
    behaviors = {b.case: b for b in plan_source(project, "mantle", skill, None).behaviors}
    return draft_mantle(DraftContext(project, "mantle", behaviors[case]))


@pytest.mark.parametrize(
    ("sentence", "moment"),
    [
        ("Complete this skill right after that confirmation line.", "the confirmation line"),
        ("Then finish the skill.", ""),
        ("Do not complete this skill until they confirm.", None),
        ("When they say thanks, complete the skill.", None),
        ("End the skill when they say goodbye.", None),
        ("Complete the form with them.", None),
    ],
)
def test_a_sentence_that_tells_the_agent_to_complete_the_skill(sentence, moment) -> None:
    assert completes_at(sentence) == moment


def test_prose_that_says_to_complete_the_skill_is_asserted_and_scopes_its_rules(office) -> None:
    """ "Complete this skill right after that confirmation line. Do not wait for more input":
    every correct agent completes once the voice is set, and may well wait while the user is
    still choosing, so the rules after it hold only after the confirmation."""
    data = _case(office, "set_voice", "happy")
    goals = data["scenario"]["goals"]
    assert {"skill_completed": {"skill_id": "set_voice"}} in goals["assertions"]
    criteria = goals.get("criteria") or []
    assert any(c.startswith("After the confirmation line, the agent does not") for c in criteria)
    assert not any(c.startswith("The agent does not stay active") for c in criteria)
    # "do not stay active, do not wait for more input" only says the skill ends there, which
    # the asserted skill_completed checks; every agent waits for the next message, so a judge
    # reading it as a criterion could fail them all. The other act of the sentence stays.
    assert not any("stay active" in c or "wait for more input" in c for c in criteria)
    assert (
        "After the confirmation line, the agent does not ask whether they want another voice"
    ) in criteria
    # the completion is cited at the sentence that instructs it
    judged = {j.path: j for j in judge_case(data, office)}
    done = next(j for p, j in judged.items() if p.endswith("/assertions/1"))
    assert done.justification.kind == "instructed"
    assert done.justification.line == 12
    assert "complete this skill" in done.justification.element


def test_a_pointer_names_every_place_the_text_offers_and_only_what_the_user_asked(office) -> None:
    criteria = _case(office, "leave_days", "happy")["scenario"]["goals"].get("criteria") or []
    pointer = [c for c in criteria if c.startswith("The agent points them to")]
    assert pointer == [
        "The agent points them to hr.example.com or the HR app in chat for live leave balances"
    ]


def test_a_how_to_question_is_judged_on_what_the_skill_text_answers_it_with(office) -> None:
    """The skill quotes its policy under headings: an answer with made-up steps passes
    "answers itself" and "never approves leave", so the case names the section that answers
    the question and what it says first (its first step, the rule under a condition)."""
    data = _case(office, "book_leave", "happy")
    opening = data["scenario"]["simulation_context"]
    assert "book time off?" in opening
    criteria = data["scenario"]["goals"].get("criteria") or []
    assert (
        "The agent's answer gives what the skill's \"Book your time off\" section says (in its "
        'own words, not steps of its own), including "Add the days in the HR portal '
        '(hr.example.com)" and "If you take more than 3 days in a row, tell your lead before '
        'you book"'
    ) in criteria
    assert not any("instead of declining" in c for c in criteria)


def _goals(project, skill: str, walk: Walk) -> Goals:
    goals = Goals.__new__(Goals)
    goals.project, goals.defs = project, project.mantle
    goals.skill, goals.walk, goals.facts = project.mantle.skills[skill], walk, {}
    goals.script = SimpleNamespace(stated={}, kind="happy", other=None)
    goals.criteria, goals.assertions = [], []
    return goals


def test_offers_the_skill_makes_twice_are_not_asking_again(office) -> None:
    """The path offers a picture test and then a signal check: a correct agent may ask the
    second after a no to the first, so "does not ask again" says offers do not count."""
    asks = [
        Ask("ask_field", "tune_box", field="tune_box.box_id", value="BOX-1"),
        Ask("ask_field", "tune_box", field="tune_box.room", value="kitchen"),
    ]
    walk = Walk("tune_box", asks=asks)
    goals = _goals(office, "tune_box", walk)
    # as where a block's `collect` steps wait for both (the skill here has no block)
    goals.collected_answers = lambda walk: {"tune_box.box_id", "tune_box.room"}  # type: ignore[method-assign]
    said = goals.asks_again(walk) or ""
    assert "asking whether they want a picture test afterwards or to check the signal again" in (
        said
    )


def test_a_rule_that_only_forbids_going_on_after_the_completion_is_marked_as_such(office) -> None:
    """The rules a case without an asserted completion still gets: the flag tells which of
    them says no more than the completion; a rule of another act is never flagged."""
    skill = office.mantle.skills["set_voice"]
    rules = {
        r.text: r for r in prose_rules(office.mantle, skill, {"set_voice.voice_style": "calm"})
    }
    stays = rules[
        "After the confirmation line, the agent does not stay active or wait for more input"
    ]
    asks = rules[
        "After the confirmation line, the agent does not ask whether they want another voice"
    ]
    assert stays.completion and not asks.completion
    goals = _goals(office, "set_voice", Walk("set_voice"))
    assert goals.unasserted([stays, asks], "set_voice") == [stays, asks]  # nothing asserted
    goals.assertions = [{"skill_completed": {"skill_id": "set_voice"}}]
    assert goals.unasserted([stays, asks], "set_voice") == [asks]
