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


def knowledge_questions(paths: Iterable[Path]) -> list[str]:
    """Each question the text files at `paths` ask on a line of their own, in order and
    once; a file that cannot be read, or is over the size limit, gives none."""
    out: dict[str, None] = {}
    for path in paths:
        try:
            text = read_limited(path, _MAX_BYTES).decode("utf-8")
        except (RefusedFile, OSError, UnicodeDecodeError):
            continue
        for line in text.splitlines():
            match = _QUESTION.match(line)
            if match:
                _keep(out, match.group(1))
    return list(out)


def record_questions(collections: Iterable[Collection]) -> list[str]:
    """The questions records hold as a field's value (`{"question": "…?", "answer": …}`),
    in order and once."""
    out: dict[str, None] = {}
    for collection in collections:
        for record in collection.records:
            for value in record.values():
                if isinstance(value, str) and value.strip().endswith("?"):
                    _keep(out, value)
    return list(out)


def _keep(out: dict[str, None], question: str) -> None:
    text = " ".join(question.split())
    if _WORDS[0] <= len(text.split()) <= _WORDS[1]:
        out.setdefault(text)


__all__ = ["knowledge_questions", "record_questions"]
