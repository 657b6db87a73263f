"""Prose as the skill model reads it: paragraphs with their `if:` scope and file lines.

The same reader serves the skill body and a step's `instructions:` text (where `if:` lines
scope the next paragraph too). Ordered blocks and fenced code are skipped; headings end a
paragraph. Sentences keep the line they start on, so an uncertainty can point at it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ...lexicon.en.skill_sentences import SENTENCE_END as _SENTENCE_END
from ...lexicon.notation.mantle_blocks import FENCE_OPEN as _FENCE_OPEN
from ...lexicon.notation.mantle_references import LIVE_MEMORY_VALUE as _LIVE_VALUE

_FENCE_CLOSE = re.compile(r"^\s*:::\s*$")
_CODE = re.compile(r"^\s*(```|~~~)")
_IF = re.compile(r"^\s*(?:[-*]\s+)?if:(?P<cond>.*)$")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


def _unquote(text: str) -> str:
    """`"a == 'b'"` -> `a == 'b'` (a condition written as one quoted YAML-like string)."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        inner = text[1:-1]
        if text[0] not in inner:
            return inner
    return text


def _as_condition(text: str) -> str:
    """An `if:` line inside a step's `instructions:` as the condition it asks the model to
    weigh. Rasa gives step instructions to the model as text, with each `@memory.ns.key`
    replaced by its live value (a `session.ns.key` there is refused: it is never replaced), so
    `if: @memory.claim.kind == "auto"` reads as the condition `session.claim.kind == "auto"`."""
    return _LIVE_VALUE.sub("session.", text)


@dataclass(frozen=True)
class Sentence:
    text: str
    line: int
    condition: str | None
    """The `if:` condition scoping its paragraph (None when unconditional)."""
    paragraph: int
    """Index of its paragraph, in reading order."""


@dataclass(frozen=True)
class Paragraph:
    text: str
    line: int
    condition: str | None
    index: int
    lines: tuple[tuple[int, str], ...] = ()


def paragraphs(text: str, first_line: int = 1) -> list[Paragraph]:
    """Prose paragraphs of `text` in order; `first_line` is the file line of its first line.

    A bullet list item is its own paragraph (lists in skills are usually one instruction per
    item), but an `if:` scopes only the one paragraph after it, as Mantle does. Read once
    per text (the skill model reads a skill's body several times); the list is the caller's.
    """
    return list(_paragraphs(text, first_line))


def sentences(text: str, first_line: int = 1) -> list[Sentence]:
    """Every sentence of every paragraph, with its line and `if:` scope (read once per
    text, like `paragraphs`; the list is the caller's)."""
    return list(_sentences(text, first_line))


@lru_cache(maxsize=512)
def _paragraphs(text: str, first_line: int) -> tuple[Paragraph, ...]:
    out: list[Paragraph] = []
    current: list[tuple[int, str]] = []
    condition: str | None = None
    pending: str | None = None
    skipping: str | None = None

    def flush() -> None:
        nonlocal current, condition
        body = " ".join(t.strip() for _, t in current).strip()
        if body:
            out.append(Paragraph(body, current[0][0], condition, len(out), tuple(current)))
        current, condition = [], None

    for offset, line in enumerate(text.splitlines()):
        number = first_line + offset
        if skipping == "block":
            if _FENCE_CLOSE.match(line):
                skipping = None
            continue
        if skipping == "code":
            if _CODE.match(line):
                skipping = None
            continue
        if _FENCE_OPEN.match(line) or _CODE.match(line):
            flush()
            pending = None
            skipping = "block" if _FENCE_OPEN.match(line) else "code"
            continue
        matched = _IF.match(line)
        if matched:
            flush()
            pending = _as_condition(_unquote(matched["cond"].strip())) or None
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            flush()
            continue
        if _BULLET.match(line) and current:
            scoped = condition
            flush()
            if scoped is not None and pending is None:
                # a list right after an `if:` line: its items share the scope
                pending = scoped
        if not current:
            condition, pending = pending, None
        current.append((number, _BULLET.sub("", line)))
    flush()
    return tuple(out)


@lru_cache(maxsize=512)
def _sentences(text: str, first_line: int) -> tuple[Sentence, ...]:
    out: list[Sentence] = []
    for para in _paragraphs(text, first_line):
        joined = ""
        starts: list[tuple[int, int]] = []
        for number, line in para.lines:
            if joined:
                joined += " "
            starts.append((len(joined), number))
            joined += line.strip()
        position = 0
        for part in _SENTENCE_END.split(joined):
            at = joined.find(part, position)
            position = at + len(part)
            line = max((n for start, n in starts if start <= at), default=para.line)
            if part.strip():
                out.append(Sentence(part.strip(), line, para.condition, para.index))
    return tuple(out)


def body_first_line(skill_md_text: str) -> int:
    """The file line where the body (after the frontmatter) starts."""
    lines = skill_md_text.splitlines()
    if lines and lines[0].strip() == "---":
        for index in range(1, len(lines)):
            if lines[index].strip() == "---":
                return index + 2
    return 1


__all__ = ["Paragraph", "Sentence", "body_first_line", "paragraphs", "sentences"]
