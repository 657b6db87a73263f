"""A failure case only where a real run fails, and named for what happens there.

A lookup whose error branch writes a status the skill's prose branches on (`if:
ticket_state == "missing"`: "Say you could not find that ticket and ask them to confirm
it") is a defined outcome: its case is named by the code's error (`ticket_not_found`),
asserts the status the error branch writes, takes its criteria from that paragraph (not
"did not go through", not "never calls it again": a confirmed number calls it again), and
tells the user to repeat the number once when asked to confirm. A date is never the failing
input: a date parser takes any well-formed date, so `02/04/0150` fails no real tool."""

from __future__ import annotations

import asyncio
from pathlib import Path

import yaml
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.mutate import mutate
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.dialects.mantle._justify import judge_case
from evalcore.runner import collect_cases
from evalcore.testdata._accounts import account_of, account_value

SKILL = """\
---
name: Ticket status
description: >
  Look up a support ticket by its number: "where is my ticket TK-2041?".
tool_constraints:
  - find_ticket:
      requires: session.ticket_status.ticket_number
---

Help the customer with a ticket. Do not invent ticket numbers.

if: not session.ticket_status.ticket_number
Ask for the ticket number and set `ticket_number`.

if: session.ticket_status.ticket_number
Call find_ticket with that ticket number.

if: session.ticket_status.ticket_state == "open"
Say the ticket is open and an engineer is on it.

if: session.ticket_status.ticket_state == "missing"
Say you could not find that ticket number and ask them to confirm it.
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool

TICKETS = {"TK-2041": "open"}


@tool(description="Look up a ticket by number.")
async def find_ticket(ticket_number: str, context: ToolContext = None):
    """Look up a ticket.

    Args:
        ticket_number: The ticket id, TK- and four digits.
    """
    state = TICKETS.get(ticket_number.strip().upper())
    if not state:
        context.memory.set("ticket_state", "missing")
        return {"ok": False, "error": "ticket_not_found"}
    context.memory.set("ticket_state", state)
    context.memory.set("engineer", "Ana")
    return {"ok": True, "state": state}
'''

MEMORY = """\
schema:
  public:
    ticket_number:
      type: text
      description: Ticket id, TK- and four digits (TK-2041).
      llm_settable: true
    ticket_state:
      type: text
    engineer:
      type: text
"""


def _project(root: Path) -> Path:
    return write_project(
        root,
        {
            "agent.yml": "name: Desk\npersona: You help customers.\n",
            "integrations.yml": INTEGRATIONS,
            "memory.yml": "caller_name:\n  type: text\n  description: Name of the caller.\n",
            "responses.yml": (
                "responses:\n  utter_anything_else:\n    - text: Anything else?\n"
                "  utter_goodbye:\n    - text: Goodbye!\n"
            ),
            "skills/ticket_status/skill.md": SKILL,
            "skills/ticket_status/tools.py": TOOLS,
            "skills/ticket_status/memory.yml": MEMORY,
        },
    )


def test_a_not_found_result_the_prose_branches_on_is_its_own_case(tmp_path: Path) -> None:
    root = _project(tmp_path / "desk")
    project = load_project(root)
    behaviors = plan_source(project, "mantle", "ticket_status", None).behaviors
    found = [b for b in behaviors if b.facts.get("kind") == "failure"]
    assert [b.case for b in found] == ["find_ticket_ticket_not_found"]
    assert "fails" not in found[0].title
    data = draft_mantle(DraftContext(project, "mantle", found[0]))
    scenario = data["scenario"]
    goals = scenario["goals"]
    criteria = " | ".join(goals["criteria"])
    assert "could not find that ticket number and ask them to confirm it" in criteria
    assert "went through" not in criteria and "again" not in criteria
    written = [a["memory_was_set"] for a in goals["assertions"] if "memory_was_set" in a]
    assert {"name": "ticket_status.ticket_state", "value": "missing"} in [
        item for items in written for item in items
    ]
    unset = [a["memory_was_not_set"] for a in goals["assertions"] if "memory_was_not_set" in a]
    assert {"name": "ticket_status.engineer"} in [i for items in unset for i in items]
    runs = [a["tool_executed"] for a in goals["assertions"] if "tool_executed" in a]
    numbers = [r["arguments"]["ticket_number"] for r in runs if "arguments" in r]
    context = scenario["simulation_context"]
    told = [line for line in context.splitlines() if "confirm the ticket number" in line]
    assert len(told) == 1 and "once more" in told[0]
    assert all(n in told[0] for n in numbers)
    assert "ticket number" in scenario["name"]
    # the status is justified by the not-found branch's write, not the found branch's
    at = next(i for i, a in enumerate(goals["assertions"]) if "memory_was_set" in a)
    judged = {j.path: j for j in judge_case(data, project)}
    cited = judged[f"/scenario/goals/assertions/{at}"].justification
    assert cited is not None and cited.file == "skills/ticket_status/tools.py"
    assert TOOLS.splitlines()[cited.line - 1].strip() == (
        'context.memory.set("ticket_state", "missing")'
    )
    # the reference agent plays it as written
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "case.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    cases = collect_cases([folder], project=root)
    report = asyncio.run(mutate(cases, root, concurrency=1, only=[]))
    assert set(report.reference.values()) == {"passed"}, report.reference


def test_a_date_never_carries_the_failing_account() -> None:
    for date in ("02/04/2026", "2026-02-04", "04.02.2026"):
        assert account_value(date, "failing") == date
        assert account_value(date, "failing", widen=True) == date
    assert account_of({"02/04/0150"}) is None  # still a date a parser accepts
    assert account_value("CLAIM1236", "failing") == "CLAIM0150"
