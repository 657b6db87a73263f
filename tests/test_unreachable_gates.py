"""A tool whose `requires` reads a project entry: the gate opens only by what the project
or the case writes there, never by the model.

Rasa's `set_fields` offers only the running skill's `llm_settable` fields and collect
targets, never a project entry, and `requires` is evaluated over declared memory. So:
- an entry marked `seed: true` that nothing writes is channel context: the case seeds it in
  `setup.initial_slots` so the gate holds, and the tool's call is asserted;
- an entry no case can seed and nothing writes keeps the gate shut: the interpreter never
  fills it, no case asserts the tool ran, and the goal case is written `needs-review` with
  the requires line and the entry;
- an entry a sign-in skill's tool writes opens when the skill's prose runs that skill.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, play_lines, write_project

PASS_SKILL = """\
---
name: Guest pass
description: >
  Let a visitor into the building with a day pass. "Can my brother get in Friday?"
import_tools:
  - mcp/doors:issue_pass
tool_constraints:
  - issue_pass:
      requires: session.project.lease_holder and session.guest_pass.guest_name
      on_success: utter_pass_issued
---

Ask for the guest's name (set guest_name). Then issue the pass with @tool.issue_pass.
"""


def _files(lease_holder: str) -> dict[str, str]:
    return {
        "agent.yml": "agent:\n  name: Tower desk\n  persona: You help the tower's residents.\n",
        "integrations.yml": INTEGRATIONS
        + "mcp_servers:\n  doors:\n    url: http://doors.invalid/mcp\n",
        "memory.yml": "lease_holder:\n  type: bool\n  # True for a resident on the lease.\n"
        + lease_holder,
        "responses.yml": "responses:\n  utter_pass_issued:\n    - text: The pass is on its way.\n",
        "skills/guest_pass/skill.md": PASS_SKILL,
        "skills/guest_pass/memory.yml": (
            "schema:\n  public:\n    guest_name:\n      type: text\n"
            "      description: The guest's full name.\n      llm_settable: true\n"
        ),
    }


def _happy(report: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    row = next(r for r in report["cases"] if r["type"] == "happy_path")
    return row, yaml.safe_load(Path(row["path"]).read_text(encoding="utf-8"))


def _ran(case: dict[str, Any], tool: str) -> bool:
    return any(
        a.get("tool_executed", {}).get("tool_name") == tool
        for a in case["scenario"]["goals"]["assertions"]
    )


def test_a_seedable_entry_a_gate_reads_is_seeded_by_the_case(tmp_path: Path) -> None:
    root = write_project(tmp_path / "tower", _files("  seed: true\n"))
    row, case = _happy(generate_offline(root, ["guest_pass"], tmp_path))
    assert case["scenario"]["setup"]["initial_slots"] == {"project.lease_holder": True}
    assert row["verified"] == "yes", row
    assert _ran(case, "issue_pass")
    # the seed is the case's, not a write the conversation makes
    steps = str(case["scenario"]["goals"]["assertions"])
    assert "memory_was_set': 'project.lease_holder" not in steps


def test_an_entry_nothing_can_write_keeps_the_gate_shut(tmp_path: Path) -> None:
    root = write_project(tmp_path / "tower", _files(""))
    events = play_lines(root, ["Can my brother get in Friday?", "Omar Haddad", "yes"])
    assert not [e for e in events if e["event"] == "tool_executed"], events
    written = {e.get("key") for e in events if e["event"] == "memory_set"}
    assert "project.lease_holder" not in written
    row, case = _happy(generate_offline(root, ["guest_pass"], tmp_path))
    assert not _ran(case, "issue_pass"), case
    assert "initial_slots" not in str(case)
    # its goal is out of reach: written for a person, with where and why
    assert row["verified"] == "needs-review", row
    reason = row["needs_review"]
    assert "skills/guest_pass/skill.md:9: issue_pass has `requires:" in reason, reason
    assert "nothing can write project.lease_holder" in reason
    assert "gating condition not met" in reason


# --- a gate a sign-in skill's tool opens ------------------------------------------------------

BORROW_SKILL = """\
---
name: Borrow a tool
description: >
  Borrow a tool from the workshop's shelf. "Can I take the drill home?"
import_tools:
  - mcp/shelf:lend_tool
tool_constraints:
  - lend_tool:
      requires: session.project.signed_in and session.borrow.tool_name
      on_success: utter_tool_lent
---

If @memory.project.signed_in is not true, run @skill.sign_in first.

Ask which tool they want (set tool_name). Then lend it with @tool.lend_tool.
"""

SIGN_IN_SKILL = """\
---
name: Sign in
description: Sign a member in with their member number.
---

Ask for their member number (set member_number), then call @tool.check_member.
"""

SIGN_IN_FILES = {
    "agent.yml": "agent:\n  name: Workshop desk\n  persona: You help the workshop's members.\n",
    "integrations.yml": INTEGRATIONS
    + "mcp_servers:\n  shelf:\n    url: http://shelf.invalid/mcp\n",
    "memory.yml": "signed_in:\n  type: bool\n  # True once check_member matched the member.\n",
    "responses.yml": "responses:\n  utter_tool_lent:\n    - text: It's yours for a week.\n",
    "skills/borrow/skill.md": BORROW_SKILL,
    "skills/borrow/memory.yml": (
        "schema:\n  public:\n    tool_name:\n      type: text\n"
        "      description: The tool they want.\n      llm_settable: true\n"
    ),
    "skills/sign_in/skill.md": SIGN_IN_SKILL,
    "skills/sign_in/memory.yml": (
        "schema:\n  public:\n    member_number:\n      type: text\n"
        "      description: Member number, M- and four digits.\n      llm_settable: true\n"
    ),
    "skills/sign_in/tools.py": (
        "from rasa.mantle.tools.decorator import ToolContext, tool\n\n\n"
        '@tool(description="Check a member number.")\n'
        "async def check_member(member_number: str, context: ToolContext = None):\n"
        '    context.memory.set("project.signed_in", True)\n'
        '    return {"ok": True}\n'
    ),
}


def test_the_sign_in_the_prose_names_opens_the_gate_its_tool_writes(tmp_path: Path) -> None:
    root = write_project(tmp_path / "workshop", SIGN_IN_FILES)
    events = play_lines(root, ["Can I take the drill home?", "M-1234", "the drill", "yes"])
    ran = [e["tool_name"] for e in events if e["event"] == "tool_executed"]
    assert ran == ["check_member", "lend_tool"], events
    activated = [e.get("skill_id") for e in events if e["event"] == "skill_activated"]
    assert activated[:2] == ["borrow", "sign_in"], activated
