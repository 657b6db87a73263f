"""Goal cases the reading or the justifier used to hold back although the case fixes what
they rest on.

- A skill that lists choices and sets a field "when they pick a valid one" (`set_fields`):
  the pick is the user's answer, so the happy path asserts the write of a listed value (never
  a YAML `off` read as false) and cites the sentence that sets it; no `skill_completed`
  where the skill has no `complete_when`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

THEME_SKILL = """\
---
name: pick_theme
description: >
  Switch the chat's display theme (sunset, ocean, forest) or back to plain. Activate for
  "dark theme", "ocean theme", "list your themes" or "plain theme".
---

Let people change how replies are dressed up. Keep it short.

Themes on offer:
- `sunset`
- `ocean`
- `forest`
- `off` (plain)

If they ask which themes exist, list them and invite them to pick one.

When they pick a valid theme, set `theme` via `set_fields`, then confirm in one short line.

The look itself lasts through the theme memory value; this skill need not stay open for it.
"""

THEME_MEMORY = """\
schema:
  public:
    theme:
      type: categorical
      enum_values:
        - off
        - sunset
        - ocean
        - forest
      description: The display theme in use. off means plain.
      llm_settable: true
"""

THEME_FILES = {
    "agent.yml": "name: Studio desk\npersona: You help the studio's staff.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "skills/pick_theme/skill.md": THEME_SKILL,
    "skills/pick_theme/memory.yml": THEME_MEMORY,
}


def _assertions(case: dict[str, Any]) -> list[dict[str, Any]]:
    return case["scenario"]["goals"]["assertions"]


def test_a_pick_among_listed_choices_is_the_users_answer_and_its_write_the_goal(
    tmp_path: Path,
) -> None:
    root = write_project(tmp_path / "studio", THEME_FILES)
    report = generate_offline(root, ["pick_theme"], tmp_path)
    happy = [r for r in report["cases"] if r["type"] == "happy_path"]
    assert len(happy) == 1, (report["failed"], report["dropped"])
    assert happy[0]["verified"] == "yes", happy[0].get("needs_review")
    text = Path(happy[0]["path"]).read_text("utf-8")
    items = _assertions(yaml.safe_load(text))
    written = [m for a in items for m in a.get("memory_was_set") or [] if isinstance(m, dict)]
    assert written == [{"name": "pick_theme.theme", "value": "sunset"}]
    assert not any("skill_completed" in a for a in items)  # no complete_when
    # cited at the sentence that sets it, not the one that only names the entry
    line = THEME_SKILL.splitlines().index(
        next(s for s in THEME_SKILL.splitlines() if s.startswith("When they pick"))
    )
    assert f"skills/pick_theme/skill.md:{line + 1} sets the entry" in text
    # the user knows the listed word the case asserts
    assert "sunset" in yaml.safe_load(text)["scenario"]["simulation_context"]
