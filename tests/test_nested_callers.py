"""A caller who is a person inside another file's records passes the check that asks for them.

Found on an airline's assistant: the passengers are nested in the booking records (no people
file, no phone), the trip check asks in prose for the booking reference and the passenger's
last name, and its tool compares the last name with a nested key (`last`) that is not the
parameter's name. Every case behind the check had an invented persona who holds no booking,
so a correct agent stops at the check and nothing the case asserts happens.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.testdata import (
    Collection,
    DataRecords,
    SheetBuilder,
    allowed_by,
    callers_in,
    checked_details,
)

SAILINGS = Collection(
    "sailings",
    (
        {"ref": "KT4QZ", "lead": "T1", "deck": "upper",
         "travellers": [{"id": "T1", "first": "Ines", "last": "Marchetti"},
                        {"id": "T2", "first": "Pia", "last": "Marchetti", "age": 6}]},
        {"ref": "WB7RN", "lead": "T1", "deck": "car",
         "travellers": [{"id": "T1", "first": "Oskar", "last": "Lindahl"}]},
    ),
)  # fmt: skip


def test_a_person_nested_in_another_files_record_is_a_caller_with_its_id() -> None:
    records = DataRecords([SAILINGS])
    callers = callers_in(records)
    # the people each record names (`lead: T1`), not the child travelling with them
    assert [c.full_name for c in callers] == ["Ines Marchetti", "Oskar Lindahl"]
    ines = callers[0]
    assert ines.name == "Ines" and ines.phone == ""
    # the reference the check asks for with the last name the check's code compares
    said = checked_details(records, ines, ["ref", "last_name"], keys={"last_name": "last"})
    assert said == {"ref": "KT4QZ", "last_name": "Marchetti"}
    # people with a phone of their own stay the callers
    people = Collection(
        "customers", ({"first_name": "Rosa", "last_name": "Vidal", "phone": "+15550101"},)
    )
    assert [c.name for c in callers_in(DataRecords([people, SAILINGS]))] == ["Rosa"]


def test_a_refund_branch_fits_a_refundable_fare_and_not_a_nonrefundable_one() -> None:
    fares = Collection(
        "sailings",
        (
            {"ref": "KT4QZ", "lead": "T1", "fare": "nonrefundable",
             "travellers": [{"id": "T1", "first": "Ines", "last": "Marchetti"}]},
            {"ref": "WB7RN", "lead": "T1", "fare": "refundable",
             "travellers": [{"id": "T1", "first": "Oskar", "last": "Lindahl"}]},
            {"ref": "ZZ1AB", "lead": "T1", "fare": "saver",
             "travellers": [{"id": "T1", "first": "Lea", "last": "Stein"}]},
        ),
    )  # fmt: skip
    records = DataRecords([fares])
    ines, oskar, lea = callers_in(records)
    assert allowed_by(records, oskar, ["refund"]) == 1
    assert allowed_by(records, ines, ["refund"]) == -1
    assert allowed_by(records, lea, ["refund"]) == 0
    # a branch whose value has no "can be done" form says nothing
    assert allowed_by(records, ines, ["seat"]) == 0


FIND = """\
---
name: Find the sailing
description: >
  Pulling up a ferry booking: "here's my booking", "can you find my sailing".
import_tools:
  - find_sailing
---

Ask for the booking reference and the traveller's last name, in one message. Then call
@tool.find_sailing. If it does not match, ask them to check the reference once.
"""

FIND_TOOLS = '''\
import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool

DATA = Path(__file__).resolve().parents[2] / "data" / "sailings.json"


@tool(description="Find a sailing by reference and the traveller's last name.")
async def find_sailing(ref: str, last_name: str, context: ToolContext = None):
    """Match the booking and the traveller.

    Args:
        ref: Booking reference, five characters like KT4QZ.
        last_name: The traveller's own last name.
    """
    wanted = ref.strip().upper()
    booking = next((b for b in json.loads(DATA.read_text()) if b["ref"] == wanted), None)
    traveller = None
    if booking is not None:
        traveller = next(
            (t for t in booking["travellers"] if t["last"].lower() == last_name.strip().lower()),
            None,
        )
    if traveller is None:
        return {"found": False}
    if context is not None:
        context.memory.set("project.found", True)
    return {"found": True, "first_name": traveller["first"]}
'''

DECK = """\
---
name: Change the deck
description: >
  Moving a booking to another deck: "can I move to the upper deck", "change my cabin".
tool_constraints:
  - change_deck:
      requires: session.deck.deck
      on_success: utter_moved
---

If @memory.project.found is not true, run @skill.find first.
Then run @block.pick, and call change_deck with the deck.

:::ordered_block id=pick
steps:
  - id: ask_deck
    collect: deck
    description: The deck they want.
:::
"""

DECK_MEMORY = """\
schema:
  public:
    deck:
      type: categorical
      enum_values: [upper, car]
      description: The deck they want.
      llm_settable: true
"""

DECK_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Move the booking to another deck.")
async def change_deck(deck: str, context: ToolContext = None):
    """Move it.

    Args:
        deck: The deck.
    """
    return {"moved": True}
'''

FERRY_FILES = {
    "agent.yml": "name: Tern ferries\npersona: You help ferry travellers with bookings.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "found:\n  type: bool\n  # True once find_sailing matched.\n",
    "responses.yml": "responses:\n  utter_moved:\n    - text: Moved.\n",
    "skills/find/skill.md": FIND,
    "skills/find/tools.py": FIND_TOOLS,
    "skills/deck/skill.md": DECK,
    "skills/deck/memory.yml": DECK_MEMORY,
    "skills/deck/tools.py": DECK_TOOLS,
    "data/sailings.json": json.dumps(SAILINGS.records),
}

#: The people the booking records name, with their booking's reference.
HOLDERS = {"Ines Marchetti": "KT4QZ", "Oskar Lindahl": "WB7RN"}


@pytest.mark.parametrize("target", ["deck", "find"])
def test_a_case_behind_the_check_is_a_traveller_with_their_reference_and_last_name(
    tmp_path_factory: pytest.TempPathFactory, target: str
) -> None:
    root = write_project(tmp_path_factory.mktemp("tern"), FERRY_FILES)
    report = generate_offline(root, [target], tmp_path_factory.mktemp("out"))
    rows = [r for r in report["cases"] if str(r.get("path", "")).endswith("happy_path.yml")]
    assert rows
    for row in rows:
        context = yaml.safe_load(Path(row["path"]).read_text("utf-8"))["scenario"][
            "simulation_context"
        ]
        person = next((p for p in HOLDERS if f"You are {p}," in context), None)
        assert person is not None, context
        assert f"- booking reference: {HOLDERS[person]}" in context, context
        assert f"- last name: {person.split()[1]}" in context, context


def test_a_travellers_cases_each_talk_in_another_manner() -> None:
    # a few travellers for all of a skill's cases: the same person recurs, and two of their
    # cases alike in all but the request would be near-duplicates
    records = DataRecords([SAILINGS])
    ines = callers_in(records)[0]
    manners = set()
    for slot in range(8):
        sheet = SheetBuilder(
            f"deck:{slot}", "ferry travellers", records, first_name="Ines", slot=slot
        )
        sheet.hold(SAILINGS.records[0], ines.full_name)
        assert sheet.persona.name == "Ines Marchetti"
        manners.add(sheet.persona.manner)
    assert len(manners) == 8, manners


def test_a_refund_hand_off_is_played_by_a_passenger_whose_fare_is_refundable() -> None:
    project = load_project(Path(__file__).resolve().parent / "data" / "corpus" / "skyway_air")
    behaviors = plan_source(project, "mantle", "agent_handoff", None).behaviors
    refunds = [
        b for b in behaviors if (b.facts.get("values") or {}).get("agent_handoff.topic") == "refund"
    ]
    assert refunds
    bookings = json.loads((Path(project.root) / "data" / "bookings.json").read_text("utf-8"))
    nonrefundable = {b["pnr"] for b in bookings if b["ticket_type"] == "nonrefundable"}
    for behavior in refunds:
        text = draft_mantle(DraftContext(project, "mantle", behavior))["scenario"][
            "simulation_context"
        ]
        assert not any(pnr in text for pnr in nonrefundable), text
