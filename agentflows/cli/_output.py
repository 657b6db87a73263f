"""Terminal and JSON output shared by every command.

Human output goes through rich (imported only when the output needs it: `_plain`);
`--json` prints exactly one JSON document on stdout and nothing else, so coding agents can
parse it. Progress and notes go to stderr.
"""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Any

import typer

from ._plain import Out, Parts, escape

if TYPE_CHECKING:  # annotations only: pydantic loads with the first command that needs it
    from collections.abc import Sequence
    from pathlib import Path

    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from evalcore.errors import UserError
    from evalcore.findings import FileReport, Finding

#: The base of the usage errors a typer app raises (a bad option, a missing argument, an
#: unknown command). typer (0.29 on) vendors click and names only one of its exceptions,
#: `typer.BadParameter`, publicly; this is that one's base of this name.
ClickException: type[Any] = next(
    base for base in typer.BadParameter.__mro__ if base.__name__ == "ClickException"
)


def is_no_args_help(error: BaseException) -> bool:
    """Whether `error` is click's "no arguments: show the help" (`no_args_is_help`), told by
    its class name as typer itself tells it (typer names no public class for it)."""
    return any(base.__name__ == "NoArgsIsHelpError" for base in type(error).__mro__)


#: Width when output is not a terminal (CI logs, pipes): rich's default of 80 columns wraps
#: tables into unreadable towers.
PIPE_WIDTH = 140


def _stdout_console() -> Console:
    from rich.console import Console  # start-up: rich, for human output only

    terminal = sys.stdout.isatty()
    return Console(
        highlight=False,
        # In a terminal rich wraps long lines between words (the terminal itself would cut
        # "killed" into "ki" / "lled"); in a pipe a line stays whole, for grep.
        soft_wrap=not terminal,
        emoji=False,  # ids such as `file_claim:Car:` print as themselves, not as 🚗
        width=None if terminal else PIPE_WIDTH,
    )


def _stderr_console() -> Console:
    from rich.console import Console  # start-up: rich, for human output only

    return Console(stderr=True, highlight=False, soft_wrap=not sys.stderr.isatty(), emoji=False)


stdout = Out(_stdout_console)
stderr = Out(_stderr_console, stderr=True)


#: A lone UTF-16 surrogate (from a JSON `"\\ud800"` escape) cannot be encoded as UTF-8
#: (compiled on the first JSON output, not at import).
_SURROGATE = "[\ud800-\udfff]"


def json_text(payload: Any) -> str:
    """Pretty JSON; lone surrogates stay `\\udXXX` escapes, so the text is valid UTF-8."""
    import json  # start-up: json; text output, most commands' default, needs none

    text = json.dumps(payload, indent=2, ensure_ascii=False, default=str)
    return re.sub(_SURROGATE, lambda m: f"\\u{ord(m.group()):04x}", text)


def print_json(payload: Any) -> None:
    sys.stdout.write(json_text(payload) + "\n")
    sys.stdout.flush()


def print_error(
    message: str,
    hint: str | None,
    exit_code: int,
    *,
    as_json: bool,
    usage: BaseException | None = None,
) -> None:
    """One error: the JSON object `{"error", "hint", "exit_code"}` under `--json`, else a
    red line and a hint on stderr (user text is escaped: it may hold `[...]`). Both are
    redacted: an error may quote an endpoint that echoed the key it was sent."""
    from evalcore.redact import (
        redact,
    )  # start-up: the redaction patterns, read only when output is redacted

    message, hint = redact(message), (redact(hint) if hint else hint)
    if as_json:
        print_json({"error": message, "hint": hint, "exit_code": exit_code})
        return
    if usage is not None and getattr(usage, "ctx", None) is not None:
        stderr.print(escape(usage.ctx.get_usage()), style="dim")
    stderr.print(f"[red]error:[/] {escape(message)}", highlight=False)
    if hint:
        stderr.print(f"  [dim]hint:[/] {escape(hint)}", highlight=False)


def print_table(table: Table, console: Console | None = None) -> None:
    """A table on stdout; when stdout is not a terminal (a pipe, a CI log) it is printed at
    its natural width up to the console's (140 columns), and wider only as far as its
    unbreakable cells need: file names and ids (`no_wrap` columns) stay whole on one line,
    prose wraps between words."""
    console = console or stdout.console
    if console.is_terminal:
        console.print(table)
        return
    from rich.measure import Measurement  # start-up: rich, for human output only

    unbounded = console.options.update_width(100_000)
    needs = Measurement.get(console, unbounded, table)
    width = max(min(needs.maximum, console.width), needs.minimum, 20)
    before = console.width  # rich caps `print(width=)` at the console's width
    console.width = max(width, before)
    try:
        console.print(table, width=width, crop=False)
    finally:
        console.width = before


def no_case_files(paths: Sequence[Path]) -> UserError:
    """The error for paths that hold no case file: a check of nothing is not a pass."""
    from evalcore.errors import (
        UserError,
    )  # start-up: casegen's errors, read only when a command fails

    return UserError(
        "no case files found under " + ", ".join(str(p) for p in paths),
        hint="give Mantle scenario YAML, Anychat test-case JSON or base44 eval JSON files, "
        "or folders that contain them",
    )


def finding_parts(finding: Finding) -> Parts:
    """`  12  /scenario/goals/...  error unknown-tool  message (value) → suggestion`."""
    colour = "red" if finding.severity == "error" else "yellow"
    parts: list[tuple[str, str | None]] = [("  ", None)]
    parts.append((f"{finding.line or '-':>4}  ", "dim"))
    parts.append((f"{finding.severity} ", f"bold {colour}"))
    parts.append((f"[{finding.code}] ", colour))
    if finding.path:
        parts.append((finding.path + "  ", "cyan"))
    parts.append((finding.message, None))
    if finding.suggestion:
        parts.append((f"  → {finding.suggestion}", "green"))
    return parts


def finding_line(finding: Finding) -> Text:
    """One finding as a rich `Text` (see `finding_parts`)."""
    from rich.text import Text  # start-up: rich, for human output only

    text = Text()
    for part, style in finding_parts(finding):
        text.append(part, style=style)
    return text


def print_report(report: FileReport) -> None:
    mark = "[green]✓[/]" if report.valid else "[red]✗[/]"
    dialect = f" [dim]({report.dialect})[/]" if report.dialect else ""
    stdout.print(f"{mark} {escape(report.path)}{dialect}")
    for finding in report.findings:
        stdout.print_parts(finding_parts(finding))
