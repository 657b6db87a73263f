"""An escalation plays the hand-off the skill names itself: where the prose says a caller who
does not know something it asks is offered a person ("If they do not know the member's date
of birth, we cannot go on; offer @skill.talk_to_person"), the user asks for the person at
that question, says in their own words that they do not know it, and is the one the
paragraph names (calling for someone else) — not a user who asks for a person for no reason
at the first question."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_offline_mantle_user import AGENT, SKILLS, context_of, facts

CHECK = """\
---
name: Check Member
description: >
  Confirm which club member we are talking about before anything about their bookings.
  Activate for "check my membership" or "identify me".
---

Bookings are private. Run @block.identify before anything else.

A guardian calling for a child must give the member's details, not their own. If they do
not know the member's date of birth, we cannot go on; offer @skill.talk_to_person.

:::ordered_block id=identify
steps:
  - id: ask_surname
    collect: surname
    utterance: utter_ask_surname
    description: The member's surname.
  - id: ask_dob
    collect: date_of_birth
    utterance: utter_ask_dob
    description: The member's date of birth, MM/DD/YYYY.
  - id: done
    action: utter_checked
  - id: END
:::
"""

CHECK_MEMORY = """\
schema:
  public: {}
  private:
    surname:
      type: text
      description: The member's surname.
      llm_settable: true
    date_of_birth:
      type: text
      description: The member's date of birth, MM/DD/YYYY.
      llm_settable: true
"""

CHECK_RESPONSES = """\
responses:
  utter_ask_surname:
    - text: What is the member's surname?
  utter_ask_dob:
    - text: And the member's date of birth?
  utter_checked:
    - text: Thanks, that's the member.
"""


@pytest.fixture(scope="module")
def club(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("club")
    (root / "agent.yml").write_text(AGENT)
    check = root / "skills" / "check_member"
    check.mkdir(parents=True)
    (check / "skill.md").write_text(CHECK)
    (check / "memory.yml").write_text(CHECK_MEMORY)
    (check / "responses.yml").write_text(CHECK_RESPONSES)
    person = root / "skills" / "talk_to_person"
    person.mkdir(parents=True)
    body, memory = SKILLS["talk_to_person"]
    (person / "skill.md").write_text(body)
    (person / "memory.yml").write_text(memory or "")
    return root


def test_the_escalation_plays_the_reason_the_skill_names(club: Path) -> None:
    context = context_of(club, "check_member", "escalation")
    assert [c.cue for c in context.cues] == ["'And the member's date of birth?'"], context.cues
    line = context.cues[0].line
    assert "calling for my child" in line and "don't know their date of birth" in line, line
    assert context.persona.startswith("calling for your child "), context.persona
    # the date of birth is what they lack: no fact gives it; asked why, they say so
    assert not any("birth" in label for label in facts(context)), context.facts
    assert facts(context)["why you want a person"].endswith("don't know their date of birth.")


def test_the_happy_path_still_gives_the_date_of_birth(club: Path) -> None:
    context = context_of(club, "check_member")
    assert any("birth" in label for label in facts(context)), context.facts
    assert not context.cues, context.cues
