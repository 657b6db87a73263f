"""Criteria speak of the agent's users in the agent's own word: where agent.yml says
"Employees reach you ...", "the customer" of a criterion is "the employee"; an agent that
names no one, or names customers, keeps "the customer".

Before: "The agent takes the correction without making the customer start over" for an
agent whose agent.yml speaks of employees.
"""

from __future__ import annotations

from types import SimpleNamespace

from agentflows.drafting.offline._mantle import in_users_words
from evalcore.testdata import users_word

CRITERIA = [
    "The agent takes the correction without making the customer start over",
    "The agent answers the customer's request itself",
    "A customer is never told another's balance; customers see only their own",
]


def _project(persona: str) -> SimpleNamespace:
    return SimpleNamespace(mantle=SimpleNamespace(agent={"name": "Desk", "persona": persona}))


def test_the_agents_word_for_its_users_replaces_customer() -> None:
    project = _project("You are Ada, the office helper in chat. Employees reach you by DM.")
    assert in_users_words(project, CRITERIA) == [
        "The agent takes the correction without making the employee start over",
        "The agent answers the employee's request itself",
        "An employee is never told another's balance; employees see only their own",
    ]


def test_an_agent_that_names_no_users_keeps_customer() -> None:
    assert in_users_words(_project("You are a friendly helper."), CRITERIA) == CRITERIA
    assert users_word("This bot helps truck drivers plan routes.") == "truck driver"
    assert users_word("Help with directory lookups and leave balances.") is None
