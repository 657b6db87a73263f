"""A case opens with what a person says, not with the description's first sentence: the
description's own words for the customer ("when the customer says goodbye"), a question
among the things it activates for ("why a bill looks high"), or the requests it handles
("requests to write poems"). An upper-case id the user reads out keeps its underscores,
and a skill that posts a message has a message for the user to give.

Before: "Hi, can you look up and explain my monthly bill amount?", "Hi, can you end the
conversation politely?", "Hi, I need help with off-topic requests to write poems.";
"channel id: C GENERAL"; no message text at all.
"""

from __future__ import annotations

from pathlib import Path

from agentflows.planning._mantle_requests import requests
from evalcore.definitions._model import Skill
from evalcore.testdata import FieldSpec, case_rng, spoken_value, told_value
from evalcore.testdata._told import NOTICES


def _first(skill_id: str, description: str):
    skill = Skill(id=skill_id, path=f"skills/{skill_id}", name=None, description=description)
    return requests(skill)[0]


def _first_line(skill_id: str, description: str) -> str:
    return _first(skill_id, description).line


def test_a_question_the_description_lists_opens_in_the_person_words() -> None:
    asked = _first(
        "check_invoice",
        "Look up and explain a customer's monthly invoice amount. Activate for invoice "
        "questions, amounts due, or why an invoice looks high.",
    )
    assert asked.line == "Hi, I'd like to know why my invoice looks high."
    assert asked.intent == "want to know why your invoice looks high"  # "You want to ..."


def test_the_words_the_customer_says_open_the_case() -> None:
    line = _first_line(
        "farewell",
        "Close the chat politely when the user says bye for now, thanks that's it, or "
        "wants to leave.",
    )
    assert line == "Bye for now."
    # the skill's own id is a team's label: the next words the customer uses
    line = _first_line(
        "goodbye", "End the chat when the user says goodbye, thanks that's all, or leaves."
    )
    assert line == "Thanks that's all."


def test_a_request_the_skill_handles_is_asked_of_the_agent() -> None:
    line = _first_line(
        "refuse_art",
        "Off-topic requests to paint portraits, sculptures, or murals unrelated to the shop.",
    )
    assert line == "Hi, could you paint portraits for me?"


def test_an_upper_case_id_is_read_out_with_its_underscores() -> None:
    assert spoken_value("C_GENERAL") == "C_GENERAL"
    assert spoken_value("not_received") == "not received"


def test_a_skill_that_posts_gives_the_user_a_message() -> None:
    spec = FieldSpec("message_text", "text", "Final message text confirmed by the user.")
    said = told_value(spec, case_rng("k", "told"), "Post a message to a team channel.")
    assert said in NOTICES
    # a message field of a skill that posts nothing is not a notice
    assert told_value(spec, case_rng("k", "told"), "Book a table for dinner.") is None


STATEMENT_SKILL = """\
---
name: Statement
description: Explain a monthly statement. Activate for statement questions.
---

Help the member understand a statement.

if: not session.statement.period
Ask which month they want to go over. When they answer, set `period` via
`set_fields` to a full month name such as October.

Explain the statement in short lines.
"""


def test_a_field_the_prose_sets_with_set_fields_is_a_question_the_user_answers(
    tmp_path,
) -> None:
    from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

    root = write_project(
        tmp_path / "desk",
        {
            "agent.yml": "name: Member desk\npersona: You help members with statements.\n",
            "integrations.yml": INTEGRATIONS,
            "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
            "responses.yml": "responses:\n  utter_anything_else:\n    - text: Anything else?\n",
            "skills/statement/skill.md": STATEMENT_SKILL,
        },
    )
    report = generate_offline(root, ["statement"], tmp_path)
    texts = [Path(r["path"]).read_text("utf-8") for r in report["cases"]]
    assert texts, report["dropped"]
    assert any("which month you want to go over: October" in t for t in texts)
