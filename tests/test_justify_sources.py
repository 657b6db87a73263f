"""Each check cites the element that makes it hold, at the line that says so.

A small Mantle project whose skill collects a reason by prose, picks a device in an ordered
block whose instructions sit below the step's `id:`, calls a gated tool that `requires` the
picked device (and whose code writes it again), branches on a status, and whose
`agent.yml` holds agent-wide rules; a second skill is a detour target.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from evalcore.definitions import load_project
from evalcore.dialects import get_dialect

AGENT = """\
agent:
  persona: |
    You are Dot, a calm assistant for a device shop.
    Never invent device ids or repair prices.
rules:
  - "If the customer asks something outside device care, say you only help with devices."
"""

SKILL = """\
---
name: Reset
description: Reset a customer's device to its factory settings.
tool_constraints:
  - wipe_device:
      requires: session.reset.device_id
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_wipe
        utter_on_user_denial: utter_wipe_cancelled
      on_success: utter_wiped
---

Help the customer reset a device.

Ask why they need a reset. Set `reason` via `set_fields`.

Once the reason is known, invoke `@block.pick`

:::ordered_block id=pick
steps:
  - id: fetch
    execute_tool: list_devices
  - id: choose
    instructions: |
      Show the customer's devices from the tool result.
      Ask which device to reset. Set device_id to the chosen id.
    complete_when: session.reset.device_id
:::

Then call wipe_device with the chosen device.

if: session.reset.status == "0"
Explain that the wipe is queued.

if: session.reset.status == "1"
Explain that the wipe is done.

Ask for a note to the technician. Set `note` via `set_fields`.

if: session.reset.status == "2"
Share the code and thank them.
"""

TOOLS = """\
from rasa.tools import tool, ToolContext


@tool(description="List the customer's devices.")
async def list_devices(context: ToolContext = None):
    return {"devices": ["D-1"]}


@tool(description="Wipe a device.")
async def wipe_device(device_id: str, context: ToolContext = None):
    context.memory.set("device_id", device_id)
    context.memory.set("reason", "wiped")
    context.memory.set("status", "1")
    return {"ok": True}
"""

FILES: dict[str, str] = {
    "agent.yml": AGENT,
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "",
    "responses.yml": (
        "responses:\n"
        "  utter_confirm_wipe:\n    - text: Wipe it?\n"
        "  utter_wipe_cancelled:\n    - text: Nothing was wiped.\n"
        "  utter_wiped:\n    - text: The device is wiped.\n"
    ),
    "skills/reset/skill.md": SKILL,
    "skills/reset/memory.yml": (
        "schema:\n  public:\n"
        "    reason:\n      type: text\n      llm_settable: true\n"
        "    device_id:\n      type: text\n      llm_settable: true\n"
        "    status:\n      type: text\n"
        "    note:\n      type: text\n      llm_settable: true\n"
    ),
    "skills/reset/tools.py": TOOLS,
    "skills/faq/skill.md": (
        "---\nname: FAQ\ndescription: Answer questions about the shop's opening hours.\n---\n\n"
        "Answer from the shop's hours.\n"
    ),
}

CONTEXT = (
    "You are Ada, a customer.\nYou want to reset a phone.\n"
    "What you know (share each only when the agent asks):\n- reason: moving\n"
)
MD = "skills/reset/skill.md"


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_project(write_project(tmp_path_factory.mktemp("devices"), FILES))


def _judge(
    project: Any, assertions: list[Any], criteria: list[str] | None = None, context: str = CONTEXT
) -> Any:
    goals: dict[str, Any] = {"assertions": assertions}
    if criteria:
        goals["criteria"] = criteria
    data = {"scenario": {"name": "Reset", "simulation_context": context, "goals": goals}}
    return {j.path: j.justification for j in get_dialect("mantle").justify(data, project)}


ROUTED = {"skill_activated": {"skill_id": "reset"}}
WIPED = {"tool_executed": {"tool_name": "wipe_device", "skill_id": "reset"}}
REFUSED = {"bot_uttered": {"utter_name": "utter_wipe_cancelled"}}


def test_criteria_restating_agent_rules_cite_agent_yml(shop: Any) -> None:
    """The agent's persona and rules hold in every skill: a criterion that restates one
    cites its line, with its kind (a rule guarded by "If ..." is conditional)."""
    found = _judge(
        shop,
        [ROUTED],
        [
            "The agent does not invent device ids or repair prices",
            "If the customer asks something outside device care, the agent says it only helps",
        ],
    )
    invent = found["/scenario/goals/criteria/0"]
    assert (invent.kind, invent.file, invent.line) == ("instructed", "agent.yml", 4)
    scope = found["/scenario/goals/criteria/1"]
    assert (scope.kind, scope.file, scope.line) == ("conditional", "agent.yml", 6)


def test_a_criterion_cites_the_branch_it_restates(shop: Any) -> None:
    """Two branches say nearly the same: the criterion cites the sentence it restates."""
    found = _judge(shop, [ROUTED], ["The agent explains that the wipe is done"])
    assert found["/scenario/goals/criteria/0"].line == 37


def test_a_criterion_meets_its_sentence_through_the_branch_and_the_verb(shop: Any) -> None:
    """The criterion "When the status is 2, the agent shares the code" restates "Share the
    code" under `if: ...status == "2"`: the condition's words count, and "shares" meets "Share". The
    condition alone is no match: a sentence sharing nothing else is not cited."""
    line = SKILL.splitlines().index("Share the code and thank them.") + 1
    found = _judge(shop, [ROUTED], ["When the status is 2, the agent shares the code"])
    cited = found["/scenario/goals/criteria/0"]
    assert (cited.file, cited.line) == (MD, line)
    other = _judge(shop, [ROUTED], ["The agent does not ask for the reset status twice"])
    cited = other["/scenario/goals/criteria/0"]
    assert cited is None or cited.line != line


def test_a_criterion_naming_the_skill_is_not_its_opening_line(shop: Any) -> None:
    found = _judge(
        shop, [ROUTED, REFUSED], ["After the customer declines, it does not say the reset is done"]
    )
    denial = found["/scenario/goals/criteria/0"]
    assert (denial.kind, denial.line) == ("enforced", 10)
    assert "utter_on_user_denial" in denial.element
    gate = _judge(shop, [ROUTED, REFUSED], ["wipe_device never runs after the customer declines"])
    assert gate["/scenario/goals/criteria/0"].line == 7


def test_a_refusal_shown_by_what_never_comes_cites_the_gate(shop: Any) -> None:
    """A refusal case need not assert the gate's utters (the agent may ask in its own words
    first): a user told to decline and the success reply never said mark the refusal, and
    the criteria that the agent asks before the action and that the tool never runs cite
    the gate. Without the decline (a tool the path never reaches) nothing was refused."""
    never = {"bot_did_not_utter": {"utter_name": "utter_wiped"}}
    criteria = [
        "The agent asks the customer to confirm before it goes on to wipe the device "
        "(in its own words or with the confirmation question)",
        "wipe_device never runs after the customer declines",
    ]
    declines = CONTEXT + "When the agent asks whether to wipe the device, decline.\n"
    found = _judge(shop, [ROUTED, never], criteria, declines)
    for index in (0, 1):
        gate = found[f"/scenario/goals/criteria/{index}"]
        assert (gate.kind, gate.file, gate.line) == ("enforced", MD, 7), gate
    assert "utter_confirm_wipe" in found["/scenario/goals/criteria/0"].element
    unreached = _judge(shop, [ROUTED, never], criteria)["/scenario/goals/criteria/1"]
    assert unreached is None or unreached.kind != "enforced"


def test_block_instructions_are_cited_where_their_sentence_is(shop: Any) -> None:
    found = _judge(shop, [ROUTED], ["The agent shows the customer's devices from the tool result"])
    assert found["/scenario/goals/criteria/0"].line == 26
    # a step's own key: `execute_tool:` below the `id:`, and the `complete_when:` that
    # needs the entry
    listed = {"tool_executed": {"tool_name": "list_devices", "skill_id": "reset"}}
    assert _judge(shop, [listed])["/scenario/goals/assertions/0"].line == 23
    device = {"memory_was_set": [{"name": "reset.device_id"}]}
    assert _judge(shop, [device])["/scenario/goals/assertions/0"].line == 28


def test_a_write_before_a_tool_is_not_credited_to_the_tool(shop: Any) -> None:
    """reason is set from prose (`set_fields`) and device_id when the customer picks (the
    step's `complete_when`), both before the tool whose code writes them again: in that
    order the write is the prose's or the step's, never the tool's code, least of all where
    the tool never runs (a refused confirmation)."""
    for entry in ("reset.reason", "reset.device_id"):
        sequence = {
            "sequencing": [
                ROUTED,
                {"memory_was_set": entry},
                {"tool_executed": {"tool_name": "wipe_device"}},
            ]
        }
        for assertions in ([ROUTED, WIPED, sequence], [ROUTED, REFUSED, sequence]):
            found = _judge(shop, assertions)
            step = found["/scenario/goals/assertions/2/sequencing/1"]
            assert step.file == MD and "tools.py" not in step.element, step
        refused = _judge(shop, [ROUTED, REFUSED, {"memory_was_set": [{"name": entry}]}])
        assert refused["/scenario/goals/assertions/2"].file == MD
    # Prose telling the model to set it writes it before the tool's code, order or not.
    plain = _judge(shop, [ROUTED, WIPED, {"memory_was_set": [{"name": "reset.reason"}]}])
    assert plain["/scenario/goals/assertions/2"].line == 16
    # The tool's own write (status) stays the tool's.
    status = _judge(shop, [ROUTED, WIPED, {"memory_was_set": [{"name": "reset.status"}]}])
    assert status["/scenario/goals/assertions/2"].file == "skills/reset/tools.py"
    assert status["/scenario/goals/assertions/2"].line == 13  # its memory.set, not the def


def test_of_two_entries_set_from_prose_only_the_order_goes(shop: Any) -> None:
    """reason and note are both set by the model (`set_fields`): which comes first is its
    choice, so that step goes from the sequencing and the order around it stays."""
    from agentflows.generate._justified import keep_justified

    steps = [
        ROUTED,
        {"memory_was_set": "reset.reason"},
        {"memory_was_set": "reset.note"},
        {"tool_executed": {"tool_name": "wipe_device"}},
    ]
    data = {
        "scenario": {
            "name": "Reset",
            "simulation_context": CONTEXT,
            "goals": {"assertions": [ROUTED, WIPED, {"sequencing": steps}]},
        }
    }
    kept = keep_justified(data, get_dialect("mantle"), shop)
    assert kept.data["scenario"]["goals"]["assertions"][2] == {
        "sequencing": [steps[0], steps[1], steps[3]]
    }


def test_detour_events_are_the_runtimes(shop: Any) -> None:
    """Parking and resuming a skill is the runtime's detour handling, not its description."""
    found = _judge(
        shop,
        [
            ROUTED,
            {"skill_interrupted": {"skill_id": "reset"}},
            {"skill_activated": {"skill_id": "faq"}},
            {"skill_resumed": {"skill_id": "reset"}},
        ],
        ["The agent deals with the faq request before going back"],
    )
    for index in (1, 3):
        runtime = found[f"/scenario/goals/assertions/{index}"]
        assert (runtime.kind, runtime.file, runtime.line) == ("enforced", "(Mantle runtime)", None)
        assert "detour handling" in runtime.element
    assert found["/scenario/goals/criteria/0"].file == "(Mantle runtime)"


def test_comments_in_the_file_carry_the_new_citations(shop: Any, tmp_path: Path) -> None:
    data = {
        "scenario": {
            "name": "Reset",
            "simulation_context": CONTEXT,
            "goals": {
                "criteria": ["The agent does not invent device ids or repair prices"],
                "assertions": [ROUTED],
            },
        }
    }
    text = get_dialect("mantle").dump_justified(data, shop)
    assert '# instructed: agent.yml:4 "Never invent device ids or repair prices."' in text
