"""The question a user asks a skill that answers from a knowledge file (a FAQ skill): one
the file answers, in a person's words, so the case tests an answer the agent has.

The files are the skill's own reference notes (`references/*.md` beside its skill.md) and
the data files its tools read; a question is taken only where, said as the first message,
it asks for this skill (the reference agent's router): a FAQ question about rebooting a
router that routes to the reboot skill would make another skill's case.
"""

from __future__ import annotations

from evalcore.definitions import Project, Skill
from evalcore.testdata import DataRecords, knowledge_questions, record_questions

from ._direction import content_stems
from ._mantle_intent import routes

#: How a person leads with a question out of the blue.
_LEAD = "Hi, quick question: "
_TEXT_SUFFIXES = (".md", ".txt")


def asked_question(project: Project, skill: Skill, records: DataRecords, topic: str) -> str | None:
    """The first message asking one question the skill's knowledge files answer, the one
    nearest `topic` (what the case's user wants; file order breaks ties), or None where the
    skill reads no such file or none of its questions asks for the skill."""
    defs = project.mantle
    assert defs is not None
    lines = [_LEAD + _lower_first(q) for q in _questions(project, skill, records)]
    routed = [line for line in lines if routes(defs, skill, line)]
    if not routed:
        return None
    wanted = set(content_stems(topic))
    return max(
        routed, key=lambda line: (len(wanted & set(content_stems(line))), -routed.index(line))
    )


def _questions(project: Project, skill: Skill, records: DataRecords) -> list[str]:
    folder = project.root / skill.path
    folder = folder if folder.is_dir() else folder.parent
    notes = folder / "references"
    paths = (
        sorted(p for p in notes.rglob("*") if p.suffix in _TEXT_SUFFIXES) if notes.is_dir() else []
    )
    read = [c for c in records.collections if skill.id in records.readers.get(c.name, ())]
    return [*knowledge_questions(paths), *record_questions(read)]


def _lower_first(text: str) -> str:
    first = text.split(" ", 1)[0]
    if first == "I" or first.startswith("I'") or first[1:2].isupper():
        return text
    return text[:1].lower() + text[1:]


__all__ = ["asked_question"]
