"""A paragraph that opens by naming what it is about ("Kiln logs are restricted.") where the
description lists that as a request of its own ("what's in the kiln log") serves that
request only: its calls wait for the user to ask for it. A plain case (the studio briefing)
asserts none of them, and the case that asks for it opens with the description's example,
asserts the paragraph's calls and nothing of the briefing's."""

from __future__ import annotations

from pathlib import Path

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from agentflows.scoring.skills import skill_signals
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import skill_models
from evalcore.definitions.skill_model.cues import topic_cue

BRIEFING = """\
---
name: Studio briefing
description: >
  A rundown of the studio: "brief me", "what fired overnight", "what's in the kiln log".
---

Give a short briefing of the day, two parts at most, from @tool.list_firings.

Kiln logs are restricted. Check @tool.check_log_access for the potter first; only then
read the log with @tool.read_kiln_log.
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="The firings of the day.")
async def list_firings(context: ToolContext = None):
    """Firings."""
    return {"firings": []}


@tool(description="Whether the potter may read the kiln log.")
async def check_log_access(context: ToolContext = None):
    """Access."""
    return {"allowed": True}


@tool(description="The kiln log.")
async def read_kiln_log(context: ToolContext = None):
    """The log."""
    return {"entries": []}
'''

FILES: dict[str, str] = {
    "agent.yml": "name: Kiln studio\npersona: You help potters.\n",
    "integrations.yml": INTEGRATIONS,
    "responses.yml": (
        "responses:\n  utter_anything_else:\n    - text: Anything else?\n"
        "  utter_goodbye:\n    - text: Goodbye!\n"
    ),
    "skills/briefing/skill.md": BRIEFING,
    "skills/briefing/tools.py": TOOLS,
    "skills/briefing/memory.yml": "schema:\n  public: {}\n",
}


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("studio") / "studio", FILES)


@pytest.mark.parametrize(
    ("lead", "cue"),
    [
        ("Kiln logs and glaze recipes are restricted.", "they ask about kiln logs"),
        ("Glaze recipes are restricted.", None),  # no request of the description's
        ("Check @tool.check_log_access first.", None),  # a step, not a topic
    ],
)
def test_a_paragraph_about_a_described_request_waits_for_it(lead: str, cue: str | None) -> None:
    description = 'A rundown: "brief me", "what\'s in the kiln log".'
    assert topic_cue(lead, description) == cue


def test_the_paragraph_calls_wait_for_the_topic(studio: Path) -> None:
    model = skill_models(load_project(studio))["briefing"]
    calls = {u.name: [(c.optional, c.cue, c.topic) for c in u.calls] for u in model.tools}
    waiting = [(True, "they ask about kiln logs", True)]
    assert calls["check_log_access"] == waiting
    assert calls["read_kiln_log"] == waiting
    assert calls["list_firings"] == [(False, None, False)]


def _tools(data: dict) -> set[str]:
    return {
        a["tool_executed"]["tool_name"]
        for a in data["scenario"]["goals"]["assertions"]
        if "tool_executed" in a
    }


def test_a_plain_briefing_asserts_no_call_of_the_topic(studio: Path) -> None:
    project = load_project(studio)
    behaviors = {b.case: b for b in plan_source(project, "mantle", "briefing", None).behaviors}
    happy = next(b for b in behaviors.values() if b.facts.get("kind") == "happy")
    assert _tools(draft_mantle(DraftContext(project, "mantle", happy))) == {"list_firings"}


def test_the_topic_case_asks_for_it_and_asserts_only_its_calls(studio: Path) -> None:
    project = load_project(studio)
    behaviors = {b.case: b for b in plan_source(project, "mantle", "briefing", None).behaviors}
    topic = behaviors["kiln_logs"]
    data = draft_mantle(DraftContext(project, "mantle", topic))
    scenario = data["scenario"]
    assert 'Open with: "What\'s in the kiln log?"' in scenario["simulation_context"]
    assert _tools(data) == {"check_log_access", "read_kiln_log"}
    criteria = scenario["goals"].get("criteria") or []
    assert not any("briefing" in c or "list_firings" in c for c in criteria)


def test_the_topic_call_is_not_the_skills_success(studio: Path) -> None:
    assert set(skill_signals(load_project(studio), "briefing").success) == {"list_firings"}
