"""A general "never say" rule is no criterion on a branch whose own paragraph says the word.

Found on a shift skill: "say "requested", never "done" or "approved"" stood as a criterion
on the status check too, whose own paragraph has the agent read out each request's state,
"approved" among them: a correct agent reading an approved swap would fail it.
"""

from __future__ import annotations

from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting.offline._mantle_criteria import prose_rules
from evalcore.definitions import load_project

SKILL = """\
---
name: Requests
description: Asking for a change or checking on one, "did my request go through".
---

Every change needs the manager's approval; say "requested", never "done" or "approved".

if: session.req.request_type == "submit"
Ask what they want changed and send it.

if: session.req.request_type == "check_status"
Read out each request's state (waiting for manager, approved, declined) in one line each.
"""

MEMORY = """\
schema:
  public:
    request_type:
      type: categorical
      enum_values: [submit, check_status]
      description: What they ask for.
      llm_settable: true
"""


def test_the_status_branch_may_say_approved(tmp_path: Path) -> None:
    files = {
        "agent.yml": "name: Desk\npersona: You help staff.\n",
        "integrations.yml": INTEGRATIONS,
        "memory.yml": "{}\n",
        "skills/req/skill.md": SKILL,
        "skills/req/memory.yml": MEMORY,
    }
    project = load_project(write_project(tmp_path / "p", files))
    defs = project.mantle
    assert defs is not None
    skill = defs.skills["req"]

    def texts(kind: str) -> list[str]:
        return [r.text for r in prose_rules(defs, skill, {"req.request_type": kind})]

    assert any('"approved"' in t for t in texts("submit")), texts("submit")
    assert not any('"approved"' in t for t in texts("check_status")), texts("check_status")
