"""Skills about how code work is done (a practice, such as writing the test first), read as the
kinds of work they govern.

    practices = practice_tasks(skill)

Such a skill names no file or product to make: its description and its "when to use" list
name kinds of work ("implementing any feature or bugfix", "Refactoring"), and its code
samples are tests. What it changes is what the agent does while doing that work, so each
kind it names becomes one task done on a small starter project (`base44_starter`): a bug
to fix, a feature to add, code to refactor. A skill qualifies only when both hold: it names
at least one kind of code work, and at least one of its code blocks is test code.
"""

from __future__ import annotations

from dataclasses import dataclass

from evalcore.definitions import AgentSkill
from evalcore.lexicon.en.code_work import BUG_FIX, FEATURE, REFACTOR
from evalcore.lexicon.notation.test_code import TEST_CODE

#: The kinds of work, in the order their prompts are planned.
KINDS = (("bug_fix", BUG_FIX), ("feature", FEATURE), ("refactor", REFACTOR))


@dataclass(frozen=True)
class Practice:
    kind: str
    """`bug_fix`, `feature` or `refactor` (`KINDS`)."""
    phrase: str
    """The skill's own words for it ("Bug fixes")."""
    file: str
    line: int


def practice_tasks(skill: AgentSkill) -> list[Practice]:
    """The kinds of code work a practice skill names (first mention of each, description and
    list items), in `KINDS` order; none when the skill shows no test code."""
    contents = skill.contents
    if not any(e.kind == "code" and TEST_CODE.search(e.text) for e in contents):
        return []
    found: dict[str, Practice] = {}
    for element in contents:
        if element.kind not in ("description", "item"):
            continue
        for kind, pattern in KINDS:
            match = pattern.search(element.text)
            if match and kind not in found:
                found[kind] = Practice(kind, match.group(0), element.file, element.line)
    return [found[kind] for kind, _ in KINDS if kind in found]


__all__ = ["KINDS", "Practice", "practice_tasks"]
