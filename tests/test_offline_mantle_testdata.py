"""The offline Mantle drafter's test data on a project unlike the bank: an insurer whose
users are policyholders, with records in data/policies.json."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_intent import intent_clause, without_month
from agentflows.planning._mantle import plan_mantle
from evalcore.definitions import load_project
from evalcore.simulator import parse_fact_context

AGENT = """\
name: Gullwing Insurance assistant
persona: >
  You are the claims line of Gullwing Insurance. You answer policyholders who drive for a
  living: couriers, cab drivers and fleet managers.
"""
SKILL = """\
---
name: File Claim
description: >
  Reporting a loss on a vehicle policy: "someone hit my van", "my car was damaged in the
  hail", "I need to report an accident".
---

# File a claim

Run @block.details, then file it with @tool.submit_claim.

:::ordered_block id=details
steps:
  - id: ask_policy
    collect: policy_number
    utterance: utter_ask_policy_number
  - id: ask_damage
    collect: damage
    utterance: utter_ask_damage
  - id: ask_date
    collect: loss_date
    utterance: utter_ask_loss_date
  - id: ask_story
    collect: what_happened
    utterance: utter_ask_what_happened
:::
"""
MEMORY = """\
schema:
  public:
    policy_number:
      type: text
      description: The policy the loss is on, e.g. PL-20931.
      llm_settable: true
    damage:
      type: categorical
      enum_values: [hail, collision, theft]
      description: What caused the loss.
      llm_settable: true
    loss_date:
      type: text
      description: When it happened, MM/DD/YYYY; the caller may say yesterday.
      llm_settable: true
    what_happened:
      type: text
      description: What happened, in the caller's own words.
      llm_settable: true
"""
RESPONSES = """\
responses:
  utter_ask_policy_number:
    - text: What's your policy number?
  utter_ask_damage:
    - text: What caused the damage?
  utter_ask_loss_date:
    - text: When did it happen?
  utter_ask_what_happened:
    - text: In a sentence or two, what happened?
"""
TOOLS = '''\
from rasa.mantle.tools.decorator import tool


@tool(description="File the claim.")
async def submit_claim(policy_number: str, damage: str, context=None):
    """File it."""
'''
POLICIES = [
    {"policy_number": "PL-20931", "holder_name": "Dana Okafor", "status": "active"},
    {"policy_number": "PL-31877", "holder_name": "Luis Ortega", "status": "active"},
    {"policy_number": "PL-40112", "holder_name": "Mira Sato", "status": "lapsed"},
]


@pytest.fixture(scope="module")
def insurer(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("gullwing")
    (root / "agent.yml").write_text(AGENT)
    skill = root / "skills" / "file_claim"
    skill.mkdir(parents=True)
    (skill / "skill.md").write_text(SKILL)
    (skill / "memory.yml").write_text(MEMORY)
    (skill / "responses.yml").write_text(RESPONSES)
    (skill / "tools.py").write_text(TOOLS)
    (root / "data").mkdir()
    (root / "data" / "policies.json").write_text(json.dumps(POLICIES))
    return root


def contexts(root: Path):
    project = load_project(root)
    for behavior in plan_mantle(project, "file_claim", None).behaviors:
        data = draft_mantle(DraftContext(project, "mantle", behavior))
        yield behavior, parse_fact_context(data["scenario"]["simulation_context"])


def test_facts_come_from_the_records_and_fit_the_field(insurer):
    seen_people = set()
    for behavior, context in contexts(insurer):
        facts = {f.label: f.value for f in context.facts}
        if "what's your policy number" not in facts:
            continue
        number = facts["what's your policy number"]
        record = next(p for p in POLICIES if p["policy_number"] == number)
        assert record["status"] == "active", behavior.id  # a lapsed policy is drawn last
        assert context.persona.startswith(record["holder_name"] + ","), behavior.id
        seen_people.add(record["holder_name"])
        when = facts["when did it happen"]
        assert when == "yesterday" or re.fullmatch(r"\d\d/\d\d/\d{4}", when), when
        assert facts.get("what caused the damage", "hail") in ("hail", "collision", "theft")
        story = facts["what happened"]
        assert story.endswith(".") and re.search(r"\b(?:my|I)\b", story, re.I), story
        if facts.get("what caused the damage") == "hail":
            assert "hail" in story, story  # the caller's words fit the case's value
    assert len(seen_people) == 2


def test_the_persona_and_intent_fit_the_agent(insurer):
    for _, context in contexts(insurer):
        assert "customer" not in context.persona
        assert re.search(r"policyholder|homeowner|fleet|photographer", context.persona)
        assert context.intent == "want to file a claim"


def test_intent_reads_the_name_description_or_subject():
    project = load_project(Path(__file__).parent.parent / "examples" / "bank")
    intents = {
        s: intent_clause(project.mantle, project.mantle.skills[s]) for s in project.mantle.skills
    }
    assert intents == {
        "card_replace": "want to replace a card",
        "check_balance": "want to check a balance",
        "dispute_charge": "want to dispute a card payment",
        "human_handoff": "want to talk to a person",
    }


@pytest.mark.parametrize(
    ("phrase", "opening"),
    [
        ("Send me a receipt for November.", "Send me a receipt."),
        ("What did I pay in March 2026?", "What did I pay?"),
        ("May I pay the rent now?", "May I pay the rent now?"),
    ],
)
def test_the_opening_names_no_month_of_its_own(phrase: str, opening: str) -> None:
    """The month a case is about is its fact's (drawn by the test data): an example
    phrasing that names another month loses it, a word that only looks like one stays."""
    assert without_month(phrase) == opening


STATUS_SKILL = """\
---
name: Claim status
description: >
  Looking up where an existing claim stands: "what's happening with my claim".
---

Ask for the claim number and set `claim_number`. Demo claim numbers include CLM0412
through CLM0415. Then look it up with @tool.get_claim_status.
"""
STATUS_MEMORY = """\
schema:
  public:
    claim_number:
      type: text
      description: The claim to look up (for example CLM0413).
      llm_settable: true
"""
STATUS_TOOLS = '''\
from rasa.mantle.tools.decorator import tool


@tool(description="Look a claim up.")
async def get_claim_status(claim_number: str, context=None):
    """Its status."""
'''


@pytest.mark.parametrize(
    ("text", "description", "listed"),
    [
        (
            "Claim numbers CLM0412 through CLM0415.",
            "",
            ("CLM0412", "CLM0413", "CLM0414", "CLM0415"),
        ),
        ("Valid: CLM0412–15.", "e.g. CLM0413", ("CLM0412", "CLM0413", "CLM0414", "CLM0415")),
        (
            "The claim number is one of CLM0412, CLM0419 or CLM0430.",
            "",
            ("CLM0412", "CLM0419", "CLM0430"),
        ),
        ("Routers RTR-123-01 and RTR-124-01 are online.", "e.g. CLM0413", ()),
        ("Call 555-0100 to 555-0199 after 9.", "", ()),
    ],
)
def test_ids_the_text_lists_for_a_field(text, description, listed) -> None:
    from evalcore.testdata import listed_values

    assert listed_values(text, "claim_number", description) == listed


def test_a_case_draws_the_id_from_the_set_the_skill_lists(tmp_path) -> None:
    """The skill names the claims its backend knows: every case's claim number is one of
    them, never a fresh id of the same shape."""
    (tmp_path / "agent.yml").write_text(AGENT)
    skill = tmp_path / "skills" / "claim_status"
    skill.mkdir(parents=True)
    (skill / "skill.md").write_text(STATUS_SKILL)
    (skill / "memory.yml").write_text(STATUS_MEMORY)
    (skill / "tools.py").write_text(STATUS_TOOLS)
    project = load_project(tmp_path)
    numbers = []
    for behavior in plan_mantle(project, "claim_status", None).behaviors:
        data = draft_mantle(DraftContext(project, "mantle", behavior))
        context = data["scenario"]["simulation_context"]
        numbers += re.findall(r"\bCLM\d+\b", context)
    assert numbers
    assert set(numbers) <= {"CLM0412", "CLM0413", "CLM0414", "CLM0415"}, numbers
