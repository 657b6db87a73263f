"""Which `draft` tasks the flow fans out after planning (one per case, or one per source
for the offline engine), and each case's sibling titles."""

from __future__ import annotations

from typing import Literal

from langgraph.types import Send

from ._siblings import siblings
from .state import DraftTask, GenerateState, resumable


def route_drafts(state: GenerateState) -> list[Send] | Literal["validate"]:
    """Fan out one `draft` task per behaviour not drafted yet (resume skips finished ones,
    and drafts again the cases the endpoint failed: unreachable, refused, timed out). The
    offline engine gets one task per source instead (`DraftTask.batch`)."""
    done = state.get("cases", {})
    behaviors = state.get("behaviors", [])
    titles: dict[str, list[str]] = {}
    for b in behaviors:
        titles.setdefault(b["source"], []).append(b["title"])
    tasks = [
        DraftTask(behavior=b, work=None, siblings=siblings(b, behaviors, titles))
        for b in behaviors
        if b["id"] not in done or resumable(done[b["id"]])
    ]
    if not tasks:
        return "validate"
    if (state.get("request") or {}).get("model") != "offline":
        return [Send("draft", task) for task in tasks]
    by_source: dict[str, list[DraftTask]] = {}
    for task in tasks:
        by_source.setdefault(task["behavior"]["source"], []).append(task)
    return [
        Send("draft", DraftTask(behavior=group[0]["behavior"], work=None, siblings=[], batch=group))
        for group in by_source.values()
    ]


__all__ = ["route_drafts", "siblings"]
