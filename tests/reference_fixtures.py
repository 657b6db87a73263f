"""A small claims project on disk for the reference agent's tests: a prose-called gated
tool, a lookup answered from `data/policies.json`, a `link` to a hand-off skill.

    root = write_claims(tmp_path)
"""

from __future__ import annotations

import json
from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project

FILE_CLAIM = """\
---
name: File a claim
description: Report damage to a car or a home and file an insurance claim.
tool_constraints:
  - submit_claim:
      requires: session.file_claim.details_verified
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_claim
        utter_on_user_denial: utter_claim_not_filed
      on_success: utter_claim_filed
      on_failure: utter_claim_failed
complete_when:
  condition: session.file_claim.claim_id
---

Help the policyholder file a claim.

Run @block.collect_details.

When details_verified is true, call submit_claim with the collected fields.

:::ordered_block id=collect_details
steps:
  - id: ask_type
    collect: claim_type
    utterance: utter_ask_claim_type
    description: "car (a vehicle accident), home (damage to the house) or other"
    next:
      - if: session.file_claim.claim_type == "other"
        then: to_person
      - else: ask_description
  - id: ask_description
    collect: description
    utterance: utter_ask_description
  - id: verified
    set_memory:
      details_verified: true
    next: END
  - id: to_person
    link: human_handoff
  - id: END
:::
"""

FILE_CLAIM_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="File the claim.")
async def submit_claim(claim_type: str, description: str, context: ToolContext = None):
    """File a claim.

    Returns:
        An error result when the claims system is down.
    """
    context.memory.set("claim_id", claim_id)
    return {"claim_id": claim_id}
'''

POLICY = """\
---
name: Policy lookup
description: Look up a policy by its policy number and say whose it is.
---

Ask for the policy number with @memory.policy_lookup.policy_number and call
@tool.find_policy with it. Tell them the holder's name.
"""

POLICY_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Find a policy record.")
async def find_policy(policy_number: str, context: ToolContext = None):
    """Find the policy in data/policies.json."""
    context.memory.set("holder_name", record["holder_name"])
    return record
'''

HANDOFF = """\
---
name: Talk to a person
description: Hand the conversation to a human claims specialist.
---

:::ordered_block id=handoff
steps:
  - id: transfer
    execute_tool: transfer_to_agent
:::
"""

HANDOFF_TOOLS = """\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Transfer to a person.")
async def transfer_to_agent(context: ToolContext = None):
    context.memory.set("transferred", True)
"""

CLAIMS: dict[str, str] = {
    "agent.yml": "name: Claims desk\npersona: You help policyholders.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "responses.yml": (
        "responses:\n  utter_cannot_help:\n    - text: Sorry, I can't help with that.\n"
        "  utter_anything_else:\n    - text: Anything else?\n"
        "  utter_goodbye:\n    - text: Goodbye!\n"
    ),
    "skills/file_claim/skill.md": FILE_CLAIM,
    "skills/file_claim/tools.py": FILE_CLAIM_TOOLS,
    "skills/file_claim/memory.yml": (
        "schema:\n  public:\n"
        "    claim_type:\n      type: categorical\n      enum_values: [car, home, other]\n"
        "    description:\n      type: text\n"
        "    details_verified:\n      type: bool\n"
        "    claim_id:\n      type: text\n"
    ),
    "skills/file_claim/responses.yml": (
        "responses:\n"
        "  utter_ask_claim_type:\n    - text: Is it about your car, your home or something else?\n"
        "  utter_ask_description:\n    - text: What happened?\n"
        "  utter_confirm_claim:\n    - text: Shall I file the {claim_type} claim?\n"
        "  utter_claim_not_filed:\n    - text: Nothing was filed.\n"
        "  utter_claim_filed:\n    - text: Your claim {claim_id} is filed.\n"
        "  utter_claim_failed:\n    - text: The claim could not be filed.\n"
    ),
    "skills/policy_lookup/skill.md": POLICY,
    "skills/policy_lookup/tools.py": POLICY_TOOLS,
    "skills/policy_lookup/memory.yml": (
        "schema:\n  public:\n    policy_number:\n      type: text\n"
        "    holder_name:\n      type: text\n"
    ),
    "skills/human_handoff/skill.md": HANDOFF,
    "skills/human_handoff/tools.py": HANDOFF_TOOLS,
    "skills/human_handoff/memory.yml": "schema:\n  public:\n    transferred:\n      type: bool\n",
    "data/policies.json": json.dumps(
        [
            {"policy_number": "HM-100", "holder_name": "Ada Park"},
            {"policy_number": "HM-200", "holder_name": "Ben Ortiz"},
        ]
    ),
}


def write_claims(root: Path) -> Path:
    return write_project(root, CLAIMS)
