"""Reading a source's definition for a model: the file as written, and short descriptions.

Every dialect tells a drafting or reviewing model what it tests (`Dialect.definition_text`,
`Dialect.definition_ids`); these are the pieces they share.
"""

from __future__ import annotations

from pathlib import Path

from .._readbytes import read_text


def read_definition(path: Path) -> str | None:
    """The definition file's text, None where it cannot be read (the project reader already
    warned about it; the caller falls back to the parsed body)."""
    try:
        return read_text(path)
    except (OSError, UnicodeDecodeError):
        return None


def first_sentence(text: str | None) -> str | None:
    """The first sentence of a description, on one line (a model needs what a thing is for,
    not its whole description)."""
    if not text:
        return None
    flat = " ".join(text.split())
    end = flat.find(". ")
    return flat if end < 0 else flat[: end + 1]
