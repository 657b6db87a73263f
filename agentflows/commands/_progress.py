"""What a generation run has done so far, counted from the flow's per-node updates: the
CLI's progress line and the MCP tool's progress notifications both read it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.progress import Progress


class GenerateCounters:
    """Turns the flow's per-node updates into the progress line."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress
        self.task = progress.add_task("planning", total=None) if progress else None
        self.planned = 0
        self.drafted: set[str] = set()
        self.valid: set[str] = set()
        self.repaired: set[str] = set()
        self.failed: set[str] = set()

    def __call__(self, node: str, values: dict[str, Any]) -> None:
        if node == "plan":
            self.planned = len(values.get("behaviors", []))
        for behavior_id, work in (values.get("cases") or {}).items():
            status = work["status"]
            if node == "draft":
                (self.drafted if status != "failed" else self.failed).add(behavior_id)
                if work.get("deterministic_done"):  # a model's draft settles in its task
                    self.repaired.add(behavior_id)
                if status == "valid":
                    self.valid.add(behavior_id)
            elif node == "repair":
                self.repaired.add(behavior_id)
            elif status == "valid":
                self.valid.add(behavior_id)
            elif status == "failed":
                self.failed.add(behavior_id)
        self.refresh(node)

    def refresh(self, node: str) -> None:
        if self.progress is None or self.task is None:
            return
        # start-up: pydantic, asyncio, tomllib and 12 casegen modules
        from evalcore.llm.budget import waiting

        held = waiting()
        self.progress.update(
            self.task,
            total=self.planned or None,
            completed=len(self.valid) + len(self.failed),
            description=(
                f"{node:<8} planned {self.planned} · drafted {len(self.drafted)} · "
                f"valid {len(self.valid)} · repaired {len(self.repaired)} · "
                f"failed {len(self.failed)}"
                + (f" · {held} waiting on the rpm/tpm budget" if held else "")
            ),
        )


__all__ = ["GenerateCounters"]
