"""`casegen generate all --model offline` into a folder, as several benchmarks need it."""

from __future__ import annotations

from pathlib import Path
from typing import Any


async def generate_all_offline(
    project: Path, root: Path, *, verify: bool = True, concurrency: int = 4
) -> dict[str, Any]:
    """Every skill of `project` drafted offline into `root/cases` (checkpoints beside it);
    returns the generate report."""
    from agentflows.generate import build_request, run_generation

    request = build_request(
        ["all"],
        project=project,
        model="offline",
        cases_root=str(root / "cases"),
        concurrency=concurrency,
        verify=verify,
    )
    return await run_generation(request, checkpoints=root / "checkpoints.sqlite")
