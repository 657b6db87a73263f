"""Negative prompts of an Agent Skill's eval: only where the format can fail a wrong agent.

An empty `expectedSkills` passes whatever skills ran, so a question outside the skill cannot
fail an agent that triggers it; the boundary prompts written are the routes (work the skill
sends to another skill, expecting that one, with a check an echo fails). A skill with none
gets no negative prompt, and the generate report says why.
"""

from __future__ import annotations

import json
from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._base44 import draft_base44
from agentflows.planning import NOT_WRITTEN
from agentflows.planning._base44 import plan_base44
from evalcore.definitions import load_project


def _skill(root: Path, name: str, description: str, body: str = "") -> None:
    folder = root / "skills" / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: {description}\n---\n# {name}\n\n{body}",
        encoding="utf-8",
    )


def _lone(root: Path) -> Path:
    _skill(
        root,
        "tide-tables",
        "Writes tide tables. Supports generating tide tables for a harbour, and printing "
        "the next high tide.",
        "Write Python scripts with the tideline library.\n\n```python\nimport tideline\n\n"
        "table = tideline.table('harbour')\nprint(table.next_high())\n```\n",
    )
    return root


def test_a_skill_that_sends_no_work_elsewhere_gets_no_negative_prompt(tmp_path: Path) -> None:
    project = load_project(_lone(tmp_path))
    plan = plan_base44(project, "tide-tables", None)
    negatives = [b for b in plan.behaviors if b.type == "out_of_scope"]
    assert [b.facts["kind"] for b in negatives] == ["negative"]
    assert "no negative prompt" in negatives[0].facts[NOT_WRITTEN]
    assert "negative" not in plan.elements
    drafted = [b for b in plan.behaviors if NOT_WRITTEN not in b.facts]
    assert drafted
    for behavior in drafted:
        (entry,) = draft_base44(DraftContext(project, "base44", behavior))["prompts"]
        assert entry["expectedSkills"], behavior.id


def test_generate_writes_no_prompt_that_expects_no_skill_and_says_why(
    tmp_path: Path, run_cli_json
) -> None:
    root = _lone(tmp_path / "repo")
    out = tmp_path / "out"
    code, report = run_cli_json(
        "generate", "all", "--project", root, "--model", "offline", "--out", out
    )
    assert code == 0, report
    entries = json.loads((out / "eval.json").read_text())["prompts"]
    assert entries and all(e["expectedSkills"] for e in entries)
    assert not any(c["type"] == "contains" for e in entries for c in e["checks"])
    assert "no negative prompt" in json.dumps(report)


def test_a_skill_that_routes_work_elsewhere_has_the_route_as_its_boundary(
    tmp_path: Path,
) -> None:
    _skill(
        tmp_path,
        "shelf-labels",
        'Prints shelf labels. Use when the user says "print a shelf label".',
        "For stock counts, use the stock-counter skill instead.\n",
    )
    _skill(
        tmp_path,
        "stock-counter",
        'Counts stock. Use when the user says "count the stock".',
    )
    project = load_project(tmp_path)
    plan = plan_base44(project, "shelf-labels", None)
    outside = [b for b in plan.behaviors if b.type == "out_of_scope"]
    assert [b.facts["kind"] for b in outside] == ["route"]
    (entry,) = draft_base44(DraftContext(project, "base44", outside[0]))["prompts"]
    assert entry["expectedSkills"] == ["stock-counter"]
    echo = entry["prompt"]
    assert any(
        c["type"] == "file-exists" or c.get("value", "").casefold() not in echo.casefold()
        for c in entry["checks"]
    )
