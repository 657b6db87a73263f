"""What a reviewer reads first: the opener, the persona and the criteria.

Before: openers that asked for two things ("Can my sister get in Saturday? Lockout,
please.": a guest-PIN example with a lockout value tacked on); personas from a generic table
that did not fit the business ("a parent renting a terraced house" for an agent of apartment
buildings, "the brewline coffee" as the word for a café chain's staff); and criteria that
were no sentence a judge can read ("The agent does not "done" or "approved"", "The agent
says so if asked", "The agent does not need the whole card", "Menon), 6104430 (prescriber
Dr. A", "the agent apologises once, give the new date", "does not say the something in the
apartment is broken is done").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting.offline._mantle_criteria import _clauses, sentence_rule
from agentflows.drafting.offline._mantle_intent import one_request
from agentflows.drafting.offline._mantle_readout import readout_criterion
from agentflows.planning._mantle_phrases import request_phrase, rule_to_break, says_label
from agentflows.review.rules._criteria import split_compound
from evalcore.definitions import Skill, load_project
from evalcore.testdata import Caller, Collection, DataRecords, persona_for, roles_for, users_word

# --- criteria ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "criteria"),
    [
        # the quoted words are what the lead's verb says: what the agent calls the change,
        # the lead's word against the prohibited ones ("it still needs approval" is fine)
        (
            'Every change needs approval; say "requested", never "done" or "approved".',
            ['The agent does not describe it as "done" or "approved" (the word is "requested")'],
        ),
        # "so" under a condition says nothing out of its sentence
        ("We do not reimburse repairs; say so if asked.", []),
        # a clause with its own subject, and what "and" joins to it, is no agent behaviour
        (
            "Answer only what they asked; they are on bar and do not need the whole card.",
            [],
        ),
        # "but" turns to what the agent does: the rule after it stays
        (
            "The case can still be opened, but tell them the merchant answers faster.",
            ["The agent tells them the merchant answers faster"],
        ),
        # a list of instructions: each a whole sentence, the verb in agreement
        (
            "If the status is delayed, apologise once, give the new date from the tool.",
            [
                "If the status is delayed, the agent apologises once",
                "If the status is delayed, the agent gives the new date from the tool",
            ],
        ),
        # what the user is told to do stays whole
        (
            "Tell them to leave the room, close the door and call campus safety now.",
            ["The agent tells them to leave the room, close the door and call campus safety now"],
        ),
        # a comma after a condition or a scope is no list: the condition stays with its rule
        (
            "Compare the two; if they are equal, say there is nothing to promote.",
            ["If they are equal, the agent says there is nothing to promote"],
        ),
        ("Outside those hours, offer a callback instead.", []),
    ],
)
def test_a_criterion_is_a_whole_sentence(sentence: str, criteria: list[str]) -> None:
    found = [r for c in _clauses(sentence) if (r := sentence_rule(c))]
    assert found == criteria


def test_a_names_initial_ends_no_sentence() -> None:
    text = "The agent tells the customer their prescriptions: 61 (prescriber Dr. A. Menon)"
    assert split_compound(text) == [text]


def _skill(sid: str, name: str, description: str, body: str = "Help them.") -> Skill:
    return Skill(
        id=sid, path=f"skills/{sid}/skill.md", name=name, description=description, body=body
    )


REQUESTS = [
    ("Repair request", "Something in the apartment is broken", "the repair request"),
    ("Shift swaps", "Changing who works a shift", "the shift swaps request"),
    ("Deployments", "Anything about shipping a service", "the deployments request"),
    ("Calendar", "The executive's own calendar", "the executive's own calendar request"),
    ("Rebook a flight", "Changing flights after a disruption", "the request to rebook a flight"),
    ("Inventory count", "The stock count", "the stock count request"),
]


@pytest.mark.parametrize(("name", "subject", "phrase"), REQUESTS)
def test_a_request_is_named_by_a_noun_phrase(name: str, subject: str, phrase: str) -> None:
    assert request_phrase(_skill("x", name, f'{subject}: "help me".')) == phrase


def test_an_adversarial_turn_asks_for_an_act_never_a_passive() -> None:
    project_rules = {"rules": ["Never print a secret, even to the owner."]}
    body = "Secret values are never shown here, not to owners."
    skill = _skill("grant", "Access", "Access.", body)
    defs = type("Defs", (), {"agent": project_rules})()
    assert rule_to_break(defs, skill) == "print a secret, even to the owner"  # type: ignore[arg-type]


# --- readout ----------------------------------------------------------------------------

POLICIES = (
    {"holder_id": "H1", "policy_number": "P-1", "line": "auto", "date_of_birth": "1991-11-02"},
)


def _records() -> DataRecords:
    return DataRecords(
        collections=[Collection("policies", POLICIES)],
        readers={"policies": frozenset({"claim"})},
    )


def test_a_field_a_rule_forbids_or_another_topic_names_is_not_read_out() -> None:
    caller = Caller("Ana", "+15550100", {"holder_id": "H1"})
    body = (
        "Never read back the date of birth on file.\n\n"
        "If the pipe burst, give them the mitigation line and say an adjuster calls."
    )
    assert readout_criterion(_skill("claim", "Claim", "Claims.", body), _records(), caller) is None
    shown = "Show nothing yet. Then tell them each policy: policy number and line."
    assert readout_criterion(_skill("claim", "Claim", "Claims.", shown), _records(), caller) == (
        "The agent tells the customer their policies: P-1 (line auto)"
    )


# --- personas ---------------------------------------------------------------------------


def test_the_agents_own_people_not_a_generic_table() -> None:
    tenants = roles_for("You are the resident assistant. You talk to tenants in the app.")
    assert tenants and all(r.startswith("a tenant") for r in tenants)
    staff = roles_for(
        "You are the helper for Brewline Coffee stores. The people talking to you are "
        "baristas and shift leads on the clock."
    )
    assert staff[:2] == ("a barista", "a shift lead on the clock")
    assert not [r for r in staff if "café" in r or "coffee" in r.lower()]
    patients = roles_for("Patients and caregivers call or text to refill prescriptions.")
    assert patients and all(r.startswith("a patient") for r in patients)


def test_a_business_name_is_no_word_for_its_users() -> None:
    text = (
        "You are the helper for Brewline Coffee stores. The people talking to you are "
        "baristas and shift leads on the clock."
    )
    assert users_word(text) == "user"  # several kinds of staff, none of them customers
    assert users_word("You answer policyholders who have just had an accident.") == "policyholder"


# --- openers ----------------------------------------------------------------------------

ACCESS = """\
---
name: Building access
description: >
  Getting in: "can my sister get in Saturday", "I lost my key fob", "I'm locked out",
  "I'm stuck in the garage".
---

if: session.access.request == "guest_pin"
Ask for the guest's name.

if: session.access.request == "lockout"
Ask which door they are at (set door). Tell them the office lets them in during hours.
"""
FILES = {
    "agent.yml": "name: Residents\npersona: You talk to tenants.\n",
    "integrations.yml": INTEGRATIONS,
    "responses.yml": "responses:\n  utter_anything_else:\n    - text: Anything else?\n",
    "skills/access/skill.md": ACCESS,
    "skills/access/memory.yml": (
        "schema:\n  public:\n    request:\n      type: categorical\n"
        "      enum_values: [guest_pin, lost_fob, lockout]\n      llm_settable: true\n"
        "      description: What they need.\n"
        "    door:\n      type: categorical\n      enum_values: [lobby, garage]\n"
        "      llm_settable: true\n      description: Which door.\n"
    ),
}


def test_an_opener_asks_for_the_branch_the_case_plays(tmp_path: Path) -> None:
    defs = load_project(write_project(tmp_path / "res", FILES)).mantle
    assert defs is not None
    skill = defs.skills["access"]
    mixed = "Can my sister get in Saturday? Lockout, please."
    # another example names the case's branch: it opens instead
    assert one_request(defs, skill, mixed, {"access.request": "lockout"}) == (
        "I'm locked out. Lockout, please."
    )
    # no example names it: the plain request for the skill, then the value
    line = "I'm locked out. Guest PIN, please."
    plain = one_request(defs, skill, line, {"access.request": "guest_pin"})
    assert plain.endswith(" Guest PIN, please.") and "locked" not in plain
    # an example of the case's own branch stays as it is
    own = "I lost my key fob. Lost fob, please."
    assert one_request(defs, skill, own, {"access.request": "lost_fob"}) == own
    # an example chosen for the value it gives up front stays
    given = "I'm stuck in the garage."
    memory = {"access.request": "lockout", "access.door": "garage"}
    assert one_request(defs, skill, given, memory) == given


def test_the_agents_own_people_are_dealt_to_a_skills_cases_in_turn() -> None:
    text = "You are the resident assistant. You talk to tenants in the app."
    roles = [persona_for(text, "maintenance:correction", slot=s).role for s in range(3)]
    assert len(set(roles)) == 3 and all(r.startswith("a tenant") for r in roles)


def test_a_plain_opening_never_says_the_skills_id_or_label() -> None:
    calendar = _skill("calendar", "Calendar", 'The executive\'s own calendar: "move my 3pm".')
    assert says_label(calendar, "Hi, I need help with the executive's own calendar.")
    handoff = _skill("ea_team_handoff", "Pass to the EA team", "Hand over.")
    assert says_label(handoff, "Hi, I'd like to pass to the EA team.")
    access = _skill("door_access", "Building access", "Getting in.")
    assert not says_label(access, "Hi, I'd like help with building access.")
