"""The reference agent plays the case kinds a correct agent passes, on a small library
project written here: a vague answer is asked again, an aside turns to another skill (or a
person) by its words and the skill resumes, an unrelated question gets the cannot-help
response, the failing account fails a tool with an `on_failure`, and the negative account's
check withholds the id its branch tests."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from evalcore.agents import UserTurn
from evalcore.agents.reference import ReferenceTarget

RENEW = """\
---
name: Renew a book
description: Renew a borrowed library book for another three weeks.
tool_constraints:
  - renew_loan:
      on_success: utter_renewed
      on_failure: utter_renew_failed
---

Run @block.renew.

:::ordered_block id=renew
steps:
  - id: pick
    instructions: Ask whether it is the hardback or the paperback copy (set copy_type).
    complete_when: session.renew_book.copy_type
  - id: check
    execute_tool: check_renewable
    next:
      - if: session.renew_book.renewal_token
        then: renew
      - else: refuse
  - id: renew
    execute_tool: renew_loan
    parameters:
      copy_type: session.renew_book.copy_type
    next: END
  - id: refuse
    action: utter_cannot_renew
    next: END
  - id: END
:::
"""

RENEW_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Can the loan be renewed?")
async def check_renewable(context: ToolContext = None):
    """Ask the catalogue whether the loan can be renewed."""
    context.memory.set("renewal_token", "T-1")
    return {"renewal_token": "T-1"}


@tool(description="Renew the loan.")
async def renew_loan(copy_type: str, context: ToolContext = None):
    """Renew the loan for three weeks."""
    return {"due": "in three weeks"}
'''

HOURS = """\
---
name: Opening hours
description: When the library branch opens and closes, its hours today.
---

Tell the member the branch's hours for today.
"""

LIBRARIAN = """\
---
name: Talk to a librarian
description: Hand the conversation to a human librarian on the desk.
---

:::ordered_block id=handoff
steps:
  - id: transfer
    execute_tool: transfer_to_agent
:::
"""

LIBRARIAN_TOOLS = """\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Transfer to a person.")
async def transfer_to_agent(context: ToolContext = None):
    context.memory.set("transferred", True)
"""

FILES = {
    "agent.yml": "name: Library desk\npersona: You help library members.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "responses.yml": (
        "responses:\n  utter_cannot_help:\n    - text: Sorry, I can't help with that.\n"
        "  utter_anything_else:\n    - text: Anything else?\n"
    ),
    "skills/renew_book/skill.md": RENEW,
    "skills/renew_book/tools.py": RENEW_TOOLS,
    "skills/renew_book/memory.yml": (
        "schema:\n  public:\n"
        "    copy_type:\n      type: categorical\n      enum_values: [hardback, paperback]\n"
        "    renewal_token:\n      type: text\n"
    ),
    "skills/renew_book/responses.yml": (
        "responses:\n"
        "  utter_renewed:\n    - text: Renewed for three weeks.\n"
        "  utter_renew_failed:\n    - text: The renewal did not go through.\n"
        "  utter_cannot_renew:\n    - text: This loan cannot be renewed.\n"
    ),
    "skills/opening_hours/skill.md": HOURS,
    "skills/librarian/skill.md": LIBRARIAN,
    "skills/librarian/tools.py": LIBRARIAN_TOOLS,
    "skills/librarian/memory.yml": "schema:\n  public:\n    transferred:\n      type: bool\n",
}

FAILING, NEGATIVE, ORDINARY = "+15550150", "+15550161", "+15550142"


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("library"), FILES)


def play(root: Path, lines: list[str], phone: str = ORDINARY) -> tuple[list[dict], list[str]]:
    async def run() -> tuple[list[dict[str, Any]], list[str]]:
        session = await ReferenceTarget(root).open({"slug": "t"}, 1)
        slots = {"initial_slots": {"project.caller_phone": phone}}
        await session.send(UserTurn(type="start", setup=slots))
        for line in lines:
            await session.send(UserTurn(type="text", text=line))
        final = await session.close()
        return list(final.events or []), list(final.meta.get("notes") or [])

    return asyncio.run(run())


def said(events: list[dict]) -> list[str]:
    return [e.get("text") or "" for e in events if e["event"] == "bot"]


def utters(events: list[dict]) -> list[str]:
    return [
        (e.get("metadata") or {}).get("utter_action") or "" for e in events if e["event"] == "bot"
    ]


def memory(events: list[dict]) -> dict[str, Any]:
    return {e["key"]: e["value"] for e in events if e["event"] == "memory_set"}


def skills(events: list[dict], event: str) -> list[str]:
    return [e["skill_id"] for e in events if e["event"] == event]


def tools(events: list[dict]) -> list[tuple[str, bool]]:
    return [(e["tool_name"], e["is_error"]) for e in events if e["event"] == "tool_executed"]


OPEN = "I'd like to renew a library book"


def test_a_vague_choice_is_asked_again_and_the_run_says_so(library: Path):
    events, notes = play(
        library, [OPEN, "It's either hardback or paperback, not sure.", "paperback"]
    )
    assert sum("hardback or the paperback" in t for t in said(events)) == 2
    assert any(t.startswith("Sorry, I need to be sure.") for t in said(events))
    assert memory(events)["renew_book.copy_type"] == "paperback"
    assert any("does not say which" in n for n in notes)
    assert ("renew_loan", False) in tools(events)


def test_an_aside_digresses_by_the_other_skills_words_and_resumes(library: Path):
    events, _ = play(library, [OPEN, "Before that, your hours?", "hardback"])
    assert skills(events, "skill_interrupted") == ["renew_book"]
    assert "opening_hours" in skills(events, "skill_completed")
    assert skills(events, "skill_resumed") == ["renew_book"]
    assert memory(events)["renew_book.copy_type"] == "hardback"
    # without the aside, the same words at the question are not a request for the skill
    plain, _ = play(library, [OPEN, "hours?"])
    assert "opening_hours" not in skills(plain, "skill_activated")


def test_an_aside_asking_for_the_hand_off_skill_escalates(library: Path):
    events, _ = play(library, [OPEN, "Actually, can a librarian on the desk help me?"])
    assert skills(events, "skill_interrupted") == ["renew_book"]
    assert ("transfer_to_agent", False) in tools(events)


def test_an_answer_that_starts_with_an_aside_word_still_answers(library: Path):
    events, _ = play(library, [OPEN, "Actually, the paperback"])
    assert memory(events)["renew_book.copy_type"] == "paperback"
    assert "skill_interrupted" not in [e["event"] for e in events]


@pytest.mark.parametrize(
    "line",
    [
        "Quick question: what's the weather going to be like tomorrow?",
        "By the way, can you recommend a good film for tonight?",
    ],
)
def test_an_unrelated_question_gets_cannot_help_mid_skill_and_at_the_start(
    library: Path, line: str
):
    events, _ = play(library, [OPEN, line, "hardback"])
    assert "utter_cannot_help" in utters(events)
    assert skills(events, "skill_activated") == ["renew_book"]
    assert memory(events)["renew_book.copy_type"] == "hardback"
    idle, _ = play(library, [line])
    assert skills(idle, "skill_activated") == []
    assert utters(idle) == ["utter_cannot_help"]


def test_the_failing_account_fails_a_tool_that_has_an_on_failure(library: Path):
    events, _ = play(library, [OPEN, "hardback"], phone=FAILING)
    assert ("renew_loan", True) in tools(events)
    assert "utter_renew_failed" in utters(events)
    assert "utter_renewed" not in utters(events)
    ordinary, _ = play(library, [OPEN, "hardback"])
    assert ("renew_loan", False) in tools(ordinary)


def test_the_negative_account_withholds_the_id_its_branch_tests(library: Path):
    events, _ = play(library, [OPEN, "hardback"], phone=NEGATIVE)
    assert "renew_book.renewal_token" not in memory(events)
    assert "utter_cannot_renew" in utters(events)
    assert "renew_loan" not in [name for name, _ in tools(events)]


def test_a_doubt_the_skill_model_recorded_is_said_in_the_run(library: Path):
    events, notes = play(library, ["When does the library branch open today?"])
    assert "opening_hours" in skills(events, "skill_completed")
    # no complete_when: the run decided the skill was done, and its notes say so
    assert any("completion" in n and "complete_when" in n for n in notes)
