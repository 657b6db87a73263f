"""A step's field of another side is never asked; the value on file a yes confirms is known.

Found on a pharmacy's refill: the logistics step waits for `pickup_store_id or
delivery_confirmed` and sets each under its own `if:` (pickup, delivery). The reference walk
asked for the first missing key whatever the side, so a delivery case's user was given a
pickup store (a fact of another branch) and the delivery confirmation never came. And the
delivery side confirms "the address on file by street name", which no tool hands the agent:
a user who knows only "delivery confirmed: yes" cannot say which street.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

MEMORY = """\
caller_phone:
  type: text
  # Number the customer is calling from, E.164 (+15550101).
  seed: true
"""

SKILL = """\
---
name: Reorder feed
description: >
  Reordering pet food: "reorder my dog food", "can you deliver my usual bag".
tool_constraints:
  - place_order:
      requires: session.reorder.details_verified
      on_success: utter_placed
---

Reorder the customer's usual bag. Run @block.reorder, then call place_order.

:::ordered_block id=reorder
steps:
  - id: how
    collect: fulfilment
    description: pickup at a shop, or delivery to the customer's home address.
  - id: logistics
    instructions: |
      if: @memory.reorder.fulfilment == "pickup"
      Ask which shop they want it at and set pickup_shop_id.

      if: @memory.reorder.fulfilment == "delivery"
      Confirm the address on file by street name only. Set delivery_confirmed.
    complete_when: session.reorder.pickup_shop_id or session.reorder.delivery_confirmed
  - id: read_back
    instructions: |
      Read back pickup or delivery. Set details_verified to true when they confirm.
    complete_when: session.reorder.details_verified
:::
"""

SKILL_MEMORY = """\
schema:
  public:
    fulfilment:
      type: categorical
      enum_values: [pickup, delivery]
      description: Pick up at a shop or have it delivered.
      llm_settable: true
    pickup_shop_id:
      type: text
      description: Shop for pickup, SH-###.
      llm_settable: true
    delivery_confirmed:
      type: bool
      description: True when the customer confirmed the address on file for delivery.
      llm_settable: true
    details_verified:
      type: bool
      description: True once the customer confirmed the read-back.
      llm_settable: true
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Place the reorder.")
async def place_order(fulfilment: str, pickup_shop_id: str = "", context: ToolContext = None):
    """Place it.

    Args:
        fulfilment: pickup or delivery.
        pickup_shop_id: SH-### for pickup.
    """
    return {"placed": True}
'''

CUSTOMERS = [
    {"customer_id": "C-1", "first_name": "Ines", "last_name": "Moreau", "phone": "+15550101",
     "address": "27 Linden Ave, Portland, OR 97202", "home_shop": "SH-004"},
]  # fmt: skip
SHOPS = [
    {"shop_id": "SH-004", "name": "Paws Hawthorne"},
    {"shop_id": "SH-009", "name": "Paws Pearl"},
]

FILES = {
    "agent.yml": "name: Paws supply\npersona: You help customers reorder pet food.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": MEMORY,
    "responses.yml": "responses:\n  utter_placed:\n    - text: Your order is placed.\n",
    "skills/reorder/skill.md": SKILL,
    "skills/reorder/memory.yml": SKILL_MEMORY,
    "skills/reorder/tools.py": TOOLS,
    "data/customers.json": json.dumps(CUSTOMERS),
    "data/shops.json": json.dumps(SHOPS),
}


def test_a_delivery_case_gives_no_pickup_shop_and_knows_the_address_on_file(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = write_project(tmp_path_factory.mktemp("paws"), FILES)
    report = generate_offline(root, ["reorder"], tmp_path_factory.mktemp("out"))
    paths = [Path(r["path"]) for r in report["cases"] if r.get("path")]
    delivery = [p for p in paths if "delivery" in p.name]
    assert delivery, paths
    for path in delivery:
        scenario = yaml.safe_load(path.read_text("utf-8"))["scenario"]
        context = scenario["simulation_context"]
        assert "shop" not in context.lower(), context
        assert "address on file: 27 Linden Ave, Portland, OR 97202" in context, context
        assert "reorder.delivery_confirmed" in path.read_text("utf-8")
