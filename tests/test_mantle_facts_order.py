"""Facts and order a correct agent shows on a Mantle project: the record it picks itself
agrees with the case's other facts, a value given up front is not ordered before the block's
own first steps, a criterion leaves room for the step's own ask and for the form the
runtime's reply gives a number in, and a hand-off reason refers to nothing never said."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_said_form import either_form, spelled_numbers
from agentflows.planning import plan_source
from evalcore.definitions import load_project

CLAIM_SKILL = """---
name: File a claim
description: >
  File a new car or home insurance claim. Activate when the customer wants to start a
  claim or report damage.
tool_constraints:
  - submit_claim:
      requires: session.file_claim.details_verified
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_claim
        utter_on_user_denial: utter_claim_not_filed
      on_success: utter_claim_filed
---
Help the customer file a claim. Do not invent policies.

Once they want to file, invoke `@block.collect_details`

:::ordered_block id=collect_details
steps:
  - id: fetch_policies
    execute_tool: list_policies
  - id: select_policy
    instructions: |
      Show the customer's policies from the tool result (type and policy number).
      Ask which policy to file under. Set policy_num to the full policy number and
      policy_name to Car or Homeowner to match that policy.
    complete_when: session.file_claim.policy_num and session.file_claim.policy_name
  - id: collect_description
    instructions: |
      Ask what happened. Set claim_description.
    complete_when: session.file_claim.claim_description
  - id: verify_summary
    instructions: |
      Read back a short summary and ask if it is correct.
      If they confirm, set details_verified to True.
    complete_when: session.file_claim.details_verified == True
:::

## Submit

When details_verified is True, call submit_claim with the collected fields.
Share claim number four four five five in spoken form.
"""
CLAIM_MEMORY = """schema:
  public:
    policy_num:
      type: text
      description: Policy number selected for the new claim.
      llm_settable: true
    policy_name:
      type: categorical
      description: Policy type selected for the claim.
      enum_values: [Car, Homeowner]
      llm_settable: true
    claim_description:
      type: text
      description: What happened.
      llm_settable: true
    details_verified:
      type: bool
      description: Whether the customer confirms the summary.
      llm_settable: true
    claim_submitted:
      type: bool
"""
CLAIM_RESPONSES = """responses:
  utter_confirm_claim:
    - text: Shall I submit this {policy_name} claim under policy {policy_num}?
  utter_claim_not_filed:
    - text: Okay, I will not submit that claim.
  utter_claim_filed:
    - text: I have submitted your claim number 4455.
"""
CLAIM_TOOLS = """from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="List the customer's policies.")
async def list_policies(context: ToolContext = None):
    return {"policies": []}


@tool(description="Submit a new claim.")
async def submit_claim(
    policy_num: str, policy_name: str, claim_description: str, context: ToolContext = None
):
    context.memory.set("claim_submitted", True)
"""
POLICIES = [
    {"customer_id": "77", "policy_type": "Homeowner", "policy_num": "500100"},
    {"customer_id": "77", "policy_type": "Car", "policy_num": "500101"},
]

HANDOFF_SKILL = """---
name: Human Handoff
description: >
  Connect the customer to a human support agent. Activate when they ask for a person.
tool_constraints:
  - create_support_ticket:
      requires: session.human_handoff.handoff_confirmed
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_handoff
        utter_on_user_denial: utter_handoff_cancelled
---
Help the customer reach a human agent.

Ask briefly why they want a human and set `handoff_reason`.
When ready, set `handoff_confirmed` to true and call create_support_ticket.
"""
HANDOFF_MEMORY = """schema:
  public:
    handoff_reason:
      type: text
      description: Why the customer wants a human agent.
      llm_settable: true
    handoff_confirmed:
      type: bool
      description: Customer confirmed they want a live agent.
      llm_settable: true
    handoff_ticket_id:
      type: text
"""
HANDOFF_TOOLS = """from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Open a ticket for a human agent.")
async def create_support_ticket(handoff_reason: str, context: ToolContext = None):
    context.memory.set("handoff_ticket_id", "T-1")
"""
HANDOFF_RESPONSES = """responses:
  utter_confirm_handoff:
    - text: Shall I connect you to a human specialist now?
  utter_handoff_cancelled:
    - text: Okay, I will not connect you.
"""
FIX_SKILL = """---
name: Line Troubleshooting
description: >
  Help customers fix a noisy phone line by running a line test. Activate for a crackling
  or dropping line.
---
Run run_line_test and tell the customer the result.
"""
FIX_TOOLS = """from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Test the line.")
async def run_line_test(context: ToolContext = None):
    context.memory.set("line_ok", True)
"""
FIX_MEMORY = """schema:
  public:
    line_ok:
      type: bool
"""


def _skill(root, name: str, files: dict[str, str]) -> None:
    folder = root / "skills" / name
    folder.mkdir(parents=True)
    for file, text in files.items():
        (folder / file).write_text(text)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory):
    """A claim desk whose caller holds a home and a car policy (the home one listed first)."""
    root = tmp_path_factory.mktemp("claim_desk")
    (root / "agent.yml").write_text("name: Harbor claims desk\n")
    (root / "memory.yml").write_text(
        "customer_id:\n  type: text\n  description: Customer id.\n  initial_value: '77'\n"
    )
    (root / "responses.yml").write_text("responses:\n  utter_goodbye:\n    - text: Goodbye!\n")
    (root / "data").mkdir()
    (root / "data" / "policies.json").write_text(json.dumps(POLICIES))
    _skill(
        root,
        "file_claim",
        {
            "skill.md": CLAIM_SKILL,
            "memory.yml": CLAIM_MEMORY,
            "responses.yml": CLAIM_RESPONSES,
            "tools.py": CLAIM_TOOLS,
        },
    )
    return load_project(root)


@pytest.fixture(scope="module")
def helpdesk(tmp_path_factory: pytest.TempPathFactory):
    """A help desk whose hand-off asks why, beside a task the customer wants the agent to
    help with (its description: "Help customers fix …")."""
    root = tmp_path_factory.mktemp("helpdesk")
    (root / "agent.yml").write_text("name: Harbor phone help desk\n")
    (root / "responses.yml").write_text("responses:\n  utter_goodbye:\n    - text: Goodbye!\n")
    _skill(
        root,
        "human_handoff",
        {
            "skill.md": HANDOFF_SKILL,
            "memory.yml": HANDOFF_MEMORY,
            "responses.yml": HANDOFF_RESPONSES,
            "tools.py": HANDOFF_TOOLS,
        },
    )
    files = {"skill.md": FIX_SKILL, "tools.py": FIX_TOOLS, "memory.yml": FIX_MEMORY}
    _skill(root, "line_troubleshooting", files)
    return load_project(root)


def _draft(project, skill: str, case: str) -> dict[str, Any]:
    plan = {b.case: b for b in plan_source(project, "mantle", skill, None).behaviors}
    assert case in plan, sorted(plan)
    return draft_mantle(DraftContext(project, "mantle", plan[case]))


def _goals(data: dict[str, Any]) -> dict[str, Any]:
    return data["scenario"]["goals"]


def test_a_record_the_agent_picks_itself_matches_the_type_given_up_front(project) -> None:
    """The customer says "Car" before being asked: the policy number the agent files under
    is the car policy's, not the first one listed (the home policy)."""
    data = _draft(project, "file_claim", "details_up_front")
    runs = [a["tool_executed"] for a in _goals(data)["assertions"] if "tool_executed" in a]
    submit = next(r for r in runs if r["tool_name"] == "submit_claim")
    assert submit["arguments"]["policy_name"] == "Car"
    assert submit["arguments"].get("policy_num", "500101") == "500101"


def test_a_value_given_up_front_is_not_ordered_before_the_blocks_first_tool(project) -> None:
    data = _draft(project, "file_claim", "details_up_front")
    seq = next(a["sequencing"] for a in _goals(data)["assertions"] if "sequencing" in a)
    names = [
        s.get("memory_was_set") or (s.get("tool_executed") or {}).get("tool_name") for s in seq
    ]
    assert "list_policies" in names
    if "file_claim.policy_name" in names:
        assert names.index("file_claim.policy_name") > names.index("list_policies")


def test_a_criterion_on_a_value_given_up_front_leaves_room_for_the_steps_own_ask(
    project,
) -> None:
    """The step tells the agent to show the policies and ask: a correct agent may still
    propose or confirm the type it was given, so no criterion forbids asking for it."""
    criteria = _goals(_draft(project, "file_claim", "details_up_front")).get("criteria", [])
    assert not any("does not ask for the policy name" in c for c in criteria), criteria
    room = ("confirming the one already given is fine", "though it may confirm it")
    assert any(any(r in c for r in room) for c in criteria), criteria


def test_a_number_the_runtimes_reply_gives_in_digits_may_be_said_either_way(project) -> None:
    plan = plan_source(project, "mantle", "file_claim", None).behaviors
    happy = next(b for b in plan if b.type == "happy_path")
    criteria = _goals(draft_mantle(DraftContext(project, "mantle", happy))).get("criteria", [])
    spoken = [c for c in criteria if "four four five five" in c]
    assert spoken and all("4455" in c for c in spoken), criteria


def test_either_form_leaves_a_rule_whose_number_no_reply_states() -> None:
    rule = "The agent shares claim number four four five five in spoken form"
    assert either_form(rule, ["Your claim is filed."]) == rule
    assert either_form(rule, ["Claim 44556 is filed."]) == rule  # another number
    assert "4455" in either_form(rule, ["I have submitted your claim number 4455."])
    assert spelled_numbers("call one two, then nine") == [("one two", "12")]


def test_the_hand_off_reason_of_its_own_case_refers_to_nothing_never_said(helpdesk) -> None:
    """A hand-off case opens with the ask for a person: the reason it gives must not speak
    of an earlier request to the agent that this conversation never had."""
    behaviors = plan_source(helpdesk, "mantle", "human_handoff", None).behaviors
    assert behaviors
    for behavior in behaviors:
        data = draft_mantle(DraftContext(helpdesk, "mantle", behavior))
        context = data["scenario"]["simulation_context"]
        reason = next(line for line in context.splitlines() if "why you want a person" in line)
        assert "noisy phone line" in reason, reason  # the task, said in this conversation
        assert "I asked you" not in reason, reason
