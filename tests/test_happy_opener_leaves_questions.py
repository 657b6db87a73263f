"""A happy path's first message leaves the path's later questions to their turns.

A description example that answers one of them ("publish v2.3.0 to beta" says the channel)
would open the happy path with the details-up-front case's story: both cases then give the
same facts in the first message and check the same thing. The happy path opens with the
plain request instead, and the up-front case is the one that gives the channel early.
"""

from __future__ import annotations

from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.simulator import parse_fact_context

SKILL = """\
---
name: Releases
description: >
  Anything about releasing a package: "publish v2.3.0 to beta", "withdraw the last
  release of the parser".
tool_constraints:
  - publish_release:
      requires: session.releases.version
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_publish
        utter_on_user_denial: utter_publish_cancelled
      on_success: utter_published
---

From the first message, work out the package and set package, and set mode to publish or
withdraw.

if: session.releases.mode == "publish"
Ask for the channel (beta or stable) and the version if they did not say. Then call
publish_release with the package, channel and version.

if: session.releases.mode == "withdraw"
Call withdraw_release with the package.
"""

MEMORY = """\
schema:
  public:
    package:
      type: text
      description: Name of the package, e.g. parser.
      llm_settable: true
    mode:
      type: categorical
      enum_values: [publish, withdraw]
      description: What the maintainer wants to do.
      llm_settable: true
    channel:
      type: categorical
      enum_values: [beta, stable]
      description: Release channel.
      llm_settable: true
    version:
      type: text
      description: Version tag with a v prefix, e.g. v2.3.0.
      llm_settable: true
"""

TOOLS = '''\
def publish_release(package: str, channel: str, version: str) -> dict:
    """Publish a release."""
    return {"ok": True}


def withdraw_release(package: str) -> dict:
    """Withdraw the last release."""
    return {"ok": True}
'''

RESPONSES = """\
responses:
  utter_confirm_publish:
    - text: Publish it?
  utter_publish_cancelled:
    - text: Not published.
  utter_published:
    - text: Published.
"""

FILES = {
    "agent.yml": "name: Registry\npersona: You help package maintainers.\n",
    "integrations.yml": INTEGRATIONS,
    "skills/releases/skill.md": SKILL,
    "skills/releases/memory.yml": MEMORY,
    "skills/releases/tools.py": TOOLS,
    "skills/releases/responses.yml": RESPONSES,
}


def _opening(project, kind: str, title: str = "") -> str:
    behaviors = plan_source(project, "mantle", "releases", None).behaviors
    case = next(b for b in behaviors if b.facts.get("kind") == kind and title in b.title)
    data = draft_mantle(DraftContext(project, "mantle", case))
    return parse_fact_context(data["scenario"]["simulation_context"]).opening or ""


def test_the_happy_path_does_not_give_the_channel_up_front(tmp_path: Path) -> None:
    project = load_project(write_project(tmp_path / "registry", FILES))
    happy = _opening(project, "happy", "publish")
    assert "publish" in happy.lower(), happy
    assert "beta" not in happy.lower() and "stable" not in happy.lower(), happy
    up_front = _opening(project, "out_of_order")
    assert up_front != happy, up_front
