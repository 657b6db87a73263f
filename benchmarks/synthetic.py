"""A many-skill Mantle project for the speed benchmarks, written by the benchmark itself.

`examples/bank` has four skills; a real project can have forty. The synthetic project keeps
bank's root files (agent, project memory, shared tools, integrations) and copies its skills
again and again, each copy with its own ids: the skill id, the tools its `tools.py`
defines and the responses its `responses.yml` names get a `_sNN` suffix in every file of
the copy (memory namespaces follow the skill id). A copy's `@skill` references point into
the same copy, so each copy is a closed set. Skills are taken in an order in which every
skill's references come first (`human_handoff`, then `check_balance`... ), so a partial
last copy is closed too: 43 skills are ten copies and three skills of an eleventh.

Renamed copies keep their words, so a message that asks for one asks for all of them alike
and the reference agent routes it to the first by name order: verification plays one
skill's copies, not the project. With `distinct=True` every copy also gets its own words:
each word of four letters or more in a `skill.md`'s name, description and prose becomes a
made-up word drawn for that copy (the same word within a copy, so the prose stays
consistent), except the categorical values its memory names, which cases say as they are
(ids are never prose: `@tool.x`, `session.a.b`, `snake_case` stay); the rest of the front
matter (constraints, conditions, completion criteria) is left as it is. Each copy then routes to
itself, as forty different skills would.

    python -m benchmarks synthetic DEST [--skills 43] [--distinct]
"""

from __future__ import annotations

import argparse
import hashlib
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
#: A prose word: letters only, not part of an id (`@tool.x`, `session.a.b`, `snake_case`)
#: and not a call (`get_balance(`).
_PROSE_WORD = re.compile(r"(?<![\w@.{'])([A-Za-z]{4,})(?![\w.('}])")
_ONSETS = ("b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "tr")
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ou")


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


def _made_up(word: str, copy: int) -> str:
    """A pronounceable word of three syllables for `word` in copy `copy` (deterministic)."""
    digest = hashlib.sha256(f"{copy}:{word.lower()}".encode()).digest()
    made = "".join(
        _ONSETS[digest[2 * i] % len(_ONSETS)] + _VOWELS[digest[2 * i + 1] % len(_VOWELS)]
        for i in range(3)
    )
    return made.capitalize() if word[0].isupper() else made


def _spelled(skill_dir: Path) -> set[str]:
    """The categorical values the skill's memory names (a case says them as they are)."""
    import yaml

    path = skill_dir / "memory.yml"
    memory = yaml.safe_load(path.read_text("utf-8")) if path.is_file() else None
    words: set[str] = set()
    for scope in ((memory or {}).get("schema") or {}).values():
        for field in (scope or {}).values():
            for value in (field or {}).get("enum_values") or []:
                words.update(w.lower() for w in re.findall(r"[A-Za-z]+", str(value)))
    return words


#: Words that are values wherever they stand (`enabled: true`, "is already true").
_VALUES = {"true", "false", "null", "none", "yes"}


def _distinct_words(text: str, copy: int, keep: set[str]) -> str:
    """`skill.md`'s name, description and body with this copy's own words (see the module
    docstring); the rest of the front matter (constraints, conditions) stays as it is."""
    keep = keep | _VALUES

    def words(part: str) -> str:
        return _PROSE_WORD.sub(
            lambda m: m.group(1) if m.group(1).lower() in keep else _made_up(m.group(1), copy),
            part,
        )

    _, front, body = text.split("---\n", 2)
    lines, prose = [], False
    for line in front.splitlines(keepends=True):
        key = ""
        if not line.startswith(" "):  # a top-level key: name and description are prose
            prose = line.startswith(("name:", "description:"))
            key, _, line = line.partition(":")
            key += ":"
        lines.append(key + (words(line) if prose else line))
    return "---\n" + "".join(lines) + "---\n" + words(body)


def write_project(
    dest: Path, skills: int = 43, template: Path = BANK, *, distinct: bool = False
) -> Path:
    """Write a Mantle project with `skills` skills (copies of `template`'s) into `dest`;
    `distinct`: each copy with its own prose words (see the module docstring)."""
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
    keep = {name: _spelled(template / "skills" / name) for name in names}
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
                if distinct and source.name == "skill.md":
                    text = _distinct_words(text, copy, keep[name])
                (target / source.name).write_text(text, encoding="utf-8")
            written += 1
    return dest


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks synthetic")
    parser.add_argument("dest", type=Path)
    parser.add_argument("--skills", type=int, default=43)
    parser.add_argument("--distinct", action="store_true", help="each copy its own words")
    args = parser.parse_args(argv)
    write_project(args.dest, args.skills, distinct=args.distinct)
    kind = "distinct" if args.distinct else "copied"
    print(f"wrote a {args.skills}-skill Mantle project ({kind} words) to {args.dest}")
    return 0
