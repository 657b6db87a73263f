"""What a skill's prose reads of project memory: whole `@memory.project.<name>` references.

Two drafting steps ask it, the seeds (a signed-in person's own zone where "Times are in
@memory.project.time_zone") and the identity check another skill's tool fills; a substring
test took a reference to `time_zone_label` for one to `time_zone` too.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from agentflows.drafting.offline._mantle_script import build_script
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import prose_reads

CORPUS = Path(__file__).parent / "data" / "corpus"


def _prefixed(tmp_path: Path) -> Path:
    """The executive assistant with its calendar reading a field whose name begins with
    another's (`time_zone_label`, beside `time_zone`)."""
    root = tmp_path / "northstar_exec"
    shutil.copytree(CORPUS / "northstar_exec", root)
    skill = root / "skills" / "calendar" / "skill.md"
    text = skill.read_text(encoding="utf-8")
    assert "@memory.project.time_zone " in text
    skill.write_text(
        text.replace("@memory.project.time_zone ", "@memory.project.time_zone_label "),
        encoding="utf-8",
    )
    memory = root / "memory.yml"
    memory.write_text(
        memory.read_text(encoding="utf-8") + "time_zone_label:\n  type: text\n  seed: true\n",
        encoding="utf-8",
    )
    return root


def test_prose_reads_whole_names(tmp_path: Path) -> None:
    project = load_project(_prefixed(tmp_path))
    calendar = project.mantle.skills["calendar"]
    assert prose_reads(calendar) == {"project.exec_name", "project.time_zone_label"}
    assert prose_reads(calendar, "calendar") == set()


def test_a_field_whose_name_begins_another_is_not_seeded_for_it(tmp_path: Path) -> None:
    """The calendar reads `time_zone_label`, which no executive's record holds: its cases
    seed no `time_zone` (the substring test seeded the executive's zone for it)."""
    project = load_project(_prefixed(tmp_path))
    plan = plan_source(project, "mantle", "calendar", None)
    assert plan.behaviors
    for slot, behavior in enumerate(plan.behaviors):
        seeds = build_script(project, behavior, slot=slot).seeds
        assert "project.exec_id" in seeds, behavior.id
        assert "project.time_zone" not in seeds, behavior.id
