"""Shapes of file names and paths casegen recognises: an Agent Skill's `skills/<name>/SKILL.md`
in a tool call's arguments, and the numbered `run_<n>.json` files of a results folder."""

from __future__ import annotations

from .. import phrase

#: A skill's instructions file in a path, the skill's folder name as group 1.
SKILL_FILE = phrase(
    "notation.file_names.skill_file",
    r"(?:^|[/\\\s'\"])skills[/\\]([A-Za-z0-9][A-Za-z0-9_.-]*)[/\\]SKILL\.md",
    matches=('"path": "/repo/.claude/skills/pdf-tools/SKILL.md"', "skills\\pdf\\SKILL.md"),
    misses=("myskills/pdf/SKILL.md", "skills/pdf/README.md", "skills/_x/SKILL.md"),
)
#: A numbered run file of a results folder, the number as group 1.
RUN_FILE = phrase(
    "notation.file_names.run_file",
    r"^run_(\d+)\.json$",
    matches=("run_1.json", "run_042.json"),
    misses=("run_1.json.bak", "run_a.json", "summary.json"),
)
