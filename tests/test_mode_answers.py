"""A mode is answered in the skill's own words: the description example that names the mode
by its own word ("swap my on-call with Arjun next week"), not "Swap, please."; a mode no
example names keeps the plain answer. The reference agent hears both."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.mutate import mutate
from agentflows.planning import plan_source
from agentflows.planning._mantle_phrases import own_phrase, value_line
from evalcore.definitions import load_project
from evalcore.runner import collect_cases

ONCALL = """\
---
name: On-call
description: >
  Who is on call and changing the rota: "who's on call for payments", "swap my on-call
  with Arjun next week".
tool_constraints:
  - create_override:
      requires: session.oncall.cover_handle
      on_success: utter_override_created
---

Set request from what they ask.

if: session.oncall.request == "who"
Call @tool.get_current_oncall and give the primary by handle.

if: session.oncall.request == "swap"
Ask who covers (set cover_handle), then call @tool.create_override.

if: session.oncall.request == "page"
Page the team's primary with @tool.page_responder.
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Who is on call now.")
async def get_current_oncall(context: ToolContext = None):
    """The rota."""
    return {"primary": "mchen"}


@tool(description="Hand a shift to someone else.")
async def create_override(cover_handle: str, context: ToolContext = None):
    """The override."""
    context.memory.set("override_id", "OV-20417")
    return {"created": True}


@tool(description="Page the primary on-call.")
async def page_responder(context: ToolContext = None):
    """Send the page."""
    return {"paged": True}
'''

FILES: dict[str, str] = {
    "agent.yml": "name: Forge\npersona: You help engineers.\n",
    "integrations.yml": INTEGRATIONS,
    "responses.yml": (
        "responses:\n  utter_anything_else:\n    - text: Anything else?\n"
        "  utter_goodbye:\n    - text: Goodbye!\n"
    ),
    "skills/oncall/skill.md": ONCALL,
    "skills/oncall/tools.py": TOOLS,
    "skills/oncall/memory.yml": (
        "schema:\n  public:\n    request:\n      type: categorical\n"
        "      enum_values: [who, swap, page]\n"
        "      description: Look up who is on call, swap a shift, or page someone.\n"
        "      llm_settable: true\n"
        "    cover_handle:\n      type: text\n"
        "      description: Handle of the person taking the shift.\n"
        "    override_id:\n      type: text\n      description: The override.\n"
    ),
    "skills/oncall/responses.yml": (
        "responses:\n  utter_override_created:\n    - text: The override is in.\n"
    ),
}


@pytest.fixture(scope="module")
def forge(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("forge") / "forge", FILES)


def test_a_mode_is_said_with_the_description_example_that_names_it(forge: Path) -> None:
    defs = load_project(forge).mantle
    assert own_phrase(defs, "oncall.request", "swap") == "Swap my on-call with Arjun next week."
    assert value_line(defs, "oncall.request", "who") == "Who's on call for payments?"
    # no example names paging: the plain answer stays
    assert own_phrase(defs, "oncall.request", "page") is None
    assert value_line(defs, "oncall.request", "page") == "Page, please."


def test_the_opening_is_the_modes_own_example_and_the_case_verifies(
    forge: Path, tmp_path: Path
) -> None:
    project = load_project(forge)
    behaviors = plan_source(project, "mantle", "oncall", None).behaviors
    folder = tmp_path / "cases"
    folder.mkdir()
    openings = {}
    for behavior in behaviors:
        if behavior.type != "happy_path":
            continue
        data = draft_mantle(DraftContext(project, "mantle", behavior))
        context = data["scenario"]["simulation_context"]
        value = behavior.facts["values"].get("oncall.request")
        openings[value] = next(
            (line for line in context.splitlines() if line.strip().startswith("Open with")), ""
        )
        (folder / f"{behavior.case}.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    assert "Swap my on-call with Arjun next week." in openings["swap"]
    assert "please" not in openings["swap"]
    cases = collect_cases([folder], project=forge)
    report = asyncio.run(mutate(cases, forge, concurrency=1, only=[]))
    assert set(report.reference.values()) == {"passed"}, report.reference


ROOMS = """\
---
name: Rooms
description: Booking a room at a branch.
---

:::ordered_block id=pick
steps:
  - id: what_room
    collect: room_type
    utterance: utter_ask_room_type
    description: study_room (up to 4), meeting_room (up to 16) or maker_lab (a workshop).
:::
"""


def test_a_note_with_a_number_is_not_how_the_user_names_a_value(tmp_path: Path) -> None:
    files = {
        "agent.yml": "name: Library\npersona: You help library members.\n",
        "integrations.yml": INTEGRATIONS,
        "responses.yml": "responses:\n  utter_ask_room_type:\n    - text: Which room?\n",
        "skills/rooms/skill.md": ROOMS,
        "skills/rooms/memory.yml": (
            "schema:\n  public:\n    room_type: {type: categorical, enum_values: "
            "[study_room, meeting_room, maker_lab], llm_settable: true}\n"
        ),
    }
    defs = load_project(write_project(tmp_path, files)).mantle
    # "(up to 16)" says how big the room is; the user says which room
    assert value_line(defs, "rooms.room_type", "meeting_room") == "Meeting room, please."
    # an explanation in words still names the value
    assert value_line(defs, "rooms.room_type", "maker_lab") == "It's about a workshop."


def test_a_field_asked_in_a_sentence_is_answered_in_the_skills_own_words(tmp_path: Path) -> None:
    from agentflows.drafting.offline._mantle_facts import in_own_words
    from evalcore.testdata import SheetBuilder

    skill = (
        '---\nname: Librarian\ndescription: >\n  A person, not the assistant: "can I speak to'
        ' a librarian", "I want to make a complaint".\n---\n\nAsk in a sentence what it is'
        " about (set topic).\n"
    )
    files = {
        "agent.yml": "name: Library\npersona: You help library members.\n",
        "integrations.yml": INTEGRATIONS,
        "skills/librarian/skill.md": skill,
        "skills/librarian/memory.yml": (
            "schema:\n  public:\n    topic: {type: text, description: What the member wants a"
            " librarian for, in a sentence., llm_settable: true}\n"
        ),
    }
    defs = load_project(write_project(tmp_path, files)).mantle
    field = defs.memory_field("librarian.topic")
    said = in_own_words(defs, field, SheetBuilder("case-1", "library members"), {})
    assert said in ("Can I speak to a librarian.", "I want to make a complaint.")
