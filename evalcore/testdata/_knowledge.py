"""The questions a knowledge file answers: a FAQ list or a skill's reference notes (`Q: …?`
lines, question headings, list items), and the question fields of a data file's records.

A skill that answers from such a file (a FAQ skill) is tested with a question the file
answers: a topic alone ("I have a question about deductibles") leaves the user to invent a
question the file may not answer, where a correct agent then declines. The files are read
at run time, never copied into the repository, within the same size limit as the records.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from .._readbytes import RefusedFile, read_limited
from ._records import Collection

_MAX_BYTES = 2_000_000
# a question on a line of its own, after a list, heading or `Q:` marker and bold marks
_QUESTION = re.compile(r"^\s*(?:Q\s*[:.)]|#+|[-*•]|\d+[.)])?\s*\**\s*([^*?\n]{8,200}\?)\s*\**\s*$")
#: A question's length in words: shorter is a fragment ("Why?"), longer a paragraph.
_WORDS = (3, 25)
#: The marker an answer line opens with in a Q/A list ("A: …").
_ANSWER_MARK = re.compile(r"^\s*A\s*[:.)]\s*")


def knowledge_questions(paths: Iterable[Path]) -> list[str]:
    """Each question the text files at `paths` ask on a line of their own, in order and
    once; a file that cannot be read, or is over the size limit, gives none."""
    return list(knowledge_entries(paths))


def knowledge_entries(paths: Iterable[Path]) -> dict[str, str]:
    """Each question the text files at `paths` ask on a line of their own -> the answer
    the lines after it give, up to the next question or heading (empty where none follows):
    what a correct agent's answer must agree with."""
    out: dict[str, str] = {}
    for path in paths:
        try:
            text = read_limited(path, _MAX_BYTES).decode("utf-8")
        except (RefusedFile, OSError, UnicodeDecodeError):
            continue
        question: str | None = None
        answer: list[str] = []
        for line in [*text.splitlines(), "#"]:
            match = _QUESTION.match(line)
            if match or line.lstrip().startswith("#"):
                if question is not None and question not in out:
                    out[question] = " ".join(" ".join(answer).split())
                question, answer = (_kept(match.group(1)) if match else None), []
            elif question is not None:
                answer.append(_ANSWER_MARK.sub("", line))
    return out


def record_questions(collections: Iterable[Collection]) -> list[str]:
    """The questions records hold as a field's value (`{"question": "…?", "answer": …}`),
    in order and once."""
    return list(record_entries(collections))


def record_entries(collections: Iterable[Collection]) -> dict[str, str]:
    """Each question a record holds as a field's value -> the longest other text field of
    that record (its answer; empty where it has none)."""
    out: dict[str, str] = {}
    for collection in collections:
        for record in collection.records:
            texts = [v for v in record.values() if isinstance(v, str)]
            for value in texts:
                question = _kept(value) if value.strip().endswith("?") else None
                if question is None or question in out:
                    continue
                others = [" ".join(t.split()) for t in texts if t is not value]
                out[question] = max(others, key=len, default="")
    return out


def _kept(question: str) -> str | None:
    """The question with its spacing made plain, or None where it is a fragment or a
    paragraph rather than one question."""
    text = " ".join(question.split())
    return text if _WORDS[0] <= len(text.split()) <= _WORDS[1] else None


__all__ = ["knowledge_entries", "knowledge_questions", "record_entries", "record_questions"]
