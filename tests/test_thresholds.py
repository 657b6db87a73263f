"""A number a skill compares with a literal gets a case on each side of the line: the
happy path takes the side that completes and runs the most, and a `threshold` case takes
every other side, so an agent that gets the comparison wrong fails one of them. A number
is read from its own part of a compound answer."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.mutate import mutate
from agentflows.planning import plan_source
from agentflows.planning._mantle_thresholds import side_values, thresholds
from evalcore.agents import UserTurn
from evalcore.agents.reference import ReferenceTarget
from evalcore.definitions import MemoryField, load_project
from evalcore.runner import collect_cases

REFUND = """\
---
name: Refund
description: Customers ask for their money back on an order.
---

Refund the customer with @block.refund_flow.

:::ordered_block id=refund_flow
steps:
  - id: ask_amount
    collect: amount
    utterance: utter_ask_amount
  - id: check_amount
    noop: true
    next:
      - if: session.refund.amount > 200
        then: approval
      - else: pay
  - id: pay
    execute_tool: issue_refund
    parameters:
      amount: session.refund.amount
    next: END
  - id: approval
    execute_tool: request_manager_approval
    parameters:
      amount: session.refund.amount
    next: END
  - id: END
:::
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Pay the refund back to the card.")
async def issue_refund(amount: float, context: ToolContext = None):
    """Pay it."""
    return {"refunded": True}


@tool(description="Ask a manager to approve a large refund.")
async def request_manager_approval(amount: float, context: ToolContext = None):
    """Ask for approval."""
    return {"requested": True}
'''

FILES: dict[str, str] = {
    "agent.yml": "name: Kiln\npersona: You help customers of a pottery shop.\n",
    "integrations.yml": INTEGRATIONS,
    "responses.yml": (
        "responses:\n  utter_anything_else:\n    - text: Anything else?\n"
        "  utter_goodbye:\n    - text: Goodbye!\n"
    ),
    "skills/refund/skill.md": REFUND,
    "skills/refund/tools.py": TOOLS,
    "skills/refund/memory.yml": (
        "schema:\n  public:\n    amount:\n      type: float\n"
        "      description: How much to refund, in dollars.\n"
    ),
    "skills/refund/responses.yml": (
        "responses:\n  utter_ask_amount:\n    - text: How much should we refund?\n"
    ),
}


@pytest.fixture(scope="module")
def kiln(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("kiln") / "kiln", FILES)


def _field(kind: str) -> MemoryField:
    return MemoryField(name="n", namespace="s", type=kind)


@pytest.mark.parametrize(
    ("kind", "comparisons", "expected"),
    [
        ("int", [(">=", 180.0)], [162, 198]),
        ("float", [("<", 4.0)], [3.0, 5.0]),
        ("float", [(">", 41.0)], [37.0, 45.0]),  # a count near its line
        ("int", [(">=", 10.0), ("<", 100.0)], [9, 11, 110]),
        ("int", [(">", 0.0)], [0, 1]),  # never negative when no line is
        ("int", [("==", 3.0)], [2, 3]),
    ],
)
def test_one_value_per_side_of_the_lines(
    kind: str, comparisons: list[tuple[str, float]], expected: list[float]
) -> None:
    assert side_values(_field(kind), comparisons) == expected


@pytest.mark.parametrize(
    ("name", "description", "expected"),
    [
        ("fridge_temp_f", "Thermometer reading inside a fridge in Fahrenheit.", [40.0, 42.0]),
        ("room_temp", "Reading in °C; over 41 is too hot.", [40.0, 42.0]),
        ("minutes", "Minutes waited.", [37.0, 45.0]),
    ],
)
def test_a_temperature_moves_by_one_degree(
    name: str, description: str, expected: list[float]
) -> None:
    """A fridge that feels warm but holds reads 40 beside a line of 41, never a cold 37."""
    field = MemoryField(name=name, namespace="s", type="float", description=description)
    assert side_values(field, [(">", 41.0)]) == expected


def test_the_comparisons_come_from_branches_and_requires(kiln: Path) -> None:
    skill = load_project(kiln).mantle.skills["refund"]
    assert thresholds(skill, skill.memory["amount"]) == [(">", 200.0)]


def test_each_side_gets_a_case_and_both_pass_the_reference_agent(
    kiln: Path, tmp_path: Path
) -> None:
    project = load_project(kiln)
    behaviors = {b.case: b for b in plan_source(project, "mantle", "refund", None).behaviors}
    happy, over = behaviors["happy"], behaviors["amount_over_200"]
    assert happy.facts["values"] == {"refund.amount": 180.0}
    assert over.type == "edge_case" and over.facts["kind"] == "threshold"
    assert over.facts["values"] == {"refund.amount": 220.0}
    assert "runs request_manager_approval and does not run issue_refund" in over.description
    folder = tmp_path / "cases"
    folder.mkdir()
    ran = {}
    for name, behavior in (("happy", happy), ("over", over)):
        data = draft_mantle(DraftContext(project, "mantle", behavior))
        assertions = data["scenario"]["goals"]["assertions"]
        ran[name] = {a["tool_executed"]["tool_name"] for a in assertions if "tool_executed" in a}
        (folder / f"{name}.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    assert ran == {"happy": {"issue_refund"}, "over": {"request_manager_approval"}}
    cases = collect_cases([folder], project=kiln)
    wanted = ["fail_silently:issue_refund", "fail_silently:request_manager_approval"]
    report = asyncio.run(mutate(cases, kiln, concurrency=1, only=wanted))
    assert set(report.reference.values()) == {"passed"}, report.reference
    # each side's tool is checked by its own case: its silent failure is caught there
    killed = {r.mutant.id: r.killed_by for r in report.results}
    assert killed == {wanted[0]: ["happy"], wanted[1]: ["over"]}


def test_a_number_no_condition_compares_gets_no_case(kiln: Path) -> None:
    files = dict(FILES)
    files["skills/refund/skill.md"] = REFUND.replace("session.refund.amount > 200", "'True'")
    root = write_project(kiln.parent / "plain", files)
    cases = [b.case for b in plan_source(load_project(root), "mantle", "refund", None).behaviors]
    assert not [c for c in cases if c.startswith("amount_")]


QUOTE = """\
---
name: Kiln firing quote
description: A price for firing pots in the studio kiln.
---

Ask how many pots they bring (set pots) and how tall the tallest is in centimetres (set
height_cm). Then price it with @tool.price_firing.
"""


def test_a_compound_answer_gives_each_number_its_own_part(tmp_path: Path) -> None:
    """ "My pots is 4 and my height cm is 42.": the height is 42, not the first number."""
    files = {k: v for k, v in FILES.items() if not k.startswith("skills/")}
    files["skills/firing/skill.md"] = QUOTE
    files["skills/firing/tools.py"] = TOOLS.replace(
        "issue_refund(amount: float", ("price_firing(pots: int, height_cm: int")
    )
    files["skills/firing/memory.yml"] = (
        "schema:\n  public:\n    pots:\n      type: int\n      description: Pots to fire.\n"
        "    height_cm:\n      type: int\n      description: Tallest pot, in centimetres.\n"
    )
    root = write_project(tmp_path / "firing", files)

    async def play() -> list[dict]:
        session = await ReferenceTarget(root).open({"slug": "t"}, 1)
        await session.send(UserTurn(type="start", setup={}))
        said = "My pots is 4 and my height cm is 42."
        for line in ("I'd like a kiln firing quote.", said, said):  # asked one after the other
            await session.send(UserTurn(type="text", text=line))
        return list((await session.close()).events or [])

    events = asyncio.run(play())
    written = {e["key"]: e["value"] for e in events if e["event"] == "memory_set"}
    assert written["firing.pots"] == 4 and written["firing.height_cm"] == 42


DOCK = """\
---
name: Ride charge
description: A rider who thinks a ride cost too much.
tool_constraints:
  - refund_ride:
      requires: session.charge.extra_minutes >= 10
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_refund
        utter_on_user_denial: utter_refund_not_made
      on_success: utter_refund_done
      on_failure: utter_refund_failed
complete_when:
  condition: session.charge.refund_id
---

Ask which ride they mean (set ride_id) and check it with @tool.check_dock_log, which sets
extra_minutes. Then refund it with @tool.refund_ride.
"""

DOCK_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Minutes charged after the dock locked.")
async def check_dock_log(ride_id: str, context: ToolContext = None):
    """The dock's log."""
    context.memory.set("extra_minutes", len(ride_id))
    return {}


@tool(description="Refund the extra minutes of a ride.")
async def refund_ride(ride_id: str, context: ToolContext = None):
    """Refund."""
    context.memory.set("refund_id", "RF-10001")
    return {}
'''


def test_a_gate_on_a_number_is_refused_and_failed_on_the_side_that_reaches_it(
    tmp_path: Path,
) -> None:
    files = {
        "agent.yml": "name: Bikes\npersona: You help riders.\n",
        "integrations.yml": INTEGRATIONS,
        "skills/charge/skill.md": DOCK,
        "skills/charge/tools.py": DOCK_TOOLS,
        "skills/charge/memory.yml": (
            "schema:\n  public:\n"
            "    ride_id: {type: text, description: 'The ride, RD- and six digits.',"
            " llm_settable: true}\n"
            "    extra_minutes: {type: int, description: Minutes overcharged.}\n"
            "    refund_id: {type: text}\n"
        ),
        "responses.yml": (
            "responses:\n  utter_confirm_refund:\n    - text: Refund it?\n"
            "  utter_refund_not_made:\n    - text: Left as it is.\n"
            "  utter_refund_done:\n    - text: Refunded.\n"
            "  utter_refund_failed:\n    - text: It failed.\n"
        ),
    }
    project = load_project(write_project(tmp_path, files))
    plan = {b.case: b for b in plan_source(project, "mantle", "charge", None).behaviors}
    happy = plan["happy"].facts["values"]["charge.extra_minutes"]
    assert happy >= 10
    # the refusal and the failure need the refund reached: the happy path's side
    assert plan["refused_refund_ride"].facts["values"]["charge.extra_minutes"] == happy
    assert plan["refund_ride_fails"].facts["values"]["charge.extra_minutes"] == happy
