"""The words of a story agree with the reading the case gives for the same measure.

Found by blind reviewers on an equipment skill that sends a fridge reading over 41°F to
food safety: the in-range case (the one that opens a repair ticket) told "the fridge feels
warm" beside a 40°F reading, which its own reading denies, so a correct agent could find
nothing to repair. The in-range case now tells a fault no reading explains; the case over
the line keeps "feels warm".
"""

from __future__ import annotations

from pathlib import Path

import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

SKILL = """\
---
name: Broken equipment
description: Equipment acting up, "the walk-in cooler feels warm".
---

Help staff get broken equipment fixed. After the block, open a ticket with the symptom.

:::ordered_block id=triage
steps:
  - id: what_symptom
    collect: symptom
    utterance: utter_ask_symptom
    description: What it is doing, in their words ("the walk-in cooler feels warm").
  - id: reading
    collect: cooler_temp_f
    utterance: utter_ask_reading
  - id: check
    noop: true
    next:
      - if: session.repair.cooler_temp_f > 41
        then: at_risk
      - else: END
  - id: at_risk
    link: spoilage
  - id: END
:::
"""

SPOILAGE = """\
---
name: Spoilage
description: Food held too warm that may have to be thrown out.
---

Tell them to move the food to another cooler and log it.
"""

MEMORY = """\
schema:
  public:
    symptom:
      type: text
      description: What it is doing, in their words.
      llm_settable: true
    cooler_temp_f:
      type: float
      description: Thermometer reading inside the cooler in Fahrenheit, e.g. 44.5.
      llm_settable: true
"""

RESPONSES = """\
responses:
  utter_ask_symptom:
    - text: What is it doing?
  utter_ask_reading:
    - text: What does the thermometer inside read?
"""


def test_an_in_range_reading_is_told_beside_a_fault_it_does_not_explain(tmp_path: Path) -> None:
    files = {
        "agent.yml": "name: Store desk\npersona: You help store staff.\n",
        "integrations.yml": INTEGRATIONS,
        "memory.yml": "{}\n",
        "responses.yml": RESPONSES,
        "skills/repair/skill.md": SKILL,
        "skills/repair/memory.yml": MEMORY,
        "skills/spoilage/skill.md": SPOILAGE,
    }
    root = write_project(tmp_path / "p", files)
    generate_offline(root, ["repair"], tmp_path / "out")
    contexts = [
        yaml.safe_load(p.read_text("utf-8"))["scenario"]["simulation_context"]
        for p in sorted((tmp_path / "out" / "cases").rglob("*.yml"))
    ]
    in_range = [c for c in contexts if "40°F" in c or "40.0°F" in c]
    over = [c for c in contexts if "42°F" in c or "42.0°F" in c]
    assert in_range and over, contexts
    for context in in_range:
        assert "feels warm" not in context, context
    assert any("feels warm" in c for c in over), over
