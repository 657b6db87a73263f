"""A check that comes back negative: the block's own retry steps run (the count a tool keeps
goes up on each try, so the loop ends where the definitions say), the drafted negative
path asserts them, and that kills the mutants of those steps. A choice an instructions
step sets beside what it waits for is read off the record the answer picks."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.mutate import mutate
from agentflows.planning import plan_source
from evalcore.agents import UserTurn
from evalcore.agents.reference import ReferenceTarget
from evalcore.definitions import load_project
from evalcore.runner import collect_cases

VERIFY = """\
---
name: Verify the member
description: Check the member's card number before anything else.
---

:::ordered_block id=check_identity
steps:
  - id: ask_card
    collect: card_number
    utterance: utter_ask_card
  - id: check
    execute_tool: check_member
    parameters:
      card_number: session.verify_member.card_number
    next:
      - if: session.project.verified
        then: ok
      - else: count_failure
  - id: count_failure
    execute_tool: count_failure
    next:
      - if: session.verify_member.failures >= 2
        then: give_up
      - else: mark_retry
  - id: mark_retry
    set_memory:
      retried: true
  - id: say_retry
    action: utter_retry
    next: check
  - id: give_up
    link: human_handoff
  - id: ok
    action: utter_verified
    next: END
  - id: END
:::
"""

VERIFY_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Check a member card number.")
async def check_member(card_number: str, context: ToolContext = None):
    """Look the card up."""
    context.memory.set("project.verified", True)
    return {"verified": True}


@tool(description="Count a failed check.")
async def count_failure(context: ToolContext = None):
    """One more failed try."""
    failures = int(context.memory.get("failures") or 0) + 1
    context.memory.set("failures", failures)
    return {"failures": failures}
'''

PICK = """\
---
name: Book a class
description: Book a fitness class for the member.
complete_when:
  condition: session.book_class.class_id
---

Run @block.pick.

:::ordered_block id=pick
steps:
  - id: choose
    instructions: |
      Ask which class they want by its code. Set class_code and level (beginner or
      advanced) from the one they pick.
    complete_when: session.book_class.class_code
:::
"""

HANDOFF = """\
---
name: Talk to a person
description: Hand the conversation to a human agent at the front desk.
---

Tell them a person will call back.
"""

FILES: dict[str, str] = {
    "agent.yml": "name: Gym\npersona: You help gym members.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": (
        "caller_phone:\n  type: text\n  seed: true\nverified:\n  type: bool\n  mutable: true\n"
    ),
    "responses.yml": (
        "responses:\n  utter_cannot_help:\n    - text: Sorry, I can't help with that.\n"
        "  utter_anything_else:\n    - text: Anything else?\n"
        "  utter_goodbye:\n    - text: Goodbye!\n"
    ),
    "skills/verify_member/skill.md": VERIFY,
    "skills/verify_member/tools.py": VERIFY_TOOLS,
    "skills/verify_member/memory.yml": (
        "schema:\n  public:\n"
        "    card_number:\n      type: text\n"
        "      description: The member card number, like GM-1042.\n"
        "    failures:\n      type: int\n      initial_value: 0\n"
        "    retried:\n      type: bool\n"
    ),
    "skills/verify_member/responses.yml": (
        "responses:\n"
        "  utter_ask_card:\n    - text: What is your member card number?\n"
        "  utter_retry:\n    - text: That did not match. Let's try again.\n"
        "  utter_verified:\n    - text: Thanks, you're verified.\n"
    ),
    "skills/book_class/skill.md": PICK,
    "skills/book_class/memory.yml": (
        "schema:\n  public:\n"
        "    class_code:\n      type: text\n      description: The class code, like YOGA-1.\n"
        "    level:\n      type: categorical\n      enum_values: [beginner, advanced]\n"
        "    class_id:\n      type: text\n"
    ),
    "skills/human_handoff/skill.md": HANDOFF,
    "data/classes.json": json.dumps(
        [
            {"code": "YOGA-1", "level": "beginner", "room": "A"},
            {"code": "SPIN-9", "level": "advanced", "room": "B"},
        ]
    ),
}


@pytest.fixture
def gym(tmp_path: Path) -> Path:
    return write_project(tmp_path / "gym", FILES)


def _play(root: Path, lines: list[str], slots: dict[str, Any]) -> list[dict[str, Any]]:
    async def go() -> list[dict[str, Any]]:
        setup = {"initial_slots": slots}
        session = await ReferenceTarget(root).open({"slug": "t", "setup": setup}, 1)
        await session.send(UserTurn(type="start", setup=setup))
        for line in lines:
            await session.send(UserTurn(type="text", text=line))
        final = await session.close()
        return list(final.events or [])

    return asyncio.run(go())


def test_a_count_the_tool_keeps_ends_the_retry_loop(gym: Path) -> None:
    events = _play(gym, ["Please verify me", "GM-1042"], {"project.caller_phone": "+15550161"})
    counts = [e["value"] for e in events if e.get("key") == "verify_member.failures"]
    checks = [e for e in events if e.get("tool_name") == "check_member"]
    assert counts == [1, 2]  # one more on each failed try, then the block gives up
    assert len(checks) == 2
    assert any(e["event"] == "skill_activated" and e["skill_id"] == "human_handoff" for e in events)


def test_the_negative_path_asserts_the_retry_steps_and_kills_their_mutants(
    gym: Path, tmp_path: Path
) -> None:
    project = load_project(gym)
    behaviors = plan_source(project, "mantle", "verify_member", None).behaviors
    negative = next(b for b in behaviors if b.facts.get("kind") == "negative")
    data = draft_mantle(DraftContext(project, "mantle", negative))
    checks = data["scenario"]["goals"]["assertions"]
    tools = {c["tool_executed"]["tool_name"] for c in checks if "tool_executed" in c}
    assert "count_failure" in tools
    assert {"bot_uttered": {"utter_name": "utter_retry"}} in checks
    assert {"skill_activated": {"skill_id": "human_handoff"}} in checks
    written = [i for c in checks for i in c.get("memory_was_set") or []]
    assert {"name": "verify_member.retried", "value": True} in written
    # the count is the tool's own: asserted as written, never as a value
    assert {"name": "verify_member.failures"} in written
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "negative.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    wanted = [
        "skip_step:verify_member.check_identity.count_failure",
        "skip_step:verify_member.check_identity.mark_retry",
        "skip_step:verify_member.check_identity.say_retry",
        "forget_memory:verify_member.retried",
        "forget_memory:verify_member.failures",
        "fail_silently:count_failure",
    ]
    report = asyncio.run(
        mutate(collect_cases([folder], project=gym), gym, concurrency=2, only=wanted)
    )
    assert set(report.reference.values()) == {"passed"}, report.reference
    assert [r.mutant.id for r in report.survivors()] == []


def test_a_choice_set_from_the_pick_is_read_off_the_record(gym: Path) -> None:
    events = _play(gym, ["I want to book a class", "SPIN-9"], {})
    written = {e["key"]: e["value"] for e in events if e["event"] == "memory_set"}
    assert written.get("book_class.class_code") == "SPIN-9"
    assert written.get("book_class.level") == "advanced"


def _reasons(root: Path, data: dict[str, Any], tmp: Path, only: list[str]):
    folder = tmp / "suite"
    folder.mkdir(parents=True)
    (folder / "case.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    cases = collect_cases([folder], project=root)
    report = asyncio.run(mutate(cases, root, concurrency=2, only=only))
    assert set(report.reference.values()) == {"passed"}, report.reference
    return {r.mutant.id: report.reason(r) for r in report.survivors()}


def test_each_survivor_gets_a_reason_from_the_definitions_and_the_runs(
    gym: Path, tmp_path: Path
) -> None:
    """A happy verification never reaches the retry steps (off_path, and needs_failure once
    the project seeds no caller phone for a negative account); a case asserting nothing
    about a step it reaches leaves that mutant unexplained, with where its run differs."""
    data = {
        "scenario": {
            "name": "verify",
            "simulation_context": (
                "You are a gym member. You want to verify your membership.\n"
                "What you know (share each only when the agent asks):\n"
                "- member card number: GM-1042\n"
            ),
            "goals": {"assertions": [{"skill_activated": {"skill_id": "verify_member"}}]},
        }
    }
    wanted = [
        "skip_step:verify_member.check_identity.mark_retry",
        "skip_step:verify_member.check_identity.ok",
    ]
    reasons = _reasons(gym, data, tmp_path / "a", wanted)
    assert reasons["skip_step:verify_member.check_identity.mark_retry"].code == "off_path"
    unexplained = reasons["skip_step:verify_member.check_identity.ok"]
    assert unexplained.code == "unexplained" and "utter_verified" in unexplained.text
    # the same project without a seeded phone: the negative branch needs an account it
    # cannot have
    (gym / "memory.yml").write_text("verified:\n  type: bool\n  mutable: true\n")
    reasons = _reasons(gym, data, tmp_path / "b", wanted[:1])
    assert reasons[wanted[0]].code == "needs_failure"
