"""The failing test account reaches a tool-failure case where no caller phone is seeded: in a
session id of any shape (a handle without digits, an id with three), or, where nothing is
seeded, in the user's answer for the failing tool's own argument; the reference agent's
backend fails the tool on it, so the sad path verifies."""

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
from evalcore.definitions import load_project
from evalcore.runner import collect_cases
from evalcore.testdata._accounts import account_of, account_value


def test_a_session_id_of_any_shape_carries_the_account() -> None:
    assert account_value("R-30418", "failing") == "R-50150"
    assert account_value("NS-004", "failing") == "NS-004"  # an answer keeps its shape
    assert account_value("NS-004", "failing", widen=True) == "NS-0150"
    assert account_value("mchen", "negative", widen=True) == "mchen0161"
    assert account_of({"NS-0150"}) == "failing"
    assert account_of({"mchen0161"}) == "negative"
    assert account_of({"NS-004", "mchen"}) is None


REPORT = """\
---
name: Report a lost bag
description: >
  A checked bag that did not arrive: "my bag didn't come off the belt".
tool_constraints:
  - file_bag_report:
      requires: session.lost_bag.bag_tag
      on_success: utter_report_filed
      on_failure: utter_report_failed
---

Ask for the bag tag, then file the report with @tool.file_bag_report and give its reference.
"""

REPORT_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Open a missing-bag file.")
async def file_bag_report(bag_tag: str, context: ToolContext = None):
    """Open the file.

    Args:
        bag_tag: SK followed by six digits.
    """
    context.memory.set("report_id", "BOSSK12345")
    return {"filed": True}
'''

WATCH = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Mute the alerts of a service for an hour.")
async def mute_alerts(service: str, tier: str, handle: str, context: ToolContext = None):
    """Mute the pager.

    Args:
        service: Catalog name of the service.
        tier: Support tier of the engineer's team.
        handle: Chat handle of the engineer, without the @.
    """
    context.memory.set("mute_id", "MUTE-4410")
    return {"muted": True}
'''


def _project(root: Path, *, handle: bool) -> Path:
    memory = "caller_name:\n  type: text\n  description: Name of the passenger.\n"
    files = {
        "agent.yml": "name: Desk\npersona: You help people.\n",
        "integrations.yml": INTEGRATIONS,
        "responses.yml": (
            "responses:\n  utter_anything_else:\n    - text: Anything else?\n"
            "  utter_goodbye:\n    - text: Goodbye!\n"
        ),
    }
    if handle:  # a chat handle seeded by the channel (letters only) and a seeded choice
        memory = (
            "tier:\n  type: categorical\n  enum_values: [gold, none]\n"
            "  description: Support tier of the engineer's team.\n  seed: true\n"
            "engineer_handle:\n  type: text\n"
            "  description: Chat handle of the engineer, without the @ (e.g. mchen).\n"
            "  seed: true\n"
        )
        files["skills/mute/skill.md"] = (
            '---\nname: Mute alerts\ndescription: >\n  Silence a noisy pager: "mute the '
            'alerts of checkout-api".\ntool_constraints:\n  - mute_alerts:\n'
            "      requires: session.mute.service\n      on_success: utter_muted\n"
            "      on_failure: utter_mute_failed\n---\n\nAsk which service, then call "
            "@tool.mute_alerts with the service and the engineer's handle.\n"
        )
        files["skills/mute/tools.py"] = WATCH
        files["skills/mute/memory.yml"] = (
            "schema:\n  public:\n    service:\n      type: text\n"
            "      description: Catalog name of the service, e.g. checkout-api.\n"
        )
        files["skills/mute/responses.yml"] = (
            "responses:\n  utter_muted:\n    - text: Muted for an hour.\n"
            "  utter_mute_failed:\n    - text: I could not mute it.\n"
        )
    else:
        files["skills/lost_bag/skill.md"] = REPORT
        files["skills/lost_bag/tools.py"] = REPORT_TOOLS
        files["skills/lost_bag/memory.yml"] = (
            "schema:\n  public:\n    bag_tag:\n      type: text\n"
            "      description: Bag tag, SK and six digits (SK482177).\n"
        )
        files["skills/lost_bag/responses.yml"] = (
            "responses:\n  utter_report_filed:\n    - text: Your report is filed.\n"
            "  utter_report_failed:\n    - text: I could not file the report.\n"
        )
    files["memory.yml"] = memory
    return write_project(root, files)


def _verify(root: Path, folder: Path, data: dict) -> None:
    folder.mkdir()
    (folder / "case.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    cases = collect_cases([folder], project=root)
    report = asyncio.run(mutate(cases, root, concurrency=1, only=[]))
    assert set(report.reference.values()) == {"passed"}, report.reference


def _failure(root: Path, skill: str) -> dict:
    project = load_project(root)
    behaviors = plan_source(project, "mantle", skill, None).behaviors
    failure = next(b for b in behaviors if b.facts.get("kind") == "failure")
    return draft_mantle(DraftContext(project, "mantle", failure))


@pytest.mark.parametrize("handle", [True, False], ids=["handle", "no-session-id"])
def test_a_tool_failure_case_verifies_without_a_seeded_phone(tmp_path: Path, handle: bool) -> None:
    root = _project(tmp_path / "desk", handle=handle)
    data = _failure(root, "mute" if handle else "lost_bag")
    scenario = data["scenario"]
    calls = [
        a["tool_executed"]
        for a in scenario["goals"]["assertions"]
        if isinstance(a.get("tool_executed"), dict)
    ]
    assert [c["is_error"] for c in calls if c["tool_name"] in ("mute_alerts", "file_bag_report")]
    assert all(c["is_error"] for c in calls if c["tool_name"] in ("mute_alerts", "file_bag_report"))
    if handle:  # the handle carries the account: the engineer's handle plus its digits
        slots = scenario["setup"]["initial_slots"]
        seeded = slots["project.engineer_handle"]
        assert account_of({seeded}) == "failing" and seeded.rstrip("0123456789")
        assert slots.get("project.tier", "gold") in ("gold", "none")  # a choice never widens
    else:  # the user's bag tag does, in the tag's own shape
        tag = next(c["arguments"]["bag_tag"] for c in calls)
        assert tag.startswith("SK") and account_of({tag}) == "failing"
        assert tag in scenario["simulation_context"]
        assert "initial_slots" not in scenario.get("setup", {})
    _verify(root, tmp_path / "cases", data)


def test_a_happy_path_keeps_an_ordinary_answer(tmp_path: Path) -> None:
    """Only the failure case carries the account: the happy path's bag tag names none, and
    its tool succeeds on the reference agent."""
    root = _project(tmp_path / "desk", handle=False)
    project = load_project(root)
    behaviors = plan_source(project, "mantle", "lost_bag", None).behaviors
    happy = next(b for b in behaviors if b.type == "happy_path")
    data = draft_mantle(DraftContext(project, "mantle", happy))
    calls = [
        a["tool_executed"]
        for a in data["scenario"]["goals"]["assertions"]
        if isinstance(a.get("tool_executed"), dict)
    ]
    tags = {c["arguments"]["bag_tag"] for c in calls if "bag_tag" in c.get("arguments", {})}
    assert tags and account_of(tags) is None
    _verify(root, tmp_path / "cases", data)
