"""A narrative fact (what the equipment is doing, what the problem is) is never a description
example that asks something, nor one the description's examples give to another mode: such a
phrase sends a correct agent down another branch than the one the case checks."""

from __future__ import annotations

import json
import random
from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting.offline._mantle_branch_phrases import branch_intent, handed_values
from agentflows.drafting.offline._mantle_facts import (
    field_value,
    in_own_words,
    offers,
    offers_passed,
)
from evalcore.definitions import load_project
from evalcore.testdata import Collection, DataRecords, SheetBuilder, by_status, load_records

REPAIR = """\
---
name: Broken equipment
description: >
  Equipment that stopped working: "the oven won't heat", "grinder 2 is jammed",
  "when is the tech coming", "is my repair booked".
---

If they ask when a technician is coming for an existing ticket, look it up and stop there.

Otherwise ask what it is doing (set symptom).
"""

SHIP = """\
---
name: Shipping
description: >
  Anything about a deploy: "deploy v2.4.0 to staging", "my deploy of cart-api failed
  with an error".
---

Set mode to one of deploy or diagnose, and ask in a sentence what happened (set details).

if: session.ship.mode == "deploy"
Ask for the environment (staging or prod) and the version tag, then call start_deploy.

if: session.ship.mode == "diagnose"
Call get_deploy_logs for the failed deploy and summarise the first error.
"""


def _defs(tmp_path: Path, skill_id: str, skill: str, memory: str):
    files = {
        "agent.yml": "name: Shop\npersona: You help staff.\n",
        "integrations.yml": INTEGRATIONS,
        f"skills/{skill_id}/skill.md": skill,
        f"skills/{skill_id}/memory.yml": memory,
    }
    return load_project(write_project(tmp_path, files)).mantle


def test_a_symptom_is_never_a_question_the_description_lists(tmp_path: Path) -> None:
    memory = (
        "schema:\n  public:\n    symptom: {type: text, description: What it is doing, in"
        " their words., llm_settable: true}\n"
    )
    defs = _defs(tmp_path, "repair", REPAIR, memory)
    field = defs.memory_field("repair.symptom")
    said = {in_own_words(defs, field, SheetBuilder(f"case-{n}", "staff"), {}) for n in range(40)}
    assert said == {"The oven won't heat.", "Grinder 2 is jammed."}


def test_a_narrative_is_never_another_modes_example(tmp_path: Path) -> None:
    memory = (
        "schema:\n  public:\n    mode: {type: categorical, enum_values: [deploy, diagnose],"
        " description: What they want., llm_settable: true}\n"
        "    details: {type: text, description: What happened in their words.,"
        " llm_settable: true}\n"
    )
    defs = _defs(tmp_path, "ship", SHIP, memory)
    field = defs.memory_field("ship.details")
    said = {
        in_own_words(defs, field, SheetBuilder(f"case-{n}", "staff"), {"ship.mode": "deploy"})
        for n in range(40)
    }
    assert said == {"Deploy v2.4.0 to staging."}


def test_a_symptom_never_names_another_choice_of_the_case(tmp_path: Path) -> None:
    memory = (
        "schema:\n  public:\n    equipment_type: {type: categorical, enum_values: [oven,"
        " grinder, blender], description: Which machine., llm_settable: true}\n"
        "    symptom: {type: text, description: What it is doing, in their words.,"
        " llm_settable: true}\n"
    )
    defs = _defs(tmp_path, "repair", REPAIR, memory)
    field = defs.memory_field("repair.symptom")
    # no phrasing is about a blender: the description's lead says what state it is in
    for machine, wanted in (
        ("oven", "The oven won't heat."),
        ("blender", "The blender stopped working."),
    ):
        fixed = {"repair.equipment_type": machine}
        said = {in_own_words(defs, field, SheetBuilder(f"c{n}", "staff"), fixed) for n in range(30)}
        assert said == {wanted}


UNIT = """\
---
name: Repair request
description: >
  Something in the unit is broken: "there are mice in the kitchen", "my bedroom latch is
  loose".
---

Run @block.describe.

:::ordered_block id=describe
steps:
  - id: category
    collect: category
    utterance: utter_ask_category
  - id: what
    collect: problem
    utterance: utter_ask_problem
  - id: specifics
    instructions: |
      if: @memory.unit.category == "pest"
      Ask what they have seen (mice, roaches, ants).

      if: @memory.unit.category == "lock_door"
      Ask which door, and whether the latch or the lock is broken.
    complete_when: session.unit.problem
:::
"""


def test_the_words_an_if_scopes_to_another_value_are_another_story(tmp_path: Path) -> None:
    memory = (
        "schema:\n  public:\n    category: {type: categorical, enum_values: [pest, lock_door],"
        " description: Kind of repair., llm_settable: true}\n"
        "    problem: {type: text, description: What is wrong in their words.,"
        " llm_settable: true}\n"
    )
    defs = _defs(tmp_path, "unit", UNIT, memory)
    field = defs.memory_field("unit.problem")
    for category, wanted in (
        ("pest", "There are mice in the kitchen."),
        ("lock_door", "My bedroom latch is loose."),
    ):
        fixed = {"unit.category": category}
        said = {in_own_words(defs, field, SheetBuilder(f"c{n}", "staff"), fixed) for n in range(30)}
        assert said == {wanted}


INCIDENTS = """\
---
name: Incidents
description: >
  Declaring an incident: "checkout is down".
---

Ask which service is affected (set service) and one line of what is observed (set summary).
"""


def test_a_summary_names_the_cases_own_service_not_the_examples(tmp_path: Path) -> None:
    memory = (
        "schema:\n  public:\n    service: {type: text, description: Catalog name of the"
        " service., llm_settable: true}\n"
        "    summary: {type: text, description: 'One observed line, e.g. \"5xx at 12% on"
        " checkout-api since 09:40 UTC\".', llm_settable: true}\n"
    )
    files = {
        "agent.yml": "name: Platform\npersona: You help engineers.\n",
        "integrations.yml": INTEGRATIONS,
        "skills/incidents/skill.md": INCIDENTS,
        "skills/incidents/memory.yml": memory,
        "data/services.json": json.dumps(
            [{"service": "checkout-api", "tier": 1}, {"service": "push-gateway", "tier": 2}]
        ),
    }
    root = write_project(tmp_path, files)
    defs = load_project(root).mantle
    sheet = SheetBuilder("case-1", "engineers", load_records(root))
    field = defs.memory_field("incidents.summary")
    said = field_value(defs, field, sheet, {}, told_so_far={"incidents.service": "push-gateway"})
    assert said == "5xx at 12% on push-gateway since 09:40 UTC"
    # the example's own service keeps its summary as written
    said = field_value(defs, field, sheet, {}, told_so_far={"incidents.service": "checkout-api"})
    assert said == "5xx at 12% on checkout-api since 09:40 UTC"


SAMPLES = """\
---
name: Sample drop-off
description: >
  Submitting samples to the sequencing, proteomics or metabolomics core.
---

Ask which core the samples are for (set service) and how many there are.
"""


def test_the_goal_line_names_the_cases_own_branch(tmp_path: Path) -> None:
    memory = (
        "schema:\n  public:\n    service: {type: categorical, enum_values: [sequencing,"
        " proteomics, metabolomics, other], description: Which core., llm_settable: true}\n"
    )
    defs = _defs(tmp_path, "samples", SAMPLES, memory)
    skill = defs.skills["samples"]
    intent = "want help with submitting samples to the sequencing"  # the list's first item
    said = branch_intent(skill, intent, {"samples.service": "metabolomics"})
    assert "metabolomics" in said and "sequencing" not in said
    assert branch_intent(skill, intent, {"samples.service": "sequencing"}) == intent
    assert branch_intent(skill, intent, {"samples.service": "other"}) == intent


def test_of_two_items_on_one_booking_the_one_whose_status_the_branch_names_is_drawn() -> None:
    bags = Collection(
        "bag_tags",
        (
            {"tag": "SK480015", "pnr": "ZN2KWD", "status": "delivered"},
            {"tag": "SK480016", "pnr": "ZN2KWD", "status": "missing"},
        ),
    )
    records = DataRecords([bags])
    for slot in range(4):
        drawn = records.pick(bags, random.Random(slot), frozenset({"report_missing"}), slot=slot)
        assert drawn["tag"] == "SK480016"
    # tracking is for a bag not yet delivered: never the one that came off the belt
    drawn = {
        records.pick(bags, random.Random(0), frozenset({"track"}), slot=s)["tag"] for s in range(4)
    }
    assert drawn == {"SK480016"}
    # a branch whose value says nothing of a state keeps the draw as it was: both, in turn
    drawn = {
        records.pick(bags, random.Random(0), frozenset({"other"}), slot=s)["tag"] for s in range(4)
    }
    assert drawn == {"SK480015", "SK480016"}


COUNT = """\
---
name: Inventory count
description: >
  The daily or weekly stock count, and rent, balance and payments.
---

Ask which count it is (set kind) and what they want (set topic).
"""


def test_a_goal_line_naming_every_branch_or_a_topic_word_stays(tmp_path: Path) -> None:
    memory = (
        "schema:\n  public:\n    kind: {type: categorical, enum_values: [daily, weekly],"
        " description: Which count., llm_settable: true}\n"
        "    topic: {type: categorical, enum_values: [balance, pay, receipt],"
        " description: What they want., llm_settable: true}\n"
    )
    defs = _defs(tmp_path, "count", COUNT, memory)
    skill = defs.skills["count"]
    both = "want help with the daily or weekly stock count"
    assert branch_intent(skill, both, {"count.kind": "weekly"}) == both
    topic = "want help with rent, balance and payments"
    assert branch_intent(skill, topic, {"count.topic": "receipt"}) == topic


BAGS = """\
---
name: Baggage
description: >
  Checked bags that did not arrive: "my bag did not arrive".
---

Set mode to one of track or report_missing.

if: session.bags.mode == "report_missing"
Check trace_bag first; if the bag is already on its way, say so and offer delivery. If
not, ask for a delivery address (set delivery_address). Then call file_report.

if: session.bags.mode == "track"
Call trace_bag and say where it is. Offer a callback when it lands.
"""


def test_an_offer_the_path_passes_by_is_not_declined_beside_its_other_side(
    tmp_path: Path,
) -> None:
    memory = (
        "schema:\n  public:\n    mode: {type: categorical, enum_values: [track,"
        " report_missing], description: What they need., llm_settable: true}\n"
        "    delivery_address: {type: text, description: Where to deliver., llm_settable: true}\n"
    )
    defs = _defs(tmp_path, "bags", BAGS, memory)
    skill = defs.skills["bags"]
    missing = {"bags.mode": "report_missing", "bags.delivery_address": "118 Harbour Road"}
    assert "whether you want delivery" in offers(skill, missing)
    assert offers_passed(skill, missing) == ["whether you want delivery"]
    # on its way (no address asked), the offer is made; an unconditioned offer always is
    assert offers_passed(skill, {"bags.mode": "report_missing"}) == []
    assert offers_passed(skill, {"bags.mode": "track"}) == []


DOORS = """\
---
name: Building access
description: >
  Guest codes and lost fobs: "can my sister get in Saturday", "I lost my key fob".
---

If someone asks for the building code, offer a guest PIN instead.

if: session.doors.request == "guest_pin"
Ask for the guest's name (set guest_name), then issue the PIN.

if: session.doors.request == "lost_fob"
Deactivate the fob.
"""


def test_an_offer_of_what_the_case_already_requests_is_not_declined(tmp_path: Path) -> None:
    memory = (
        "schema:\n  public:\n    request: {type: categorical, enum_values: [guest_pin,"
        " lost_fob], description: What they need., llm_settable: true}\n"
        "    guest_name: {type: text, description: The guest., llm_settable: true}\n"
    )
    defs = _defs(tmp_path, "doors", DOORS, memory)
    skill = defs.skills["doors"]
    # the user asked for a guest PIN: "no, thanks" to one would contradict the request
    assert offers(skill, {"doors.request": "guest_pin", "doors.guest_name": "Ana"}) == []
    assert offers(skill, {"doors.request": "lost_fob"}) == ["whether you want a guest PIN instead"]


def test_of_the_tags_a_booking_lists_the_one_the_branch_names_comes_first() -> None:
    bags = Collection(
        "bag_tags",
        (
            {"tag": "SK480015", "pnr": "ZN2KWD", "status": "delivered"},
            {"tag": "SK480016", "pnr": "ZN2KWD", "status": "missing"},
        ),
    )
    records = DataRecords([bags])
    listed = ["SK480015", "SK480016"]
    assert by_status(records, listed, {"report_missing"}) == ["SK480016", "SK480015"]
    assert by_status(records, listed, {"report_damaged"}) == listed


HANDOFF = """\
---
name: Agent handoff
description: >
  The passenger wants a person: "let me talk to someone".
---

Set topic from what they need, then call transfer_to_agent.
"""


def test_a_hand_off_from_a_skill_takes_the_topic_that_names_it(tmp_path: Path) -> None:
    memory = (
        "schema:\n  public:\n    topic: {type: categorical, enum_values: [rebooking, baggage,"
        " other], description: What they need a person for., llm_settable: true}\n"
    )
    files = {
        "agent.yml": "name: Air\npersona: You help passengers.\n",
        "integrations.yml": INTEGRATIONS,
        "skills/agent_handoff/skill.md": HANDOFF,
        "skills/agent_handoff/memory.yml": memory,
        "skills/baggage/skill.md": BAGS,
        "skills/rebook_flight/skill.md": SHIP.replace("Shipping", "Rebook a flight"),
    }
    defs = load_project(write_project(tmp_path, files)).mantle
    handoff = defs.skills["agent_handoff"]
    topic = "agent_handoff.topic"
    assert handed_values(handoff, defs.skills["baggage"]) == {topic: "baggage"}
    assert handed_values(handoff, defs.skills["rebook_flight"]) == {topic: "rebooking"}
