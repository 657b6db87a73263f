"""A first message says what a person wants, not the agent's rules nor its job's name: a
description's "an allowed channel" is the agent's check ("Hi, can you post a message to a
Slack channel?"), and "Activate for balance lookups" is a person asking for their balance
("Hi, can you check my leave balance?", the words of the skill's own text).

Before: "Hi, can you post a message to an allowed Slack channel?", "Hi, I need help with
balance lookups."
"""

from __future__ import annotations

from agentflows.planning._mantle_requests import requests
from evalcore.definitions._model import Skill


def _first(skill_id: str, description: str):
    skill = Skill(id=skill_id, path=f"skills/{skill_id}", name=None, description=description)
    return requests(skill)[0]


def test_a_policy_qualifier_is_the_agents_rule_not_the_persons_words() -> None:
    asked = _first(
        "post_notice",
        "Post a user-provided notice to an approved noticeboard after confirmation.",
    )
    assert asked.line == "Hi, can you post a notice to a noticeboard?"
    assert asked.intent == "want the agent to post a notice to a noticeboard"


def test_a_job_named_as_a_noun_is_asked_as_the_thing_to_check() -> None:
    asked = _first(
        "meter_check",
        "Meter readings only - latest reading or usage so far. Activate for reading lookups.",
    )
    assert asked.line == "Hi, can you check my meter reading?"
    # no word of the skill's own text before it: the thing alone
    asked = _first("usage", "Usage figures only. Activate for usage lookups.")
    assert asked.line == "Hi, can you check my usage?"
