"""The tools a generate report's cases run that act on a real service, grouped by tool.

`casegen generate` prints one line per such tool and the PR description lists them under its
caveats: both read the same grouping, so the two never disagree on which cases touch which
service or which credentials make that real.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class OutsideTool:
    """One tool acting on a real service and the report rows (cases) that run it."""

    tool: str
    calls: list[str]
    credentials: list[str]
    rows: list[dict[str, Any]] = field(default_factory=list)


def outside_by_tool(rows: Iterable[dict[str, Any]]) -> list[OutsideTool]:
    """Each tool named in the rows' `outside` effects, in first-seen order, with its rows."""
    tools: dict[str, OutsideTool] = {}
    for row in rows:
        for effect in row.get("outside") or []:
            entry = tools.setdefault(
                effect["tool"],
                OutsideTool(
                    effect["tool"],
                    list(effect.get("calls") or []),
                    list(effect.get("credentials") or []),
                ),
            )
            entry.rows.append(row)
    return list(tools.values())
