"""A detour never goes to a skill that first runs the skill it interrupts, or a sign-in
still to come: the agent would carry on with (or nest) that skill rather than park the one
the customer is in, so neither the interruption nor the resume is determined.

Before: the identity check's detour went to filing a claim, whose prose runs the identity
check first; the order-status skill, which also verifies first, was picked for the patient
check's detour.
"""

from __future__ import annotations

from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.planning import plan_source
from evalcore.definitions import load_project, runs_first

VERIFY = """\
---
name: Verify the member
description: Identity check before anything that reads an account. Other skills call it.
import_tools:
  - verify_member
---

If @memory.project.authenticated is already true, there is nothing to do here. Otherwise
run @block.identity.

:::ordered_block id=identity
steps:
  - id: ask_member_number
    collect: member_number
    utterance: utter_ask_member_number
    description: The member number on the card, like M-20417.
  - id: check
    execute_tool: verify_member
    parameters:
      member_number: session.verify_member.member_number
  - id: done
    action: utter_verified
:::
"""

ORDERS = """\
---
name: Order status
description: Where an order is, "is my order on its way", "where is my parcel".
import_tools:
  - order_status
---

If @memory.project.authenticated is not true, run @skill.verify_member first. Then call
@tool.order_status and say where the order is. Ask whether they want a text when it
arrives and set notify.
"""

ORDERS_GATED = """\
---
name: Order status
description: Where an order is, "is my order on its way", "where is my parcel".
import_tools:
  - order_status
---

Call @tool.order_status and say where the order is. Ask whether they want a text when it
arrives and set notify.
"""

RETURNS = """\
---
name: Return an item
description: Send something back, "I want to return my shoes", "return an order".
import_tools:
  - start_return
---

If @memory.project.authenticated is not true, run @skill.verify_member first.

:::ordered_block id=details
steps:
  - id: ask_item
    collect: item
    utterance: utter_ask_item
    description: The item to send back, as on the receipt.
  - id: ask_reason
    collect: reason
    utterance: utter_ask_reason
    description: Why it goes back, in a few words.
  - id: send
    execute_tool: start_return
    parameters:
      item: session.return_item.item
:::
"""

TOOLS = """\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Check the member number.")
async def verify_member(member_number: str, context: ToolContext = None):
    if member_number == "M-20417":
        context.memory.set("project.authenticated", True)
    return {"ok": member_number == "M-20417"}


@tool(description="Where the member's order is.")
async def order_status(context: ToolContext = None):
    return {"status": "shipped"}


@tool(description="Start a return.")
async def start_return(item: str, context: ToolContext = None):
    return {"return_id": "R-1"}
"""

MEMORY = """\
authenticated:
  type: bool
caller_phone:
  type: text
  seed: true
"""


def _project(tmp_path: Path, orders: str | None = ORDERS) -> Path:
    root = write_project(
        tmp_path / "shop",
        {
            "agent.yml": "name: Shop desk\npersona: You help members.\n",
            "integrations.yml": INTEGRATIONS,
            "memory.yml": MEMORY,
            "tools/shop.py": TOOLS,
            "skills/verify_member/skill.md": VERIFY,
            "skills/verify_member/memory.yml": (
                "schema:\n  public:\n    member_number: {type: text}\n"
            ),
            "skills/order_status/skill.md": orders or ORDERS,
            "skills/order_status/memory.yml": "schema:\n  public:\n    notify: {type: bool}\n",
            "skills/return_item/skill.md": RETURNS,
            "skills/return_item/memory.yml": (
                "schema:\n  public:\n    item: {type: text}\n    reason: {type: text}\n"
            ),
        },
    )
    if orders is None:
        for path in sorted((root / "skills" / "order_status").iterdir()):
            path.unlink()
        (root / "skills" / "order_status").rmdir()
    return root


def _detour(root: Path, skill: str) -> str | None:
    project = load_project(root)
    for behavior in plan_source(project, "mantle", skill, None).behaviors:
        if behavior.facts.get("kind") == "digression":
            return str(behavior.facts["digression"]["skill"])
    return None


def test_the_skills_a_skill_runs_first_come_from_its_prose(tmp_path) -> None:
    project = load_project(_project(tmp_path))
    assert project.mantle is not None
    skills = project.mantle.skills
    assert runs_first(project, skills["order_status"]) == {"verify_member"}
    assert runs_first(project, skills["verify_member"]) == frozenset()


def test_no_detour_to_a_skill_that_runs_the_interrupted_one_first(tmp_path) -> None:
    # both other skills verify first: the identity check has no determined detour
    assert _detour(_project(tmp_path), "verify_member") is None


def test_a_detour_to_a_skill_that_needs_nothing_first_stays(tmp_path) -> None:
    # the same project, where order status does not verify: the identity check detours there
    assert _detour(_project(tmp_path, ORDERS_GATED), "verify_member") == "order_status"


def test_a_detour_whose_prerequisite_is_met_where_it_is_asked_stays(tmp_path) -> None:
    # the return has verified the member before its first own question: order status,
    # which verifies first too, has nothing left to run first there
    assert _detour(_project(tmp_path), "return_item") == "order_status"


SIGNED_IN = """\
agent:
  name: Shop desk
  persona: You help members.
orchestrator:
  preconditions:
    member_signed_in:
      satisfied_when: session.project.authenticated
      resolve_with: verify_member
"""


def test_no_detour_to_the_sign_in_the_interrupted_skill_waits_on(tmp_path) -> None:
    # the return opens only once the member is signed in (its precondition): asking for the
    # identity check again at its first question starts nothing to come back from
    root = _project(tmp_path, None)
    path = root / "skills" / "return_item" / "skill.md"
    text = path.read_text().replace(
        "If @memory.project.authenticated is not true, run @skill.verify_member first.\n",
        "Take the item back.\n",
    )
    path.write_text(
        text.replace("  - start_return\n", "  - start_return\nprecondition: member_signed_in\n")
    )
    (root / "agent.yml").write_text(SIGNED_IN)
    project = load_project(root)
    assert project.mantle is not None
    assert runs_first(project, project.mantle.skills["return_item"]) == {"verify_member"}
    assert _detour(root, "return_item") is None


CANCEL = """\
---
name: Cancel an order
description: Stop an order before it ships, "cancel my order", "I don't want it any more".
tool_constraints:
  - cancel_order:
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_cancel
        utter_on_user_denial: utter_not_cancelled
---

Call @tool.cancel_order for the member's open order.
"""

CANCEL_TOOLS = """\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Cancel the member's open order.")
async def cancel_order(context: ToolContext = None):
    return {"cancelled": True}
"""


def test_no_detour_at_a_gated_tools_confirmation(tmp_path) -> None:
    # the skill's only wait is the confirmation of its gated tool: while that is pending
    # the runtime holds the skill on it, so no interruption is determined there
    root = _project(tmp_path, ORDERS_GATED)
    write_project(
        root,
        {
            "skills/cancel_order/skill.md": CANCEL,
            "skills/cancel_order/tools.py": CANCEL_TOOLS,
            "responses.yml": (
                "responses:\n"
                "  utter_confirm_cancel:\n    - text: Cancel your open order?\n"
                "  utter_not_cancelled:\n    - text: Your order stays as it is.\n"
            ),
        },
    )
    assert _detour(root, "cancel_order") is None
