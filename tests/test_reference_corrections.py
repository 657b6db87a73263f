"""A message that takes back an earlier answer corrects that answer, whatever is asked now:
"Sorry, I got that wrong. Scrub trousers." at the size question changes the item and asks
the size again; it is never taken as the size (a free-text field accepts any words). A
drafted correction said on the agent's next turn (a read-back) is heard there, and a value
written in digits is heard in words."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import yaml
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.mutate import mutate
from agentflows.planning import plan_source
from evalcore.agents import UserTurn
from evalcore.agents.reference import ReferenceTarget
from evalcore.agents.reference._mantle_words import field_words
from evalcore.definitions import load_project
from evalcore.runner import collect_cases

UNIFORM = """\
---
name: Uniform order
description: Ordering uniform, "I need new scrubs", "order me a fleece".
---

Ask which item (set item), then which size (set size). Then order it with
@tool.order_uniform.
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Order uniform for the staff member.")
async def order_uniform(item: str, size: str, context: ToolContext = None):
    """Order it."""
    return {"ordered": True}
'''

FILES = {
    "agent.yml": "name: Ward stores\npersona: You help hospital staff.\n",
    "integrations.yml": INTEGRATIONS,
    "responses.yml": "responses:\n  utter_anything_else:\n    - text: Anything else?\n",
    "skills/uniform/skill.md": UNIFORM,
    "skills/uniform/tools.py": TOOLS,
    "skills/uniform/memory.yml": (
        "schema:\n  public:\n    item:\n      type: categorical\n"
        "      enum_values: [scrub_top, scrub_trousers, fleece]\n"
        "      description: The item.\n"
        "    size:\n      type: text\n      description: The size, XS to XXL.\n"
    ),
}


def _writes(root: Path, lines: list[str]) -> list[tuple[str, Any]]:
    async def run() -> list[dict[str, Any]]:
        session = await ReferenceTarget(root).open({"slug": "t"}, 1)
        await session.send(UserTurn(type="start", setup={}))
        for line in lines:
            await session.send(UserTurn(type="text", text=line))
        return list((await session.close()).events or [])

    return [(e["key"], e["value"]) for e in asyncio.run(run()) if e["event"] == "memory_set"]


def test_a_correction_at_the_next_question_corrects_the_earlier_answer(tmp_path: Path) -> None:
    root = write_project(tmp_path / "stores", FILES)
    lines = ["I need new scrubs.", "Scrub top.", "Sorry, I got that wrong. Scrub trousers.", "XS"]
    assert _writes(root, lines) == [
        ("uniform.item", "scrub_top"),
        ("uniform.item", "scrub_trousers"),
        ("uniform.size", "XS"),
    ]


def test_an_answer_without_a_correction_is_the_answer(tmp_path: Path) -> None:
    root = write_project(tmp_path / "stores", FILES)
    lines = ["I need new scrubs.", "Scrub top.", "Scrub trousers size, please: M"]
    assert ("uniform.item", "scrub_trousers") not in _writes(root, lines)


def test_a_value_written_in_digits_is_heard_in_words(tmp_path: Path) -> None:
    """ "Six, please." names the value `6` of a field whose values are digits."""
    files = dict(FILES)
    files["skills/uniform/memory.yml"] = (
        "schema:\n  public:\n    item:\n      type: categorical\n"
        '      enum_values: ["3", "6", "12"]\n      description: Monthly payments.\n'
    )
    words = field_words(
        load_project(write_project(tmp_path / "plan", files)).mantle, "uniform.item"
    )
    assert words.stated("Sorry, I got that wrong. Six, please.") == "6"
    assert words.answer("Twelve.") == "12"
    assert words.answer("3") == "3"


PLAN = """\
---
name: Payment plan
description: Spreading a bill over monthly payments, "can I pay in instalments".
tool_constraints:
  - create_plan:
      requires: session.plan.installments and session.plan.terms_ok
---

:::ordered_block id=setup
steps:
  - id: how_many
    collect: installments
    utterance: utter_ask_installments
  - id: terms
    instructions: |
      Read the plan back and set terms_ok once they agree.
    complete_when: session.plan.terms_ok
:::

Then set it up with @tool.create_plan.
"""

PLAN_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Set up the payment plan.")
async def create_plan(installments: str, context: ToolContext = None):
    """Create it."""
    return {"created": True}
'''


def test_a_correction_at_a_read_back_is_said_when_the_agent_asks_to_confirm(
    tmp_path: Path,
) -> None:
    """The ask after the corrected one is a yes/no the agent fills by reading the details
    back ("Is that all correct?"): the correction is said on that turn, so the case
    verifies."""
    files = {
        **{k: v for k, v in FILES.items() if not k.startswith("skills/")},
        "skills/plan/skill.md": PLAN,
        "skills/plan/tools.py": PLAN_TOOLS,
        "skills/plan/memory.yml": (
            "schema:\n  public:\n    installments:\n      type: categorical\n"
            '      enum_values: ["3", "6", "12"]\n      description: Monthly payments.\n'
            "    terms_ok:\n      type: bool\n      description: True once they agreed.\n"
        ),
        "skills/plan/responses.yml": (
            "responses:\n  utter_ask_installments:\n"
            "    - text: Would you like three, six or twelve monthly payments?\n"
        ),
    }
    root = write_project(tmp_path / "water", files)
    project = load_project(root)
    behaviors = {b.case: b for b in plan_source(project, "mantle", "plan", None).behaviors}
    data = draft_mantle(DraftContext(project, "mantle", behaviors["correction"]))
    context = data["scenario"]["simulation_context"]
    assert "When the agent next speaks after you say" in context
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "correction.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    report = asyncio.run(mutate(collect_cases([folder], project=root), root, only=[]))
    assert report.reference == {"correction": "passed"}


PARCEL = """\
---
name: Parcel help
description: Tracking a parcel, "where is my parcel".
---

:::ordered_block id=main
steps:
  - id: ask_carrier
    collect: carrier
    utterance: utter_ask_carrier
    next:
      - if: session.parcel.carrier == "rapid"
        then: ask_code
      - else: ask_postcode
  - id: ask_code
    collect: tracking_code
    utterance: utter_ask_code
    next: look_up
  - id: ask_postcode
    collect: postcode
    utterance: utter_ask_postcode
    next: look_up
  - id: look_up
    execute_tool: track_parcel
    parameters:
      carrier: session.parcel.carrier
  - id: END
:::
"""

PARCEL_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Track the parcel with its carrier.")
async def track_parcel(carrier: str, context: ToolContext = None):
    """Track it."""
    return {"status": "on its way"}
'''

PARCEL_FILES = {
    **{k: v for k, v in FILES.items() if not k.startswith("skills/")},
    "skills/parcel/skill.md": PARCEL,
    "skills/parcel/tools.py": PARCEL_TOOLS,
    "skills/parcel/memory.yml": (
        "schema:\n  public:\n    carrier:\n      type: categorical\n"
        "      enum_values: [rapid, northpost]\n      description: The carrier.\n"
        "    tracking_code:\n      type: text\n      description: Rapid's tracking code.\n"
        "    postcode:\n      type: text\n      description: The delivery postcode.\n"
    ),
    "skills/parcel/responses.yml": (
        "responses:\n"
        "  utter_ask_carrier:\n    - text: Which carrier, Rapid or Northpost?\n"
        "  utter_ask_code:\n    - text: What is the Rapid tracking code?\n"
        "  utter_ask_postcode:\n    - text: What is the delivery postcode?\n"
    ),
}


def test_a_correction_of_a_value_the_block_routed_on_takes_the_right_branch(
    tmp_path: Path,
) -> None:
    """Rapid asks for a code, Northpost for the postcode: corrected at Rapid's question, the
    block goes on from the carrier's step, so the postcode is asked and the tool takes the
    corrected carrier."""
    root = write_project(tmp_path / "parcels", PARCEL_FILES)
    lines = ["Where is my parcel?", "Rapid.", "Sorry, I meant Northpost.", "EH1 1AA"]
    assert _writes(root, lines) == [
        ("parcel.carrier", "rapid"),
        ("parcel.carrier", "northpost"),
        ("parcel.postcode", "EH1 1AA"),
    ]


def test_a_correction_case_on_a_routing_field_corrects_a_turn_later_and_verifies(
    tmp_path: Path,
) -> None:
    """The wrong carrier is answered and stored; the fix comes on the agent's next turn (the
    wrong branch's question), and the drafted case passes against the reference agent."""
    root = write_project(tmp_path / "parcels", PARCEL_FILES)
    project = load_project(root)
    behaviors = {b.case: b for b in plan_source(project, "mantle", "parcel", None).behaviors}
    case = behaviors["correction"]
    assert case.facts["correction"]["mode"] == "next_turn"
    data = draft_mantle(DraftContext(project, "mantle", case))
    assert "When the agent next speaks after you say" in data["scenario"]["simulation_context"]
    wrong, right = case.facts["correction"]["from"], case.facts["correction"]["to"]
    assert {
        "memory_was_set": [
            {"name": "parcel.carrier", "value": wrong},
            {"name": "parcel.carrier", "value": right},
        ]
    } in data["scenario"]["goals"]["assertions"]
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "correction.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    report = asyncio.run(mutate(collect_cases([folder], project=root), root, only=[]))
    assert report.reference == {"correction": "passed"}
