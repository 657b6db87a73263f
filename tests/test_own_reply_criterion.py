"""A prohibition criterion allows the words of the project's own reply on the path."""

from agentflows.drafting.offline._mantle_own_reply import allowing_reply

_RULE = "When the mode is plan, the agent does not promise approval or waive the late fee"


def test_a_reply_speaking_of_the_forbidden_thing_is_said_to_be_fine() -> None:
    reply = "Requested. The office replies in 2 days; no late fee is added while it's pending."
    out = allowing_reply(_RULE, [reply])
    assert out.startswith(_RULE)
    assert '"no late fee is added while it\'s pending"' in out
    assert out.endswith("is fine)")


def test_a_reply_about_something_else_leaves_the_rule_alone() -> None:
    assert allowing_reply(_RULE, ["Pay $10 by card (plus a 2.9% card fee)?"]) == _RULE


def test_a_bare_noun_is_not_enough() -> None:
    rule = "The agent does not waive fees itself"
    assert allowing_reply(rule, ["Pay $10 by card (plus a 2.9% card fee)?"]) == rule


def test_an_instruction_is_left_alone() -> None:
    rule = "The agent tells the tenant the late fee"
    assert allowing_reply(rule, ["No late fee is added."]) == rule


def test_a_reply_filling_in_a_value_is_no_statement_about_it() -> None:
    rule = "The agent does not invent claim numbers"
    assert allowing_reply(rule, ["Shall I book it for claim {claim_number}?"]) == rule
