"""`python -m benchmarks fixtures-side-by-side --theirs DIR --ours DIR`: two sets of base44 eval
fixtures counted per skill, side by side.

Why: a skill's authors may already keep eval fixtures of their own; what casegen drafts for the
same skills is read next to them by its shape first (how many prompts, how many checks, which
kinds of check), before anyone reads a prompt.

How it counts:

- a **fixture** is one `eval.json` anywhere under DIR (a starter `project/` tree beside it is not
  read);
- its **prompts** are its `prompts`, or the eval itself where it holds one prompt at the top level;
- a prompt's **skills** are the names in its `expectedSkills` (the eval's own where the prompt has
  none); a prompt expecting two skills counts under both, so the skill rows may add up to more
  than the `all` row, which counts each prompt once; a prompt expecting none counts under
  `(none)`; a fixture counts under each skill one of its prompts expects;
- **checks** are a prompt's `checks`, counted under the prompt's skills, and tallied by `type`.

Only counts are printed, never a prompt's or a check's text, so another project's words stay out
of whatever the table is pasted into.

    python -m benchmarks fixtures-side-by-side --theirs THEIRS --ours OURS [--skill NAME] [--json]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalcore.dialects.base44 import prompt_entries

#: The row of prompts that expect no skill (negatives).
NO_SKILL = "(none)"
#: The row that counts every fixture, prompt and check once.
ALL = "all"


@dataclass
class SkillCounts:
    """What one side holds for one skill."""

    fixtures: int = 0
    prompts: int = 0
    checks: int = 0
    types: Counter[str] = field(default_factory=Counter)

    @property
    def checks_per_prompt(self) -> float:
        return self.checks / self.prompts if self.prompts else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "fixtures": self.fixtures,
            "prompts": self.prompts,
            "checks": self.checks,
            "checks_per_prompt": round(self.checks_per_prompt, 2),
            "types": dict(sorted(self.types.items())),
        }


def fixture_files(root: Path) -> list[Path]:
    """Every `eval.json` under root, in a stable order."""
    return sorted(root.rglob("eval.json"))


def count(root: Path) -> dict[str, SkillCounts]:
    """Per skill (and `all`), the fixtures, prompts, checks and check types under root."""
    rows: dict[str, SkillCounts] = {ALL: SkillCounts()}
    for path in fixture_files(root):
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            continue
        entries = prompt_entries(data)
        if not entries:
            continue
        rows[ALL].fixtures += 1
        fixture_skills: set[str] = set()
        for entry in entries:
            skills = _skills(entry, data)
            fixture_skills.update(skills)
            checks = [c for c in entry.get("checks") or [] if isinstance(c, dict)]
            types = Counter(str(c.get("type", "?")) for c in checks)
            for name in (*skills, ALL):
                row = rows.setdefault(name, SkillCounts())
                row.prompts += 1
                row.checks += len(checks)
                row.types.update(types)
        for name in fixture_skills:
            rows[name].fixtures += 1
    return rows


def _skills(entry: dict[str, Any], data: dict[str, Any]) -> list[str]:
    """The prompt's expected skills (the eval's where the prompt names none); `(none)` if empty."""
    named = entry.get("expectedSkills")
    if named is None:
        named = data.get("expectedSkills")
    skills = sorted({str(s) for s in named or []})
    return skills or [NO_SKILL]


def skill_order(*sides: dict[str, SkillCounts]) -> list[str]:
    """Named skills alphabetically, then the negatives, then `all`."""
    named = sorted({s for side in sides for s in side} - {NO_SKILL, ALL})
    tail = [NO_SKILL] if any(NO_SKILL in side for side in sides) else []
    return [*named, *tail, ALL]


def render(theirs: dict[str, SkillCounts], ours: dict[str, SkillCounts], skills: list[str]) -> str:
    """Two Markdown tables: the totals per skill, then the check types per skill."""
    empty = SkillCounts()
    lines = [
        "| skill | fixtures (theirs / ours) | prompts | checks | checks per prompt |",
        "|---|---|---|---|---|",
    ]
    for name in skills:
        a, b = theirs.get(name, empty), ours.get(name, empty)
        lines.append(
            f"| {name} | {a.fixtures} / {b.fixtures} | {a.prompts} / {b.prompts} "
            f"| {a.checks} / {b.checks} "
            f"| {a.checks_per_prompt:.1f} / {b.checks_per_prompt:.1f} |"
        )
    types = sorted(
        {t for side in (theirs, ours) for name in skills for t in side.get(name, empty).types},
        key=lambda t: (-theirs.get(ALL, empty).types[t] - ours.get(ALL, empty).types[t], t),
    )
    lines += [
        "",
        "| check type | " + " | ".join(f"{name} (theirs / ours)" for name in skills) + " |",
        "|---|" + "---|" * len(skills),
    ]
    for kind in types:
        cells = [
            f"{theirs.get(name, empty).types[kind]} / {ours.get(name, empty).types[kind]}"
            for name in skills
        ]
        lines.append(f"| `{kind}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks fixtures-side-by-side")
    parser.add_argument("--theirs", required=True, type=Path, help="their fixtures folder")
    parser.add_argument("--ours", required=True, type=Path, help="casegen's output folder")
    parser.add_argument("--skill", action="append", default=[], help="only these skills")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    for side in (args.theirs, args.ours):
        if not side.is_dir():
            parser.error(f"no such folder: {side}")
    theirs, ours = count(args.theirs), count(args.ours)
    skills = [*args.skill, ALL] if args.skill else skill_order(theirs, ours)
    if args.json:
        empty = SkillCounts()
        print(
            json.dumps(
                {
                    name: {
                        "theirs": theirs.get(name, empty).as_dict(),
                        "ours": ours.get(name, empty).as_dict(),
                    }
                    for name in skills
                },
                indent=2,
            )
        )
    else:
        print(render(theirs, ours, skills))
    return 0
