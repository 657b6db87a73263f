"""A refused gate asserts unset only what nothing but the refused tool writes: an entry the
skill's text has the model set before the gate ("Set picked_label to the model name") may
well be set, and the confirmation even reads it back."""

from __future__ import annotations

from pathlib import Path

import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

SKILL = """\
---
name: Wipe a device
description: Customers who want a device wiped back to factory settings.
tool_constraints:
  - wipe_device:
      requires: session.wipe.picked_id
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_wipe
        utter_on_user_denial: utter_wipe_cancelled
      on_success: utter_wiped
---

Run @block.pick.

:::ordered_block id=pick
steps:
  - id: choose
    instructions: |
      Ask which device to wipe. Set picked_id to the device id and picked_label to the
      model name.
    complete_when: session.wipe.picked_id
:::

Then call `@tool.wipe_device` with the picked device.
"""

TOOLS = """\
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Wipe one device.")
async def wipe_device(device_id: str, context: ToolContext = None) -> ToolResult:
    context.memory.set("wiped", True)
    context.memory.set("picked_label", "Box 5")
    return ToolResult(llm_response={"ok": True})
"""

FILES = {
    "agent.yml": "name: Northwind devices\npersona: You help customers with their devices.\n",
    "integrations.yml": INTEGRATIONS,
    "responses.yml": (
        "responses:\n"
        "  utter_confirm_wipe:\n    - text: Wipe {picked_label}?\n"
        "  utter_wipe_cancelled:\n    - text: Nothing was wiped.\n"
        "  utter_wiped:\n    - text: Done.\n"
    ),
    "skills/wipe/skill.md": SKILL,
    "skills/wipe/tools.py": TOOLS,
    "skills/wipe/memory.yml": (
        "schema:\n  public:\n"
        "    picked_id:\n      type: text\n      description: The device id.\n"
        "    picked_label:\n      type: text\n      description: The device's model name.\n"
        "    wiped:\n      type: bool\n      description: The device was wiped.\n"
    ),
}


def test_a_refusal_does_not_assert_unset_what_the_model_sets_first(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", FILES)
    report = generate_offline(root, ["wipe"], tmp_path / "out")
    refused = [c for c in report["cases"] if "refused" in c["behavior"]]
    assert refused, report["dropped"]
    data = yaml.safe_load(Path(refused[0]["path"]).read_text(encoding="utf-8"))
    unset = [
        item["name"]
        for check in data["scenario"]["goals"]["assertions"]
        for item in check.get("memory_was_not_set", [])
    ]
    assert "wipe.wiped" in unset
    assert "wipe.picked_label" not in unset
