"""A case's facts keep it on its path where the project's data decides it.

- A gate's `requires` comparing a field a tool copies from a record with a number
  (`refills_left == 0` for the renewal): a refill case names a prescription with refills
  left (before: one with none, which a correct agent sends to the renewal).
- A tool's code comparing the user's numbers with a data file's rows (`n < par`): an
  "all good" count is at or over each item's minimum (before: 7 and 1 under 40 and 25).
- No record fits: the case is written needs-review with the file and the condition.
- An id of a written-out shape (`OPN-#####`) is never another file's id nor invented: the
  user picks one the agent lists (before: a shift's `SH-…`), and an id the user knows is
  drawn in that shape (before: `I-42769` for `INC-####`).
"""

from __future__ import annotations

from pathlib import Path

import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from agentflows.drafting.offline._mantle_data_sides import gate_sides, record_sources
from evalcore.definitions import load_project
from evalcore.testdata import Collection

REFILL = """\
---
name: Refill
description: Refilling a medicine, "I need a refill of my pills".
tool_constraints:
  - request_renewal:
      requires: session.refill.rx_number and session.refill.refills_left == 0
---

Run @block.details. If no refills are left, offer @tool.request_renewal.
When the details are read back, call submit_refill with the Rx number.

:::ordered_block id=details
steps:
  - id: pick
    instructions: |
      Ask which prescription they need, by Rx number (set rx_number).
    complete_when: session.refill.rx_number
  - id: check
    execute_tool: check_rx
    parameters:
      rx_number: session.refill.rx_number
:::
"""

TOOLS = '''\
import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool

RX = Path(__file__).resolve().parents[2] / "data" / "prescriptions.json"


@tool(description="Look the prescription up.")
async def check_rx(rx_number: str, context: ToolContext = None):
    """Its refills.

    Args:
        rx_number: Seven-digit prescription number.
    """
    rx = next(r for r in json.loads(RX.read_text()) if r["rx_number"] == rx_number)
    context.memory.set("refills_left", rx["refills_left"])
    return {"found": True}


@tool(description="Queue the refill.")
async def submit_refill(rx_number: str, context: ToolContext = None):
    """Queue it.

    Args:
        rx_number: Seven-digit prescription number.
    """
    return {"ok": True}


@tool(description="Ask the prescriber for a renewal.")
async def request_renewal(rx_number: str, context: ToolContext = None):
    """Ask.

    Args:
        rx_number: Seven-digit prescription number.
    """
    return {"ok": True}
'''

PRESCRIPTIONS = [
    {"rx_number": f"61000{n:02d}", "drug": f"Drug {n}", "refills_left": left}
    for n, left in enumerate((0, 3, 0, 0, 2, 0, 0, 1))
]

FILES = {
    "agent.yml": "name: Pharmacy\npersona: You help patients refill prescriptions.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "{}\n",
    "skills/refill/skill.md": REFILL,
    "skills/refill/memory.yml": (
        "schema:\n  public:\n    rx_number:\n      type: text\n"
        "      description: Prescription number, seven digits from the label.\n"
        "      llm_settable: true\n"
        "  private:\n    refills_left:\n      type: int\n"
    ),
    "skills/refill/tools.py": TOOLS,
}


def test_a_gate_on_a_record_copied_field_gives_the_side_each_path_needs(tmp_path: Path) -> None:
    import json

    root = write_project(
        tmp_path / "p", {**FILES, "data/prescriptions.json": json.dumps(PRESCRIPTIONS)}
    )
    project = load_project(root)
    assert record_sources(project, "refill")["refill.refills_left"] == "refills_left"
    submit = gate_sides(project, "refill", frozenset({"check_rx", "submit_refill"}))
    renew = gate_sides(project, "refill", frozenset({"check_rx", "request_renewal"}))
    assert [submit["refills_left"](r["refills_left"]) for r in PRESCRIPTIONS] == [
        r["refills_left"] != 0 for r in PRESCRIPTIONS
    ]
    assert renew["refills_left"](0) and not renew["refills_left"]("2")


def test_a_refill_case_names_a_prescription_with_refills_left(tmp_path: Path) -> None:
    import json

    root = write_project(
        tmp_path / "p", {**FILES, "data/prescriptions.json": json.dumps(PRESCRIPTIONS)}
    )
    generate_offline(root, ["refill"], tmp_path / "out")
    left = {r["rx_number"]: r["refills_left"] for r in PRESCRIPTIONS}
    named = []
    for path in sorted((tmp_path / "out" / "cases").rglob("*.yml")):
        context = yaml.safe_load(path.read_text("utf-8"))["scenario"]["simulation_context"]
        named += [rx for rx in left if rx in context]
    assert named, "no case names a prescription"
    assert all(left[rx] != 0 for rx in named), named


COUNT = """\
---
name: Shelf count
description: The nightly shelf count of the pantry, "let's do the pantry count".
tool_constraints:
  - place_order:
      requires: session.shelf_count.order_lines
---

Count the shelves, then order what is under the minimum. Run @block.count.

:::ordered_block id=count
steps:
  - id: rice
    collect: rice_sacks
    utterance: utter_ask_rice
    description: Sealed sacks of rice, a whole number.
  - id: flour
    collect: flour_bags
    utterance: utter_ask_flour
    description: Sealed bags of flour, a whole number.
  - id: record
    execute_tool: save_count
    parameters:
      rice_sacks: session.shelf_count.rice_sacks
      flour_bags: session.shelf_count.flour_bags
    next:
      - if: session.shelf_count.short
        then: order
      - else: enough
  - id: order
    instructions: |
      Read the lines to order and set order_lines when they agree.
    complete_when: session.shelf_count.order_lines
    next: END
  - id: enough
    action: utter_enough
  - id: END
:::

When there are order lines, call place_order.
"""

COUNT_TOOLS = '''\
import csv
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool

MINIMA = Path(__file__).resolve().parents[2] / "data" / "minimums.csv"
ITEMS = {"rice_sacks": "RICE", "flour_bags": "FLOUR"}


def _minima() -> dict[str, dict]:
    with MINIMA.open(newline="") as handle:
        return {row["item"]: row for row in csv.DictReader(handle)}


@tool(description="Save the count and flag what is under the minimum.")
async def save_count(rice_sacks: int, flour_bags: int, context: ToolContext = None):
    """Save it.

    Args:
        rice_sacks: Sealed sacks.
        flour_bags: Sealed bags.
    """
    counts = {ITEMS[k]: v for k, v in {"rice_sacks": rice_sacks, "flour_bags": flour_bags}.items()}
    minima = _minima()
    under = [item for item, n in counts.items() if n < int(minima[item]["minimum"])]
    context.memory.set("short", bool(under))
    return {"under": under}


@tool(description="Place the order.")
async def place_order(order_lines: list, context: ToolContext = None):
    """Order.

    Args:
        order_lines: The lines.
    """
    return {"ok": True}
'''

COUNT_FILES = {
    "agent.yml": "name: Kitchen\npersona: You help cooks with the pantry.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "{}\n",
    "skills/shelf_count/skill.md": COUNT,
    "skills/shelf_count/memory.yml": (
        "schema:\n  public:\n"
        "    rice_sacks:\n      type: int\n      description: Sealed sacks of rice.\n"
        "      llm_settable: true\n"
        "    flour_bags:\n      type: int\n      description: Sealed bags of flour.\n"
        "      llm_settable: true\n"
        "    order_lines:\n      type: text\n      description: The lines to order.\n"
        "      llm_settable: true\n"
        "  private:\n    short:\n      type: bool\n"
    ),
    "skills/shelf_count/responses.yml": (
        "responses:\n  utter_ask_rice:\n    - text: How many sacks of rice?\n"
        "  utter_ask_flour:\n    - text: How many bags of flour?\n"
        "  utter_enough:\n    - text: Nothing to order.\n"
    ),
    "skills/shelf_count/tools.py": COUNT_TOOLS,
    "data/minimums.csv": "item,minimum\nRICE,40\nFLOUR,25\n",
}


def test_counts_are_on_the_side_of_the_minimum_the_case_plays(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", COUNT_FILES)
    generate_offline(root, ["shelf_count"], tmp_path / "out")
    minimum = {"rice": 40, "flour": 25}
    seen = {}
    for path in sorted((tmp_path / "out" / "cases").rglob("*.yml")):
        scenario = yaml.safe_load(path.read_text("utf-8"))["scenario"]
        counts = {}
        for line in scenario["simulation_context"].splitlines():
            fact = line.strip().lower()
            for item in minimum:
                if fact.startswith("- ") and item in fact and fact[-1].isdigit():
                    counts[item] = int(fact.rsplit(":", 1)[1])
        if len(counts) == len(minimum):
            seen[path.stem] = counts
    enough = [c for stem, c in seen.items() if "enough" in stem]
    # the nothing-to-order branch is a happy path of its own (`shelf_count_enough_happy_path`)
    ordering = [c for stem, c in seen.items() if "happy" in stem and "enough" not in stem]
    assert enough and ordering, seen
    # nothing to order: every count at or over its own item's minimum
    assert all(c[i] >= minimum[i] for c in enough for i in minimum), enough
    # an order: some count under its minimum
    assert all(any(c[i] < minimum[i] for i in minimum) for c in ordering), ordering


def test_a_case_no_record_keeps_on_its_path_is_written_for_review(tmp_path: Path) -> None:
    import json

    none_left = [{**r, "refills_left": 0} for r in PRESCRIPTIONS]
    root = write_project(
        tmp_path / "p", {**FILES, "data/prescriptions.json": json.dumps(none_left)}
    )
    report = generate_offline(root, ["refill"], tmp_path / "out")
    reasons = {c["behavior"]: c.get("needs_review") or "" for c in report["cases"]}
    marked = {b: r for b, r in reasons.items() if "no-fitting-record" in r}
    # every refill case names a prescription with none left: each says so, with the file,
    # the field and the gate behind it, and none is passed off as verified
    assert marked and marked.keys() == reasons.keys(), reasons
    assert all(
        "data/prescriptions.json" in r and "refills_left" in r and "request_renewal" in r
        for r in marked.values()
    ), marked
    assert all(c["verified"] == "needs-review" for c in report["cases"])


PICK_UP = """\
---
name: Pick up a shift
description: Picking up an open shift at the store, "can I grab an extra shift".
tool_constraints:
  - claim_open_shift:
      requires: session.pick_up.open_shift_id
---

Call list_open_shifts for their store and read out date, time and position.
When they pick one, set open_shift_id and call claim_open_shift.
"""

PICK_UP_TOOLS = '''\
import httpx
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="List open shifts at a store.")
async def list_open_shifts(store_id: str, context: ToolContext = None):
    """Open shifts.

    Args:
        store_id: Store number like ST-0417.
    """
    async with httpx.AsyncClient(base_url="https://shifts.example") as api:
        response = await api.get("/open-shifts", params={"store": store_id})
    return {"open_shifts": response.json()["items"]}


@tool(description="Claim an open shift.")
async def claim_open_shift(open_shift_id: str, context: ToolContext = None):
    """Claim it.

    Args:
        open_shift_id: OPN-#####.
    """
    async with httpx.AsyncClient(base_url="https://shifts.example") as api:
        await api.post(f"/open-shifts/{open_shift_id}/claims")
    return {"claimed": True}
'''

SHIFTS = [
    {"shift_id": f"SH-0417-120{n}-A", "store": "ST-0417", "date": f"2026-12-0{n}"}
    for n in range(1, 5)
]

PICK_UP_FILES = {
    "agent.yml": "name: Store desk\npersona: You help store staff with their shifts.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "{}\n",
    "skills/pick_up/skill.md": PICK_UP,
    "skills/pick_up/memory.yml": (
        "schema:\n  public:\n    open_shift_id:\n      type: text\n"
        "      description: Id of the open shift they want to pick up, OPN-#####.\n"
        "      llm_settable: true\n"
    ),
    "skills/pick_up/tools.py": PICK_UP_TOOLS,
}


def test_an_id_only_a_service_lists_is_picked_from_the_agents_list(tmp_path: Path) -> None:
    import json

    files = {**PICK_UP_FILES, "data/shifts.json": json.dumps(SHIFTS)}
    root = write_project(tmp_path / "p", files)
    generate_offline(root, ["pick_up"], tmp_path / "out")
    texts = [p.read_text("utf-8") for p in sorted((tmp_path / "out" / "cases").rglob("*.yml"))]
    assert texts
    happy = [t for t in texts if "claim_open_shift" in t and "happy_path" in t]
    assert happy, texts
    for text in texts:
        # never a shift of the shifts file (another thing's id), never an invented OPN id
        assert "SH-0417" not in text and "OPN-" not in text, text
    for text in happy:
        context = yaml.safe_load(text)["scenario"]["simulation_context"]
        assert "When the agent reads out the open shifts, pick the first one." in context


def test_an_id_the_user_knows_has_the_shape_its_description_writes_out() -> None:
    import re

    from evalcore.testdata import DataRecords, FieldSpec, SheetBuilder

    incident = FieldSpec("incident_ref", "text", "Incident number during a freeze, INC-####.")
    ticket = FieldSpec("work_order_id", "text", "FixIt ticket number, FX-######.")
    shifts = DataRecords([Collection("shifts", tuple(SHIFTS))])
    shift = FieldSpec("open_shift_id", "text", "Id of the open shift, OPN-#####.")
    for n in range(20):
        assert re.fullmatch(r"INC-\d{4}", SheetBuilder(f"c{n}", "").value(incident))
        assert re.fullmatch(r"FX-\d{6}", SheetBuilder(f"c{n}", "").value(ticket))
        # a record of another shape is another thing's id, never this one
        assert SheetBuilder(f"c{n}", "", shifts).from_records(shift) is None


def test_a_record_of_someone_else_is_named_only_with_a_needs_review_reason() -> None:
    from evalcore.testdata import DataRecords, FieldSpec, SheetBuilder

    staff = Collection(
        "employees",
        (
            {"employee_id": "E1", "first_name": "Ana", "last_name": "Ruiz"},
            {"employee_id": "E2", "first_name": "Ben", "last_name": "Cole"},
        ),
        "data/employees.json",
    )
    shifts = Collection("shifts", ({"shift_id": "SH-1", "employee_id": "E2"},), "data/shifts.json")
    shift = FieldSpec("shift_id", "text", "Id of their shift.")
    own = SheetBuilder("c1", "", DataRecords([staff, shifts]))
    own.hold(staff.records[1])  # Ben holds SH-1: nothing to note
    assert own.from_records(shift) == "SH-1" and not own.sheet.misfits
    other = SheetBuilder("c2", "", DataRecords([staff, shifts]))
    other.hold(staff.records[0])  # Ana holds no shift: the one named is Ben's, and it says so
    assert other.from_records(shift) == "SH-1"
    assert other.sheet.misfits and "data/shifts.json" in other.sheet.misfits[0]
    assert "employee_id E1" in other.sheet.misfits[0]
