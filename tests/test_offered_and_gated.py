"""Three readings a phone line's skills need: a value the agent offers and the user may
replace is asked ("offer the caller's number and use another if they give one (set
callback_number)"); a number is drawn in the shape its description states ("+1 and ten
digits", "the five-digit client number"); and a detour at a sign-in's first question goes
to a skill the runtime offers then, never one gated on the sign-in not yet done."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import skill_model
from evalcore.testdata import FieldSpec, typed_value

AGENT = """\
name: Fernhill vets
persona: You answer the phone for a vet practice.
orchestrator:
  model_group: main
  preconditions:
    registered_client:
      satisfied_when: session.project.client_verified
      resolve_with: identify
"""

PROJECT_MEMORY = """\
caller_phone:
  type: text
  seed: true
client_verified:
  type: bool
  description: True once the caller's client record is found.
"""

IDENTIFY = """\
---
name: Identify the client
description: >
  Finding the caller's client record: "I'm a client of yours", "I've got my client number".
tool_constraints:
  - verify_client:
      requires: session.identify.client_number
complete_when:
  condition: session.project.client_verified
---

Ask which animal the call is about (set animal). Ask for their client number (set
client_number), then check it with @tool.verify_client.
"""

IDENTIFY_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Find the client record.")
async def verify_client(client_number: str, context: ToolContext = None):
    """Look the client up.

    Args:
        client_number: The five-digit client number.
    """
    context.memory.set("project.client_verified", True)
    return {"found": True}
'''

REFILL = """\
---
name: Prescription refill
description: >
  A repeat prescription for an animal: "can I order a repeat prescription".
precondition: registered_client
complete_when:
  condition: session.refill.requested
---

Call @tool.request_refill for the animal's usual medicine. Set requested once it is sent.
"""

PAGER = """\
---
name: Vet on call
description: >
  Speaking to the vet on call straight away: "my dog ate chocolate", "get me a vet".
import_tools:
  - mcp/oncall:page_vet
tool_constraints:
  - page_vet:
      requires: session.pager.callback_number
complete_when:
  condition: session.pager.paged
---

Confirm the number to call back on: offer @memory.project.caller_phone and use another if
they give one (set callback_number). Ask what is wrong, in a few words (set reason). Then
page the vet with @tool.page_vet. Set paged once the page goes out.
"""

FILES: dict[str, str] = {
    "agent.yml": AGENT,
    "integrations.yml": INTEGRATIONS,
    "memory.yml": PROJECT_MEMORY,
    "skills/identify/skill.md": IDENTIFY,
    "skills/identify/tools.py": IDENTIFY_TOOLS,
    "skills/identify/memory.yml": (
        "schema:\n  private:\n    client_number:\n      type: text\n"
        "      description: The five-digit client number.\n"
        "    animal:\n      type: text\n      description: The animal's name.\n"
    ),
    "skills/refill/skill.md": REFILL,
    "skills/refill/tools.py": (
        "from rasa.mantle.tools.decorator import tool\n\n\n"
        '@tool(description="Ask the pharmacy for a refill.")\n'
        "async def request_refill():\n"
        '    """Send it."""\n    return {"sent": True}\n'
    ),
    "skills/refill/memory.yml": (
        "schema:\n  public:\n    requested:\n      type: bool\n"
        "      description: True once it was requested.\n"
    ),
    "skills/pager/skill.md": PAGER,
    "skills/pager/memory.yml": (
        "schema:\n  public:\n    callback_number:\n      type: text\n"
        "      description: The number the vet calls back, +1 and ten digits.\n"
        "    reason:\n      type: text\n      description: What is wrong, in a few words.\n"
        "    paged:\n      type: bool\n      description: True once the vet was paged.\n"
    ),
}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("vets"), FILES)


def test_a_value_the_user_may_replace_is_asked(root: Path) -> None:
    model = skill_model(load_project(root), "pager")
    asked = {f.qualified: f for f in model.fields}
    assert "pager.callback_number" in asked
    assert "offer @memory.project.caller_phone" in (asked["pager.callback_number"].question or "")
    assert "pager.paged" in {r.qualified for r in model.records}


@pytest.mark.parametrize(
    ("name", "description", "shape"),
    [
        ("callback_number", "The number the vet calls back, +1 and ten digits.", r"\+1\d{10}"),
        ("client_number", "The five-digit client number.", r"\d{5}"),
        # a prefix the description states is kept
        ("policy_number", "PL- followed by 7 digits.", r"PL-\d{7}"),
        ("contact", "An email address or phone number to reply to.", r"[\w.]+@[\w.]+"),
    ],
)
def test_a_number_has_the_shape_its_description_states(name, description, shape) -> None:
    value = typed_value(FieldSpec(name, "text", description), random.Random(7))
    assert isinstance(value, str) and re.fullmatch(shape, value), value


def test_a_detour_at_the_sign_in_goes_to_a_skill_offered_before_it(root: Path) -> None:
    project = load_project(root)
    behaviors = plan_source(project, "mantle", "identify", None).behaviors
    detour = next(b for b in behaviors if b.facts.get("kind") == "digression")
    # refill is the cheaper detour (no question) but waits on the sign-in being done
    assert detour.facts["digression"]["skill"] == "pager"
