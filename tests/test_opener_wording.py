"""A case's first line is a person's words for the intent, not the description read aloud.

Before: "Hi, can you guide me through power-cycling my router and confirm?" (the agent's part
of the job said by the user), "Hi, can you answer common Acme questions about returns?",
"Hi, I'd like to know where to find or download a receipt/invoice by store.", "Hi, I want to
book or change a desk.", "Hi, can you post or announce a user-provided notice ...", the topic
("Hi, I need help with bike scheme rules and process.") where the description quotes what
people say, and "It's about my book travel." when a person asks for someone partway.
"""

from __future__ import annotations

from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting.offline._mantle_intent import (
    distinct_name_intent,
    intent_clause,
    name_intent,
    own_opening,
    routes,
)
from agentflows.planning._mantle_phrases import person_phrases, topic
from agentflows.planning._mantle_requests import requests
from evalcore.definitions import load_project
from evalcore.definitions._model import Skill
from evalcore.simulator._facts import opening_line


def _line(description: str, skill_id: str = "desk_help") -> str:
    skill = Skill(id=skill_id, path=f"skills/{skill_id}", name=None, description=description)
    return requests(skill)[0].line


def test_the_agent_part_of_the_first_sentence_is_not_the_user_request() -> None:
    line = _line(
        "Walk the customer through restarting their modem and confirm when it is back "
        "online. Activate for modem restarts."
    )
    assert line == "Hi, can you walk me through restarting my modem?"
    # "look up and explain" is one request, "premium and coverage" one object
    assert (
        _line("Look up and explain a customer's bill.")
        == "Hi, can you look up and explain my bill?"
    )
    assert _line("List the customer's plans with price and data allowance.") == (
        "Hi, can you list my plans with price and data allowance?"
    )


def test_a_faq_skill_is_asked_a_question_not_told_to_answer_the_faq() -> None:
    line = _line("Answer common Acme questions about returns, refunds and delivery times.")
    assert line == "Hi, I have a question about returns."


def test_a_topic_of_where_to_do_something_is_asked_as_a_question() -> None:
    line = _line("Where to find or download a receipt/invoice by store. Not about prices.")
    assert line == "Hi, where can I find my receipt?"


def test_one_verb_and_none_of_the_team_words() -> None:
    assert _line("Reserve a desk. Activate when the employee wants to book or change a desk.") == (
        "Hi, I want to book a desk."
    )
    assert _line("Post or announce a user-provided notice to a team channel after approval.") == (
        "Hi, can you post a notice to a team channel?"
    )


BIKE = """\
---
name: bike_scheme
description: >
  Bike scheme rules and process - eligibility, deposits and returns. Activate for
  "cycle to work", "how do I join the bike scheme". Do NOT activate for "my bike was
  stolen" (that is reporting).
---

Explain the bike scheme from the policy below.
"""


DESKS = """\
---
name: desk_moves
description: >
  Anything about desks and rooms: "move me to floor 3", "book room 12 for Friday".
---

Help with the desk or room.
"""


def test_the_phrasings_the_description_quotes_open_the_case(tmp_path) -> None:
    root = write_project(
        tmp_path / "hr",
        {
            "agent.yml": "name: People desk\npersona: You help employees.\n",
            "integrations.yml": INTEGRATIONS,
            "skills/bike_scheme/skill.md": BIKE,
            "skills/desk_moves/skill.md": DESKS,
        },
    )
    defs = load_project(root).mantle
    assert defs is not None
    skill = defs.skills["bike_scheme"]
    # the activation sentence's phrasings, never one of a "Do NOT activate" sentence
    assert person_phrases(skill) == ["cycle to work", "how do I join the bike scheme"]
    intent = intent_clause(defs, skill)
    assert intent == 'want to ask the agent: "cycle to work"'
    assert own_opening(defs, skill, "happy", {}) == "Cycle to work."
    assert "rules and process" not in opening_line(intent)
    # examples of one case each ("move me to floor 3") are no opening for every case
    desks = defs.skills["desk_moves"]
    assert intent_clause(defs, desks) == "want help with anything about desks and rooms"


def test_asking_for_a_person_names_what_it_is_about_in_a_person_words() -> None:
    travel = Skill(
        id="travel",
        path="skills/travel",
        name="Book travel",
        description='Flights and hotels for a business trip: "book me to Chicago Tuesday".',
    )
    assert topic(travel) == "Flights and hotels"
    claim = Skill(
        id="file_claim",
        path="skills/file_claim",
        name="File Claim",
        description="File a new claim. Activate when the customer wants to start a claim.",
    )
    assert topic(claim) == "Claim"
    patient = Skill(
        id="verify_patient",
        path="skills/verify_patient",
        name="Verify the patient",
        description="Confirm who is calling before anything else.",
    )
    assert topic(patient) == "request"  # not "my patient", nor "my verify the patient"


def test_an_id_like_skill_first_sentence_that_is_a_topic_is_not_an_instruction() -> None:
    line = _line('Where an existing claim stands: "any news on my claim".', "claim_status")
    assert line == "Hi, I'd like to know where an existing claim stands."  # not "can you where"


def test_a_topic_cut_at_a_list_of_choices_names_none_of_them() -> None:
    """ "to the sequencing, proteomics or metabolomics core": cut at the comma, the topic
    would name one choice, answering the question the skill asks about it (and a case
    correcting that answer would never hear the question)."""
    line = _line("Submitting samples to the sequencing, proteomics or metabolomics core.")
    assert line == "Hi, I need help with submitting samples."
    # a comma that starts no list keeps the clause whole
    assert _line("Submitting samples to the core, with a quote first.") == (
        "Hi, I need help with submitting samples to the core."
    )


RESET_PANEL = """\
---
name: Reset Panel
description: >
  Remotely wipe a customer alarm panel back to its shipped state when a restart did not clear a
  fault. Activate for factory reset, full wipe, or reset after restart failed.
---

Reset the panel.
"""

PANEL_HELP = """\
---
name: Panel Troubleshooting
description: >
  Help customers with a faulty alarm panel by guiding a panel restart and moving on to a
  factory reset when needed. Activate for beeping, false alarms, or a frozen panel.
---

Help with the panel.
"""

REPLACE_PANEL = """\
---
name: Replace Panel
description: >
  Order a new alarm panel for the customer's home. Activate for quick replace, or a
  broken case.
---

Replace the panel.
"""


def test_a_name_another_skill_describes_as_well_opens_with_the_skill_own_words(
    tmp_path,
) -> None:
    root = write_project(
        tmp_path / "alarms",
        {
            "agent.yml": "name: Alarm desk\npersona: You help alarm customers.\n",
            "integrations.yml": INTEGRATIONS,
            "skills/reset_panel/skill.md": RESET_PANEL,
            "skills/panel_help/skill.md": PANEL_HELP,
            "skills/replace_panel/skill.md": REPLACE_PANEL,
        },
    )
    defs = load_project(root).mantle
    assert defs is not None
    reset = defs.skills["reset_panel"]
    # "reset a panel" fits the troubleshooting skill's words as well (its name alone
    # routes it): the activation list's "factory reset" says which reset is meant
    intent = intent_clause(defs, reset)
    assert intent == "want to factory reset a panel"
    assert routes(defs, reset, opening_line(intent))
    assert own_opening(defs, reset, "happy", {}) in (None, opening_line(intent))
    # a name no other description fits as well keeps its own verb phrase
    replace = defs.skills["replace_panel"]
    assert distinct_name_intent(defs, replace) == name_intent(replace) == "want to replace a panel"


PARCELS = """\
---
name: parcels
description: >
  Parcels that never came or came broken.
---

Set `mode` from what they need.

if: session.parcels.mode == "trace"
Trace the parcel.

if: session.parcels.mode == "report_broken"
Report the broken parcel.
"""

PARCEL_MEMORY = """\
schema:
  public:
    mode:
      type: categorical
      enum_values: [trace, report_broken]
      description: What the customer needs.
      llm_settable: true
"""


def test_an_opening_that_lists_alternatives_says_the_one_the_case_plays(tmp_path) -> None:
    root = write_project(
        tmp_path / "post",
        {
            "agent.yml": "name: Post desk\npersona: You help customers.\n",
            "integrations.yml": INTEGRATIONS,
            "skills/parcels/skill.md": PARCELS,
            "skills/parcels/memory.yml": PARCEL_MEMORY,
        },
    )
    defs = load_project(root).mantle
    assert defs is not None
    skill = defs.skills["parcels"]
    plain = own_opening(defs, skill, "happy", {})
    assert plain is not None and "never came or came broken" in plain
    broken = own_opening(defs, skill, "happy", {"values": {"parcels.mode": "report_broken"}})
    assert broken == plain.replace("never came or came broken", "came broken")
    # a value no alternative's own words name says neither: "never came" would ask for
    # the report the other value's words name, not a trace
    trace = own_opening(defs, skill, "happy", {"values": {"parcels.mode": "trace"}})
    assert trace == plain.replace(" that never came or came broken", "")
