"""A flag a tool computes (from today's date) and a `next` branches on: the planner and the
reference agent take the branch that reaches the skill's goal on the happy path, and the
case for the other branch (the negative account) takes it.

Before: both guessed the flag true, so the "happy path" took the sad branch (`lapsed`,
`next: END`), and the reference agent then played the skipped read-back from the prose and
still renewed: the case asserted both `utter_permit_lapsed` and `utter_permit_renewed`,
which no real agent can produce.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from evalcore.definitions import load_project
from evalcore.definitions.skill_model import branch_values

SKILL = """\
---
name: Renew a parking permit
description: Renewing a resident parking permit, "renew my parking permit".
tool_constraints:
  - renew_permit:
      requires: session.renew_permit.details_ok
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_renewal
        utter_on_user_denial: utter_renewal_not_sent
      on_success: utter_permit_renewed
---

Renew the caller's permit. Run @block.renewal.

When details_ok is true, call renew_permit with the permit number and the delivery.

:::ordered_block id=renewal
steps:
  - id: ask_permit
    collect: permit_number
    utterance: utter_ask_permit_number
    description: The six-digit permit number.
  - id: check
    execute_tool: check_permit
    parameters:
      permit_number: session.renew_permit.permit_number
    next:
      - if: session.renew_permit.lapsed
        then: lapsed
      - else: how
  - id: lapsed
    action: utter_permit_lapsed
    next: END
  - id: how
    collect: delivery
    utterance: utter_ask_delivery
    description: mail or email.
  - id: read_back
    instructions: |
      Read back the permit number and the delivery. Set details_ok to true when they
      confirm.
    complete_when: session.renew_permit.details_ok
  - id: END
:::
"""

TOOLS = '''\
from datetime import date

from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Check whether a permit can still be renewed.")
async def check_permit(permit_number: str, context: ToolContext = None):
    """Look the permit up.

    Args:
        permit_number: Six digits.
    """
    expires = date(2026, 6, 1)
    context.memory.set("lapsed", date.today() > expires)
    return {"found": True}


@tool(description="Renew the permit.")
async def renew_permit(permit_number: str, delivery: str, context: ToolContext = None):
    """Renew it for a year.

    Args:
        permit_number: Six digits.
        delivery: mail or email.
    """
    return {"renewed": True}
'''

RESPONSES = """\
responses:
  utter_ask_permit_number:
    - text: What is your permit number?
  utter_permit_lapsed:
    - text: That permit lapsed too long ago to renew; you need a new application.
  utter_ask_delivery:
    - text: Should we send the renewed permit by mail or by email?
    - buttons:
        - title: Mail
          payload: mail
        - title: Email
          payload: email
  utter_confirm_renewal:
    - text: Shall I renew the permit now?
  utter_renewal_not_sent:
    - text: Alright, I have not renewed it.
  utter_permit_renewed:
    - text: Your permit is renewed.
"""

MEMORY = """\
schema:
  public:
    permit_number:
      type: text
    lapsed:
      type: bool
    delivery:
      type: categorical
      enum_values: [mail, email]
    details_ok:
      type: bool
"""

FILES = {
    "agent.yml": "name: City permits\npersona: You help residents with permits.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "responses.yml": "responses:\n  utter_anything_else:\n    - text: Anything else?\n",
    "skills/renew_permit/skill.md": SKILL,
    "skills/renew_permit/tools.py": TOOLS,
    "skills/renew_permit/memory.yml": MEMORY,
    "skills/renew_permit/responses.yml": RESPONSES,
}


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    root = write_project(tmp_path_factory.mktemp("permits"), FILES)
    out = tmp_path_factory.mktemp("out")
    report = generate_offline(root, ["renew_permit"], out)
    return root, report


def _utters(path: Path) -> tuple[set[str], set[str]]:
    goals = yaml.safe_load(path.read_text("utf-8"))["scenario"]["goals"]
    said = {a["bot_uttered"]["utter_name"] for a in goals["assertions"] if "bot_uttered" in a}
    unsaid = {
        a["bot_did_not_utter"]["utter_name"]
        for a in goals["assertions"]
        if "bot_did_not_utter" in a
    }
    return said, unsaid


def test_the_flag_takes_the_value_of_the_branch_that_reaches_the_goal(generated) -> None:
    root, _ = generated
    assert branch_values(load_project(root), "renew_permit") == {"renew_permit.lapsed": False}


def test_no_case_asserts_responses_of_both_branches(generated) -> None:
    _, report = generated
    for row in report["cases"]:
        said, _ = _utters(Path(row["path"]))
        assert not {"utter_permit_lapsed", "utter_ask_delivery"} <= said, row["path"]
        assert not {"utter_permit_lapsed", "utter_permit_renewed"} <= said, row["path"]


def test_the_happy_path_asks_the_delivery_and_passes_the_reference_agent(
    generated, run_cli_json, tmp_path: Path
) -> None:
    root, report = generated
    happy = [r for r in report["cases"] if r["type"] == "happy_path"]
    assert happy
    for row in happy:
        said, _ = _utters(Path(row["path"]))
        assert "utter_permit_lapsed" not in said
        assert "utter_permit_renewed" in said
        assert row["verified"] == "yes"
    code, summary = run_cli_json(
        "run", happy[0]["path"], "--target", f"mantle:{root}", "--results", tmp_path / "res"
    )
    assert code == 0, summary
    transcript = next((tmp_path / "res").rglob("run_1.txt")).read_text("utf-8")
    assert "overall_result: PASS" in transcript
    assert "by mail or by email" in transcript  # the fulfilment question was asked
    assert "lapsed too long ago" not in transcript


def test_the_other_branch_is_a_negative_case_that_ends_there(generated) -> None:
    _, report = generated
    sad = [r for r in report["cases"] if r["behavior"] == "renew_permit:lapsed"]
    assert len(sad) == 1 and sad[0]["verified"] in ("yes", "repaired")
    text = Path(sad[0]["path"]).read_text("utf-8")
    said, _ = _utters(Path(sad[0]["path"]))
    assert "utter_permit_lapsed" in said and "utter_permit_renewed" not in said
    assert "+15550161" in text  # the case states the account whose check comes back negative


VISITOR_SKILL = SKILL.replace(
    """  - id: ask_permit
""",
    """  - id: holder
    collect: holder
    utterance: utter_ask_holder
    description: resident or visitor.
    next:
      - if: session.renew_permit.holder == "visitor"
        then: visitor
      - else: ask_permit
  - id: visitor
    action: utter_visitor_elsewhere
    next: END
  - id: ask_permit
""",
)


def test_a_branch_that_ends_the_block_is_not_followed_by_its_later_steps(
    tmp_path: Path,
) -> None:
    from evalcore.agents import UserTurn
    from evalcore.agents.reference import ReferenceTarget

    files = dict(FILES)
    files["skills/renew_permit/skill.md"] = VISITOR_SKILL
    files["skills/renew_permit/memory.yml"] = MEMORY + (
        "    holder:\n      type: categorical\n      enum_values: [resident, visitor]\n"
    )
    files["skills/renew_permit/responses.yml"] = RESPONSES + (
        "  utter_ask_holder:\n    - text: Is this a resident or a visitor permit?\n"
        "  utter_visitor_elsewhere:\n    - text: Visitor permits are renewed online.\n"
    )
    root = write_project(tmp_path / "permits", files)

    async def run() -> list[dict[str, Any]]:
        session = await ReferenceTarget(root).open({"slug": "t"}, 1)
        slots = {"initial_slots": {"project.caller_phone": "+15550142"}}
        await session.send(UserTurn(type="start", setup=slots))
        for line in ["I'd like to renew my parking permit", "visitor", "yes", "yes"]:
            await session.send(UserTurn(type="text", text=line))
        final = await session.close()
        return list(final.events or [])

    events = asyncio.run(run())
    said = [(e.get("metadata") or {}).get("utter_action") for e in events if e["event"] == "bot"]
    ran = [e["tool_name"] for e in events if e["event"] == "tool_executed"]
    assert "utter_visitor_elsewhere" in said
    # the read-back and the gated renewal belong to steps the END left out
    assert "utter_confirm_renewal" not in said and "renew_permit" not in ran
    assert not any(e["event"] == "memory_set" and e["key"].endswith("details_ok") for e in events)
