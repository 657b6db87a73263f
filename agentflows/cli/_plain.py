"""Console output that imports rich only when its output needs rich.

`validate` and `sources` print markup lines (`[green]✓[/] path [dim](mantle)[/]`). When the
stream is not a terminal (a pipe, a CI log, a test), rich prints them with no colour and,
with soft wrap on, no wrapping: the plain text of the markup and a newline. Importing
rich's console for that was a fifth of those commands' start-up. `Out` writes that text
itself when it is sure it is what rich would print (no control character or tab to
translate, no tag rich might reject; emoji codes are off in the consoles) and otherwise,
and for everything else a console does (tables, status, prompts, a terminal), hands over to the real
`rich.console.Console`, created on first need and used from then on.
"""

from __future__ import annotations

import builtins
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

#: rich's own patterns (`rich.markup`).
_TAGS = re.compile(r"((\\*)\[([a-z#/@][^[]*?)])")
_ESCAPE = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")
#: What rich translates in printed text: bell, backspace, vertical tab, form feed and
#: carriage return are stripped (`rich.control`), tabs are expanded to the next stop.
_TRANSLATED = frozenset("\a\b\v\f\r\t")
#: Styles given as `print(..., style=...)` that are known to parse (colour only).
_PLAIN_STYLES = (None, "", "dim")

#: Parts of a styled line: `(text, style)`, as `rich.text.Text.append` takes them.
Parts = Sequence[tuple[str, str | None]]


def escape(markup: str) -> str:
    """`rich.markup.escape`: text that prints as itself inside markup."""

    def double(match: re.Match[str]) -> str:
        backslashes, text = match.groups()
        return f"{backslashes}{backslashes}\\{text}"

    markup = _ESCAPE.sub(double, markup)
    if markup.endswith("\\") and not markup.endswith("\\\\"):
        return markup + "\\"
    return markup


def plain_markup(markup: str) -> str | None:
    """The text rich prints for this markup when it prints no style, or None where that
    is not certain (rich then prints it): a translated character, a meta tag, a closing
    tag that matches no open one (rich raises `MarkupError` for it). The consoles print
    emoji codes (`:car:`) as they are written."""
    if not _TRANSLATED.isdisjoint(markup):
        return None
    if "[" not in markup:
        return markup
    out: list[str] = []
    opened: list[str] = []
    position = 0
    for match in _TAGS.finditer(markup):
        full, escapes, tag = match.groups()
        start, end = match.span()
        if start > position:
            out.append(markup[position:start].replace("\\[", "["))
        position = end
        if escapes:
            backslashes, escaped = divmod(len(escapes), 2)
            out.append("\\" * backslashes)
            if escaped:
                out.append(full[len(escapes) :].replace("\\[", "["))
                continue
        name = tag.partition("=")[0]
        if name.startswith(("@", "/@")):
            return None
        if not name.startswith("/"):
            opened.append(name.strip())
        elif not opened or (name[1:].strip() and name[1:].strip() not in opened):
            return None
        else:
            closing = name[1:].strip()
            opened.pop(len(opened) - 1 - opened[::-1].index(closing) if closing else -1)
    out.append(markup[position:].replace("\\[", "["))
    return "".join(out)


def plain_parts(parts: Parts) -> str | None:
    """The text rich prints for a `Text` of these parts without style, or None where rich
    would translate a character of it."""
    text = "".join(part for part, _ in parts)
    return None if not _TRANSLATED.isdisjoint(text) else text


def _rich_needed(stream: Any) -> bool:
    """Whether rich might print anything but plain text to this stream: a terminal, an
    environment that forces one (`FORCE_COLOR`, `TTY_COMPATIBLE`), Jupyter or IDLE."""
    if stream is None or any(os.environ.get(k) is not None for k in _FORCING):
        return True
    if hasattr(builtins, "get_ipython") or getattr(sys.stdin, "__module__", "").startswith(
        "idlelib"
    ):
        return True
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return True


_FORCING = ("FORCE_COLOR", "TTY_COMPATIBLE", "JUPYTER_COLUMNS", "JUPYTER_LINES")


class Out:
    """`stdout` or `stderr` of the CLI: prints plain lines itself while it can (see the
    module's docstring), else is the rich console `make` builds (every other attribute,
    and every call once the console exists)."""

    def __init__(self, make: Callable[[], Any], *, stderr: bool = False) -> None:
        self.__dict__.update(_make=make, _stderr=stderr, _console=None)

    @property
    def console(self) -> Any:
        """The rich console (made on first use; from then on it prints everything)."""
        if self._console is None:
            self.__dict__["_console"] = self._make()
        return self._console

    def print(self, *objects: Any, style: str | None = None, **options: Any) -> None:
        text = None
        simple = len(objects) == 1 and style in _PLAIN_STYLES and set(options) <= {"highlight"}
        if self._console is None and simple:
            text = self._plain(objects[0])
        if text is None:
            self.console.print(*objects, style=style, **options)
            return
        self._write(text)

    def print_parts(self, parts: Parts) -> None:
        """One line of styled parts (`rich.text.Text` of them on the rich path)."""
        if self._console is None and self._plain_stream():
            text = plain_parts(parts)
            if text is not None:
                self._write(text)
                return
        from rich.text import Text  # start-up: rich

        line = Text()
        for part, part_style in parts:
            line.append(part, style=part_style)
        self.console.print(line)

    def _write(self, text: str) -> None:
        stream = sys.stderr if self._stderr else sys.stdout
        stream.write(text + "\n")
        stream.flush()

    def _plain_stream(self) -> bool:
        return not _rich_needed(sys.stderr if self._stderr else sys.stdout)

    def _plain(self, obj: Any) -> str | None:
        if not isinstance(obj, str) or not self._plain_stream():
            return None
        return plain_markup(obj)

    def __enter__(self) -> Any:  # rich's `Live` and `Status` hold the console's buffer
        return self.console.__enter__()

    def __exit__(self, *exc: object) -> None:
        self.console.__exit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.console, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.console, name, value)
