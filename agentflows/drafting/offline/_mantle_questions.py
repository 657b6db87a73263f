"""The question a user asks a skill that answers from a knowledge file (a FAQ skill): one
the file answers, in a person's words, so the case tests an answer the agent has.

The files are the skill's own reference notes (`references/*.md` beside its skill.md) and
the data files its tools read; a question is taken only where, said as the first message,
it asks for this skill (the reference agent's router): a FAQ question about rebooting a
router that routes to the reboot skill would make another skill's case.
"""

from __future__ import annotations

import re

from evalcore.definitions import Project, Skill
from evalcore.testdata import DataRecords, knowledge_entries, record_entries

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


def answer_criterion(
    project: Project, skill: Skill, records: DataRecords, opening: str
) -> str | None:
    """For a case opened with a question the skill's knowledge files answer, the criterion
    that the answer agrees with the file's entry, naming its gist (the entry's first
    sentence, read from the project at generation time): an agent that makes up an answer
    fails it. None where the opening asks no entry of this skill's files, or the entry
    says nothing."""
    for question, answer in _entries(project, skill, records).items():
        if opening != _LEAD + _lower_first(question):
            continue
        gist = _gist(answer)
        if not gist:
            return None
        return f"The agent's answer agrees with the skill's entry for \"{question}\": {gist}"
    return None


#: The end of an entry's first sentence (not a decimal point or an abbreviation's dot).
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)][.!?])\s+(?=[A-Z])")
_GIST_CHARS = 200


def _gist(answer: str) -> str:
    """The entry's first sentence without its Markdown marks, cut at a word where long."""
    plain = re.sub(r"[*_`]+|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", answer).strip()
    first = _SENTENCE_END.split(plain, 1)[0].strip()
    if len(first) > _GIST_CHARS:
        first = first[:_GIST_CHARS].rsplit(" ", 1)[0] + " …"
    return first.rstrip(".")


def _questions(project: Project, skill: Skill, records: DataRecords) -> list[str]:
    return list(_entries(project, skill, records))


def _entries(project: Project, skill: Skill, records: DataRecords) -> dict[str, str]:
    folder = project.root / skill.path
    folder = folder if folder.is_dir() else folder.parent
    notes = folder / "references"
    paths = (
        sorted(p for p in notes.rglob("*") if p.suffix in _TEXT_SUFFIXES) if notes.is_dir() else []
    )
    read = [c for c in records.collections if skill.id in records.readers.get(c.name, ())]
    entries = knowledge_entries(paths)  # the notes' questions first, then the records'
    for question, answer in record_entries(read).items():
        entries.setdefault(question, answer)
    return entries


def _lower_first(text: str) -> str:
    first = text.split(" ", 1)[0]
    if first == "I" or first.startswith("I'") or first[1:2].isupper():
        return text
    return text[:1].lower() + text[1:]


__all__ = ["answer_criterion", "asked_question"]
