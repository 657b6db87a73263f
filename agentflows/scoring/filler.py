"""Figure 4: user-facing words that carry no fact, or name an id instead of speaking.

The user-facing words of a scenario are what the simulated user is told to say or know:
every double-quoted line in `simulation_context` (`say: "..."`) and every fact line
(`- label: value`, the value part). A line is *filler* when, after trimming, it matches one
of `FILLER_PATTERNS` (the whole line: an answer that could be given to any question), and
it *names an id* when it holds a snake_case identifier made of words (`card_replace`,
`not_received`: digits-free, so record ids such as `pol_1024` from a project's data are
not counted), any id of the project (skill, tool, memory entry, response, block), or a
skill's Title Case name used mid-sentence ("I'd like to file Claim.").

This module is the one list; `docs/scoring.md` prints it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from evalcore.definitions import Project

#: Whole-line answers that carry no fact (case-insensitive, trailing punctuation optional).
FILLER_PATTERNS: tuple[str, ...] = (
    r"(the )?usual( one)?(, please)?",
    r"(the )?same as (usual|always|before|last time)(, please)?",
    r"unknown(, please)?",
    r"(i )?(don'?t|do not) know",
    r"(i'?m )?not sure",
    r"no,? i haven'?t",
    r"yes,? i have",
    r"yes,? that'?s (right|correct)",
    r"that'?s (right|correct)",
    r"whatever( you have| works| is fine)?(, please)?",
    r"any( one| of them)?( is fine| will do)?(, please)?",
    r"(it )?(doesn'?t|does not) matter",
    r"(the )?default( one)?(, please)?",
    r"something(, please)?",
    r"n/?a",
)
_FILLER = re.compile(r"^(?:" + "|".join(FILLER_PATTERNS) + r")[.!]*$", re.IGNORECASE)
#: A snake_case identifier made of words (two or more lowercase parts, no digits).
SNAKE_CASE = re.compile(r"(?<![A-Za-z0-9_])[a-z]+(?:_[a-z]+)+(?![A-Za-z0-9_])")
_QUOTED = re.compile(r"\"([^\"\n]+)\"|“([^”\n]+)”")
_FACT = re.compile(r"^\s*[-*]\s+[^:\n]{1,60}:\s*(\S.*)$", re.MULTILINE)


@dataclass(frozen=True)
class UserLine:
    text: str
    why: str
    """`filler`, `id 'x'` or `skill name 'X'`."""


def user_words(context: str) -> list[str]:
    """The quoted lines and fact values of a simulation context, in order."""
    quoted = [a or b for a, b in _QUOTED.findall(context)]
    facts = [m.group(1).strip() for m in _FACT.finditer(context)]
    return [w.strip() for w in [*quoted, *facts] if w.strip()]


def project_ids(project: Project | None) -> set[str]:
    """Ids a user would never say: skills, tools, memory entries, responses, blocks."""
    if project is None or project.mantle is None:
        return set()
    defs = project.mantle
    ids = set(defs.skills) | set(defs.all_responses()) | set(defs.shared_tools)
    ids |= {f.name for f in defs.memory_names().values()}
    for skill in defs.skills.values():
        ids |= set(skill.tools) | set(skill.blocks) | set(skill.tool_constraints)
    return {i for i in ids if "_" in i}


def _skill_names(project: Project | None) -> list[str]:
    if project is None or project.mantle is None:
        return []
    names = [s.name for s in project.mantle.skills.values() if s.name]
    return [n for n in names if any(c.isupper() for c in n[1:])]


def bad_lines(context: str, project: Project | None, ids: set[str] | None = None) -> list[UserLine]:
    """The user-facing lines of a context that are filler or name an id."""
    ids = project_ids(project) if ids is None else ids
    names = _skill_names(project)
    found: list[UserLine] = []
    for text in user_words(context):
        why = _why(text, ids, names)
        if why:
            found.append(UserLine(text, why))
    return found


def _why(text: str, ids: set[str], names: list[str]) -> str | None:
    if _FILLER.match(text.strip()):
        return "filler"
    for token in _identifiers(text, ids):
        return f"id '{token}'"
    for name in names:
        pattern = re.escape(name[1:])
        if re.search(
            rf"(?<![A-Za-z])[{re.escape(name[0].upper() + name[0].lower())}]{pattern}\b", text
        ):
            return f"skill name '{name}'"
    return None


def _identifiers(text: str, ids: set[str]) -> Iterator[str]:
    yield from (m.group(0) for m in SNAKE_CASE.finditer(text))
    for token in re.findall(r"[A-Za-z0-9_]+", text):
        if token in ids:
            yield token


__all__ = ["FILLER_PATTERNS", "SNAKE_CASE", "UserLine", "bad_lines", "project_ids", "user_words"]
