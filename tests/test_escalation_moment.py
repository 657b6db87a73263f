"""An escalation asks for a person at a moment every correct run reaches: where the skill's
first question of its own is one a correct agent may skip (a yes/no offer after a lookup),
the request comes at the question the prose always asks first and keeps with `set_fields`
("Ask which month they want to review"), and stays at the planned one only for an agent
that skips it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_offline_mantle_user import AGENT, SKILLS, context_of

BILL = """\
---
name: Explain Bill
description: >
  Explain a household's monthly bill. Activate for "why is my bill high" or "explain my
  bill".
---

Explain the bill in plain words. Do not invent amounts.

if: not session.explain_bill.bill_month
Ask which month they want to review. When they answer, set `bill_month` via
`set_fields` to a full month name such as February.

Ask whether they want the line items read out. If yes, read them in short lines.
"""


@pytest.fixture(scope="module")
def billing(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("billing")
    (root / "agent.yml").write_text(AGENT)
    for name, body in (("explain_bill", BILL), ("talk_to_person", SKILLS["talk_to_person"][0])):
        skill = root / "skills" / name
        skill.mkdir(parents=True)
        (skill / "skill.md").write_text(body)
    memory = SKILLS["talk_to_person"][1]
    (root / "skills" / "talk_to_person" / "memory.yml").write_text(memory or "")
    return root


def test_the_person_is_asked_for_at_the_question_always_asked(billing: Path) -> None:
    context = context_of(billing, "explain_bill", "escalation")
    cues = [c.cue for c in context.cues]
    assert cues[0] == "which month you want to review", cues
    # the planned question stays for an agent that does not ask the month
    assert cues[1:] == ["whether you want the line items read out"], cues
    assert len({c.line for c in context.cues}) == 1, context.cues
    # the month is never given: the request for a person comes instead of it
    assert all("month" not in f.label for f in context.facts), context.facts


def test_a_happy_path_still_gives_the_month(billing: Path) -> None:
    context = context_of(billing, "explain_bill")
    assert any("month" in f.label for f in context.facts), context.facts
    assert not context.cues, context.cues
