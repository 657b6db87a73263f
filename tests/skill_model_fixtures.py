"""Small Mantle projects on disk, shaped like projects other people write, for skill-model and
planning tests: a claim filed by a tool the prose calls after its block, `if:` inside step
instructions, a skill with modes, block-level `tools:`, a hand-off skill and stated rules.

    root = write_project(tmp_path, INSURANCE)
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

INTEGRATIONS = """\
channels:
  rest: {enabled: true}
  inspector: {enabled: true}
"""

INSURANCE: dict[str, str] = {
    "agent.yml": "name: Harbor Mutual claims desk\npersona: You help policyholders.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": (
        "policy_number:\n  type: text\n  description: 'The policy, for example \"HM-20417\".'\n"
    ),
    "skills/file_claim/skill.md": """\
---
name: File a claim
description: Policyholders report damage to a car or a home and file a claim.
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

Help the policyholder file a claim. Never disclose another policyholder's claim history.

Run @block.collect_details.

When details_verified is true, call submit_claim with the collected fields.

If the policyholder wants a person, hand over to @skill.human_handoff.

:::ordered_block id=collect_details
steps:
  - id: ask_type
    collect: claim_type
    utterance: utter_ask_claim_type
    description: "car (a vehicle accident) or homeowner (damage to the house)"
  - id: ask_incident
    instructions: |
      Ask for the incident date.
      if: session.file_claim.claim_type == "car"
      Also ask for the incident_location where it happened.
    complete_when: session.file_claim.incident_date
  - id: check
    execute_tool: verify_details
:::
""",
    "skills/file_claim/memory.yml": """\
schema:
  public:
    claim_type: {type: categorical, enum_values: [car, homeowner], description: What kind of claim.}
    incident_date:
      type: text
      description: "When it happened, MM/DD/YYYY; the customer may say yesterday."
    incident_location: {type: text, description: Where it happened.}
    details_verified: {type: bool}
    claim_id: {type: text}
""",
    "skills/file_claim/responses.yml": """\
responses:
  utter_ask_claim_type:
    - text: Is this about your car or your home?
  utter_confirm_claim:
    - text: Shall I file the claim now?
  utter_claim_not_filed:
    - text: All right, I have not filed anything.
  utter_claim_filed:
    - text: "Your claim {file_claim.claim_id} is filed."
  utter_claim_failed:
    - text: Sorry, the claim could not be filed.
""",
    "skills/file_claim/tools.py": '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Check the collected details against the policy.")
async def verify_details(context: ToolContext = None):
    context.memory.set("details_verified", True)


@tool(description="File the claim.")
async def submit_claim(claim_type: str, incident_date: str, context: ToolContext = None):
    """File the claim.

    Returns:
        The claim id, or an error when the policy is not active.
    """
    context.memory.set("claim_id", "CLM-1")
''',
    "skills/human_handoff/skill.md": """\
---
name: Talk to a person
description: The policyholder wants a human agent.
---

Hand the conversation over to a human agent with @tool.transfer_to_agent.
""",
    "skills/human_handoff/tools.py": """\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Transfer to a person.")
async def transfer_to_agent(context: ToolContext = None):
    context.memory.set("transferred", True)
""",
    "skills/human_handoff/memory.yml": "schema:\n  public:\n    transferred: {type: bool}\n",
}

TASKS: dict[str, str] = {
    "agent.yml": "name: Sprint helper\npersona: You help developers manage their tasks.\n",
    "integrations.yml": INTEGRATIONS,
    "skills/manage_tasks/skill.md": """\
---
name: Manage tasks
description: Developers list, update or file tasks in the tracker.
---

Find out whether the developer wants to list, update or file a task and record it in
@memory.manage_tasks.mode.

if: session.manage_tasks.mode == "list"
Show the open tasks with @tool.list_tasks.

if: session.manage_tasks.mode == "update"
Ask which task and its new status, then use update_task.

if: session.manage_tasks.mode == "file"
Run @block.new_task.

:::ordered_block id=new_task
tools: [create_task]
steps:
  - id: ask_title
    collect: title
    utterance: utter_ask_title
:::
""",
    "skills/manage_tasks/memory.yml": """\
schema:
  public:
    mode: {type: categorical, enum_values: [list, update, file]}
    title: {type: text}
    task_id: {type: text}
""",
    "skills/manage_tasks/responses.yml": (
        "responses:\n  utter_ask_title:\n    - text: What should the task be called?\n"
    ),
    "skills/manage_tasks/tools.py": """\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="List open tasks.")
async def list_tasks(context: ToolContext = None):
    return {"tasks": []}


@tool(description="Update a task.")
async def update_task(task_id: str, status: str, context: ToolContext = None):
    context.memory.set("task_id", task_id)


@tool(description="Create a task.")
async def create_task(title: str, context: ToolContext = None):
    context.memory.set("task_id", "T-1")
""",
}


def write_project(root: Path, files: dict[str, str]) -> Path:
    """Write `files` (relative path -> text) under `root` and return it."""
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def generate_offline(root: Path, targets: list[str], out: Path) -> dict[str, Any]:
    """`casegen generate TARGETS` for the project at `root` with the offline engine, cases
    and the checkpoint store under `out`: the run's report."""
    from agentflows.drafting.offline import OfflineEngine
    from agentflows.generate import build_request, run_generation

    request = build_request(targets, project=root, out=str(out / "cases"))
    return asyncio.run(
        run_generation(request, engine=OfflineEngine(), checkpoints=out / "checkpoints.sqlite")
    )


def play_lines(root: Path, lines: list[str], phone: str = "+15550142") -> list[dict[str, Any]]:
    """The reference agent's events for the project at `root` when the user says `lines`
    (a session seeded with a caller phone)."""
    from evalcore.agents import UserTurn
    from evalcore.agents.reference import ReferenceTarget

    async def run() -> list[dict[str, Any]]:
        session = await ReferenceTarget(root).open({"slug": "t"}, 1)
        slots = {"initial_slots": {"project.caller_phone": phone}}
        await session.send(UserTurn(type="start", setup=slots))
        for line in lines:
            await session.send(UserTurn(type="text", text=line))
        final = await session.close()
        return list(final.events or [])

    return asyncio.run(run())
