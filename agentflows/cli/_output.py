"""Terminal and JSON output shared by every command.

Human output goes through rich; `--json` prints exactly one JSON document on stdout and
nothing else, so coding agents can parse it. Progress and notes go to stderr.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

if TYPE_CHECKING:  # annotations only: pydantic loads with the first command that needs it
    from evalcore.findings import FileReport, Finding

#: Width when output is not a terminal (CI logs, pipes): rich's default of 80 columns wraps
#: tables into unreadable towers.
PIPE_WIDTH = 140

stdout = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else PIPE_WIDTH)
stderr = Console(stderr=True, highlight=False, soft_wrap=True)


def print_json(payload: Any) -> None:
    sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False, default=str) + "\n")
    sys.stdout.flush()


def finding_line(finding: Finding) -> Text:
    """`  12  /scenario/goals/...  error unknown-tool  message (value) → suggestion`."""
    colour = "red" if finding.severity == "error" else "yellow"
    text = Text("  ")
    text.append(f"{finding.line or '-':>4}  ", style="dim")
    text.append(f"{finding.severity} ", style=f"bold {colour}")
    text.append(f"[{finding.code}] ", style=colour)
    if finding.path:
        text.append(finding.path + "  ", style="cyan")
    text.append(finding.message)
    if finding.suggestion:
        text.append(f"  → {finding.suggestion}", style="green")
    return text


def print_report(report: FileReport) -> None:
    mark = "[green]✓[/]" if report.valid else "[red]✗[/]"
    dialect = f" [dim]({report.dialect})[/]" if report.dialect else ""
    stdout.print(f"{mark} {escape(report.path)}{dialect}")
    for finding in report.findings:
        stdout.print(finding_line(finding))
