"""Splitting a markdown file into YAML frontmatter and body (skill.md, SKILL.md).

Both formats open with a `---` line, then YAML, then a closing `---` line. The split keeps
line numbers so that warnings about a frontmatter key or a body line point into the file.
"""

from __future__ import annotations

from pathlib import Path

from .._readbytes import read_text
from .._record import dataclass

_DELIMITER = "---"


@dataclass(frozen=True)
class Split:
    """The two parts of a markdown file with frontmatter."""

    frontmatter: str | None
    """The YAML text between the delimiters; None when there is no (closed) frontmatter."""
    frontmatter_offset: int
    """Lines before the frontmatter text (YAML line 1 is file line `offset + 1`)."""
    body: str
    body_first_line: int
    """File line number of the body's first line."""
    problem: tuple[int, str] | None = None
    """`(line, message)` when the delimiters are missing or unclosed."""


def split_frontmatter(text: str, *, filename: str) -> Split:
    """Split `text`; without a valid `---` frontmatter the whole text is the body."""
    text = text.removeprefix("\ufeff")
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != _DELIMITER:
        return Split(
            None,
            0,
            text,
            1,
            (1, f"{filename} must start with a '---' line opening the YAML frontmatter"),
        )
    for index in range(1, len(lines)):
        if lines[index].rstrip() == _DELIMITER:
            return Split(
                frontmatter="".join(lines[1:index]),
                frontmatter_offset=1,
                body="".join(lines[index + 1 :]),
                body_first_line=index + 2,
            )
    return Split(
        None,
        0,
        text,
        1,
        (1, f"{filename} frontmatter is not closed by a '---' line"),
    )


def body_on_disk(path: Path, kept: str) -> str:
    """The body of the markdown file at `path` as it is on disk now (frontmatter split off),
    or `kept`, the reader's copy, where the file is gone or is not UTF-8 text."""
    try:
        return split_frontmatter(read_text(path), filename=path.name).body
    except (OSError, UnicodeDecodeError):
        return kept


#: The skill.md frontmatter keys Mantle defines (Rasa's frontmatter model allows no other):
#: one table for the reader's unknown-key warnings and for Rasa's load check.
FRONTMATTER_KEYS = {
    "name",
    "description",
    "precondition",
    "hidden",
    "disabled",
    "always_include_in_prompt",
    "complete_when",
    "import_tools",
    "tool_constraints",
    "utter",
    "knowledge_answering",
    "routing",
}
CONSTRAINT_KEYS = {"requires", "requires_confirmation", "on_success", "on_failure"}
CONFIRMATION_KEYS = {"enabled", "utter_for_confirmation", "utter_on_user_denial"}
