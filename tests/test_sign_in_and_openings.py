"""What a case says first and what it knows for a sign-in, on a project shaped unlike ours.

Found on a utility's phone line: an opening that several skills could take ("It's about my
card.") routed nowhere, so every case of the skill was dropped; a sign-in that asks in prose
for a project field and a field its description names ("the postcode of the home address")
read as asking nothing, so the case gave no sign-in details and the skill behind the sign-in
was never reached; records shipped as CSV were not drawn from.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from agentflows.drafting.offline._mantle_facts import _plain_label, asked_clause
from agentflows.planning._mantle_phrases import activation_phrase
from evalcore.agents.reference._mantle_words import routed_skill, routing_words
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import skill_model
from evalcore.lexicon.en.agent_turns import ASKING as _ASKING
from evalcore.testdata import load_records

AGENT = """\
name: Fernhill libraries
persona: >
  You are the help line of Fernhill's public libraries. Callers are card holders, parents
  who borrow for their children, and teachers with class sets.
orchestrator:
  model_group: main
  preconditions:
    card_checked:
      satisfied_when: session.project.card_ok
      resolve_with: sign_in
"""

MEMORY = """\
card_number:
  type: text
  description: Library card number, LC- followed by six digits.
  mutable: true
card_ok:
  type: bool
  description: True once the card number and postcode matched a member.
"""

SIGN_IN = """\
---
name: Check the card
description: >
  Checking who is calling: "it's about my card", "check my library card", "I'm a member".
import_tools:
  - check_card
---

Ask for the card number from the back of the card and the postcode of the home address.
Call @tool.check_card with both.
"""

SIGN_IN_MEMORY = """\
schema:
  private:
    home_postcode:
      type: text
      description: Five-character postcode of the home address.
      llm_settable: true
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Check a library card against the member's postcode.")
async def check_card(card_number: str, home_postcode: str, context: ToolContext = None):
    """Match the member.

    Args:
        card_number: LC- followed by six digits.
        home_postcode: The home postcode.
    """
    if context is not None:
        context.memory.set("project.card_ok", True)
    return {"matched": True}
'''

RENEW = """\
---
name: Renew loans
description: >
  Renewing borrowed items: "renew item 40213377", "my card says a book is due", "renew my
  books", "keep a DVD longer".
precondition: card_checked
tool_constraints:
  - renew_item:
      requires: session.renew.title
      on_success: utter_renewed
---

Ask which title they want to renew and set title, then call renew_item with the title.
"""

RENEW_MEMORY = """\
schema:
  public:
    title:
      type: text
      description: The title of the borrowed item.
      llm_settable: true
    item_kind:
      type: categorical
      enum_values: [book, dvd]
      description: What kind of item it is.
      llm_settable: true
"""

RENEW_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Renew one borrowed item for three more weeks.")
async def renew_item(title: str, context: ToolContext = None):
    """Renew it.

    Args:
        title: The item's title.
    """
    return {"renewed": True}
'''

FILES = {
    "agent.yml": AGENT,
    "integrations.yml": INTEGRATIONS,
    "memory.yml": MEMORY,
    "responses.yml": "responses:\n  utter_renewed:\n    - text: Renewed for three weeks.\n",
    "skills/sign_in/skill.md": SIGN_IN,
    "skills/sign_in/memory.yml": SIGN_IN_MEMORY,
    "skills/sign_in/tools.py": TOOLS,
    "skills/renew/skill.md": RENEW,
    "skills/renew/memory.yml": RENEW_MEMORY,
    "skills/renew/tools.py": RENEW_TOOLS,
    "data/branches.csv": (
        "branch_id,name,opens\nFH-01,Fernhill Central,09:00\nFH-02,Oak Lane,10:00\n"
    ),
}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("library"), FILES)


@pytest.fixture(scope="module")
def generated(root: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("out")
    return generate_offline(root, ["renew"], out)


def test_an_opening_is_one_the_router_sends_to_its_skill(root: Path) -> None:
    defs = load_project(root).mantle
    assert defs is not None
    words = routing_words(defs)
    # "my card" shares its only word with the renew skill's description
    assert routed_skill(defs, words, "My card.") is None
    # a phrasing the description quotes asks for its skill, however common its words
    assert routed_skill(defs, words, "Hi, it's about my card.") == "sign_in"
    line = activation_phrase(defs, defs.skills["sign_in"])
    assert routed_skill(defs, words, line) == "sign_in", line


def test_a_sign_in_asks_for_a_project_field_and_a_field_its_description_names(root: Path):
    model = skill_model(load_project(root), "sign_in")
    asked = {spec.qualified for spec in model.fields}
    assert {"project.card_number", "sign_in.home_postcode"} <= asked
    tool = next(t for t in model.tools if t.name == "check_card")
    assert tool.arguments == {
        "card_number": "project.card_number",
        "home_postcode": "sign_in.home_postcode",
    }


def test_a_case_behind_a_sign_in_knows_what_the_sign_in_asks(
    generated: dict[str, Any],
) -> None:
    happy = [r for r in generated["cases"] if str(r["path"]).endswith("happy_path.yml")]
    assert happy
    for row in happy:
        context = yaml.safe_load(Path(row["path"]).read_text("utf-8"))["scenario"][
            "simulation_context"
        ]
        assert "card number: LC-" in context, context
        assert "postcode" in context, context
        # the reference agent signs the case in and reaches the skill behind the sign-in
        assert row["verified"] == "yes", row


def test_records_shipped_as_csv_are_drawn_from(root: Path) -> None:
    records = load_records(root)
    (collection,) = records.collections
    assert collection.name == "branches"
    assert [r["branch_id"] for r in collection.records] == ["FH-01", "FH-02"]
    assert records.match("branch_id") == (collection, "branch_id")


def test_a_csv_file_that_cannot_be_read_is_reported_not_fatal(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "bad.csv").write_bytes(b"\xff\xfe not text")
    (tmp_path / "data" / "good.csv").write_text("id,name\n1,One\n", encoding="utf-8")
    records = load_records(tmp_path)
    assert [c.name for c in records.collections] == ["good"]
    assert records.problems and records.problems[0].startswith("data/bad.csv: cannot be read")


@pytest.mark.parametrize(
    ("message", "asks"),
    [
        ("Please read me the black numbers on the dial.", True),
        ("Read me the code on the screen.", True),
        ("Your reading is saved.", False),
    ],
)
def test_a_request_to_read_or_say_something_is_an_ask(message: str, asks: bool) -> None:
    assert bool(_ASKING.search(message)) is asks


@pytest.mark.parametrize(
    ("sentence", "label"),
    [
        (
            "Ask where the water is coming from and set leak_location.",
            "where the water is coming from",
        ),
        ("Ask for the ZIP code, then call check_outages with it.", "ZIP code"),
        ("Ask which service is affected if it is not clear.", "which service is affected"),
        # two things in one clause name neither field well
        ("Ask for the environment (staging or prod) and the version tag to ship.", None),
    ],
)
def test_a_fact_is_labelled_by_what_is_asked_not_what_the_agent_does_next(sentence, label):
    assert asked_clause(sentence) == label


def test_an_opening_names_no_value_of_the_skill_s_own_choices_and_no_id(root: Path) -> None:
    # every phrasing names a book or a DVD (item_kind) or an item number: none is neutral
    defs = load_project(root).mantle
    assert defs is not None
    assert activation_phrase(defs, defs.skills["renew"]) == "Hi, I'd like to renew loans."


def test_a_label_drops_the_memory_write_a_question_names():
    assert _plain_label("last four digits of the card (set card last4)") == (
        "last four digits of the card"
    )
