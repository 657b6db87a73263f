"""One story, one share: the lines a case tells of a failure agree on how much fails.

Found by blind reviewers on an incident skill whose summary's example reads "5xx at 12% on
checkout-api since 09:40 UTC" and whose impact's reads "~30% of checkouts fail, EU and US
web": every sev2 case told an error rate of 12% beside 30% of requests failing, and cut the
quoted impact at its comma, so an opener that gave the impact up front left out the
regions the skill's one impact question asks for.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from evalcore.testdata import examples_of

SKILL = """\
---
name: Report an outage
description: Reporting that the API is failing, "the API is throwing errors".
---

Take down what is observed, never a cause.

:::ordered_block id=report
steps:
  - id: ask_summary
    collect: summary
    utterance: utter_ask_summary
  - id: ask_impact
    collect: customer_impact
    utterance: utter_ask_impact
:::
"""

MEMORY = """\
schema:
  public:
    summary:
      type: text
      description: One observed-symptom line, e.g. "5xx at 12% on the API since 09:40 UTC".
      llm_settable: true
    customer_impact:
      type: text
      description: Who is affected and how much, e.g. "~30% of requests fail, EU and US web".
      llm_settable: true
"""

RESPONSES = """\
responses:
  utter_ask_summary:
    - text: What are you seeing?
  utter_ask_impact:
    - text: Who is affected, and how much?
"""


def test_a_quoted_example_is_read_whole_to_its_closing_quote() -> None:
    said = 'Who is affected, e.g. "~30% of requests fail, EU and US web".'
    assert examples_of(said) == ["~30% of requests fail, EU and US web"]
    assert examples_of("A city, e.g. Chicago or London, where they live.") == [
        "Chicago",
        "London",
    ]


def test_the_impact_tells_the_share_the_summary_told(tmp_path: Path) -> None:
    files = {
        "agent.yml": "name: Ops desk\npersona: You help engineers report outages.\n",
        "integrations.yml": INTEGRATIONS,
        "memory.yml": "{}\n",
        "responses.yml": RESPONSES,
        "skills/report/skill.md": SKILL,
        "skills/report/memory.yml": MEMORY,
    }
    root = write_project(tmp_path / "p", files)
    generate_offline(root, ["report"], tmp_path / "out")
    contexts = [
        yaml.safe_load(p.read_text("utf-8"))["scenario"]["simulation_context"]
        for p in sorted((tmp_path / "out" / "cases").rglob("*.yml"))
    ]
    told = [c for c in contexts if "5xx at 12%" in c and "of requests fail" in c]
    assert told, contexts
    for context in told:
        assert "~12% of requests fail, EU and US web" in context, context
        assert "30%" not in context, context
