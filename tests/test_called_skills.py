"""A skill another one `call:`s runs inside its caller's cases, under its own id.

Found on a permits desk: a case of the application asserted the fee tool of the hidden skill
it calls (`call: fee_estimate`) under the application's id, which no runtime records
(reference §3: a called skill's events carry its own id), so the draft was lost; and the
application's happy paths did not assert the called skill's tool at all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

APPLY = """\
---
name: Hire a hall
description: >
  Hiring the village hall for an event: "book the hall", "hire the hall for a party",
  "I want the hall on a Saturday".
---

:::ordered_block id=intake
steps:
  - id: when
    collect: event_date
    utterance: utter_ask_event_date
    description: The date of the event.
  - id: how_many
    collect: guests
    utterance: utter_ask_guests
    description: How many guests are coming, as a number.
  - id: price
    call: quote
  - id: book
    execute_tool: book_hall
    parameters:
      event_date: session.hire.event_date
  - id: done
    action: utter_hall_booked
    next: END
:::
"""

APPLY_MEMORY = """\
schema:
  public:
    event_date:
      type: text
      description: The date of the event.
      llm_settable: true
    guests:
      type: int
      description: How many guests are coming.
      llm_settable: true
    hire_id:
      type: text
      description: The booking reference.
"""

APPLY_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Book the hall for one date.")
async def book_hall(event_date: str, context: ToolContext = None):
    """Book it.

    Args:
        event_date: The date.
    """
    if context is not None:
        context.memory.set("hire.hire_id", "VH-1001")
    return {"hire_id": "VH-1001"}
'''

QUOTE = """\
---
name: Hall quote
description: The hire charge for an event, from the price list.
hidden: true
---

:::ordered_block id=quote
steps:
  - id: look_up
    execute_tool: price_event
    parameters:
      guests: session.hire.guests
  - id: tell
    action: utter_quote
    next: END
:::
"""

QUOTE_MEMORY = """\
schema:
  public:
    charge:
      type: float
      description: The hire charge in pounds.
"""

QUOTE_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="The hire charge for a number of guests.")
async def price_event(guests: int, context: ToolContext = None):
    """Price it.

    Args:
        guests: How many guests.
    """
    if context is not None:
        context.memory.set("quote.charge", 120.0)
    return {"charge": 120.0}
'''

RESPONSES = """\
responses:
  utter_ask_event_date:
    - text: What date is the event?
  utter_ask_guests:
    - text: How many guests are you expecting?
  utter_hall_booked:
    - text: The hall is booked.
  utter_quote:
    - text: The hire charge is {charge} pounds.
"""

FILES = {
    "agent.yml": "name: Westbury village hall\npersona: You take hall bookings.\n",
    "integrations.yml": INTEGRATIONS,
    "responses.yml": RESPONSES,
    "skills/hire/skill.md": APPLY,
    "skills/hire/memory.yml": APPLY_MEMORY,
    "skills/hire/tools.py": APPLY_TOOLS,
    "skills/quote/skill.md": QUOTE,
    "skills/quote/memory.yml": QUOTE_MEMORY,
    "skills/quote/tools.py": QUOTE_TOOLS,
}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("hall"), FILES)


@pytest.fixture(scope="module")
def report(root: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("out")
    return generate_offline(root, ["all"], out)


def test_the_called_skills_tool_is_asserted_under_its_own_id(report: dict[str, Any]):
    happy = next(c for c in report["cases"] if c["behavior"].startswith("hire:happy"))
    # the reference agent passes it as drafted; only an allowed variant loosens it (the
    # event date is free text a correct agent may pass in another format)
    assert happy["verified"] in ("yes", "repaired"), happy
    fixes = happy["verification"]["repairs"]
    assert all(f["code"].startswith("variant:") for f in fixes), fixes
    scenario = yaml.safe_load(Path(happy["path"]).read_text("utf-8"))["scenario"]
    runs = {
        a["tool_executed"]["tool_name"]: a["tool_executed"].get("skill_id")
        for a in scenario["goals"]["assertions"]
        if "tool_executed" in a
    }
    assert runs.get("price_event") == "quote", runs
    assert runs.get("book_hall") == "hire", runs
