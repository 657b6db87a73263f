"""The project seeds who is calling (project memory `initial_value`): the records a case's
user talks about are the caller's own, never another customer's of the same file."""

from __future__ import annotations

import json

from evalcore.testdata import Collection, DataRecords, FieldSpec, SheetBuilder
from tests.skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

ROUTERS = [
    {"customer_id": customer, "device_id": f"RTR-{customer}-0{n}", "model": "Fiber X"}
    for customer in ("124", "125", "123", "456", "789")
    for n in (1, 2)
]

PROJECT: dict[str, str] = {
    "agent.yml": (
        "name: Fibrenet help\npersona: You help home internet customers. The caller is "
        "already identified as the seeded customer.\n"
    ),
    "integrations.yml": INTEGRATIONS,
    "memory.yml": """\
customer_id:
  type: text
  description: The customer id the routers tool reads.
  initial_value: "123"
""",
    "data/routers.json": json.dumps(ROUTERS),
    "skills/reset_router/skill.md": """\
---
name: Reset router
description: Customers reset their home router when the internet stops working.
complete_when:
  condition: session.reset_router.router_reset
---

Ask which router to reset (set device_id), then reset it with @tool.reset_router and set
router_reset.
""",
    "skills/reset_router/memory.yml": """\
schema:
  public:
    device_id:
      type: text
      description: The router's device id, for example RTR-123-01.
    router_reset:
      type: bool
      description: True once the router is reset.
""",
    "skills/reset_router/tools.py": '''\
"""Routers of data/routers.json."""

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Reset a router.")
async def reset_router(device_id: str, context: ToolContext = None) -> ToolResult:
    """Reset one router of the current customer.

    Args:
        device_id: The router, for example RTR-123-01.
    """
    return ToolResult(llm_response={"ok": True})
''',
}


def test_a_record_is_drawn_from_the_seeded_callers_own():
    routers = Collection("routers", tuple(ROUTERS))
    spec = FieldSpec("device_id", "text", "The router.")
    mine = DataRecords([routers], identity={"customer_id": "123"})
    drawn = {SheetBuilder(f"case{n}", "", mine, slot=n).from_records(spec) for n in range(10)}
    assert drawn == {"RTR-123-01", "RTR-123-02"}
    # an identity no record carries, or a value no record holds, leaves the file whole
    for identity in ({"account": "123"}, {"customer_id": "999"}):
        every = DataRecords([routers], identity=identity)
        got = {SheetBuilder(f"c{n}", "", every, slot=n).from_records(spec) for n in range(10)}
        assert len(got) == 10


def test_the_cases_name_only_the_callers_routers(tmp_path):
    root = write_project(tmp_path / "project", PROJECT)
    generate_offline(root, ["reset_router"], tmp_path / "out")
    cases = sorted((tmp_path / "out" / "cases").rglob("*.yml"))
    texts = [p.read_text() for p in cases]
    named = {word for t in texts for word in t.replace('"', " ").split() if "RTR-" in word}
    assert named, texts
    assert all("RTR-123-0" in word for word in named), named
