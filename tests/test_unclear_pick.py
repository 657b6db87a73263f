"""An answer that names two of a choice's values fills nothing, also where the step sets
the choice from a record the user picks off a listed result: the reference agent asks
again instead of taking the record the words happen to match best (a correct agent must
not guess), so a planned ambiguity case verifies."""

from __future__ import annotations

import json
from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, play_lines, write_project

STATEMENT = {
    "agent.yml": "name: Savings desk\npersona: You help members with their accounts.\n",
    "integrations.yml": INTEGRATIONS,
    "data/accounts.json": json.dumps(
        [
            {"account_kind": "Checking", "account_num": "40012345"},
            {"account_kind": "Savings", "account_num": "40098765"},
        ]
    ),
    "skills/statement/skill.md": """\
---
name: Order statement
description: Order a paper statement for one of the member's accounts.
---

Run @block.pick_account.

:::ordered_block id=pick_account
steps:
  - id: fetch_accounts
    execute_tool: list_accounts
  - id: select_account
    instructions: |
      Show the member's accounts from the tool result (kind and number).
      Ask which account the statement is for. Set account_num to the account number
      and account_kind to Checking or Savings to match that account.
    complete_when: session.statement.account_num and session.statement.account_kind
:::
""",
    "skills/statement/memory.yml": """\
schema:
  public:
    account_num: {type: text, description: The account number picked.}
    account_kind:
      type: categorical
      enum_values: [Checking, Savings]
      description: The kind of account picked.
""",
    "skills/statement/tools.py": '''\
import json
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="List the member's accounts.")
async def list_accounts(context: ToolContext = None):
    """List the accounts in data/accounts.json."""
    return {"accounts": json.load(open("data/accounts.json"))}
''',
}


def _said_and_set(events: list[dict]) -> list[tuple[str, str]]:
    return [
        ("bot", str(e.get("text"))) if e["event"] == "bot" else ("set", f"{e['key']}={e['value']}")
        for e in events
        if e["event"] == "bot" or e["event"] == "memory_set"
    ]


def test_an_answer_naming_two_listed_choices_is_asked_again(tmp_path: Path) -> None:
    root = write_project(tmp_path / "desk", STATEMENT)
    lines = [
        "I'd like to order a paper statement",
        "It's either Checking or Savings, I'm not sure",
        "Savings",
    ]
    steps = _said_and_set(play_lines(root, lines))
    sets = [text for kind, text in steps if kind == "set"]
    # nothing is recorded from the unclear answer; the clear one picks the record
    assert sets == ["statement.account_num=40098765", "statement.account_kind=Savings"]
    asked = [text for kind, text in steps if kind == "bot"]
    assert len(asked) == 2 and asked[1].startswith("Sorry, I need to be sure.")


def test_a_correction_naming_two_values_still_picks_the_corrected_one(tmp_path: Path) -> None:
    root = write_project(tmp_path / "desk", STATEMENT)
    lines = ["I'd like to order a paper statement", "Checking, no sorry, I mean Savings"]
    sets = [t for k, t in _said_and_set(play_lines(root, lines)) if k == "set"]
    assert "statement.account_kind=Savings" in sets
