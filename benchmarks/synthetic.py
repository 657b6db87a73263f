"""A many-skill Mantle project for the speed benchmarks, written by the benchmark itself.

`examples/bank` has four skills; a real project can have forty. The synthetic project keeps
bank's root files (agent, project memory, shared tools, integrations) and copies its skills
again and again, each copy with its own ids: the skill id, the tools its `tools.py`
defines and the responses its `responses.yml` names get a `_sNN` suffix in every file of
the copy (memory namespaces follow the skill id). A copy's `@skill` references point into
the same copy, so each copy is a closed set. Skills are taken in an order in which every
skill's references come first (`human_handoff`, then `check_balance`... ), so a partial
last copy is closed too: 43 skills are ten copies and three skills of an eleventh.

    python -m benchmarks synthetic DEST [--skills 43]
"""

from __future__ import annotations

import argparse
import re
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"
# Each skill after the ones it references (dispute_charge links human_handoff, check_balance
# and card_replace offer dispute_charge).
ORDER = ("human_handoff", "dispute_charge", "check_balance", "card_replace")
_TOOL = re.compile(r"^async def (\w+)\(", re.MULTILINE)
_RESPONSE = re.compile(r"^  (utter_\w+):", re.MULTILINE)


def _local_ids(skill_dir: Path) -> set[str]:
    """Ids a skill defines for itself: its tools and its responses."""
    ids: set[str] = set()
    tools = skill_dir / "tools.py"
    if tools.is_file():
        ids.update(_TOOL.findall(tools.read_text(encoding="utf-8")))
    responses = skill_dir / "responses.yml"
    if responses.is_file():
        ids.update(_RESPONSE.findall(responses.read_text(encoding="utf-8")))
    return ids


def write_project(dest: Path, skills: int = 43, template: Path = BANK) -> Path:
    """Write a Mantle project with `skills` skills (copies of `template`'s) into `dest`."""
    if skills < 1:
        raise ValueError(f"skills must be at least 1 (got {skills})")
    dest.mkdir(parents=True, exist_ok=True)
    for item in template.iterdir():
        if item.name in {"skills", "eval"}:
            continue
        if item.is_dir():
            shutil.copytree(item, dest / item.name)
        else:
            shutil.copyfile(item, dest / item.name)
    names = [n for n in ORDER if (template / "skills" / n).is_dir()]
    names += sorted(
        p.name for p in (template / "skills").iterdir() if p.is_dir() and p.name not in names
    )
    renamed = set(names)
    for name in names:
        renamed |= _local_ids(template / "skills" / name)
    pattern = re.compile(r"\b(" + "|".join(sorted(renamed, key=len, reverse=True)) + r")\b")
    written = 0
    copy = 0
    while written < skills:
        copy += 1
        suffix = f"_s{copy:02d}"
        for name in names:
            if written == skills:
                break
            target = dest / "skills" / f"{name}{suffix}"
            target.mkdir(parents=True)
            for source in sorted((template / "skills" / name).iterdir()):
                if not source.is_file():
                    continue
                text = source.read_text(encoding="utf-8")
                text = pattern.sub(lambda m, s=suffix: m.group(1) + s, text)
                (target / source.name).write_text(text, encoding="utf-8")
            written += 1
    return dest


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks synthetic")
    parser.add_argument("dest", type=Path)
    parser.add_argument("--skills", type=int, default=43)
    args = parser.parse_args(argv)
    write_project(args.dest, args.skills)
    print(f"wrote a {args.skills}-skill Mantle project to {args.dest}")
    return 0
