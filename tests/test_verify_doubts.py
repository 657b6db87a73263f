"""Which of the reference agent's notes make a failing draft inconclusive (kept unverified)
instead of repaired or dropped."""

from __future__ import annotations

from agentflows.generate._verify_mantle import _doubts

COMPLETION = (
    "skills/x/skill.md: completion (no complete_when: the agent decides when the skill is "
    "done, so skill_completed is not certain)"
)
ASKED = "x.kind: 'either a or b' does not say which; asked again"
LINE = "skills/x/skill.md:12: when t is called (the prose says 'If it is late')"


def test_a_completion_doubt_explains_only_that_skills_failing_skill_completed():
    assert _doubts([COMPLETION], [{"type": "bot_uttered", "detail": "expected utter_x"}]) == []
    other = {"type": "skill_completed", "detail": "expected skill_completed y; only for: x"}
    assert _doubts([COMPLETION], [other]) == []
    mine = {"type": "skill_completed", "detail": "expected skill_completed x; none recorded"}
    assert _doubts([COMPLETION], [mine]) == [COMPLETION]


def test_a_clarifying_question_is_no_doubt_and_a_prose_doubt_always_is():
    assert _doubts([ASKED], [{"type": "memory_was_set"}]) == []
    assert _doubts([ASKED, LINE], [{"type": "tool_executed", "detail": "t ran"}]) == [LINE]


def test_a_doubt_about_another_skill_does_not_excuse_a_failure():
    other = "oncall.request is set from the request: none said it"
    failing = [{"type": "tool_executed", "detail": "expected open_incident, skill incidents"}]
    assert _doubts([other], failing) == []
    named = [{"type": "memory_was_set", "detail": "recorded only for: oncall.request"}]
    assert _doubts([other], named) == [other]
