"""A data file belongs to the skills whose tools read it: another skill's narrative field
(`reason`) never takes a value from its records, while an id still does."""

from __future__ import annotations

from pathlib import Path

import yaml

from evalcore.definitions import load_project
from evalcore.definitions.skill_model import data_readers
from evalcore.testdata import Collection, DataRecords, FieldSpec, SheetBuilder
from tests.skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

BOOKING_REASONS = ("vaccination", "dental", "nail trim")

PROJECT: dict[str, str] = {
    "agent.yml": "name: Fernhill vets\npersona: You help pet owners.\n",
    "integrations.yml": INTEGRATIONS,
    "data/bookings.csv": (
        "booking_id,animal,reason\n"
        + "".join(f"B-5021{n},Pepper,{r}\n" for n, r in enumerate(BOOKING_REASONS))
    ),
    "skills/cancel_booking/skill.md": """\
---
name: Cancel a booking
description: Pet owners cancel an appointment they booked.
complete_when:
  condition: session.cancel_booking.cancelled
---

Ask for the booking id (set booking_id), then cancel it with @tool.cancel_booking and set
cancelled.
""",
    "skills/cancel_booking/memory.yml": """\
schema:
  public:
    booking_id:
      type: text
      description: The booking, for example "B-50211".
    cancelled:
      type: bool
      description: True once the booking is cancelled.
""",
    "skills/cancel_booking/tools.py": '''\
"""Bookings: the diary export in data/bookings.csv."""

from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

BOOKINGS = Path(__file__).resolve().parents[2] / "data" / "bookings.csv"


@tool(description="Cancel a booking.")
async def cancel_booking(booking_id: str, context: ToolContext = None) -> ToolResult:
    """Cancel one booking.

    Args:
        booking_id: The booking, for example B-50211.
    """
    return ToolResult(llm_response={"cancelled": BOOKINGS.exists()})
''',
    "skills/page_vet/skill.md": """\
---
name: Vet on call
description: >
  Speaking to the vet on call straight away: "my dog ate chocolate", "put me through to a
  vet".
import_tools:
  - mcp/oncall:page_vet
complete_when:
  condition: session.page_vet.paged
---

Ask what is wrong, in a few words (set reason), then page the vet with @tool.page_vet and
set paged once the page goes out.
""",
    "skills/page_vet/memory.yml": """\
schema:
  public:
    reason:
      type: text
      description: What is wrong, in a few words.
    paged:
      type: bool
      description: True once the vet on call was paged.
""",
}


def test_a_data_file_belongs_to_the_skills_whose_tool_files_name_it(tmp_path):
    root = write_project(tmp_path, {**PROJECT, "data/rooms.json": '[{"room": "A"}]'})
    readers = data_readers(load_project(root), ["bookings", "rooms"])
    # rooms.json is named by no tool's file: it is left out, open to every skill
    assert readers == {"bookings": frozenset({"cancel_booking"})}


def test_a_narrative_field_takes_no_value_from_another_skills_records():
    bookings = Collection(
        "bookings", tuple({"booking_id": f"B-{n}", "reason": r} for n, r in enumerate("xyz"))
    )
    records = DataRecords([bookings], readers={"bookings": frozenset({"cancel_booking"})})
    reason = FieldSpec("reason", "text", "What is wrong.", narrative_of="page_vet")
    own = FieldSpec("reason", "text", "Why they cancel.", narrative_of="cancel_booking")
    named = FieldSpec("booking_reason", "text", "Why it was booked.", narrative_of="page_vet")
    booking_id = FieldSpec("booking_id", "text", "The booking.")
    assert SheetBuilder("c", "", records).from_records(reason) is None
    assert SheetBuilder("c", "", records).from_records(own) in "xyz"
    assert SheetBuilder("c", "", records).from_records(named) in "xyz"
    assert SheetBuilder("c", "", records).from_records(booking_id).startswith("B-")
    # a file no tool reads is everyone's
    open_records = DataRecords([bookings])
    assert SheetBuilder("c", "", open_records).from_records(reason) in "xyz"


def _facts(path: Path) -> str:
    return yaml.safe_load(path.read_text())["scenario"]["simulation_context"]


def test_the_vet_on_call_case_never_gives_a_booking_reason(tmp_path):
    root = write_project(tmp_path / "project", PROJECT)
    generate_offline(root, ["page_vet", "cancel_booking"], tmp_path / "out")
    cases = sorted((tmp_path / "out" / "cases").rglob("*.yml"))
    paging = [p for p in cases if p.name.startswith("page_vet")]
    cancelling = [p for p in cases if p.name.startswith("cancel_booking")]
    assert paging and cancelling
    for path in paging:
        context = _facts(path)
        assert "what is wrong" in context.lower() or "reason:" in context, (path.name, context)
        assert not any(reason in context for reason in BOOKING_REASONS), (path.name, context)
    # the booking's own fields still come from the file the cancelling tool reads
    assert any("B-5021" in _facts(p) for p in cancelling)
