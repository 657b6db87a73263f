"""A flag whose yes makes the skill say an `utter: when:` aside (an emergency warning that
tells the caller to hang up) is answered no on every case not about it, so the user never
leaves the main path; one edge case answers yes, asserts the aside and the flag, and tells
the user to carry on after hearing it."""

from __future__ import annotations

from pathlib import Path

import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import behavior_setup, plan_mantle
from agentflows.planning._mantle_walk import walk_skill
from evalcore.definitions import load_project

SKILL = """\
---
name: Report a leak
description: Tenants reporting a water leak in their flat.
tool_constraints:
  - open_ticket:
      requires: session.leak.details_verified
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_ticket
        utter_on_user_denial: utter_no_ticket
utter:
  - utter_danger_first:
      when: session.leak.someone_hurt
---

Run @block.details, then call @tool.open_ticket.

Never promise a date for the repair: the plumber's office sets it.

:::ordered_block id=details
complete_when: session.leak.details_verified
steps:
  - id: where
    collect: room
    utterance: utter_ask_room
    description: The room where the water comes in.
  - id: hurt
    collect: someone_hurt
    utterance: utter_ask_hurt
    description: True if anyone was hurt.
  - id: confirm
    instructions: |
      Read back the room and ask whether that is right. When they confirm, set
      details_verified to true.
    complete_when: session.leak.details_verified
:::
"""

TOOLS = """\
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Open a repair ticket.")
async def open_ticket(room: str, context: ToolContext = None) -> ToolResult:
    context.memory.set("ticket_id", "T-1")
    return ToolResult(llm_response={"ticket_id": "T-1"})
"""

FILES = {
    "agent.yml": "name: Oak flats\npersona: You help tenants with repairs.\n",
    "integrations.yml": INTEGRATIONS,
    "responses.yml": (
        "responses:\n"
        "  utter_ask_room:\n    - text: Which room is it?\n"
        "  utter_ask_hurt:\n    - text: Was anyone hurt?\n"
        "  utter_confirm_ticket:\n    - text: Shall I open the repair ticket?\n"
        "  utter_no_ticket:\n    - text: No ticket was opened.\n"
        "  utter_danger_first:\n"
        "    - text: If anyone is in danger, hang up and call 911 first. I'll wait.\n"
    ),
    "skills/leak/skill.md": SKILL,
    "skills/leak/tools.py": TOOLS,
    "skills/leak/memory.yml": (
        "schema:\n  public:\n"
        "    room:\n      type: text\n      description: The room.\n      llm_settable: true\n"
        "    someone_hurt:\n      type: bool\n      description: Anyone hurt.\n"
        "      llm_settable: true\n"
        "    details_verified:\n      type: bool\n      description: Confirmed.\n"
        "      llm_settable: true\n"
        "    ticket_id:\n      type: text\n"
    ),
}


def _cases(tmp_path: Path) -> dict[str, dict]:
    root = write_project(tmp_path / "p", FILES)
    report = generate_offline(root, ["leak"], tmp_path / "out")
    return {
        c["behavior"]: yaml.safe_load(Path(c["path"]).read_text(encoding="utf-8"))["scenario"]
        for c in report["cases"]
    }


def test_only_the_aside_case_answers_yes_to_the_flag(tmp_path: Path) -> None:
    cases = _cases(tmp_path)
    aside = cases.pop("leak:someone_hurt_aside")
    said = [
        (check.get("bot_uttered") or {}).get("utter_name") for check in aside["goals"]["assertions"]
    ]
    assert "utter_danger_first" in said
    written = [
        item
        for check in aside["goals"]["assertions"]
        for item in check.get("memory_was_set") or []
        if isinstance(item, dict)
    ]
    assert {"name": "leak.someone_hurt", "value": True} in written
    context = aside["simulation_context"]
    assert "- was anyone hurt: yes" in context.lower()
    assert "When the agent says 'If anyone is in danger, hang up and call 911 first…'" in context
    assert cases
    for scenario in cases.values():  # every other case keeps to the main path
        assert "utter_danger_first" not in str(scenario["goals"].get("assertions"))
        assert "- was anyone hurt: yes" not in scenario["simulation_context"].lower()


def test_a_push_against_a_rule_comes_at_the_question_before_the_action(tmp_path: Path) -> None:
    # "never promise a date for the repair" is about the ticket: pushed at the read-back,
    # once the details exist, not at the first question where no agent could tell anyway
    project = load_project(write_project(tmp_path / "p", FILES))
    plan = {b.case: b for b in plan_mantle(project, "leak", None).behaviors}
    facts = plan["adversarial"].facts
    walk = walk_skill(project, "leak", behavior_setup(facts, {}))
    confirm = next(i for i, a in enumerate(walk.asks) if a.kind == "confirm")
    assert facts["at"] == confirm - 1 > 0, (facts["at"], walk.asks)


HANDOFF = """\
---
name: Talk to a person
description: >
  Hand-off to a person on the repairs team: "can I talk to a person", "get me a human".
tool_constraints:
  - book_callback:
      requires: session.handoff.window
      on_success: utter_callback_booked
---

Connect the tenant with a person on the repairs team. Ask which window suits them
(morning or afternoon) and set window, then call @tool.book_callback.
"""

HANDOFF_TOOLS = """\
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Book a callback.")
async def book_callback(window: str, context: ToolContext = None) -> ToolResult:
    context.memory.set("callback_id", "CB-1")
    return ToolResult(llm_response={"callback_id": "CB-1"})
"""


def test_a_skill_that_hands_over_after_its_work_allows_one_suggestion_to_finish(
    tmp_path: Path,
) -> None:
    # "offer @skill.handoff after the ticket is opened": a correct agent may suggest once
    # to finish first, so the criterion allows it and the user insists
    files = dict(FILES)
    files["skills/leak/skill.md"] = SKILL.replace(
        "Never promise",
        "If they ask to speak to someone, offer @skill.handoff after the ticket is opened.\n\n"
        "Never promise",
    )
    files["skills/handoff/skill.md"] = HANDOFF
    files["skills/handoff/tools.py"] = HANDOFF_TOOLS
    files["skills/handoff/memory.yml"] = (
        "schema:\n  public:\n    window:\n      type: categorical\n"
        "      enum_values: [morning, afternoon]\n      description: Callback window.\n"
        "      llm_settable: true\n    callback_id:\n      type: text\n"
    )
    files["responses.yml"] = FILES["responses.yml"] + (
        "  utter_callback_booked:\n    - text: Booked.\n"
    )
    project = load_project(write_project(tmp_path / "p", files))
    plan = {b.case: b for b in plan_mantle(project, "leak", None).behaviors}
    assert "escalation" in plan, sorted(plan)
    data = draft_mantle(DraftContext(project, "mantle", plan["escalation"]))["scenario"]
    criteria = " ".join(data["goals"]["criteria"])
    assert "may suggest once finishing the current request first" in criteria, criteria
    assert "talk the tenant out of" not in criteria, criteria
    assert "ask for a person again" in data["simulation_context"]
