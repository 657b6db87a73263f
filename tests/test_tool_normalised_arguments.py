"""A tool argument the tool's own code normalises is never asserted by one spelling.

`tool_executed.arguments` compares by equality, so a case that pins `region: north` fails a
correct agent that passes "North" to a tool that lower-cases it anyway. The case asserts the
value the tool keeps in memory instead; an argument the tool uses as it comes (a key of a
plain table, where only its own spelling works) stays asserted.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import generate_offline

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.mutate import mutate
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import normalised_parameters
from evalcore.runner import collect_cases

SKILL = """---
name: region_guide
description: >
  Regional guidance for staff. Activate for "regional guidance" or "rules for my region".
tool_constraints:
  - get_guidance:
      requires: session.region_guide.region_confirmed
---
Help with regional guidance.

1. Ask which region they work in. Supported regions are north, south and east.
2. When they answer, set `region` and `region_confirmed` to true via `set_fields`.
3. Only then call `get_guidance` with that region.
"""
MEMORY = """schema:
  public:
    region:
      type: categorical
      enum_values: [north, south, east]
      description: The region the person works in.
      llm_settable: true
    region_confirmed:
      type: bool
      description: True once the person named their region.
      llm_settable: true
"""
HEADER = "from rasa.mantle.tools.decorator import ToolContext, tool\n\n"
#: The tool folds the region's spelling through a helper of its file, then keeps it.
FOLDING = (
    HEADER
    + """
def _normalize(value):
    return (value or "").strip().lower()


@tool(description="Guidance for a region.")
async def get_guidance(region: str, context: ToolContext = None):
    geography = _normalize(region)
    context.memory.set("region", geography)
    return {"region": geography}
"""
)
#: The tool takes only its table's own spelling.
VERBATIM = (
    HEADER
    + """
_GUIDES = {"north": "Guide N", "south": "Guide S", "east": "Guide E"}


@tool(description="Guidance for a region.")
async def get_guidance(region: str, context: ToolContext = None):
    if region not in _GUIDES:
        return {"error": "unknown_region"}
    context.memory.set("region", region)
    return {"guide": _GUIDES[region]}
"""
)


def _project(root: Path, tools: str):
    root.mkdir(parents=True, exist_ok=True)
    (root / "agent.yml").write_text("name: Staff guide\n")
    (root / "memory.yml").write_text("{}\n")
    skill = root / "skills" / "region_guide"
    skill.mkdir(parents=True)
    (skill / "skill.md").write_text(SKILL)
    (skill / "memory.yml").write_text(MEMORY)
    (skill / "tools.py").write_text(tools)
    return load_project(root)


def _draft(project) -> dict[str, Any]:
    plan = plan_source(project, "mantle", "region_guide", None)
    behavior = next(b for b in plan.behaviors if b.type == "happy_path")
    return draft_mantle(DraftContext(project, "mantle", behavior))


def _happy(project) -> list[dict[str, Any]]:
    return _draft(project)["scenario"]["goals"]["assertions"]


def _guidance_runs(checks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        c["tool_executed"]
        for c in checks
        if c.get("tool_executed", {}).get("tool_name") == "get_guidance"
    ]


def _regions(checks: list[dict[str, Any]]) -> list[Any]:
    return [
        item.get("value")
        for c in checks
        for item in c.get("memory_was_set") or []
        if isinstance(item, dict) and item.get("name") == "region_guide.region"
    ]


def test_an_argument_the_tool_folds_is_not_pinned_and_its_kept_value_is(tmp_path: Path) -> None:
    checks = _happy(_project(tmp_path, FOLDING))
    runs = _guidance_runs(checks)
    assert runs, checks
    assert all("arguments" not in run for run in runs), runs
    assert any(value in ("north", "south", "east") for value in _regions(checks)), checks


def test_an_argument_the_tool_uses_as_given_stays_asserted(tmp_path: Path) -> None:
    runs = _guidance_runs(_happy(_project(tmp_path, VERBATIM)))
    assert any(run.get("arguments", {}).get("region") in ("north", "south", "east") for run in runs)


@pytest.mark.parametrize(
    ("body", "folded"),
    [
        ("return {'r': region.casefold()}", {"region"}),
        ("return {'r': _ALIASES.get(region, region)}", {"region"}),
        ("return {'r': _ALIASES[region]}", set()),
        ("return {'r': _ALIASES.get(region, 'north')}", set()),
        ("return {'r': _tidy(region)}", {"region"}),
        ("return {'r': _tidy('north'), 'q': region}", set()),
    ],
)
def test_which_parameters_a_tool_normalises(tmp_path: Path, body: str, folded: set[str]) -> None:
    tools = (
        HEADER
        + "_ALIASES = {'n': 'north'}\n\n\ndef _tidy(value):\n    return value.strip()\n\n\n"
        + '@tool(description="Guidance.")\n'
        + "async def get_guidance(region: str, context: ToolContext = None):\n"
        + f"    {body}\n"
    )
    project = _project(tmp_path, tools)
    tool = project.mantle.tools_for("region_guide")["get_guidance"]
    assert normalised_parameters(project, tool) == folded


def test_a_wrong_argument_to_a_folding_tool_survives_with_the_reason(tmp_path: Path) -> None:
    """No spelling of the argument holds for every correct agent, so the mutant that passes
    a wrong one survives the drafted case, and says why instead of being unexplained."""
    project = _project(tmp_path / "project", FOLDING)
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "happy.yml").write_text(yaml.safe_dump(_draft(project), sort_keys=False))
    wanted = ["wrong_argument:get_guidance"]
    root = tmp_path / "project"
    report = asyncio.run(
        mutate(collect_cases([folder], project=root), root, concurrency=1, only=wanted)
    )
    assert set(report.reference.values()) == {"passed"}, report.reference
    reasons = {r.mutant.id: report.reason(r) for r in report.survivors()}
    reason = reasons["wrong_argument:get_guidance"]
    assert reason.code == "free_text" and "normalised by get_guidance" in reason.text


def test_the_value_the_tool_keeps_is_asserted_once_the_order_that_hid_it_is_cut(
    tmp_path: Path,
) -> None:
    """The prose sets the region only "when they confirm or correct it" (conditional), so
    the order "region set, then the tool" is cut; the tool's own write of the region then
    justifies asserting the value the user chose, where the pinned argument was."""
    skill = SKILL.replace("Ask which region they work in.", "Ask which region, and to confirm.")
    skill = skill.replace("When they answer, set", "When they confirm or correct it, set")
    root = tmp_path / "project"
    _project(root, FOLDING)
    (root / "skills" / "region_guide" / "skill.md").write_text(skill)
    report = generate_offline(root, ["region_guide"], tmp_path / "out")
    happy = next(c for c in report["cases"] if c["type"] == "happy_path")
    text = Path(happy["path"]).read_text()
    checks = yaml.safe_load(text)["scenario"]["goals"]["assertions"]
    assert "north" in _regions(checks), text
    assert "tool get_guidance writes region" in text
