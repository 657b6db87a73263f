"""What a drafted happy path asserts so that faults a correct agent never makes fail it: a
block's lookup runs before the next step waits for the user, a gated tool's writes come
after the memory its `requires` reads, a `call:` step activates its skill, every key the
skill's tools write is asserted, and a value read from the first message is given in the
opening. Survivors no case can kill get a precise reason (`free_text`, `no_mark`)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.mutate import mutate
from agentflows.mutate._reasons import explain
from agentflows.planning import plan_source
from evalcore.agents.reference import find_mutant
from evalcore.definitions import load_project
from evalcore.runner import collect_cases

ORDER = """\
---
name: Order spare parts
description: Order spare parts for a machine the workshop runs.
tool_constraints:
  - place_order:
      requires: session.order_parts.quantity and session.order_parts.details_verified
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_order
        utter_on_user_denial: utter_order_dropped
      on_success: utter_order_placed
complete_when:
  condition: session.order_parts.order_number
---

Run @block.order. When details_verified is true, call place_order with the part code and
the quantity.

:::ordered_block id=order
steps:
  - id: ask_part
    collect: part_code
    utterance: utter_ask_part
  - id: find_part
    execute_tool: find_part
    parameters:
      part_code: session.order_parts.part_code
  - id: ask_quantity
    collect: quantity
    utterance: utter_ask_quantity
  - id: read_back
    instructions: |
      Read back the part and the quantity. Set details_verified to true when they confirm.
    complete_when: session.order_parts.details_verified
  - id: notify
    call: notify_store
  - id: END
:::
"""

ORDER_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Look a spare part up by its code.")
async def find_part(part_code: str, context: ToolContext = None):
    """Stock and price of the part."""
    context.memory.set("in_stock", True)
    return {"in_stock": True}


@tool(description="Place the order for the part.")
async def place_order(part_code: str, quantity: int, context: ToolContext = None):
    """Queue the order."""
    context.memory.set("order_number", "ON-0001")
    context.memory.set("delivery_day", "Tuesday")
    context.memory.set("courier", "Rapid")
    context.memory.set("invoice_id", "INV-9")
    context.memory.set("picker_id", "PK-7")
    return {"ok": True}
'''

NOTIFY = """\
---
name: Tell the store
description: Tell the store an order is coming (only other skills run this).
hidden: true
---

Call @tool.ping_store and finish.
"""

NOTIFY_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Tell the store about an order.")
async def ping_store(context: ToolContext = None):
    """Ping."""
    return {"ok": True}
'''

REPORT = """\
---
name: Report a machine fault
description: >
  Report a fault on a workshop machine so maintenance can look at it: "my lathe makes a
  grinding noise", "the press is leaking oil".
tool_constraints:
  - log_fault:
      requires: session.report_fault.fault_description
      on_success: utter_fault_logged
---

Run @block.report. If they ask whether a fault is already known, check @tool.list_faults
and tell them.

:::ordered_block id=report
steps:
  - id: ask_fault
    collect: fault_description
    utterance: utter_ask_fault
  - id: log
    execute_tool: log_fault
    parameters:
      fault_description: session.report_fault.fault_description
:::
"""

REPORT_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Log a machine fault for maintenance.")
async def log_fault(fault_description: str, context: ToolContext = None):
    """Log it."""
    return {"logged": True}


@tool(description="Faults already logged for the workshop.")
async def list_faults(context: ToolContext = None):
    """Open faults."""
    return {"faults": []}
'''

FILES: dict[str, str] = {
    "agent.yml": "name: Workshop\npersona: You help mechanics order parts.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "responses.yml": (
        "responses:\n  utter_anything_else:\n    - text: Anything else?\n"
        "  utter_goodbye:\n    - text: Goodbye!\n"
    ),
    "skills/order_parts/skill.md": ORDER,
    "skills/order_parts/tools.py": ORDER_TOOLS,
    "skills/order_parts/memory.yml": (
        "schema:\n  public:\n"
        "    part_code:\n      type: text\n      description: The part code, like BR-2231.\n"
        "    quantity:\n      type: int\n"
        "    details_verified:\n      type: bool\n"
        "    in_stock:\n      type: bool\n"
        "    order_number:\n      type: text\n"
        "    delivery_day:\n      type: text\n"
        "    courier:\n      type: text\n"
        "    invoice_id:\n      type: text\n"
        "    picker_id:\n      type: text\n"
    ),
    "skills/order_parts/responses.yml": (
        "responses:\n"
        "  utter_ask_part:\n    - text: Which part code do you need?\n"
        "  utter_ask_quantity:\n    - text: How many do you need?\n"
        "  utter_confirm_order:\n    - text: Shall I place the order?\n"
        "  utter_order_dropped:\n    - text: OK, no order.\n"
        "  utter_order_placed:\n    - text: Your order is placed.\n"
    ),
    "skills/report_fault/skill.md": REPORT,
    "skills/report_fault/tools.py": REPORT_TOOLS,
    "skills/report_fault/memory.yml": (
        "schema:\n  public:\n    fault_description:\n      type: text\n"
        "      description: What is wrong with the machine, in the mechanic's words.\n"
    ),
    "skills/report_fault/responses.yml": (
        "responses:\n"
        "  utter_ask_fault:\n    - text: What is wrong with the machine?\n"
        "  utter_fault_logged:\n    - text: Logged for maintenance.\n"
    ),
    "skills/notify_store/skill.md": NOTIFY,
    "skills/notify_store/tools.py": NOTIFY_TOOLS,
}


@pytest.fixture(scope="module")
def workshop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("order") / "workshop", FILES)


def _happy(root: Path, skill: str = "order_parts") -> dict[str, Any]:
    project = load_project(root)
    behaviors = plan_source(project, "mantle", skill, None).behaviors
    happy = next(b for b in behaviors if b.type == "happy_path")
    return draft_mantle(DraftContext(project, "mantle", happy))


def _assertions(data: dict[str, Any]) -> list[dict[str, Any]]:
    return data["scenario"]["goals"]["assertions"]


def _sequence(data: dict[str, Any]) -> list[dict[str, Any]]:
    return next(c["sequencing"] for c in _assertions(data) if "sequencing" in c)


def test_the_happy_path_orders_what_the_definitions_order(workshop: Path) -> None:
    data = _happy(workshop)
    steps = _sequence(data)
    lookup = {"tool_executed": {"tool_name": "find_part", "source": "local"}}
    # the block's lookup runs before the next step waits for the user's answer
    assert lookup in steps
    assert steps.index(lookup) < steps.index({"memory_was_set": "order_parts.quantity"})
    # what the gated tool writes comes after the memory its `requires` reads
    anchor = steps.index({"memory_was_set": "order_parts.details_verified"})
    assert anchor < steps.index({"memory_was_set": "order_parts.order_number"})
    # but never after the gated tool's own event: Rasa records a tool's writes while it
    # runs, before its `tool_executed`, so only the write is ordered
    assert {"tool_executed": {"tool_name": "place_order", "source": "local"}} not in steps
    checks = _assertions(data)
    assert {"skill_activated": {"skill_id": "notify_store"}} in checks
    # the framework asks each collect step with its own utterance
    assert {"bot_uttered": {"utter_name": "utter_ask_quantity"}} in checks
    written = {i["name"] for c in checks for i in c.get("memory_was_set") or []}
    # every key the skill's tools write and its steps wait for (eight here)
    tools = {"in_stock", "order_number", "delivery_day", "courier", "invoice_id", "picker_id"}
    assert {f"order_parts.{k}" for k in tools} | {"order_parts.part_code"} <= written


def test_the_happy_path_kills_the_faults_of_lookups_gates_and_calls(
    workshop: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "happy.yml").write_text(yaml.safe_dump(_happy(workshop), sort_keys=False))
    wanted = [
        "skip_step:order_parts.order.find_part",
        "skip_step:order_parts.order.notify",
        "ignore_requires:place_order",
        "forget_memory:order_parts.picker_id",
    ]
    report = asyncio.run(
        mutate(collect_cases([folder], project=workshop), workshop, concurrency=2, only=wanted)
    )
    assert set(report.reference.values()) == {"passed"}, report.reference
    played = {r.mutant.id for r in report.results}
    assert played == set(wanted)
    assert [r.mutant.id for r in report.survivors()] == []


def test_survivors_no_case_can_kill_get_a_precise_reason(workshop: Path, tmp_path: Path) -> None:
    """A suite that asserts the call but not its free-text argument: the fault description
    in the user's own words as the argument is `free_text` (no agent passes it exactly), and
    an early extra call of the tool, whose every mark (the call, its `on_success` message)
    the real call leaves again on every path the planner explores, is equivalent: no
    assertion can tell it apart, so it is not counted at all."""
    data = {
        "scenario": {
            "name": "report a fault",
            "simulation_context": (
                "You are a mechanic. You want to report a machine fault.\n"
                "What you know (share each only when the agent asks):\n"
                "- what is wrong with the machine: My lathe makes a grinding noise.\n"
            ),
            "goals": {
                "assertions": [
                    {"skill_activated": {"skill_id": "report_fault"}},
                    {"tool_executed": {"tool_name": "log_fault", "source": "local"}},
                ]
            },
        }
    }
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "fault.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    wanted = ["wrong_argument:log_fault", "ignore_requires:log_fault"]
    report = asyncio.run(
        mutate(collect_cases([folder], project=workshop), workshop, concurrency=2, only=wanted)
    )
    assert set(report.reference.values()) == {"passed"}, report.reference
    reasons = {r.mutant.id: report.reason(r) for r in report.survivors()}
    assert set(reasons) == {"wrong_argument:log_fault"}
    worded = reasons["wrong_argument:log_fault"]
    assert worded.code == "free_text" and "report_fault.fault_description" in worded.text
    early = {m.id: m.equivalent for m in report.equivalent}["ignore_requires:log_fault"]
    assert early and "explored paths that reach it" in early


def test_the_drafted_fault_report_orders_the_call_after_what_it_requires(
    workshop: Path, tmp_path: Path
) -> None:
    """A tool that writes nothing comes after the memory its `requires` reads, which kills
    a call made before it holds when the real call never follows."""
    steps = _sequence(_happy(workshop, "report_fault"))
    field = steps.index({"memory_was_set": "report_fault.fault_description"})
    assert field < steps.index({"tool_executed": {"tool_name": "log_fault", "source": "local"}})


MACHINE = """\
---
name: Machine help
description: >
  Anything about a workshop machine: "what state is my machine in", "book a service".
---

Help mechanics with the machines. From the first message, work out the machine (its asset
tag, e.g. `press-04`) and set machine, and set mode to one of status or service.

if: session.machine_help.mode == "status"
Call get_machine_status with the machine and say what it reports.

if: session.machine_help.mode == "service"
Call book_service with the machine.
"""

MACHINE_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Read a machine's state.")
async def get_machine_status(machine: str, context: ToolContext = None):
    """State of the machine."""
    return {"state": "running"}


@tool(description="Book a service visit for a machine.")
async def book_service(machine: str, context: ToolContext = None):
    """Book it."""
    return {"booked": True}
'''


def test_a_field_read_from_the_first_message_is_said_in_the_opening(tmp_path: Path) -> None:
    """Nobody asks for the machine later, so the opening says it; the tool fed from it then
    has an argument the case asserts, which kills a wrong one."""
    files = {
        "agent.yml": "name: Workshop\npersona: You help mechanics.\n",
        "integrations.yml": INTEGRATIONS,
        "skills/machine_help/skill.md": MACHINE,
        "skills/machine_help/tools.py": MACHINE_TOOLS,
        "skills/machine_help/memory.yml": (
            "schema:\n  public:\n"
            "    machine:\n      type: text\n      description: The asset tag, e.g. press-04.\n"
            "    mode:\n      type: categorical\n      enum_values: [status, service]\n"
        ),
    }
    root = write_project(tmp_path / "machines", files)
    project = load_project(root)
    behaviors = plan_source(project, "mantle", "machine_help", None).behaviors
    status = next(
        b
        for b in behaviors
        if b.facts.get("request_values", {}).get("machine_help.mode") == "status"
    )
    data = draft_mantle(DraftContext(project, "mantle", status))
    assert "The machine is press-04." in data["scenario"]["simulation_context"]
    run = next(c["tool_executed"] for c in _assertions(data) if "tool_executed" in c)
    assert run["tool_name"] == "get_machine_status"
    assert run["arguments"] == {"machine": "press-04"}
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "status.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    wanted = ["wrong_argument:get_machine_status"]
    report = asyncio.run(mutate(collect_cases([folder], project=root), root, only=wanted))
    assert set(report.reference.values()) == {"passed"}, report.reference
    assert [r.mutant.id for r in report.results] == wanted and not report.survivors()


def test_an_unreached_tool_called_only_on_a_cue_says_the_cue(workshop: Path) -> None:
    project = load_project(workshop)
    reason = explain(project, find_mutant(project, "fail_silently:list_faults"), [])
    assert reason.code == "off_path"
    assert "called only on the prose's cue: 'If they ask whether a fault is already known'" in (
        reason.text
    )
